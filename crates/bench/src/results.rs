//! Measurements: one [`Run`] per cell and repeat, the CSV file, and the
//! median summary per cell ([`CellSummary`]) that charts and report use.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::error::{BenchError, Result};

/// One measured (or failed) run of a cell.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub workload: String,
    pub system: String,
    pub config: String,
    pub threads: u32,
    pub repeat: u32,
    /// "ok" or "failed".
    pub status: String,
    pub error: String,
    pub transactions: u64,
    pub duration_s: f64,
    pub tps: f64,
    pub qps: f64,
    pub latency_avg_ms: f64,
    pub latency_p95_ms: f64,
    pub latency_p99_ms: f64,
    pub errors: u64,
    pub server_cpu_s: f64,
    pub disk_device: String,
    pub write_ios: f64,
    pub sectors_written: f64,
    pub io_time_ms: f64,
    pub binlog_commits: f64,
    pub binlog_group_commits: f64,
    pub binlog_syncs: f64,
    pub qps_per_s: Vec<f64>,
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 && a.is_finite() {
        a / b
    } else {
        f64::NAN
    }
}

impl Run {
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
    pub fn write_ios_per_s(&self) -> f64 {
        ratio(self.write_ios, self.duration_s)
    }
    pub fn write_ios_per_txn(&self) -> f64 {
        ratio(self.write_ios, self.transactions as f64)
    }
    pub fn sectors_written_per_txn(&self) -> f64 {
        ratio(self.sectors_written, self.transactions as f64)
    }
    pub fn io_time_ms_per_s(&self) -> f64 {
        ratio(self.io_time_ms, self.duration_s)
    }
    pub fn io_time_ms_per_txn(&self) -> f64 {
        ratio(self.io_time_ms, self.transactions as f64)
    }
    pub fn server_cpu_s_per_txn(&self) -> f64 {
        ratio(self.server_cpu_s, self.transactions as f64)
    }
    pub fn avg_group_size(&self) -> f64 {
        ratio(self.binlog_commits, self.binlog_group_commits)
    }
    pub fn syncs_per_txn(&self) -> f64 {
        ratio(self.binlog_syncs, self.transactions as f64)
    }
}

const HEADER: &str = "workload,system,config,threads,repeat,status,tps,qps,latency_avg_ms,latency_p95_ms,latency_p99_ms,\
errors,transactions,duration_s,server_cpu_s,server_cpu_s_per_txn,disk_device,write_ios,write_ios_per_s,write_ios_per_txn,\
sectors_written,sectors_written_per_txn,io_time_ms,io_time_ms_per_s,io_time_ms_per_txn,binlog_commits,binlog_group_commits,\
binlog_syncs,avg_group_size,syncs_per_txn,qps_per_s,error";

fn num(v: f64) -> String {
    if v.is_finite() {
        let s = format!("{v:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s.is_empty() || s == "-" {
            "0".into()
        } else {
            s.to_string()
        }
    } else {
        String::new()
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace('\n', " | "))
    } else {
        s.to_string()
    }
}

/// Writes `results.csv`: one row per cell and repeat (empty fields: not measured).
pub fn write_csv(path: &Path, runs: &[Run]) -> Result<()> {
    let mut out = String::new();
    out.push_str(HEADER);
    out.push('\n');
    for r in runs {
        let series: Vec<String> = r.qps_per_s.iter().map(|q| num(*q)).collect();
        let fields = [
            csv_field(&r.workload),
            csv_field(&r.system),
            csv_field(&r.config),
            r.threads.to_string(),
            r.repeat.to_string(),
            r.status.clone(),
            num(r.tps),
            num(r.qps),
            num(r.latency_avg_ms),
            num(r.latency_p95_ms),
            num(r.latency_p99_ms),
            r.errors.to_string(),
            r.transactions.to_string(),
            num(r.duration_s),
            num(r.server_cpu_s),
            num(r.server_cpu_s_per_txn()),
            csv_field(&r.disk_device),
            num(r.write_ios),
            num(r.write_ios_per_s()),
            num(r.write_ios_per_txn()),
            num(r.sectors_written),
            num(r.sectors_written_per_txn()),
            num(r.io_time_ms),
            num(r.io_time_ms_per_s()),
            num(r.io_time_ms_per_txn()),
            num(r.binlog_commits),
            num(r.binlog_group_commits),
            num(r.binlog_syncs),
            num(r.avg_group_size()),
            num(r.syncs_per_txn()),
            series.join(";"),
            csv_field(&r.error),
        ];
        let _ = writeln!(out, "{}", fields.join(","));
    }
    let tmp = path.with_extension("csv.tmp");
    std::fs::write(&tmp, out).map_err(|e| BenchError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| BenchError::io(path, e))
}

