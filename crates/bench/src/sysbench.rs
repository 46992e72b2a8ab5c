//! Running sysbench 1.0.20 and parsing its report: the summary (transactions,
//! queries, ignored errors, latency), the per-second lines of
//! `--report-interval=1`, and the latency histogram of `--histogram=on`
//! (from which p99 is computed; sysbench prints only one percentile).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::{BenchError, Result};
use crate::server::{kill_group, spawn_child, Server};

/// What one sysbench `run` reported.
#[derive(Debug, Clone, Default)]
pub struct SysbenchReport {
    pub transactions: u64,
    pub tps: f64,
    pub qps: f64,
    pub ignored_errors: u64,
    pub total_time_s: f64,
    pub latency_avg_ms: f64,
    pub latency_p95_ms: f64,
    pub latency_p99_ms: f64,
    pub qps_per_s: Vec<f64>,
}

/// Who a sysbench command runs as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum As {
    /// root on the socket: `prepare` and `cleanup`.
    Admin,
    /// The column's account and transport: the measured runs and their warm-up.
    Client,
}

/// Common arguments: driver, connection, tables.
pub fn base_args(server: &Server, login: As, db: &str, tables: u32, table_size: u64) -> Vec<String> {
    let mut args = vec!["--db-driver=mysql".to_string(), format!("--mysql-db={db}")];
    match login {
        As::Admin => args.extend(server.connection_args("mysql-")),
        As::Client => args.extend(server.client_args()),
    }
    args.push(format!("--tables={tables}"));
    args.push(format!("--table-size={table_size}"));
    args
}

/// Runs sysbench to completion (or until `stop` is set, then kills it), in
/// `cwd` when given (where `--mysql-ssl=on` finds its certificate files).
pub fn run_sysbench(
    sysbench: &Path,
    workload: &str,
    args: &[String],
    command: &str,
    cwd: Option<&Path>,
    timeout: Duration,
    stop: &AtomicBool,
) -> Result<String> {
    let mut cmd = Command::new(sysbench);
    cmd.arg(workload).args(args).arg(command).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = spawn_child(&mut cmd, &sysbench.display().to_string())?;
    // Drain stdout/stderr on threads so a chatty sysbench cannot block on a full pipe.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = stdout.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if stop.load(Ordering::SeqCst) {
            kill_group(&mut child);
            return Err(BenchError::Interrupted);
        }
        if Instant::now() > deadline {
            kill_group(&mut child);
            return Err(BenchError::Command {
                what: format!("sysbench {workload} {command}"),
                detail: format!("did not finish within {} s", timeout.as_secs()),
            });
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(BenchError::io(sysbench, e)),
        }
    };
    let out = out_thread.join().unwrap_or_default();
    let err = err_thread.join().unwrap_or_default();
    if !status.success() {
        let tail: Vec<&str> = out.lines().chain(err.lines()).filter(|l| !l.trim().is_empty()).collect();
        let tail = tail[tail.len().saturating_sub(8)..].join("\n");
        return Err(BenchError::Command { what: format!("sysbench {workload} {command} ({status})"), detail: tail });
    }
    Ok(out)
}

fn number_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start().strip_prefix(key)?;
    rest.split_whitespace().next()
}

