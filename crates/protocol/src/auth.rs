//! Password verification for `mysql_native_password`, the fast path of
//! `caching_sha2_password` and MariaDB's ed25519, server side.
//!
//! The server never stores passwords: it stores `SHA1(SHA1(pw))` (what
//! MySQL shows as `*HEX` in `mysql.user`) and `SHA256(SHA256(pw))`. The
//! convention for "no password" is the hash of the empty string; a client
//! with an empty password sends an empty auth response.
//!
//! The SHA scrambles are hand-written because mysql_common only has the
//! client-side ones (which the tests use to check these server-side
//! verifiers); ed25519 signatures are checked by ed25519-dalek.

use crate::handshake::{CACHING_SHA2_PLUGIN, ED25519_PLUGIN, NATIVE_PASSWORD_PLUGIN, SCRAMBLE_LEN};
use rand::Rng;
use sha1::{Digest, Sha1};
use sha2::Sha256;

fn sha1(parts: &[&[u8]]) -> [u8; 20] {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// `SHA1(SHA1(password))`, the stored mysql_native_password credential.
pub fn hash_native(password: &[u8]) -> [u8; 20] {
    sha1(&[&sha1(&[password])])
}

/// `SHA256(SHA256(password))`, the stored caching_sha2_password credential.
pub fn hash_sha2(password: &[u8]) -> [u8; 32] {
    sha256(&[&sha256(&[password])])
}

/// `*` + uppercase hex, as `PASSWORD()` and `mysql.user.authentication_string`
/// show a native hash.
pub fn native_hash_to_hex(hash: &[u8; 20]) -> String {
    let mut s = String::with_capacity(41);
    s.push('*');
    for b in hash {
        s.push_str(&format!("{b:02X}"));
    }
    s
}

/// Parses `*` + 40 hex digits (either case).
pub fn native_hash_from_hex(s: &str) -> Option<[u8; 20]> {
    let hex = s.strip_prefix('*')?;
    if hex.len() != 40 || !hex.is_ascii() {
        return None;
    }
    let mut out = [0u8; 20];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Checks a mysql_native_password response:
/// `response = SHA1(pw) XOR SHA1(nonce || SHA1(SHA1(pw)))`, so
/// `SHA1(response XOR SHA1(nonce || stored)) == stored`.
/// An empty response matches only the empty-password hash.
pub fn verify_native(stored: &[u8; 20], nonce: &[u8], response: &[u8]) -> bool {
    if response.is_empty() {
        return constant_time_eq(stored, &hash_native(b""));
    }
    if response.len() != 20 {
        return false;
    }
    let mask = sha1(&[nonce, stored]);
    let mut stage1 = [0u8; 20];
    for i in 0..20 {
        stage1[i] = response[i] ^ mask[i];
    }
    constant_time_eq(&sha1(&[&stage1]), stored)
}

/// Checks a caching_sha2_password fast-path response:
/// `response = SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) || nonce)`, so
/// `SHA256(response XOR SHA256(stored || nonce)) == stored`.
/// An empty response matches only the empty-password hash. Some clients
/// NUL-terminate the 32 bytes; the NUL is ignored.
pub fn verify_sha2(stored: &[u8; 32], nonce: &[u8], response: &[u8]) -> bool {
    let response = match response {
        [r @ .., 0] if r.len() == 32 => r,
        r => r,
    };
    if response.is_empty() {
        return constant_time_eq(stored, &hash_sha2(b""));
    }
    if response.len() != 32 {
        return false;
    }
    let mask = sha256(&[stored, nonce]);
    let mut stage1 = [0u8; 32];
    for i in 0..32 {
        stage1[i] = response[i] ^ mask[i];
    }
    constant_time_eq(&sha256(&[&stage1]), stored)
}

/// Checks a client_ed25519 response: the 64-byte signature of `nonce` by
/// the account's key. Strict verification: a non-canonical signature or a
/// weak (small-order) key, such as the all-zero key of an account without
/// one, verifies nothing.
pub fn verify_ed25519(public_key: &[u8; 32], nonce: &[u8], response: &[u8]) -> bool {
    let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(public_key) else { return false };
    let Ok(signature) = ed25519_dalek::Signature::from_slice(response) else { return false };
    key.verify_strict(nonce, &signature).is_ok()
}

/// Length of the nonce client_ed25519 signs (MariaDB's NONCE_BYTES).
pub const ED25519_NONCE_LEN: usize = 32;

/// The random challenges of one login: the 20-byte scramble the greeting
/// carries (mysql_native_password, caching_sha2_password) and the 32
/// bytes an ed25519 account's client signs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub scramble: [u8; SCRAMBLE_LEN],
    pub ed25519_nonce: [u8; ED25519_NONCE_LEN],
}

impl Challenge {
    pub fn random() -> Challenge {
        Challenge { scramble: crate::handshake::random_scramble(), ed25519_nonce: rand::rng().random() }
    }

    /// An AuthSwitchRequest's data for `plugin`: the ed25519 nonce as it
    /// is, or the scramble and a NUL as MariaDB sends it.
    pub fn switch_data(&self, plugin: &str) -> Vec<u8> {
        match plugin {
            ED25519_PLUGIN => self.ed25519_nonce.to_vec(),
            _ => {
                let mut data = self.scramble.to_vec();
                data.push(0);
                data
            }
        }
    }
}

/// Compares hashes in a time that does not depend on where they differ,
/// so response times tell a password guesser nothing.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| std::hint::black_box(acc | (x ^ y))) == 0
}

