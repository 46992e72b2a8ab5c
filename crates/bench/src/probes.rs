//! Probes of the operating system: per-process CPU time from
//! `/proc/<pid>/stat`, block-device counters from `/proc/diskstats` for the
//! device that holds a directory, and a description of the machine.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{BenchError, Result};

/// CPU seconds (user + system) consumed so far by process `pid` and, since
/// servers are single processes with threads, all its threads.
pub fn process_cpu_s(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime_ticks: f64 = fields.get(11)?.parse().ok()?;
    let stime_ticks: f64 = fields.get(12)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let ticks_per_s = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let ticks_per_s = if ticks_per_s > 0 { ticks_per_s as f64 } else { 100.0 };
    Some((utime_ticks + stime_ticks) / ticks_per_s)
}

/// Cumulative write counters of one block device (from `/proc/diskstats`).
#[derive(Debug, Clone, Copy, Default)]
pub struct DiskCounters {
    pub write_ios: u64,
    pub sectors_written: u64,
    /// Milliseconds the device had I/O in flight (`io_ticks`).
    pub io_time_ms: u64,
}

impl DiskCounters {
    pub fn delta(&self, earlier: &DiskCounters) -> DiskCounters {
        DiskCounters {
            write_ios: self.write_ios.saturating_sub(earlier.write_ios),
            sectors_written: self.sectors_written.saturating_sub(earlier.sectors_written),
            io_time_ms: self.io_time_ms.saturating_sub(earlier.io_time_ms),
        }
    }
}

/// The block device (whole disk, as named in `/proc/diskstats`) holding `dir`.
/// Resolves `st_dev` through `/sys/dev/block/MAJ:MIN`; a partition maps to
/// its parent disk; filesystems without a block device (tmpfs, overlay) fall
/// back to the source of the mount in `/proc/self/mountinfo`.
pub fn block_device_for(dir: &Path) -> Option<String> {
    let meta = std::fs::metadata(dir).ok()?;
    let dev = meta.dev();
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    if let Some(name) = sysfs_disk_name(major, minor) {
        return Some(name);
    }
    // No block device behind st_dev: use the mount's source device if it is one.
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let canon = std::fs::canonicalize(dir).ok()?;
    let mut best: Option<(usize, String)> = None;
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(dash) = fields.iter().position(|f| *f == "-") else { continue };
        let (Some(mount_point), Some(source)) = (fields.get(4), fields.get(dash + 2)) else { continue };
        if canon.starts_with(mount_point) && best.as_ref().is_none_or(|(len, _)| mount_point.len() > *len) {
            best = Some((mount_point.len(), source.to_string()));
        }
    }
    let source = best?.1;
    let meta = std::fs::metadata(&source).ok()?;
    let rdev = meta.rdev();
    sysfs_disk_name(libc::major(rdev), libc::minor(rdev))
}

fn sysfs_disk_name(major: u32, minor: u32) -> Option<String> {
    let sys = PathBuf::from(format!("/sys/dev/block/{major}:{minor}"));
    let target = std::fs::canonicalize(&sys).ok()?;
    // A partition (vda1, nvme0n1p2) has a `partition` file; its parent directory is the disk.
    let disk = if target.join("partition").exists() { target.parent()?.to_path_buf() } else { target };
    Some(disk.file_name()?.to_string_lossy().into_owned())
}

/// Current counters of `device` from `/proc/diskstats`.
pub fn disk_counters(device: &str) -> Result<DiskCounters> {
    let path = "/proc/diskstats";
    let text = std::fs::read_to_string(path).map_err(|e| BenchError::io(path, e))?;
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() >= 13 && f[2] == device {
            let num = |i: usize| f[i].parse::<u64>().unwrap_or(0);
            // 3 reads, 4 reads merged, 5 sectors read, 6 ms reading,
            // 7 writes completed, 8 merged, 9 sectors written, 10 ms writing,
            // 11 in flight, 12 ms doing I/O.
            return Ok(DiskCounters { write_ios: num(7), sectors_written: num(9), io_time_ms: num(12) });
        }
    }
    Err(BenchError::Command { what: format!("reading {path}"), detail: format!("no line for device {device}") })
}

