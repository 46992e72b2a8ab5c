//! caching_sha2_password's full authentication, server side: when the
//! server has no SHA-256 hash of an account's password to check the
//! scramble against (an account created by SQL, whose log carries only the
//! mysql_native_password hash), it answers `0x04` (perform full
//! authentication) and the client sends the password itself: in clear
//! over TLS, otherwise encrypted with the server's RSA public key, which it
//! asks for with `0x02`. The password is then checked against the stored
//! hashes as `IDENTIFIED BY` made them.

use crate::auth::{hash_native, hash_sha2, StoredCredential};
use rsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use rsa::{Oaep, RsaPrivateKey};

/// AuthMoreData body asking the client for its password.
pub const PERFORM_FULL_AUTH: u8 = 0x04;
/// The client's packet asking for the server's RSA public key.
pub const REQUEST_PUBLIC_KEY: u8 = 0x02;
/// Bits of the key pair made for a data directory (MySQL's default).
const RSA_BITS: usize = 2048;

#[derive(Debug, thiserror::Error)]
pub enum RsaKeyError {
    #[error("RSA key: {0}")]
    Rsa(#[from] rsa::Error),
    #[error("RSA key PEM: {0}")]
    Pkcs8(#[from] rsa::pkcs8::Error),
    #[error("RSA public key PEM: {0}")]
    Spki(#[from] rsa::pkcs8::spki::Error),
}

/// The server's RSA key pair for password exchange.
pub struct RsaKeys {
    private: RsaPrivateKey,
    /// SubjectPublicKeyInfo PEM, as MySQL sends it to clients.
    public_pem: String,
}

impl RsaKeys {
    pub fn generate() -> Result<RsaKeys, RsaKeyError> {
        Self::from_private(RsaPrivateKey::new(&mut rsa::rand_core::OsRng, RSA_BITS)?)
    }

    /// From a PKCS#8 PEM private key (`private_key.pem`).
    pub fn from_private_pem(pem: &str) -> Result<RsaKeys, RsaKeyError> {
        Self::from_private(RsaPrivateKey::from_pkcs8_pem(pem)?)
    }

    fn from_private(private: RsaPrivateKey) -> Result<RsaKeys, RsaKeyError> {
        let public_pem = private.to_public_key().to_public_key_pem(LineEnding::LF)?;
        Ok(RsaKeys { private, public_pem })
    }

    pub fn private_pem(&self) -> Result<String, RsaKeyError> {
        Ok(self.private.to_pkcs8_pem(LineEnding::LF)?.to_string())
    }

    pub fn public_pem(&self) -> &str {
        &self.public_pem
    }

    /// The password a client encrypted: RSA-OAEP (SHA-1) of the password
    /// and a NUL, XORed with the scramble repeated. `None` for anything
    /// that does not decrypt.
    pub fn decrypt_password(&self, ciphertext: &[u8], scramble: &[u8]) -> Option<Vec<u8>> {
        let mut plain = self.private.decrypt(Oaep::new::<sha1_10::Sha1>(), ciphertext).ok()?;
        if scramble.is_empty() {
            return None;
        }
        for (i, b) in plain.iter_mut().enumerate() {
            *b ^= scramble[i % scramble.len()];
        }
        Some(plain)
    }
}

/// The password of a cleartext full-auth packet: its bytes up to the
/// terminating NUL (which some clients leave out).
pub fn cleartext_password(packet: &[u8]) -> &[u8] {
    match packet.iter().position(|b| *b == 0) {
        Some(end) => &packet[..end],
        None => packet,
    }
}

/// Whether `password` is the account's: against the SHA-256 hash when the
/// server has one, else the mysql_native_password hash.
pub fn verify_password(cred: &StoredCredential, password: &[u8]) -> bool {
    match (cred.sha2, cred.native) {
        (Some(stored), _) => crate::auth::constant_time_eq(&hash_sha2(password), &stored),
        (None, Some(stored)) => crate::auth::constant_time_eq(&hash_native(password), &stored),
        (None, None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::RsaPublicKey;

    #[test]
    fn rsa_round_trip_as_a_client_encrypts() {
        use rsa::pkcs8::DecodePublicKey;
        // A small key keeps the test fast; the server makes 2048 bits.
        let keys = RsaKeys::from_private(RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 1024).unwrap()).unwrap();
        let scramble = b"0123456789abcdefghij";
        let mut plain = b"a password longer than the twenty-byte scramble".to_vec();
        plain.push(0);
        let masked: Vec<u8> = plain.iter().enumerate().map(|(i, b)| b ^ scramble[i % 20]).collect();
        let public = RsaPublicKey::from_public_key_pem(keys.public_pem()).unwrap();
        let ciphertext = public.encrypt(&mut rsa::rand_core::OsRng, Oaep::new::<sha1_10::Sha1>(), &masked).unwrap();
        let password = keys.decrypt_password(&ciphertext, scramble).unwrap();
        assert_eq!(cleartext_password(&password), &plain[..plain.len() - 1]);
        assert_eq!(keys.decrypt_password(&ciphertext[1..], scramble), None);
        assert_eq!(keys.decrypt_password(b"", scramble), None);
        let again = RsaKeys::from_private_pem(&keys.private_pem().unwrap()).unwrap();
        assert_eq!(again.public_pem(), keys.public_pem());
    }

    #[test]
    fn passwords_check_against_either_hash() {
        let native_only = StoredCredential { native: Some(hash_native(b"pw")), ..Default::default() };
        assert!(verify_password(&native_only, b"pw"));
        assert!(!verify_password(&native_only, b"pW"));
        assert!(verify_password(&StoredCredential::from_password(b"pw"), b"pw"));
        assert!(!verify_password(&StoredCredential::default(), b""));
        assert_eq!(cleartext_password(b"pw\0"), b"pw");
        assert_eq!(cleartext_password(b"pw"), b"pw");
    }
}
