//! Options of a run: command line merged over `objlint.toml`.

use crate::elf::Machine;
use crate::rules::{Rules, Severity};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap, HashSet};
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
    /// Where each rule's documentation is: a URL with `{rule}` for the id
    /// (SARIF `helpUri`, the LSP's `codeDescription`).
    pub rules_doc_url: Option<String>,
    /// Findings the config's per-file and per-symbol ignores drop.
    pub ignores: Ignores,
    /// Kernel code or user space (`--profile`); detected per object when `None`.
    pub profile: Option<Profile>,
    /// The kernel version whose policy applies (`--kernel`); read from a
    /// module's vermagic when `None`.
    pub kernel: Option<crate::rules::KernelVersion>,
}

/// `[per_file_ignores]` and `[per_symbol_ignores]`: glob → rule ids.
#[derive(Debug, Clone, Default)]
pub struct Ignores {
    /// The config file's folder: file patterns with a `/` are relative to it.
    root: PathBuf,
    files: Vec<(globset::GlobMatcher, bool, Vec<String>)>,
    symbols: Vec<(globset::GlobMatcher, Vec<String>)>,
}

impl Ignores {
    fn new(
        root: &Path,
        files: &BTreeMap<String, Vec<String>>,
        symbols: &BTreeMap<String, Vec<String>>,
    ) -> Result<Ignores, String> {
        let glob = |table: &str, p: &str| {
            globset::GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map(|g| g.compile_matcher())
                .map_err(|e| format!("[{table}] {p:?}: {e}"))
        };
        Ok(Ignores {
            root: root.to_path_buf(),
            files: files
                .iter()
                .map(|(p, r)| Ok((glob("per_file_ignores", p)?, p.contains('/'), r.clone())))
                .collect::<Result<_, String>>()?,
            symbols: symbols
                .iter()
                .map(|(p, r)| Ok((glob("per_symbol_ignores", p)?, r.clone())))
                .collect::<Result<_, String>>()?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.symbols.is_empty()
    }

    /// The rules ignored in every finding of the object read from `file`.
    fn file_rules(&self, file: &Path) -> Vec<&str> {
        let abs = std::env::current_dir()
            .map(|d| crate::paths::normalize(&d.join(file)))
            .unwrap_or_else(|_| file.to_path_buf());
        let rel = abs.strip_prefix(&self.root).ok();
        let name = file.file_name().map(Path::new);
        self.files
            .iter()
            .filter(|(g, slash, _)| {
                if *slash {
                    rel.is_some_and(|r| g.is_match(r))
                } else {
                    name.is_some_and(|n| g.is_match(n))
                }
            })
            .flat_map(|(_, _, r)| r.iter().map(String::as_str))
            .collect()
    }

    /// Drops the findings of the object read from `file` that an ignore
    /// covers; returns how many.
    pub fn filter(&self, file: &Path, findings: &mut Vec<crate::checks::Finding>) -> usize {
        if self.is_empty() || findings.is_empty() {
            return 0;
        }
        let by_file = self.file_rules(file);
        let before = findings.len();
        findings.retain(|f| {
            let sym = f.symbol.as_deref();
            !(by_file.contains(&f.rule)
                || self.symbols.iter().any(|(g, rules)| {
                    sym.is_some_and(|s| g.is_match(s)) && rules.iter().any(|r| r == f.rule)
                }))
        });
        before - findings.len()
    }
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
        let mut none = false;
        for n in names {
            match n.as_ref().trim() {
                "retpoline" => m.retpoline = true,
                "rethunk" => m.rethunk = true,
                "sls" => m.sls = true,
                "sls-blr" => {
                    m.sls = true;
                    m.sls_blr = true
                }
                "none" => none = true,
                "" => {}
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
        if none && m != Mitigations::default() {
            return Err("none cannot go with a mitigation".into());
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
    /// Rule documentation URL template (`{rule}` for the rule id).
    #[serde(default)]
    pub rules_doc_url: Option<String>,
    /// File glob -> rules not reported in the objects it matches.
    #[serde(default)]
    pub per_file_ignores: BTreeMap<String, Vec<String>>,
    /// Symbol glob -> rules not reported in the symbols it matches.
    #[serde(default)]
    pub per_symbol_ignores: BTreeMap<String, Vec<String>>,
    /// `kernel` or `user` (`--profile`); detected per object when absent.
    #[serde(default)]
    pub profile: Option<Profile>,
    /// The kernel version the objects are built from (`"6.1"`): its
    /// objtool's lists apply (`--kernel`).
    #[serde(default)]
    pub kernel: Option<crate::rules::KernelVersion>,
    /// The file's folder (set when read).
    #[serde(skip)]
    pub dir: PathBuf,
}

/// `text` (an `objlint.toml`, maybe empty) with `name` added to the list
/// `key` (created when absent), comments and layout kept: the edit of a
/// [`crate::checks::ConfigFix`].
pub fn with_name_added(text: &str, key: &str, name: &str) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
    match doc.get_mut(key) {
        None => {
            let mut a = toml_edit::Array::new();
            a.push(name);
            doc.insert(key, toml_edit::value(a));
        }
        Some(item) => {
            let a = item
                .as_array_mut()
                .ok_or_else(|| format!("`{key}` is not a list"))?;
            if !a.iter().any(|v| v.as_str() == Some(name)) {
                a.push(name);
            }
        }
    }
    Ok(doc.to_string())
}

impl ConfigFile {
    pub fn read(path: &Path) -> Result<ConfigFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut cfg: ConfigFile = crate::rules::parse_toml(&text, &path.display().to_string())?;
        let dir = path.parent().unwrap_or(Path::new(""));
        cfg.dir = std::env::current_dir()
            .map(|d| crate::paths::normalize(&d.join(dir)))
            .unwrap_or_else(|_| dir.to_path_buf());
        Ignores::new(&cfg.dir, &cfg.per_file_ignores, &cfg.per_symbol_ignores)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(m) = &cfg.mitigations {
            Mitigations::parse(m).map_err(|e| format!("{}: mitigations: {e}", path.display()))?;
        }
        if let Some(u) = &cfg.rules_doc_url
            && !crate::report::is_doc_url(u)
        {
            return Err(format!(
                "{}: rules_doc_url = {u:?}: want an absolute URL (https://...), with {{rule}} for the rule id",
                path.display()
            ));
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
        start.ancestors().find_map(ConfigFile::in_dir)
    }

    /// `objlint.toml` in `dir` itself.
    pub fn in_dir(dir: &Path) -> Option<PathBuf> {
        Some(dir.join("objlint.toml")).filter(|p| p.is_file())
    }

    /// The rule ids the file names, with where: `[rules]` keys and the
    /// ignores' values.
    pub fn rule_names(&self) -> Vec<(&str, &'static str)> {
        let mut out: Vec<(&str, &'static str)> =
            self.rules.keys().map(|r| (r.as_str(), "[rules]")).collect();
        for (table, map) in [
            ("[per_file_ignores]", &self.per_file_ignores),
            ("[per_symbol_ignores]", &self.per_symbol_ignores),
        ] {
            out.extend(map.values().flatten().map(|r| (r.as_str(), table)));
        }
        out
    }

    /// Merge into options and rules (command-line flags are applied after).
    pub fn apply(&self, opts: &mut Options, rules: &mut Rules) {
        // Checked when the file was read.
        opts.ignores = Ignores::new(&self.dir, &self.per_file_ignores, &self.per_symbol_ignores)
            .unwrap_or_default();
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
        if self.rules_doc_url.is_some() {
            opts.rules_doc_url.clone_from(&self.rules_doc_url);
        }
        if self.profile.is_some() {
            opts.profile = self.profile;
        }
        if self.kernel.is_some() {
            opts.kernel = self.kernel;
        }
        if let Some(m) = &self.mitigations {
            // Checked when the file was read.
            opts.mitigations = Mitigations::parse(m).ok();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_name_added;

    #[test]
    fn names_are_added_keeping_the_file() {
        let text = "# mine\nnoreturn = [\"a\"] # why\n\n[rules]\nfallthrough = \"error\"\n";
        let out = with_name_added(text, "noreturn", "b").unwrap();
        assert_eq!(
            out,
            "# mine\nnoreturn = [\"a\", \"b\"] # why\n\n[rules]\nfallthrough = \"error\"\n"
        );
        assert_eq!(with_name_added(&out, "noreturn", "b").unwrap(), out);
        let out = with_name_added(text, "uaccess_safe", "h").unwrap();
        let cfg: super::ConfigFile = toml::from_str(&out).unwrap();
        assert_eq!(cfg.uaccess_safe, ["h"]);
        assert_eq!(cfg.noreturn, ["a"]);
        assert!(out.starts_with("# mine\n"));
        assert_eq!(
            with_name_added("", "noreturn", "x").unwrap(),
            "noreturn = [\"x\"]\n"
        );
        assert!(with_name_added("noreturn = 1\n", "noreturn", "x").is_err());
    }
}
