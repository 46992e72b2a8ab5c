//! Connection phase: the server's Initial Handshake (protocol v10), the
//! client's HandshakeResponse41 or SSLRequest (after which the server
//! starts TLS and the response follows inside it), and the
//! AuthSwitchRequest / AuthMoreData exchange.
//!
//! Hand-written (mysql_common's `HandshakePacket`/`HandshakeResponse` are
//! client-oriented and either lack a serializer for the server side or do not
//! expose MariaDB's extended capability bytes) and kept lenient on trailing
//! optional fields, as MariaDB's `sql/sql_acl.cc` parser is.

use crate::buf::{self, put_nul_bytes, put_u16, put_u32, DecodeError, Reader};
use mysql_common::constants::{CapabilityFlags, StatusFlags};
use rand::Rng;
use thiserror::Error;

/// The version string we announce. The `5.5.5-` prefix is how MariaDB tells
/// replication clients and old connectors that the real version follows;
/// "MariaDB" in it is how clients tell the flavour: mysql-binlog-connector-java
/// (Debezium's binlog client) takes MariaDB GTID positions only from a server
/// whose version contains it, and SQLAlchemy, python-mysql-replication and
/// other tools choose their MariaDB dialect by it.
pub const SERVER_VERSION: &str = onelog_core::HANDSHAKE_SERVER_VERSION;

/// utf8mb4_general_ci, the server's default collation.
pub const DEFAULT_COLLATION_ID: u8 = 45;

pub const NATIVE_PASSWORD_PLUGIN: &str = "mysql_native_password";
pub const CACHING_SHA2_PLUGIN: &str = "caching_sha2_password";
/// The client side of MariaDB's ed25519 plugin.
pub const ED25519_PLUGIN: &str = "client_ed25519";

/// Length of the random authentication nonce.
pub const SCRAMBLE_LEN: usize = 20;

/// The capabilities OneLog's server offers (no compression; CLIENT_SSL is
/// added when the server has TLS).
pub fn server_capabilities() -> CapabilityFlags {
    CapabilityFlags::CLIENT_LONG_PASSWORD
        | CapabilityFlags::CLIENT_FOUND_ROWS
        | CapabilityFlags::CLIENT_LONG_FLAG
        | CapabilityFlags::CLIENT_LOCAL_FILES
        | CapabilityFlags::CLIENT_CONNECT_WITH_DB
        | CapabilityFlags::CLIENT_PROTOCOL_41
        | CapabilityFlags::CLIENT_TRANSACTIONS
        | CapabilityFlags::CLIENT_SECURE_CONNECTION
        | CapabilityFlags::CLIENT_MULTI_STATEMENTS
        | CapabilityFlags::CLIENT_MULTI_RESULTS
        | CapabilityFlags::CLIENT_PS_MULTI_RESULTS
        | CapabilityFlags::CLIENT_PLUGIN_AUTH
        | CapabilityFlags::CLIENT_CONNECT_ATTRS
        | CapabilityFlags::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
        | CapabilityFlags::CLIENT_DEPRECATE_EOF
}

/// A fresh random nonce: printable ASCII without `\0` or `$` like MySQL's
/// `generate_user_salt`, so it survives NUL-terminated handling by clients.
pub fn random_scramble() -> [u8; SCRAMBLE_LEN] {
    let mut rng = rand::rng();
    let mut s = [0u8; SCRAMBLE_LEN];
    for b in &mut s {
        loop {
            let c: u8 = rng.random_range(0x21..0x7F);
            if c != b'$' {
                *b = c;
                break;
            }
        }
    }
    s
}

/// The server's first packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialHandshake {
    pub server_version: String,
    pub connection_id: u32,
    pub scramble: [u8; SCRAMBLE_LEN],
    pub capabilities: CapabilityFlags,
    /// MariaDB extended capabilities (sent only when CLIENT_LONG_PASSWORD,
    /// alias CLIENT_MYSQL, is off); OneLog sends 0.
    pub mariadb_capabilities: u32,
    pub collation: u8,
    pub status: StatusFlags,
    pub auth_plugin: String,
}

