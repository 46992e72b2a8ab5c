//! End-to-end: a tiny TCP server built from this crate's codec, driven by the
//! real `mariadb` / `mariadb-admin` command-line clients (skipped with a
//! message when they are not installed) and by a raw client written with the
//! same codec (for COM_PING, an unknown command, caching_sha2 and COM_QUIT).

use mysql_common::auth::plugins::caching_sha2_password::scramble_sha256;
use mysql_common::auth::plugins::mysql_native_password::scramble_native;
use onelog_core::{ErrorCode, SqlError, Value};
use onelog_protocol::auth::{decide, AuthDecision, Challenge, StoredCredential, FAST_AUTH_SUCCESS};
use onelog_protocol::handshake::{
    encode_auth_more_data, encode_auth_switch_request, parse_handshake_response, HandshakeError, HandshakeResponse,
    InitialHandshake, CACHING_SHA2_PLUGIN, NATIVE_PASSWORD_PLUGIN,
};
use onelog_protocol::packet::{PacketError, PacketStream, DEFAULT_MAX_ALLOWED_PACKET};
use onelog_protocol::resultset::{write_err, write_ok, write_result_set, ColumnMeta, OkPacket, ResultSetOptions};
use onelog_protocol::{parse_command, CapabilityFlags, Command, MyColumnType, StatusFlags};
use std::net::SocketAddr;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Output;

const PASSWORD: &str = "s3cr3t";

fn start_server(cred: StoredCredential) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut id = 1;
        while let Ok((sock, _)) = listener.accept() {
            id += 1;
            std::thread::spawn(move || {
                let _ = handle(sock, id, cred);
            });
        }
    });
    addr
}

fn access_denied(user: &str, with_password: bool) -> SqlError {
    SqlError::new(
        ErrorCode::ACCESS_DENIED,
        format!(
            "Access denied for user '{user}'@'localhost' (using password: {})",
            if with_password { "YES" } else { "NO" }
        ),
    )
}

/// The server loop a real server would have, reduced to what the test needs.
fn handle(sock: TcpStream, id: u32, cred: StoredCredential) -> Result<(), PacketError> {
    let mut ps = PacketStream::new(sock, DEFAULT_MAX_ALLOWED_PACKET);
    let challenge = Challenge::random();
    let hs = InitialHandshake::new(id, challenge.scramble);
    let mut p = Vec::new();
    hs.encode(&mut p);
    ps.write_packet(&p)?;
    ps.flush()?;

    let payload = ps.read_packet()?;
    let resp = match parse_handshake_response(&payload) {
        Ok(r) => r,
        Err(e) => {
            let err = match e {
                HandshakeError::SslRequested => SqlError::internal("SSL is not supported"),
                other => SqlError::internal(other.to_string()),
            };
            write_err(&mut ps, &err)?;
            return ps.flush();
        }
    };
    let caps = resp.capabilities & hs.capabilities;
    let mut plugin = resp.auth_plugin.clone().unwrap_or_else(|| NATIVE_PASSWORD_PLUGIN.to_string());
    let mut auth = resp.auth_response.clone();
    let mut switched = false;
    loop {
        match decide(&plugin, &challenge, &auth, &cred, switched) {
            AuthDecision::Accept => break,
            AuthDecision::AcceptFastAuth => {
                let mut p = Vec::new();
                encode_auth_more_data(&[FAST_AUTH_SUCCESS], &mut p);
                ps.write_packet(&p)?;
                break;
            }
            AuthDecision::SwitchTo(new_plugin) => {
                let mut p = Vec::new();
                encode_auth_switch_request(new_plugin, &challenge.switch_data(new_plugin), &mut p);
                ps.write_packet(&p)?;
                ps.flush()?;
                auth = ps.read_packet()?;
                plugin = new_plugin.to_string();
                switched = true;
            }
            // This test server has no RSA key nor TLS for full authentication.
            AuthDecision::Reject | AuthDecision::FullAuth => {
                write_err(&mut ps, &access_denied(&resp.username, !auth.is_empty()))?;
                return ps.flush();
            }
        }
    }
    write_ok(&mut ps, &OkPacket::default())?;
    ps.flush()?;

    let deprecate_eof = caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF);
    loop {
        let packet = match ps.read_command_packet() {
            Ok(p) => p,
            Err(PacketError::Eof) => return Ok(()),
            Err(e) => return Err(e),
        };
        match parse_command(&packet, caps) {
            Ok(Command::Quit) => return Ok(()),
            Ok(Command::Ping) | Ok(Command::InitDb(_)) => write_ok(&mut ps, &OkPacket::default())?,
            Ok(Command::Query(q)) => {
                // Multi-statements: one result per `;`-separated statement,
                // all but the last flagged SERVER_MORE_RESULTS_EXISTS.
                let q = String::from_utf8_lossy(&q).to_ascii_lowercase();
                let stmts: Vec<&str> = q.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
                for (i, stmt) in stmts.iter().enumerate() {
                    let more_results = i + 1 < stmts.len();
                    let opts = ResultSetOptions { deprecate_eof, more_results, ..ResultSetOptions::default() };
                    let number = stmt.strip_prefix("select ").filter(|n| n.bytes().all(|b| b.is_ascii_digit()));
                    if stmt.contains("@@version_comment") {
                        let cols = [ColumnMeta::text("@@version_comment", 32)];
                        let rows = [[Value::from_str("OneLog test")]];
                        write_result_set(&mut ps, &opts, &cols, &rows)?;
                    } else if let Some(n) = number {
                        let len = n.len() as u32;
                        let cols = [ColumnMeta::expr(n, MyColumnType::MYSQL_TYPE_LONGLONG, 63, len, 0x81, 0)];
                        let rows = [[Value::Int(n.parse().unwrap_or(0))]];
                        write_result_set(&mut ps, &opts, &cols, &rows)?;
                    } else {
                        let mut status = StatusFlags::SERVER_STATUS_AUTOCOMMIT;
                        status.set(StatusFlags::SERVER_MORE_RESULTS_EXISTS, more_results);
                        write_ok(&mut ps, &OkPacket::with_status(status))?;
                    }
                }
                if stmts.is_empty() {
                    write_err(&mut ps, &SqlError::new(ErrorCode::EMPTY_QUERY, "Query was empty"))?;
                }
            }
            Ok(_) => write_err(&mut ps, &SqlError::new(ErrorCode::UNKNOWN_COMMAND, "Unknown command"))?,
            Err(e) => write_err(&mut ps, &SqlError::new(ErrorCode::UNKNOWN_COMMAND, e.to_string()))?,
        }
        ps.flush()?;
    }
}

