//! Throwaway servers for one configuration: OneLog (`onelog serve`) or
//! MariaDB (`mariadbd --no-defaults`), each in a fresh data directory with a
//! Unix socket in a short directory under /tmp, started in its own process
//! group (and with a parent-death signal) so that no server outlives the
//! bench, or an existing server given with `--target`.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::certs::TlsFiles;
use crate::config::RunConfig;
use crate::error::{BenchError, Result};

/// A configuration of the binary log (the columns of the seed experiment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LogConfig {
    /// `--skip-log-bin`.
    Off,
    /// `--log-bin --sync-binlog=N`.
    Sync(u32),
    /// An existing server (`--target`), whatever it is configured with.
    AsIs,
}

impl LogConfig {
    pub fn parse(s: &str) -> Option<LogConfig> {
        match s.trim() {
            "off" | "OFF" => Some(LogConfig::Off),
            "target" => Some(LogConfig::AsIs),
            other => other.strip_prefix("sync").and_then(|n| n.parse().ok()).map(LogConfig::Sync),
        }
    }

    pub fn label(&self) -> String {
        match self {
            LogConfig::Off => "off".into(),
            LogConfig::Sync(n) => format!("sync{n}"),
            LogConfig::AsIs => "target".into(),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            LogConfig::Off => "binlog OFF (--skip-log-bin)".into(),
            LogConfig::Sync(n) => format!("--log-bin --sync-binlog={n}"),
            LogConfig::AsIs => "as configured".into(),
        }
    }
}

/// Which server software.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum System {
    OneLog,
    MariaDb,
    Target,
}

impl System {
    pub fn parse(s: &str) -> Option<System> {
        match s.trim().to_ascii_lowercase().as_str() {
            "onelog" => Some(System::OneLog),
            "mariadb" => Some(System::MariaDb),
            _ => None,
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            System::OneLog => "onelog",
            System::MariaDb => "mariadb",
            System::Target => "target",
        }
    }
}

/// Paths of the programs the bench runs.
#[derive(Debug, Clone)]
pub struct Programs {
    pub onelog: PathBuf,
    pub mariadbd: PathBuf,
    pub mariadb_install_db: PathBuf,
    pub mariadb_cli: PathBuf,
    pub sysbench: PathBuf,
}

/// Server-side settings shared by both systems.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    pub buffer_pool: String,
    pub max_connections: u32,
    pub start_timeout: Duration,
}

/// How clients reach a server.
#[derive(Debug, Clone)]
pub enum Endpoint {
    Socket(PathBuf),
    Tcp { host: String, port: u16 },
}

/// The account and transport sysbench's measured runs use.
#[derive(Debug, Clone)]
pub struct ClientLogin {
    pub endpoint: Endpoint,
    pub user: String,
    pub password: String,
    /// TLS: the directory holding the client's certificate files.
    pub tls_dir: Option<PathBuf>,
}

/// The table-grant account of `+user` columns.
const CLIENT_USER: &str = "sbuser";
const CLIENT_PASSWORD: &str = "sbpass";

/// The table-grant account under both host forms, because MariaDB matches a
/// socket login as `localhost` and TCP as `127.0.0.1`.
fn client_accounts() -> [String; 2] {
    [format!("'{CLIENT_USER}'@'localhost'"), format!("'{CLIENT_USER}'@'127.0.0.1'")]
}

/// A running (or external) server.
pub struct Server {
    pub system: System,
    pub config: RunConfig,
    /// Where the bench itself (setup, status probes) connects, as root.
    pub endpoint: Endpoint,
    pub user: String,
    pub password: String,
    /// How sysbench's measured runs connect.
    pub client: ClientLogin,
    /// Data directory (None for `--target`).
    pub datadir: Option<PathBuf>,
    pub log_path: Option<PathBuf>,
    child: Option<Child>,
    /// Directories removed when the server is dropped.
    scratch: Vec<PathBuf>,
    mariadb_cli: PathBuf,
}

fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| BenchError::io("127.0.0.1:0", e))?;
    let addr = listener.local_addr().map_err(|e| BenchError::io("127.0.0.1:0", e))?;
    Ok(addr.port())
}

