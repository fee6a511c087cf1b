//! A player's ratings over time as a server-drawn SVG: one line per system on a shared
//! time axis, each point with a tooltip (`<title>`), the lowest and highest rating and the
//! first and last date written on the axes. No script, so it works without JavaScript.
//! The drawing has no size of its own: `width="100%"` and the `viewBox` make it as wide as
//! the page (a 390 px phone to a desktop), and its type is sized so that it still reads at
//! a phone's width.
use std::fmt::Write;

/// One system's line.
pub struct Series {
    /// The legend's label ("Elo").
    pub label: String,
    /// (seconds since the epoch, rating, tooltip), oldest first.
    pub points: Vec<(i64, i64, String)>,
    /// The line's colour and whether it is dashed (so the lines differ in print too).
    pub colour: &'static str,
    pub dashed: bool,
}

const WIDTH: i64 = 600;
const HEIGHT: i64 = 250;
const LEFT: i64 = 54;
const RIGHT: i64 = 14;
const TOP: i64 = 32;
const BOTTOM: i64 = 30;
/// Type size in drawing units: 9 px on a 390 px phone, where the drawing is ~360 px wide.
const FONT: i64 = 15;

/// The chart, or `None` when no series has a point.
pub fn draw(series: &[Series], title: &str, first_date: &str, last_date: &str) -> Option<String> {
    let all = series.iter().flat_map(|s| s.points.iter());
    let (mut t_min, mut t_max, mut v_min, mut v_max) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
    let mut any = false;
    for &(t, v, _) in all {
        any = true;
        t_min = t_min.min(t);
        t_max = t_max.max(t);
        v_min = v_min.min(v);
        v_max = v_max.max(v);
    }
    if !any {
        return None;
    }
    // Some room above and below, and a span of at least 100 points so that a flat line
    // does not look like a cliff.
    let middle = (v_min + v_max) / 2;
    let half = ((v_max - v_min) / 2 + 20).max(50);
    let (v_low, v_high) = (middle - half, middle + half);
    let t_span = (t_max - t_min).max(1);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |t: i64| {
        if t_max == t_min {
            LEFT + plot_w / 2
        } else {
            LEFT + ((t - t_min) as i128 * plot_w as i128 / t_span as i128) as i64
        }
    };
    let y = |v: i64| TOP + plot_h - (v - v_low) * plot_h / (v_high - v_low);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="chart rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" preserveAspectRatio="xMidYMid meet" role="img" aria-label="{t}"><title>{t}</title>"#,
        t = escape(title)
    );
    // Axes and their labels.
    let _ = write!(
        out,
        r#"<g stroke="currentColor" stroke-opacity=".3"><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{b}"/><line x1="{LEFT}" y1="{b}" x2="{r}" y2="{b}"/></g>"#,
        b = TOP + plot_h,
        r = WIDTH - RIGHT
    );
    let _ = write!(
        out,
        r#"<g font-size="{FONT}" fill="currentColor"><text x="{lx}" y="{y_max}" text-anchor="end">{v_max}</text><text x="{lx}" y="{y_min}" text-anchor="end">{v_min}</text><text x="{LEFT}" y="{dy}">{first}</text><text x="{r}" y="{dy}" text-anchor="end">{last}</text></g>"#,
        lx = LEFT - 4,
        y_max = y(v_max) + 4,
        y_min = y(v_min) + 4,
        dy = HEIGHT - 9,
        r = WIDTH - RIGHT,
        first = escape(first_date),
        last = escape(last_date),
    );
    // Legend.
    let mut legend_x = LEFT;
    for s in series.iter().filter(|s| !s.points.is_empty()) {
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<line x1="{legend_x}" y1="13" x2="{x2}" y2="13" stroke="{c}" stroke-width="2.5"{dash}/><text x="{tx}" y="18" font-size="{FONT}" fill="currentColor">{label}</text>"#,
            x2 = legend_x + 22,
            c = s.colour,
            tx = legend_x + 27,
            label = escape(&s.label)
        );
        legend_x += 44 + 10 * s.label.chars().count() as i64;
    }
    for s in series.iter().filter(|s| !s.points.is_empty()) {
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(t, v, _)| format!("{},{}", x(t), y(v)))
            .collect();
        if path.len() > 1 {
            let _ = write!(
                out,
                r#"<polyline fill="none" stroke="{c}" stroke-width="2.5"{dash} points="{p}"/>"#,
                c = s.colour,
                p = path.join(" ")
            );
        }
        for (t, v, tip) in &s.points {
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="4.5" fill="{}"><title>{}</title></circle>"#,
                x(*t),
                y(*v),
                s.colour,
                escape(tip)
            );
        }
    }
    out.push_str("</svg>");
    Some(out)
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

    fn series(label: &str, points: &[(i64, i64)]) -> Series {
        Series {
            label: label.into(),
            points: points
                .iter()
                .map(|&(t, v)| (t, v, format!("{v} <x>")))
                .collect(),
            colour: "#000",
            dashed: false,
        }
    }

    #[test]
    fn both_systems_are_drawn_on_one_time_axis() {
        let svg = draw(
            &[
                series("Elo", &[(0, 1500), (100, 1600)]),
                series("Glicko-2", &[(50, 1450), (100, 1700), (200, 1750)]),
            ],
            "rating",
            "1.1.2026",
            "2.1.2026",
        )
        .expect("points to draw");
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 5);
        // The extremes are written on the axis; tooltips are escaped.
        assert!(svg.contains(">1750<") && svg.contains(">1450<"));
        assert!(svg.contains("1600 &lt;x&gt;"));
        // The first point is at the left edge of the plot, the last at the right.
        assert!(svg.contains(&format!("cx=\"{LEFT}\"")));
        assert!(svg.contains(&format!("cx=\"{}\"", WIDTH - RIGHT)));
        // As wide as the page: no size in pixels, a viewBox to scale by.
        assert!(svg.contains(r#"width="100%""#) && svg.contains("viewBox="));
        assert!(!svg.contains("px"));
    }

    #[test]
    fn nothing_to_draw_gives_no_chart_and_one_point_no_line() {
        assert!(draw(&[series("Elo", &[])], "t", "", "").is_none());
        let one = draw(&[series("Elo", &[(5, 1500)])], "t", "", "").expect("a point");
        assert_eq!(one.matches("<polyline").count(), 0);
        assert_eq!(one.matches("<circle").count(), 1);
    }
}
