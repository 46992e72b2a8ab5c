//! Server options, mysqld style: `--name=value`, `--name value`, dashes or
//! underscores, `--skip-name`, a my.cnf given by `--defaults-file`
//! (`[mysqld]`, `[server]`, `[mariadb]`, `[onelog]` groups, `!include`).
//!
//! Hand-written rather than clap-derived because the option set is open:
//! every system variable is also a command-line option, as in mysqld.

use onelog_sql::vars;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    #[error("unknown variable '{0}'")]
    Unknown(String),
    #[error("unknown variable '{option}': {advice}")]
    Removed { option: String, advice: String },
    #[error("cannot read option file {path}: {source}")]
    File { path: String, source: std::io::Error },
    #[error("option '--{0}' requires a value")]
    MissingValue(String),
}

/// Options that are not system variables.
const SERVER_ONLY: &[&str] = &[
    "defaults_file",
    "initialize_insecure",
    "auth_root_authentication_method",
    "skip_log_bin",
    "log_bin",
    "user",
    "console",
    "no_defaults",
    "ssl",
    // MariaDB's name for the starting global time_zone.
    "default_time_zone",
];

/// Everything the server was told, names normalised to underscores.
#[derive(Debug, Default, Clone)]
pub struct Options {
    pub values: BTreeMap<String, String>,
}

impl Options {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.values.get(name).is_some_and(|v| v != "0" && !v.eq_ignore_ascii_case("off"))
    }

    pub fn datadir(&self) -> PathBuf {
        PathBuf::from(self.get("datadir").unwrap_or("./onelog-data"))
    }
}

fn normalise(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', "_")
}

/// Checks that `name` is something the server knows; `value` is for the
/// error message.
fn check_known(name: &str, value: &str) -> Result<(), OptionsError> {
    let shown = if value.is_empty() { name.to_string() } else { format!("{name}={value}") };
    if let Some((_, advice)) = vars::REMOVED.iter().find(|(n, _)| *n == name) {
        return Err(OptionsError::Removed { option: shown, advice: advice.to_string() });
    }
    if SERVER_ONLY.contains(&name) || vars::lookup(name).is_some() {
        return Ok(());
    }
    Err(OptionsError::Unknown(shown))
}

impl Options {
    fn set(&mut self, raw_name: &str, value: &str, errors: &mut Vec<OptionsError>) {
        let mut name = normalise(raw_name);
        let mut value = value.to_string();
        if let Some(rest) = name.strip_prefix("skip_") {
            if rest != "log_bin" {
                name = rest.to_string();
                value = "0".into();
            }
        }
        if let Some(rest) = name.strip_prefix("loose_") {
            // `loose-` options are ignored when unknown, as in mysqld.
            if check_known(rest, &value).is_ok() {
                self.values.insert(rest.to_string(), value);
            }
            return;
        }
        match check_known(&name, &value) {
            Ok(()) => {
                self.values.insert(name, value);
            }
            Err(e) => errors.push(e),
        }
    }

    /// Reads a my.cnf file (and its `!include`s).
    pub fn read_file(&mut self, path: &Path, errors: &mut Vec<OptionsError>) -> Result<(), OptionsError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| OptionsError::File { path: path.display().to_string(), source })?;
        let mut in_group = false;
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                continue;
            }
            if let Some(inc) = line.strip_prefix("!include ") {
                let inc = Path::new(inc.trim());
                let inc = if inc.is_relative() {
                    path.parent().unwrap_or(Path::new(".")).join(inc)
                } else {
                    inc.to_path_buf()
                };
                self.read_file(&inc, errors)?;
                continue;
            }
            if line.starts_with("!includedir") {
                continue;
            }
            if let Some(group) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                in_group = matches!(
                    group.trim().to_ascii_lowercase().as_str(),
                    "mysqld" | "server" | "mariadb" | "mariadbd" | "onelog"
                );
                continue;
            }
            if !in_group {
                continue;
            }
            let (name, value) = match line.split_once('=') {
                Some((n, v)) => (n.trim(), v.trim().trim_matches('"').trim_matches('\'')),
                None => (line, "1"),
            };
            self.set(name, value, errors);
        }
        Ok(())
    }
}

/// Parses command-line options (after the subcommand). A defaults file is
/// read first so the command line overrides it. Returns every problem at
/// once, so a user fixes a my.cnf in one pass.
pub fn parse(args: &[String]) -> Result<Options, Vec<OptionsError>> {
    let mut opts = Options::default();
    let mut errors = Vec::new();
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let Some(body) = arg.strip_prefix("--") else {
            errors.push(OptionsError::Unknown(arg.clone()));
            i += 1;
            continue;
        };
        match body.split_once('=') {
            Some((n, v)) => pairs.push((n.to_string(), v.to_string())),
            None => {
                let name = normalise(body);
                let takes_value = !matches!(
                    name.as_str(),
                    "initialize_insecure" | "log_bin" | "skip_log_bin" | "console" | "no_defaults" | "ssl"
                ) && !name.starts_with("skip_");
                if takes_value && args.get(i + 1).is_some_and(|n| !n.starts_with("--")) {
                    pairs.push((body.to_string(), args[i + 1].clone()));
                    i += 1;
                } else if takes_value && vars::lookup(&name).is_some_and(|d| d.kind != vars::Kind::Bool) {
                    errors.push(OptionsError::MissingValue(body.to_string()));
                } else {
                    pairs.push((body.to_string(), "1".into()));
                }
            }
        }
        i += 1;
    }
    if let Some((_, file)) = pairs.iter().find(|(n, _)| normalise(n) == "defaults_file") {
        if let Err(e) = opts.read_file(Path::new(file), &mut errors) {
            errors.push(e);
        }
    }
    for (n, v) in pairs {
        opts.set(&n, &v, &mut errors);
    }
    if errors.is_empty() {
        Ok(opts)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn dashes_underscores_and_values() {
        let o = parse(&args(&["--sync-binlog=0", "--port", "3310", "--max_allowed_packet=1024", "--skip-log-bin"]))
            .unwrap();
        assert_eq!(o.get("sync_binlog"), Some("0"));
        assert_eq!(o.get("port"), Some("3310"));
        assert_eq!(o.get("max_allowed_packet"), Some("1024"));
        assert!(o.flag("skip_log_bin"));
    }

    #[test]
    fn removed_and_unknown_variables_are_reported_together() {
        let errs = parse(&args(&["--key_buffer=512M", "--no_such_thing=1"])).unwrap_err();
        assert_eq!(errs.len(), 2);
        assert!(errs[0].to_string().contains("key_buffer_size"), "{}", errs[0]);
        assert_eq!(errs[1].to_string(), "unknown variable 'no_such_thing=1'");
    }

    #[test]
    fn defaults_file_groups_and_include() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("extra.cnf"), "[onelog]\nbinlog-sync-method = fsync\n").unwrap();
        std::fs::write(
            dir.path().join("my.cnf"),
            "[client]\nport=1\n[mysqld]\nport = 3307\nsync_binlog=1000\n!include extra.cnf\n",
        )
        .unwrap();
        let f = dir.path().join("my.cnf").display().to_string();
        let o = parse(&args(&[&format!("--defaults-file={f}"), "--sync-binlog=1"])).unwrap();
        assert_eq!(o.get("port"), Some("3307"));
        assert_eq!(o.get("sync_binlog"), Some("1"));
        assert_eq!(o.get("binlog_sync_method"), Some("fsync"));
    }
}
