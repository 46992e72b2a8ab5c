//! Start-up, listeners and shutdown.
//!
//! The listeners and signals run on a small tokio runtime; each accepted
//! connection gets a blocking socket and, by `thread_handling`, an OS
//! thread of its own (see `connection`) or a place in the thread pool (see
//! `thread_pool`). Shutdown closes the read side of every open
//! connection's socket: a connection waiting for a command sees end of
//! input and ends, one running a statement finishes it and answers first.

use crate::connection::PooledSocket;
use crate::connection::{self, Shared};
use crate::limits::{self, Client};
use crate::options::Options;
use crate::thread_pool::ThreadPool;
use crate::tls::Tls;
use anyhow::Context;
use onelog_binlog::file::BinlogConfig;
use onelog_sql::vars::{Effect, GlobalVars};
use onelog_sql::{Engine, EngineConfig};
use std::net::Shutdown;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, UnixListener};

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
    let mut without_effect = Vec::new();
    for (name, value) in &opts.values {
        let Some(def) = onelog_sql::vars::lookup(name).filter(|_| name != "log_bin") else { continue };
        if let Some(warning) = vars.set_startup(name, value).map_err(|e| anyhow::anyhow!("--{name}: {e}"))? {
            tracing::warn!("--{name}: {warning}");
        }
        if def.effect == Effect::None {
            without_effect.push(def.name);
        }
    }
    if !without_effect.is_empty() {
        // Said once, so a my.cnf carried over from MariaDB does not look
        // as if it tuned OneLog.
        tracing::warn!(
            "accepted for compatibility, no effect in OneLog (see docs/variables.md): {}",
            without_effect.join(", ")
        );
    }
    if opts.get("innodb_flush_log_at_trx_commit").is_some() && opts.get("sync_binlog").is_none() {
        let n = if opts.get("innodb_flush_log_at_trx_commit") == Some("1") { "1" } else { "0" };
        vars.set_startup("sync_binlog", n).map_err(anyhow::Error::msg)?;
    }
    if let Some(zone) = opts.get("default_time_zone") {
        vars.set_startup("time_zone", zone).map_err(|e| anyhow::anyhow!("--default-time-zone: {e}"))?;
    }
    if opts.get("thread_pool_size").is_none() {
        // MariaDB's default: one group per core.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        vars.set_startup("thread_pool_size", &cores.to_string()).map_err(anyhow::Error::msg)?;
    }
    if opts.get("tmpdir").is_none() {
        // MariaDB's default: $TMPDIR, else /tmp.
        let tmpdir = std::env::temp_dir().display().to_string();
        vars.set_startup("tmpdir", &tmpdir).map_err(anyhow::Error::msg)?;
    }
    let log_bin = if opts.flag("skip_log_bin") { "0" } else { "1" };
    vars.set_startup("log_bin", log_bin).map_err(anyhow::Error::msg)?;
    vars.set_startup("datadir", &format!("{}/", datadir.display())).map_err(anyhow::Error::msg)?;
    vars.set_startup("socket", &socket.display().to_string()).map_err(anyhow::Error::msg)?;
    Ok(vars)
}

/// The most descriptors the server asks for (`fs.nr_open`'s default).
const MAX_OPEN_FILES: libc::rlim_t = 1 << 20;

/// Raises the soft limit on open files to the hard limit, as mariadbd does
/// for `open_files_limit`: a connection holds two descriptors (its socket
/// and a duplicate for shutdown, KILL and the commit pipeline), and the
/// usual soft limit of 1024 would stop new connections near 500.
fn raise_open_files_limit() {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write one valid rlimit; std
    // has no wrapper for them.
    let raised = unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return tracing::warn!("cannot read the open files limit: {}", std::io::Error::last_os_error());
        }
        let wanted = libc::rlimit { rlim_cur: limit.rlim_max.min(MAX_OPEN_FILES), rlim_max: limit.rlim_max };
        wanted.rlim_cur <= limit.rlim_cur || libc::setrlimit(libc::RLIMIT_NOFILE, &wanted) == 0
    };
    if !raised {
        tracing::warn!(
            "cannot raise the open files limit from {}: {}",
            limit.rlim_cur,
            std::io::Error::last_os_error()
        );
    }
}

