//! Accounts: initialization of root@localhost on a new data directory and
//! credential lookup. Passwords are stored only as the hashes the auth
//! plugins verify against (SHA1(SHA1(pw)) and SHA256(SHA256(pw))).

use onelog_protocol::auth::{hash_sha2, native_hash_from_hex, native_hash_to_hex, StoredCredential};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

const USERS_FILE: &str = "onelog-users.json";
const INITIAL_PASSWORD_FILE: &str = "initial-root-password";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Account {
    pub user: String,
    pub host: String,
    /// `*HEX` form of SHA1(SHA1(password)).
    pub native_hash: String,
    /// Hex of SHA256(SHA256(password)).
    pub sha2_hash: String,
}

impl Account {
    fn new(user: &str, host: &str, password: &str) -> Account {
        let cred = StoredCredential::from_password(password.as_bytes());
        Account {
            user: user.into(),
            host: host.into(),
            native_hash: cred.native.map(|h| native_hash_to_hex(&h)).unwrap_or_default(),
            sha2_hash: hex(&hash_sha2(password.as_bytes())),
        }
    }

    pub fn credential(&self) -> StoredCredential {
        StoredCredential { native: native_hash_from_hex(&self.native_hash), sha2: unhex32(&self.sha2_hash) }
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex32(s: &str) -> Option<[u8; 32]> {
    let bytes: Option<Vec<u8>> =
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect();
    bytes?.try_into().ok()
}

pub struct Users {
    accounts: Vec<Account>,
}

fn users_path(datadir: &Path) -> PathBuf {
    datadir.join(USERS_FILE)
}

impl Users {
    /// Loads accounts; on a new data directory creates root@localhost with
    /// a random password (printed once and written 0600) or, with
    /// `insecure`, an empty one.
    pub fn load_or_init(datadir: &Path, insecure: bool) -> anyhow::Result<Users> {
        let path = users_path(datadir);
        if path.exists() {
            let accounts: Vec<Account> = serde_json::from_slice(&std::fs::read(&path)?)?;
            return Ok(Users { accounts });
        }
        let password = if insecure { String::new() } else { random_password() };
        let accounts = vec![Account::new("root", "localhost", &password), Account::new("root", "%", &password)];
        if !insecure {
            write_private(&datadir.join(INITIAL_PASSWORD_FILE), format!("{password}\n").as_bytes())?;
            println!("A temporary password is generated for root@localhost: {password}");
            println!("It is also in {} (mode 0600).", datadir.join(INITIAL_PASSWORD_FILE).display());
        } else {
            tracing::warn!("root@localhost is created with an empty password because --initialize-insecure was given");
        }
        write_private(&path, &serde_json::to_vec_pretty(&accounts)?)?;
        Ok(Users { accounts })
    }

    /// The account matching user and client host (`localhost` for loopback
    /// and the socket), most specific host first.
    pub fn find(&self, user: &str, host: &str) -> Option<&Account> {
        self.accounts
            .iter()
            .find(|a| a.user == user && a.host == host)
            .or_else(|| self.accounts.iter().find(|a| a.user == user && a.host == "%"))
    }
}

fn random_password() -> String {
    const CHARS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789_-";
    let mut rng = rand::rng();
    (0..20).map(|_| CHARS[rng.random_range(0..CHARS.len())] as char).collect()
}

fn write_private(path: &Path, data: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path)?;
    f.write_all(data)?;
    f.sync_all()
}
