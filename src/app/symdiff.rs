//! `objlint symdiff`.

use super::failed;
use crate::report::{self, Format};
use crate::rules::Severity;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SymdiffArgs {
    /// Output format (default: human on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Also list symbols that were only added.
    #[arg(long)]
    pub verbose: bool,
    /// The object before the rewrite.
    pub before: PathBuf,
    /// The object after it.
    pub after: PathBuf,
}

pub fn run(a: &SymdiffArgs) -> i32 {
    let d = match crate::driver::symdiff(&a.before, &a.after) {
        Ok(d) => d,
        Err(e) => return failed(e),
    };
    let rep = d.report;
    if a.verbose {
        for line in &d.added {
            eprintln!("objlint: {}: {line}", rep.file);
        }
    }
    let nerr = rep
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let tty = std::io::stdout().is_terminal();
    let format = a
        .format
        .unwrap_or(if tty { Format::Human } else { Format::Short });
    let color = report::use_color(report::ColorWhen::Auto, tty);
    let mut em = report::emitter(format, color);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if em.object(&rep, &mut out).is_err() || em.finish(&mut out).is_err() || out.flush().is_err() {
        return 2;
    }
    if nerr > 0 { 1 } else { 0 }
}
