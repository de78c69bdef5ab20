//! `objlint precommit`: check the objects built from the sources staged for
//! commit (or the sources named), found through `compile_commands.json`.
//! The pre-commit hook with `pass_filenames: false` runs this.

use super::{Cli, Cmd, usage_error};
use crate::compdb::{CompDb, is_source};
use crate::paths::normalize;
use clap::{Args, Parser};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Args, Debug)]
pub struct PrecommitArgs {
    /// Build folder holding compile_commands.json (default: the repository
    /// root, then build/).
    #[arg(long)]
    pub build_dir: Option<PathBuf>,
    /// Sources to map to objects (default: those staged in git).
    pub sources: Vec<PathBuf>,
    /// Options for `objlint check`, after `--`.
    #[arg(last = true)]
    pub check: Vec<String>,
}

pub fn run(a: &PrecommitArgs) -> i32 {
    let quiet = a.check.iter().any(|o| o == "-q" || o == "--quiet");
    let cwd = std::env::current_dir().unwrap_or_default();
    let root = git(&["rev-parse", "--show-toplevel"])
        .ok()
        .and_then(|o| o.lines().next().map(PathBuf::from))
        .unwrap_or_else(|| cwd.clone());
    let sources: Vec<PathBuf> = if a.sources.is_empty() {
        match git(&[
            "diff",
            "--cached",
            "--name-only",
            "-z",
            "--diff-filter=ACMR",
        ]) {
            Ok(o) => o
                .split('\0')
                .filter(|s| !s.is_empty())
                .map(|s| root.join(s))
                .collect(),
            Err(e) => return usage_error(&format!("cannot list staged files: {e}")),
        }
    } else {
        a.sources.iter().map(|s| cwd.join(s)).collect()
    };
    let Some(db_path) = CompDb::locate(&root, a.build_dir.as_deref()) else {
        return usage_error(&format!(
            "no compile_commands.json in {} (or build/); give --build-dir",
            a.build_dir
                .as_ref()
                .map_or(root.clone(), |b| root.join(b))
                .display()
        ));
    };
    let db = match CompDb::read(&db_path) {
        Ok(d) => d,
        Err(e) => return usage_error(&e),
    };
    let mut objects: Vec<PathBuf> = Vec::new();
    for src in sources
        .iter()
        .map(|s| normalize(s))
        .filter(|s| is_source(s))
    {
        for u in db.units_for(&src) {
            let Ok(obj) = std::fs::metadata(&u.object) else {
                if !quiet {
                    eprintln!(
                        "objlint: {}: {} is not built; skipped",
                        src.display(),
                        u.object.display()
                    );
                }
                continue;
            };
            if !quiet && is_older(&obj, &src) {
                eprintln!(
                    "objlint: warning: {} is older than {}; rebuild for current results",
                    u.object.display(),
                    src.display()
                );
            }
            if !objects.contains(&u.object) {
                objects.push(u.object.clone());
            }
        }
    }
    if objects.is_empty() {
        if !quiet {
            eprintln!("objlint: no built objects for the staged sources");
        }
        return 0;
    }
    let mut argv: Vec<OsString> = vec!["objlint".into(), "check".into()];
    argv.extend(a.check.iter().map(OsString::from));
    argv.push("--".into());
    argv.extend(objects.into_iter().map(PathBuf::into_os_string));
    match Cli::try_parse_from(argv) {
        Ok(Cli { cmd: Cmd::Check(c) }) => super::check::run(c),
        Ok(_) => 2,
        Err(e) => {
            let _ = e.print();
            2
        }
    }
}

fn is_older(obj: &std::fs::Metadata, src: &Path) -> bool {
    let src = std::fs::metadata(src).and_then(|m| m.modified());
    matches!((obj.modified(), src), (Ok(o), Ok(s)) if o < s)
}

fn git(args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