/// A fresh directory `/tmp/<prefix>XXXXXX` (short, for socket paths that must fit in 107 bytes).
pub fn make_temp_dir(parent: &Path, prefix: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(parent).map_err(|e| BenchError::io(parent, e))?;
    for attempt in 0..1000u32 {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let name = format!("{prefix}{}-{:x}", std::process::id(), nanos.wrapping_add(attempt));
        let dir = parent.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(BenchError::io(dir, e)),
        }
    }
    Err(BenchError::Command {
        what: "creating a temporary directory".into(),
        detail: format!("under {}", parent.display()),
    })
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).map_err(|e| BenchError::io(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| BenchError::io(from, e))? {
        let entry = entry.map_err(|e| BenchError::io(from, e))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| BenchError::io(&src, e))?;
        if kind.is_dir() {
            copy_dir(&src, &dst)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(|e| BenchError::io(&src, e))?;
        }
    }
    Ok(())
}

fn login_args(endpoint: &Endpoint, user: &str, password: &str, prefix: &str) -> Vec<String> {
    let mut args = match endpoint {
        Endpoint::Socket(path) => vec![format!("--{prefix}socket={}", path.display())],
        Endpoint::Tcp { host, port } => vec![format!("--{prefix}host={host}"), format!("--{prefix}port={port}")],
    };
    args.push(format!("--{prefix}user={user}"));
    args.push(format!("--{prefix}password={password}"));
    args
}

/// Runs `mariadb-install-db` once; every MariaDB server copies the result.
pub fn mariadb_template(programs: &Programs, workdir: &Path) -> Result<PathBuf> {
    let data = workdir.join("mariadb-template");
    let out = Command::new(&programs.mariadb_install_db)
        .arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .args(["--auth-root-authentication-method=normal", "--user=root", "--skip-test-db", "--skip-name-resolve"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| BenchError::Spawn { program: programs.mariadb_install_db.display().to_string(), source: e })?;
    if !out.status.success() {
        return Err(BenchError::Command {
            what: "mariadb-install-db".into(),
            detail: format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        });
    }
    Ok(data)
}

/// Starts `cmd` in its own process group, killed if the bench dies.
fn spawn_isolated(cmd: &mut Command) -> std::io::Result<Child> {
    cmd.process_group(0);
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            Ok(())
        });
    }
    cmd.spawn()
}

/// Spawns a child in its own process group; used for sysbench too.
pub fn spawn_child(cmd: &mut Command, program: &str) -> Result<Child> {
    spawn_isolated(cmd).map_err(|e| BenchError::Spawn { program: program.to_string(), source: e })
}

/// SIGKILLs the process group led by `child` and reaps it.
pub fn kill_group(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        // SAFETY: plain syscall; the group id is the child's pid (process_group(0)).
        unsafe {
            libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
        }
    }
    let _ = child.wait();
}

