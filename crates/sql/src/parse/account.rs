//! Account statements (see `ast::account`), which sqlparser does not read:
//! a small tokenizer of their own, since `'user'@'host'` and multi-word
//! privilege names fit no SQL expression grammar.

use crate::accounts::privs;
use crate::ast::account::*;
use crate::ast::Statement;
use onelog_core::{ErrorCode, SqlError, SqlResult};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// An unquoted word, upper-cased, with its original spelling.
    Word(String, String),
    /// A quoted string or `identifier`.
    Quoted(String),
    Num(u64),
    Punct(char),
}

fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '\'' || c == '"' || c == '`' {
            let mut s = String::new();
            i += 1;
            loop {
                let ch = *chars.get(i)?;
                if ch == c && chars.get(i + 1) == Some(&c) {
                    s.push(c);
                    i += 2;
                } else if ch == c {
                    i += 1;
                    break;
                } else if ch == '\\' && c != '`' {
                    let next = *chars.get(i + 1)?;
                    s.push(match next {
                        'n' => '\n',
                        't' => '\t',
                        '0' => '\0',
                        other => other,
                    });
                    i += 2;
                } else {
                    s.push(ch);
                    i += 1;
                }
            }
            out.push(Tok::Quoted(s));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            out.push(Tok::Num(digits.parse().ok()?));
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            out.push(Tok::Word(word.to_ascii_uppercase(), word));
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    Some(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn error(&self) -> SqlError {
        // MariaDB quotes the text from the unexpected token; the statement
        // start is close enough for these short statements.
        let near: String = self.text.chars().take(80).collect();
        SqlError::parse(&near, 1)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w, _)) if w == word)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let is = self.is_word(word);
        if is {
            self.at += 1;
        }
        is
    }

    fn eat_words(&mut self, words: &[&str]) -> bool {
        let matched = words
            .iter()
            .enumerate()
            .all(|(i, w)| matches!(self.toks.get(self.at + i), Some(Tok::Word(x, _)) if x == w));
        if matched {
            self.at += words.len();
        }
        matched
    }

    fn expect_word(&mut self, word: &str) -> SqlResult<()> {
        if self.eat_word(word) {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let is = self.peek() == Some(&Tok::Punct(c));
        if is {
            self.at += 1;
        }
        is
    }

    fn expect_punct(&mut self, c: char) -> SqlResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    fn done(&self) -> SqlResult<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error()),
        }
    }

    fn string(&mut self) -> SqlResult<String> {
        match self.toks.get(self.at) {
            Some(Tok::Quoted(s)) => {
                self.at += 1;
                Ok(s.clone())
            }
            _ => Err(self.error()),
        }
    }

    fn number(&mut self) -> SqlResult<u64> {
        match self.toks.get(self.at) {
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(*n)
            }
            _ => Err(self.error()),
        }
    }

    /// A name part: quoted, or a bare word (kept as written).
    fn name(&mut self) -> SqlResult<String> {
        match self.toks.get(self.at) {
            Some(Tok::Quoted(s)) | Some(Tok::Word(_, s)) => {
                let s = s.clone();
                self.at += 1;
                Ok(s)
            }
            _ => Err(self.error()),
        }
    }

    /// `user[@host]`: the host defaults to `%`; host names compare without
    /// case, so they are kept lower-case, as MariaDB stores them.
    fn user(&mut self) -> SqlResult<UserName> {
        let user = self.name()?;
        let host = if self.eat_punct('@') { self.host()? } else { "%".to_string() };
        Ok(UserName { user, host })
    }

    /// A host after `@`: quoted, or bare words and numbers glued with dots
    /// (`u@localhost`, `u@127.0.0.1` as the tokenizer splits it).
    fn host(&mut self) -> SqlResult<String> {
        if let Some(Tok::Quoted(s)) = self.peek() {
            let s = s.to_lowercase();
            self.at += 1;
            return Ok(s);
        }
        let mut host = String::new();
        loop {
            match self.toks.get(self.at) {
                Some(Tok::Word(_, w)) => host.push_str(w),
                Some(Tok::Num(n)) => host.push_str(&n.to_string()),
                _ => return Err(self.error()),
            }
            self.at += 1;
            if !self.eat_punct('.') {
                return Ok(host.to_lowercase());
            }
            host.push('.');
        }
    }

    /// A name where a role may stand: without `@host` its host is
    /// [`HOST_NOT_GIVEN`], resolved when the statement runs.
    fn grantee(&mut self) -> SqlResult<UserName> {
        let user = self.name()?;
        let host = if self.eat_punct('@') { self.host()? } else { HOST_NOT_GIVEN.to_string() };
        Ok(UserName { user, host })
    }

    fn grantees(&mut self) -> SqlResult<Vec<UserName>> {
        let mut users = vec![self.grantee()?];
        while self.eat_punct(',') {
            users.push(self.grantee()?);
        }
        Ok(users)
    }

    /// `CURRENT_ROLE[()]` (or `CURRENT_USER[()]` with `word`).
    fn eat_function(&mut self, word: &str) -> SqlResult<bool> {
        if !self.eat_word(word) {
            return Ok(false);
        }
        if self.eat_punct('(') {
            self.expect_punct(')')?;
        }
        Ok(true)
    }

    /// A role name: NONE, PUBLIC and '' name no role (MariaDB's 1959).
    fn role_name(&mut self) -> SqlResult<String> {
        let name = self.name()?;
        if name.is_empty() || name.eq_ignore_ascii_case("none") || name.eq_ignore_ascii_case("public") {
            return Err(invalid_role(&name.to_ascii_uppercase()));
        }
        Ok(name)
    }

    /// Whether the next tokens are `name TO` / `name FROM` (a role
    /// granted or revoked, not a privilege list).
    fn at_role_then(&self, word: &str) -> bool {
        matches!(self.toks.get(self.at), Some(Tok::Quoted(_) | Tok::Word(..)))
            && matches!(self.toks.get(self.at + 1), Some(Tok::Word(w, _)) if w == word)
    }

    fn users(&mut self) -> SqlResult<Vec<UserName>> {
        let mut users = vec![self.user()?];
        while self.eat_punct(',') {
            users.push(self.user()?);
        }
        Ok(users)
    }

    /// `CURRENT_USER[()]` or a user name.
    fn user_or_current(&mut self) -> SqlResult<Option<UserName>> {
        if self.eat_word("CURRENT_USER") {
            if self.eat_punct('(') {
                self.expect_punct(')')?;
            }
            return Ok(None);
        }
        self.user().map(Some)
    }

    /// `role_ok`: GRANT's grantees, where a name without a host may be a
    /// role.
    fn user_spec(&mut self, role_ok: bool) -> SqlResult<UserSpec> {
        let name = if role_ok { self.grantee()? } else { self.user()? };
        let auth = if self.eat_word("IDENTIFIED") { Some(self.identified()?) } else { None };
        Ok(UserSpec { name, auth })
    }

    fn user_specs(&mut self, role_ok: bool) -> SqlResult<Vec<UserSpec>> {
        let mut specs = vec![self.user_spec(role_ok)?];
        while self.eat_punct(',') {
            specs.push(self.user_spec(role_ok)?);
        }
        Ok(specs)
    }

    /// After IDENTIFIED: `BY 'pw'`, `BY PASSWORD 'hash'`, `{VIA|WITH}
    /// plugin [{USING|AS} 'hash' | PASSWORD('pw')]`. A plugin OneLog has not
    /// built in fails as MariaDB fails for one it has not loaded.
    fn identified(&mut self) -> SqlResult<Auth> {
        if self.eat_word("BY") {
            return if self.eat_word("PASSWORD") {
                Ok(Auth::Hash(self.string()?))
            } else {
                Ok(Auth::Password(self.string()?))
            };
        }
        if !(self.eat_word("VIA") || self.eat_word("WITH")) {
            return Err(self.error());
        }
        let name = self.name()?;
        let plugin = AuthPlugin::from_name(&name)
            .ok_or_else(|| SqlError::new(ErrorCode::PLUGIN_IS_NOT_LOADED, format!("Plugin '{name}' is not loaded")))?;
        let using = if !(self.eat_word("USING") || self.eat_word("AS")) {
            None
        } else if self.eat_word("PASSWORD") {
            self.expect_punct('(')?;
            let pw = self.string()?;
            self.expect_punct(')')?;
            Some(Auth::Password(pw))
        } else {
            Some(Auth::Hash(self.string()?))
        };
        Ok(match (plugin, using) {
            (AuthPlugin::MysqlNativePassword, using) => using.unwrap_or(Auth::Hash(String::new())),
            (plugin, using) => Auth::Plugin(plugin, using.map(Box::new)),
        })
    }

    /// What follows REQUIRE: NONE, SSL, X509, or ISSUER / SUBJECT / CIPHER
    /// strings in any order, optionally joined by AND, each at most once
    /// (1225 as MariaDB).
    fn require(&mut self) -> SqlResult<Require> {
        for (word, require) in [("NONE", Require::None), ("SSL", Require::Ssl), ("X509", Require::X509)] {
            if self.eat_word(word) {
                return Ok(require);
            }
        }
        let mut spec = RequireSpecified::default();
        let mut seen: Vec<String> = Vec::new();
        let mut after_and = false;
        loop {
            let word = match self.peek() {
                Some(Tok::Word(w, _)) if ["ISSUER", "SUBJECT", "CIPHER"].contains(&w.as_str()) => w.clone(),
                _ if seen.is_empty() || after_and => return Err(self.error()),
                _ => break,
            };
            self.at += 1;
            if seen.contains(&word) {
                return Err(SqlError::new(ErrorCode::DUP_ARGUMENT, format!("Option '{word}' used twice in statement")));
            }
            let value = self.string()?;
            match word.as_str() {
                "ISSUER" => spec.issuer = value,
                "SUBJECT" => spec.subject = value,
                _ => spec.cipher = Some(value),
            }
            seen.push(word);
            after_and = self.eat_word("AND");
        }
        Ok(Require::Specified(Box::new(spec)))
    }

    /// REQUIRE, WITH limits, ACCOUNT LOCK|UNLOCK, PASSWORD EXPIRE, in any
    /// order; with `grant`, `WITH GRANT OPTION` too (returned).
    fn options(&mut self, grant: bool) -> SqlResult<(AccountOptions, bool)> {
        let mut options = AccountOptions::default();
        let mut grant_option = false;
        loop {
            if self.eat_word("REQUIRE") {
                options.require = Some(self.require()?);
            } else if self.eat_word("WITH") {
                while let Some(Tok::Word(w, _)) = self.peek().cloned() {
                    if grant && w == "GRANT" {
                        self.at += 1;
                        self.expect_word("OPTION")?;
                        grant_option = true;
                    } else if let Some(i) = LIMIT_NAMES.iter().position(|n| *n == w) {
                        self.at += 1;
                        options.limits.push((i, self.number()?));
                    } else {
                        break;
                    }
                }
            } else if self.eat_word("ACCOUNT") {
                options.lock = Some(if self.eat_word("LOCK") {
                    true
                } else {
                    self.expect_word("UNLOCK")?;
                    false
                });
            } else if self.eat_words(&["PASSWORD", "EXPIRE"]) {
                if self.is_word("NEVER") || self.is_word("DEFAULT") || self.is_word("INTERVAL") {
                    return Err(SqlError::new(
                        ErrorCode::NOT_SUPPORTED_YET,
                        "This version of OneLog doesn't yet support 'password expiry policies'",
                    ));
                }
                options.password_expire = Some(true);
            } else {
                return Ok((options, grant_option));
            }
        }
    }

    /// CREATE / DROP ROLE, GRANT / REVOKE of a role, SET [DEFAULT] ROLE;
    /// `None` (nothing read) for other statements.
    fn role_statement(&mut self) -> SqlResult<Option<AccountStmt>> {
        let start = self.at;
        if self.eat_word("CREATE") {
            let or_replace = self.eat_words(&["OR", "REPLACE"]);
            if !self.eat_word("ROLE") {
                self.at = start;
                return Ok(None);
            }
            let if_not_exists = self.eat_words(&["IF", "NOT", "EXISTS"]);
            let role = self.role_name()?;
            let admin = if !self.eat_words(&["WITH", "ADMIN"]) || self.eat_function("CURRENT_USER")? {
                RoleAdmin::CurrentUser
            } else if self.eat_function("CURRENT_ROLE")? {
                RoleAdmin::CurrentRole
            } else {
                RoleAdmin::Named(self.grantee()?)
            };
            return Ok(Some(AccountStmt::CreateRole { or_replace, if_not_exists, role, admin }));
        }
        if self.eat_words(&["DROP", "ROLE"]) {
            let if_exists = self.eat_words(&["IF", "EXISTS"]);
            let mut roles = vec![self.name()?];
            while self.eat_punct(',') {
                roles.push(self.name()?);
            }
            return Ok(Some(AccountStmt::DropRole { if_exists, roles }));
        }
        if self.eat_word("GRANT") {
            if !self.at_role_then("TO") {
                self.at = start;
                return Ok(None);
            }
            let role = self.role_name()?;
            self.expect_word("TO")?;
            let to = self.grantees()?;
            let admin_option = self.eat_words(&["WITH", "ADMIN", "OPTION"]);
            return Ok(Some(AccountStmt::GrantRole { role, to, admin_option }));
        }
        if self.eat_word("REVOKE") {
            let admin_option_only = self.eat_words(&["ADMIN", "OPTION", "FOR"]);
            if !admin_option_only && !self.at_role_then("FROM") {
                self.at = start;
                return Ok(None);
            }
            let role = self.role_name()?;
            self.expect_word("FROM")?;
            return Ok(Some(AccountStmt::RevokeRole { role, admin_option_only, from: self.grantees()? }));
        }
        if self.eat_words(&["SET", "ROLE"]) {
            return Ok(Some(AccountStmt::SetRole(self.role_or_none()?)));
        }
        if self.eat_words(&["SET", "DEFAULT", "ROLE"]) {
            let role = self.role_or_none()?;
            let user = if self.eat_word("FOR") { Some(self.user()?) } else { None };
            return Ok(Some(AccountStmt::SetDefaultRole { role, user }));
        }
        Ok(None)
    }

    /// `role | NONE` of SET [DEFAULT] ROLE.
    fn role_or_none(&mut self) -> SqlResult<Option<String>> {
        if self.eat_word("NONE") {
            return Ok(None);
        }
        self.role_name().map(Some)
    }

    /// A privilege list up to ON (or FROM for `REVOKE ALL, GRANT OPTION`):
    /// (items, ALL, GRANT OPTION named in the list).
    fn privileges(&mut self) -> SqlResult<(Vec<PrivItem>, bool, bool)> {
        let mut items = Vec::new();
        let (mut all, mut grant_option) = (false, false);
        loop {
            let mut words = Vec::new();
            while let Some(Tok::Word(w, _)) = self.peek() {
                if w == "ON" || (w == "FROM" && !words.is_empty()) {
                    break;
                }
                words.push(w.clone());
                self.at += 1;
            }
            let phrase = words.join(" ");
            let columns = if self.eat_punct('(') {
                let mut cols = vec![self.name()?];
                while self.eat_punct(',') {
                    cols.push(self.name()?);
                }
                self.expect_punct(')')?;
                cols
            } else {
                Vec::new()
            };
            match phrase.as_str() {
                "ALL" | "ALL PRIVILEGES" => all = true,
                "GRANT OPTION" => grant_option = true,
                "" => return Err(self.error()),
                _ => {
                    let bits = privs::from_name(&phrase).ok_or_else(|| self.error())?;
                    items.push(PrivItem { bits, columns });
                }
            }
            if !self.eat_punct(',') {
                return Ok((items, all, grant_option));
            }
        }
    }

    /// After ON: `*`, `*.*`, `db.*`, `[db.]table`, optionally after TABLE.
    fn level(&mut self) -> SqlResult<PrivLevel> {
        self.eat_word("TABLE");
        if self.eat_punct('*') {
            if self.eat_punct('.') {
                self.expect_punct('*')?;
                return Ok(PrivLevel::Global);
            }
            return Ok(PrivLevel::Db(None));
        }
        let first = self.name()?;
        if !self.eat_punct('.') {
            return Ok(PrivLevel::Table(None, first));
        }
        if self.eat_punct('*') {
            return Ok(PrivLevel::Db(Some(first)));
        }
        Ok(PrivLevel::Table(Some(first), self.name()?))
    }

    fn statement(&mut self) -> SqlResult<Option<AccountStmt>> {
        let stmt = if let Some(stmt) = self.role_statement()? {
            stmt
        } else if self.eat_word("CREATE") {
            let or_replace = self.eat_words(&["OR", "REPLACE"]);
            if !self.eat_word("USER") {
                return Ok(None);
            }
            let if_not_exists = self.eat_words(&["IF", "NOT", "EXISTS"]);
            let users = self.user_specs(false)?;
            let (options, _) = self.options(false)?;
            AccountStmt::CreateUser { or_replace, if_not_exists, users, options }
        } else if self.eat_word("ALTER") {
            if !self.eat_word("USER") {
                return Ok(None);
            }
            let if_exists = self.eat_words(&["IF", "EXISTS"]);
            let users = self.user_specs(false)?;
            let (options, _) = self.options(false)?;
            AccountStmt::AlterUser { if_exists, users, options }
        } else if self.eat_word("DROP") {
            if !self.eat_word("USER") {
                return Ok(None);
            }
            let if_exists = self.eat_words(&["IF", "EXISTS"]);
            AccountStmt::DropUser { if_exists, users: self.users()? }
        } else if self.eat_word("RENAME") {
            if !self.eat_word("USER") {
                return Ok(None);
            }
            let mut pairs = Vec::new();
            loop {
                let from = self.user()?;
                self.expect_word("TO")?;
                pairs.push((from, self.user()?));
                if !self.eat_punct(',') {
                    break;
                }
            }
            AccountStmt::RenameUser(pairs)
        } else if self.eat_words(&["SET", "PASSWORD"]) {
            let user = if self.eat_word("FOR") { Some(self.user()?) } else { None };
            self.expect_punct('=')?;
            let auth = if self.eat_word("PASSWORD") {
                self.expect_punct('(')?;
                let pw = self.string()?;
                self.expect_punct(')')?;
                Auth::Password(pw)
            } else {
                Auth::Hash(self.string()?)
            };
            AccountStmt::SetPassword { user, auth }
        } else if self.eat_word("GRANT") {
            let (privs, all, listed_grant_option) = self.privileges()?;
            self.expect_word("ON")?;
            let level = self.level()?;
            self.expect_word("TO")?;
            let to = self.user_specs(true)?;
            let (options, grant_option) = self.options(true)?;
            AccountStmt::Grant { privs, all, level, to, grant_option: grant_option || listed_grant_option, options }
        } else if self.eat_word("REVOKE") {
            let (privs, all, grant_option) = self.privileges()?;
            if self.eat_word("FROM") {
                if !(all && grant_option && privs.is_empty()) {
                    return Err(self.error());
                }
                return Ok(Some(AccountStmt::RevokeAll { from: self.users()? }));
            }
            self.expect_word("ON")?;
            let level = self.level()?;
            self.expect_word("FROM")?;
            AccountStmt::Revoke { privs, all, grant_option, level, from: self.grantees()? }
        } else if self.eat_words(&["SHOW", "GRANTS"]) {
            if !self.eat_word("FOR") {
                AccountStmt::ShowGrants(None)
            } else if self.eat_function("CURRENT_ROLE")? {
                AccountStmt::ShowGrantsForCurrentRole
            } else if self.eat_function("CURRENT_USER")? {
                AccountStmt::ShowGrantsForCurrentUser
            } else {
                AccountStmt::ShowGrants(Some(self.grantee()?))
            }
        } else if self.eat_words(&["SHOW", "CREATE", "USER"]) {
            AccountStmt::ShowCreateUser(if self.peek().is_some() { self.user_or_current()? } else { None })
        } else {
            return Ok(None);
        };
        self.done()?;
        Ok(Some(stmt))
    }
}

