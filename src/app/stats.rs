//! `objlint stats`.

use super::{failed, usage_error};
use crate::driver::StatsOptions;
use crate::report::{self, Format};
use crate::stats::{ObjectStats, totals};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Output format: human (table), short (one line per object), json (JSON Lines).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The inputs are linked wholes (vmlinux.o, final modules): global
    /// functions not referenced anywhere (exports count) are unneeded too.
    #[arg(long)]
    pub link: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Only the totals per architecture.
    #[arg(long)]
    pub summary: bool,
    /// List every unneeded pad (`file: function: kind`) instead of the counts.
    #[arg(long, conflicts_with = "summary")]
    pub list: bool,
    /// Folder of rule files replacing the built-in ones.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Objects or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

pub fn run(a: &StatsArgs) -> i32 {
    let formats = [Format::Human, Format::Short, Format::Json];
    if let Err(e) = report::require_format("stats", a.format, &formats) {
        return usage_error(&e);
    }
    if let Err(e) = crate::driver::set_jobs(a.jobs) {
        return usage_error(&e);
    }
    let o = StatsOptions {
        paths: a.paths.clone(),
        rules: a.rules.clone(),
        link: a.link,
        list: a.list,
    };
    let objs = match crate::driver::stats(&o) {
        Ok(s) => s,
        Err(e) => return failed(e),
    };
    let totals = totals(&objs);
    let mut bad = 0;
    for o in &objs {
        if let Some(e) = &o.error {
            eprintln!("objlint: {}: {e}", o.file);
            bad += 1;
        }
    }
    let format = a.format.unwrap_or(Format::Human);
    // Unreadable objects are JSON records too (the text formats leave them
    // to stderr), also under --summary.
    let shown: Vec<&ObjectStats> = objs
        .iter()
        .filter(|o| if a.summary { o.error.is_some() } else { true })
        .collect();
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    if a.list {
        for o in &shown {
            for l in &o.unneeded_list {
                if writeln!(w, "{}: {l}", o.file).is_err() {
                    return 2;
                }
            }
        }
        return if w.flush().is_err() || bad > 0 { 2 } else { 0 };
    }
    let res = report::stats::write(format, &shown, &totals, a.link, &mut w).and_then(|_| w.flush());
    if res.is_err() {
        return 2;
    }
    if bad > 0 { 2 } else { 0 }
}
