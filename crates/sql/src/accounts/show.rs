//! SHOW GRANTS and SHOW CREATE USER, worded as MariaDB 10.11 words them.

use super::privs;
use super::store::{Account, TableGrant};
use crate::ast::account::{AuthPlugin, LIMIT_NAMES};

fn ident(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// What follows the account name on the `*.*` line and in SHOW CREATE
/// USER: password hash, REQUIRE, then `WITH` GRANT OPTION and limits
/// (MariaDB's `add_user_parameters`).
fn user_parameters(account: &Account, with_grant: bool) -> String {
    let mut out = account.name.grantee_backquoted(account.is_role);
    match (account.plugin, account.auth_string.as_str()) {
        (AuthPlugin::MysqlNativePassword, "") => {}
        (AuthPlugin::MysqlNativePassword, hash) => out.push_str(&format!(" IDENTIFIED BY PASSWORD '{hash}'")),
        (plugin, "") => out.push_str(&format!(" IDENTIFIED VIA {}", plugin.name())),
        (plugin, using) => out.push_str(&format!(" IDENTIFIED VIA {} USING '{using}'", plugin.name())),
    }
    out.push_str(&account.require.clause());
    if with_grant || account.limits.iter().any(|l| *l != 0) {
        out.push_str(" WITH");
        if with_grant {
            out.push_str(" GRANT OPTION");
        }
        for (name, value) in LIMIT_NAMES.iter().zip(account.limits) {
            if value != 0 {
                out.push_str(&format!(" {name} {value}"));
            }
        }
    }
    out
}

fn grant_option(bits: u64) -> &'static str {
    if bits & privs::GRANT != 0 {
        " WITH GRANT OPTION"
    } else {
        ""
    }
}

/// A table line's privileges: each in bit order, with its columns where
/// only some columns have it.
fn table_privs_text(grant: &TableGrant) -> String {
    let table = grant.privs & !privs::GRANT;
    let columns = grant.column_privs();
    if columns == 0 {
        return privs::list(table, privs::TABLE_ALL);
    }
    let mut parts = Vec::new();
    for bit in (0..39).map(|i| 1u64 << i) {
        if table & bit != 0 {
            parts.push(privs::name(bit).to_string());
        } else if columns & bit != 0 {
            let cols: Vec<String> =
                grant.columns.iter().filter(|(_, p)| *p & bit != 0).map(|(c, _)| ident(c)).collect();
            parts.push(format!("{} ({})", privs::name(bit), cols.join(", ")));
        }
    }
    parts.join(", ")
}

/// SHOW GRANTS lines: the roles granted to it (in grant order), `*.*`,
/// then databases (most specific name first, as MariaDB sorts them), then
/// tables.
pub fn grant_lines(account: &Account) -> Vec<String> {
    let to = account.name.grantee_backquoted(account.is_role);
    let mut lines: Vec<String> = account
        .roles
        .iter()
        .map(|g| format!("GRANT {} TO {to}{}", ident(&g.role), if g.admin { " WITH ADMIN OPTION" } else { "" }))
        .collect();
    lines.push(format!(
        "GRANT {} ON *.* TO {}",
        privs::list(account.global, privs::GLOBAL_ALL),
        user_parameters(account, account.global & privs::GRANT != 0)
    ));
    let mut dbs: Vec<(&String, &u64)> = account.dbs.iter().collect();
    dbs.sort_by_key(|(db, _)| std::cmp::Reverse(super::store::wild_sort(db)));
    for (db, bits) in dbs {
        lines.push(format!(
            "GRANT {} ON {}.* TO {to}{}",
            privs::list(*bits, privs::DB_ALL),
            ident(db),
            grant_option(*bits)
        ));
    }
    for t in &account.tables {
        lines.push(format!(
            "GRANT {} ON {}.{} TO {to}{}",
            table_privs_text(t),
            ident(&t.db),
            ident(&t.table),
            grant_option(t.privs)
        ));
    }
    lines
}

/// SHOW GRANTS's last line for an account with a default role.
pub fn default_role_line(account: &Account) -> Option<String> {
    (!account.default_role.is_empty())
        .then(|| format!("SET DEFAULT ROLE {} FOR {}", ident(&account.default_role), account.name.backquoted()))
}

/// SHOW CREATE USER's statement.
pub fn create_user(account: &Account) -> String {
    let mut out = format!("CREATE USER {}", user_parameters(account, false));
    if account.locked {
        out.push_str(" ACCOUNT LOCK");
    }
    if account.password_expired {
        out.push_str(" PASSWORD EXPIRE");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::account::UserName;

    #[test]
    fn lines_as_mariadb_prints_them() {
        let mut a = Account::new(UserName { user: "g6".into(), host: "%".into() }, String::new());
        a.global = privs::RELOAD | privs::GRANT;
        a.dbs.insert("d".into(), privs::SELECT);
        let mut t = TableGrant { db: "d".into(), table: "t".into(), privs: privs::SELECT, ..Default::default() };
        t.columns.insert("c".into(), privs::UPDATE);
        a.tables.push(t);
        assert_eq!(
            grant_lines(&a),
            [
                "GRANT RELOAD ON *.* TO `g6`@`%` WITH GRANT OPTION",
                "GRANT SELECT ON `d`.* TO `g6`@`%`",
                "GRANT SELECT, UPDATE (`c`) ON `d`.`t` TO `g6`@`%`",
            ]
        );
        a.limits[3] = 2;
        a.locked = true;
        a.auth_string = "*B69027D44F6E5EDC07F1AEAD1477967B16F28227".into();
        assert_eq!(
            create_user(&a),
            "CREATE USER `g6`@`%` IDENTIFIED BY PASSWORD '*B69027D44F6E5EDC07F1AEAD1477967B16F28227' WITH MAX_USER_CONNECTIONS 2 ACCOUNT LOCK"
        );
    }
}
