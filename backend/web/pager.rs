//! The links under a paged list on a page: "First page" and "Next page", plain links that
//! keep the list's filters and work without JavaScript.
use actix_web::HttpRequest;

/// Where the links under a list lead; `None` hides a link.
#[derive(Debug, Clone, Default)]
pub struct Pager {
    /// Back to the first page (shown on every page after the first).
    pub first: Option<String>,
    /// The next page (shown when one follows).
    pub next: Option<String>,
}

impl Pager {
    /// The links for a page of the list at `req`'s path: the same query with the `cursor`
    /// replaced by `next_cursor` (next) or removed (first).
    pub fn new(req: &HttpRequest, next_cursor: Option<&str>) -> Pager {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(req.query_string()).unwrap_or_default();
        let on_first_page = !pairs
            .iter()
            .any(|(name, value)| name == "cursor" && !value.trim().is_empty());
        let kept: Vec<(String, String)> = pairs
            .into_iter()
            .filter(|(name, _)| name != "cursor")
            .collect();
        let link = |extra: Option<&str>| {
            let mut pairs = kept.clone();
            if let Some(cursor) = extra {
                pairs.push(("cursor".into(), cursor.into()));
            }
            let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
            if query.is_empty() {
                req.path().to_string()
            } else {
                format!("{}?{query}", req.path())
            }
        };
        Pager {
            first: (!on_first_page).then(|| link(None)),
            next: next_cursor.map(|cursor| link(Some(cursor))),
        }
    }

    /// Whether there is any link to show.
    pub fn any(&self) -> bool {
        self.first.is_some() || self.next.is_some()
    }
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn the_links_keep_the_filters_and_swap_the_cursor() {
        let first_page = TestRequest::get()
            .uri("/players?q=%D0%98%D0%B2&club=3")
            .to_http_request();
        let pager = Pager::new(&first_page, Some("abc"));
        assert_eq!(pager.first, None);
        assert_eq!(
            pager.next.as_deref(),
            Some("/players?q=%D0%98%D0%B2&club=3&cursor=abc")
        );

        let later = TestRequest::get()
            .uri("/players?cursor=abc&q=x")
            .to_http_request();
        let pager = Pager::new(&later, None);
        assert_eq!(pager.first.as_deref(), Some("/players?q=x"));
        assert_eq!(pager.next, None);
        assert!(pager.any());
    }
}