/// Identifies a cell: workload × system × configuration × threads.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellKey {
    pub workload: String,
    pub system: String,
    pub config: String,
    pub threads: u32,
}

/// Medians over the successful repeats of one cell.
#[derive(Debug, Clone)]
pub struct CellSummary {
    pub key: CellKey,
    pub runs_ok: usize,
    pub runs_failed: usize,
    pub tps: f64,
    pub qps: f64,
    pub latency_avg_ms: f64,
    pub latency_p95_ms: f64,
    pub latency_p99_ms: f64,
    pub errors: f64,
    pub server_cpu_s_per_txn: f64,
    pub write_ios_per_s: f64,
    pub write_ios_per_txn: f64,
    pub io_time_ms_per_s: f64,
    pub avg_group_size: f64,
    pub syncs_per_txn: f64,
    /// Per-second QPS of the repeat whose TPS is closest to the median.
    pub qps_per_s: Vec<f64>,
    pub first_error: String,
}

/// Median of the finite values (NaN if none).
pub fn median(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Groups runs by cell and takes medians; cells in workload/system/config/threads order.
pub fn summarize(runs: &[Run]) -> Vec<CellSummary> {
    let mut groups: BTreeMap<CellKey, Vec<&Run>> = BTreeMap::new();
    for r in runs {
        let key = CellKey {
            workload: r.workload.clone(),
            system: r.system.clone(),
            config: r.config.clone(),
            threads: r.threads,
        };
        groups.entry(key).or_default().push(r);
    }
    groups
        .into_iter()
        .map(|(key, all)| {
            let ok: Vec<&Run> = all.iter().copied().filter(|r| r.ok()).collect();
            let m = |f: fn(&Run) -> f64| median(ok.iter().map(|r| f(r)));
            let tps = m(|r| r.tps);
            let representative = ok.iter().min_by(|a, b| (a.tps - tps).abs().total_cmp(&(b.tps - tps).abs()));
            CellSummary {
                runs_ok: ok.len(),
                runs_failed: all.len() - ok.len(),
                tps,
                qps: m(|r| r.qps),
                latency_avg_ms: m(|r| r.latency_avg_ms),
                latency_p95_ms: m(|r| r.latency_p95_ms),
                latency_p99_ms: m(|r| r.latency_p99_ms),
                errors: m(|r| r.errors as f64),
                server_cpu_s_per_txn: m(Run::server_cpu_s_per_txn),
                write_ios_per_s: m(Run::write_ios_per_s),
                write_ios_per_txn: m(Run::write_ios_per_txn),
                io_time_ms_per_s: m(Run::io_time_ms_per_s),
                avg_group_size: m(Run::avg_group_size),
                syncs_per_txn: m(Run::syncs_per_txn),
                qps_per_s: representative.map(|r| r.qps_per_s.clone()).unwrap_or_default(),
                first_error: all.iter().find(|r| !r.ok()).map(|r| r.error.clone()).unwrap_or_default(),
                key,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_ignores_nan_and_averages_middle() {
        assert_eq!(median([3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median([4.0, 1.0, f64::NAN, 2.0, 3.0]), 2.5);
        assert!(median([f64::NAN]).is_nan());
    }

    #[test]
    fn csv_has_one_row_per_run() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("results.csv");
        let run = Run {
            workload: "w".into(),
            system: "s".into(),
            config: "off".into(),
            threads: 1,
            status: "ok".into(),
            ..Default::default()
        };
        write_csv(&path, &[run.clone(), run]).expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.lines().count(), 3);
        let cols = text.lines().next().map(|l| l.split(',').count()).unwrap_or(0);
        assert!(text.lines().all(|l| l.split(',').count() == cols));
    }
}
