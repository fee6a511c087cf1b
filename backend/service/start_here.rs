//! The administrator's "start here" list on a new site: make a club, add its players,
//! create an event, pair its first round. Each step is done when the site has one; the
//! list is gone once all are done.
use super::{Actor, AppResult};
use crate::store::{DbConn, site_progress};

/// One step, its catalogue key's last part (`start.club`, ...), its page, and whether the
/// site has done it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub key: &'static str,
    pub link: &'static str,
    pub done: bool,
}

/// The steps for an administrator while one is not done; nothing for anybody else.
pub fn steps(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<Step>> {
    if !actor.is_admin() {
        return Ok(Vec::new());
    }
    let (club, players, event, round) = site_progress::progress(conn)?;
    let steps = vec![
        Step {
            key: "club",
            link: "/clubs/new",
            done: club,
        },
        Step {
            key: "players",
            link: "/players/new",
            done: players,
        },
        Step {
            key: "event",
            link: "/events/new",
            done: event,
        },
        Step {
            key: "pair",
            link: "/events",
            done: round,
        },
    ];
    if steps.iter().all(|s| s.done) {
        Ok(Vec::new())
    } else {
        Ok(steps)
    }
}
