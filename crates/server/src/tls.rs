//! TLS (rustls), as MariaDB offers it: the server announces CLIENT_SSL; a
//! client that wants TLS answers the greeting with an SSL request packet,
//! the TLS handshake follows on the same socket, and the handshake
//! response and everything after it travel inside TLS.
//!
//! Settings (read at start-up and by FLUSH SSL):
//! - `ssl_cert` / `ssl_key`: PEM files. Without them OneLog uses
//!   `server-cert.pem` / `server-key.pem` in the data directory, made with
//!   their CA (`ca.pem`, `ca-key.pem`) the first time, as MySQL 8 does, so
//!   TLS is on by default.
//! - `ssl_ca`: client certificates are verified against it when a client
//!   sends one (none is required).
//! - `ssl_cipher`: a `:`-separated list of suite names, in OpenSSL's
//!   spelling (`ECDHE-RSA-AES128-GCM-SHA256`, `TLS_AES_256_GCM_SHA384`) or
//!   IANA's; the TLS 1.2 suites offered are the ones named, and naming any
//!   TLS 1.3 suite limits TLS 1.3 to those named. Names of suites rustls
//!   lacks and OpenSSL's cipher-list operators (`HIGH`, `!aNULL`) are
//!   logged and skipped.
//! - `tls_version`: `TLSv1.2` and `TLSv1.3`; the older versions are never
//!   offered (a client limited to them is refused).
//! - `--skip-ssl`: no TLS (have_ssl DISABLED).
//!
//! A plain connection pays nothing for this: its socket is the accepted
//! one; only a TLS connection's reads and writes go through rustls.

use crate::certificate_names;
use crate::connection::{PooledSocket, Socket};
use anyhow::Context;
use onelog_protocol::packet::{PacketError, PacketStream};
use onelog_sql::accounts::Account;
use onelog_sql::ast::account::Require;
use onelog_sql::connections::{Connections, TlsSession};
use onelog_sql::vars::GlobalVars;
use parking_lot::RwLock;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{CipherSuite, ProtocolVersion, RootCertStore, ServerConfig, ServerConnection, StreamOwned};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The certificate files OneLog makes in the data directory.
const AUTO_CA: &str = "ca.pem";
const AUTO_CA_KEY: &str = "ca-key.pem";
const AUTO_CERT: &str = "server-cert.pem";
const AUTO_KEY: &str = "server-key.pem";

/// The suites rustls offers, with the names OpenSSL (and so MariaDB's
/// Ssl_cipher) gives them.
const OPENSSL_NAMES: &[(CipherSuite, &str)] = &[
    (CipherSuite::TLS13_AES_256_GCM_SHA384, "TLS_AES_256_GCM_SHA384"),
    (CipherSuite::TLS13_AES_128_GCM_SHA256, "TLS_AES_128_GCM_SHA256"),
    (CipherSuite::TLS13_CHACHA20_POLY1305_SHA256, "TLS_CHACHA20_POLY1305_SHA256"),
    (CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, "ECDHE-ECDSA-AES256-GCM-SHA384"),
    (CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, "ECDHE-ECDSA-AES128-GCM-SHA256"),
    (CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, "ECDHE-ECDSA-CHACHA20-POLY1305"),
    (CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, "ECDHE-RSA-AES256-GCM-SHA384"),
    (CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "ECDHE-RSA-AES128-GCM-SHA256"),
    (CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, "ECDHE-RSA-CHACHA20-POLY1305"),
];

fn openssl_name(suite: CipherSuite) -> &'static str {
    OPENSSL_NAMES.iter().find(|(s, _)| *s == suite).map_or("", |(_, name)| name)
}

/// The files and choices a TLS configuration is built from.
#[derive(Debug, Clone)]
struct Settings {
    cert: PathBuf,
    key: PathBuf,
    ca: Option<PathBuf>,
    ciphers: String,
    versions: String,
}

/// The server's TLS: the configuration new connections use, replaced by
/// FLUSH SSL.
pub struct Tls {
    settings: Settings,
    config: RwLock<Arc<ServerConfig>>,
}