fn have(bin: &str) -> bool {
    if Path::new(bin).exists() {
        true
    } else {
        eprintln!("skipping: {bin} is not installed");
        false
    }
}

fn run(bin: &'static str, args: Vec<String>) -> Output {
    std::process::Command::new(bin).args(&args).output().unwrap()
}

fn client_args(addr: SocketAddr, password: &str) -> Vec<String> {
    vec![
        "--no-defaults".into(),
        "-h127.0.0.1".into(),
        format!("-P{}", addr.port()),
        "-uroot".into(),
        format!("-p{password}"),
        "--skip-ssl".into(),
        "--connect-timeout=10".into(),
    ]
}

#[test]
fn mariadb_cli_select_1() {
    if !have("/usr/bin/mariadb") {
        return;
    }
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let mut args = client_args(addr, PASSWORD);
    args.extend(["-e".to_string(), "SELECT 1".to_string()]);
    let out = run("/usr/bin/mariadb", args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    assert_eq!(stdout, "1\n1\n");

    // Table output (-t) exercises the column metadata (width from length).
    let mut args = client_args(addr, PASSWORD);
    args.extend(["-t".to_string(), "-e".to_string(), "select 1".to_string()]);
    let out = run("/usr/bin/mariadb", args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout, "+---+\n| 1 |\n+---+\n| 1 |\n+---+\n");
}

#[test]
fn mariadb_cli_wrong_password() {
    if !have("/usr/bin/mariadb") {
        return;
    }
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let mut args = client_args(addr, "wrong");
    args.extend(["-e".to_string(), "SELECT 1".to_string()]);
    let out = run("/usr/bin/mariadb", args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)"),
        "stderr: {stderr}"
    );
}

#[test]
fn mariadb_admin_ping() {
    if !have("/usr/bin/mariadb-admin") {
        return;
    }
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let mut args = client_args(addr, PASSWORD);
    args.retain(|a| a != "--skip-ssl");
    args.push("--skip-ssl".into());
    args.push("ping".into());
    let out = run("/usr/bin/mariadb-admin", args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("is alive"), "{stdout}");
}

/// A raw client using the crate's own codec.
fn raw_login(addr: SocketAddr, plugin: &str, password: &[u8]) -> (PacketStream<TcpStream>, Vec<Vec<u8>>) {
    let sock = TcpStream::connect(addr).unwrap();
    let mut ps = PacketStream::new(sock, DEFAULT_MAX_ALLOWED_PACKET);
    let hs = InitialHandshake::parse(&ps.read_packet().unwrap()).unwrap();
    assert_eq!(hs.server_version, "5.5.5-10.11.99-MariaDB-OneLog");
    assert_eq!(hs.auth_plugin, NATIVE_PASSWORD_PLUGIN);
    let auth_response = if plugin == CACHING_SHA2_PLUGIN {
        scramble_sha256(&hs.scramble, password).map(|a| a.to_vec()).unwrap_or_default()
    } else {
        scramble_native(&hs.scramble, password).map(|a| a.to_vec()).unwrap_or_default()
    };
    let resp = HandshakeResponse {
        capabilities: hs.capabilities,
        max_packet_size: 1 << 24,
        collation: 45,
        username: "root".into(),
        auth_response,
        auth_plugin: Some(plugin.into()),
        connect_attrs: vec![("_client_name".into(), "raw".into())],
        ..HandshakeResponse::default()
    };
    let mut p = Vec::new();
    resp.encode(&mut p);
    ps.write_packet(&p).unwrap();
    ps.flush().unwrap();
    let mut replies = vec![ps.read_packet().unwrap()];
    if replies[0][0] == 0xFE {
        // AuthSwitchRequest to mysql_native_password.
        let (switch_plugin, data) = onelog_protocol::handshake::parse_auth_switch_request(&replies[0]).unwrap();
        assert_eq!(switch_plugin, NATIVE_PASSWORD_PLUGIN);
        let r = scramble_native(&data[..20], password).unwrap();
        ps.write_packet(&r).unwrap();
        ps.flush().unwrap();
        replies.push(ps.read_packet().unwrap());
    } else if replies[0] == [0x01, FAST_AUTH_SUCCESS] {
        replies.push(ps.read_packet().unwrap());
    }
    (ps, replies)
}

