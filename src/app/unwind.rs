//! `objlint unwind`.

use super::failed;
use crate::driver::{Failure, UnwindAgainst, UnwindOptions, Unwound};
use crate::report::Format;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct UnwindArgs {
    /// Output: short (one row per line, or a summary), json (one record).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Compare with the ORC table of this object (objtool's output for the
    /// same code, or FILE itself with --reference FILE).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// As objtool's `--prefix=N`: N bytes of NOPs before a function take
    /// its entry state.
    #[arg(long)]
    pub prefix: Option<u64>,
    /// Compare with the object's DWARF CFI (.eh_frame or .debug_frame)
    /// instead, at every instruction it covers.
    #[arg(long, conflicts_with = "reference")]
    pub cfi: bool,
    /// Disagreements to show.
    #[arg(long, default_value_t = 10)]
    pub examples: usize,
    /// Folder of rule files replacing the built-in ones.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The kernel version the object is built from (6.12, 7.3.4): how its
    /// objtool lays out ORC where the object does not say (default: a
    /// module's vermagic, the numbering of its ORC or hints).
    #[arg(long, value_name = "VERSION")]
    pub kernel: Option<String>,
    /// The object to compute the table of.
    pub file: PathBuf,
}

/// `objlint unwind`.
pub fn run(a: &UnwindArgs) -> i32 {
    // Anything but json is the text report.
    let formats = [Format::Human, Format::Short, Format::Json];
    if let Err(e) = crate::report::require_format("unwind", a.format, &formats) {
        return super::usage_error(&e);
    }
    let kernel = match a
        .kernel
        .as_deref()
        .map(|k| (k, crate::rules::KernelVersion::parse(k)))
    {
        None => None,
        Some((_, Some(v))) => Some(v),
        Some((k, None)) => {
            return super::usage_error(&format!(
                "--kernel wants a kernel version (6.12, 7.3.4), not {k:?}"
            ));
        }
    };
    let o = UnwindOptions {
        file: a.file.clone(),
        rules: a.rules.clone(),
        kernel,
        prefix: a.prefix,
        against: match (&a.reference, a.cfi) {
            (_, true) => UnwindAgainst::Cfi,
            (Some(r), false) => UnwindAgainst::Orc(r.clone()),
            (None, false) => UnwindAgainst::Nothing,
        },
        examples: a.examples,
    };
    let json = a.format == Some(Format::Json);
    match crate::driver::unwind(&o) {
        // A bad rules folder is said as the other subcommands' failures are.
        Err(Failure::Usage(e)) => {
            eprintln!("objlint: {e}");
            2
        }
        Err(e) => failed(e),
        Ok(Unwound::Table(rows)) => {
            for r in rows {
                println!("{r}");
            }
            0
        }
        Ok(Unwound::Cfi {
            walked,
            agreement: c,
        }) => {
            if json {
                let rec = crate::report::json::record(
                    "unwind",
                    serde_json::json!({
                        "file": a.file.display().to_string(),
                        "reference": null,
                        "walked": walked,
                        "unexpressible": null,
                        "orc": null,
                        "cfi": c,
                    }),
                );
                println!("{rec}");
            } else {
                println!(
                    "{}: {} instructions compared with {}: {} agree, {} disagree ({} not comparable, {} not walked)",
                    a.file.display(),
                    c.compared,
                    c.source.as_deref().unwrap_or("no DWARF CFI"),
                    c.agree,
                    c.disagree,
                    c.not_comparable,
                    c.not_walked
                );
                for (k, n) in &c.classes {
                    println!("  {n:>6}  {k}");
                }
                for e in &c.examples {
                    println!("  {e}");
                }
                for (k, n) in &c.not_walked_classes {
                    println!("  {n:>6}  not walked: {k}");
                }
                for e in &c.not_walked_examples {
                    println!("  not walked: {e}");
                }
            }
            i32::from(c.disagree > 0)
        }
        Ok(Unwound::Orc {
            walked,
            unexpressible,
            agreement,
        }) => {
            let refpath = a.reference.as_deref().unwrap_or(&a.file);
            if json {
                let rec = crate::report::json::record(
                    "unwind",
                    serde_json::json!({
                        "file": a.file.display().to_string(),
                        "reference": refpath.display().to_string(),
                        "walked": walked,
                        "unexpressible": unexpressible,
                        "orc": agreement,
                        "cfi": null,
                    }),
                );
                println!("{rec}");
            } else {
                println!(
                    "{}: {} ORC rows compared with {}: {} agree, {} disagree",
                    a.file.display(),
                    agreement.compared,
                    refpath.display(),
                    agreement.agree,
                    agreement.disagree
                );
                for (c, n) in &agreement.classes {
                    println!("  {n:>6}  {c}");
                }
                for e in &agreement.examples {
                    println!("  {e}");
                }
            }
            i32::from(agreement.disagree > 0)
        }
    }
}
