//! `report.md`: machine and versions, settings, a table of medians per cell,
//! the ratios sync1/OFF per system and OneLog/MariaDB per configuration, the
//! embedded charts, and failed cells.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::{BenchError, Result};
use crate::probes::MachineInfo;
use crate::results::CellSummary;

/// What the report needs besides the cells.
pub struct ReportInput<'a> {
    pub machine: &'a MachineInfo,
    pub settings: Vec<(String, String)>,
    pub cells: &'a [CellSummary],
    pub runs_total: usize,
    /// (workload, relative chart file names with captions).
    pub charts: Vec<(String, Vec<(String, String)>)>,
    pub chart_error: Option<String>,
    pub interrupted: bool,
    pub started: String,
    pub elapsed_s: f64,
}

fn f(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        "–".into()
    }
}

fn find<'a>(
    cells: &'a [CellSummary],
    workload: &str,
    system: &str,
    config: &str,
    threads: u32,
) -> Option<&'a CellSummary> {
    cells.iter().find(|c| {
        c.key.workload == workload && c.key.system == system && c.key.config == config && c.key.threads == threads
    })
}

fn unique<T: Clone + PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// One TPS-ratio table: a row per thread count, a column per `columns`
/// entry; `pair` gives (numerator, denominator) cells for a column and
/// thread count.
fn ratio_table<'c>(
    s: &mut String,
    threads: &[u32],
    columns: &[String],
    pair: impl Fn(&str, u32) -> (Option<&'c CellSummary>, Option<&'c CellSummary>),
) {
    let _ = writeln!(s, "| threads | {} |", columns.join(" | "));
    let _ = writeln!(s, "| ---: |{}", " ---: |".repeat(columns.len()));
    for &t in threads {
        let row: Vec<String> = columns
            .iter()
            .map(|c| match pair(c, t) {
                (Some(a), Some(b)) if b.tps > 0.0 => f(a.tps / b.tps, 2),
                _ => "–".into(),
            })
            .collect();
        let _ = writeln!(s, "| {t} | {} |", row.join(" | "));
    }
    let _ = writeln!(s);
}

