//! Fuzzing support shared by the bounded protocol fuzz test that runs in CI
//! (`tests/fuzz.rs`) and the coverage-guided `protocol` target in `fuzz/`.
//!
//! Owns: the list of decoders the server runs on bytes from a client, and
//! what each promises when it succeeds. A broken promise panics, which is
//! what both the test harness and libFuzzer catch. Not used by the server;
//! hidden from the docs.

use crate::auth::{decide, verify_ed25519, verify_native, verify_sha2, AuthDecision, Challenge, StoredCredential};
use crate::buf::Reader;
use crate::command::{parse_command, Command};
use crate::full_auth::{cleartext_password, verify_password};
use crate::handshake::{
    parse_auth_switch_request, parse_handshake_response, InitialHandshake, CACHING_SHA2_PLUGIN, ED25519_PLUGIN,
    NATIVE_PASSWORD_PLUGIN,
};
use crate::packet::read_packet;
use crate::stmt::{decode_execute_params, ParamType};
use mysql_common::constants::CapabilityFlags;

/// The connection state the decoders depend on, chosen by the fuzzer.
#[derive(Debug, Clone, Default)]
pub struct Session {
    /// Capabilities agreed at login (they shape COM_CHANGE_USER).
    pub caps: CapabilityFlags,
    /// The prepared statement's parameter count.
    pub num_params: usize,
    /// Its parameter types bound by an earlier execute (may be none).
    pub bound_types: Vec<ParamType>,
    /// Which parameters got COM_STMT_SEND_LONG_DATA.
    pub long_data: Vec<Option<Vec<u8>>>,
    /// `max_allowed_packet` for the packet reader.
    pub max_packet: usize,
    /// The sequence id the packet reader expects first.
    pub seq: u8,
}

/// Runs `input` through every decoder of client bytes: as a stream of
/// framed packets, and each packet read from it — and `input` itself, for
/// bytes that frame no packet — as a login packet (HandshakeResponse41, and
/// the server greeting parser tools use), as a command packet (with a
/// COM_STMT_EXECUTE's parameters decoded as the server decodes them), as an
/// auth switch request and response, as raw COM_STMT_EXECUTE parameters,
/// and through the length-encoded field readers; as an auth response or
/// password packet it must log no account in.
pub fn decode_client_bytes(input: &[u8], session: &Session) {
    for payload in read_packets(input, session) {
        decode_payload(&payload, session);
    }
    decode_payload(input, session);
}

fn decode_payload(input: &[u8], session: &Session) {
    if let Ok(login) = parse_handshake_response(input) {
        assert!(login.username.len() <= input.len() * 3, "username longer than its packet");
        assert!(login.auth_response.len() <= input.len(), "auth response longer than its packet");
    }
    let _ = InitialHandshake::parse(input);
    match parse_command(input, session.caps) {
        Ok(Command::Query(sql)) => assert_eq!(sql[..], input[1..], "COM_QUERY is the rest of the packet"),
        Ok(Command::StmtExecute { params, .. }) => decode_params(&params, session),
        _ => {}
    }
    let _ = parse_auth_switch_request(input);
    let _ = verify_native(&[0; 20], b"nonce", input);
    let _ = verify_sha2(&[0; 32], b"nonce", input);
    let _ = verify_ed25519(&[0; 32], b"nonce", input);
    assert_no_login(input);
    if let Ok(login) = parse_handshake_response(input) {
        assert_no_login(&login.auth_response);
    }
    decode_params(input, session);
    let mut r = Reader::new(input);
    let _ = r.lenenc_bytes("x");
    let _ = r.lenenc_int_or_null("x");
    let _ = r.nul_bytes("x");
}

/// Up to four packets of `input` read as a socket stream: each no larger
/// than `max_allowed_packet` or the bytes that arrived, the sequence id
/// advancing with each.
fn read_packets(input: &[u8], session: &Session) -> Vec<Vec<u8>> {
    let mut stream = input;
    let mut seq = session.seq;
    let mut payloads = Vec::new();
    for _ in 0..4 {
        let before = seq;
        let Ok(payload) = read_packet(&mut stream, &mut seq, session.max_packet) else { break };
        assert!(payload.len() <= session.max_packet && payload.len() <= input.len(), "packet beyond its bytes");
        assert_ne!(seq, before, "a packet was read without advancing the sequence id");
        payloads.push(payload);
    }
    payloads
}

/// COM_STMT_EXECUTE parameters: one value per parameter, types now bound.
fn decode_params(raw: &[u8], session: &Session) {
    let mut types = session.bound_types.clone();
    if let Ok(values) = decode_execute_params(raw, session.num_params, &mut types, &session.long_data) {
        assert_eq!(values.len(), session.num_params, "one value per parameter");
        assert!(session.num_params == 0 || types.len() == session.num_params, "types not bound after an execute");
    }
}

/// The password the fuzzer's accounts have; no input can know it.
const FUZZ_PASSWORD: &[u8] = b"a password the fuzzer does not know";

/// `input` as an auth response, an AuthSwitchResponse and a full-auth
/// password packet, for each plugin a client may name, against an account
/// of each kind: none logs in.
fn assert_no_login(input: &[u8]) {
    let challenge = Challenge { scramble: *b"0123456789abcdefghij", ed25519_nonce: [7; 32] };
    for cred in fuzz_accounts() {
        for plugin in [NATIVE_PASSWORD_PLUGIN, CACHING_SHA2_PLUGIN, ED25519_PLUGIN, "dialog"] {
            for switched in [false, true] {
                match decide(plugin, &challenge, input, cred, switched) {
                    AuthDecision::Accept | AuthDecision::AcceptFastAuth => panic!("{plugin}: logged in"),
                    AuthDecision::FullAuth => {
                        assert!(!verify_password(cred, cleartext_password(input)), "full authentication passed")
                    }
                    AuthDecision::SwitchTo(_) | AuthDecision::Reject => {}
                }
            }
        }
    }
}

/// An account of each kind with [`FUZZ_PASSWORD`], made once (deriving the
/// ed25519 key is a scalar multiplication).
fn fuzz_accounts() -> &'static [StoredCredential; 3] {
    use sha2::Digest;
    static ACCOUNTS: std::sync::OnceLock<[StoredCredential; 3]> = std::sync::OnceLock::new();
    ACCOUNTS.get_or_init(|| {
        let expanded: [u8; 64] = sha2::Sha512::digest(FUZZ_PASSWORD).into();
        let secret = ed25519_dalek::hazmat::ExpandedSecretKey::from_bytes(&expanded);
        let ed25519 = ed25519_dalek::VerifyingKey::from(&secret).to_bytes();
        let password = StoredCredential::from_password(FUZZ_PASSWORD);
        let native_only = StoredCredential { sha2: None, ..password };
        [password, native_only, StoredCredential { ed25519: Some(ed25519), ..Default::default() }]
    })
}
