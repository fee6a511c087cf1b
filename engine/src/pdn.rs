//! PDN game records: tags, move text, comments, results; several games per file.

use crate::fen::{FenError, SquareStyle, parse_fen};
use crate::game::Game;
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use std::fmt;

/// One move of the move text, with where it was read and the comment that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnMove {
    pub text: String,
    pub comment: Option<String>,
    pub line: usize,
    pub column: usize,
}

/// One game of a PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub intro_comment: Option<String>,
    pub moves: Vec<PdnMove>,
    /// The result written at the end of the move text (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `*`...).
    pub result: Option<String>,
    /// Line where the game starts.
    pub line: usize,
}

/// What is wrong with a PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnErrorKind {
    UnterminatedTag,
    BadTag(String),
    UnterminatedComment,
    UnterminatedVariation,
    Unexpected(char),
    UnknownGameType(String),
    Fen(FenError),
}

/// A PDN error with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    pub line: usize,
    pub column: usize,
    pub kind: PdnErrorKind,
}

impl fmt::Display for PdnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnErrorKind::UnterminatedTag => write!(f, "tag is not closed with ']'"),
            PdnErrorKind::BadTag(text) => {
                write!(f, "malformed tag {text:?}: expected [Name \"value\"]")
            }
            PdnErrorKind::UnterminatedComment => write!(f, "comment is not closed with '}}'"),
            PdnErrorKind::UnterminatedVariation => write!(f, "variation is not closed with ')'"),
            PdnErrorKind::Unexpected(c) => write!(f, "unexpected character {c:?}"),
            PdnErrorKind::UnknownGameType(t) => write!(f, "unsupported GameType {t:?}"),
            PdnErrorKind::Fen(e) => write!(f, "bad FEN tag: {}", e.kind),
        }
    }
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for PdnError {}

const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, line: usize, column: usize, kind: PdnErrorKind) -> PdnError {
        PdnError { line, column, kind }
    }

    /// Reads up to (and consumes) `close`; `None` at end of input.
    fn until(&mut self, close: char) -> Option<String> {
        let mut text = String::new();
        loop {
            let c = self.bump()?;
            if c == close {
                return Some(text);
            }
            text.push(c);
        }
    }
}

fn parse_tag(cursor: &mut Cursor<'_>) -> Result<(String, String), PdnError> {
    let (line, column) = (cursor.line, cursor.column);
    cursor.bump(); // '['
    let mut raw = String::new();
    let mut in_string = false;
    loop {
        let Some(c) = cursor.bump() else {
            return Err(cursor.error(line, column, PdnErrorKind::UnterminatedTag));
        };
        match c {
            '\\' if in_string => {
                raw.push(c);
                if let Some(next) = cursor.bump() {
                    raw.push(next);
                }
            }
            '"' => {
                in_string = !in_string;
                raw.push(c);
            }
            ']' if !in_string => break,
            '\n' if !in_string => {
                return Err(cursor.error(line, column, PdnErrorKind::UnterminatedTag));
            }
            _ => raw.push(c),
        }
    }
    let bad = || PdnError {
        line,
        column,
        kind: PdnErrorKind::BadTag(format!("[{raw}]")),
    };
    let trimmed = raw.trim();
    let (name, rest) = trimmed.split_once(char::is_whitespace).ok_or_else(bad)?;
    let rest = rest.trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || rest.len() < 2
        || !rest.starts_with('"')
        || !rest.ends_with('"')
    {
        return Err(bad());
    }
    let mut value = String::new();
    let mut chars = rest[1..rest.len() - 1].chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                value.push(next);
            }
        } else {
            value.push(c);
        }
    }
    Ok((name.to_string(), value))
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

