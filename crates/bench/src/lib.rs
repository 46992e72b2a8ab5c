//! `onelog bench`: the seed experiment, side by side with MariaDB.
//!
//! For each configuration (binary log OFF or `sync_binlog=N`, optionally as a
//! table-grant account, over TCP or TLS, or with the thread pool: [`config`]) it starts
//! OneLog and MariaDB in fresh data directories ([`server`]), prepares the
//! sysbench tables (and the procedure or trigger a [`workloads`] script
//! uses), and runs every cell (workload × configuration × threads)
//! for each system in turn (ABAB…, `--repeat` times) after a warm-up
//! ([`sysbench`]), measuring server CPU, disk write I/O and binlog counters
//! around each run ([`probes`]). Results go to `results.csv` ([`results`]),
//! PNG charts ([`charts`]) and `report.md` ([`report`]). Ctrl-C (or SIGTERM)
//! stops the run, writes what was measured and stops every server.
//!
//! Errors are typed ([`error::BenchError`]) inside; [`run`] returns `anyhow`.

pub mod certs;
pub mod charts;
pub mod config;
pub mod error;
pub mod probes;
pub mod report;
pub mod results;
pub mod server;
pub mod sysbench;
pub mod workloads;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};

use crate::config::RunConfig;
use crate::error::BenchError;
use crate::results::Run;
use crate::server::{LogConfig, Programs, Server, ServerSettings, System};
use crate::sysbench::As;

/// Command-line options of `onelog bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Preset that finishes in a few minutes on 2 cores and still shows the seed phenomenon:
    /// oltp_update_non_index; off, sync0, sync1; threads 1,4,16,64; 5 s cells after 2 s warm-up;
    /// 1 table × 10000 rows; repeat 1. Explicit options override it.
    #[arg(long)]
    pub quick: bool,
    /// Output directory (created): results.csv, *.png, report.md, logs/.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// sysbench workloads: its own scripts, or sp_call_update / trigger_insert (stored programs,
    /// see `workloads`) [default: oltp_read_write,oltp_update_non_index].
    #[arg(long, value_delimiter = ',')]
    pub workloads: Option<Vec<String>>,
    /// Binary-log configurations: off, sync0, sync1000, sync1, or any syncN, each optionally with
    /// +user (sysbench as an account with table-level grants), +tcp, +tls, +pool (both servers with
    /// thread_handling=pool-of-threads), e.g. sync1+user+tls [default: off,sync0,sync1000,sync1].
    #[arg(long, value_delimiter = ',')]
    pub configs: Option<Vec<String>>,
    /// Concurrent sysbench threads [default: 1,2,4,...,1024].
    #[arg(long, value_delimiter = ',')]
    pub threads: Option<Vec<u32>>,
    /// Measured seconds per cell [default: 20].
    #[arg(long = "time")]
    pub time_s: Option<u64>,
    /// Warm-up seconds before each measured run [default: 5].
    #[arg(long = "warmup")]
    pub warmup_s: Option<u64>,
    /// Repeats per cell; the report shows medians [default: 1].
    #[arg(long)]
    pub repeat: Option<u32>,
    /// sysbench --tables [default: 1].
    #[arg(long)]
    pub tables: Option<u32>,
    /// sysbench --table-size [default: 100000].
    #[arg(long)]
    pub table_size: Option<u64>,
    /// Systems to start: onelog, mariadb [default: onelog,mariadb].
    #[arg(long, value_delimiter = ',')]
    pub systems: Option<Vec<String>>,
    /// Benchmark an existing MySQL-compatible server at host:port instead of starting servers
    /// (uses database --db, whose sbtest* tables are dropped and re-created).
    #[arg(long)]
    pub target: Option<String>,
    /// User for --target.
    #[arg(long, default_value = "root")]
    pub user: String,
    /// Password for --target.
    #[arg(long, default_value = "")]
    pub password: String,
    /// Database for the sysbench tables.
    #[arg(long, default_value = "sbtest")]
    pub db: String,
    /// The onelog binary to benchmark [default: this executable].
    #[arg(long)]
    pub onelog_bin: Option<PathBuf>,
    /// Where the temporary data directories go (its disk is the one measured) [default: $TMPDIR or /tmp].
    #[arg(long)]
    pub workdir: Option<PathBuf>,
    /// MariaDB innodb_buffer_pool_size.
    #[arg(long, default_value = "2G")]
    pub buffer_pool: String,
    /// Concurrency whose per-second QPS is charted over time [default: the one closest to 16].
    #[arg(long)]
    pub timeline_threads: Option<u32>,
    /// sysbench binary.
    #[arg(long, default_value = "sysbench")]
    pub sysbench: PathBuf,
    /// mariadbd binary.
    #[arg(long, default_value = "/usr/sbin/mariadbd")]
    pub mariadbd: PathBuf,
}