/// Writes `report.md` into `path`.
pub fn write_report(path: &Path, input: &ReportInput) -> Result<()> {
    let m = input.machine;
    let cells = input.cells;
    let mut s = String::new();
    let _ = writeln!(s, "# OneLog bench report\n");
    let _ = writeln!(
        s,
        "Started {}, took {:.0} s. sysbench workloads against OneLog{} under binary-log configurations, \
         each cell (workload × system × configuration × threads) measured after a warm-up; \
         figures are medians over the repeats.{}\n",
        input.started,
        input.elapsed_s,
        if cells.iter().any(|c| c.key.system == "mariadb") { " and MariaDB side by side" } else { "" },
        if input.interrupted { " **The run was interrupted: only the cells measured so far are shown.**" } else { "" }
    );
    let _ = writeln!(s, "## Machine\n");
    let _ = writeln!(s, "| | |\n| --- | --- |");
    let _ = writeln!(s, "| CPU | {} |", m.cpu_model);
    let _ = writeln!(s, "| cores | {} |", m.cores);
    let _ = writeln!(s, "| RAM | {:.1} GiB |", m.ram_gib);
    let _ = writeln!(s, "| disk | {} |", m.disk);
    let _ = writeln!(s, "| filesystem of the data directories | {} |", m.filesystem);
    let _ = writeln!(s, "| kernel | {} |", m.kernel);
    let _ = writeln!(s, "| sysbench | {} |", m.sysbench_version);
    let _ = writeln!(s, "| MariaDB | {} |", m.mariadb_version);
    let _ = writeln!(s, "| OneLog | {} |\n", m.onelog_commit);
    let _ = writeln!(s, "## Settings\n");
    let _ = writeln!(s, "| | |\n| --- | --- |");
    for (k, v) in &input.settings {
        let _ = writeln!(s, "| {k} | {v} |");
    }
    let _ = writeln!(s);

    let _ = writeln!(s, "## Results\n");
    let _ = writeln!(s, "Cells: {} ({} runs in results.csv).\n", cells.len(), input.runs_total);
    let _ = writeln!(
        s,
        "| workload | system | config | threads | TPS | QPS | lat avg ms | p95 ms | p99 ms | errors | CPU ms/txn | write IOs/s | write IOs/txn | IO time ms/s | avg group | syncs/txn | runs ok/failed |"
    );
    let _ = writeln!(s, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for c in cells {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}/{} |",
            c.key.workload,
            c.key.system,
            c.key.config,
            c.key.threads,
            f(c.tps, 1),
            f(c.qps, 1),
            f(c.latency_avg_ms, 2),
            f(c.latency_p95_ms, 2),
            f(c.latency_p99_ms, 2),
            f(c.errors, 0),
            f(c.server_cpu_s_per_txn * 1000.0, 3),
            f(c.write_ios_per_s, 0),
            f(c.write_ios_per_txn, 3),
            f(c.io_time_ms_per_s, 0),
            f(c.avg_group_size, 2),
            f(c.syncs_per_txn, 3),
            c.runs_ok,
            c.runs_failed
        );
    }
    let _ = writeln!(s);

    let workloads = unique(cells.iter().map(|c| c.key.workload.clone()));
    let systems = unique(cells.iter().map(|c| c.key.system.clone()));
    let configs = unique(cells.iter().map(|c| c.key.config.clone()));
    let mut threads = unique(cells.iter().map(|c| c.key.threads));
    threads.sort_unstable();

    let _ = writeln!(s, "## Ratios\n");
    let _ = writeln!(s, "TPS ratios of the medians; above 1 means the numerator is faster.\n");
    for w in &workloads {
        let _ = writeln!(s, "### {w}\n");
        if configs.iter().any(|c| c == "sync1") && configs.iter().any(|c| c == "off") {
            let _ = writeln!(s, "sync1 / OFF (the cost of full binlog durability) per system:\n");
            ratio_table(&mut s, &threads, &systems, |sys, t| {
                (find(cells, w, sys, "sync1", t), find(cells, w, sys, "off", t))
            });
        } else {
            let _ = writeln!(s, "sync1 / OFF: not measured (needs both configurations).\n");
        }
        if systems.iter().any(|x| x == "onelog") && systems.iter().any(|x| x == "mariadb") {
            let _ = writeln!(s, "OneLog / MariaDB per configuration:\n");
            ratio_table(&mut s, &threads, &configs, |cfg, t| {
                (find(cells, w, "onelog", cfg, t), find(cells, w, "mariadb", cfg, t))
            });
        } else {
            let _ = writeln!(s, "OneLog / MariaDB: not measured (needs both systems).\n");
        }
    }

    let _ = writeln!(s, "## Charts\n");
    if let Some(e) = &input.chart_error {
        let _ = writeln!(s, "Charts could not be drawn: {e}\n");
    }
    for (w, charts) in &input.charts {
        let _ = writeln!(s, "### {w}\n");
        for (file, caption) in charts {
            let _ = writeln!(s, "![{caption}]({file})\n");
        }
    }

    let failed: Vec<&CellSummary> = cells.iter().filter(|c| c.runs_failed > 0).collect();
    let _ = writeln!(s, "## Failed cells\n");
    if failed.is_empty() {
        let _ = writeln!(s, "None.\n");
    } else {
        for c in failed {
            let _ = writeln!(
                s,
                "- {} {} {} threads={}: {} of {} runs failed: `{}`",
                c.key.workload,
                c.key.system,
                c.key.config,
                c.key.threads,
                c.runs_failed,
                c.runs_failed + c.runs_ok,
                c.first_error.replace('\n', " ").replace('`', "'")
            );
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "## Notes\n");
    let _ = writeln!(
        s,
        "- Disk figures are deltas of /proc/diskstats for the whole device holding the data directories, \
         so they include any other I/O on that device during the run (other processes, the other system's \
         background flushing: both systems of a configuration run at the same time, idle in turn).\n\
         - CPU is user+system time of the server process (/proc/<pid>/stat) during the measured interval.\n\
         - avg group = Binlog_commits / Binlog_group_commits; syncs/txn = Binlog_syncs / transactions \
         (OneLog's counters; MariaDB has no Binlog_syncs).\n\
         - p99 comes from sysbench's latency histogram; p95 from sysbench's `--percentile=95`.\n\
         - errors = sysbench's ignored errors (deadlocks and lock-wait timeouts it retries)."
    );
    let tmp = path.with_extension("md.tmp");
    std::fs::write(&tmp, s).map_err(|e| BenchError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| BenchError::io(path, e))
}