/// Parses every game of a PDN text.
pub fn parse_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut cursor = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut started = false;
    let mut in_movetext = false;
    let finish = |game: &mut PdnGame, games: &mut Vec<PdnGame>, started: &mut bool| {
        if *started {
            games.push(std::mem::take(game));
        }
        *started = false;
    };
    while let Some(c) = cursor.peek() {
        let (line, column) = (cursor.line, cursor.column);
        if c.is_whitespace() || c == '\u{feff}' {
            cursor.bump();
            continue;
        }
        if !started {
            game.line = line;
            started = true;
        }
        match c {
            '[' => {
                if in_movetext {
                    finish(&mut game, &mut games, &mut started);
                    game.line = line;
                    started = true;
                    in_movetext = false;
                }
                let tag = parse_tag(&mut cursor)?;
                game.tags.push(tag);
            }
            '{' => {
                read_comment(&mut cursor, &mut game, line, column)?;
                in_movetext = true;
            }
            ';' => {
                cursor.until('\n');
            }
            '(' => skip_variation(&mut cursor, line, column)?,
            ']' | '}' | ')' => {
                return Err(cursor.error(line, column, PdnErrorKind::Unexpected(c)));
            }
            _ => {
                in_movetext = true;
                let word = read_word(&mut cursor);
                if RESULTS.contains(&word.as_str()) {
                    game.result = Some(word);
                    finish(&mut game, &mut games, &mut started);
                    in_movetext = false;
                    continue;
                }
                if word.starts_with('$') {
                    continue;
                }
                add_move(&mut game, &word, line, column);
            }
        }
    }
    finish(&mut game, &mut games, &mut started);
    Ok(games)
}

/// A comment (`{...}`): it belongs to the move before it, or to the game when no move
/// came yet.
fn read_comment(
    cursor: &mut Cursor,
    game: &mut PdnGame,
    line: usize,
    column: usize,
) -> Result<(), PdnError> {
    cursor.bump();
    let comment = cursor
        .until('}')
        .ok_or_else(|| cursor.error(line, column, PdnErrorKind::UnterminatedComment))?;
    let comment = comment.trim().to_string();
    match game.moves.last_mut() {
        Some(last) => {
            last.comment = Some(match last.comment.take() {
                Some(previous) => format!("{previous} {comment}"),
                None => comment,
            })
        }
        None => game.intro_comment = Some(comment),
    }
    Ok(())
}

/// Variations are skipped (nested ones and comments in them too): only the main line is
/// a game.
fn skip_variation(cursor: &mut Cursor, line: usize, column: usize) -> Result<(), PdnError> {
    let mut depth = 0usize;
    loop {
        match cursor.bump() {
            Some('(') => depth += 1,
            Some(')') => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            Some('{') => {
                cursor.until('}');
            }
            Some(_) => {}
            None => {
                return Err(cursor.error(line, column, PdnErrorKind::UnterminatedVariation));
            }
        }
    }
}

/// The word at the cursor: a move, a move number, a result or an annotation.
fn read_word(cursor: &mut Cursor) -> String {
    let mut word = String::new();
    while let Some(c) = cursor.peek() {
        if !is_word_char(c) {
            break;
        }
        word.push(c);
        cursor.bump();
    }
    word
}

/// A move, without its move number, possibly glued to it ("12.", "12...", "12.c3-d4"),
/// and without its annotation marks.
fn add_move(game: &mut PdnGame, word: &str, line: usize, column: usize) {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let mut rest = word;
    let mut move_column = column;
    if digits > 0 && word[digits..].starts_with('.') {
        let after = word[digits..].trim_start_matches('.');
        move_column += word.len() - after.len();
        rest = after;
    }
    let rest = rest.trim_end_matches(['!', '?']);
    if !rest.is_empty() {
        game.moves.push(PdnMove {
            text: rest.to_string(),
            comment: None,
            line,
            column: move_column,
        });
    }
}

