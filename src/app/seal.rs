//! `objlint seal`.

use super::{failed, usage_error};
use crate::driver::SealOptions;
use crate::seal::SealMode;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SealArgs {
    /// How to seal: overwrite the pads with NOPs, or list them in a section.
    #[arg(long, value_enum)]
    pub mode: SealMode,
    /// Output file.
    #[arg(
        short,
        long,
        required_unless_present = "in_place",
        conflicts_with = "in_place"
    )]
    pub output: Option<PathBuf>,
    /// Replace the input (through a temporary file and rename).
    #[arg(long)]
    pub in_place: bool,
    /// The input is a linked whole: every function not referenced from data qualifies.
    #[arg(long)]
    pub link: bool,
    /// Seal as kernel code or user space (default: as detected from the
    /// object, rules/profile.toml). The kernel's policies (the seal section,
    /// `--link` keeping only exported functions' pads, the kernel's
    /// no-pad targets) hold for kernel code only.
    #[arg(long, value_enum)]
    pub profile: Option<crate::config::Profile>,
    /// Folder of rule files replacing the built-in ones (`seal.toml`: the
    /// seal section's name and relocation type).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The object to seal.
    pub input: PathBuf,
}

pub fn run(a: &SealArgs) -> i32 {
    if a.in_place && a.output.is_some() {
        return usage_error("use either -o OUT or --in-place");
    }
    let output = match (&a.output, a.in_place) {
        (Some(o), _) => o.clone(),
        (None, true) => a.input.clone(),
        (None, false) => return usage_error("seal needs -o OUT or --in-place"),
    };
    let o = SealOptions {
        input: a.input.clone(),
        output,
        in_place: a.in_place,
        mode: a.mode,
        link: a.link,
        profile: a.profile,
        rules: a.rules.clone(),
    };
    match crate::driver::seal(&o) {
        Ok(msg) => {
            eprintln!("objlint: {}: {msg}", a.input.display());
            0
        }
        Err(e) => failed(e),
    }
}
