//! What a live notification says: which game or event to look at again. A leaf of the live
//! module, shared by the hub, the PostgreSQL listener and the senders.

/// The PostgreSQL channel every instance of one database listens on.
pub const CHANNEL: &str = "damka_live";

/// What changed, as a notification says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A game (and so the event it belongs to, if any).
    Game { game_id: i64, event_id: Option<i64> },
    /// An event's round without a game changing: a result entered for a board without a
    /// game, a round published, paired again or changed by hand.
    Event { event_id: i64 },
}

impl Change {
    /// The NOTIFY payload: `game:<id>:<event id or nothing>` or `event:<id>`.
    pub fn payload(self) -> String {
        match self {
            Change::Game { game_id, event_id } => match event_id {
                Some(event_id) => format!("game:{game_id}:{event_id}"),
                None => format!("game:{game_id}:"),
            },
            Change::Event { event_id } => format!("event:{event_id}"),
        }
    }

    /// A payload read back; `None` for anything else on the channel.
    pub fn parse(payload: &str) -> Option<Change> {
        let mut parts = payload.split(':');
        let change = match (parts.next()?, parts.next()?, parts.next()) {
            ("game", id, Some(event)) => Change::Game {
                game_id: id.parse().ok()?,
                event_id: match event {
                    "" => None,
                    event => Some(event.parse().ok()?),
                },
            },
            ("event", id, None) => Change::Event {
                event_id: id.parse().ok()?,
            },
            _ => return None,
        };
        parts.next().is_none().then_some(change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_read_back_as_the_change_they_say() {
        for change in [
            Change::Game {
                game_id: 12,
                event_id: Some(3),
            },
            Change::Game {
                game_id: 7,
                event_id: None,
            },
            Change::Event { event_id: 40 },
        ] {
            assert_eq!(Change::parse(&change.payload()), Some(change));
        }
        assert_eq!(
            change_of("game:12:3"),
            "Some(Game { game_id: 12, event_id: Some(3) })"
        );
        for junk in [
            "",
            "game",
            "game:x:",
            "game:1",
            "event:1:2",
            "round:1",
            "game:1:2:3",
        ] {
            assert_eq!(Change::parse(junk), None, "{junk}");
        }
    }

    fn change_of(payload: &str) -> String {
        format!("{:?}", Change::parse(payload))
    }
}
