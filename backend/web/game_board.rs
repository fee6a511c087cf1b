//! The board of a game page: a position drawn as SVG on the server, no script inside.
//!
//! Every dark square is a `<rect data-square="NAME">`, NAME spelt as the engine writes the
//! square in move notation (`c3` for russian and brazilian, `11` for english and
//! international), so `static/game.js` can match clicks against the legal moves of
//! [`legal_moves_json`]. Colours are presentation attributes, not `style`, because the
//! site's CSP allows no inline style; the page's stylesheet overrides them by class.
use std::fmt::Write;

use damka_engine::{Color, Move, Piece, PieceKind, Position, Square};

/// How to draw the board.
pub struct BoardOptions<'a> {
    /// Black's view: Black's pieces at the bottom (for the player of Black).
    pub flipped: bool,
    /// The last move played, highlighted (its path squares and captured squares).
    pub last_move: Option<&'a Move>,
    /// Accessible name of the drawing (already translated), e.g. "Позиция после 12. ...".
    pub title: &'a str,
}

/// Side of one square in SVG units.
const CELL: u32 = 40;
/// Room for the file letters and rank numbers beside an algebraic board.
const LABEL_ROOM: u32 = 16;
/// Room around a numbered board, whose numbers stand inside the squares.
const FRAME_ROOM: u32 = 2;

const LIGHT_SQUARE: &str = "#f1dfc2";
const DARK_SQUARE: &str = "#9c6b43";
/// Squares the last move went through: much lighter than a dark square, so the highlight
/// survives a black-and-white print.
const LAST_MOVE_SQUARE: &str = "#d2b061";
const CAPTURED_SQUARE: &str = "#b0583f";
const INK: &str = "#3a2a1e";
const WHITE_PIECE: &str = "#fbf6ee";
const BLACK_PIECE: &str = "#2a1f19";

/// Where the board's squares start in the drawing and how big the drawing is.
struct Layout {
    side: u32,
    left: u32,
    top: u32,
    width: u32,
    height: u32,
    flipped: bool,
}

impl Layout {
    fn new(side: u8, algebraic: bool, flipped: bool) -> Layout {
        let side = u32::from(side);
        let board = side * CELL;
        let (left, bottom) = if algebraic {
            (LABEL_ROOM, LABEL_ROOM)
        } else {
            (FRAME_ROOM, FRAME_ROOM)
        };
        Layout {
            side,
            left,
            top: FRAME_ROOM,
            width: left + board + FRAME_ROOM,
            height: FRAME_ROOM + board + bottom,
            flipped,
        }
    }

    /// The row and column on screen of a row and column as White sees the board.
    fn on_screen(&self, row: u8, col: u8) -> (u32, u32) {
        let (row, col) = (u32::from(row), u32::from(col));
        if self.flipped {
            (self.side - 1 - row, self.side - 1 - col)
        } else {
            (row, col)
        }
    }

    /// Top-left corner of a square in the drawing.
    fn corner(&self, square: Square, size: damka_engine::BoardSize) -> (u32, u32) {
        let (row, col) = square.row_col(size);
        let (screen_row, screen_col) = self.on_screen(row, col);
        (self.left + screen_col * CELL, self.top + screen_row * CELL)
    }
}

