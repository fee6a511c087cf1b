//! A drawn opening as pages show it beside its code and moves: a small board diagram of
//! the position after the opening's moves and that position's FEN. The position is
//! replayed by the engine from the table's moves (not read back from a stored FEN), so the
//! diagram shows what the players really take over.
use damka_engine::{Game, Position, Variant};

use crate::service::events::ballot::OpeningView;
use crate::web::game_board::{self, BoardOptions};
use crate::web::i18n::Lang;

/// The diagram and the FEN of one opening's position.
#[derive(Debug, Clone)]
pub struct OpeningDiagram {
    /// An SVG board (`class="game-board opening-board"`), scaled by its `viewBox`.
    pub svg: String,
    /// The position as the engine writes FEN.
    pub fen: String,
}

/// The position after `moves` played from `start_fen` (or the variant's initial
/// position); `None` if the engine refuses the set-up or a move (a table is checked when
/// it is set, so this only happens to a table changed since).
pub fn position_after(
    variant: Variant,
    start_fen: Option<&str>,
    moves: &[String],
) -> Option<Position> {
    let mut game = match start_fen {
        Some(fen) => Game::from_position(Position::from_fen(variant, fen).ok()?),
        None => Game::new(variant),
    };
    for text in moves {
        game.play_str(text).ok()?;
    }
    Some(*game.position())
}

/// The diagram of `position`, titled with the opening's code.
pub fn of_position(lang: Lang, code: &str, position: &Position) -> OpeningDiagram {
    let title = lang.tf("micro.opening_diagram", &[&code]);
    let svg = game_board::draw(
        position,
        &BoardOptions {
            flipped: false,
            last_move: None,
            title: &title,
        },
    );
    // The same drawing as the game's board, told apart by a class: the stylesheet keeps it
    // small, and the game page's click script only looks inside its own board.
    let svg = svg.replacen(
        r#"class="game-board""#,
        r#"class="game-board opening-board""#,
        1,
    );
    OpeningDiagram {
        svg,
        fen: position.to_fen(),
    }
}

/// The diagram of a drawn opening shown on an event's pages.
pub fn of_opening(lang: Lang, opening: &OpeningView) -> Option<OpeningDiagram> {
    let position = position_after(
        opening.variant,
        opening.start_fen.as_deref(),
        &opening.moves,
    )?;
    Some(of_position(lang, &opening.code, &position))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagram_shows_the_position_after_the_moves() {
        let moves = vec!["c3-d4".to_string(), "f6-g5".to_string()];
        let position = position_after(Variant::Russian, None, &moves).expect("legal moves");
        let diagram = of_position(Lang::Ru, "1-I", &position);
        assert_eq!(diagram.fen, position.to_fen());
        assert!(
            diagram
                .svg
                .starts_with(r#"<svg class="game-board opening-board""#)
        );
        assert_eq!(diagram.svg.matches("class=\"piece ").count(), 24);
        assert!(position_after(Variant::Russian, None, &["a1-a2".to_string()]).is_none());
    }
}