impl Tls {
    /// TLS from the `ssl_*` variables, making the data directory's
    /// certificates first when none are given; `None` with `--skip-ssl`.
    /// Sets the variables to what is used (have_ssl, the files).
    pub fn start(vars: &GlobalVars, datadir: &Path, enabled: bool) -> anyhow::Result<Option<Arc<Tls>>> {
        if !enabled {
            return Ok(None);
        }
        let given = |name: &str| vars.get(name).filter(|v| !v.is_empty()).map(|v| datadir.join(v));
        let (cert, key, ca) = match (given("ssl_cert"), given("ssl_key")) {
            (Some(cert), Some(key)) => (cert, key, given("ssl_ca")),
            (None, None) => {
                make_certificates(datadir)?;
                let ca = given("ssl_ca").unwrap_or_else(|| datadir.join(AUTO_CA));
                (datadir.join(AUTO_CERT), datadir.join(AUTO_KEY), Some(ca))
            }
            _ => anyhow::bail!("--ssl-cert and --ssl-key go together: give both, or neither for the data directory's"),
        };
        let settings = Settings {
            cert,
            key,
            ca,
            ciphers: vars.get("ssl_cipher").unwrap_or_default(),
            versions: vars.get("tls_version").unwrap_or_default(),
        };
        let config = build_config(&settings).map_err(anyhow::Error::msg)?;
        let set = |name: &str, value: &str| vars.set_startup(name, value).map_err(anyhow::Error::msg);
        set("have_ssl", "YES")?;
        set("ssl_cert", &settings.cert.display().to_string())?;
        set("ssl_key", &settings.key.display().to_string())?;
        if let Some(ca) = &settings.ca {
            set("ssl_ca", &ca.display().to_string())?;
        }
        Ok(Some(Arc::new(Tls { settings, config: RwLock::new(config) })))
    }

    /// FLUSH SSL: reads the files again; a failure keeps the old ones.
    pub fn reload(&self) -> Result<(), String> {
        let config = build_config(&self.settings)?;
        *self.config.write() = config;
        tracing::info!("FLUSH SSL: reloaded {} and {}", self.settings.cert.display(), self.settings.key.display());
        Ok(())
    }

    fn config(&self) -> Arc<ServerConfig> {
        self.config.read().clone()
    }
}

fn build_config(s: &Settings) -> Result<Arc<ServerConfig>, String> {
    let certs = CertificateDer::pem_file_iter(&s.cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read the certificate {}: {e}", s.cert.display()))?;
    let key =
        PrivateKeyDer::from_pem_file(&s.key).map_err(|e| format!("cannot read the key {}: {e}", s.key.display()))?;
    let provider = Arc::new(provider_with_ciphers(&s.ciphers)?);
    let versions = protocol_versions(&s.versions)?;
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&versions)
        .map_err(|e| format!("ssl_cipher and tls_version leave nothing to offer: {e}"))?;
    let builder = match &s.ca {
        Some(ca) => {
            let mut roots = RootCertStore::empty();
            let cas = CertificateDer::pem_file_iter(ca)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| format!("cannot read the CA {}: {e}", ca.display()))?;
            roots.add_parsable_certificates(cas);
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .allow_unauthenticated()
                .build()
                .map_err(|e| format!("ssl_ca {}: {e}", ca.display()))?;
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let config = builder.with_single_cert(certs, key).map_err(|e| format!("ssl_cert / ssl_key: {e}"))?;
    Ok(Arc::new(config))
}

/// rustls's suites, narrowed to those `ssl_cipher` names (see the module
/// comment).
fn provider_with_ciphers(list: &str) -> Result<CryptoProvider, String> {
    let mut provider = rustls::crypto::ring::default_provider();
    let names: Vec<&str> = list.split([':', ',', ' ']).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Ok(provider);
    }
    let named = |suite: CipherSuite| {
        names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(openssl_name(suite)) || n.eq_ignore_ascii_case(&format!("{suite:?}")))
    };
    for name in &names {
        let known = OPENSSL_NAMES.iter().any(|(suite, openssl)| {
            name.eq_ignore_ascii_case(openssl) || name.eq_ignore_ascii_case(&format!("{suite:?}"))
        });
        if !known {
            tracing::warn!("ssl_cipher: '{name}' is not a cipher suite OneLog offers; skipped");
        }
    }
    let tls13_named = provider.cipher_suites.iter().any(|s| s.tls13().is_some() && named(s.suite()));
    provider.cipher_suites.retain(|s| named(s.suite()) || (s.tls13().is_some() && !tls13_named));
    Ok(provider)
}

/// The versions `tls_version` allows that rustls speaks.
fn protocol_versions(list: &str) -> Result<Vec<&'static rustls::SupportedProtocolVersion>, String> {
    let mut versions = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match name {
            "TLSv1.2" => versions.push(&rustls::version::TLS12),
            "TLSv1.3" => versions.push(&rustls::version::TLS13),
            // Accepted for my.cnf compatibility; never offered.
            "TLSv1.0" | "TLSv1.1" => tracing::warn!("tls_version: {name} is not offered (only TLSv1.2 and TLSv1.3)"),
            other => return Err(format!("tls_version: unknown version '{other}'")),
        }
    }
    if versions.is_empty() {
        if list.trim().is_empty() {
            return Ok(vec![&rustls::version::TLS13, &rustls::version::TLS12]);
        }
        return Err(format!("tls_version={list} leaves no version OneLog offers (TLSv1.2, TLSv1.3)"));
    }
    Ok(versions)
}

