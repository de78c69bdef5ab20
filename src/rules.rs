//! Policy as data: the TOML files in `rules/`, embedded at build time and
//! replaceable with `--rules DIR` (a file present there replaces ours).

use crate::elf::Machine;
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

const NORETURN: &str = include_str!("../rules/noreturn.toml");
const PREFIX: &str = include_str!("../rules/prefix_symbols.toml");
const RULES: &str = include_str!("../rules/rules.toml");
const LANDING_PADS: &str = include_str!("../rules/landing_pads.toml");
const PATCHABLE: &str = include_str!("../rules/patchable.toml");

/// A set of function names: exact names plus substrings of mangled names.
#[derive(Debug, Default, Clone)]
pub struct NameSet {
    names: HashSet<String>,
    contains: Vec<String>,
}

impl NameSet {
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name) || self.contains.iter().any(|c| name.contains(c.as_str()))
    }
    pub fn insert(&mut self, name: &str) {
        self.names.insert(name.to_string());
    }
    pub fn len(&self) -> usize {
        self.names.len() + self.contains.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Debug, Default, Deserialize)]
struct NameGroup {
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    contains: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
struct PerArch {
    #[serde(default)]
    any: NameGroup,
    #[serde(default)]
    x86_64: NameGroup,
    #[serde(default)]
    aarch64: NameGroup,
}

impl PerArch {
    fn for_machine(&self, m: Machine) -> NameSet {
        let arch = match m {
            Machine::X86_64 => &self.x86_64,
            Machine::Aarch64 => &self.aarch64,
        };
        let mut s = NameSet::default();
        for g in [&self.any, arch] {
            s.names.extend(g.names.iter().cloned());
            s.contains.extend(g.contains.iter().cloned());
        }
        s
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Prefix {
    pub prefix: String,
    pub reason: String,
}

#[derive(Debug, Deserialize)]
struct PrefixFile {
    prefix: Vec<Prefix>,
}

/// `rules/patchable.toml`: where patch sites, mcount sites and kCFI
/// preambles are found.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PatchableRules {
    pub entry_sections: Vec<String>,
    pub mcount_sections: Vec<String>,
    pub hash_preamble: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Off,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Off => "off",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Documentation and defaults of one rule.
#[derive(Debug, Clone, Deserialize)]
pub struct RuleDoc {
    pub id: String,
    pub arch: Vec<String>,
    pub severity: Severity,
    pub summary: String,
    pub what: String,
    pub why: String,
    #[serde(default)]
    pub example: String,
}

#[derive(Debug, Deserialize)]
struct RulesFile {
    rule: Vec<RuleDoc>,
}

/// How a [`NamePattern`] matches a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchKind {
    Exact,
    Prefix,
    Contains,
}

/// A section or symbol name pattern with the reason it is listed.
#[derive(Debug, Clone, Deserialize)]
pub struct NamePattern {
    pub name: String,
    #[serde(rename = "match")]
    pub kind: MatchKind,
    #[serde(default)]
    pub reason: String,
}

impl NamePattern {
    pub fn matches(&self, name: &str) -> bool {
        match self.kind {
            MatchKind::Exact => name == self.name,
            MatchKind::Prefix => name.starts_with(self.name.as_str()),
            MatchKind::Contains => name.contains(self.name.as_str()),
        }
    }

    /// A config-file section name: `NAME*` is a prefix, anything else exact.
    pub fn from_config(name: &str) -> NamePattern {
        let (name, kind) = match name.strip_suffix('*') {
            Some(p) => (p, MatchKind::Prefix),
            None => (name, MatchKind::Exact),
        };
        NamePattern {
            name: name.to_string(),
            kind,
            reason: "listed in the config file's exempt_sections".to_string(),
        }
    }
}

/// How an annotation section lists its places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnnotationLayout {
    /// Every relocation names one place.
    List,
    /// 8-byte entries `.long place - .; .long type`.
    Typed,
}

/// An annotation section naming instructions that need no landing pad.
#[derive(Debug, Clone, Deserialize)]
pub struct NoendbrAnnotation {
    pub section: String,
    pub layout: AnnotationLayout,
    #[serde(default, rename = "type")]
    pub kind: u32,
}

/// `rules/landing_pads.toml`: which references to code need a landing pad.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct LandingPadRules {
    #[serde(default)]
    pub exempt_section: Vec<NamePattern>,
    #[serde(default)]
    pub never_exempt_section: Vec<NamePattern>,
    #[serde(default)]
    pub no_pad_target: Vec<NamePattern>,
    #[serde(default)]
    pub noendbr_annotation: Vec<NoendbrAnnotation>,
    #[serde(default)]
    pub export_section: Vec<NamePattern>,
    #[serde(default)]
    pub kernel_section: Vec<NamePattern>,
}

