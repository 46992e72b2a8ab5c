//! Account statements' syntax tree: CREATE / ALTER / DROP / RENAME USER,
//! SET PASSWORD, GRANT, REVOKE, SHOW GRANTS and SHOW CREATE USER, as
//! `parse::account` reads them and `accounts` runs them.

/// `'user'@'host'`; a name without `@host` is `'user'@'%'`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct UserName {
    pub user: String,
    pub host: String,
}

impl UserName {
    /// `'user'@'host'` as MariaDB names an account in messages.
    pub fn quoted(&self) -> String {
        format!("'{}'@'{}'", self.user, self.host)
    }

    /// `` `user`@`host` `` as SHOW GRANTS and SHOW CREATE USER print it.
    pub fn backquoted(&self) -> String {
        format!("`{}`@`{}`", self.user.replace('`', "``"), self.host.replace('`', "``"))
    }

    /// SQL text that reads back as this name (the logged form).
    pub fn sql(&self) -> String {
        format!("{}@{}", sql_string(&self.user), sql_string(&self.host))
    }
}

/// A string literal for logged SQL text.
pub fn sql_string(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `IDENTIFIED ...`: how an account authenticates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// `IDENTIFIED BY 'plaintext'` (or `USING PASSWORD('plaintext')`):
    /// executed and logged as its hash, never as itself.
    Password(String),
    /// `IDENTIFIED BY PASSWORD '*HEX'` / `AS '*HEX'`: the stored hash ("" is
    /// no password).
    Hash(String),
    /// `IDENTIFIED VIA|WITH plugin [USING ...]` for a plugin other than
    /// mysql_native_password, with its `USING PASSWORD('pw')` (a
    /// `Password`) or `USING 'auth string'` (a `Hash`).
    Plugin(AuthPlugin, Option<Box<Auth>>),
}

/// The authentication plugins OneLog has built in, as MariaDB names them
/// in `mysql.user.plugin` and `IDENTIFIED VIA`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthPlugin {
    #[default]
    MysqlNativePassword,
    /// MariaDB's auth_ed25519: the stored string is the base64 public key.
    Ed25519,
    /// The client process's OS user must be the account's user.
    UnixSocket,
}

impl AuthPlugin {
    pub fn name(self) -> &'static str {
        match self {
            AuthPlugin::MysqlNativePassword => "mysql_native_password",
            AuthPlugin::Ed25519 => "ed25519",
            AuthPlugin::UnixSocket => "unix_socket",
        }
    }

    /// By name, without case; `None` for one OneLog does not have.
    pub fn from_name(name: &str) -> Option<AuthPlugin> {
        [AuthPlugin::MysqlNativePassword, AuthPlugin::Ed25519, AuthPlugin::UnixSocket]
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }

    pub fn is_native(&self) -> bool {
        *self == AuthPlugin::MysqlNativePassword
    }
}

/// `REQUIRE ...`, stored and shown; enforced at connect by the TLS work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Require {
    #[default]
    None,
    Ssl,
    X509,
}

/// The per-account resource limits MariaDB keeps (`WITH ...`), in the order
/// SHOW GRANTS prints them.
pub const LIMIT_NAMES: [&str; 5] = [
    "MAX_QUERIES_PER_HOUR",
    "MAX_UPDATES_PER_HOUR",
    "MAX_CONNECTIONS_PER_HOUR",
    "MAX_USER_CONNECTIONS",
    "MAX_STATEMENT_TIME",
];

/// What CREATE / ALTER USER and GRANT set besides privileges; `None`
/// leaves a setting as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AccountOptions {
    pub require: Option<Require>,
    /// (index into [`LIMIT_NAMES`], value).
    pub limits: Vec<(usize, u64)>,
    pub lock: Option<bool>,
    pub password_expire: Option<bool>,
}

/// One account named with its optional authentication.
#[derive(Debug, Clone, PartialEq)]
pub struct UserSpec {
    pub name: UserName,
    pub auth: Option<Auth>,
}

/// `ON *.*`, `ON db.*` (`None`: the current database), `ON [db.]table`.
#[derive(Debug, Clone, PartialEq)]
pub enum PrivLevel {
    Global,
    Db(Option<String>),
    Table(Option<String>, String),
}

/// One privilege of a GRANT / REVOKE list: its bit (see `accounts::privs`)
/// and the columns it is limited to, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct PrivItem {
    pub bits: u64,
    pub columns: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AccountStmt {
    CreateUser {
        or_replace: bool,
        if_not_exists: bool,
        users: Vec<UserSpec>,
        options: AccountOptions,
    },
    AlterUser {
        if_exists: bool,
        users: Vec<UserSpec>,
        options: AccountOptions,
    },
    DropUser {
        if_exists: bool,
        users: Vec<UserName>,
    },
    RenameUser(Vec<(UserName, UserName)>),
    /// `SET PASSWORD [FOR user] = ...`; `None`: the current account.
    SetPassword {
        user: Option<UserName>,
        auth: Auth,
    },
    /// `all`: ALL [PRIVILEGES] (privs is empty then).
    Grant {
        privs: Vec<PrivItem>,
        all: bool,
        level: PrivLevel,
        to: Vec<UserSpec>,
        grant_option: bool,
        options: AccountOptions,
    },
    Revoke {
        privs: Vec<PrivItem>,
        all: bool,
        grant_option: bool,
        level: PrivLevel,
        from: Vec<UserName>,
    },
    /// `REVOKE ALL PRIVILEGES, GRANT OPTION FROM ...`.
    RevokeAll {
        from: Vec<UserName>,
    },
    /// `None`: the current account.
    ShowGrants(Option<UserName>),
    ShowCreateUser(Option<UserName>),
}

impl AccountStmt {
    /// Whether it changes accounts (and is logged), as opposed to SHOW.
    pub fn writes(&self) -> bool {
        !matches!(self, AccountStmt::ShowGrants(_) | AccountStmt::ShowCreateUser(_))
    }
}