/// What the server stores for an account; either hash may be missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoredCredential {
    pub native: Option<[u8; 20]>,
    pub sha2: Option<[u8; 32]>,
    /// An ed25519 account's public key: only a client_ed25519 signature
    /// of the nonce logs it in (the hashes are unused then).
    pub ed25519: Option<[u8; 32]>,
}

impl StoredCredential {
    /// Both hashes of a plaintext password (e.g. from `IDENTIFIED BY`).
    pub fn from_password(password: &[u8]) -> StoredCredential {
        StoredCredential { native: Some(hash_native(password)), sha2: Some(hash_sha2(password)), ed25519: None }
    }
}

/// The server's next step after reading an auth response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthDecision {
    /// Send OK.
    Accept,
    /// caching_sha2_password verified: send AuthMoreData `[0x03]`
    /// (fast-auth-success, see [`FAST_AUTH_SUCCESS`]), then OK.
    AcceptFastAuth,
    /// Send an AuthSwitchRequest for this plugin with the nonce plus a NUL
    /// (the same nonce is fine) and decide again, with `already_switched`,
    /// on the client's reply. The plugin may be the one the client asked for
    /// (caching_sha2_password that sent no data yet).
    SwitchTo(&'static str),
    /// caching_sha2_password without a SHA-256 hash to check the scramble
    /// against: send AuthMoreData `[0x04]` and take the password itself
    /// (see `full_auth`).
    FullAuth,
    /// Send ERR 1045 (access denied).
    Reject,
}

/// caching_sha2_password's fast-auth-success AuthMoreData body.
pub const FAST_AUTH_SUCCESS: u8 = 0x03;