/// MariaDB's 1959 for a name that is no role (or none the statement may
/// use).
pub fn invalid_role(name: &str) -> SqlError {
    SqlError::new(ErrorCode::INVALID_ROLE, format!("Invalid role specification `{name}`"))
}

/// An account statement, or `None` when `text` is another statement.
pub fn parse_account_statement(text: &str, upper: &[String]) -> SqlResult<Option<Statement>> {
    let first_two = (upper.first().map(String::as_str), upper.get(1).map(String::as_str));
    let candidate = matches!(
        first_two,
        (Some("GRANT" | "REVOKE"), _)
            | (Some("SET"), Some("PASSWORD"))
            | (Some("SHOW"), Some("GRANTS" | "CREATE"))
            | (Some("CREATE" | "ALTER" | "DROP" | "RENAME"), Some("USER" | "OR"))
            | (Some("CREATE" | "DROP"), Some("ROLE"))
            | (Some("SET"), Some("ROLE"))
    ) || upper.starts_with(&["SET".to_string(), "DEFAULT".to_string(), "ROLE".to_string()]);
    if !candidate {
        return Ok(None);
    }
    let toks = tokenize(text).ok_or_else(|| SqlError::parse(text, 1))?;
    let mut parser = Parser { toks, at: 0, text };
    Ok(parser.statement()?.map(|s| Statement::Account(Box::new(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> AccountStmt {
        let upper: Vec<String> = text.split_whitespace().map(|w| w.to_ascii_uppercase()).collect();
        match parse_account_statement(text, &upper) {
            Ok(Some(Statement::Account(s))) => *s,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn user(user: &str, host: &str) -> UserName {
        UserName { user: user.into(), host: host.into() }
    }

    #[test]
    fn create_and_grant() {
        assert_eq!(
            parse("CREATE USER IF NOT EXISTS 'a'@'%' IDENTIFIED BY 'p''w', b@localhost ACCOUNT LOCK"),
            AccountStmt::CreateUser {
                or_replace: false,
                if_not_exists: true,
                users: vec![
                    UserSpec { name: user("a", "%"), auth: Some(Auth::Password("p'w".into())) },
                    UserSpec { name: user("b", "localhost"), auth: None },
                ],
                options: AccountOptions { lock: Some(true), ..Default::default() },
            }
        );
        let AccountStmt::Grant { privs, level, grant_option, .. } =
            parse("GRANT SELECT (a, `b`), REPLICATION CLIENT ON `d`.t TO u@'127.0.0.1' WITH GRANT OPTION")
        else {
            panic!()
        };
        assert_eq!(privs[0], PrivItem { bits: privs::SELECT, columns: vec!["a".into(), "b".into()] });
        assert_eq!(privs[1].bits, privs::BINLOG_MONITOR);
        assert_eq!(level, PrivLevel::Table(Some("d".into()), "t".into()));
        assert!(grant_option);
        assert_eq!(
            parse("REVOKE ALL PRIVILEGES, GRANT OPTION FROM u"),
            AccountStmt::RevokeAll { from: vec![user("u", "%")] }
        );
        assert_eq!(parse("SHOW GRANTS FOR CURRENT_USER()"), AccountStmt::ShowGrantsForCurrentUser);
        assert_eq!(
            parse("SET PASSWORD FOR u@127.0.0.1 = PASSWORD('x')"),
            AccountStmt::SetPassword { user: Some(user("u", "127.0.0.1")), auth: Auth::Password("x".into()) }
        );
    }

    #[test]
    fn require_issuer_subject_cipher() {
        let AccountStmt::CreateUser { options, .. } = parse(
            "CREATE USER u REQUIRE CIPHER 'c' SUBJECT '/CN=it''s' AND ISSUER '/CN=ca' WITH MAX_USER_CONNECTIONS 2",
        ) else {
            panic!()
        };
        let spec = RequireSpecified { issuer: "/CN=ca".into(), subject: "/CN=it's".into(), cipher: Some("c".into()) };
        assert_eq!(options.require, Some(Require::Specified(Box::new(spec))));
        assert_eq!(options.limits, vec![(MAX_USER_CONNECTIONS, 2)]);
        let code = |text: &str| {
            let upper: Vec<String> = text.split_whitespace().map(|w| w.to_ascii_uppercase()).collect();
            parse_account_statement(text, &upper).map(|_| ()).map_err(|e| e.code)
        };
        assert_eq!(code("CREATE USER u REQUIRE SUBJECT 'a' SUBJECT 'b'"), Err(ErrorCode::DUP_ARGUMENT));
        assert_eq!(code("CREATE USER u REQUIRE SUBJECT 'a' AND"), Err(ErrorCode::PARSE_ERROR));
        assert_eq!(code("CREATE USER u REQUIRE SSL AND X509"), Err(ErrorCode::PARSE_ERROR));
        assert_eq!(code("CREATE USER u REQUIRE"), Err(ErrorCode::PARSE_ERROR));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for text in ["GRANT ON *.* TO u", "CREATE USER 'a", "GRANT FLY ON *.* TO u", "DROP USER", "SET PASSWORD FOR"] {
            let upper: Vec<String> = text.split_whitespace().map(|w| w.to_ascii_uppercase()).collect();
            assert!(parse_account_statement(text, &upper).is_err(), "{text}");
        }
    }
}