/// Makes the data directory's CA and server certificate, unless the
/// server certificate exists already. The keys are written mode 0600.
fn make_certificates(datadir: &Path) -> anyhow::Result<()> {
    if datadir.join(AUTO_CERT).exists() {
        return Ok(());
    }
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new())?;
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, "OneLog_Auto_Generated_CA_Certificate");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::CrlSign];
    let ca_key = rcgen::KeyPair::generate()?;
    let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key)?;
    let names = vec!["localhost".to_string(), "127.0.0.1".to_string(), "::1".to_string()];
    let mut params = rcgen::CertificateParams::new(names)?;
    params.distinguished_name.push(rcgen::DnType::CommonName, "OneLog_Auto_Generated_Server_Certificate");
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    let key = rcgen::KeyPair::generate()?;
    let cert = params.signed_by(&key, &ca)?;
    write_file(&datadir.join(AUTO_CA), ca.pem().as_bytes(), 0o644)?;
    write_file(&datadir.join(AUTO_CA_KEY), ca.key().serialize_pem().as_bytes(), 0o600)?;
    write_file(&datadir.join(AUTO_KEY), key.serialize_pem().as_bytes(), 0o600)?;
    // Last: its presence says the set is complete.
    write_file(&datadir.join(AUTO_CERT), cert.pem().as_bytes(), 0o644)?;
    tracing::info!("made a CA and a server certificate for TLS in {} ({AUTO_CA}, {AUTO_CERT})", datadir.display());
    Ok(())
}

pub(crate) fn write_file(path: &Path, data: &[u8], mode: u32) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.write_all(data)?;
    f.sync_all()?;
    Ok(())
}

/// `require_secure_transport`: a login over plain TCP is refused; the
/// Unix socket (host `localhost`) counts as secure, as in MariaDB.
pub fn insecure_transport_refused(engine: &onelog_sql::Engine, host: &str, tls: bool) -> bool {
    !tls && host != "localhost" && engine.vars.int("require_secure_transport") != 0
}

/// Whether the connection meets the account's REQUIRE: SSL takes TLS,
/// X509 a client certificate verified by the server's CA; CIPHER the
/// suite named, ISSUER / SUBJECT a client certificate with those names
/// (MariaDB's `acl_check_ssl`). MariaDB answers a login that does not as
/// a wrong password (1045).
pub fn meets_account_requirement(account: &Account, tls: Option<&TlsSession>) -> bool {
    match (&account.require, tls) {
        (Require::None, _) => true,
        (_, None) => false,
        (Require::Ssl, Some(_)) => true,
        (Require::X509, Some(t)) => t.client_certificate.is_some(),
        (Require::Specified(spec), Some(t)) => {
            if spec.cipher.as_ref().is_some_and(|c| c != t.cipher) {
                return false;
            }
            if spec.issuer.is_empty() && spec.subject.is_empty() {
                return true;
            }
            t.client_certificate.as_ref().is_some_and(|names| {
                (spec.issuer.is_empty() || spec.issuer == names.issuer)
                    && (spec.subject.is_empty() || spec.subject == names.subject)
            })
        }
    }
}

/// A connection inside TLS.
pub struct TlsSocket {
    stream: StreamOwned<ServerConnection, socket2::Socket>,
    /// Decrypted bytes wait in rustls: the socket need not become
    /// readable for the next command.
    plaintext_pending: bool,
    session: TlsSession,
}

impl TlsSocket {
    fn session_of(conn: &ServerConnection) -> TlsSession {
        let version = match conn.protocol_version() {
            Some(ProtocolVersion::TLSv1_3) => "TLSv1.3",
            Some(ProtocolVersion::TLSv1_2) => "TLSv1.2",
            _ => "",
        };
        let cipher = conn.negotiated_cipher_suite().map_or("", |s| openssl_name(s.suite()));
        // A verified certificate x509-parser cannot read still meets
        // REQUIRE X509; its unknown (empty) names meet no ISSUER / SUBJECT.
        let client_certificate = conn
            .peer_certificates()
            .and_then(|certs| certs.first())
            .map(|der| certificate_names::of_der(der).unwrap_or_default());
        TlsSession { version, cipher, client_certificate }
    }
}

impl Read for TlsSocket {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.stream.read(buf)?;
        let state =
            self.stream.conn.process_new_packets().map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        self.plaintext_pending = state.plaintext_bytes_to_read() > 0;
        Ok(n)
    }
}

