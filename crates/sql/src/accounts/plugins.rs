//! `INSTALL SONAME` / `INSTALL PLUGIN`: OneLog's authentication plugins
//! are built in and always active, so installing one of the libraries
//! MariaDB ships them in answers as MariaDB answers once it is installed
//! (scripts written for MariaDB, which must `INSTALL SONAME 'auth_ed25519'`
//! before `IDENTIFIED VIA ed25519`, run unchanged). No other library can
//! be loaded.

use crate::ast::account::AuthPlugin;
use crate::ast::Statement;
use onelog_core::{ErrorCode, SqlError, SqlResult};

/// The library MariaDB ships ed25519 in (unix_socket is built into
/// MariaDB's server, as into OneLog).
const ED25519_LIBRARY: &str = "auth_ed25519";

/// `INSTALL SONAME 'lib'` or `INSTALL PLUGIN name SONAME 'lib'` (`w`: the
/// words as written, `u`: upper-cased).
pub fn parse_install(text: &str, w: &[String], u: &[String]) -> SqlResult<Statement> {
    let words: Vec<&str> = u.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["INSTALL", "SONAME", _] => Ok(Statement::InstallPlugin { plugin: None, soname: w[2].clone() }),
        ["INSTALL", "PLUGIN", _, "SONAME", _] => {
            Ok(Statement::InstallPlugin { plugin: Some(w[2].clone()), soname: w[4].clone() })
        }
        _ => Err(SqlError::parse(text, 1)),
    }
}

/// Runs INSTALL: a built-in plugin is "already installed", its library
/// already loaded, as in MariaDB (which checks the plugin name first).
pub fn install(plugin: Option<&str>, soname: &str) -> SqlResult<()> {
    if let Some(name) = plugin.filter(|name| AuthPlugin::from_name(name).is_some()) {
        return Err(SqlError::new(ErrorCode::PLUGIN_INSTALLED, format!("Plugin '{name}' already installed")));
    }
    let library = soname.strip_suffix(".so").unwrap_or(soname);
    if library != ED25519_LIBRARY {
        return Err(SqlError::new(
            ErrorCode::CANT_OPEN_LIBRARY,
            format!(
                "Can't open shared library '/usr/lib/mysql/plugin/{library}.so' (errno: 2, cannot open shared object file: No such file or directory)"
            ),
        ));
    }
    match plugin {
        None => Ok(()),
        Some(name) => {
            Err(SqlError::new(ErrorCode::CANT_FIND_DL_ENTRY, format!("Can't find symbol '{name}' in library")))
        }
    }
}