impl InitialHandshake {
    /// OneLog's handshake for a connection.
    pub fn new(connection_id: u32, scramble: [u8; SCRAMBLE_LEN]) -> InitialHandshake {
        InitialHandshake {
            server_version: SERVER_VERSION.to_string(),
            connection_id,
            scramble,
            capabilities: server_capabilities(),
            mariadb_capabilities: 0,
            collation: DEFAULT_COLLATION_ID,
            status: StatusFlags::SERVER_STATUS_AUTOCOMMIT,
            auth_plugin: NATIVE_PASSWORD_PLUGIN.to_string(),
        }
    }

    /// Appends the Protocol::HandshakeV10 payload.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let caps = self.capabilities.bits();
        out.push(10);
        put_nul_bytes(out, self.server_version.as_bytes());
        put_u32(out, self.connection_id);
        out.extend_from_slice(&self.scramble[..8]);
        out.push(0);
        put_u16(out, caps as u16);
        out.push(self.collation);
        put_u16(out, self.status.bits());
        put_u16(out, (caps >> 16) as u16);
        if self.capabilities.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH) {
            out.push((SCRAMBLE_LEN + 1) as u8);
        } else {
            out.push(0);
        }
        out.extend_from_slice(&[0u8; 6]);
        if self.capabilities.contains(CapabilityFlags::CLIENT_LONG_PASSWORD) {
            out.extend_from_slice(&[0u8; 4]);
        } else {
            put_u32(out, self.mariadb_capabilities);
        }
        // Part 2: the remaining 12 bytes plus a NUL (13 = max(13, 21 - 8)).
        put_nul_bytes(out, &self.scramble[8..]);
        if self.capabilities.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH) {
            put_nul_bytes(out, self.auth_plugin.as_bytes());
        }
    }

    /// Parses a v10 handshake (the client side; used by tests and tools).
    pub fn parse(payload: &[u8]) -> Result<InitialHandshake, DecodeError> {
        let mut r = Reader::new(payload);
        let proto = r.u8("protocol version")?;
        if proto != 10 {
            return Err(DecodeError::Invalid(format!("protocol version {proto}")));
        }
        let server_version = buf::string(r.nul_bytes("server version")?);
        let connection_id = r.u32("connection id")?;
        let mut scramble = [0u8; SCRAMBLE_LEN];
        scramble[..8].copy_from_slice(r.take(8, "scramble")?);
        r.u8("filler")?;
        let lo = u32::from(r.u16("capabilities")?);
        let collation = r.u8("charset")?;
        let status = StatusFlags::from_bits_truncate(r.u16("status")?);
        let hi = u32::from(r.u16("capabilities")?);
        let capabilities = CapabilityFlags::from_bits_truncate(lo | hi << 16);
        let data_len = usize::from(r.u8("auth data length")?);
        r.take(6, "filler")?;
        let mariadb_capabilities = r.u32("extended capabilities")?;
        let part2_len = data_len.saturating_sub(8).max(13);
        let part2 = r.take(part2_len, "scramble")?;
        let n = part2.len().min(12);
        scramble[8..8 + n].copy_from_slice(&part2[..n]);
        let auth_plugin = buf::string(r.nul_bytes_or_rest());
        Ok(InitialHandshake {
            server_version,
            connection_id,
            scramble,
            capabilities,
            mariadb_capabilities,
            collation,
            status,
            auth_plugin,
        })
    }
}

/// The client's login request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandshakeResponse {
    pub capabilities: CapabilityFlags,
    pub max_packet_size: u32,
    pub collation: u8,
    /// MariaDB extended client capabilities (0 unless the client is MariaDB
    /// and cleared CLIENT_MYSQL).
    pub mariadb_capabilities: u32,
    pub username: String,
    pub auth_response: Vec<u8>,
    pub database: Option<String>,
    /// The plugin the client used for `auth_response`; `None` when the client
    /// did not send one (then it is the server's announced plugin).
    pub auth_plugin: Option<String>,
    pub connect_attrs: Vec<(String, String)>,
}

/// The client's first packet could not be accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandshakeError {
    /// The client sent an SSLRequest to a server without TLS.
    #[error("client requested TLS (SSLRequest), which this server does not offer")]
    SslRequested,
    /// A pre-4.1 client (HandshakeResponse320).
    #[error("client does not support protocol 4.1")]
    Protocol41Required,
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// Length of an SSLRequest packet (capabilities, max packet, charset, filler).
const SSL_REQUEST_LEN: usize = 32;