/// The resolved plan of a run.
#[derive(Debug, Clone)]
struct Plan {
    out: PathBuf,
    workloads: Vec<String>,
    configs: Vec<RunConfig>,
    threads: Vec<u32>,
    time_s: u64,
    warmup_s: u64,
    repeat: u32,
    tables: u32,
    table_size: u64,
    systems: Vec<System>,
    target: Option<(String, u16)>,
    workdir: PathBuf,
    timeline_threads: u32,
    db: String,
}

fn shell_line(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

fn plan(args: &BenchArgs) -> anyhow::Result<Plan> {
    let q = args.quick;
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let workloads = args.workloads.clone().unwrap_or_else(|| {
        if q {
            strings(&["oltp_update_non_index"])
        } else {
            strings(&["oltp_read_write", "oltp_update_non_index"])
        }
    });
    let target = match &args.target {
        Some(t) => {
            let (host, port) = t.rsplit_once(':').context("--target must be host:port")?;
            Some((host.to_string(), port.parse::<u16>().context("--target port must be a number")?))
        }
        None => None,
    };
    let config_names = args.configs.clone().unwrap_or_else(|| {
        if q {
            strings(&["off", "sync0", "sync1"])
        } else {
            strings(&["off", "sync0", "sync1000", "sync1"])
        }
    });
    let configs = if target.is_some() {
        vec![RunConfig::of(LogConfig::AsIs)]
    } else {
        config_names
            .iter()
            .map(|c| {
                RunConfig::parse(c).with_context(|| {
                    format!(
                        "unknown configuration {c:?} (off, sync0, sync1000, sync1, syncN; +user, +tcp, +tls, +pool)"
                    )
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    let systems = if target.is_some() {
        vec![System::Target]
    } else {
        args.systems
            .clone()
            .unwrap_or_else(|| strings(&["onelog", "mariadb"]))
            .iter()
            .map(|s| System::parse(s).with_context(|| format!("unknown system {s:?} (onelog, mariadb)")))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    let threads =
        args.threads
            .clone()
            .unwrap_or_else(|| if q { vec![1, 4, 16, 64] } else { (0..=10).map(|i| 1u32 << i).collect() });
    anyhow::ensure!(!threads.is_empty() && threads.iter().all(|t| *t > 0), "--threads must be positive");
    anyhow::ensure!(!workloads.is_empty() && !configs.is_empty() && !systems.is_empty(), "empty matrix");
    let timeline_threads = args
        .timeline_threads
        .unwrap_or_else(|| threads.iter().copied().min_by_key(|t| (*t as i64 - 16).abs()).unwrap_or(1));
    let out = match &args.out {
        Some(o) => o.clone(),
        None => PathBuf::from(format!(
            "onelog-bench-{}",
            shell_line("date", &["+%Y%m%d-%H%M%S"]).unwrap_or_else(|| std::process::id().to_string())
        )),
    };
    Ok(Plan {
        out,
        workloads,
        configs,
        threads,
        time_s: args.time_s.unwrap_or(if q { 5 } else { 20 }).max(1),
        warmup_s: args.warmup_s.unwrap_or(if q { 2 } else { 5 }),
        repeat: args.repeat.unwrap_or(1).max(1),
        tables: args.tables.unwrap_or(1).max(1),
        table_size: args.table_size.unwrap_or(if q { 10_000 } else { 100_000 }),
        systems,
        target,
        workdir: args.workdir.clone().unwrap_or_else(std::env::temp_dir),
        timeline_threads,
        db: args.db.clone(),
    })
}

fn find_in_path(program: &Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.is_file().then(|| program.to_path_buf());
    }
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(program)).find(|p| p.is_file())
}

fn require(tool: &'static str, program: &Path) -> Result<PathBuf, BenchError> {
    find_in_path(program).ok_or_else(|| BenchError::MissingTool { tool, path: program.to_path_buf() })
}

/// Entry point of `onelog bench`.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let plan = plan(&args)?;
    let uses_mariadb = plan.systems.contains(&System::MariaDb);
    let sysbench = require("sysbench", &args.sysbench)?;
    let mariadb_cli = require("mariadb (client)", Path::new("mariadb"))?;
    let (mariadbd, install_db) = if uses_mariadb {
        (require("mariadbd", &args.mariadbd)?, require("mariadb-install-db", Path::new("mariadb-install-db"))?)
    } else {
        (args.mariadbd.clone(), PathBuf::from("mariadb-install-db"))
    };
    let onelog = match &args.onelog_bin {
        Some(p) => p.clone(),
        None => std::env::current_exe().context("locating the onelog executable")?,
    };
    anyhow::ensure!(
        !plan.systems.contains(&System::OneLog) || onelog.is_file(),
        "OneLog binary {} not found (build it with `cargo build --release`)",
        onelog.display()
    );
    let programs = Programs { onelog, mariadbd, mariadb_install_db: install_db, mariadb_cli, sysbench };
    std::fs::create_dir_all(&plan.out).with_context(|| format!("creating {}", plan.out.display()))?;
    std::fs::create_dir_all(&plan.workdir).with_context(|| format!("creating {}", plan.workdir.display()))?;

    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // A second Ctrl-C exits at once (children die with us: PR_SET_PDEATHSIG).
        signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(&stop))
            .context("installing signal handler")?;
        signal_hook::flag::register(sig, Arc::clone(&stop)).context("installing signal handler")?;
    }

    let started = shell_line("date", &["-u", "+%Y-%m-%d %H:%M:%S UTC"]).unwrap_or_default();
    let t0 = Instant::now();
    let device = if plan.target.is_some() { None } else { probes::block_device_for(&plan.workdir) };
    let machine = probes::machine_info(&plan.workdir, device.as_deref(), &programs.mariadbd, &programs.onelog);
    let runs = execute(&plan, &programs, &args, device.as_deref(), &stop);
    let interrupted = stop.load(Ordering::SeqCst);
    let csv_path = plan.out.join("results.csv");
    results::write_csv(&csv_path, &runs)?;
    let summaries = results::summarize(&runs);

    // Charts.
    let mut charts_out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut chart_error = None;
    match charts::ensure_font() {
        Err(e) => chart_error = Some(e.to_string()),
        Ok(_) => {
            for w in &plan.workloads {
                match draw_charts(&plan, &summaries, w) {
                    Ok(files) => charts_out.push((w.clone(), files)),
                    Err(e) => chart_error = Some(e.to_string()),
                }
            }
        }
    }
    let mut settings = vec![
        ("workloads".to_string(), plan.workloads.join(", ")),
        (
            "configurations".into(),
            plan.configs.iter().map(|c| format!("{} ({})", c.label(), c.describe())).collect::<Vec<_>>().join("; "),
        ),
        ("threads".into(), plan.threads.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")),
        ("systems".into(), plan.systems.iter().map(|s| s.label()).collect::<Vec<_>>().join(", ")),
        ("measured time per run".into(), format!("{} s after {} s warm-up", plan.time_s, plan.warmup_s)),
        ("repeats".into(), format!("{} (systems alternate ABAB within each cell)", plan.repeat)),
        ("tables".into(), format!("{} × {} rows", plan.tables, plan.table_size)),
        ("connection".into(), if plan.target.is_some() { "TCP".into() } else { "Unix socket".into() }),
        (
            "data directories".into(),
            format!("{} (device {})", plan.workdir.display(), device.as_deref().unwrap_or("unknown")),
        ),
    ];
    if uses_mariadb {
        settings.push((
            "MariaDB options".into(),
            format!("--innodb-buffer-pool-size={} --innodb-flush-log-at-trx-commit=1 --innodb-log-file-size=256M --server-id=1 --binlog-format=ROW", args.buffer_pool),
        ));
    }
    if let Some((h, p)) = &plan.target {
        settings.push(("target".into(), format!("{h}:{p}")));
    }
    let report_path = plan.out.join("report.md");
    report::write_report(
        &report_path,
        &report::ReportInput {
            machine: &machine,
            settings,
            cells: &summaries,
            runs_total: runs.len(),
            charts: charts_out,
            chart_error,
            interrupted,
            started,
            elapsed_s: t0.elapsed().as_secs_f64(),
        },
    )?;
    print_summary(&summaries);
    eprintln!("wrote {} and {}", csv_path.display(), report_path.display());
    if interrupted {
        anyhow::bail!("interrupted: partial results written to {}", plan.out.display());
    }
    Ok(())
}

fn print_summary(cells: &[results::CellSummary]) {
    println!(
        "{:<24} {:<8} {:<9} {:>7} {:>10} {:>9} {:>10}",
        "workload", "system", "config", "threads", "TPS", "p95 ms", "avg group"
    );
    for c in cells {
        println!(
            "{:<24} {:<8} {:<9} {:>7} {:>10.1} {:>9.2} {:>10.2}",
            c.key.workload, c.key.system, c.key.config, c.key.threads, c.tps, c.latency_p95_ms, c.avg_group_size
        );
    }
}

fn draw_charts(
    plan: &Plan,
    cells: &[results::CellSummary],
    workload: &str,
) -> Result<Vec<(String, String)>, BenchError> {
    let mut files = Vec::new();
    let mut chart = |name: String, caption: String, x: &str, y: &str, series: Vec<charts::Series>, log2: bool| {
        charts::line_chart(&plan.out.join(&name), &caption, x, y, &series, log2)?;
        files.push((name, caption));
        Ok::<(), BenchError>(())
    };
    chart(
        format!("tps_vs_threads_{workload}.png"),
        format!("{workload}: TPS vs threads"),
        "threads (log2)",
        "transactions per second",
        charts::by_threads(cells, workload, |c| c.tps),
        true,
    )?;
    let t = plan.timeline_threads;
    let timeline: Vec<charts::Series> = cells
        .iter()
        .filter(|c| c.key.workload == workload && c.key.threads == t && !c.qps_per_s.is_empty())
        .map(|c| charts::Series {
            label: format!("{} {}", c.key.system, c.key.config),
            system: c.key.system.clone(),
            config: c.key.config.clone(),
            points: c.qps_per_s.iter().enumerate().map(|(i, q)| ((i + 1) as f64, *q)).collect(),
        })
        .collect();
    chart(
        format!("qps_over_time_{workload}_{t}threads.png"),
        format!("{workload}: QPS per second at {t} threads"),
        "seconds",
        "queries per second",
        timeline,
        false,
    )?;
    chart(
        format!("write_ios_per_txn_{workload}.png"),
        format!("{workload}: disk write IOs per transaction"),
        "threads (log2)",
        "write IOs / transaction",
        charts::by_threads(cells, workload, |c| c.write_ios_per_txn),
        true,
    )?;
    chart(
        format!("group_size_{workload}.png"),
        format!("{workload}: average binlog commit-group size"),
        "threads (log2)",
        "commits per group commit",
        charts::by_threads(cells, workload, |c| c.avg_group_size),
        true,
    )?;
    Ok(files)
}

fn failed_run(workload: &str, system: System, config: RunConfig, threads: u32, repeat: u32, err: &str) -> Run {
    Run {
        workload: workload.into(),
        system: system.label().into(),
        config: config.label(),
        threads,
        repeat,
        status: "failed".into(),
        error: err.into(),
        ..Default::default()
    }
}

/// Runs the matrix; returns every run measured (also written to results.csv after each run).
fn execute(plan: &Plan, programs: &Programs, args: &BenchArgs, device: Option<&str>, stop: &AtomicBool) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let per_config = plan.workloads.len() * plan.threads.len() * plan.repeat as usize * plan.systems.len();
    let total = (per_config * plan.configs.len()) as u64;
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} runs, ETA {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.enable_steady_tick(Duration::from_millis(250));
    let settings = ServerSettings {
        buffer_pool: args.buffer_pool.clone(),
        max_connections: plan.threads.iter().copied().max().unwrap_or(1).saturating_mul(2).max(200),
        start_timeout: Duration::from_secs(120),
    };
    let csv_path = plan.out.join("results.csv");
    let logs_dir = plan.out.join("logs");
    let scratch = match server::make_temp_dir(&plan.workdir, "onelog-bench-") {
        Ok(d) => d,
        Err(e) => {
            pb.abandon_with_message(format!("cannot create a work directory: {e}"));
            return runs;
        }
    };
    let tls_files = if plan.configs.iter().any(|c| c.tls) {
        pb.set_message("making TLS certificates");
        match certs::make_tls_files(&scratch.join("tls")) {
            Ok(files) => Some(files),
            Err(e) => {
                pb.abandon_with_message(format!("cannot make TLS certificates: {e}"));
                return runs;
            }
        }
    } else {
        None
    };
    let scripts =
        match plan.workloads.iter().map(|w| workloads::sysbench_script(w, &scratch)).collect::<Result<Vec<_>, _>>() {
            Ok(scripts) => scripts,
            Err(e) => {
                pb.abandon_with_message(format!("cannot write a workload script: {e}"));
                return runs;
            }
        };
    let template = if plan.systems.contains(&System::MariaDb) {
        pb.set_message("mariadb-install-db");
        server::mariadb_template(programs, &scratch).map_err(|e| e.to_string())
    } else {
        Err("MariaDB not requested".into())
    };

    'configs: for &config in &plan.configs {
        let mut servers: Vec<(System, Result<Server, String>)> = Vec::new();
        for &system in &plan.systems {
            if stop.load(Ordering::SeqCst) {
                break 'configs;
            }
            pb.set_message(format!("starting {} {}", system.label(), config.label()));
            let started = match (system, &plan.target) {
                (System::Target, Some((host, port))) => {
                    Ok(Server::external(host, *port, &args.user, &args.password, programs))
                }
                (System::MariaDb, _) => match &template {
                    Ok(t) => {
                        Server::start(system, config, programs, &settings, &scratch, Some(t), tls_files.as_ref(), stop)
                            .map_err(|e| e.to_string())
                    }
                    Err(e) => Err(format!("mariadb-install-db: {e}")),
                },
                _ => Server::start(system, config, programs, &settings, &scratch, None, tls_files.as_ref(), stop)
                    .map_err(|e| e.to_string()),
            };
            let prepared = started.and_then(|mut srv| {
                pb.set_message(format!("preparing {} {}", system.label(), config.label()));
                prepare(&mut srv, plan, programs, stop).map(|_| srv).map_err(|e| e.to_string())
            });
            if let Err(e) = &prepared {
                say(&pb, format!("{} {}: {e}", system.label(), config.label()));
            }
            servers.push((system, prepared));
        }
        for (workload, script) in plan.workloads.iter().zip(&scripts) {
            for &threads in &plan.threads {
                for repeat in 0..plan.repeat {
                    for (system, srv) in &servers {
                        if stop.load(Ordering::SeqCst) {
                            break 'configs;
                        }
                        let label = format!(
                            "{workload} {} {} threads={threads} #{}",
                            system.label(),
                            config.label(),
                            repeat + 1
                        );
                        pb.set_message(label.clone());
                        let run = match srv {
                            Ok(server) => {
                                match measure(server, plan, programs, (workload, script), threads, device, stop) {
                                    Ok(mut r) => {
                                        r.repeat = repeat;
                                        r
                                    }
                                    Err(BenchError::Interrupted) => break 'configs,
                                    Err(e) => failed_run(workload, *system, config, threads, repeat, &e.to_string()),
                                }
                            }
                            Err(e) => failed_run(workload, *system, config, threads, repeat, e),
                        };
                        if run.ok() {
                            say(&pb, format!("{label}: {:.1} TPS, p95 {:.2} ms", run.tps, run.latency_p95_ms));
                        } else {
                            say(&pb, format!("{label}: FAILED: {}", run.error.lines().next().unwrap_or("")));
                        }
                        runs.push(run);
                        if let Err(e) = results::write_csv(&csv_path, &runs) {
                            say(&pb, format!("writing {}: {e}", csv_path.display()));
                        }
                        pb.inc(1);
                    }
                }
            }
        }
        stop_servers(&mut servers, &logs_dir, config, &pb);
    }
    pb.finish_and_clear();
    let _ = std::fs::remove_dir_all(&scratch);
    runs
}

/// Prints a line above the progress bar, or to stderr when the bar is hidden (not a terminal).
fn say(pb: &ProgressBar, line: impl AsRef<str>) {
    if pb.is_hidden() {
        eprintln!("{}", line.as_ref());
    } else {
        pb.println(line);
    }
}

fn stop_servers(
    servers: &mut Vec<(System, Result<Server, String>)>,
    logs_dir: &Path,
    config: RunConfig,
    pb: &ProgressBar,
) {
    for (system, srv) in servers.iter_mut() {
        if let Ok(server) = srv {
            pb.set_message(format!("stopping {} {}", system.label(), config.label()));
            if let Some(log) = &server.log_path {
                let _ = std::fs::create_dir_all(logs_dir);
                let _ = std::fs::copy(log, logs_dir.join(format!("{}-{}.log", system.label(), config.label())));
            }
            server.stop(Duration::from_secs(60));
        }
    }
    servers.clear();
}

/// Makes the sysbench tables as root, then (`+user`) the account the measured runs use.
fn prepare(server: &mut Server, plan: &Plan, programs: &Programs, stop: &AtomicBool) -> Result<(), BenchError> {
    server.sql(&format!("CREATE DATABASE IF NOT EXISTS `{}`", plan.db.clone()))?;
    let base = sysbench::base_args(server, As::Admin, &plan.db.clone(), plan.tables, plan.table_size);
    let timeout = Duration::from_secs(3600);
    if server.system == System::Target {
        sysbench::run_sysbench(&programs.sysbench, "oltp_common", &base, "cleanup", None, timeout, stop)?;
    }
    sysbench::run_sysbench(&programs.sysbench, "oltp_common", &base, "prepare", None, timeout, stop)?;
    if server.config.user {
        server.use_table_grant_account(&plan.db, plan.tables)?;
    }
    for custom in plan.workloads.iter().filter_map(|w| workloads::custom(w)) {
        for statement in custom.setup {
            server.sql(&format!("USE `{}`; {statement}", plan.db))?;
        }
        if server.config.user {
            for (privilege, object) in custom.grants {
                server.grant_client(&format!("{privilege} `{}`.`{object}`", plan.db))?;
            }
        }
    }
    Ok(())
}

fn binlog_counter(status: &[(String, u64)], name: &str) -> Option<u64> {
    status.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| *v)
}

