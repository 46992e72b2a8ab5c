//! The accounts a data directory starts with, and login credentials.
//!
//! Accounts are catalog data (see `onelog_sql::accounts`), changed by SQL
//! through the binlog. On the first start OneLog creates `root@localhost`
//! and `root@%` with all privileges and a random password (printed once
//! and written 0600) or, with `--initialize-insecure`, an empty one. With
//! `--auth-root-authentication-method=socket` (mariadb-install-db's option,
//! the way Debian's MariaDB starts) there is no password and no remote
//! root: `root@localhost` and the OS user the server runs as log in through
//! the Unix socket as that OS user (the unix_socket plugin). A data
//! directory from before accounts were catalog data has them in
//! `onelog-users.json`: they are moved into the catalog on its first start
//! and the file is renamed `onelog-users.json.migrated`.

use onelog_protocol::auth::{hash_native, hash_sha2, native_hash_from_hex, StoredCredential};
use onelog_sql::accounts::{ed25519_key, native_hash, privs, Account};
use onelog_sql::ast::account::{AuthPlugin, UserName};
use onelog_sql::Engine;
use rand::Rng;
use serde::Deserialize;
use std::io::Write;
use std::path::Path;

const LEGACY_USERS_FILE: &str = "onelog-users.json";
const INITIAL_PASSWORD_FILE: &str = "initial-root-password";

/// An account as `onelog-users.json` kept it.
#[derive(Deserialize)]
struct LegacyAccount {
    user: String,
    host: String,
    /// `*HEX` of SHA1(SHA1(password)).
    native_hash: String,
    /// Hex of SHA256(SHA256(password)).
    sha2_hash: String,
}

impl LegacyAccount {
    fn into_account(self) -> Account {
        // The catalog keeps MariaDB's "" for no password.
        let empty = native_hash_from_hex(&self.native_hash) == Some(hash_native(b""));
        let auth_string = if empty { String::new() } else { self.native_hash };
        root_like(UserName { user: self.user, host: self.host }, auth_string, Some(self.sha2_hash))
    }
}

/// An account with every privilege, as root has.
fn root_like(name: UserName, auth_string: String, sha2_hash: Option<String>) -> Account {
    let mut account = Account::new(name, auth_string);
    account.sha2_hash = sha2_hash;
    account.global = privs::GLOBAL_ALL;
    account
}

/// How the first root account authenticates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootAuth {
    /// A password (random, or empty with --initialize-insecure).
    Normal,
    /// unix_socket, for `root@localhost` and the server's OS user.
    Socket,
}

impl RootAuth {
    pub fn from_option(value: Option<&str>) -> anyhow::Result<RootAuth> {
        match value.map(str::to_ascii_lowercase).as_deref() {
            None | Some("normal") => Ok(RootAuth::Normal),
            Some("socket") => Ok(RootAuth::Socket),
            Some(other) => {
                anyhow::bail!("--auth-root-authentication-method must be normal or socket, not '{other}'")
            }
        }
    }
}

/// Creates the first accounts of a data directory that has none yet.
pub fn initialize(engine: &Engine, datadir: &Path, insecure: bool, root_auth: RootAuth) -> anyhow::Result<()> {
    if engine.accounts_initialized()? {
        return Ok(());
    }
    let legacy = datadir.join(LEGACY_USERS_FILE);
    let accounts = if legacy.exists() {
        let old: Vec<LegacyAccount> = serde_json::from_slice(&std::fs::read(&legacy)?)?;
        old.into_iter().map(LegacyAccount::into_account).collect()
    } else if root_auth == RootAuth::Socket {
        socket_root()
    } else {
        initial_root(datadir, insecure)?
    };
    engine.bootstrap_accounts(accounts)?;
    if legacy.exists() {
        let migrated = datadir.join(format!("{LEGACY_USERS_FILE}.migrated"));
        std::fs::rename(&legacy, &migrated)?;
        tracing::info!("accounts moved from {} into the catalog", legacy.display());
    }
    Ok(())
}