/// Whether the client's first packet is an SSLRequest: the start of a
/// handshake response, only as far as its filler, with CLIENT_SSL set.
pub fn is_ssl_request(payload: &[u8]) -> bool {
    payload.len() == SSL_REQUEST_LEN
        && u32::from_le_bytes([payload[0], payload[1], payload[2], payload[3]]) & CapabilityFlags::CLIENT_SSL.bits()
            != 0
}

/// Parses Protocol::HandshakeResponse41.
pub fn parse_handshake_response(payload: &[u8]) -> Result<HandshakeResponse, HandshakeError> {
    let mut r = Reader::new(payload);
    if payload.len() >= 2 {
        let lo = u16::from_le_bytes([payload[0], payload[1]]);
        if u32::from(lo) & CapabilityFlags::CLIENT_PROTOCOL_41.bits() == 0 {
            return Err(HandshakeError::Protocol41Required);
        }
    }
    let capabilities = CapabilityFlags::from_bits_truncate(r.u32("capabilities")?);
    if capabilities.contains(CapabilityFlags::CLIENT_SSL) && payload.len() <= SSL_REQUEST_LEN {
        return Err(HandshakeError::SslRequested);
    }
    let max_packet_size = r.u32("max packet size")?;
    let collation = r.u8("charset")?;
    r.take(19, "filler")?;
    let ext = r.u32("extended capabilities")?;
    let mariadb_capabilities = if capabilities.contains(CapabilityFlags::CLIENT_LONG_PASSWORD) { 0 } else { ext };
    let username = buf::string(r.nul_bytes("username")?);
    let auth_response = if r.is_empty() {
        Vec::new()
    } else if capabilities.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) {
        r.lenenc_bytes("auth response")?.to_vec()
    } else if capabilities.contains(CapabilityFlags::CLIENT_SECURE_CONNECTION) {
        let n = usize::from(r.u8("auth response")?);
        r.take(n, "auth response")?.to_vec()
    } else {
        r.nul_bytes_or_rest().to_vec()
    };
    let database = if capabilities.contains(CapabilityFlags::CLIENT_CONNECT_WITH_DB) && !r.is_empty() {
        Some(buf::string(r.nul_bytes_or_rest()))
    } else {
        None
    };
    let auth_plugin = if capabilities.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH) && !r.is_empty() {
        Some(buf::string(r.nul_bytes_or_rest()))
    } else {
        None
    };
    let connect_attrs = if capabilities.contains(CapabilityFlags::CLIENT_CONNECT_ATTRS) && !r.is_empty() {
        parse_connect_attrs(&mut r)?
    } else {
        Vec::new()
    };
    Ok(HandshakeResponse {
        capabilities,
        max_packet_size,
        collation,
        mariadb_capabilities,
        username,
        auth_response,
        database,
        auth_plugin,
        connect_attrs,
    })
}

/// Connection attributes: a length-encoded total length, then key/value
/// pairs of length-encoded strings.
pub(crate) fn parse_connect_attrs(r: &mut Reader<'_>) -> Result<Vec<(String, String)>, DecodeError> {
    let total = r.lenenc_int("connect attrs length")?;
    let total = usize::try_from(total).map_err(|_| DecodeError::Truncated("connect attrs"))?;
    let mut attrs = Reader::new(r.take(total, "connect attrs")?);
    let mut out = Vec::new();
    while !attrs.is_empty() {
        let k = buf::string(attrs.lenenc_bytes("connect attr key")?);
        let v = buf::string(attrs.lenenc_bytes("connect attr value")?);
        out.push((k, v));
    }
    Ok(out)
}

impl HandshakeResponse {
    /// Appends the HandshakeResponse41 payload (client side; for tests and
    /// tools). Uses the encodings selected by `self.capabilities`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let caps = self.capabilities;
        put_u32(out, caps.bits());
        put_u32(out, self.max_packet_size);
        out.push(self.collation);
        out.extend_from_slice(&[0u8; 19]);
        put_u32(out, if caps.contains(CapabilityFlags::CLIENT_LONG_PASSWORD) { 0 } else { self.mariadb_capabilities });
        put_nul_bytes(out, self.username.as_bytes());
        if caps.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) {
            buf::put_lenenc_bytes(out, &self.auth_response);
        } else {
            out.push(self.auth_response.len().min(255) as u8);
            out.extend_from_slice(&self.auth_response[..self.auth_response.len().min(255)]);
        }
        if caps.contains(CapabilityFlags::CLIENT_CONNECT_WITH_DB) {
            put_nul_bytes(out, self.database.as_deref().unwrap_or("").as_bytes());
        }
        if caps.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH) {
            put_nul_bytes(out, self.auth_plugin.as_deref().unwrap_or("").as_bytes());
        }
        if caps.contains(CapabilityFlags::CLIENT_CONNECT_ATTRS) {
            let mut attrs = Vec::new();
            for (k, v) in &self.connect_attrs {
                buf::put_lenenc_bytes(&mut attrs, k.as_bytes());
                buf::put_lenenc_bytes(&mut attrs, v.as_bytes());
            }
            buf::put_lenenc_bytes(out, &attrs);
        }
    }
}