/// A `+tls` run whose server did not count a TLS handshake per sysbench
/// thread measured something else: fail the cell rather than mislabel it.
fn check_tls_used(server: &Server, before: Option<u64>, threads: u32) -> Result<(), BenchError> {
    match (before, server.tls_handshakes()) {
        (Some(a), Some(b)) if b.saturating_sub(a) >= u64::from(threads) => Ok(()),
        (a, b) => Err(BenchError::Command {
            what: format!("TLS check on {}", server.system.label()),
            detail: format!("Ssl_finished_accepts went from {a:?} to {b:?} for {threads} sysbench threads"),
        }),
    }
}

/// Warm-up, then one measured sysbench run with probes around it.
fn measure(
    server: &Server,
    plan: &Plan,
    programs: &Programs,
    (workload, script): (&str, &str),
    threads: u32,
    device: Option<&str>,
    stop: &AtomicBool,
) -> Result<Run, BenchError> {
    let db = plan.db.clone();
    let mut base = sysbench::base_args(server, As::Client, &db, plan.tables, plan.table_size);
    let cwd = server.client.tls_dir.as_deref();
    base.push(format!("--threads={threads}"));
    if plan.warmup_s > 0 {
        let mut warm = base.clone();
        warm.push(format!("--time={}", plan.warmup_s));
        sysbench::run_sysbench(
            &programs.sysbench,
            script,
            &warm,
            "run",
            cwd,
            Duration::from_secs(plan.warmup_s + 300),
            stop,
        )?;
    }
    let mut measured = base;
    measured.push(format!("--time={}", plan.time_s));
    measured.extend(["--report-interval=1".to_string(), "--percentile=95".into(), "--histogram=on".into()]);
    let tls0 = server.tls_handshakes();
    let cpu0 = server.pid().and_then(probes::process_cpu_s);
    let status0 = server.binlog_status();
    let disk0 = device.map(probes::disk_counters).transpose()?;
    let t0 = Instant::now();
    let output = sysbench::run_sysbench(
        &programs.sysbench,
        script,
        &measured,
        "run",
        cwd,
        Duration::from_secs(plan.time_s + 300),
        stop,
    )?;
    let wall_s = t0.elapsed().as_secs_f64();
    if server.config.tls {
        check_tls_used(server, tls0, threads)?;
    }
    let disk1 = device.map(probes::disk_counters).transpose()?;
    let cpu1 = server.pid().and_then(probes::process_cpu_s);
    let status1 = server.binlog_status();
    let report = sysbench::parse_report(&output)?;
    let delta = |name: &str| match (binlog_counter(&status0, name), binlog_counter(&status1, name)) {
        (Some(a), Some(b)) => b.saturating_sub(a) as f64,
        _ => f64::NAN,
    };
    let disk = match (disk0, disk1) {
        (Some(a), Some(b)) => Some(b.delta(&a)),
        _ => None,
    };
    Ok(Run {
        workload: workload.into(),
        system: server.system.label().into(),
        config: server.config.label(),
        threads,
        repeat: 0,
        status: "ok".into(),
        error: String::new(),
        transactions: report.transactions,
        duration_s: if report.total_time_s > 0.0 { report.total_time_s } else { wall_s },
        tps: report.tps,
        qps: report.qps,
        latency_avg_ms: report.latency_avg_ms,
        latency_p95_ms: report.latency_p95_ms,
        latency_p99_ms: report.latency_p99_ms,
        errors: report.ignored_errors,
        server_cpu_s: match (cpu0, cpu1) {
            (Some(a), Some(b)) => b - a,
            _ => f64::NAN,
        },
        disk_device: device.unwrap_or("").into(),
        write_ios: disk.map(|d| d.write_ios as f64).unwrap_or(f64::NAN),
        sectors_written: disk.map(|d| d.sectors_written as f64).unwrap_or(f64::NAN),
        io_time_ms: disk.map(|d| d.io_time_ms as f64).unwrap_or(f64::NAN),
        binlog_commits: delta("Binlog_commits"),
        binlog_group_commits: delta("Binlog_group_commits"),
        binlog_syncs: delta("Binlog_syncs"),
        qps_per_s: report.qps_per_s,
    })
}
