//! Colour allocation (C.04.3 E) and the order of the boards.

use super::players::{PlayerState, RoundContext};
use crate::tournament::Colour;

/// Whether `a` is ranked above `b`: higher score for pairing (accelerated), then smaller
/// pairing number.
pub fn ranked_above(a: &PlayerState, b: &PlayerState) -> bool {
    (a.score, std::cmp::Reverse(a.rank)) > (b.score, std::cmp::Reverse(b.rank))
}

/// [`ranked_above`] on the scores without acceleration (the order of the boards).
pub fn ranked_above_unaccelerated(a: &PlayerState, b: &PlayerState) -> bool {
    (a.unaccelerated_score, std::cmp::Reverse(a.rank))
        > (b.unaccelerated_score, std::cmp::Reverse(b.rank))
}

/// The colours of the most recent round, counted in games played by each, in which the two
/// players had different colours.
fn last_difference(p: &PlayerState, o: &PlayerState) -> Option<(Colour, Colour)> {
    p.colours
        .iter()
        .rev()
        .zip(o.colours.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(a, b)| (*a, *b))
}

/// E1..E4: the colour `p` gets from its preferences and history, if they decide it.
fn decided_by_preferences(p: &PlayerState, o: &PlayerState) -> Option<Colour> {
    let compatible =
        p.preference.is_none() || o.preference.is_none() || p.preference != o.preference;
    if compatible {
        return p.preference.or(o.preference.map(Colour::opposite));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Colour::opposite);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::opposite);
    }
    last_difference(p, o).map(|(_, oc)| oc)
}

/// The colour of player `p` against `o` (indices into the round's players).
pub fn colour_of(round: &RoundContext, p: usize, o: usize) -> Colour {
    let (pp, op) = (&round.players[p], &round.players[o]);
    if let Some(c) = decided_by_preferences(pp, op) {
        return c;
    }
    let p_higher = ranked_above(pp, op);
    match pp.preference {
        // E5: the higher ranked player gets its preference.
        Some(pref) => {
            if p_higher {
                pref
            } else {
                op.preference.map_or(pref, Colour::opposite)
            }
        }
        // No preference on either side: by the higher player's pairing number and the
        // initial colour.
        None => {
            let init = round.initial_colour;
            let (higher_rank, higher_is_p) = if p_higher {
                (pp.rank, true)
            } else {
                (op.rank, false)
            };
            let higher_colour = if higher_rank % 2 == 1 {
                init.opposite()
            } else {
                init
            };
            if higher_is_p {
                higher_colour
            } else {
                higher_colour.opposite()
            }
        }
    }
}
