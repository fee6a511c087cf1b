//! Engine subcommands of the `damka` binary: `perft`, `moves` and `check-game`.
//!
//! Output formats are public contracts (scripts and tests read them):
//! - `perft`: one line per depth, `perft(D) = N  time S s  L leaves/s`; with `--divide`
//!   the root moves of the last depth come first, `MOVE: COUNT`, one per line.
//! - `moves`: every legal move in the variant's notation, one per line, sorted; with
//!   `--json` a JSON array with one object per line (notation, path, captured squares).
//! - `check-game`: one line per game; exit code 0 when every move of every game is legal,
//!   1 when an illegal move was found, 2 when the file cannot be read or parsed.

use anyhow::Context as _;
use damka_engine::pdn::{PdnGame, ReplayError};
use damka_engine::{Color, Move, Position, Rules, Variant, divide, parse_games, perft};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use damka_domain::vocabulary::ResultCode;

/// `damka perft`: count the leaf positions of every legal sequence of moves.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// russian, english, international or brazilian.
    #[arg(long, default_value_t = Variant::Russian)]
    pub variant: Variant,
    /// Number of plies.
    #[arg(long)]
    pub depth: u32,
    /// Start position as PDN FEN (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// List each root move with its count.
    #[arg(long)]
    pub divide: bool,
}

/// `damka moves`: list the legal moves of a position.
#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    /// russian, english, international or brazilian.
    #[arg(long, default_value_t = Variant::Russian)]
    pub variant: Variant,
    /// Position as PDN FEN (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// JSON output with the path and the captured squares of each move.
    #[arg(long)]
    pub json: bool,
}

/// `damka check-game`: replay the games of a PDN file by the rules.
#[derive(clap::Args, Debug)]
pub struct CheckGameArgs {
    /// Rules for games without a GameType tag.
    #[arg(long, default_value_t = Variant::Russian)]
    pub variant: Variant,
    /// The PDN file.
    #[arg(value_name = "FILE.pdn")]
    pub file: PathBuf,
}

fn position(variant: Variant, fen: Option<&str>) -> anyhow::Result<Position> {
    match fen {
        Some(fen) => Position::from_fen(variant, fen)
            .with_context(|| format!("bad --fen {fen:?} for {variant}")),
        None => Ok(Position::start(variant)),
    }
}

fn perft_line(depth: u32, count: u64, seconds: f64) -> String {
    let rate = if seconds > 0.0 {
        count as f64 / seconds
    } else {
        0.0
    };
    format!("perft({depth}) = {count}  time {seconds:.3} s  {rate:.0} leaves/s")
}

/// Runs `damka perft`.
pub fn run_perft(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    write_perft(args, &mut out)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the perft report; each depth's line is flushed as soon as it is known.
pub fn write_perft(args: &PerftArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let pos = position(args.variant, args.fen.as_deref())?;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let count = if args.divide && depth == args.depth {
            let mut rows: Vec<(String, u64)> = divide(&pos, depth)
                .into_iter()
                .map(|(mv, n)| (mv.notation(), n))
                .collect();
            rows.sort_by_key(|row| natural_key(&row.0));
            for (notation, n) in &rows {
                writeln!(out, "{notation}: {n}")?;
            }
            rows.iter().map(|(_, n)| n).sum()
        } else {
            perft(&pos, depth)
        };
        writeln!(
            out,
            "{}",
            perft_line(depth, count, started.elapsed().as_secs_f64())
        )?;
        out.flush()?;
    }
    Ok(())
}

/// Sort key that orders numbers by value: `9-14` before `11-15`.
fn natural_key(text: &str) -> Vec<(u32, String)> {
    let mut key = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        let mut chunk = String::new();
        let digits = c.is_ascii_digit();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_digit() != digits {
                break;
            }
            chunk.push(c);
            chars.next();
        }
        if digits {
            key.push((chunk.parse().unwrap_or(u32::MAX), String::new()));
        } else {
            key.push((0, chunk));
        }
    }
    key
}

fn sorted_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|m| natural_key(&m.notation()));
    moves
}