/// What the report says about the machine and the software.
#[derive(Debug, Clone, Default)]
pub struct MachineInfo {
    pub cpu_model: String,
    pub cores: usize,
    pub ram_gib: f64,
    pub disk: String,
    pub kernel: String,
    pub filesystem: String,
    pub sysbench_version: String,
    pub mariadb_version: String,
    pub onelog_commit: String,
}

fn first_line_of(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines().next().map(|l| l.trim().to_string()).filter(|l| !l.is_empty())
}

/// Describes this machine, the disk that holds `workdir`, and the tool versions.
pub fn machine_info(workdir: &Path, device: Option<&str>, mariadbd: &Path, onelog_bin: &Path) -> MachineInfo {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu_model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let ram_kib: f64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    let disk = match device {
        Some(dev) => {
            let model = std::fs::read_to_string(format!("/sys/block/{dev}/device/model"))
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty());
            let rotational = std::fs::read_to_string(format!("/sys/block/{dev}/queue/rotational"))
                .map(|s| if s.trim() == "1" { "rotational" } else { "non-rotational" })
                .unwrap_or("unknown type");
            let size_gib = std::fs::read_to_string(format!("/sys/block/{dev}/size"))
                .ok()
                .and_then(|s| s.trim().parse::<f64>().ok())
                .map(|sectors| sectors * 512.0 / (1u64 << 30) as f64)
                .unwrap_or(0.0);
            format!(
                "/dev/{dev} ({}{rotational}, {size_gib:.0} GiB)",
                model.map(|m| format!("{m}, ")).unwrap_or_default()
            )
        }
        None => "unknown (no block device found)".into(),
    };
    // `stat -f` names ext4 "ext2/ext3" (same superblock magic); findmnt
    // reports the mounted type.
    let workdir_text = workdir.to_string_lossy();
    let filesystem = first_line_of("findmnt", &["-n", "-o", "FSTYPE", "-T", &workdir_text])
        .or_else(|| first_line_of("stat", &["-f", "-c", "%T", &workdir_text]))
        .unwrap_or_else(|| "unknown".into());
    let kernel = first_line_of("uname", &["-sr"]).unwrap_or_else(|| "unknown".into());
    let sysbench_version = first_line_of("sysbench", &["--version"]).unwrap_or_else(|| "not found".into());
    let mariadb_version =
        first_line_of(&mariadbd.to_string_lossy(), &["--version"]).unwrap_or_else(|| "not found".into());
    let onelog_commit = onelog_commit(onelog_bin);
    MachineInfo {
        cpu_model,
        cores,
        ram_gib: ram_kib / (1024.0 * 1024.0),
        disk,
        kernel,
        filesystem,
        sysbench_version,
        mariadb_version,
        onelog_commit,
    }
}

/// The git commit of the source tree the OneLog binary lives in (best effort).
fn onelog_commit(onelog_bin: &Path) -> String {
    let dir = onelog_bin.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let commit = Command::new("git")
        .arg("-C")
        .arg(&dir)
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let commit = commit.or_else(|| {
        Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    });
    let version = first_line_of(&onelog_bin.to_string_lossy(), &["--version"]).unwrap_or_else(|| "onelog".into());
    match commit {
        Some(c) => {
            let dirty = Command::new("git")
                .args(["status", "--porcelain", "--untracked-files=no"])
                .output()
                .ok()
                .is_some_and(|o| !o.stdout.is_empty());
            format!("{version}, git {c}{}", if dirty { " (with uncommitted changes)" } else { "" })
        }
        None => format!("{version}, git commit unknown"),
    }
}