/// Appends an AuthSwitchRequest: 0xFE, plugin name NUL, plugin data. For
/// mysql_native_password the data is the 20-byte nonce plus a NUL, as
/// MariaDB sends it.
pub fn encode_auth_switch_request(plugin: &str, data: &[u8], out: &mut Vec<u8>) {
    out.push(0xFE);
    put_nul_bytes(out, plugin.as_bytes());
    out.extend_from_slice(data);
}

/// Parses an AuthSwitchRequest (client side; for tests): (plugin, data).
pub fn parse_auth_switch_request(payload: &[u8]) -> Result<(String, Vec<u8>), DecodeError> {
    let mut r = Reader::new(payload);
    if r.u8("auth switch header")? != 0xFE {
        return Err(DecodeError::Invalid("not an AuthSwitchRequest".into()));
    }
    let plugin = buf::string(r.nul_bytes_or_rest());
    Ok((plugin, r.rest().to_vec()))
}

/// The client's answer to an AuthSwitchRequest is the raw auth response
/// (no header). Returned as-is; an empty packet means an empty password.
pub fn parse_auth_switch_response(payload: &[u8]) -> Vec<u8> {
    payload.to_vec()
}

/// Appends AuthMoreData: 0x01 then plugin data (e.g. `[0x03]` is
/// caching_sha2_password's fast-auth-success).
pub fn encode_auth_more_data(data: &[u8], out: &mut Vec<u8>) {
    out.push(0x01);
    out.extend_from_slice(data);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_layout() {
        let scramble = *b"abcdefghijklmnopqrst";
        let hs = InitialHandshake::new(7, scramble);
        let mut out = Vec::new();
        hs.encode(&mut out);
        let mut expected = vec![10];
        expected.extend_from_slice(b"5.5.5-10.11.99-MariaDB-OneLog\0");
        expected.extend_from_slice(&[7, 0, 0, 0]);
        expected.extend_from_slice(b"abcdefgh\0");
        let caps = server_capabilities().bits();
        expected.extend_from_slice(&(caps as u16).to_le_bytes());
        expected.push(45);
        expected.extend_from_slice(&[0x02, 0x00]);
        expected.extend_from_slice(&((caps >> 16) as u16).to_le_bytes());
        expected.push(21);
        expected.extend_from_slice(&[0; 10]);
        expected.extend_from_slice(b"ijklmnopqrst\0");
        expected.extend_from_slice(b"mysql_native_password\0");
        assert_eq!(out, expected);
        assert!(!server_capabilities().contains(CapabilityFlags::CLIENT_SSL));
        let back = InitialHandshake::parse(&out).unwrap();
        assert_eq!(back, hs);
        // Golden capability words: 0xF7AF lower (0xF70F + ...), checked bitwise.
        assert_eq!(caps & 0x0800, 0);
        assert_eq!(caps & 0x0100_0000, 0x0100_0000);
    }

    #[test]
    fn random_scramble_is_printable() {
        for _ in 0..100 {
            let s = random_scramble();
            assert!(s.iter().all(|&b| (0x21..0x7F).contains(&b) && b != b'$'));
        }
    }

    /// A HandshakeResponse41 assembled byte by byte after the layout in the
    /// MySQL protocol documentation (caps 0x000fa68d: CONNECT_WITH_DB,
    /// SECURE_CONNECTION, PLUGIN_AUTH; user "pam", db "test").
    #[test]
    fn golden_handshake_response() {
        let bytes: &[u8] = &[
            0x8d, 0xa6, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x01, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0x61, 0x6d, 0x00,
            0x14, 0xab, 0x09, 0xee, 0xf6, 0xbc, 0xb1, 0x32, 0x3e, 0x61, 0x14, 0x38, 0x65, 0xc0, 0x99, 0x1d, 0x95, 0x7d,
            0x75, 0xd4, 0x47, 0x74, 0x65, 0x73, 0x74, 0x00, 0x6d, 0x79, 0x73, 0x71, 0x6c, 0x5f, 0x6e, 0x61, 0x74, 0x69,
            0x76, 0x65, 0x5f, 0x70, 0x61, 0x73, 0x73, 0x77, 0x6f, 0x72, 0x64, 0x00,
        ];
        let r = parse_handshake_response(bytes).unwrap();
        assert_eq!(r.username, "pam");
        assert_eq!(r.auth_response.len(), 20);
        assert_eq!(r.auth_response[0], 0xab);
        assert_eq!(r.database.as_deref(), Some("test"));
        assert_eq!(r.auth_plugin.as_deref(), Some("mysql_native_password"));
        assert_eq!(r.max_packet_size, 0x0100_0000);
        assert_eq!(r.collation, 0x21);
        assert!(r.connect_attrs.is_empty());
    }

    #[test]
    fn response_round_trip_with_attrs_and_lenenc() {
        let resp = HandshakeResponse {
            capabilities: server_capabilities(),
            max_packet_size: 1 << 24,
            collation: 45,
            mariadb_capabilities: 0,
            username: "root".into(),
            auth_response: vec![1; 20],
            database: Some("db1".into()),
            auth_plugin: Some("mysql_native_password".into()),
            connect_attrs: vec![("_client_name".into(), "libmariadb".into()), ("_pid".into(), "42".into())],
        };
        let mut out = Vec::new();
        resp.encode(&mut out);
        assert_eq!(parse_handshake_response(&out).unwrap(), resp);

        // Without LENENC_CLIENT_DATA: 1-byte length.
        let mut r2 = resp.clone();
        r2.capabilities.remove(CapabilityFlags::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA);
        r2.capabilities.remove(CapabilityFlags::CLIENT_CONNECT_WITH_DB);
        r2.database = None;
        let mut out = Vec::new();
        r2.encode(&mut out);
        assert_eq!(parse_handshake_response(&out).unwrap(), r2);

        // MariaDB client: CLIENT_MYSQL off, extended caps in the filler.
        let mut r3 = resp.clone();
        r3.capabilities.remove(CapabilityFlags::CLIENT_LONG_PASSWORD);
        r3.mariadb_capabilities = 0x1C;
        let mut out = Vec::new();
        r3.encode(&mut out);
        assert_eq!(parse_handshake_response(&out).unwrap(), r3);
    }

    #[test]
    fn ssl_request_is_refused() {
        let mut p = Vec::new();
        put_u32(&mut p, (server_capabilities() | CapabilityFlags::CLIENT_SSL).bits());
        put_u32(&mut p, 1 << 24);
        p.push(45);
        p.extend_from_slice(&[0; 23]);
        assert_eq!(p.len(), 32);
        assert_eq!(parse_handshake_response(&p), Err(HandshakeError::SslRequested));
        assert!(is_ssl_request(&p));
        assert!(!is_ssl_request(&p[..31]));
        p[1] = 0;
        assert!(!is_ssl_request(&p), "CLIENT_SSL (0x800) cleared");
        let old = [0x05, 0x00, 0, 0, 0];
        assert_eq!(parse_handshake_response(&old), Err(HandshakeError::Protocol41Required));
        let mut short = Vec::new();
        put_u32(&mut short, server_capabilities().bits());
        short.extend_from_slice(&[0; 10]);
        assert!(matches!(parse_handshake_response(&short), Err(HandshakeError::Decode(_))));
    }

    #[test]
    fn auth_switch() {
        let mut out = Vec::new();
        encode_auth_switch_request(NATIVE_PASSWORD_PLUGIN, b"0123456789abcdefghij\0", &mut out);
        assert_eq!(out[0], 0xFE);
        assert_eq!(&out[1..23], b"mysql_native_password\0");
        let (p, d) = parse_auth_switch_request(&out).unwrap();
        assert_eq!(p, NATIVE_PASSWORD_PLUGIN);
        assert_eq!(d, b"0123456789abcdefghij\0");
        assert_eq!(parse_auth_switch_response(&[1, 2]), vec![1, 2]);
        let mut out = Vec::new();
        encode_auth_more_data(&[3], &mut out);
        assert_eq!(out, [1, 3]);
    }
}
