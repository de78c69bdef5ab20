//! `objlint check`: the arguments, and the run's output, baseline and
//! summary around [`crate::driver::prepare`].

use super::{RuleId, usage_error};
use crate::baseline::{self, Baseline};
use crate::driver::{self, CheckOptions};
use crate::elf::Machine;
use crate::engine;
use crate::report::{self, Format};
use crate::rules::Severity;
use crate::timing::{self, Phase};
use clap::{Args, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArchArg {
    Auto,
    #[value(name = "x86_64")]
    X86_64,
    #[value(name = "aarch64")]
    Aarch64,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Output format (default: human on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Only check objects of this architecture.
    #[arg(long, value_enum, default_value = "auto")]
    pub arch: ArchArg,
    /// Run only these rules (comma separated; `objlint rules` lists them).
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = RuleId { explain: false }, hide_possible_values = true)]
    pub enable: Vec<String>,
    /// Do not run these rules (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = RuleId { explain: false }, hide_possible_values = true)]
    pub disable: Vec<String>,
    /// Config file (default: objlint.toml in this folder or above).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Folder of rule files replacing the built-in ones.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Treat objects as built with IBT/BTI.
    #[arg(long, conflicts_with = "no_ibt")]
    pub ibt: bool,
    /// Treat objects as built without IBT/BTI.
    #[arg(long = "no-ibt")]
    pub no_ibt: bool,
    /// Speculation mitigations the objects are built with, comma separated
    /// (retpoline, rethunk, sls, sls-blr; `none`); detected per object if absent.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub mitigations: Option<Vec<String>>,
    /// Treat objects as built with frame pointers (frame-pointer rule).
    #[arg(long, conflicts_with = "no_frame_pointer")]
    pub frame_pointer: bool,
    /// Treat objects as built without frame pointers.
    #[arg(long = "no-frame-pointer")]
    pub no_frame_pointer: bool,
    /// Expected -fpatchable-function-entry=M,N layout.
    #[arg(long, value_name = "M,N")]
    pub patchable: Option<String>,
    /// The input is a linked whole (vmlinux.o, a final module).
    #[arg(long)]
    pub link: bool,
    /// The kernel version the objects are built from (6.1, 6.12.117): that
    /// version's objtool lists apply (default: a module's vermagic, else
    /// every version's)
    #[arg(long, value_name = "VERSION")]
    pub kernel: Option<String>,
    /// Kernel code or user space: the kernel-only rules (uaccess, noinstr,
    /// patchable entries, kCFI, CALL_OPS) run on kernel code only (default:
    /// detected per object).
    #[arg(long, value_enum, value_name = "PROFILE")]
    pub profile: Option<crate::config::Profile>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Report only findings not recorded in this baseline file.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Record the current findings as a baseline file.
    #[arg(long)]
    pub write_baseline: Option<PathBuf>,
    /// Exit 1 on findings at warning level too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Colour in human output: auto (on a terminal, unless NO_COLOR is set or
    /// TERM=dumb; CLICOLOR_FORCE forces it), always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: report::ColorWhen,
    /// No summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print where the run spent its time and memory, per phase and rule, on
    /// stderr (thread time: with -j1 it adds up to the run).
    #[arg(long)]
    pub timings: bool,
    /// Objects or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// Totals of a check run, counted as reports are emitted.
#[derive(Default)]
struct Tally {
    bad: usize,
    nfind: usize,
    nerr: usize,
    nwarn: usize,
    nfunc: usize,
    nobj: usize,
    incomplete: usize,
    /// Warnings under a setup with deny_warnings.
    denied: usize,
    ignored: usize,
}

impl Tally {
    fn emit(
        &mut self,
        r: &engine::ObjectReport,
        deny_warnings: bool,
        em: &mut dyn report::Emitter,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        self.ignored += r.ignored;
        if let Some(e) = &r.error {
            eprintln!("objlint: {}: {e}", r.file);
            self.bad += 1;
            // Formats that record failures (SARIF) see the report too.
            return timing::time(Phase::Output, || em.object(r, out));
        }
        self.nobj += 1;
        self.incomplete += usize::from(r.findings.iter().any(|f| f.cause.is_some()));
        self.nfunc += r.functions;
        self.nfind += r.findings.len();
        for f in &r.findings {
            match f.severity {
                Severity::Error => self.nerr += 1,
                Severity::Warning => {
                    self.nwarn += 1;
                    self.denied += usize::from(deny_warnings);
                }
                // A note never fails a run.
                _ => {}
            }
        }
        timing::time(Phase::Output, || em.object(r, out))
    }
}

/// The driver's options for `check`'s arguments.
pub fn options(a: &CheckArgs) -> CheckOptions {
    CheckOptions {
        config: a.config.clone(),
        rules: a.rules.clone(),
        enable: a.enable.clone(),
        disable: a.disable.clone(),
        // Each pair conflicts in clap: at most one is set.
        ibt: (a.ibt || a.no_ibt).then_some(a.ibt),
        mitigations: a.mitigations.clone(),
        frame_pointer: (a.frame_pointer || a.no_frame_pointer).then_some(a.frame_pointer),
        patchable: a.patchable.clone(),
        link: a.link,
        profile: a.profile,
        kernel: a.kernel.clone(),
        deny_warnings: a.deny_warnings,
        arch: match a.arch {
            ArchArg::Auto => None,
            ArchArg::X86_64 => Some(Machine::X86_64),
            ArchArg::Aarch64 => Some(Machine::Aarch64),
        },
    }
}

pub(crate) fn run(a: CheckArgs) -> i32 {
    let t0 = Instant::now();
    let o = options(&a);
    // The pool first: the rules are parsed on it.
    if let Err(e) = driver::set_jobs(a.jobs) {
        return usage_error(&e);
    }
    // A bad config is an error before anything is read.
    let run_setup = match driver::run_setup(&o) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    if a.timings {
        timing::enable();
    }
    let baseline = match &a.baseline {
        Some(p) => match Baseline::read(p) {
            Ok(b) => Some((b, baseline::root_of(p))),
            Err(e) => return usage_error(&e),
        },
        None => None,
    };
    let run = match driver::prepare(&o, &a.paths, run_setup) {
        Ok(x) => x,
        Err(e) => return usage_error(&e),
    };
    let (opts, rules) = &run.setups[0];
    let tty = std::io::stdout().is_terminal();
    let format = a
        .format
        .unwrap_or(if tty { Format::Human } else { Format::Short });
    let show_progress = report::progress::wanted(
        a.quiet,
        format,
        run.inputs.len(),
        std::io::stderr().is_terminal(),
    );
    let progress = report::progress::Progress::new(run.inputs.len(), show_progress);
    let color = report::use_color(a.color, tty);
    let docs = opts
        .rules_doc_url
        .clone()
        .or_else(report::default_rules_doc_url);
    let mut em = report::emitter_for(format, color, rules, docs.as_deref());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let mut filter = baseline
        .as_ref()
        .map(|(b, root)| baseline::Filter::new(b, root.clone()));
    // What a baseline to be written records: every finding, kept to the end.
    let mut recorded: Vec<(String, crate::checks::Finding)> = Vec::new();
    // Paths that could not be walked are reported like unreadable objects.
    for (file, e) in &run.walk_errors {
        let r = engine::ObjectReport {
            file: file.clone(),
            error: Some(e.clone()),
            ..Default::default()
        };
        if tally.emit(&r, false, em.as_mut(), &mut out).is_err() {
            return 2;
        }
    }
    let mut failed = false;
    // The process ends with the run: the last object's memory goes with it.
    run.run(crate::engine::Teardown::Exit, &mut |(o, _), reports| {
        progress.inc();
        let deny = o.deny_warnings;
        for mut r in reports {
            if a.write_baseline.is_some() {
                recorded.extend(r.findings.iter().map(|f| (r.file.clone(), f.clone())));
            }
            if let Some(f) = filter.as_mut() {
                f.retain_new(&r.file, &mut r.findings);
            }
            // With a bar on the terminal, each object's output goes out
            // whole while the bar is off the screen.
            if failed {
                continue;
            }
            failed = progress
                .suspend(|| {
                    tally.emit(&r, deny, em.as_mut(), &mut out)?;
                    if show_progress { out.flush() } else { Ok(()) }
                })
                .is_err();
        }
    });
    progress.finish();
    if failed {
        return 2;
    }
    // Every report is an object or unreadable, and so is every unwalked path.
    if tally.nobj == 0 && tally.bad == 0 {
        let paths: Vec<String> = a.paths.iter().map(|p| p.display().to_string()).collect();
        eprintln!("objlint: no objects found in {}", paths.join(", "));
        return 2;
    }
    if let Some(p) = &a.write_baseline {
        let all = recorded.iter().map(|(file, f)| (file.as_str(), f));
        if let Err(e) = Baseline::record(all, baseline::root_of(p).as_deref()).write(p) {
            eprintln!("objlint: error: {e}");
            return 2;
        }
    }
    let baselined = filter.map_or(0, |f| f.suppressed);
    let Tally {
        bad,
        nfind,
        nerr,
        nfunc,
        nobj,
        incomplete,
        denied,
        ignored,
        ..
    } = tally;
    if em.finish(&mut out).is_err() || out.flush().is_err() {
        return 2;
    }
    drop(out);
    if !a.quiet {
        let mut base = if a.baseline.is_some() {
            format!(", {baselined} in the baseline")
        } else {
            String::new()
        };
        if ignored > 0 {
            base.push_str(&format!(", {ignored} ignored by the config"));
        }
        eprintln!(
            "objlint: {}, {}, {} ({}){base}, {incomplete} not fully checked, {bad} unreadable, {:.2}s",
            count(nobj, "object"),
            count(nfunc, "function"),
            count(nfind, "finding"),
            count(nerr, "error"),
            t0.elapsed().as_secs_f64()
        );
    }
    if a.timings {
        let ids = crate::checks::ids();
        let rows = timing::rows(ids.len());
        let _ = report::timings::write(
            &mut std::io::stderr().lock(),
            &rows,
            &ids,
            t0.elapsed().as_secs_f64(),
        );
    }
    if bad > 0 {
        2
    } else if (nerr > 0 || denied > 0) && a.write_baseline.is_none() {
        1
    } else {
        0
    }
}

/// `1 object`, `2 objects`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}