pub fn run(opts: Options) -> anyhow::Result<()> {
    raise_open_files_limit();
    let datadir = opts.datadir();
    std::fs::create_dir_all(&datadir).with_context(|| format!("cannot create data directory {}", datadir.display()))?;
    let datadir = datadir.canonicalize()?;
    let socket = opts.get("socket").map(|s| resolve(&datadir, s)).unwrap_or_else(|| datadir.join("onelog.sock"));
    let vars = global_vars(&opts, &datadir, &socket)?;
    let port: u16 = opts.get("port").unwrap_or("3306").parse().context("--port must be a number")?;
    let bind = opts.get("bind_address").unwrap_or("127.0.0.1").to_string();
    // On unless --skip-ssl (--ssl=0).
    let tls = Tls::start(&vars, &datadir, opts.get("ssl").is_none() || opts.flag("ssl"))?;
    let binlog = binlog_config(&opts, &datadir, &vars)?;
    let engine =
        Engine::open(EngineConfig::new(datadir.clone(), binlog), vars).context("cannot open the data directory")?;
    let root_auth = crate::users::RootAuth::from_option(opts.get("auth_root_authentication_method"))?;
    crate::users::initialize(&engine, &datadir, opts.flag("initialize_insecure"), root_auth)?;
    let checkpointer = engine.spawn_checkpointer();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    if let Some(tls) = &tls {
        let tls = tls.clone();
        engine.connections.set_tls_reloader(Box::new(move || tls.reload()));
    }
    let rsa = crate::rsa_keys::load_or_make(&datadir)?;
    let shared = Arc::new(Shared {
        engine: engine.clone(),
        tls,
        rsa,
        sha2_cache: Default::default(),
        thread_cache: crate::thread_cache::ThreadCache::new(engine.clone()),
    });
    let handling = match engine.vars.get("thread_handling").as_deref() {
        Some("pool-of-threads") => Handling::Pool(ThreadPool::start(shared.clone())?),
        Some("one-thread-per-connection") | None => Handling::ThreadPerConnection,
        Some(other) => anyhow::bail!("--thread_handling={other} is not supported by OneLog"),
    };
    let connections = rt.block_on(async {
        let tcp = listen_tcp(&bind, port).with_context(|| format!("cannot listen on {bind}:{port}"))?;
        let _ = std::fs::remove_file(&socket);
        let unix =
            UnixListener::bind(&socket).with_context(|| format!("cannot listen on socket {}", socket.display()))?;
        tracing::info!(
            "OneLog ready for connections on {bind}:{port} and {}; data directory {}",
            socket.display(),
            datadir.display()
        );
        accept_loop(tcp, unix, &shared, &handling).await
    })?;
    tracing::info!("shutting down: no new connections; waiting for in-flight statements");
    for c in &connections {
        // Fails only for a socket the client already closed.
        let _ = socket2::SockRef::from(&*c.socket).shutdown(Shutdown::Read);
    }
    let deadline = std::time::Instant::now() + SHUTDOWN_GRACE;
    for c in connections {
        while !c.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    if let Handling::Pool(pool) = &handling {
        pool.shutdown();
    }
    drop(shared);
    let _ = std::fs::remove_file(&socket);
    engine.shutdown().context("clean shutdown failed")?;
    drop(checkpointer);
    Ok(())
}

/// Connections waiting for accept; the kernel caps it at
/// `net.core.somaxconn`. Deep enough that a storm of clients connecting at
/// once (1,500 against max_connections=1000) is not dropped and retried a
/// second later: the accept loop answers the ones over the limit with 1040
/// at once instead.
const LISTEN_BACKLOG: i32 = 4096;

/// The TCP listener (tokio's own bind would queue only 1,024).
fn listen_tcp(bind: &str, port: u16) -> std::io::Result<TcpListener> {
    let addr = std::net::ToSocketAddrs::to_socket_addrs(&(bind, port))?
        .next()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address"))?;
    let socket = socket2::Socket::new(socket2::Domain::for_address(addr), socket2::Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&addr.into())?;
    socket.listen(LISTEN_BACKLOG)?;
    TcpListener::from_std(socket.into())
}

/// How connections get threads (`thread_handling`).
enum Handling {
    ThreadPerConnection,
    Pool(ThreadPool),
}

/// A duplicate of a connection's socket, to end it, and a token whose
/// other holder (the connection's thread or pool entry) drops it when the
/// connection has ended.
struct Connection {
    alive: Arc<()>,
    socket: Arc<OwnedFd>,
}

impl Connection {
    fn is_finished(&self) -> bool {
        Arc::strong_count(&self.alive) == 1
    }
}

async fn accept_loop(
    tcp: TcpListener,
    unix: UnixListener,
    shared: &Arc<Shared>,
    handling: &Handling,
) -> anyhow::Result<Vec<Connection>> {
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut sigint = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    let mut connections: Vec<Connection> = Vec::new();
    loop {
        connections.retain(|c| !c.is_finished());
        let started = tokio::select! {
            _ = sigterm.recv() => break,
            _ = sigint.recv() => break,
            _ = shared.engine.shutdown_requested() => break,
            r = tcp.accept() => match r {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    admit_and_start(stream.into_std()?, &peer.ip().to_string(), shared, handling)
                }
                Err(e) => Err(e),
            },
            r = unix.accept() => match r {
                Ok((stream, _)) => admit_and_start(stream.into_std()?, "localhost", shared, handling),
                Err(e) => Err(e),
            },
        };
        match started {
            Ok(Some(c)) => connections.push(c),
            Ok(None) => {}
            Err(e) => {
                shared.engine.connections.accept_failed();
                tracing::warn!("cannot accept a connection: {e}");
            }
        }
    }
    Ok(connections)
}

