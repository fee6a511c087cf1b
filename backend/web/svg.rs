//! SVG drawings for pages: a draughts board and a line chart (a rating over time has its
//! own, `rating_chart`). Plain strings, no scripts, so they work without JavaScript and
//! print well.
use std::fmt::Write;

/// What stands on a dark square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    WhiteMan,
    WhiteKing,
    BlackMan,
    BlackKing,
}

/// A board of `size` x `size` squares; `pieces` are (row from the top, column from the
/// left, piece) as White sees the board. The bottom-left square is dark, as in every
/// preset damka supports.
pub fn board(size: usize, pieces: &[(usize, usize, Piece)], title: &str) -> String {
    let cell = 40;
    let side = size * cell;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" role="img" aria-label="{}"><title>{}</title>"#,
        escape(title),
        escape(title)
    );
    for row in 0..size {
        for col in 0..size {
            let dark = (row + col) % 2 == 1;
            let colour = if dark { "#9c6b43" } else { "#f1dfc2" };
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{colour}"/>"#,
                col * cell,
                row * cell
            );
        }
    }
    for &(row, col, piece) in pieces {
        let (cx, cy) = (col * cell + cell / 2, row * cell + cell / 2);
        let (fill, stroke) = match piece {
            Piece::WhiteMan | Piece::WhiteKing => ("#fbf6ee", "#3a2a1e"),
            Piece::BlackMan | Piece::BlackKing => ("#2a1f19", "#0d0907"),
        };
        let _ = write!(
            out,
            r#"<circle cx="{cx}" cy="{cy}" r="15" fill="{fill}" stroke="{stroke}" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="9" fill="none" stroke="{stroke}" stroke-opacity=".45" stroke-width="1.5"/>"#
        );
        if matches!(piece, Piece::WhiteKing | Piece::BlackKing) {
            let crown = if fill == "#fbf6ee" {
                "#b0752f"
            } else {
                "#e0b25a"
            };
            let _ = write!(
                out,
                r#"<path d="M{} {} l4 -8 l4 6 l4 -6 l4 8 z" fill="{crown}"/>"#,
                cx - 8,
                cy + 4
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// The start position of 8x8 Russian draughts, for decoration.
pub fn russian_start_board(title: &str) -> String {
    let mut pieces = Vec::new();
    for row in 0..8 {
        for col in 0..8 {
            if (row + col) % 2 == 1 {
                if row < 3 {
                    pieces.push((row, col, Piece::BlackMan));
                } else if row > 4 {
                    pieces.push((row, col, Piece::WhiteMan));
                }
            }
        }
    }
    board(8, &pieces, title)
}

/// A line chart of values over labelled steps (a running score by round, a rating over
/// time). `divisor` scales stored values for the axis labels (2 for half-points).
pub fn line_chart(points: &[(String, i64)], title: &str, divisor: i64) -> String {
    let shown = |v: i64| {
        if divisor == 2 && v % 2 != 0 {
            format!("{}.5", v / 2)
        } else {
            (v / divisor.max(1)).to_string()
        }
    };
    line_chart_with(points, title, &shown)
}

/// A line chart whose value labels `shown` writes (in the reader's language: 4,5).
pub fn line_chart_with(
    points: &[(String, i64)],
    title: &str,
    shown: &dyn Fn(i64) -> String,
) -> String {
    let (width, height, pad) = (480i64, 200i64, 30i64);
    let max = points.iter().map(|(_, v)| *v).max().unwrap_or(1).max(1);
    let min = points.iter().map(|(_, v)| *v).min().unwrap_or(0).min(0);
    let span = (max - min).max(1);
    let steps = (points.len() as i64 - 1).max(1);
    let x = |i: usize| pad + (width - 2 * pad) * i as i64 / steps;
    let y = |v: i64| height - pad - (height - 2 * pad) * (v - min) / span;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" aria-label="{}"><title>{}</title>"#,
        escape(title),
        escape(title)
    );
    let _ = write!(
        out,
        r#"<line x1="{pad}" y1="{}" x2="{}" y2="{}" stroke="currentColor" stroke-opacity=".3"/>"#,
        height - pad,
        width - pad,
        height - pad
    );
    let path: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, (_, v))| format!("{},{}", x(i), y(*v)))
        .collect();
    let _ = write!(
        out,
        r#"<polyline class="line" fill="none" stroke-width="2.5" points="{}"/>"#,
        path.join(" ")
    );
    for (i, (label, v)) in points.iter().enumerate() {
        let shown = escape(&shown(*v));
        let _ = write!(
            out,
            r#"<circle class="dot" cx="{}" cy="{}" r="4"/><text x="{}" y="{}" text-anchor="middle">{}</text><text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            x(i),
            y(*v),
            x(i),
            height - pad + 16,
            escape(label),
            x(i),
            y(*v) - 9,
            shown
        );
    }
    out.push_str("</svg>");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board_has_24_men_on_dark_squares() {
        let svg = russian_start_board("start");
        assert_eq!(svg.matches("r=\"15\"").count(), 24);
        assert_eq!(svg.matches("<rect").count(), 64);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }

    #[test]
    fn line_chart_plots_every_point() {
        let svg = line_chart(
            &[("1".into(), 2), ("2".into(), 3), ("3".into(), 5)],
            "score",
            2,
        );
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains(">1.5<") && svg.contains(">2.5<"));
        assert!(svg.contains("<polyline"));
    }
}