impl PdnGame {
    /// The value of a tag (names compare case-insensitively).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn tag_position(&self, name: &str) -> (usize, usize) {
        // Tags come first: the n-th tag is on the n-th line of the game in usual files.
        let index = self
            .tags
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .unwrap_or(0);
        (self.line + index, 1)
    }

    /// The variant named by the GameType tag, if there is one, and whether it asks for
    /// numeric squares on an algebraic variant.
    pub fn game_type(&self) -> Result<Option<(Variant, SquareStyle)>, PdnError> {
        let Some(value) = self.tag("GameType") else {
            return Ok(None);
        };
        let mut fields = value.split(',').map(str::trim);
        let number = fields.next().unwrap_or("");
        let variant = Variant::ALL
            .into_iter()
            .find(|v| v.pdn_game_type().to_string() == number)
            .ok_or_else(|| {
                let (line, column) = self.tag_position("GameType");
                PdnError {
                    line,
                    column,
                    kind: PdnErrorKind::UnknownGameType(value.to_string()),
                }
            })?;
        // Fields: number, start colour, width, height, notation (A = algebraic, N = numeric).
        let notation = fields.nth(3).unwrap_or("");
        let style = if notation.starts_with(['N', 'n']) {
            SquareStyle::Numeric
        } else {
            SquareStyle::Native
        };
        Ok(Some((variant, style)))
    }

    /// The start position: GameType (or `default_rules`) and the FEN tag if present.
    pub fn start_position(&self, default_rules: Rules) -> Result<Position, PdnError> {
        let (rules, style) = match self.game_type()? {
            Some((variant, style)) if variant != default_rules.variant => {
                (Rules::preset(variant), style)
            }
            Some((_, style)) => (default_rules, style),
            None => (default_rules, SquareStyle::Native),
        };
        match self.tag("FEN") {
            Some(fen) => parse_fen(rules, fen, style).map_err(|e| {
                let (line, _) = self.tag_position("FEN");
                PdnError {
                    line,
                    column: e.column,
                    kind: PdnErrorKind::Fen(e),
                }
            }),
            None => Ok(Position::start(rules)),
        }
    }

    /// Replays the moves; on the first refused move returns its index and the reason.
    pub fn replay(&self, default_rules: Rules) -> Result<Game, ReplayError> {
        let start = self
            .start_position(default_rules)
            .map_err(ReplayError::Pdn)?;
        let mut game = Game::from_position(start);
        for (index, mv) in self.moves.iter().enumerate() {
            if let Err(error) = game.play_str(&mv.text) {
                return Err(ReplayError::IllegalMove {
                    ply: index,
                    text: mv.text.clone(),
                    line: mv.line,
                    column: mv.column,
                    error,
                });
            }
        }
        Ok(game)
    }
}

/// Why a PDN game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Pdn(PdnError),
    IllegalMove {
        /// 0-based ply index in the game.
        ply: usize,
        text: String,
        line: usize,
        column: usize,
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Pdn(e) => write!(f, "{e}"),
            ReplayError::IllegalMove {
                text,
                line,
                column,
                error,
                ..
            } => write!(f, "line {line}, column {column}: move {text}: {error}"),
        }
    }
}

impl std::error::Error for ReplayError {}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A move as PDN 3.0 writes it: captures joined by `x` (`21x14`, `c3xe5xg3`), whatever the
/// variant's own notation uses (Russian writes `c3:e5` on boards and pages); every reader
/// takes `x`, not every reader takes `:`. Our parser reads both.
fn pdn_move_text(text: &str) -> String {
    text.replace([':', '×'], "x")
}

/// Writes one game as PDN: tags, a blank line, then the numbered move text and the result.
pub fn write_game(game: &PdnGame, first_mover_is_second: bool) -> String {
    let mut out = String::new();
    for (name, value) in &game.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    if let Some(comment) = &game.intro_comment {
        words.push(format!("{{{comment}}}"));
    }
    // Ply index shifted so even plies open a numbered move.
    let offset = usize::from(first_mover_is_second);
    for (index, mv) in game.moves.iter().enumerate() {
        let ply = index + offset;
        if ply % 2 == 0 {
            words.push(format!("{}.", ply / 2 + 1));
        } else if index == 0 {
            words.push(format!("{}...", ply / 2 + 1));
        }
        words.push(pdn_move_text(&mv.text));
        if let Some(comment) = &mv.comment {
            words.push(format!("{{{comment}}}"));
        }
    }
    words.push(game.result.clone().unwrap_or_else(|| "*".to_string()));
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += word.len();
        out.push_str(&word);
    }
    out.push('\n');
    out
}

impl Game {
    /// The game as PDN, with the given tags (Event, Site, ...) followed by Result, GameType
    /// and, for a set-up start, FEN.
    pub fn to_pdn(&self, tags: &[(&str, &str)]) -> String {
        let result = self.status().pdn_result().to_string();
        let variant = self.rules().variant;
        let mut all: Vec<(String, String)> = tags
            .iter()
            .filter(|(n, _)| !["Result", "GameType", "FEN"].contains(n))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        all.push(("Result".into(), result.clone()));
        all.push(("GameType".into(), variant.pdn_game_type().to_string()));
        let start = self.start_position();
        let standard = Position::start(*start.rules());
        if *start != standard {
            all.push(("FEN".into(), start.to_fen()));
        }
        let pdn = PdnGame {
            tags: all,
            intro_comment: None,
            moves: self
                .history()
                .iter()
                .map(|mv| PdnMove {
                    text: mv.notation(),
                    comment: None,
                    line: 0,
                    column: 0,
                })
                .collect(),
            result: Some(result),
            line: 1,
        };
        let second = start.side_to_move() != variant.first_to_move();
        write_game(&pdn, second)
    }
}
