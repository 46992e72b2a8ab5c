//! Start-up, listeners and shutdown.

use crate::connection::{self, Shared};
use crate::options::Options;
use crate::users::Users;
use anyhow::Context;
use onelog_binlog::file::BinlogConfig;
use onelog_sql::vars::GlobalVars;
use onelog_sql::{Engine, EngineConfig};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::watch;

/// How long shutdown waits for in-flight statements before closing.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

fn resolve(datadir: &Path, p: &str) -> PathBuf {
    let p = PathBuf::from(p);
    if p.is_absolute() {
        p
    } else {
        datadir.join(p)
    }
}

fn binlog_config(opts: &Options, datadir: &Path, vars: &GlobalVars) -> anyhow::Result<BinlogConfig> {
    let mut cfg = BinlogConfig::new(datadir.to_path_buf());
    if let Some(base) = opts.get("log_bin").filter(|b| !b.is_empty() && *b != "1") {
        let path = resolve(datadir, base);
        cfg.dir = path.parent().map(Path::to_path_buf).unwrap_or_else(|| datadir.to_path_buf());
        cfg.basename =
            path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| "onelog-bin".into());
    }
    cfg.server_id = vars.int("server_id") as u32;
    cfg.domain_id = vars.int("gtid_domain_id") as u32;
    cfg.sync_binlog = vars.int("sync_binlog") as u32;
    cfg.max_binlog_size_bytes = vars.int("max_binlog_size").max(4096);
    cfg.preallocate_size_bytes = vars.int("binlog_preallocate_size");
    cfg.group_commit_sync_delay_us = vars.int("binlog_group_commit_sync_delay");
    cfg.group_commit_sync_no_delay_count = vars.int("binlog_group_commit_sync_no_delay_count") as u32;
    cfg.checksum = !vars.get("binlog_checksum").is_some_and(|c| c.eq_ignore_ascii_case("NONE"));
    cfg.sync_method = onelog_sql::config::sync_method(&vars.get("binlog_sync_method").unwrap_or_default())
        .map_err(|m| anyhow::anyhow!("binlog_sync_method: unknown method '{m}' (use fdatasync, fsync or o_dsync)"))?;
    Ok(cfg)
}

/// Applies options to the global variables.
fn global_vars(opts: &Options, datadir: &Path, socket: &Path) -> anyhow::Result<GlobalVars> {
    let vars = GlobalVars::default();
    for (name, value) in &opts.values {
        if onelog_sql::vars::lookup(name).is_some() && name != "log_bin" {
            vars.set_startup(name, value).map_err(|e| anyhow::anyhow!("--{name}: {e}"))?;
        }
    }
    if opts.get("innodb_flush_log_at_trx_commit").is_some() && opts.get("sync_binlog").is_none() {
        let n = if opts.get("innodb_flush_log_at_trx_commit") == Some("1") { "1" } else { "0" };
        vars.set_startup("sync_binlog", n).map_err(anyhow::Error::msg)?;
    }
    let log_bin = if opts.flag("skip_log_bin") { "0" } else { "1" };
    vars.set_startup("log_bin", log_bin).map_err(anyhow::Error::msg)?;
    vars.set_startup("datadir", &format!("{}/", datadir.display())).map_err(anyhow::Error::msg)?;
    vars.set_startup("socket", &socket.display().to_string()).map_err(anyhow::Error::msg)?;
    Ok(vars)
}

