//! Property: no sequence of client packets authenticates without the right
//! credentials. Random auth responses (random bytes, and genuine responses
//! made with a wrong password, bit-flipped, truncated or answering another
//! nonce) are run through `decide` the way the server's handshake loop
//! runs it (one AuthSwitchRequest at most, then caching_sha2_password's
//! full authentication reading the password packet), for an account of
//! each plugin; the right password's responses must log in, so the
//! property is not vacuous.

use mysql_common::auth::plugins::caching_sha2_password::scramble_sha256;
use mysql_common::auth::plugins::mysql_native_password::scramble_native;
use onelog_protocol::auth::{decide, hash_native, AuthDecision, Challenge, StoredCredential};
use onelog_protocol::full_auth::{cleartext_password, verify_password};
use onelog_protocol::handshake::{CACHING_SHA2_PLUGIN, ED25519_PLUGIN, NATIVE_PASSWORD_PLUGIN};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const PASSWORD: &[u8] = b"the-right-password";
const PLUGINS: [&str; 5] = [NATIVE_PASSWORD_PLUGIN, CACHING_SHA2_PLUGIN, ED25519_PLUGIN, "", "dialog"];

/// The server's loop over `decide`: true when the client got in.
/// `packets` are the client's replies in order (its first auth response,
/// then one per server request).
fn logs_in<P: AsRef<[u8]>>(cred: &StoredCredential, challenge: &Challenge, first_plugin: &str, packets: &[P]) -> bool {
    let mut plugin = first_plugin.to_string();
    let mut switched = false;
    let mut replies = packets.iter();
    let Some(mut response) = replies.next() else { return false };
    loop {
        match decide(&plugin, challenge, response.as_ref(), cred, switched) {
            AuthDecision::Accept | AuthDecision::AcceptFastAuth => return true,
            AuthDecision::Reject => return false,
            AuthDecision::SwitchTo(p) => {
                plugin = p.to_string();
                switched = true;
            }
            // The password packet, as if it came over TLS (RSA decryption
            // only adds a way to fail).
            AuthDecision::FullAuth => {
                return replies.next().is_some_and(|p| verify_password(cred, cleartext_password(p.as_ref())));
            }
        }
        let Some(next) = replies.next() else { return false };
        response = next;
    }
}

/// client_ed25519's signature (expanded secret key SHA-512(password)).
fn ed25519_sign(password: &[u8], nonce: &[u8]) -> ([u8; 32], Vec<u8>) {
    use sha2_10::{Digest, Sha512};
    let expanded: [u8; 64] = Sha512::digest(password).into();
    let secret = ed25519_dalek::hazmat::ExpandedSecretKey::from_bytes(&expanded);
    let public = ed25519_dalek::VerifyingKey::from(&secret);
    let signature = ed25519_dalek::hazmat::raw_sign::<Sha512>(&secret, nonce, &public);
    (public.to_bytes(), signature.to_bytes().to_vec())
}

/// Every response a client with `password` could send to `challenge`.
fn responses(challenge: &Challenge, password: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![
        scramble_native(&challenge.scramble, password).map(|a| a.to_vec()).unwrap_or_default(),
        scramble_sha256(&challenge.scramble, password).map(|a| a.to_vec()).unwrap_or_default(),
        ed25519_sign(password, &challenge.ed25519_nonce).1,
    ];
    let mut cleartext = password.to_vec();
    cleartext.push(0);
    out.push(cleartext);
    out
}

fn accounts() -> Vec<(&'static str, StoredCredential)> {
    let (key, _) = ed25519_sign(PASSWORD, b"");
    vec![
        ("native and sha2", StoredCredential::from_password(PASSWORD)),
        ("native only", StoredCredential { native: Some(hash_native(PASSWORD)), ..Default::default() }),
        ("ed25519", StoredCredential { ed25519: Some(key), ..Default::default() }),
        ("ed25519 without a key", StoredCredential { ed25519: Some([0; 32]), ..Default::default() }),
        ("no credential", StoredCredential::default()),
    ]
}

/// One random client reply: noise, or a response of a wrong password, or
/// the right password's response damaged or made for another nonce.
fn wrong_reply(rng: &mut StdRng, challenge: &Challenge) -> Vec<u8> {
    let other = Challenge::random();
    match rng.random_range(0..5) {
        0 => (0..rng.random_range(0..80)).map(|_| rng.random()).collect(),
        1 => {
            let wrong = [b"the-right-passworD".as_slice(), b"", b"x"][rng.random_range(0..3)];
            let all = responses(challenge, wrong);
            all[rng.random_range(0..all.len())].clone()
        }
        2 => {
            let all = responses(&other, PASSWORD);
            all[rng.random_range(0..3)].clone()
        }
        3 => {
            let mut r = responses(challenge, PASSWORD)[rng.random_range(0..3)].clone();
            let at = rng.random_range(0..r.len());
            r[at] ^= 1 << rng.random_range(0..8);
            r
        }
        _ => {
            let r = responses(challenge, PASSWORD)[rng.random_range(0..3)].clone();
            r[..rng.random_range(0..r.len())].to_vec()
        }
    }
}

#[test]
fn no_packet_sequence_logs_in_without_the_password() {
    let mut rng = StdRng::seed_from_u64(0x0e1d_2551);
    for (name, cred) in accounts() {
        for _ in 0..3000 {
            let challenge = Challenge::random();
            let plugin = PLUGINS[rng.random_range(0..PLUGINS.len())];
            let packets: Vec<Vec<u8>> =
                (0..rng.random_range(1..4)).map(|_| wrong_reply(&mut rng, &challenge)).collect();
            assert!(!logs_in(&cred, &challenge, plugin, &packets), "{name}: {plugin} {packets:?} logged in");
        }
    }
}

#[test]
fn the_right_password_logs_in_for_each_plugin() {
    let challenge = Challenge::random();
    let [native, sha2, signature, cleartext] = <[Vec<u8>; 4]>::try_from(responses(&challenge, PASSWORD)).unwrap();
    let [both, native_only, ed25519, keyless, nothing] =
        <[(&str, StoredCredential); 5]>::try_from(accounts()).unwrap().map(|(_, c)| c);
    assert!(logs_in(&both, &challenge, NATIVE_PASSWORD_PLUGIN, &[&native]));
    assert!(logs_in(&both, &challenge, CACHING_SHA2_PLUGIN, &[&sha2]));
    assert!(logs_in(&native_only, &challenge, NATIVE_PASSWORD_PLUGIN, &[&native]));
    // Full authentication: the scramble, then the password.
    assert!(logs_in(&native_only, &challenge, CACHING_SHA2_PLUGIN, &[&sha2, &cleartext]));
    // ed25519: whatever the first packet, the switch, then the signature.
    assert!(logs_in(&ed25519, &challenge, NATIVE_PASSWORD_PLUGIN, &[&native, &signature]));
    assert!(logs_in(&ed25519, &challenge, CACHING_SHA2_PLUGIN, &[&sha2, &signature]));
    // Never with a key-less account or one without any credential.
    for cred in [keyless, nothing] {
        for first in PLUGINS {
            for a in [&native, &sha2, &signature, &cleartext] {
                for b in [&native, &sha2, &signature, &cleartext] {
                    assert!(!logs_in(&cred, &challenge, first, &[a, b]));
                }
            }
        }
    }
    // A signature sent before the nonce was asked for does not count.
    assert!(!logs_in(&ed25519, &challenge, ED25519_PLUGIN, &[&signature]));
}
