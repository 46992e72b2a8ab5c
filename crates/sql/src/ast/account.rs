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

    /// SQL text that reads back as this name (the logged form): a name
    /// written without a host is logged without one, so that a replay
    /// (or a replica) resolves it to a role or to `'user'@'%'` as the
    /// statement did.
    pub fn sql(&self) -> String {
        if self.host == HOST_NOT_GIVEN {
            return sql_string(&self.user);
        }
        format!("{}@{}", sql_string(&self.user), sql_string(&self.host))
    }

    /// A role's name in the account store: the role's name, host "" (as
    /// MariaDB keeps roles in mysql.user).
    pub fn role(name: &str) -> UserName {
        UserName { user: name.to_string(), host: String::new() }
    }

    /// `` `user`@`host` ``, or `` `role` `` for a role (SHOW GRANTS).
    pub fn grantee_backquoted(&self, is_role: bool) -> String {
        if is_role {
            format!("`{}`", self.user.replace('`', "``"))
        } else {
            self.backquoted()
        }
    }
}

/// The host of a name written without `@host` where a role may stand
/// (GRANT ... TO, REVOKE ... FROM, SHOW GRANTS FOR, WITH ADMIN): the role
/// of that name if there is one, else `'name'@'%'`, resolved against the
/// accounts when the statement runs (`accounts::grantee`), as MariaDB's
/// `get_current_user` does. Never stored: no host can hold a NUL.
pub const HOST_NOT_GIVEN: &str = "\0";

/// A string literal for logged SQL text.
pub fn sql_string(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A REQUIRE string as MariaDB quotes it in SHOW GRANTS: `'` doubled,
/// `\` escaped.
fn require_string(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "''"))
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

/// `REQUIRE ...`, stored and shown; enforced at login (the server's TLS
/// module).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Require {
    #[default]
    None,
    Ssl,
    X509,
    /// `ISSUER` / `SUBJECT` / `CIPHER` (MariaDB's ssl_type SPECIFIED).
    Specified(Box<RequireSpecified>),
}

/// What `REQUIRE ISSUER ... SUBJECT ... CIPHER ...` names. Issuer and
/// subject are compared with the client certificate's names in OpenSSL's
/// one-line form (`/C=US/O=Org/CN=name`); empty means not required, as
/// MariaDB's `x509_issuer[0]` test. The cipher is OpenSSL's name of the
/// negotiated suite.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct RequireSpecified {
    pub issuer: String,
    pub subject: String,
    pub cipher: Option<String>,
}

impl Require {
    /// The clause as SHOW GRANTS and the logged statement spell it
    /// (empty for NONE), with a leading space.
    pub fn clause(&self) -> String {
        match self {
            Require::None => String::new(),
            Require::Ssl => " REQUIRE SSL".into(),
            Require::X509 => " REQUIRE X509".into(),
            Require::Specified(spec) => {
                let mut parts = Vec::new();
                if !spec.issuer.is_empty() {
                    parts.push(format!("ISSUER {}", require_string(&spec.issuer)));
                }
                if !spec.subject.is_empty() {
                    parts.push(format!("SUBJECT {}", require_string(&spec.subject)));
                }
                if let Some(cipher) = &spec.cipher {
                    parts.push(format!("CIPHER {}", require_string(cipher)));
                }
                format!(" REQUIRE {}", parts.join(" "))
            }
        }
    }
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

/// Indexes into [`LIMIT_NAMES`] (and an account's limits).
pub const MAX_QUERIES_PER_HOUR: usize = 0;
pub const MAX_UPDATES_PER_HOUR: usize = 1;
pub const MAX_CONNECTIONS_PER_HOUR: usize = 2;
pub const MAX_USER_CONNECTIONS: usize = 3;

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
    /// `CREATE [OR REPLACE] ROLE [IF NOT EXISTS] r [WITH ADMIN ...]`.
    CreateRole {
        or_replace: bool,
        if_not_exists: bool,
        role: String,
        admin: RoleAdmin,
    },
    DropRole {
        if_exists: bool,
        roles: Vec<String>,
    },
    /// `GRANT role TO ... [WITH ADMIN OPTION]`.
    GrantRole {
        role: String,
        to: Vec<UserName>,
        admin_option: bool,
    },
    /// `REVOKE [ADMIN OPTION FOR] role FROM ...`.
    RevokeRole {
        role: String,
        admin_option_only: bool,
        from: Vec<UserName>,
    },
    /// `SET ROLE role | NONE`: the session's alone, never logged.
    SetRole(Option<String>),
    /// `SET DEFAULT ROLE role | NONE [FOR user]`; `None` user: the
    /// current account.
    SetDefaultRole {
        role: Option<String>,
        user: Option<UserName>,
    },
    /// `None`: the current account, with its enabled role's grants.
    ShowGrants(Option<UserName>),
    /// `SHOW GRANTS FOR CURRENT_USER`: the account's own grants alone.
    ShowGrantsForCurrentUser,
    /// `SHOW GRANTS FOR CURRENT_ROLE`.
    ShowGrantsForCurrentRole,
    ShowCreateUser(Option<UserName>),
}

impl AccountStmt {
    /// Whether it changes accounts (and is logged), as opposed to SHOW.
    pub fn writes(&self) -> bool {
        !matches!(
            self,
            AccountStmt::ShowGrants(_)
                | AccountStmt::ShowGrantsForCurrentUser
                | AccountStmt::ShowGrantsForCurrentRole
                | AccountStmt::ShowCreateUser(_)
                | AccountStmt::SetRole(_)
        )
    }
}

/// Who `CREATE ROLE ... WITH ADMIN` makes the role's first admin.
#[derive(Debug, Clone, PartialEq)]
pub enum RoleAdmin {
    CurrentUser,
    CurrentRole,
    Named(UserName),
}