/// Decides on one auth response made with `plugin` against `challenge`.
/// `already_switched` must be true when this response answers our
/// AuthSwitchRequest (no second switch is offered then).
pub fn decide(
    plugin: &str,
    challenge: &Challenge,
    response: &[u8],
    cred: &StoredCredential,
    already_switched: bool,
) -> AuthDecision {
    let nonce = &challenge.scramble;
    if let Some(key) = &cred.ed25519 {
        // The greeting offered mysql_native_password: an ed25519 account's
        // client is always asked for its signature of a fresh nonce.
        return match plugin {
            ED25519_PLUGIN if already_switched && verify_ed25519(key, &challenge.ed25519_nonce, response) => {
                AuthDecision::Accept
            }
            _ if !already_switched => AuthDecision::SwitchTo(ED25519_PLUGIN),
            _ => AuthDecision::Reject,
        };
    }
    match plugin {
        CACHING_SHA2_PLUGIN => match cred.sha2 {
            Some(h) if verify_sha2(&h, nonce, response) => AuthDecision::AcceptFastAuth,
            // libmariadb's caching_sha2_password plugin sends nothing in the
            // first packet when the server announced another plugin: ask it
            // again, with the nonce, under its own plugin name.
            Some(_) if response.is_empty() && !already_switched => AuthDecision::SwitchTo(CACHING_SHA2_PLUGIN),
            Some(_) => AuthDecision::Reject,
            // A scramble there is no hash to check against: ask for the
            // password.
            None if !response.is_empty() && cred.native.is_some() => AuthDecision::FullAuth,
            None if !already_switched => AuthDecision::SwitchTo(NATIVE_PASSWORD_PLUGIN),
            None => AuthDecision::Reject,
        },
        NATIVE_PASSWORD_PLUGIN | "" => match cred.native {
            Some(h) if verify_native(&h, nonce, response) => AuthDecision::Accept,
            _ => AuthDecision::Reject,
        },
        _ if !already_switched => AuthDecision::SwitchTo(NATIVE_PASSWORD_PLUGIN),
        _ => AuthDecision::Reject,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysql_common::auth::plugins::caching_sha2_password::scramble_sha256;
    use mysql_common::auth::plugins::mysql_native_password::scramble_native;

    const NONCE: [u8; 20] = *b"0123456789abcdefghij";

    #[test]
    fn native_known_hash() {
        // PASSWORD('password') in MySQL.
        assert_eq!(native_hash_to_hex(&hash_native(b"password")), "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19");
        let h = hash_native(b"password");
        assert_eq!(native_hash_from_hex(&native_hash_to_hex(&h)), Some(h));
        assert_eq!(native_hash_from_hex("*2470c0c06dee42fd1618bb99005adca2ec9d1e19"), Some(h));
        assert_eq!(native_hash_from_hex("2470"), None);
        assert_eq!(native_hash_from_hex("*ZZ70C0C06DEE42FD1618BB99005ADCA2EC9D1E19"), None);
    }

    #[test]
    fn native_against_mysql_common() {
        for pw in [&b"secret"[..], b"p", b"\xff\x00unicode\xc3\xa9", &[b'x'; 100]] {
            let resp = scramble_native(&NONCE, pw).unwrap();
            let stored = hash_native(pw);
            assert!(verify_native(&stored, &NONCE, &resp));
            assert!(!verify_native(&hash_native(b"other"), &NONCE, &resp));
            assert!(!verify_native(&stored, b"0123456789abcdefghiX", &resp));
            assert!(!verify_native(&stored, &NONCE, &resp[..19]));
            assert!(!verify_native(&stored, &NONCE, &[]));
        }
        // Empty password <-> empty response.
        assert!(scramble_native(&NONCE, b"").is_none());
        assert!(verify_native(&hash_native(b""), &NONCE, &[]));
        assert!(!verify_native(&hash_native(b""), &NONCE, &[0; 20]));
    }

    #[test]
    fn sha2_against_mysql_common() {
        for pw in [&b"secret"[..], b"p", &[b'y'; 80]] {
            let resp = scramble_sha256(&NONCE, pw).unwrap();
            let stored = hash_sha2(pw);
            assert!(verify_sha2(&stored, &NONCE, &resp));
            let mut with_nul = resp.to_vec();
            with_nul.push(0);
            assert!(verify_sha2(&stored, &NONCE, &with_nul));
            assert!(!verify_sha2(&hash_sha2(b"other"), &NONCE, &resp));
            assert!(!verify_sha2(&stored, &NONCE, &resp[..31]));
        }
        assert!(verify_sha2(&hash_sha2(b""), &NONCE, &[]));
        assert!(!verify_sha2(&hash_sha2(b"x"), &NONCE, &[]));
    }

    fn challenge() -> Challenge {
        Challenge { scramble: NONCE, ed25519_nonce: *b"0123456789abcdefghij0123456789ab" }
    }

    /// client_ed25519's signature: the expanded secret key is
    /// SHA-512(password), as MariaDB's client plugin derives it.
    fn ed25519_sign(password: &[u8], nonce: &[u8]) -> ([u8; 32], Vec<u8>) {
        use sha2::Sha512;
        let expanded: [u8; 64] = Sha512::digest(password).into();
        let secret = ed25519_dalek::hazmat::ExpandedSecretKey::from_bytes(&expanded);
        let public = ed25519_dalek::VerifyingKey::from(&secret);
        let signature = ed25519_dalek::hazmat::raw_sign::<sha2_10::Sha512>(&secret, nonce, &public);
        (public.to_bytes(), signature.to_bytes().to_vec())
    }

    #[test]
    fn ed25519_decisions() {
        let c = challenge();
        let (key, signature) = ed25519_sign(b"pw", &c.ed25519_nonce);
        let cred = StoredCredential { ed25519: Some(key), ..Default::default() };
        let native = scramble_native(&NONCE, b"pw").unwrap();
        assert_eq!(decide(NATIVE_PASSWORD_PLUGIN, &c, &native, &cred, false), AuthDecision::SwitchTo(ED25519_PLUGIN));
        assert_eq!(c.switch_data(ED25519_PLUGIN), c.ed25519_nonce);
        assert_eq!(decide(ED25519_PLUGIN, &c, &signature, &cred, true), AuthDecision::Accept);
        // Not before the nonce was sent, not for another nonce or password.
        assert_eq!(decide(ED25519_PLUGIN, &c, &signature, &cred, false), AuthDecision::SwitchTo(ED25519_PLUGIN));
        let (_, other_nonce) = ed25519_sign(b"pw", &NONCE);
        assert_eq!(decide(ED25519_PLUGIN, &c, &other_nonce, &cred, true), AuthDecision::Reject);
        let (_, other_password) = ed25519_sign(b"pW", &c.ed25519_nonce);
        assert_eq!(decide(ED25519_PLUGIN, &c, &other_password, &cred, true), AuthDecision::Reject);
        assert_eq!(decide(NATIVE_PASSWORD_PLUGIN, &c, &native, &cred, true), AuthDecision::Reject);
        assert_eq!(decide(ED25519_PLUGIN, &c, &signature[..63], &cred, true), AuthDecision::Reject);
        // The all-zero key of an account without one verifies nothing.
        let keyless = StoredCredential { ed25519: Some([0; 32]), ..Default::default() };
        assert_eq!(decide(ED25519_PLUGIN, &c, &[0; 64], &keyless, true), AuthDecision::Reject);
        assert_eq!(decide(ED25519_PLUGIN, &c, &signature, &keyless, true), AuthDecision::Reject);
    }

    #[test]
    fn decisions() {
        let cred = StoredCredential::from_password(b"pw");
        let native = scramble_native(&NONCE, b"pw").unwrap();
        let sha = scramble_sha256(&NONCE, b"pw").unwrap();
        assert_eq!(decide(NATIVE_PASSWORD_PLUGIN, &challenge(), &native, &cred, false), AuthDecision::Accept);
        assert_eq!(decide(NATIVE_PASSWORD_PLUGIN, &challenge(), &sha, &cred, false), AuthDecision::Reject);
        assert_eq!(decide(CACHING_SHA2_PLUGIN, &challenge(), &sha, &cred, false), AuthDecision::AcceptFastAuth);
        assert_eq!(decide(CACHING_SHA2_PLUGIN, &challenge(), &native, &cred, false), AuthDecision::Reject);
        let native_only = StoredCredential { native: cred.native, ..Default::default() };
        assert_eq!(decide(CACHING_SHA2_PLUGIN, &challenge(), &sha, &native_only, false), AuthDecision::FullAuth);
        assert_eq!(decide(CACHING_SHA2_PLUGIN, &challenge(), &sha, &native_only, true), AuthDecision::FullAuth);
        // libmariadb's first, empty, caching_sha2_password packet.
        assert_eq!(
            decide(CACHING_SHA2_PLUGIN, &challenge(), &[], &native_only, false),
            AuthDecision::SwitchTo(NATIVE_PASSWORD_PLUGIN)
        );
        assert_eq!(decide(CACHING_SHA2_PLUGIN, &challenge(), &[], &native_only, true), AuthDecision::Reject);
        let nothing = StoredCredential::default();
        assert_eq!(decide(CACHING_SHA2_PLUGIN, &challenge(), &sha, &nothing, true), AuthDecision::Reject);
        assert_eq!(decide("dialog", &challenge(), b"zz", &cred, false), AuthDecision::SwitchTo(NATIVE_PASSWORD_PLUGIN));
        assert_eq!(decide("", &challenge(), &native, &cred, false), AuthDecision::Accept);
    }
}
