//! The command line: clap's definitions and each subcommand's glue, which
//! turns arguments into [`crate::driver`]'s options and its results into
//! output and exit codes. Nothing in the library imports this module; the
//! binary (`src/main.rs`) only calls [`main`]. Exit status: 0 clean, 1
//! findings at error level (or warning level under `--deny-warnings`), 2
//! unreadable input or bad usage.

mod check;
mod lsp;
mod precommit;
mod seal;
mod stats;
mod symdiff;
mod unwind;

pub use check::{ArchArg, CheckArgs};
pub use lsp::LspArgs;
pub use precommit::PrecommitArgs;
pub use seal::SealArgs;
pub use stats::StatsArgs;
pub use symdiff::SymdiffArgs;
pub use unwind::UnwindArgs;

use crate::driver::Failure;
use crate::report;
use crate::rules::Rules;
use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;

#[derive(Parser, Debug)]
#[command(
    name = "objlint",
    version,
    propagate_version = true,
    about = "Static validator for kernel ELF objects (x86-64, arm64)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Check objects (.o, .ko, .ko.xz, .ko.zst, .a, or directories of them).
    Check(CheckArgs),
    /// Compare the symbol tables of two versions of an object (before/after a rewrite).
    Symdiff(SymdiffArgs),
    /// Seal landing pads nobody needs (ENDBR64 / BTI c at functions never address-taken).
    Seal(SealArgs),
    /// Landing pads needed vs unneeded, patchable layouts, per object and in total.
    Stats(StatsArgs),
    /// The unwind table objlint computes (objtool's ORC), or how it agrees
    /// with a reference: the ORC an object carries or objtool wrote.
    Unwind(UnwindArgs),
    /// Language server on stdio.
    Lsp(LspArgs),
    /// Check the objects built from staged (or named) sources, found through
    /// compile_commands.json: the pre-commit hook.
    Precommit(PrecommitArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of objlint or of one subcommand.
    Man {
        /// Subcommand (e.g. `check` for objlint-check(1)).
        subcommand: Option<String>,
    },
    /// List the rules, or explain one.
    Rules {
        /// Show the full documentation of this rule.
        #[arg(long, value_name = "RULE", value_parser = RuleId { explain: true }, hide_possible_values = true)]
        explain: Option<String>,
        /// Every rule's documentation as one Markdown page (docs/RULES.md).
        #[arg(long, conflicts_with = "explain")]
        markdown: bool,
    },
}

/// A rule id on the command line: any text (unknown ids get objlint's own
/// error, with a suggestion), with the known ids as possible values so that
/// shell completion offers them.
#[derive(Clone, Copy)]
struct RuleId {
    /// `rules --explain` also knows symdiff's rule.
    explain: bool,
}

impl clap::builder::TypedValueParser for RuleId {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let mut ids = crate::checks::ids();
        if self.explain {
            ids.extend(crate::checks::OTHER_RULES);
        }
        Some(Box::new(
            ids.into_iter().map(clap::builder::PossibleValue::new),
        ))
    }
}

pub fn usage_error(msg: &str) -> i32 {
    eprintln!("objlint: error: {msg}");
    2
}

/// A driver's failure as the command line reports it (exit 2).
fn failed(f: Failure) -> i32 {
    match f {
        Failure::Usage(e) => usage_error(&e),
        Failure::File(p, e) => {
            eprintln!("objlint: {}: {e}", p.display());
            2
        }
    }
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    // The one-object subcommands under the guard `check` uses per object: a
    // bug (a panic) is one error and exit 2, not an abort.
    let guarded = |what: &str, f: &dyn Fn() -> i32| -> i32 {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| {
            eprintln!("objlint: internal error in {what} (a bug in objlint)");
            2
        })
    };
    match cli.cmd {
        Cmd::Check(a) => check::run(a),
        Cmd::Symdiff(a) => guarded("symdiff", &|| symdiff::run(&a)),
        Cmd::Seal(a) => guarded("seal", &|| seal::run(&a)),
        Cmd::Stats(a) => stats::run(&a),
        Cmd::Unwind(a) => guarded("unwind", &|| unwind::run(&a)),
        Cmd::Lsp(a) => lsp::run(&a),
        Cmd::Precommit(a) => precommit::run(&a),
        Cmd::Completions { shell } => {
            // Into a buffer: clap_complete panics on a write error (a closed pipe).
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "objlint", &mut buf);
            i32::from(std::io::stdout().write_all(&buf).is_err()) * 2
        }
        Cmd::Man { subcommand } => run_man(subcommand.as_deref()),
        Cmd::Rules { explain, markdown } => run_rules(explain, markdown),
    }
}

/// The man page of objlint, or of `objlint SUBCOMMAND` as objlint-SUBCOMMAND(1).
fn run_man(sub: Option<&str>) -> i32 {
    let top = Cli::command();
    let cmd = match sub {
        None => top,
        Some(s) => match top.find_subcommand(s) {
            Some(c) => {
                // clap names are 'static; this runs once per process.
                let name: &'static str = format!("objlint-{s}").leak();
                c.clone()
                    .name(name)
                    .bin_name(name)
                    .version(env!("CARGO_PKG_VERSION"))
            }
            None => return usage_error(&format!("no subcommand {s:?}")),
        },
    };
    let mut out = std::io::stdout().lock();
    match report::man::render(cmd, &mut out) {
        Ok(()) => 0,
        Err(e) => usage_error(&e.to_string()),
    }
}

fn run_rules(explain: Option<String>, markdown: bool) -> i32 {
    let rules = Rules::builtin();
    let mut out = std::io::stdout().lock();
    if markdown {
        let md = report::rules_md::markdown(&rules);
        return i32::from(out.write_all(md.as_bytes()).is_err()) * 2;
    }
    match explain {
        Some(id) => match rules.doc(&id) {
            Some(d) => {
                let _ = writeln!(
                    out,
                    "{} ({}; default {})\n\n{}\n\n## What it does\n{}\n## Why it matters\n{}\n## How to fix\n{}\n",
                    d.id,
                    d.arch.join(", "),
                    d.severity.name(),
                    d.summary,
                    d.what.trim_start(),
                    d.why.trim_start(),
                    d.fix.trim()
                );
                if !d.example.is_empty() {
                    let _ = writeln!(out, "## Example\n{}", d.example.trim_start_matches('\n'));
                }
                0
            }
            None => usage_error(&format!("unknown rule {id:?}")),
        },
        None => {
            for d in &rules.docs {
                let _ = writeln!(out, "{:<24} {:<16} {}", d.id, d.arch.join(","), d.summary);
            }
            0
        }
    }
}
