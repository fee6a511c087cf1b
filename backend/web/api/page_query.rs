//! The query of a paged list that has no filters of its own: `limit` and `cursor`.
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::service::AppResult;
use crate::service::paging::PageRequest;

/// Which page of a list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct PageQuery {
    /// Items on a page: 1 to 200, 50 if not given.
    limit: Option<i64>,
    /// Where the page starts: `next_cursor` of the page before; none for the first page.
    cursor: Option<String>,
}

impl PageQuery {
    /// The page asked for, or the refusal of a bad `limit` or `cursor` (422).
    pub fn request<K: DeserializeOwned>(&self) -> AppResult<PageRequest<K>> {
        PageRequest::parse(self.limit, self.cursor.as_deref())
    }
}