/// Serves a new connection from `host`, or refuses it at once (too many
/// connections, a blocked host; see `limits`). `None`: refused.
fn admit_and_start<S: connection::Socket + Send + 'static>(
    stream: S,
    host: &str,
    shared: &Arc<Shared>,
    handling: &Handling,
) -> std::io::Result<Option<Connection>> {
    match limits::admit(&shared.engine, host) {
        Ok(client) => start(Box::new(stream), client, shared, handling).map(Some),
        Err(refusal) => {
            limits::refuse(stream, &refusal);
            Ok(None)
        }
    }
}

/// Starts serving a connection; the socket becomes blocking (the listener
/// hands it over non-blocking).
fn start(
    stream: PooledSocket,
    client: Client,
    shared: &Arc<Shared>,
    handling: &Handling,
) -> std::io::Result<Connection> {
    socket2::SockRef::from(&stream).set_nonblocking(false)?;
    let socket = Arc::new(stream.as_fd().try_clone_to_owned()?);
    let alive = Arc::new(());
    match handling {
        Handling::Pool(pool) => pool.accept(stream, socket.clone(), client, alive.clone()),
        Handling::ThreadPerConnection => spawn_thread(stream, socket.clone(), client, shared.clone(), alive.clone())?,
    }
    Ok(Connection { alive, socket })
}

/// One thread per connection (a cached one when there is one).
fn spawn_thread(
    stream: PooledSocket,
    closer: Arc<OwnedFd>,
    client: Client,
    shared: Arc<Shared>,
    alive: Arc<()>,
) -> std::io::Result<()> {
    let cache = shared.thread_cache.clone();
    cache.run(Box::new(move || {
        connection::serve(stream, closer.clone(), client, shared);
        // The duplicate (held by the commit pipeline, KILL, this registry)
        // outlives the connection: end it for the client now.
        let _ = socket2::SockRef::from(&*closer).shutdown(Shutdown::Both);
        drop(alive);
    }))
}