impl Write for TlsSocket {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

impl AsFd for TlsSocket {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.stream.sock.as_fd()
    }
}

impl Socket for TlsSocket {
    fn has_buffered_input(&self) -> bool {
        self.plaintext_pending
    }

    fn tls(&self) -> Option<TlsSession> {
        Some(self.session.clone())
    }
}

impl From<TlsSocket> for PooledSocket {
    fn from(socket: TlsSocket) -> PooledSocket {
        Box::new(socket)
    }
}

/// Answers an SSL request: the TLS handshake on the connection's socket
/// (bounded by the read timeout it has), after which `stream` reads and
/// writes through TLS. Bytes of the client's first TLS message already
/// read with the request are handed to rustls.
pub fn accept<S: Socket + From<TlsSocket>>(
    stream: &mut PacketStream<S>,
    tls: &Tls,
    counts: &Connections,
) -> Result<(), PacketError> {
    let result = stream.replace_socket(|plain, read_ahead| {
        // The TLS layer owns a descriptor of its own for the socket; the
        // plain one closes when it is replaced.
        let socket = socket2::Socket::from(plain.as_fd().try_clone_to_owned()?);
        let mut conn = ServerConnection::new(tls.config()).map_err(io::Error::other)?;
        let mut ahead = read_ahead.as_slice();
        while !ahead.is_empty() {
            conn.read_tls(&mut ahead)?;
        }
        let mut stream = StreamOwned::new(conn, socket);
        // What was read ahead must be processed before waiting for more:
        // it may be the whole ClientHello.
        if let Err(e) = stream.conn.process_new_packets() {
            // The alert saying why, if the client still listens.
            let _ = stream.conn.write_tls(&mut stream.sock);
            return Err(io::Error::new(io::ErrorKind::InvalidData, e));
        }
        while stream.conn.is_handshaking() {
            stream.conn.complete_io(&mut stream.sock)?;
        }
        let session = TlsSocket::session_of(&stream.conn);
        Ok(S::from(TlsSocket { stream, plaintext_pending: false, session }))
    });
    counts.tls_accepted(result.is_ok());
    Ok(result?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cipher_list_narrows_tls12_and_keeps_tls13_unless_named() {
        let suites = |list: &str| -> Vec<&'static str> {
            provider_with_ciphers(list).unwrap().cipher_suites.iter().map(|s| openssl_name(s.suite())).collect()
        };
        let all = suites("");
        assert_eq!(all.len(), OPENSSL_NAMES.len());
        let one = suites("ECDHE-RSA-AES128-GCM-SHA256:HIGH:!aNULL");
        assert!(one.contains(&"ECDHE-RSA-AES128-GCM-SHA256"));
        assert!(!one.contains(&"ECDHE-RSA-AES256-GCM-SHA384"));
        assert!(one.contains(&"TLS_AES_256_GCM_SHA384"), "TLS 1.3 suites stay: {one:?}");
        let tls13 = suites("TLS_AES_128_GCM_SHA256");
        assert_eq!(tls13, ["TLS_AES_128_GCM_SHA256"]);
        assert_eq!(suites("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256").len(), 4, "IANA names too");
    }

    #[test]
    fn versions_are_12_and_13_only() {
        assert_eq!(protocol_versions("TLSv1.2,TLSv1.3").unwrap().len(), 2);
        assert_eq!(protocol_versions("TLSv1.1,TLSv1.3").unwrap().len(), 1);
        assert!(protocol_versions("TLSv1.0,TLSv1.1").is_err());
        assert!(protocol_versions("SSLv3").is_err());
    }

    #[test]
    fn made_certificates_load_and_verify_against_their_ca() {
        let dir = tempfile::tempdir().unwrap();
        make_certificates(dir.path()).unwrap();
        let settings = Settings {
            cert: dir.path().join(AUTO_CERT),
            key: dir.path().join(AUTO_KEY),
            ca: Some(dir.path().join(AUTO_CA)),
            ciphers: String::new(),
            versions: "TLSv1.2,TLSv1.3".into(),
        };
        build_config(&settings).unwrap();
        let mode = |f: &str| {
            std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(dir.path().join(f)).unwrap().permissions())
                & 0o777
        };
        assert_eq!(mode(AUTO_KEY), 0o600);
        assert_eq!(mode(AUTO_CA_KEY), 0o600);
        // A second start keeps them.
        let before = std::fs::read(dir.path().join(AUTO_CERT)).unwrap();
        make_certificates(dir.path()).unwrap();
        assert_eq!(std::fs::read(dir.path().join(AUTO_CERT)).unwrap(), before);
    }
}