pub fn run(opts: Options) -> anyhow::Result<()> {
    let datadir = opts.datadir();
    std::fs::create_dir_all(&datadir).with_context(|| format!("cannot create data directory {}", datadir.display()))?;
    let datadir = datadir.canonicalize()?;
    let socket = opts.get("socket").map(|s| resolve(&datadir, s)).unwrap_or_else(|| datadir.join("onelog.sock"));
    let vars = global_vars(&opts, &datadir, &socket)?;
    let port: u16 = opts.get("port").unwrap_or("3306").parse().context("--port must be a number")?;
    let bind = opts.get("bind_address").unwrap_or("127.0.0.1").to_string();
    let users = Users::load_or_init(&datadir, opts.flag("initialize_insecure"))?;
    let binlog = binlog_config(&opts, &datadir, &vars)?;
    let engine =
        Engine::open(EngineConfig::new(datadir.clone(), binlog), vars).context("cannot open the data directory")?;
    let checkpointer = engine.spawn_checkpointer();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let shared = Arc::new(Shared { engine: engine.clone(), users, shutdown: stop_rx });
    let threads = rt.block_on(async {
        let tcp = TcpListener::bind((bind.as_str(), port))
            .await
            .with_context(|| format!("cannot listen on {bind}:{port}"))?;
        let _ = std::fs::remove_file(&socket);
        let unix =
            UnixListener::bind(&socket).with_context(|| format!("cannot listen on socket {}", socket.display()))?;
        tracing::info!(
            "OneLog ready for connections on {bind}:{port} and {}; data directory {}",
            socket.display(),
            datadir.display()
        );
        accept_loop(tcp, unix, shared.clone()).await
    })?;
    tracing::info!("shutting down: no new connections; waiting for in-flight statements");
    let _ = stop_tx.send(true);
    let deadline = std::time::Instant::now() + SHUTDOWN_GRACE;
    for t in threads {
        while !t.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    drop(shared);
    let _ = std::fs::remove_file(&socket);
    engine.shutdown().context("clean shutdown failed")?;
    drop(checkpointer);
    Ok(())
}

async fn accept_loop(
    tcp: TcpListener,
    unix: UnixListener,
    shared: Arc<Shared>,
) -> anyhow::Result<Vec<std::thread::JoinHandle<()>>> {
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut sigint = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    let mut threads: Vec<std::thread::JoinHandle<()>> = Vec::new();
    loop {
        threads.retain(|t| !t.is_finished());
        tokio::select! {
            _ = sigterm.recv() => break,
            _ = sigint.recv() => break,
            r = tcp.accept() => match r {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let std_stream = stream.into_std()?;
                    threads.extend(spawn(std_stream, peer.ip().to_string(), shared.clone(), |s| tokio::net::TcpStream::from_std(s)));
                }
                Err(e) => tracing::warn!("accept failed: {e}"),
            },
            r = unix.accept() => match r {
                Ok((stream, _)) => {
                    let std_stream = stream.into_std()?;
                    threads.extend(spawn(std_stream, "localhost".into(), shared.clone(), |s| tokio::net::UnixStream::from_std(s)));
                }
                Err(e) => tracing::warn!("accept failed: {e}"),
            },
        }
    }
    Ok(threads)
}

/// Starts a connection thread with its own single-threaded I/O runtime.
fn spawn<Std, S>(
    stream: Std,
    host: String,
    shared: Arc<Shared>,
    convert: fn(Std) -> std::io::Result<S>,
) -> Option<std::thread::JoinHandle<()>>
where
    Std: Send + 'static,
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + std::os::fd::AsFd + Unpin + 'static,
{
    let result = std::thread::Builder::new().name("conn".into()).stack_size(1 << 20).spawn(move || {
        let rt = match tokio::runtime::Builder::new_current_thread().enable_io().build() {
            Ok(rt) => rt,
            Err(e) => return tracing::error!("cannot start connection runtime: {e}"),
        };
        let stream = {
            let _guard = rt.enter();
            match convert(stream) {
                Ok(s) => s,
                Err(e) => return tracing::warn!("cannot register connection: {e}"),
            }
        };
        connection::serve(&rt, stream, host, shared);
    });
    match result {
        Ok(h) => Some(h),
        Err(e) => {
            tracing::error!("cannot start a connection thread: {e}");
            None
        }
    }
}
