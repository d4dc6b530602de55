//! Strata's own directory under the temporary directory, which no other
//! user can write: `$TMPDIR/strata-<uid>`, mode 0700, owned by this user.
//!
//! A shared, writable `/tmp` is hostile ground: another user can plant a
//! file where Strata would read one (a "cached" runtime archive that is in
//! fact a linker script pulling in their object) or swap it between a check
//! and its use. Everything Strata keeps or reuses across runs lives in this
//! directory, and the directory is trusted only after checking, through a
//! handle that cannot follow a planted symbolic link, that it is a real
//! directory owned by this user with no permissions for anyone else. If
//! someone else made it first, Strata refuses to use it rather than guess.

use std::fs;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// `$TMPDIR/strata-<uid>`, created (0700) or checked.
pub fn private_dir() -> Result<PathBuf, String> {
    private_dir_in(&std::env::temp_dir())
}

fn private_dir_in(base: &Path) -> Result<PathBuf, String> {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    let dir = base.join(format!("strata-{uid}"));
    match fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
    }
    check_private(&dir, uid)?;
    Ok(dir)
}

/// `dir` is a directory (not a link to one), owned by `uid`, that nobody
/// else may read, write or enter.
fn check_private(dir: &Path, uid: u32) -> Result<(), String> {
    let meta =
        fs::symlink_metadata(dir).map_err(|e| format!("cannot inspect {}: {e}", dir.display()))?;
    let refuse = |why: &str| {
        Err(format!(
            "refusing to use {}: {why} (it must be a directory of this user with mode 0700; remove it)",
            dir.display()
        ))
    };
    if !meta.file_type().is_dir() {
        return refuse("it is not a directory");
    }
    if meta.uid() != uid {
        return refuse(&format!("it belongs to user {}", meta.uid()));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        return refuse(&format!(
            "other users have access (mode {:o})",
            meta.permissions().mode() & 0o777
        ));
    }
    Ok(())
}

/// Whether `path` is a regular file (not a link) owned by this user.
pub fn is_own_file(path: &Path) -> bool {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file() && m.uid() == uid)
}

/// A fresh directory for one process's scratch files inside the private
/// directory, named `<what>-<pid>-XXXXXX`, after removing those of the
/// same kind whose process no longer runs (left by a crash or a kill, which
/// skip the usual clean-up).
pub fn scratch_dir(what: &str) -> Result<tempfile::TempDir, String> {
    let base = private_dir()?;
    sweep_dead(&base, what);
    tempfile::Builder::new()
        .prefix(&format!("{what}-{}-", std::process::id()))
        .tempdir_in(&base)
        .map_err(|e| format!("cannot create a directory in {}: {e}", base.display()))
}

/// Removes `<what>-<pid>-*` directories of `base` whose process is gone.
fn sweep_dead(base: &Path, what: &str) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    let prefix = format!("{what}-");
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        if !process_exists(pid) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

fn process_exists(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_is_made_private_and_foreign_ones_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = private_dir_in(tmp.path()).unwrap();
        let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        assert_eq!(private_dir_in(tmp.path()).unwrap(), dir);
        // Opened up by someone: refused.
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        let e = private_dir_in(tmp.path()).unwrap_err();
        assert!(e.contains("other users have access"), "{e}");
        fs::remove_dir(&dir).unwrap();
        // A planted symbolic link to a directory: refused.
        let elsewhere = tmp.path().join("elsewhere");
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&elsewhere)
            .unwrap();
        std::os::unix::fs::symlink(&elsewhere, &dir).unwrap();
        let e = private_dir_in(tmp.path()).unwrap_err();
        assert!(e.contains("not a directory"), "{e}");
    }

    #[test]
    fn scratch_directories_of_dead_processes_are_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let base = private_dir_in(tmp.path()).unwrap();
        // No process has pid i32::MAX (above pid_max).
        let dead = base.join(format!("jit-{}-abc", i32::MAX));
        let mine = base.join(format!("jit-{}-def", std::process::id()));
        fs::create_dir(&dead).unwrap();
        fs::create_dir(&mine).unwrap();
        sweep_dead(&base, "jit");
        assert!(!dead.exists());
        assert!(mine.exists());
    }
}
