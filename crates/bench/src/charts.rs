//! PNG charts drawn with `plotters` (bitmap backend, text through
//! `ab_glyph` with a TTF font from the system, DejaVu Sans by default):
//! TPS vs threads (log2 x-axis), QPS over time, disk write IOs per
//! transaction, average commit-group size.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::prelude::*;

use crate::error::{BenchError, Result};
use crate::results::CellSummary;

/// Pixel size of every chart.
pub const CHART_WIDTH_PX: u32 = 1200;
pub const CHART_HEIGHT_PX: u32 = 720;

const FONT_CANDIDATES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

static FONT: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();

/// Registers a TTF font as "sans-serif" once (`ONELOG_BENCH_FONT` overrides the search).
pub fn ensure_font() -> Result<PathBuf> {
    let found = FONT.get_or_init(|| {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(p) = std::env::var_os("ONELOG_BENCH_FONT") {
            candidates.push(PathBuf::from(p));
        }
        candidates.extend(FONT_CANDIDATES.iter().map(PathBuf::from));
        for path in candidates {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            // plotters keeps fonts for the life of the process; leak once.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return Ok(path);
            }
        }
        Err("no TTF font found for the charts: install one with `apt-get install fonts-dejavu-core` \
             or point ONELOG_BENCH_FONT at a .ttf file"
            .to_string())
    });
    found.clone().map_err(|detail| BenchError::Command { what: "loading a font".into(), detail })
}

/// One line of a chart.
pub struct Series {
    pub label: String,
    pub system: String,
    pub config: String,
    pub points: Vec<(f64, f64)>,
}

fn config_color(config: &str) -> RGBColor {
    match config {
        "off" => RGBColor(0x2c, 0xa0, 0x2c),
        "sync0" => RGBColor(0x1f, 0x77, 0xb4),
        "sync1000" => RGBColor(0xff, 0x7f, 0x0e),
        "sync1" => RGBColor(0xd6, 0x27, 0x28),
        _ => RGBColor(0x94, 0x67, 0xbd),
    }
}

fn chart_err(path: &Path, e: impl std::fmt::Display) -> BenchError {
    BenchError::Command { what: format!("drawing {}", path.display()), detail: e.to_string() }
}

/// Draws a line chart; `log2_x` puts x on a log2 axis labelled with powers of two.
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log2_x: bool,
) -> Result<()> {
    ensure_font()?;
    let tx = |x: f64| if log2_x { x.max(1e-9).log2() } else { x };
    let all: Vec<(f64, f64)> =
        series.iter().flat_map(|s| s.points.iter().copied()).filter(|(x, y)| x.is_finite() && y.is_finite()).collect();
    let (mut x_min, mut x_max) =
        all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| (lo.min(tx(*x)), hi.max(tx(*x))));
    if !x_min.is_finite() {
        (x_min, x_max) = (0.0, 1.0);
    }
    if x_max - x_min < 1.0 {
        x_max = x_min + 1.0;
    }
    let y_max = all.iter().map(|(_, y)| *y).fold(0.0f64, f64::max);
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };

    let root = BitMapBackend::new(path, (CHART_WIDTH_PX, CHART_HEIGHT_PX)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| chart_err(path, e))?;
    let pad = if log2_x { 0.15 } else { 0.0 };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d((x_min - pad)..(x_max + pad), 0.0..y_max)
        .map_err(|e| chart_err(path, e))?;
    let x_ticks = ((x_max - x_min).round() as usize + 1).min(if log2_x { 64 } else { 12 });
    let fmt_x = |x: &f64| {
        if log2_x {
            if (x - x.round()).abs() < 1e-6 {
                format!("{}", 2f64.powf(x.round()) as u64)
            } else {
                String::new()
            }
        } else if (x - x.round()).abs() < 1e-6 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_labels(x_ticks.max(2))
        .x_label_formatter(&fmt_x)
        .y_label_formatter(&|y| {
            if *y >= 1000.0 {
                format!("{:.0}", y)
            } else {
                format!("{:.3}", y).trim_end_matches('0').trim_end_matches('.').to_string()
            }
        })
        .label_style(("sans-serif", 18))
        .axis_desc_style(("sans-serif", 20))
        .draw()
        .map_err(|e| chart_err(path, e))?;
    for s in series {
        let color = config_color(&s.config);
        let pts: Vec<(f64, f64)> =
            s.points.iter().filter(|(x, y)| x.is_finite() && y.is_finite()).map(|(x, y)| (tx(*x), *y)).collect();
        if pts.is_empty() {
            continue;
        }
        let onelog = s.system == "onelog";
        let style = ShapeStyle { color: color.to_rgba(), filled: onelog, stroke_width: if onelog { 3 } else { 2 } };
        if onelog {
            chart.draw_series(LineSeries::new(pts.clone(), style)).map_err(|e| chart_err(path, e))?
        } else {
            chart.draw_series(DashedLineSeries::new(pts.clone(), 10, 6, style)).map_err(|e| chart_err(path, e))?
        }
        .label(s.label.clone())
        .legend(move |(x, y)| {
            // Solid sample for OneLog, dashed for MariaDB, as drawn.
            let gap = if onelog { 0 } else { 6 };
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (12 - gap / 2, 0)], style)
                + PathElement::new(vec![(12 + gap / 2, 0), (24, 0)], style)
        });
        if pts.len() <= 64 {
            chart.draw_series(pts.iter().map(|p| Circle::new(*p, 4, style))).map_err(|e| chart_err(path, e))?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 18))
        .draw()
        .map_err(|e| chart_err(path, e))?;
    root.present().map_err(|e| chart_err(path, e))?;
    Ok(())
}

/// Series (one per system × configuration) of `metric` against threads.
pub fn by_threads(cells: &[CellSummary], workload: &str, metric: fn(&CellSummary) -> f64) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for c in cells.iter().filter(|c| c.key.workload == workload) {
        let y = metric(c);
        let label = format!("{} {}", c.key.system, c.key.config);
        let idx = match out.iter().position(|s| s.label == label) {
            Some(i) => i,
            None => {
                out.push(Series {
                    label,
                    system: c.key.system.clone(),
                    config: c.key.config.clone(),
                    points: Vec::new(),
                });
                out.len() - 1
            }
        };
        if y.is_finite() {
            out[idx].points.push((c.key.threads as f64, y));
        }
    }
    for s in &mut out {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out.retain(|s| !s.points.is_empty());
    out
}