fn initial_root(datadir: &Path, insecure: bool) -> anyhow::Result<Vec<Account>> {
    let password = if insecure { String::new() } else { random_password() };
    let sha2 = Some(hex(&hash_sha2(password.as_bytes())));
    let root = |host: &str| {
        root_like(UserName { user: "root".into(), host: host.into() }, native_hash(password.as_bytes()), sha2.clone())
    };
    let accounts = vec![root("localhost"), root("%")];
    if !insecure {
        write_private(&datadir.join(INITIAL_PASSWORD_FILE), format!("{password}\n").as_bytes())?;
        println!("A temporary password is generated for root@localhost: {password}");
        println!("It is also in {} (mode 0600).", datadir.join(INITIAL_PASSWORD_FILE).display());
    } else {
        tracing::warn!("root@localhost is created with an empty password because --initialize-insecure was given");
    }
    Ok(accounts)
}

/// `root@localhost` and the server's OS user at localhost, with every
/// privilege, identified via unix_socket (as mariadb-install-db's socket
/// method makes them, without its `OR mysql_native_password USING
/// 'invalid'` alternative, which OneLog has no chains of plugins for).
fn socket_root() -> Vec<Account> {
    let mut users = vec!["root".to_string()];
    users.extend(crate::peer::own_user_name().filter(|name| name != "root"));
    tracing::info!(
        "{} at localhost log in through the Unix socket as the same OS user (unix_socket)",
        users.join(", ")
    );
    users
        .into_iter()
        .map(|user| {
            let mut account = root_like(UserName { user, host: "localhost".into() }, String::new(), None);
            account.plugin = AuthPlugin::UnixSocket;
            account
        })
        .collect()
}

/// SHA256(SHA256(password)) of accounts whose password a
/// caching_sha2_password full authentication has seen since the start, so
/// that their next logins take the fast path, as MySQL 8's cache does. The
/// binlog carries only the native hash, so an account created by SQL has
/// no SHA-256 hash until its owner logs in once. An entry holds the native
/// hash it was learnt with: a password change makes it stale, never wrong.
/// In memory only, like MySQL's.
#[derive(Default)]
pub struct Sha2Cache {
    entries: parking_lot::Mutex<std::collections::HashMap<UserName, CachedSha2>>,
}

struct CachedSha2 {
    auth_string: String,
    sha2: [u8; 32],
}

/// Bounds the cache's memory: past it, entries are no longer added (their
/// accounts keep logging in through full authentication).
const SHA2_CACHE_MAX_ENTRIES: usize = 65_536;

impl Sha2Cache {
    /// Remembers the hash of `password`, which a full authentication just
    /// verified against `account`.
    pub fn learn(&self, account: &Account, password: &[u8]) {
        let mut entries = self.entries.lock();
        if entries.len() < SHA2_CACHE_MAX_ENTRIES || entries.contains_key(&account.name) {
            let entry = CachedSha2 { auth_string: account.auth_string.clone(), sha2: hash_sha2(password) };
            entries.insert(account.name.clone(), entry);
        }
    }

    /// `account`'s credential, with the cached SHA-256 hash when the
    /// account has none of its own and its password has not changed.
    pub fn credential(&self, account: &Account) -> StoredCredential {
        let mut cred = credential(account);
        if cred.sha2.is_none() && account.plugin == AuthPlugin::MysqlNativePassword {
            let entries = self.entries.lock();
            cred.sha2 = entries.get(&account.name).filter(|e| e.auth_string == account.auth_string).map(|e| e.sha2);
        }
        cred
    }
}

/// What the auth plugins verify a login against. An ed25519 account
/// without a valid key gets the all-zero one, which verifies nothing.
fn credential(account: &Account) -> StoredCredential {
    match account.plugin {
        AuthPlugin::Ed25519 => {
            let key = ed25519_key(&account.auth_string).unwrap_or([0; 32]);
            return StoredCredential { ed25519: Some(key), ..Default::default() };
        }
        // No password logs a unix_socket account in.
        AuthPlugin::UnixSocket => return StoredCredential::default(),
        AuthPlugin::MysqlNativePassword => {}
    }
    let native = if account.auth_string.is_empty() {
        Some(hash_native(b""))
    } else {
        native_hash_from_hex(&account.auth_string)
    };
    let sha2 = match &account.sha2_hash {
        Some(h) => unhex32(h),
        None if account.auth_string.is_empty() => Some(hash_sha2(b"")),
        None => None,
    };
    StoredCredential { native, sha2, ed25519: None }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex32(s: &str) -> Option<[u8; 32]> {
    let bytes: Option<Vec<u8>> =
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect();
    bytes?.try_into().ok()
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