impl Server {
    /// Starts `system` with `config` in a fresh data directory under `workdir`
    /// (`tls`: the certificates of `+tls` columns).
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        system: System,
        config: RunConfig,
        programs: &Programs,
        settings: &ServerSettings,
        workdir: &Path,
        mariadb_template: Option<&Path>,
        tls: Option<&TlsFiles>,
        stop: &AtomicBool,
    ) -> Result<Server> {
        let base = make_temp_dir(workdir, &format!("{}-{}-", system.label(), config.label()))?;
        let sockdir = make_temp_dir(Path::new("/tmp"), "olb")?;
        let datadir = base.join("data");
        let socket = sockdir.join(format!("{}.sock", system.label()));
        let port = free_port()?;
        let log_path = base.join("server.log");
        let log = File::create(&log_path).map_err(|e| BenchError::io(&log_path, e))?;
        let log2 = log.try_clone().map_err(|e| BenchError::io(&log_path, e))?;
        let mut cmd = match system {
            System::OneLog => {
                std::fs::create_dir_all(&datadir).map_err(|e| BenchError::io(&datadir, e))?;
                let mut c = Command::new(&programs.onelog);
                c.arg("serve")
                    .arg(format!("--datadir={}", datadir.display()))
                    .arg(format!("--port={port}"))
                    .arg("--bind-address=127.0.0.1")
                    .arg(format!("--socket={}", socket.display()))
                    .arg("--server-id=1")
                    .arg("--initialize-insecure")
                    .arg(format!("--max-connections={}", settings.max_connections));
                match config.log {
                    LogConfig::Off => {
                        c.arg("--skip-log-bin");
                    }
                    LogConfig::Sync(n) => {
                        c.arg("--log-bin").arg(format!("--sync-binlog={n}"));
                    }
                    LogConfig::AsIs => {}
                }
                c
            }
            System::MariaDb => {
                let template = mariadb_template.ok_or_else(|| BenchError::Command {
                    what: "starting MariaDB".into(),
                    detail: "no initialized template data directory".into(),
                })?;
                copy_dir(template, &datadir)?;
                let mut c = Command::new(&programs.mariadbd);
                c.arg("--no-defaults")
                    .arg("--user=root")
                    .arg(format!("--datadir={}", datadir.display()))
                    .arg(format!("--port={port}"))
                    .arg("--bind-address=127.0.0.1")
                    .arg(format!("--socket={}", socket.display()))
                    .arg(format!("--pid-file={}", sockdir.join("mariadbd.pid").display()))
                    .arg("--server-id=1")
                    .arg(format!("--innodb-buffer-pool-size={}", settings.buffer_pool))
                    .arg("--innodb-flush-log-at-trx-commit=1")
                    .arg("--innodb-log-file-size=256M")
                    .arg(format!("--max-connections={}", settings.max_connections))
                    .arg("--max-prepared-stmt-count=1048576")
                    .arg("--skip-name-resolve")
                    .arg("--character-set-server=utf8mb4")
                    .arg("--collation-server=utf8mb4_general_ci");
                match config.log {
                    LogConfig::Off => {
                        c.arg("--skip-log-bin");
                    }
                    LogConfig::Sync(n) => {
                        c.arg("--log-bin=mariadb-bin").arg("--binlog-format=ROW").arg(format!("--sync-binlog={n}"));
                    }
                    LogConfig::AsIs => {}
                }
                c
            }
            System::Target => {
                return Err(BenchError::Command {
                    what: "starting a server".into(),
                    detail: "--target servers are not started".into(),
                })
            }
        };
        if config.pool {
            cmd.arg("--thread-handling=pool-of-threads");
        }
        if let Some(files) = tls.filter(|_| config.tls) {
            cmd.arg(format!("--ssl-ca={}", files.ca.display()))
                .arg(format!("--ssl-cert={}", files.server_cert.display()))
                .arg(format!("--ssl-key={}", files.server_key.display()));
        }
        cmd.stdin(Stdio::null()).stdout(log).stderr(log2).current_dir(&base);
        let program = cmd.get_program().to_string_lossy().into_owned();
        let child = spawn_child(&mut cmd, &program)?;
        let client_endpoint = if config.tcp {
            Endpoint::Tcp { host: "127.0.0.1".into(), port }
        } else {
            Endpoint::Socket(socket.clone())
        };
        let mut server = Server {
            system,
            config,
            endpoint: Endpoint::Socket(socket),
            user: "root".into(),
            password: String::new(),
            client: ClientLogin {
                endpoint: client_endpoint,
                user: "root".into(),
                password: String::new(),
                tls_dir: tls.filter(|_| config.tls).map(|f| f.dir.clone()),
            },
            datadir: Some(datadir),
            log_path: Some(log_path),
            child: Some(child),
            scratch: vec![base, sockdir],
            mariadb_cli: programs.mariadb_cli.clone(),
        };
        server.wait_ready(settings.start_timeout, stop)?;
        Ok(server)
    }

    /// An existing server at `host:port`.
    pub fn external(host: &str, port: u16, user: &str, password: &str, programs: &Programs) -> Server {
        let endpoint = Endpoint::Tcp { host: host.into(), port };
        Server {
            system: System::Target,
            config: RunConfig::of(LogConfig::AsIs),
            client: ClientLogin {
                endpoint: endpoint.clone(),
                user: user.into(),
                password: password.into(),
                tls_dir: None,
            },
            endpoint,
            user: user.into(),
            password: password.into(),
            datadir: None,
            log_path: None,
            child: None,
            scratch: Vec::new(),
            mariadb_cli: programs.mariadb_cli.clone(),
        }
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(|c| c.id())
    }

    /// Root's connection arguments, shared by the `mariadb` CLI and sysbench (`--mysql-` prefix).
    pub fn connection_args(&self, prefix: &str) -> Vec<String> {
        login_args(&self.endpoint, &self.user, &self.password, prefix)
    }

    /// sysbench's arguments for the measured runs' account and transport.
    pub fn client_args(&self) -> Vec<String> {
        let client = &self.client;
        let mut args = login_args(&client.endpoint, &client.user, &client.password, "mysql-");
        if client.tls_dir.is_some() {
            args.push("--mysql-ssl=on".into());
        }
        args
    }

    /// `+user`: makes the table-grant account (after sysbench made its
    /// tables) and runs the measured cells as it.
    pub fn use_table_grant_account(&mut self, db: &str, tables: u32) -> Result<()> {
        for account in client_accounts() {
            self.sql(&format!("CREATE USER {account} IDENTIFIED BY '{CLIENT_PASSWORD}'"))?;
        }
        for table in 1..=tables {
            self.grant_client(&format!("SELECT, INSERT, UPDATE, DELETE ON `{db}`.`sbtest{table}`"))?;
        }
        self.client.user = CLIENT_USER.into();
        self.client.password = CLIENT_PASSWORD.into();
        Ok(())
    }

    /// `GRANT <what> TO` the table-grant account, both host forms.
    pub fn grant_client(&self, what: &str) -> Result<()> {
        for account in client_accounts() {
            self.sql(&format!("GRANT {what} TO {account}"))?;
        }
        Ok(())
    }

    /// Runs SQL through the `mariadb` CLI; returns tab-separated rows.
    pub fn sql(&self, query: &str) -> Result<String> {
        let mut cmd = Command::new(&self.mariadb_cli);
        cmd.arg("--no-defaults");
        if matches!(self.endpoint, Endpoint::Socket(_)) {
            cmd.arg("--protocol=SOCKET");
        } else {
            cmd.arg("--protocol=TCP");
        }
        let out = cmd
            .args(self.connection_args(""))
            .args(["-N", "-B", "--connect-timeout=5", "-e", query])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| BenchError::Spawn { program: self.mariadb_cli.display().to_string(), source: e })?;
        if !out.status.success() {
            return Err(BenchError::Command {
                what: format!("`{query}` on {}", self.system.label()),
                detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// `SHOW GLOBAL STATUS LIKE 'Binlog_%'` as (name, value) pairs; empty if unavailable.
    pub fn binlog_status(&self) -> Vec<(String, u64)> {
        self.global_status("Binlog\\_%")
    }

    /// TLS handshakes the server has completed (`Ssl_finished_accepts`), to
    /// show that a `+tls` column's clients really used TLS.
    pub fn tls_handshakes(&self) -> Option<u64> {
        self.global_status("Ssl\\_finished\\_accepts").first().map(|(_, n)| *n)
    }

    /// `SHOW GLOBAL STATUS LIKE pattern` as (name, value) pairs; empty if unavailable.
    fn global_status(&self, pattern: &str) -> Vec<(String, u64)> {
        let Ok(text) = self.sql(&format!("SHOW GLOBAL STATUS LIKE '{pattern}'")) else { return Vec::new() };
        text.lines()
            .filter_map(|l| {
                let (name, value) = l.split_once('\t')?;
                Some((name.to_string(), value.trim().parse().ok()?))
            })
            .collect()
    }

    fn log_tail(&self) -> String {
        let Some(path) = &self.log_path else { return String::new() };
        let Ok(mut f) = File::open(path) else { return String::new() };
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = f.seek(SeekFrom::Start(len.saturating_sub(3000)));
        let mut s = String::new();
        let _ = f.read_to_string(&mut s);
        s
    }

    fn wait_ready(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let mut last_err = String::new();
        while Instant::now() < deadline {
            if stop.load(Ordering::SeqCst) {
                return Err(BenchError::Interrupted);
            }
            if let Some(child) = self.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(BenchError::StartExited {
                        system: self.system.label().into(),
                        status: status.to_string(),
                        log_tail: self.log_tail(),
                    });
                }
            }
            match self.sql("SELECT 1") {
                Ok(_) => return Ok(()),
                Err(e) => last_err = e.to_string(),
            }
            std::thread::sleep(Duration::from_millis(150));
        }
        Err(BenchError::StartTimeout {
            system: self.system.label().into(),
            timeout_s: timeout.as_secs(),
            detail: format!("{last_err}\n{}", self.log_tail()),
        })
    }

    /// SIGTERM, wait up to `timeout`, then SIGKILL the process group. Removes scratch dirs.
    pub fn stop(&mut self, timeout: Duration) {
        if let Some(mut child) = self.child.take() {
            if let Ok(None) = child.try_wait() {
                // SAFETY: plain syscall on our own child.
                unsafe {
                    libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
                }
                let deadline = Instant::now() + timeout;
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = child.try_wait() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
            kill_group(&mut child);
        }
        for dir in self.scratch.drain(..) {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop(Duration::from_secs(30));
    }
}