/// Parses the output of `sysbench ... --report-interval=1 --histogram=on run`.
pub fn parse_report(text: &str) -> Result<SysbenchReport> {
    let mut r = SysbenchReport::default();
    let mut seen_transactions = false;
    let mut histogram: Vec<(f64, u64)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            // "[ 1s ] thds: 4 tps: 123.45 qps: 234.50 (r/w/o: ...) lat (ms,95%): ..."
            if let Some(q) = t.split("qps:").nth(1).and_then(|s| s.split_whitespace().next()) {
                r.qps_per_s.push(q.parse().unwrap_or(0.0));
            }
        } else if let Some((value, rest)) = t.split_once('|') {
            // Histogram row: "   0.403 |****   12"
            if let (Ok(v), Some(Ok(c))) =
                (value.trim().parse::<f64>(), rest.split_whitespace().last().map(|c| c.parse::<u64>()))
            {
                histogram.push((v, c));
            }
        } else if t.starts_with("transactions:") {
            let n = number_after(t, "transactions:").ok_or_else(|| BenchError::Parse(t.into()))?;
            r.transactions = n.parse().map_err(|_| BenchError::Parse(t.into()))?;
            r.tps = per_sec(t).unwrap_or(0.0);
            seen_transactions = true;
        } else if t.starts_with("queries:") {
            r.qps = per_sec(t).unwrap_or(0.0);
        } else if t.starts_with("ignored errors:") {
            r.ignored_errors = number_after(t, "ignored errors:").and_then(|n| n.parse().ok()).unwrap_or(0);
        } else if t.starts_with("total time:") {
            r.total_time_s =
                number_after(t, "total time:").and_then(|n| n.trim_end_matches('s').parse().ok()).unwrap_or(0.0);
        } else if t.starts_with("avg:") {
            r.latency_avg_ms = number_after(t, "avg:").and_then(|n| n.parse().ok()).unwrap_or(0.0);
        } else if t.starts_with("95th percentile:") {
            r.latency_p95_ms = number_after(t, "95th percentile:").and_then(|n| n.parse().ok()).unwrap_or(0.0);
        }
    }
    if !seen_transactions {
        return Err(BenchError::Parse("no `transactions:` line in sysbench output".into()));
    }
    r.latency_p99_ms = percentile(&histogram, 99.0).unwrap_or(f64::NAN);
    if r.latency_p95_ms == 0.0 {
        r.latency_p95_ms = percentile(&histogram, 95.0).unwrap_or(f64::NAN);
    }
    Ok(r)
}

fn per_sec(line: &str) -> Option<f64> {
    let inside = line.split('(').nth(1)?;
    inside.split_whitespace().next()?.parse().ok()
}

/// The smallest histogram value at or below which `pct` % of events fall.
fn percentile(histogram: &[(f64, u64)], pct: f64) -> Option<f64> {
    let total: u64 = histogram.iter().map(|(_, c)| c).sum();
    if total == 0 {
        return None;
    }
    let threshold = (total as f64 * pct / 100.0).ceil() as u64;
    let mut cumulative = 0;
    for (value, count) in histogram {
        cumulative += count;
        if cumulative >= threshold {
            return Some(*value);
        }
    }
    histogram.last().map(|(v, _)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
[ 1s ] thds: 4 tps: 100.00 qps: 100.00 (r/w/o: 0.00/100.00/0.00) lat (ms,95%): 1.00 err/s: 0.00 reconn/s: 0.00
[ 2s ] thds: 4 tps: 200.00 qps: 200.00 (r/w/o: 0.00/200.00/0.00) lat (ms,95%): 1.00 err/s: 0.00 reconn/s: 0.00
Latency histogram (values are in milliseconds)
       value  ------------- distribution ------------- count
       0.500 |****************************************  90
       1.000 |****                                      9
       5.000 |*                                         1
SQL statistics:
    transactions:                        300    (149.90 per sec.)
    queries:                             300    (149.90 per sec.)
    ignored errors:                      2      (0.00 per sec.)
General statistics:
    total time:                          2.0012s
Latency (ms):
         avg:                                    0.61
         95th percentile:                        0.99
";

    #[test]
    fn parses_summary_timeline_and_histogram() {
        let r = parse_report(SAMPLE).expect("parse");
        assert_eq!(r.transactions, 300);
        assert!((r.tps - 149.9).abs() < 1e-9);
        assert_eq!(r.ignored_errors, 2);
        assert_eq!(r.qps_per_s, vec![100.0, 200.0]);
        assert!((r.latency_p95_ms - 0.99).abs() < 1e-9);
        assert!((r.latency_p99_ms - 1.0).abs() < 1e-9);
        assert!((r.total_time_s - 2.0012).abs() < 1e-9);
    }

    #[test]
    fn missing_summary_is_an_error() {
        assert!(parse_report("FATAL: nope").is_err());
    }
}
