//! `onelog`: the server binary.
//!
//! Owns: the command line (clap subcommands; mysqld-style server options
//! in [`options`]), start-up (data directory, accounts, engine), listeners
//! (TCP and Unix socket), and signal-driven clean shutdown. Connection
//! handling is in [`connection`]. Errors become `anyhow` only here, at the
//! binary's edge.

mod certificate_names;
mod commit_ack;
mod connection;
mod limits;
mod options;
mod peer;
mod replication;
mod rsa_keys;
mod server;
mod thread_cache;
mod thread_pool;
mod tls;
mod users;

use clap::{Parser, Subcommand};

// jemalloc instead of glibc malloc: with hundreds of connection threads and
// result rows freed on other threads than allocated them, glibc's malloc,
// free and chunk consolidation took ~19% of server CPU in oltp_read_write;
// with jemalloc the server spends 10-20% less CPU per transaction.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[derive(Parser)]
#[command(name = "onelog", version, about = "MySQL-compatible server whose binary log is its only durable log")]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Start the server. Takes mysqld-style options: --datadir, --port,
    /// --bind-address, --socket, --defaults-file, --server-id,
    /// --log-bin[=basename], --skip-log-bin, --sync-binlog=N,
    /// --initialize-insecure, --ssl-cert/--ssl-key/--ssl-ca/--ssl-cipher,
    /// --tls-version, --skip-ssl, --max-connections, --max-connect-errors,
    /// and --<any_system_variable>=<value>.
    Serve {
        #[arg(allow_hyphen_values = true, trailing_var_arg = true, num_args = 0..)]
        options: Vec<String>,
    },
    /// Check a my.cnf: report every unknown or removed variable at once,
    /// without starting.
    CheckConfig { file: std::path::PathBuf },
    /// Run the seed experiment (sysbench, binlog OFF/sync0/sync1000/sync1)
    /// against OneLog and MariaDB side by side; writes CSV, charts, report.
    Bench(Box<onelog_bench::BenchArgs>),
}

fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("ONELOG_LOG").unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        // Colours only on a terminal: a log file carries none.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Commands::Serve { options } => match options::parse(&options) {
            Ok(opts) => server::run(opts),
            Err(errors) => {
                for e in &errors {
                    eprintln!("[ERROR] onelog: {e}");
                }
                eprintln!("[ERROR] Aborting: fix the options above (see `onelog check-config`)");
                return std::process::ExitCode::from(7);
            }
        },
        Commands::CheckConfig { file } => {
            let arg = format!("--defaults-file={}", file.display());
            match options::parse(&[arg]) {
                Ok(_) => {
                    println!("{}: OK", file.display());
                    Ok(())
                }
                Err(errors) => {
                    for e in &errors {
                        println!("{}: {e}", file.display());
                    }
                    return std::process::ExitCode::from(1);
                }
            }
        }
        Commands::Bench(args) => onelog_bench::run(*args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("[ERROR] onelog: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
