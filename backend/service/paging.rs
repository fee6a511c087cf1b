//! Pages of a list: `?limit=` items after an opaque `cursor`.
//!
//! Keyset paging: a cursor holds the sort key and the unique id of the last item a page
//! showed, and the next page is "the items after that key" in the same order. Rows inserted
//! or removed meanwhile therefore never make a page repeat or skip an item that was there
//! all along (an offset would shift under them), and a deep page costs what the first does.
//! The cursor is base64url JSON: opaque to clients, which only pass it back.
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::{AppError, AppResult};
use super::refusal::Refusal;

/// Items on a page when the request names no `limit`.
pub const DEFAULT_LIMIT: usize = 50;
/// The most items one page holds, whatever the request asks.
pub const MAX_LIMIT: usize = 200;
/// A cursor longer than this was not made here (the longest key is a name of 200
/// characters and an id); refused before it is decoded.
const MAX_CURSOR_LEN: usize = 2048;

/// One page of a list, as the API answers it: the items, and the cursor of the next page
/// (`null` on the last page).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Pass it back as `cursor` for the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

impl<T> Page<T> {
    /// A page from rows read in the list's order, at most `limit + 1` of them (read one more
    /// than the page holds to learn whether another page follows): keeps `limit`, and when
    /// there was one more, the next cursor is the key of the last row kept.
    pub fn from_rows<K: Serialize>(
        mut rows: Vec<T>,
        limit: usize,
        key: impl Fn(&T) -> K,
    ) -> Page<T> {
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next_cursor = if more {
            rows.last().map(|last| encode_cursor(&key(last)))
        } else {
            None
        };
        Page {
            items: rows,
            next_cursor,
        }
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            next_cursor: self.next_cursor,
        }
    }
}

/// What a request asked of a list: how many items, after which key.
#[derive(Debug, Clone, PartialEq)]
pub struct PageRequest<K> {
    pub limit: usize,
    /// The key of the last item of the previous page; `None` for the first page.
    pub after: Option<K>,
}

impl<K> PageRequest<K> {
    /// The first page of `limit` items.
    pub fn first(limit: usize) -> PageRequest<K> {
        PageRequest { limit, after: None }
    }

    /// How many rows to read: one more than the page holds, to learn whether another follows.
    pub fn fetch(&self) -> usize {
        self.limit + 1
    }
}

impl<K: DeserializeOwned> PageRequest<K> {
    /// Reads `limit` (1 to [`MAX_LIMIT`], default [`DEFAULT_LIMIT`]) and `cursor` (empty is
    /// the first page); a bad one is refused naming the field.
    pub fn parse(limit: Option<i64>, cursor: Option<&str>) -> AppResult<PageRequest<K>> {
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(asked) if (1..=MAX_LIMIT as i64).contains(&asked) => asked as usize,
            Some(_) => {
                return Err(AppError::invalid(
                    "limit",
                    Refusal::NotBetween {
                        min: 1,
                        max: MAX_LIMIT as i64,
                    },
                ));
            }
        };
        let after = match cursor.map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(decode_cursor(text)?),
        };
        Ok(PageRequest { limit, after })
    }
}

/// The cursor that makes a list continue after `key`.
pub fn encode_cursor<K: Serialize>(key: &K) -> String {
    // Serialising plain keys (numbers, strings, tuples of them) cannot fail; an empty
    // cursor (the first page again) is the harmless answer if one ever did.
    serde_json::to_vec(key)
        .map(|json| URL_SAFE_NO_PAD.encode(json))
        .unwrap_or_default()
}

fn decode_cursor<K: DeserializeOwned>(text: &str) -> AppResult<K> {
    let refused = || AppError::invalid("cursor", Refusal::BadCursor);
    if text.len() > MAX_CURSOR_LEN {
        return Err(refused());
    }
    let json = URL_SAFE_NO_PAD.decode(text).map_err(|_| refused())?;
    serde_json::from_slice(&json).map_err(|_| refused())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_gives_back_the_key_it_was_made_from() {
        let key = ("Иванов Пётр".to_string(), 42_i64);
        let cursor = encode_cursor(&key);
        assert!(
            cursor
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        let asked: PageRequest<(String, i64)> =
            PageRequest::parse(Some(10), Some(&cursor)).unwrap();
        assert_eq!(
            asked,
            PageRequest {
                limit: 10,
                after: Some(key)
            }
        );
    }

    #[test]
    fn limits_outside_one_to_the_maximum_and_foreign_cursors_are_refused() {
        for limit in [0, -1, MAX_LIMIT as i64 + 1] {
            let refused = PageRequest::<i64>::parse(Some(limit), None).unwrap_err();
            assert!(
                matches!(refused, AppError::Invalid { field: "limit", .. }),
                "{refused:?}"
            );
        }
        let default = PageRequest::<i64>::parse(None, Some("  ")).unwrap();
        assert_eq!(
            default,
            PageRequest {
                limit: DEFAULT_LIMIT,
                after: None
            }
        );
        let other_list = encode_cursor(&("name", 3));
        for cursor in ["not base64!", "e30", other_list.as_str(), &"A".repeat(5000)] {
            let refused = PageRequest::<i64>::parse(None, Some(cursor)).unwrap_err();
            assert!(
                matches!(
                    refused,
                    AppError::Invalid {
                        field: "cursor",
                        reason: Refusal::BadCursor
                    }
                ),
                "{cursor}: {refused:?}"
            );
        }
    }

    #[test]
    fn a_page_keeps_the_limit_and_points_after_its_last_item_only_when_more_follow() {
        let page = Page::from_rows(vec![1, 2, 3], 2, |n| *n);
        assert_eq!(page.items, vec![1, 2]);
        let next: PageRequest<i32> = PageRequest::parse(None, page.next_cursor.as_deref()).unwrap();
        assert_eq!(next.after, Some(2));
        let last = Page::from_rows(vec![1, 2], 2, |n| *n);
        assert_eq!(last.next_cursor, None);
    }
}