/// The position as an SVG element (`class="game-board"`), scaled by its `viewBox`.
pub fn draw(position: &Position, options: &BoardOptions<'_>) -> String {
    let size = position.board_size();
    let algebraic = position.variant().algebraic();
    let layout = Layout::new(size.side(), algebraic, options.flipped);
    let title = escape(options.title);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="game-board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" role="img" aria-label="{title}" font-family="sans-serif"><title>{title}</title>"#,
        layout.width, layout.height
    );
    let board = layout.side * CELL;
    let _ = write!(
        out,
        r#"<rect class="board-light" x="{}" y="{}" width="{board}" height="{board}" fill="{LIGHT_SQUARE}" stroke="{INK}" stroke-width="1"/>"#,
        layout.left, layout.top
    );
    let (path, captured) = match options.last_move {
        Some(mv) => (mv.path(), mv.captured()),
        None => (Vec::new(), Vec::new()),
    };
    for (square, _) in position.squares() {
        let (x, y) = layout.corner(square, size);
        let (class, fill) = if path.contains(&square) {
            ("square last-move", LAST_MOVE_SQUARE)
        } else if captured.contains(&square) {
            ("square last-capture", CAPTURED_SQUARE)
        } else {
            ("square", DARK_SQUARE)
        };
        let _ = write!(
            out,
            r#"<rect class="{class}" data-square="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#,
            square.name(size, algebraic)
        );
        if captured.contains(&square) {
            capture_mark(&mut out, x, y);
        }
    }
    for (square, piece) in position.pieces() {
        let (x, y) = layout.corner(square, size);
        piece_mark(&mut out, piece, &square.name(size, algebraic), x, y);
    }
    if algebraic {
        coordinates(&mut out, &layout, size);
    } else {
        for (square, _) in position.squares() {
            let (x, y) = layout.corner(square, size);
            // Drawn over the pieces, with a dark outline, so the number stays readable on
            // white and black pieces alike: it is what a player types.
            let _ = write!(
                out,
                r#"<text class="square-number" x="{}" y="{}" font-size="9" fill="{LIGHT_SQUARE}" stroke="{INK}" stroke-width="2" paint-order="stroke" pointer-events="none">{}</text>"#,
                x + 2,
                y + 9,
                square.number()
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// A man, or a king with a crown in the opposite colour, so that the two differ in a
/// black-and-white print as well. Pieces let clicks through to their square.
fn piece_mark(out: &mut String, piece: Piece, square_name: &str, x: u32, y: u32) {
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    let (colour, fill, mark) = match piece.color {
        Color::White => ("white", WHITE_PIECE, INK),
        Color::Black => ("black", BLACK_PIECE, LIGHT_SQUARE),
    };
    let kind = match piece.kind {
        PieceKind::Man => "man",
        PieceKind::King => "king",
    };
    let _ = write!(
        out,
        r#"<g class="piece {kind} {colour}" data-piece-on="{square_name}" pointer-events="none"><circle cx="{cx}" cy="{cy}" r="15" fill="{fill}" stroke="{INK}" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="11" fill="none" stroke="{mark}" stroke-opacity=".5" stroke-width="1.5"/>"#
    );
    if piece.kind == PieceKind::King {
        let _ = write!(
            out,
            r#"<path class="crown" d="M{} {}h14l2-10-5 4-4-6-4 6-5-4z" fill="{mark}"/>"#,
            cx - 7,
            cy + 5
        );
    }
    out.push_str("</g>");
}

/// A cross on the square of a piece the last move took (the square is empty now).
fn capture_mark(out: &mut String, x: u32, y: u32) {
    let (near, far) = (12, CELL - 12);
    let _ = write!(
        out,
        r#"<path class="capture-mark" d="M{} {}L{} {}M{} {}L{} {}" stroke="{LIGHT_SQUARE}" stroke-width="3" stroke-linecap="round" pointer-events="none"/>"#,
        x + near,
        y + near,
        x + far,
        y + far,
        x + far,
        y + near,
        x + near,
        y + far
    );
}

/// File letters under the board and rank numbers on its left, in screen order.
fn coordinates(out: &mut String, layout: &Layout, size: damka_engine::BoardSize) {
    let side = size.side();
    let below = layout.top + layout.side * CELL + LABEL_ROOM - 4;
    for index in 0..side {
        // Every row and column has a dark square in one of its first two places; its
        // algebraic name, written by the engine, gives the letter and the number.
        let column_square =
            Square::from_row_col(size, 0, index).or_else(|| Square::from_row_col(size, 1, index));
        if let Some(square) = column_square {
            let name = square.algebraic(size);
            let file: String = name.chars().take_while(char::is_ascii_alphabetic).collect();
            let (_, screen_col) = layout.on_screen(0, index);
            let _ = write!(
                out,
                r#"<text class="coord" x="{}" y="{below}" font-size="11" text-anchor="middle" fill="currentColor" pointer-events="none">{file}</text>"#,
                layout.left + screen_col * CELL + CELL / 2
            );
        }
        let row_square =
            Square::from_row_col(size, index, 0).or_else(|| Square::from_row_col(size, index, 1));
        if let Some(square) = row_square {
            let name = square.algebraic(size);
            let rank: String = name.chars().skip_while(char::is_ascii_alphabetic).collect();
            let (screen_row, _) = layout.on_screen(index, 0);
            let _ = write!(
                out,
                r#"<text class="coord" x="{}" y="{}" font-size="11" text-anchor="middle" fill="currentColor" pointer-events="none">{rank}</text>"#,
                LABEL_ROOM / 2,
                layout.top + screen_row * CELL + CELL / 2 + 4
            );
        }
    }
}

/// The legal moves for `static/game.js` (the page's `data-legal`): each move's notation and
/// its path, spelt like the board's `data-square` names.
pub fn legal_moves_json(moves: &[Move]) -> String {
    let list: Vec<serde_json::Value> = moves
        .iter()
        .map(|mv| {
            let size = mv.variant().board_size();
            let algebraic = mv.variant().algebraic();
            let path: Vec<String> = mv
                .path()
                .iter()
                .map(|sq| sq.name(size, algebraic))
                .collect();
            serde_json::json!({ "notation": mv.notation(), "path": path })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_engine::{Variant, parse_move};

    fn options(flipped: bool) -> BoardOptions<'static> {
        BoardOptions {
            flipped,
            last_move: None,
            title: "board",
        }
    }

    /// The top-left corner of the square named `name` in a drawing.
    fn corner_of(svg: &str, name: &str) -> (u32, u32) {
        let marker = format!(r#"data-square="{name}" x=""#);
        let at = svg
            .find(&marker)
            .unwrap_or_else(|| panic!("no square {name}"))
            + marker.len();
        let rest = &svg[at..];
        let x: u32 = rest[..rest.find('"').unwrap()].parse().unwrap();
        let rest = &rest[rest.find(r#"y=""#).unwrap() + 3..];
        let y: u32 = rest[..rest.find('"').unwrap()].parse().unwrap();
        (x, y)
    }

    /// The class of the square named `name`.
    fn class_of(svg: &str, name: &str) -> String {
        let marker = format!(r#"" data-square="{name}""#);
        let end = svg
            .find(&marker)
            .unwrap_or_else(|| panic!("no square {name}"));
        let start = svg[..end].rfind(r#"class=""#).unwrap() + 7;
        svg[start..end].to_string()
    }

    /// Every `data-square` name, in drawing order.
    fn square_names(svg: &str) -> Vec<String> {
        svg.split(r#"data-square=""#)
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    }

    /// The names of the squares at the bottom-left, top-left, top-right and bottom-right of
    /// the drawing (the outermost dark square of each corner's row).
    fn corners(svg: &str) -> [String; 4] {
        let names = square_names(svg);
        let placed: Vec<(String, (u32, u32))> = names
            .iter()
            .map(|n| (n.clone(), corner_of(svg, n)))
            .collect();
        let top = placed.iter().map(|(_, (_, y))| *y).min().unwrap();
        let bottom = placed.iter().map(|(_, (_, y))| *y).max().unwrap();
        let pick = |row: u32, leftmost: bool| {
            let in_row = placed.iter().filter(|(_, (_, y))| *y == row);
            let found = if leftmost {
                in_row.min_by_key(|(_, (x, _))| *x)
            } else {
                in_row.max_by_key(|(_, (x, _))| *x)
            };
            found.unwrap().0.clone()
        };
        [
            pick(bottom, true),
            pick(top, true),
            pick(top, false),
            pick(bottom, false),
        ]
    }

    #[test]
    fn every_dark_square_is_drawn_once_with_the_start_pieces() {
        for (variant, squares, pieces) in [
            (Variant::Russian, 32, 24),
            (Variant::English, 32, 24),
            (Variant::Brazilian, 32, 24),
            (Variant::International, 50, 40),
        ] {
            let svg = draw(&Position::start(variant), &options(false));
            let mut names = square_names(&svg);
            assert_eq!(names.len(), squares, "{variant}");
            names.sort();
            names.dedup();
            assert_eq!(names.len(), squares, "{variant}: a name drawn twice");
            assert_eq!(svg.matches(r#"<g class="piece man "#).count(), pieces);
            assert_eq!(
                svg.matches("crown").count(),
                0,
                "{variant}: no king at the start"
            );
            assert!(svg.starts_with(r#"<svg class="game-board""#) && svg.ends_with("</svg>"));
            assert!(svg.contains(r#"role="img""#));
            assert!(!svg.contains("<script") && !svg.contains("style="));
        }
    }

    #[test]
    fn russian_squares_are_algebraic_with_a1_at_the_players_bottom_left() {
        let start = Position::start(Variant::Russian);
        let white_view = draw(&start, &options(false));
        assert_eq!(corners(&white_view), ["a1", "b8", "h8", "g1"]);
        assert!(white_view.contains(r#"class="piece man white" data-piece-on="a1""#));
        assert!(white_view.contains(r#"class="piece man black" data-piece-on="h8""#));
        // Black's view: the board turned half a circle, Black's men at the bottom.
        let black_view = draw(&start, &options(true));
        assert_eq!(corners(&black_view), ["h8", "g1", "a1", "b8"]);
        let (_, a1_y) = corner_of(&black_view, "a1");
        let (_, h8_y) = corner_of(&black_view, "h8");
        assert!(a1_y < h8_y, "a1 at the top for Black");
    }

    #[test]
    fn coordinates_follow_the_view() {
        let start = Position::start(Variant::Russian);
        // The coordinates in drawing order: files left to right, each with its rank.
        let labels = |svg: &str| -> Vec<(u32, String)> {
            svg.split(r#"<text class="coord" x=""#)
                .skip(1)
                .map(|rest| {
                    let x = rest[..rest.find('"').unwrap()].parse().unwrap();
                    let text = &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()];
                    (x, text.to_string())
                })
                .collect()
        };
        let files = |svg: &str| -> String {
            let mut files: Vec<(u32, String)> = labels(svg)
                .into_iter()
                .filter(|(_, t)| t.chars().all(|c| c.is_ascii_alphabetic()))
                .collect();
            files.sort();
            files.into_iter().map(|(_, t)| t).collect()
        };
        assert_eq!(files(&draw(&start, &options(false))), "abcdefgh");
        assert_eq!(files(&draw(&start, &options(true))), "hgfedcba");
        let ranks_top_down = |svg: &str| -> String {
            let mut ranks: Vec<(u32, String)> = svg
                .split(r#"<text class="coord" x="8" y=""#)
                .skip(1)
                .map(|rest| {
                    let y = rest[..rest.find('"').unwrap()].parse().unwrap();
                    let text = &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()];
                    (y, text.to_string())
                })
                .collect();
            ranks.sort();
            ranks.into_iter().map(|(_, t)| t).collect()
        };
        assert_eq!(ranks_top_down(&draw(&start, &options(false))), "87654321");
        assert_eq!(ranks_top_down(&draw(&start, &options(true))), "12345678");
        // International boards run to 10 and are numbered: ten rows of five numbers.
        let intl = draw(&Position::start(Variant::International), &options(false));
        assert_eq!(intl.matches(r#"class="square-number""#).count(), 50);
        assert_eq!(intl.matches(r#"class="coord""#).count(), 0);
    }

    #[test]
    fn numbered_boards_use_the_engines_numbers_and_their_corners() {
        // English: Black (1-12) at the top moves first; 11-15 is a step down the board.
        let english = Position::start(Variant::English);
        let svg = draw(&english, &options(false));
        assert_eq!(corners(&svg), ["29", "1", "4", "32"]);
        let mv = parse_move(&english, "11-15").unwrap();
        let from = mv.path()[0].name(english.board_size(), false);
        let to = mv.path()[1].name(english.board_size(), false);
        assert_eq!((from.as_str(), to.as_str()), ("11", "15"));
        let ((fx, fy), (tx, ty)) = (corner_of(&svg, &from), corner_of(&svg, &to));
        assert_eq!(ty, fy + CELL, "one row down");
        assert_eq!(fx.abs_diff(tx), CELL, "one column aside");
        assert!(svg.contains(r#"class="piece man black" data-piece-on="11""#));
        assert!(!svg.contains(r#"data-piece-on="15""#));

        // International: 46 is White's bottom-left corner; Black's view turns it to the top.
        let intl = Position::start(Variant::International);
        let white_view = draw(&intl, &options(false));
        assert_eq!(corners(&white_view), ["46", "1", "5", "50"]);
        let black_view = draw(&intl, &options(true));
        assert_eq!(corners(&black_view), ["5", "50", "46", "1"]);
        let mv = parse_move(&intl, "32-28").unwrap();
        let names: Vec<String> = mv.path().iter().map(|s| s.to_string()).collect();
        let ((fx, fy), (tx, ty)) = (
            corner_of(&white_view, &names[0]),
            corner_of(&white_view, &names[1]),
        );
        assert_eq!(fy, ty + CELL, "White moves up the board");
        assert_eq!(fx.abs_diff(tx), CELL);
    }

    #[test]
    fn a_king_wears_a_crown_and_a_man_does_not() {
        let position = Position::from_fen(Variant::Russian, "W:WKc3,e1:BKh8,a7").unwrap();
        let svg = draw(&position, &options(false));
        assert_eq!(svg.matches(r#"class="crown""#).count(), 2);
        for (square, class) in [
            ("c3", "piece king white"),
            ("h8", "piece king black"),
            ("e1", "piece man white"),
            ("a7", "piece man black"),
        ] {
            let marker = format!(r#"<g class="{class}" data-piece-on="{square}""#);
            let at = svg.find(&marker).unwrap_or_else(|| panic!("{marker}"));
            let group = &svg[at..at + svg[at..].find("</g>").unwrap()];
            assert_eq!(group.contains("crown"), class.contains("king"), "{square}");
        }
    }

    #[test]
    fn the_last_move_marks_its_path_and_the_pieces_it_took() {
        let before = Position::from_fen(Variant::Russian, "W:Wc3,g1:Bd4,d6,f6,h4").unwrap();
        let capture = parse_move(&before, "c3:e5:g7").unwrap();
        let after = before.play(&capture).unwrap();
        let svg = draw(
            &after,
            &BoardOptions {
                flipped: false,
                last_move: Some(&capture),
                title: "after",
            },
        );
        for square in ["c3", "e5", "g7"] {
            assert_eq!(class_of(&svg, square), "square last-move", "{square}");
        }
        for square in ["d4", "f6"] {
            assert_eq!(class_of(&svg, square), "square last-capture", "{square}");
        }
        assert_eq!(svg.matches(r#"class="capture-mark""#).count(), 2);
        for square in ["d6", "g1", "h4", "a1", "e3"] {
            assert_eq!(class_of(&svg, square), "square", "{square}");
        }
        let plain = draw(&after, &options(false));
        assert!(!plain.contains("last-move") && !plain.contains("last-capture"));
    }

    #[test]
    fn the_title_is_escaped() {
        let svg = draw(
            &Position::start(Variant::Russian),
            &BoardOptions {
                flipped: false,
                last_move: None,
                title: r#"<script>"Иван" & 'Пётр'"#,
            },
        );
        assert!(!svg.contains("<script"));
        let escaped = "&lt;script&gt;&quot;Иван&quot; &amp; &#39;Пётр&#39;";
        assert!(svg.contains(&format!(r#"aria-label="{escaped}""#)), "{svg}");
        assert!(svg.contains(&format!("<title>{escaped}</title>")));
    }

    #[test]
    fn legal_moves_are_listed_with_the_boards_square_names() {
        let position = Position::from_fen(Variant::Russian, "W:Wc3,g1:Bd4,d6,f6,h4").unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&legal_moves_json(&position.legal_moves())).unwrap();
        let mut moves: Vec<(String, Vec<String>)> = json
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let path = m["path"].as_array().unwrap();
                (
                    m["notation"].as_str().unwrap().to_string(),
                    path.iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect();
        moves.sort();
        assert_eq!(
            moves,
            [
                (
                    "c3:e5:c7".to_string(),
                    vec!["c3".into(), "e5".into(), "c7".into()]
                ),
                (
                    "c3:e5:g7".to_string(),
                    vec!["c3".into(), "e5".into(), "g7".into()]
                ),
            ]
        );
        let intl = Position::start(Variant::International);
        let json = legal_moves_json(&intl.legal_moves());
        let svg = draw(&intl, &options(false));
        let listed: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(listed.as_array().unwrap().len(), 9);
        for mv in listed.as_array().unwrap() {
            for square in mv["path"].as_array().unwrap() {
                let name = square.as_str().unwrap();
                assert!(svg.contains(&format!(r#"data-square="{name}""#)), "{name}");
            }
        }
    }

    /// One page of `tests/data/game_board/`: the board and the legal moves wired as the game
    /// page wires them, the move form, `static/game.js`, and a scripted check of it.
    fn fixture_page(
        name: &str,
        position: &Position,
        board: &BoardOptions<'_>,
        steps: &str,
    ) -> String {
        format!(
            r##"<!doctype html>
<!-- Written by `cargo test -p damka --lib game_board -- --ignored`; do not edit by hand.
     Open it to try static/game.js by hand; open it with #selftest to run the scripted
     check below, e.g.
     chromium --headless --dump-dom "file://$PWD/tests/data/game_board/{name}.html#selftest" | grep selftest-result -->
<html lang="ru">
<head><meta charset="utf-8"><title>game.js: {name}</title>
<link rel="stylesheet" href="../../../static/style.css"></head>
<body><main>
<div class="game-play" data-legal='{legal}'>
{svg}
<form class="move-form" method="post" action="#submitted"><label>Ход <input name="move" autocomplete="off"></label> <button type="submit">Сделать ход</button></form>
</div>
<pre id="selftest-result"></pre>
<script type="application/json" id="selftest-steps">{steps}</script>
<script src="../../../static/game.js" defer></script>
<script src="selftest.js" defer></script>
</main></body>
</html>
"##,
            legal = escape(&legal_moves_json(&position.legal_moves())),
            svg = draw(position, board),
        )
    }

    /// Writes the browser fixtures of `static/game.js`, and start positions for a look at
    /// the drawing in the temporary directory. Run by hand after changing the drawing.
    #[test]
    #[ignore = "writes files: run by hand to refresh the browser fixtures"]
    fn write_browser_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/game_board");
        std::fs::create_dir_all(&dir).unwrap();
        // Two capture paths share c3:e5, then part: the player picks the branch.
        let capture = Position::from_fen(Variant::Russian, "W:Wc3,g1:Bd4,d6,f6,h4").unwrap();
        let steps = r#"[
  {"click": "c3", "selected": ["c3"], "target": ["e5"]},
  {"click": "c3", "selected": [], "target": []},
  {"click": "g1", "selected": [], "target": [], "note": "a piece with no legal move"},
  {"click": "c3", "selected": ["c3"], "target": ["e5"]},
  {"click": "a1", "selected": [], "target": [], "note": "an empty square resets"},
  {"click": "c3", "selected": ["c3"], "target": ["e5"]},
  {"click": "e5", "selected": ["c3", "e5"], "target": ["c7", "g7"]},
  {"click": "h4", "selected": [], "target": [], "note": "a square off the path resets"},
  {"click": "c3", "selected": ["c3"], "target": ["e5"]},
  {"click": "e5", "selected": ["c3", "e5"], "target": ["c7", "g7"]},
  {"click": "g7", "selected": [], "target": [], "submitted": "c3:e5:g7"}
]"#;
        let page = fixture_page("capture", &capture, &options(false), steps);
        std::fs::write(dir.join("capture.html"), page).unwrap();

        // One capture path only: its first landing square completes it.
        let forced = Position::from_fen(Variant::Russian, "W:Wc3,a1:Bd4,f6").unwrap();
        let steps = r#"[
  {"click": "a1", "selected": [], "target": [], "note": "a man that may not move: capture is compulsory"},
  {"click": "c3", "selected": ["c3"], "target": ["e5"]},
  {"click": "e5", "selected": [], "target": [], "submitted": "c3:e5:g7"}
]"#;
        let page = fixture_page("forced", &forced, &options(false), steps);
        std::fs::write(dir.join("forced.html"), page).unwrap();

        // Black to move on a numbered board seen from Black's side, the last move marked.
        let start = Position::start(Variant::International);
        let opening = parse_move(&start, "32-28").unwrap();
        let reply = start.play(&opening).unwrap();
        let steps = r#"[
  {"click": "28", "selected": [], "target": [], "note": "the opponent's piece"},
  {"click": "19", "selected": ["19"], "target": ["23", "24"]},
  {"click": "17", "selected": ["17"], "target": ["21", "22"], "note": "another piece"},
  {"click": "22", "selected": [], "target": [], "submitted": "17-22"}
]"#;
        let board = BoardOptions {
            flipped: true,
            last_move: Some(&opening),
            title: "Позиция после 1. 32-28",
        };
        let page = fixture_page("international", &reply, &board, steps);
        std::fs::write(dir.join("international.html"), page).unwrap();

        let looks = std::env::temp_dir().join("damka-board");
        std::fs::create_dir_all(&looks).unwrap();
        for (name, variant, flipped) in [
            ("russian", Variant::Russian, false),
            ("russian-flipped", Variant::Russian, true),
            ("international", Variant::International, false),
            ("english", Variant::English, false),
        ] {
            let svg = draw(&Position::start(variant), &options(flipped));
            let page = format!(
                "<!doctype html><meta charset=\"utf-8\"><link rel=\"stylesheet\" href=\"file://{}/static/style.css\"><body style=\"margin:10px\">{svg}",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::write(looks.join(format!("{name}.html")), page).unwrap();
        }
        // Kings, and the marks of a capture just played.
        let before = Position::from_fen(Variant::Russian, "W:Wc3,Kh2:Bd4,f6,Ka7,h4").unwrap();
        let capture = parse_move(&before, "c3:e5:g7").unwrap();
        let after = before.play(&capture).unwrap();
        let board = BoardOptions {
            flipped: false,
            last_move: Some(&capture),
            title: "after c3:e5:g7",
        };
        let page = format!(
            "<!doctype html><meta charset=\"utf-8\"><body style=\"margin:10px\">{}",
            draw(&after, &board)
        );
        std::fs::write(looks.join("kings-and-capture.html"), page).unwrap();
    }
}