/// Runs `damka moves`.
pub fn run_moves(args: &MovesArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    write_moves(args, &mut out)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the legal moves, as text or JSON.
pub fn write_moves(args: &MovesArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let pos = position(args.variant, args.fen.as_deref())?;
    let moves = sorted_moves(&pos);
    if !args.json {
        for mv in &moves {
            writeln!(out, "{}", mv.notation())?;
        }
        return Ok(());
    }
    let size = pos.board_size();
    let algebraic = pos.variant().algebraic();
    let names = |squares: Vec<damka_engine::Square>| -> Vec<String> {
        squares
            .into_iter()
            .map(|s| s.name(size, algebraic))
            .collect()
    };
    writeln!(out, "[")?;
    for (i, mv) in moves.iter().enumerate() {
        let object = serde_json::json!({
            "notation": mv.notation(),
            "from": mv.from().name(size, algebraic),
            "to": mv.to().name(size, algebraic),
            "path": names(mv.path()),
            "captured": names(mv.captured()),
            "promotes": mv.promotes(),
        });
        let comma = if i + 1 < moves.len() { "," } else { "" };
        writeln!(out, "{object}{comma}")?;
    }
    writeln!(out, "]")?;
    Ok(())
}

/// Runs `damka check-game`.
pub fn run_check_game(args: &CheckGameArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    Ok(ExitCode::from(check_game(args, &mut out, &mut err)?))
}

/// Replays every game of the file, writes one line per game and returns the exit code
/// (0 all legal, 1 an illegal move, 2 unreadable input).
pub fn check_game(
    args: &CheckGameArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> anyhow::Result<u8> {
    let file = args.file.display();
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            writeln!(err, "{file}: cannot read: {e}")?;
            return Ok(2);
        }
    };
    let games = match parse_games(&text) {
        Ok(games) => games,
        Err(e) => {
            writeln!(err, "{file}:{}:{}: {}", e.line, e.column, e.kind)?;
            return Ok(2);
        }
    };
    if games.is_empty() {
        writeln!(err, "{file}: no game found")?;
        return Ok(2);
    }
    let mut code = 0;
    for (index, game) in games.iter().enumerate() {
        let number = index + 1;
        match game.replay(Rules::preset(args.variant)) {
            Ok(replayed) => {
                let status = replayed.status();
                let plies = replayed.history().len();
                write!(
                    out,
                    "game {number}: legal, {plies} plies, {} ({status})",
                    status.pdn_result()
                )?;
                if let Some(tag) = game.tag("Result")
                    && status.is_over()
                    && !same_result(tag, status.pdn_result())
                {
                    write!(out, "; the Result tag says {tag}")?;
                }
                writeln!(out)?;
            }
            Err(ReplayError::Pdn(e)) => {
                writeln!(
                    err,
                    "{file}:{}:{}: game {number}: {}",
                    e.line, e.column, e.kind
                )?;
                return Ok(2);
            }
            Err(ReplayError::IllegalMove {
                ply,
                text,
                line,
                column,
                error,
            }) => {
                let (move_number, side) = move_number(game, args.variant, ply);
                writeln!(
                    out,
                    "game {number}: illegal move {move_number} ({side}) {text} at line {line}, column {column}: {error}"
                )?;
                code = 1;
            }
        }
    }
    Ok(code)
}

/// `2-0` and `1-0` (and `1-1`, `1/2-1/2`) are the same result in two scoring styles;
/// anything else (`*`) only equals itself.
fn same_result(tag: &str, result: &str) -> bool {
    match (ResultCode::from_pdn(tag), ResultCode::from_pdn(result)) {
        (Some(a), Some(b)) => a == b,
        _ => tag == result,
    }
}

/// The move number and side of a 0-based ply of a game.
fn move_number(game: &PdnGame, variant: Variant, ply: usize) -> (usize, Color) {
    let start = game.start_position(Rules::preset(variant)).ok();
    let first = start.map_or(variant.first_to_move(), |p| p.side_to_move());
    let usual_first = start.map_or(variant, |p| p.variant()).first_to_move();
    // Numbering starts with the variant's first mover; a set-up start may begin at "1...".
    let offset = usize::from(first != usual_first);
    let shifted = ply + offset;
    let side = if ply.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    };
    (shifted / 2 + 1, side)
}
