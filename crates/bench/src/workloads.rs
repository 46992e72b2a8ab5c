//! Workloads of `onelog bench` that sysbench does not ship: stored programs
//! (issue 21). Each is a sysbench Lua script built on sysbench's own
//! `oltp_common` (its options, connections and `sbtest` tables), written
//! into the run's scratch directory and given to sysbench by path, plus the
//! SQL objects it needs, made after `sysbench prepare` on every server.
//!
//! - `sp_call_update`: each event is `CALL sb_update_k(id)` with a random id,
//!   a procedure doing one UPDATE of `sbtest1` by primary key that changes
//!   its indexed column `k` (sysbench's `oltp_update_index`, inside a
//!   procedure); autocommit, so one transaction per CALL.
//! - `trigger_insert`: each event is one single-row INSERT into `sbtrig`,
//!   whose BEFORE INSERT trigger sets a column from the new row.

use std::path::Path;

use crate::error::{BenchError, Result};

/// A workload made of a Lua script and the SQL objects it uses.
#[derive(Debug)]
pub struct Custom {
    pub name: &'static str,
    /// Statements run in the sysbench database after `sysbench prepare`
    /// (idempotent, for `--target`); one statement each, so no DELIMITER.
    pub setup: &'static [&'static str],
    /// What the `+user` account needs beyond the sbtest tables, as
    /// `GRANT <this>{db}.<object> TO ...` pieces: (privilege and object type, object).
    pub grants: &'static [(&'static str, &'static str)],
    pub script: &'static str,
}

/// Lua shared by the scripts: sysbench's common options and connection
/// handling, without its prepared statements (the events send text).
const LUA_PRELUDE: &str = r#"require("oltp_common")

function prepare_statements()
end
"#;

const SP_CALL_UPDATE: Custom = Custom {
    name: "sp_call_update",
    setup: &[
        "DROP PROCEDURE IF EXISTS sb_update_k",
        "CREATE PROCEDURE sb_update_k(IN p_id INT) UPDATE sbtest1 SET k = k + 1 WHERE id = p_id",
    ],
    grants: &[("EXECUTE ON PROCEDURE", "sb_update_k")],
    script: r#"
function event()
   con:query(string.format("CALL sb_update_k(%d)", sysbench.rand.default(1, sysbench.opt.table_size)))
end
"#,
};

const TRIGGER_INSERT: Custom = Custom {
    name: "trigger_insert",
    setup: &[
        "DROP TABLE IF EXISTS sbtrig",
        "CREATE TABLE sbtrig (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, \
         tag CHAR(24) NOT NULL DEFAULT '', KEY k (k))",
        "CREATE TRIGGER sbtrig_bi BEFORE INSERT ON sbtrig FOR EACH ROW SET NEW.tag = CONCAT('k-', NEW.k)",
    ],
    grants: &[("INSERT ON TABLE", "sbtrig")],
    script: r#"
function event()
   con:query(string.format("INSERT INTO sbtrig (k) VALUES (%d)", sysbench.rand.default(1, sysbench.opt.table_size)))
end
"#,
};

const CUSTOM: [&Custom; 2] = [&SP_CALL_UPDATE, &TRIGGER_INSERT];

/// The custom workload called `name`, if it is one.
pub fn custom(name: &str) -> Option<&'static Custom> {
    CUSTOM.iter().copied().find(|c| c.name == name)
}

/// What sysbench runs for `workload`: the name of one of its own scripts,
/// or the path of a custom script, written into `dir`.
pub fn sysbench_script(workload: &str, dir: &Path) -> Result<String> {
    let Some(custom) = custom(workload) else {
        return Ok(workload.to_string());
    };
    let path = dir.join(format!("{}.lua", custom.name));
    std::fs::write(&path, format!("{LUA_PRELUDE}{}", custom.script)).map_err(|e| BenchError::io(&path, e))?;
    Ok(path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_scripts_are_written_and_others_pass_through() {
        let dir = std::env::temp_dir().join(format!("onelog-bench-workloads-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        assert_eq!(sysbench_script("oltp_read_write", &dir).expect("name"), "oltp_read_write");
        for name in ["sp_call_update", "trigger_insert"] {
            let path = sysbench_script(name, &dir).expect("script");
            let text = std::fs::read_to_string(&path).expect("written");
            assert!(text.starts_with("require(\"oltp_common\")") && text.contains("function event()"), "{text}");
        }
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