impl LandingPadRules {
    /// The exemption a relocation from section `name` has, if any.
    pub fn exempt_section(&self, name: &str) -> Option<&NamePattern> {
        if self.never_exempt_section.iter().any(|p| p.matches(name)) {
            return None;
        }
        self.exempt_section.iter().find(|p| p.matches(name))
    }
    pub fn no_pad_target(&self, symbol: &str) -> Option<&NamePattern> {
        self.no_pad_target.iter().find(|p| p.matches(symbol))
    }
    pub fn is_export_section(&self, name: &str) -> bool {
        self.export_section.iter().any(|p| p.matches(name))
    }
    pub fn is_kernel_section(&self, name: &str) -> bool {
        self.kernel_section.iter().any(|p| p.matches(name))
    }
}

/// Everything from `rules/`, parsed once.
#[derive(Debug)]
pub struct Rules {
    noreturn: PerArch,
    /// Names added by the config file (all architectures).
    extra_noreturn: Vec<String>,
    extra_uaccess_safe: Vec<String>,
    pub extra_exempt_sections: Vec<String>,
    pub prefixes: Vec<Prefix>,
    pub docs: Vec<RuleDoc>,
    /// Landing-pad policy, with the config's `exempt_sections` appended.
    pub landing_pads: LandingPadRules,
    pub patchable: PatchableRules,
}

fn load<T: serde::de::DeserializeOwned>(
    dir: Option<&Path>,
    file: &str,
    builtin: &str,
) -> Result<T, String> {
    let text = match dir.map(|d| d.join(file)).filter(|p| p.exists()) {
        Some(p) => std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?,
        None => builtin.to_string(),
    };
    toml::from_str(&text).map_err(|e| format!("rules/{file}: {e}"))
}

impl Rules {
    /// The embedded rules, with files in `dir` replacing them where present.
    pub fn load(dir: Option<&Path>) -> Result<Rules, String> {
        let prefixes: PrefixFile = load(dir, "prefix_symbols.toml", PREFIX)?;
        let docs: RulesFile = load(dir, "rules.toml", RULES)?;
        Ok(Rules {
            noreturn: load(dir, "noreturn.toml", NORETURN)?,
            extra_noreturn: Vec::new(),
            extra_uaccess_safe: Vec::new(),
            extra_exempt_sections: Vec::new(),
            prefixes: prefixes.prefix,
            docs: docs.rule,
            landing_pads: load(dir, "landing_pads.toml", LANDING_PADS)?,
            patchable: load(dir, "patchable.toml", PATCHABLE)?,
        })
    }

    pub fn builtin() -> Rules {
        Rules::load(None).expect("embedded rules parse")
    }

    pub fn noreturn(&self, m: Machine) -> NameSet {
        let mut s = self.noreturn.for_machine(m);
        for n in &self.extra_noreturn {
            s.insert(n);
        }
        s
    }

    pub fn extend_noreturn(&mut self, names: &[String]) {
        self.extra_noreturn.extend(names.iter().cloned());
    }

    pub fn extend_uaccess_safe(&mut self, names: &[String]) {
        self.extra_uaccess_safe.extend(names.iter().cloned());
    }

    pub fn extend_exempt_sections(&mut self, names: &[String]) {
        self.extra_exempt_sections.extend(names.iter().cloned());
        self.landing_pads
            .exempt_section
            .extend(names.iter().map(|n| NamePattern::from_config(n)));
    }

    /// Whether a symbol names a preamble (`__cfi_`, `__pfx_`) rather than a function.
    pub fn is_prefix_symbol(&self, name: &str) -> bool {
        self.prefixes
            .iter()
            .any(|p| name.starts_with(p.prefix.as_str()))
    }

    pub fn doc(&self, id: &str) -> Option<&RuleDoc> {
        self.docs.iter().find(|d| d.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_rules_parse() {
        let r = Rules::builtin();
        let x = r.noreturn(Machine::X86_64);
        assert!(x.contains("panic"));
        assert!(x.contains("hlt_play_dead"));
        assert!(!r.noreturn(Machine::Aarch64).contains("hlt_play_dead"));
        assert!(x.contains("_RNvNtCs1_4core9panicking5panic"));
        assert!(r.is_prefix_symbol("__cfi_foo"));
        assert!(r.doc("fallthrough").is_some());
        let lp = &r.landing_pads;
        assert!(lp.exempt_section("__ex_table").is_some());
        assert!(lp.exempt_section(".discard.reachable").is_some());
        assert!(lp.exempt_section(".discard.ibt_endbr_noseal").is_none());
        assert!(lp.exempt_section(".rodata").is_none());
        assert!(lp.exempt_section("__patchable_function_entries").is_some());
        assert!(lp.no_pad_target("__SCT__tp_func_foo").is_some());
        assert!(lp.is_export_section("__ksymtab_gpl"));
    }

    #[test]
    fn config_exempt_sections_are_honoured() {
        let mut r = Rules::builtin();
        r.extend_exempt_sections(&[".my_table".into(), ".sites.*".into()]);
        assert!(r.landing_pads.exempt_section(".my_table").is_some());
        assert!(r.landing_pads.exempt_section(".my_table2").is_none());
        assert!(r.landing_pads.exempt_section(".sites.a").is_some());
    }
}