fn command(ps: &mut PacketStream<TcpStream>, payload: &[u8]) -> Vec<u8> {
    ps.reset_seq();
    ps.write_packet(payload).unwrap();
    ps.flush().unwrap();
    ps.read_packet().unwrap()
}

#[test]
fn raw_client_ping_unknown_quit() {
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let (mut ps, replies) = raw_login(addr, NATIVE_PASSWORD_PLUGIN, PASSWORD.as_bytes());
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0][0], 0x00, "login OK");

    let ok = command(&mut ps, &[0x0E]);
    assert_eq!(ok, [0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);
    assert_eq!(ps.seq(), 2);

    let err = command(&mut ps, &[0xEE, 1, 2, 3]);
    assert_eq!(&err[..3], &[0xFF, 0x17, 0x04]); // 1047
    assert_eq!(&err[3..9], b"#08S01");
    assert_eq!(&err[9..], b"Unknown command");

    ps.reset_seq();
    ps.write_packet(&[0x01]).unwrap();
    ps.flush().unwrap();
    assert!(matches!(ps.read_packet(), Err(PacketError::Eof)));
}

#[test]
fn raw_client_wrong_password_and_empty() {
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let (_ps, replies) = raw_login(addr, NATIVE_PASSWORD_PLUGIN, b"nope");
    assert_eq!(&replies[0][..3], &[0xFF, 0x15, 0x04]); // 1045
    let (_ps, replies) = raw_login(addr, NATIVE_PASSWORD_PLUGIN, b"");
    assert!(String::from_utf8_lossy(&replies[0]).ends_with("(using password: NO)"));

    let empty = start_server(StoredCredential::from_password(b""));
    let (_ps, replies) = raw_login(empty, NATIVE_PASSWORD_PLUGIN, b"");
    assert_eq!(replies[0][0], 0x00);
}

#[test]
fn raw_client_caching_sha2() {
    // Both hashes stored: fast auth success, then OK.
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let (_ps, replies) = raw_login(addr, CACHING_SHA2_PLUGIN, PASSWORD.as_bytes());
    assert_eq!(replies[0], [0x01, FAST_AUTH_SUCCESS]);
    assert_eq!(replies[1][0], 0x00);

    // Only the native hash stored: the scramble cannot be checked, so the
    // password itself is needed (full authentication, over TLS or RSA,
    // which this test server has not: the server's is tested with pymysql
    // in tests/test_auth_plugins.py).
    let native_only = StoredCredential { sha2: None, ..StoredCredential::from_password(PASSWORD.as_bytes()) };
    let addr = start_server(native_only);
    let (_ps, replies) = raw_login(addr, CACHING_SHA2_PLUGIN, PASSWORD.as_bytes());
    assert_eq!(replies[0][0], 0xFF, "{:?}", replies[0]);
}

#[test]
fn mariadb_cli_caching_sha2_fast_auth() {
    if !have("/usr/bin/mariadb") {
        return;
    }
    let plugin_dir = "/usr/lib/x86_64-linux-gnu/libmariadb3/plugin";
    if !Path::new(plugin_dir).join("caching_sha2_password.so").exists() {
        eprintln!("skipping: no caching_sha2_password client plugin");
        return;
    }
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let mut args = client_args(addr, PASSWORD);
    args.extend([
        format!("--plugin-dir={plugin_dir}"),
        "--default-auth=caching_sha2_password".to_string(),
        "-e".to_string(),
        "SELECT 1".to_string(),
    ]);
    let out = run("/usr/bin/mariadb", args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout, "1\n1\n");
}

#[test]
fn mariadb_cli_multi_statement() {
    if !have("/usr/bin/mariadb") {
        return;
    }
    let addr = start_server(StoredCredential::from_password(PASSWORD.as_bytes()));
    let mut args = client_args(addr, PASSWORD);
    args.extend(["-e".to_string(), "SELECT 1; do_nothing; SELECT 22".to_string()]);
    let out = run("/usr/bin/mariadb", args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout, "1\n1\n22\n22\n");
}
