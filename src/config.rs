//! Options of a run: command line merged over `objlint.toml`.

use crate::elf::Machine;
use crate::rules::{Rules, Severity};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only these rules (from `--enable`), when set.
    pub only: Option<HashSet<String>>,
    pub disabled: HashSet<String>,
    pub severities: HashMap<String, Severity>,
    /// Force IBT/BTI checks on or off (`--ibt`/`--no-ibt`); detected when `None`.
    pub ibt: Option<bool>,
    /// Whether objects are built with frame pointers (`--frame-pointer`);
    /// detected when `None`.
    pub frame_pointer: Option<bool>,
    /// Expected `-fpatchable-function-entry=M,N`; inferred when `None`.
    pub patchable: Option<(u32, u32)>,
    /// The input is a linked whole (vmlinux.o, a final module object).
    pub link: bool,
    /// Only objects of this machine are checked.
    pub arch: Option<Machine>,
    /// The speculation mitigations objects are built with
    /// (`--mitigations`); detected per object when `None`.
    pub mitigations: Option<Mitigations>,
    /// Findings at warning level fail the run (exit 1) as errors do.
    pub deny_warnings: bool,
    /// Kernel code or user space (`--profile`); detected per object when `None`.
    pub profile: Option<Profile>,
}

/// Which conventions an object follows: the kernel's, where the rules of
/// `rules/profile.toml` `kernel_rules` apply, or user space's, where they do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    Kernel,
    User,
}

/// Speculation mitigations a build uses (the retpoline, rethunk and sls rules).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mitigations {
    /// x86 `CONFIG_MITIGATION_RETPOLINE`: indirect branches through thunks.
    pub retpoline: bool,
    /// x86 `CONFIG_MITIGATION_RETHUNK`: returns through `__x86_return_thunk`.
    pub rethunk: bool,
    /// `-mharden-sls`: a barrier after returns and indirect jumps (x86
    /// `CONFIG_MITIGATION_SLS`; arm64 `=retbr` or `=all`).
    pub sls: bool,
    /// arm64 `-mharden-sls=all` (or `=blr`): indirect calls through thunks.
    pub sls_blr: bool,
}

impl Mitigations {
    pub const NAMES: [&'static str; 5] = ["retpoline", "rethunk", "sls", "sls-blr", "none"];

    /// A list as given to `--mitigations` or the config file: `none`, or
    /// names from [`Mitigations::NAMES`].
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Mitigations, String> {
        let mut m = Mitigations::default();
        for n in names {
            match n.as_ref().trim() {
                "retpoline" => m.retpoline = true,
                "rethunk" => m.rethunk = true,
                "sls" => m.sls = true,
                "sls-blr" => {
                    m.sls = true;
                    m.sls_blr = true
                }
                "none" | "" => {}
                other => {
                    let hint = crate::rules::closest(other, Mitigations::NAMES)
                        .map(|s| format!("; did you mean {s}?"))
                        .unwrap_or_default();
                    return Err(format!(
                        "unknown mitigation {other:?} (known: {}){hint}",
                        Mitigations::NAMES.join(", ")
                    ));
                }
            }
        }
        Ok(m)
    }
}

impl Options {
    /// These options for an object of user space: the kernel-only rules off.
    pub fn for_user_space(&self, rules: &Rules) -> Options {
        let mut o = self.clone();
        o.disabled
            .extend(rules.profile.kernel_rules.iter().cloned());
        o
    }

    pub fn enabled(&self, rule: &str) -> bool {
        if self.disabled.contains(rule) {
            return false;
        }
        if let Some(only) = &self.only {
            // Checking only some rules still says what they could not check.
            return only.contains(rule) || rule == "analysis-incomplete";
        }
        self.severities.get(rule) != Some(&Severity::Off)
    }

    pub fn severity(&self, rule: &str, rules: &Rules) -> Severity {
        if let Some(s) = self.severities.get(rule) {
            return *s;
        }
        rules
            .doc(rule)
            .map(|d| d.severity)
            .unwrap_or(Severity::Error)
    }
}

/// `objlint.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// rule id -> off | warning | error
    #[serde(default)]
    pub rules: HashMap<String, Severity>,
    /// Extra noreturn function names.
    #[serde(default)]
    pub noreturn: Vec<String>,
    /// Extra uaccess-safe function names.
    #[serde(default)]
    pub uaccess_safe: Vec<String>,
    /// Extra sections whose references need no landing pad.
    #[serde(default)]
    pub exempt_sections: Vec<String>,
    /// `[M, N]` of `-fpatchable-function-entry`.
    #[serde(default)]
    pub patchable: Option<[u32; 2]>,
    #[serde(default)]
    pub ibt: Option<bool>,
    /// Objects are built with frame pointers (the frame-pointer rule).
    #[serde(default)]
    pub frame_pointer: Option<bool>,
    #[serde(default)]
    pub link: Option<bool>,
    /// Speculation mitigations of the build (`["retpoline", "rethunk",
    /// "sls"]`, `["none"]`); detected per object when absent.
    #[serde(default)]
    pub mitigations: Option<Vec<String>>,
    /// Folder with rule files replacing the built-in ones.
    #[serde(default)]
    pub rules_dir: Option<PathBuf>,
    /// Warning-level findings make the exit status 1 (`--deny-warnings`).
    #[serde(default)]
    pub deny_warnings: Option<bool>,
    /// `kernel` or `user` (`--profile`); detected per object when absent.
    #[serde(default)]
    pub profile: Option<Profile>,
}

impl ConfigFile {
    pub fn read(path: &Path) -> Result<ConfigFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let cfg: ConfigFile = crate::rules::parse_toml(&text, &path.display().to_string())?;
        if let Some(m) = &cfg.mitigations {
            Mitigations::parse(m).map_err(|e| format!("{}: mitigations: {e}", path.display()))?;
        }
        if let Some([m, n]) = cfg.patchable.filter(|[m, n]| n > m) {
            return Err(format!(
                "{}: patchable = [{m}, {n}]: N must not exceed M",
                path.display()
            ));
        }
        Ok(cfg)
    }

    /// `objlint.toml` in `start` or the nearest folder above it.
    pub fn find(start: &Path) -> Option<PathBuf> {
        let mut dir = Some(start);
        while let Some(d) = dir {
            let p = d.join("objlint.toml");
            if p.is_file() {
                return Some(p);
            }
            dir = d.parent();
        }
        None
    }

    /// Merge into options and rules (command-line flags are applied after).
    pub fn apply(&self, opts: &mut Options, rules: &mut Rules) {
        opts.severities
            .extend(self.rules.iter().map(|(k, v)| (k.clone(), *v)));
        rules.extend_noreturn(&self.noreturn);
        rules.extend_uaccess_safe(&self.uaccess_safe);
        rules.extend_exempt_sections(&self.exempt_sections);
        if let Some([m, n]) = self.patchable {
            opts.patchable = Some((m, n));
        }
        if self.ibt.is_some() {
            opts.ibt = self.ibt;
        }
        if self.frame_pointer.is_some() {
            opts.frame_pointer = self.frame_pointer;
        }
        if let Some(l) = self.link {
            opts.link = l;
        }
        if let Some(d) = self.deny_warnings {
            opts.deny_warnings = d;
        }
        if self.profile.is_some() {
            opts.profile = self.profile;
        }
        if let Some(m) = &self.mitigations {
            // Checked when the file was read.
            opts.mitigations = Mitigations::parse(m).ok();
        }
    }
}
