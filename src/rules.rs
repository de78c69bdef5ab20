//! Policy as data: the TOML files in `rules/`, embedded at build time and
//! replaceable with `--rules DIR` (a file present there replaces ours).

use crate::elf::Machine;
use crate::elf::special_sections::AltLayout;
use serde::Deserialize;
use std::path::Path;
use std::sync::OnceLock;

const NORETURN: &str = include_str!("../rules/noreturn.toml");
const PREFIX: &str = include_str!("../rules/prefix_symbols.toml");
const RULES: &str = include_str!("../rules/rules.toml");
const LANDING_PADS: &str = include_str!("../rules/landing_pads.toml");
const PATCHABLE: &str = include_str!("../rules/patchable.toml");
const UACCESS_SAFE: &str = include_str!("../rules/uaccess_safe.toml");
const ALTERNATIVES: &str = include_str!("../rules/alternatives.toml");
const NOINSTR: &str = include_str!("../rules/noinstr.toml");
const CALLS: &str = include_str!("../rules/calls.toml");
const SPECIAL: &str = include_str!("../rules/special.toml");
const STACK: &str = include_str!("../rules/stack.toml");
const SPECULATION: &str = include_str!("../rules/speculation.toml");
const UNREACHABLE: &str = include_str!("../rules/unreachable.toml");
const PROFILE: &str = include_str!("../rules/profile.toml");
const SEAL: &str = include_str!("../rules/seal.toml");

/// A set of function names: exact names plus substrings of mangled names.
#[derive(Debug, Default, Clone)]
pub struct NameSet {
    names: rustc_hash::FxHashSet<String>,
    /// Bit `n` set when some name is `n` bytes long (bit 127: 127 or more):
    /// a name of no such length is not hashed.
    lens: u128,
    contains: Vec<String>,
    /// `contains` as one automaton, built on first lookup: every symbol of
    /// every object is looked up, so one pass per name instead of one per pattern.
    substrings: OnceLock<Option<Substrings>>,
    /// Substrings of Rust-mangled names (`rust`): matched only against names
    /// mangled so, `_R` (v0) or `_ZN` (legacy), which few symbols are.
    rust: Vec<String>,
    rust_substrings: OnceLock<Option<Substrings>>,
}

/// The `contains` patterns compiled: a search for the prefix they all share
/// (`_4core` for Rust's panics) rejects almost every name before the automaton runs.
#[derive(Debug, Clone)]
struct Substrings {
    /// The shortest pattern's length: a shorter name contains none.
    shortest: usize,
    common: Option<memchr::memmem::Finder<'static>>,
    all: aho_corasick::AhoCorasick,
}

impl Substrings {
    fn build(patterns: &[String]) -> Option<Substrings> {
        let first = patterns.first()?;
        let common = patterns.iter().fold(first.len(), |n, p| {
            n.min(
                p.bytes()
                    .zip(first.bytes())
                    .take_while(|(a, b)| a == b)
                    .count(),
            )
        });
        let all = aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(patterns)
            .ok()?;
        Some(Substrings {
            shortest: patterns.iter().map(String::len).min().unwrap_or(0),
            common: (common >= 2)
                .then(|| memchr::memmem::Finder::new(&first.as_bytes()[..common]).into_owned()),
            all,
        })
    }
    fn is_match(&self, name: &str) -> bool {
        name.len() >= self.shortest
            && self
                .common
                .as_ref()
                .is_none_or(|f| f.find(name.as_bytes()).is_some())
            && self.all.is_match(name)
    }
}

fn len_bit(name: &str) -> u128 {
    1 << name.len().min(127)
}

/// Several name sets asked at once: a flag per set the name is in, with one
/// lookup of the exact names of every set that has no substring patterns
/// (every symbol of every object is asked about three sets).
pub struct NameFlags<'a> {
    exact: rustc_hash::FxHashMap<&'a str, u8>,
    lens: u128,
    /// Sets with patterns, asked one by one.
    rest: Vec<(&'a NameSet, u8)>,
}

impl<'a> NameFlags<'a> {
    pub fn new(sets: &[(&'a NameSet, u8)]) -> NameFlags<'a> {
        let mut out = NameFlags {
            exact: Default::default(),
            lens: 0,
            rest: Vec::new(),
        };
        for &(set, flag) in sets {
            if set.contains.is_empty() && set.rust.is_empty() {
                for n in &set.names {
                    *out.exact.entry(n.as_str()).or_default() |= flag;
                }
                out.lens |= set.lens;
            } else {
                out.rest.push((set, flag));
            }
        }
        out
    }

    /// The flags of the sets `name` is in.
    #[inline]
    pub fn get(&self, name: &str) -> u8 {
        let mut f = 0;
        if self.lens & len_bit(name) != 0
            && let Some(&x) = self.exact.get(name)
        {
            f = x;
        }
        for &(set, flag) in &self.rest {
            if set.contains(name) {
                f |= flag;
            }
        }
        f
    }
}

impl NameSet {
    pub fn contains(&self, name: &str) -> bool {
        (self.lens & len_bit(name) != 0 && self.names.contains(name))
            || !self.contains.is_empty()
                && self
                    .substrings
                    .get_or_init(|| Substrings::build(&self.contains))
                    .as_ref()
                    .is_some_and(|a| a.is_match(name))
            || !self.rust.is_empty()
                && (name.starts_with("_R") || name.starts_with("_ZN"))
                && self
                    .rust_substrings
                    .get_or_init(|| Substrings::build(&self.rust))
                    .as_ref()
                    .is_some_and(|a| a.is_match(name))
    }
    pub fn insert(&mut self, name: &str) {
        self.add_names([name.to_string()]);
    }
    fn add_names(&mut self, names: impl IntoIterator<Item = String>) {
        for n in names {
            self.lens |= len_bit(&n);
            self.names.insert(n);
        }
    }
    pub fn len(&self) -> usize {
        self.names.len() + self.contains.len() + self.rust.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NameGroup {
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    contains: Vec<String>,
    /// Substrings of Rust-mangled names only.
    #[serde(default)]
    rust: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
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
        names_for(&self.any, &self.x86_64, &self.aarch64, m)
    }
}

/// The names for one machine: those for any, and its own.
fn names_for(any: &NameGroup, x86_64: &NameGroup, aarch64: &NameGroup, m: Machine) -> NameSet {
    let arch = match m {
        Machine::X86_64 => x86_64,
        Machine::Aarch64 => aarch64,
    };
    let mut s = NameSet::default();
    for g in [any, arch] {
        s.add_names(g.names.iter().cloned());
        s.contains.extend(g.contains.iter().cloned());
        s.rust.extend(g.rust.iter().cloned());
    }
    s
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefix {
    pub prefix: String,
    pub reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PrefixFile {
    prefix: Vec<Prefix>,
}

/// `rules/patchable.toml`: where patch sites, mcount sites and kCFI
/// preambles are found.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatchableRules {
    pub entry_sections: Vec<String>,
    pub mcount_sections: Vec<String>,
    pub hash_preamble: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Off,
    /// Reported, never fails a run (not even with `--deny-warnings`): what
    /// is most likely meant, said so it can be checked.
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Off => "off",
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Documentation and defaults of one rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleDoc {
    pub id: String,
    pub arch: Vec<String>,
    pub severity: Severity,
    pub summary: String,
    pub what: String,
    pub why: String,
    /// How to fix a finding (markdown). Required: checked in [`Rules::load`]
    /// so the error names the rule, which serde's "missing field" does not.
    #[serde(default)]
    pub fix: String,
    #[serde(default)]
    pub example: String,
    /// SARIF `properties.tags`: `security` for rules about a protection
    /// (GitHub ranks those by `security_severity`), then the area.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The CVSS 3.1 base vector `security_severity` is the score of
    /// (docs/OUTPUT.md says why each); security rules only.
    #[serde(default)]
    pub cvss: Option<String>,
    /// SARIF `properties.security-severity`, 0.0 to 10.0.
    #[serde(default)]
    pub security_severity: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    rule: Vec<RuleDoc>,
}

/// A kind of exemption list in `rules/`: entries that make a check skip
/// something. [`ExemptionLog`] records which entries matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exemption {
    /// landing_pads.toml `exempt_section`: relocations from the section.
    ExemptSection,
    /// landing_pads.toml `never_exempt_section`: an exemption overruled.
    NeverExemptSection,
    /// landing_pads.toml `no_pad_target`: a symbol that needs no pad.
    NoPadTarget,
    /// uaccess_safe.toml `state_resets`: a function whose toggles are not tracked.
    StateReset,
    /// stack.toml `non_standard`: a function whose stack is not followed.
    NonStandard,
    /// unreachable.toml `skip_function`: a function whose body is not judged.
    SkipFunction,
    /// speculation.toml `exempt_section`: code needing no thunk.
    SpeculationExempt,
    /// noinstr.toml `allow`: a callee noinstr code may call.
    NoinstrAllow,
}

impl Exemption {
    /// The file and key the entries are listed under.
    pub fn list(self) -> &'static str {
        match self {
            Exemption::ExemptSection => "landing_pads.toml exempt_section",
            Exemption::NeverExemptSection => "landing_pads.toml never_exempt_section",
            Exemption::NoPadTarget => "landing_pads.toml no_pad_target",
            Exemption::StateReset => "uaccess_safe.toml state_resets",
            Exemption::NonStandard => "stack.toml non_standard",
            Exemption::SkipFunction => "unreachable.toml skip_function",
            Exemption::SpeculationExempt => "speculation.toml exempt_section",
            Exemption::NoinstrAllow => "noinstr.toml allow",
        }
    }
}

/// One entry of an exemption list: its kind, the architecture of a
/// per-architecture list, and its index there.
pub type ExemptionEntry = (Exemption, Option<Machine>, usize);

/// Which exemption entries matched something in the objects checked, once
/// [`Rules::record_exemptions`] switched it on (off by default: a test runs
/// every committed fixture and fails on an entry that matched nothing).
/// Shared by the clones of the rules that hold it.
#[derive(Debug, Clone, Default)]
pub struct ExemptionLog(std::sync::Arc<LogInner>);

#[derive(Debug, Default)]
struct LogInner {
    on: std::sync::atomic::AtomicBool,
    hits: std::sync::Mutex<rustc_hash::FxHashSet<ExemptionEntry>>,
}

impl ExemptionLog {
    /// Records that `entry` matched (when recording).
    pub fn hit(&self, entry: ExemptionEntry) {
        if self.0.on.load(std::sync::atomic::Ordering::Relaxed) {
            crate::lock(&self.0.hits).insert(entry);
        }
    }
    fn start(&self) {
        self.0.on.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    fn hits(&self) -> rustc_hash::FxHashSet<ExemptionEntry> {
        crate::lock(&self.0.hits).clone()
    }
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
#[serde(deny_unknown_fields)]
pub struct NamePattern {
    pub name: String,
    #[serde(rename = "match")]
    pub kind: MatchKind,
    #[serde(default)]
    pub reason: String,
    /// The architectures it applies to (`x86_64`, `aarch64`); all if empty.
    #[serde(default)]
    pub arch: Vec<String>,
    /// For a symbol: the sections it must be defined in; any if empty.
    #[serde(default)]
    pub section: Vec<String>,
}

impl NamePattern {
    pub fn matches(&self, name: &str) -> bool {
        match self.kind {
            MatchKind::Exact => name == self.name,
            MatchKind::Prefix => name.starts_with(self.name.as_str()),
            MatchKind::Contains => name.contains(self.name.as_str()),
        }
    }

    /// Whether it applies to objects of machine `m`.
    pub fn applies_to(&self, m: Machine) -> bool {
        self.arch.is_empty() || self.arch.iter().any(|a| a == m.name())
    }

    /// Whether it can name a symbol defined in section `section`.
    pub fn in_section(&self, section: &str) -> bool {
        self.section.is_empty() || self.section.iter().any(|s| s == section)
    }

    /// Whether it names a symbol `name` defined in section `section` of an
    /// object of machine `m`.
    pub fn matches_symbol(&self, m: Machine, name: &str, section: &str) -> bool {
        self.applies_to(m) && self.in_section(section) && self.matches(name)
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
            arch: Vec::new(),
            section: Vec::new(),
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
#[serde(deny_unknown_fields)]
pub struct NoendbrAnnotation {
    pub section: String,
    pub layout: AnnotationLayout,
    #[serde(default, rename = "type")]
    pub kind: u32,
}

/// `rules/landing_pads.toml`: which references to code need a landing pad.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Which entries matched (shared with [`Rules::log`]).
    #[serde(skip)]
    pub log: ExemptionLog,
}

impl LandingPadRules {
    /// The exemption a relocation from section `name` of an object of
    /// machine `m` has, if any.
    pub fn exempt_section(&self, m: Machine, name: &str) -> Option<&NamePattern> {
        if let Some(k) = self
            .never_exempt_section
            .iter()
            .position(|p| p.matches(name) && p.applies_to(m))
        {
            if self.exempt_section.iter().any(|p| p.matches(name)) {
                self.log.hit((Exemption::NeverExemptSection, None, k));
            }
            return None;
        }
        let k = self
            .exempt_section
            .iter()
            .position(|p| p.matches(name) && p.applies_to(m))?;
        self.log.hit((Exemption::ExemptSection, None, k));
        Some(&self.exempt_section[k])
    }
    /// The `no_pad_target` entry for a symbol defined in `section` of an
    /// object of machine `m`.
    pub fn no_pad_target(&self, m: Machine, symbol: &str, section: &str) -> Option<&NamePattern> {
        let k = self
            .no_pad_target
            .iter()
            .position(|p| p.matches_symbol(m, symbol, section))?;
        self.log.hit((Exemption::NoPadTarget, None, k));
        Some(&self.no_pad_target[k])
    }
    /// The `no_pad_target` entries (with their index) that apply to objects
    /// of machine `m`, in order ([`NamePattern::in_section`] tells which can
    /// match a symbol of a given section).
    pub fn no_pad_targets_for(&self, m: Machine) -> Vec<(usize, &NamePattern)> {
        self.no_pad_target
            .iter()
            .enumerate()
            .filter(|(_, p)| p.applies_to(m))
            .collect()
    }
    pub fn is_export_section(&self, name: &str) -> bool {
        self.export_section.iter().any(|p| p.matches(name))
    }
}

/// `rules/profile.toml`: kernel code or user space, and the rules that
/// apply to kernel code only.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileRules {
    #[serde(default)]
    pub kernel_rules: Vec<String>,
    #[serde(default)]
    pub kernel_section: Vec<NamePattern>,
    #[serde(default)]
    pub not_kernel_section: Vec<NamePattern>,
    #[serde(default)]
    pub kernel_symbol: Vec<NamePattern>,
}

impl ProfileRules {
    /// Whether a section of this name marks kernel code.
    pub fn is_kernel_section(&self, name: &str) -> bool {
        self.kernel_section.iter().any(|p| p.matches(name))
            && !self.not_kernel_section.iter().any(|p| p.matches(name))
    }
    /// Whether a symbol of this name marks kernel code.
    pub fn is_kernel_symbol(&self, name: &str) -> bool {
        self.kernel_symbol.iter().any(|p| p.matches(name))
    }
    /// Whether a rule applies to kernel code only.
    pub fn kernel_only(&self, rule: &str) -> bool {
        self.kernel_rules.iter().any(|r| r == rule)
    }
}

/// `rules/noreturn.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NoreturnFile {
    #[serde(default)]
    any: NameGroup,
    #[serde(default)]
    x86_64: NameGroup,
    #[serde(default)]
    aarch64: NameGroup,
    /// System calls that never return, by number per architecture.
    #[serde(default)]
    syscalls: ArchValues<Vec<u64>>,
    /// Prefixes `objcopy --prefix-symbols` gives whole objects before they
    /// are linked in, per architecture.
    #[serde(default)]
    renamed: ArchValues<Vec<RenamePrefix>>,
    /// Functions a compiler calls right before a call that never returns.
    #[serde(default)]
    markers: Vec<String>,
    /// Names on objtool's list in some kernel versions only.
    #[serde(default)]
    versioned: VersionedGroups,
}

/// A prefix a build gives every symbol of some objects
/// (`objcopy --prefix-symbols`): such a symbol is noreturn when its name
/// without the prefix is, by the lists or by DWARF (which keeps the names
/// the compiler saw).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenamePrefix {
    pub prefix: String,
    pub reason: String,
}

/// `rules/alternatives.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AltFile {
    #[serde(default)]
    x86_64: Vec<AltLayout>,
    #[serde(default)]
    aarch64: Vec<AltLayout>,
    #[serde(default)]
    replacement_only: ArchValues<Vec<u16>>,
    #[serde(default)]
    nop_callbacks: ArchValues<Vec<String>>,
    #[serde(default)]
    direct_call_flag: ArchValues<u16>,
}

/// `rules/uaccess_safe.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UaccessFile {
    #[serde(default)]
    any: NameGroup,
    #[serde(default)]
    x86_64: NameGroup,
    #[serde(default)]
    aarch64: NameGroup,
    #[serde(default)]
    entered_open: EnteredOpen,
    #[serde(default)]
    state_resets: ArchValues<Vec<ListedFunction>>,
    /// Names on objtool's list in some kernel versions only.
    #[serde(default)]
    versioned: VersionedGroups,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionedGroups {
    #[serde(default)]
    any: Vec<VersionedNames>,
    #[serde(default)]
    x86_64: Vec<VersionedNames>,
    #[serde(default)]
    aarch64: Vec<VersionedNames>,
}

impl VersionedGroups {
    fn all(&self) -> impl Iterator<Item = &VersionedNames> {
        self.any.iter().chain(&self.x86_64).chain(&self.aarch64)
    }
    fn for_machine(&self, m: Machine) -> impl Iterator<Item = &VersionedNames> {
        let arch = match m {
            Machine::X86_64 => &self.x86_64,
            Machine::Aarch64 => &self.aarch64,
        };
        self.any.iter().chain(arch)
    }
}

/// A list's name sets per architecture, built on first use: one for objects
/// of no version a `versioned` entry names (or of unknown version), and one
/// per version some entry names.
#[derive(Debug, Default)]
struct VersionedSets {
    any_version: [OnceLock<NameSet>; 2],
    versions: Vec<(KernelVersion, [OnceLock<NameSet>; 2])>,
}

impl VersionedSets {
    fn new(groups: &VersionedGroups) -> VersionedSets {
        let mut versions: Vec<KernelVersion> = groups
            .all()
            .flat_map(|v| v.absent_in.iter().copied())
            .collect();
        versions.sort_unstable();
        versions.dedup();
        VersionedSets {
            any_version: Default::default(),
            versions: versions
                .into_iter()
                .map(|v| (v, Default::default()))
                .collect(),
        }
    }

    /// The set for machine `m` in objects of version `kernel`: `fixed` (the
    /// names of every version) with the `groups` names that version's list
    /// has (all of them when the version is unknown or named nowhere).
    fn get(
        &self,
        m: Machine,
        kernel: Option<KernelVersion>,
        groups: &VersionedGroups,
        fixed: impl FnOnce() -> NameSet,
    ) -> &NameSet {
        let a = match m {
            Machine::X86_64 => 0,
            Machine::Aarch64 => 1,
        };
        let version = kernel.and_then(|k| self.versions.iter().find(|v| v.0 == k));
        let slot = match version {
            Some((_, sets)) => &sets[a],
            None => &self.any_version[a],
        };
        slot.get_or_init(|| {
            let mut s = fixed();
            for v in groups.for_machine(m) {
                if version.is_none_or(|(k, _)| !v.absent_in.contains(k)) {
                    s.add_names(v.names.iter().cloned());
                }
            }
            s
        })
    }

    /// Forgets the sets built (the names they come from changed).
    fn reset(&mut self) {
        self.any_version = Default::default();
        for (_, sets) in &mut self.versions {
            *sets = Default::default();
        }
    }
}

/// Names of a list that some kernel versions' objtool lacks: for an object
/// of such a version they are left out; for any other, or one whose version
/// is unknown, they are in.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionedNames {
    names: Vec<String>,
    /// `major.minor` versions whose list lacks them.
    absent_in: Vec<KernelVersion>,
    /// Why (for people reading the rules; `objlint rules` does not show it).
    #[allow(dead_code)]
    reason: String,
}

/// A kernel's `major.minor` (what the policy of a release depends on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KernelVersion {
    pub major: u32,
    pub minor: u32,
}

impl KernelVersion {
    /// `6.1`, `6.12.117`, `6.1.0-35-amd64`, `6.12.0+`: the first two numbers.
    pub fn parse(s: &str) -> Option<KernelVersion> {
        let mut parts = s.trim().splitn(3, '.');
        let major = parts.next()?.parse().ok()?;
        let minor: String = parts
            .next()?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Some(KernelVersion {
            major,
            minor: minor.parse().ok()?,
        })
    }
}

impl std::fmt::Display for KernelVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl<'de> Deserialize<'de> for KernelVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        KernelVersion::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("{s:?} is no kernel version (6.1)")))
    }
}

/// objtool's model (listed functions entered open) unless a file says otherwise.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnteredOpen {
    #[serde(default = "yes")]
    x86_64: bool,
    #[serde(default = "yes")]
    aarch64: bool,
}

fn yes() -> bool {
    true
}

impl Default for EnteredOpen {
    fn default() -> Self {
        EnteredOpen {
            x86_64: true,
            aarch64: true,
        }
    }
}

/// One value per architecture.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchValues<T> {
    #[serde(default)]
    pub x86_64: T,
    #[serde(default)]
    pub aarch64: T,
}

impl<T> ArchValues<T> {
    pub fn get(&self, m: Machine) -> &T {
        match m {
            Machine::X86_64 => &self.x86_64,
            Machine::Aarch64 => &self.aarch64,
        }
    }
}

/// `rules/noinstr.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Noinstr {
    pub sections: Vec<String>,
    #[serde(default)]
    pub section_prefixes: Vec<String>,
    #[serde(default)]
    allow: NameGroup,
    #[serde(default)]
    pub indirect_tables: Vec<String>,
    #[serde(default)]
    pub linked_module_sections: Vec<String>,
    pub annotations: InstrAnnotations,
    /// Per architecture: its builds record instrumentation regions.
    #[serde(default)]
    pub regions_recorded: ArchValues<bool>,
}

/// Where objtool's instrumentation_begin()/end() annotations live.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstrAnnotations {
    pub begin: String,
    pub end: String,
    pub typed: String,
    pub type_begin: u32,
    pub type_end: u32,
}

impl Noinstr {
    /// Whether code in this section is noinstr.
    pub fn is_noinstr_section(&self, name: &str) -> bool {
        self.sections.iter().any(|s| s == name)
            || self
                .section_prefixes
                .iter()
                .any(|p| name.starts_with(p.as_str()))
    }
    /// Callees allowed from noinstr code wherever they live.
    pub fn allowed(&self) -> NameSet {
        let mut s = NameSet::default();
        s.add_names(self.allow.names.iter().cloned());
        s.contains.extend(self.allow.contains.iter().cloned());
        s
    }
}

/// `rules/calls.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CallsFile {
    #[serde(default)]
    return_thunks: PerArch,
    #[serde(default)]
    indirect_thunks: PerArch,
    #[serde(default)]
    indirect_jumps_leave: ArchValues<bool>,
    #[serde(default)]
    frame_exempt: PerArch,
}

/// `struct exception_table_entry` (`rules/special.toml`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExTableLayout {
    pub section: String,
    pub size: u64,
    pub insn: u64,
    pub fixup: u64,
}

/// A kernel table whose entries name instructions the source annotates
/// ANNOTATE_RETPOLINE_SAFE (`rules/special.toml` `retpoline_safe_sites`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SafeSitesLayout {
    pub section: String,
    pub size: u64,
    pub insn: u64,
    pub reason: String,
}

/// `struct jump_entry`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JumpTableLayout {
    pub section: String,
    pub size: u64,
    pub code: u64,
    pub target: u64,
}

/// One layout of `struct bug_entry`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BugTableLayout {
    pub name: String,
    pub section: String,
    pub size: u64,
    pub addr: u64,
    /// A relocated `format` field (HAVE_ARCH_BUG_FORMAT).
    #[serde(default)]
    pub format: Option<u64>,
    #[serde(default)]
    pub file: Option<u64>,
    pub flags: u64,
    /// The flag bit of a trap execution resumes after (BUGFLAG_WARNING).
    pub warning: u16,
    /// Kernels the layout is known from and known gone by: a layout is not
    /// tried on an object of a kernel outside them (two layouts of one
    /// size and the same relocated fields are told apart so).
    #[serde(default)]
    pub since: Option<KernelVersion>,
    #[serde(default)]
    pub before: Option<KernelVersion>,
}

impl BugTableLayout {
    /// Whether the layout may be the one of a kernel (any, when unknown).
    pub fn fits_kernel(&self, kernel: Option<KernelVersion>) -> bool {
        kernel
            .is_none_or(|k| self.since.is_none_or(|s| k >= s) && self.before.is_none_or(|b| k < b))
    }
}

/// An ORC register numbering (`ORC_REG_*`), named by the hash
/// `.orc_header` carries.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrcFormat {
    pub name: String,
    /// scripts/orc_hash.sh's SHA-1 of orc_types.h, in hex.
    pub hash: String,
    /// The first kernel known to use it: an object without `.orc_header`
    /// of a known kernel is read with the latest numbering from before it.
    #[serde(default)]
    pub since: Option<KernelVersion>,
    /// Register names by number.
    pub regs: Vec<String>,
}

/// `struct unwind_hint`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnwindHintLayout {
    pub section: String,
    pub size: u64,
    pub ip: u64,
    pub sp_offset: u64,
    pub sp_reg: u64,
    #[serde(rename = "type")]
    pub ty: u64,
    pub signal: u64,
}

/// `.discard.annotate_insn` types.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypedAnnotations {
    pub section: String,
    pub size: u64,
    pub retpoline_safe: u32,
    pub ignore_alts: u32,
    pub intra_function_call: u32,
    pub reachable: u32,
}

/// objtool's annotation sections.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Annotations {
    pub reachable: String,
    pub intra_function_calls: String,
    pub non_standard: String,
    pub ignore_alts: String,
    pub retpoline_safe: String,
    pub typed: TypedAnnotations,
    /// objlint's own: functions whose fall-through into what follows is meant.
    #[serde(default)]
    pub fallthrough: String,
}

/// How a frame-pointer build is told from the object (`rules/stack.toml`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FramePointerDetect {
    pub share: f64,
    pub min_calling: usize,
    /// More functions than this making a direct sibling call without a
    /// frame record: not a frame-pointer build, whatever the share (absent:
    /// no such limit).
    #[serde(default)]
    pub max_unframed_sibling: Option<usize>,
    /// Sections whose functions are trampolines that jump on by design
    /// (not counted for `max_unframed_sibling`).
    #[serde(default)]
    pub trampoline_sections: Vec<String>,
}

/// `rules/stack.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackRules {
    pub frame_pointer_detect: ArchValues<FramePointerDetect>,
    /// Functions whose stack is not followed (as STACK_FRAME_NON_STANDARD),
    /// per architecture, with why.
    #[serde(default)]
    pub non_standard: ArchValues<Vec<NonStandard>>,
    #[serde(default)]
    pub orc_prefix: OrcPrefix,
}

/// Which functions' padding objtool's `--prefix=N` gives their entry state.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrcPrefix {
    /// From this kernel on, only the functions `__patchable_function_entries`
    /// names; before it (or with the kernel unknown), every function N bytes
    /// of NOPs precede.
    pub patchable_only_since: Option<KernelVersion>,
}

/// A function a rule leaves alone, named with the section the kernel
/// defines it in: a function of that name elsewhere is not exempt.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedFunction {
    pub function: String,
    /// The section it is in (exact).
    pub section: String,
    pub reason: String,
}

impl ListedFunction {
    fn names(&self, function: &str, section: &str) -> bool {
        self.function == function && self.section == section
    }
}

/// A function the stack rules leave alone: code that switches stacks or
/// keeps its frame in ways the model does not follow, by design.
pub type NonStandard = ListedFunction;

/// `rules/speculation.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeculationRules {
    pub detect: SpeculationDetect,
    #[serde(default)]
    pub sls_call_thunks: ArchValues<Vec<String>>,
    #[serde(default)]
    pub exempt_section: Vec<SpeculationExempt>,
    pub module_markers: ModuleMarkers,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeculationDetect {
    pub retpoline_sections: Vec<String>,
    pub rethunk_sections: Vec<String>,
    pub sls_share: f64,
}

/// A section whose code some speculation rules do not check.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeculationExempt {
    pub name: String,
    #[serde(rename = "match")]
    pub kind: MatchKind,
    #[serde(default)]
    pub arch: Vec<String>,
    pub rules: Vec<String>,
    /// Only in code linked into the kernel image.
    #[serde(default)]
    pub builtin_only: bool,
    pub reason: String,
}

impl SpeculationExempt {
    /// Whether it exempts section `section` of an object of machine `m`
    /// from `rule`.
    pub fn exempts(&self, m: Machine, rule: &str, section: &str, module: bool) -> bool {
        let p = NamePattern {
            name: self.name.clone(),
            kind: self.kind,
            reason: String::new(),
            arch: self.arch.clone(),
            section: Vec::new(),
        };
        p.applies_to(m)
            && p.matches(section)
            && self.rules.iter().any(|r| r == rule)
            && !(self.builtin_only && module)
    }
}

/// How module code is told from code linked into the kernel image.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleMarkers {
    pub symbols: Vec<String>,
    pub sections: Vec<String>,
}

/// `rules/unreachable.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnreachableRules {
    pub sanitizer_calls: Vec<String>,
    pub sanitizer_window: usize,
    #[serde(default)]
    pub skip_function: Vec<NamePattern>,
}

/// `rules/special.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRules {
    pub ex_table: ArchValues<Vec<ExTableLayout>>,
    #[serde(default)]
    pub retpoline_safe_sites: ArchValues<Vec<SafeSitesLayout>>,
    pub jump_table: JumpTableLayout,
    pub bug_table: ArchValues<Vec<BugTableLayout>>,
    pub unwind_hints: UnwindHintLayout,
    /// ORC register numberings, oldest first (x86).
    #[serde(default)]
    pub orc_format: Vec<OrcFormat>,
    pub annotations: Annotations,
    /// Name prefixes of the retpoline thunks compilers emit into objects,
    /// given the annotations Linux gives its own thunks.
    #[serde(default)]
    pub compiler_thunks: ArchValues<Vec<String>>,
    /// Sections that hold code without being flagged executable.
    #[serde(default)]
    pub code_sections: ArchValues<Vec<String>>,
}

/// Everything from `rules/`, parsed once.
#[derive(Debug)]
pub struct Rules {
    noreturn: NoreturnFile,
    uaccess_safe: UaccessFile,
    alternatives: AltFile,
    calls: CallsFile,
    pub noinstr: Noinstr,
    /// Names added by the config file (all architectures).
    extra_noreturn: Vec<String>,
    extra_uaccess_safe: Vec<String>,
    /// `uaccess_safe()` and `noreturn()` per architecture and version.
    uaccess_safe_sets: VersionedSets,
    noreturn_sets: VersionedSets,
    /// return thunks, indirect thunks, frame-exempt calls, per arch.
    call_sets: [[OnceLock<NameSet>; 3]; 2],
    pub extra_exempt_sections: Vec<String>,
    pub prefixes: Vec<Prefix>,
    pub docs: Vec<RuleDoc>,
    /// Landing-pad policy, with the config's `exempt_sections` appended.
    pub landing_pads: LandingPadRules,
    pub patchable: PatchableRules,
    pub special: SpecialRules,
    pub stack: StackRules,
    pub speculation: SpeculationRules,
    pub unreachable: UnreachableRules,
    pub profile: ProfileRules,
    /// Where `objlint seal --mode section` lists sealed pads.
    pub seal: SealRules,
    /// Which exemption entries matched (off unless [`Rules::record_exemptions`]).
    pub log: ExemptionLog,
}

#[derive(Debug, Deserialize)]
pub struct SealSection {
    pub name: String,
    pub reloc_type: u32,
}

#[derive(Debug, Deserialize)]
struct SealPerArch {
    x86_64: SealSection,
    aarch64: SealSection,
}

/// `rules/seal.toml`.
#[derive(Debug, Deserialize)]
pub struct SealRules {
    section: SealPerArch,
}

impl SealRules {
    pub fn section(&self, m: Machine) -> &SealSection {
        match m {
            Machine::X86_64 => &self.section.x86_64,
            Machine::Aarch64 => &self.section.aarch64,
        }
    }
}

/// The rule files a `--rules` folder may hold.
const FILES: [&str; 15] = [
    "noreturn.toml",
    "prefix_symbols.toml",
    "rules.toml",
    "landing_pads.toml",
    "patchable.toml",
    "uaccess_safe.toml",
    "alternatives.toml",
    "noinstr.toml",
    "calls.toml",
    "special.toml",
    "stack.toml",
    "speculation.toml",
    "unreachable.toml",
    "profile.toml",
    "seal.toml",
];

fn load<T: serde::de::DeserializeOwned>(
    dir: Option<&Path>,
    file: &str,
    builtin: &str,
) -> Result<T, String> {
    let name = file_name(dir, file);
    let text = match user_file(dir, file) {
        Some(p) => std::fs::read_to_string(&p).map_err(|e| format!("{name}: {e}"))?,
        None => builtin.to_string(),
    };
    parse_toml(&text, &name)
}

/// The user's copy of a rule file in `dir`, if it has one.
fn user_file(dir: Option<&Path>, file: &str) -> Option<std::path::PathBuf> {
    dir.map(|d| d.join(file)).filter(|p| p.exists())
}

/// How errors name a rule file: the user's copy, or the built-in one.
fn file_name(dir: Option<&Path>, file: &str) -> String {
    user_file(dir, file).map_or_else(
        || format!("rules/{file} (built in)"),
        |p| p.display().to_string(),
    )
}

/// A TOML file strictly: unknown keys are errors that name the file and the
/// closest key it has.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str, name: &str) -> Result<T, String> {
    toml::from_str(text).map_err(|e| {
        let msg = e.to_string();
        match suggestion(&msg) {
            Some(s) => format!("{name}: {}\n  did you mean `{s}`?", msg.trim_end()),
            None => format!("{name}: {}", msg.trim_end()),
        }
    })
}

/// For serde's "unknown field `x`, expected one of `a`, `b`": the closest.
fn suggestion(msg: &str) -> Option<String> {
    let rest = msg.split("unknown field `").nth(1)?;
    let (got, rest) = rest.split_once('`')?;
    let expected = rest.split("expected").nth(1)?;
    let names = expected.split('`').skip(1).step_by(2);
    closest(got, names)
}

/// The name of `known` closest to `got`, if any is close.
pub fn closest<'a>(got: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(got, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k.to_string())
}

/// What a rules.toml must say of every rule.
fn check_docs(dir: Option<&Path>, docs: &RulesFile) -> Result<(), String> {
    if let Some(d) = docs.rule.iter().find(|d| d.fix.trim().is_empty()) {
        return Err(format!(
            "{}: rule {:?} has no `fix` (how to fix its findings)",
            file_name(dir, "rules.toml"),
            d.id
        ));
    }
    for d in &docs.rule {
        let security = d.tags.iter().any(|t| t == "security");
        let problem = match d.security_severity {
            Some(s) if !(0.0..=10.0).contains(&s) => Some("a security_severity outside 0.0-10.0"),
            Some(_) if !security => Some("a security_severity without the `security` tag"),
            None if security => Some("the `security` tag without a security_severity"),
            _ => None,
        };
        if let Some(p) = problem {
            return Err(format!(
                "{}: rule {:?} has {p}",
                file_name(dir, "rules.toml"),
                d.id
            ));
        }
    }
    Ok(())
}

impl Rules {
    /// The embedded rules, with files in `dir` replacing them where present.
    /// The folder must exist, and hold only rule files.
    pub fn load(dir: Option<&Path>) -> Result<Rules, String> {
        if let Some(d) = dir {
            let entries =
                std::fs::read_dir(d).map_err(|e| format!("rules folder {}: {e}", d.display()))?;
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".toml") && !FILES.contains(&name.as_str()) {
                    let hint = closest(&name, FILES)
                        .map(|s| format!("; did you mean {s}?"))
                        .unwrap_or_default();
                    return Err(format!(
                        "{}: not a rule file (the files are {}){hint}",
                        e.path().display(),
                        FILES.join(", ")
                    ));
                }
            }
        }
        // The rules' documentation is half the bytes: parsed beside the rest
        // (parsing is most of a one-object run's time). Errors as if in order.
        let (docs, (prefixes, rules)) = rayon::join(
            || -> Result<RulesFile, String> {
                let docs: RulesFile = load(dir, "rules.toml", RULES)?;
                check_docs(dir, &docs)?;
                Ok(docs)
            },
            || {
                (
                    load::<PrefixFile>(dir, "prefix_symbols.toml", PREFIX),
                    Rules::load_checks(dir),
                )
            },
        );
        let prefixes = prefixes?;
        let docs = docs?;
        let mut rules = rules?;
        rules.prefixes = prefixes.prefix;
        rules.docs = docs.rule;
        Ok(rules)
    }

    /// The rule files but the documentation and the prefix symbols.
    fn load_checks(dir: Option<&Path>) -> Result<Rules, String> {
        let log = ExemptionLog::default();
        let mut landing_pads: LandingPadRules = load(dir, "landing_pads.toml", LANDING_PADS)?;
        landing_pads.log = log.clone();
        let uaccess_safe: UaccessFile = load(dir, "uaccess_safe.toml", UACCESS_SAFE)?;
        let noreturn: NoreturnFile = load(dir, "noreturn.toml", NORETURN)?;
        Ok(Rules {
            log,
            uaccess_safe_sets: VersionedSets::new(&uaccess_safe.versioned),
            noreturn_sets: VersionedSets::new(&noreturn.versioned),
            noreturn,
            uaccess_safe,
            alternatives: load(dir, "alternatives.toml", ALTERNATIVES)?,
            calls: load(dir, "calls.toml", CALLS)?,
            noinstr: load(dir, "noinstr.toml", NOINSTR)?,
            extra_noreturn: Vec::new(),
            extra_uaccess_safe: Vec::new(),
            call_sets: Default::default(),
            extra_exempt_sections: Vec::new(),
            prefixes: Vec::new(),
            docs: Vec::new(),
            landing_pads,
            patchable: load(dir, "patchable.toml", PATCHABLE)?,
            special: load(dir, "special.toml", SPECIAL)?,
            stack: load(dir, "stack.toml", STACK)?,
            speculation: load(dir, "speculation.toml", SPECULATION)?,
            unreachable: load(dir, "unreachable.toml", UNREACHABLE)?,
            profile: load(dir, "profile.toml", PROFILE)?,
            seal: load(dir, "seal.toml", SEAL)?,
        })
    }

    pub fn builtin() -> Rules {
        Rules::load(None).expect("embedded rules parse")
    }

    /// The embedded rules, parsed once per process (for callers that do not
    /// change them: parsing costs more than checking a small object).
    pub fn builtin_shared() -> &'static Rules {
        static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
        RULES.get_or_init(Rules::builtin)
    }

    /// Functions that never return (list plus config), in objects of kernel
    /// version `kernel` (every version's names when it is unknown).
    pub fn noreturn(&self, m: Machine, kernel: Option<KernelVersion>) -> &NameSet {
        let n = &self.noreturn;
        self.noreturn_sets.get(m, kernel, &n.versioned, || {
            let mut s = names_for(&n.any, &n.x86_64, &n.aarch64, m);
            for name in &self.extra_noreturn {
                s.insert(name);
            }
            s
        })
    }

    /// Calls that say the next call never returns (rules/noreturn.toml `markers`).
    pub fn noreturn_markers(&self) -> &[String] {
        &self.noreturn.markers
    }

    /// System calls that never return, by number (rules/noreturn.toml `syscalls`).
    pub fn noreturn_syscalls(&self, m: Machine) -> &[u64] {
        self.noreturn.syscalls.get(m)
    }

    /// Prefixes objcopy gives renamed objects (rules/noreturn.toml `renamed`).
    pub fn noreturn_renamed(&self, m: Machine) -> &[RenamePrefix] {
        self.noreturn.renamed.get(m)
    }

    pub fn extend_noreturn(&mut self, names: &[String]) {
        self.extra_noreturn.extend(names.iter().cloned());
        self.noreturn_sets.reset();
    }

    /// Functions that may run with user access open (list plus config), in
    /// objects of kernel version `kernel` (every version's names when it is
    /// unknown).
    pub fn uaccess_safe(&self, m: Machine, kernel: Option<KernelVersion>) -> &NameSet {
        let u = &self.uaccess_safe;
        self.uaccess_safe_sets.get(m, kernel, &u.versioned, || {
            let mut s = names_for(&u.any, &u.x86_64, &u.aarch64, m);
            for n in &self.extra_uaccess_safe {
                s.insert(n);
            }
            s
        })
    }

    /// `.altinstructions` entry layouts to try, in order.
    pub fn alt_layouts(&self, m: Machine) -> &[AltLayout] {
        match m {
            Machine::X86_64 => &self.alternatives.x86_64,
            Machine::Aarch64 => &self.alternatives.aarch64,
        }
    }

    /// Features whose alternatives are followed through the replacement only.
    pub fn alt_replacement_only(&self, m: Machine) -> &[u16] {
        self.alternatives.replacement_only.get(m)
    }

    /// Follow every alternative's original too (for measuring what the
    /// replacement-only policy leaves unwalked).
    pub fn clear_replacement_only(&mut self) {
        self.alternatives.replacement_only = ArchValues::default();
    }

    /// Flag bits of an alternative that patches its original into a direct call.
    pub fn alt_direct_call_flag(&self, m: Machine) -> u16 {
        *self.alternatives.direct_call_flag.get(m)
    }

    /// Callbacks of callback alternatives that patch the original to NOPs.
    pub fn alt_nop_callbacks(&self, m: Machine) -> &[String] {
        self.alternatives.nop_callbacks.get(m)
    }

    fn call_set(&self, m: Machine, k: usize, list: &PerArch) -> &NameSet {
        let a = match m {
            Machine::X86_64 => 0,
            Machine::Aarch64 => 1,
        };
        self.call_sets[a][k].get_or_init(|| list.for_machine(m))
    }

    /// A jump to one of these is a return.
    pub fn return_thunks(&self, m: Machine) -> &NameSet {
        self.call_set(m, 0, &self.calls.return_thunks)
    }

    /// A call or jump to one of these is an indirect call through a register.
    pub fn indirect_thunks(&self, m: Machine) -> &NameSet {
        self.call_set(m, 1, &self.calls.indirect_thunks)
    }

    /// Calls the frame-pointer rule does not count (`__fentry__`).
    pub fn frame_exempt_calls(&self, m: Machine) -> &NameSet {
        self.call_set(m, 2, &self.calls.frame_exempt)
    }

    /// Whether an indirect jump inside a function leaves it (a tail call).
    pub fn indirect_jumps_leave(&self, m: Machine) -> bool {
        *self.calls.indirect_jumps_leave.get(m)
    }

    /// Whether a function on the uaccess-safe list is checked as entered
    /// with user access open.
    pub fn uaccess_entered_open(&self, m: Machine) -> bool {
        let e = &self.uaccess_safe.entered_open;
        match m {
            Machine::X86_64 => e.x86_64,
            Machine::Aarch64 => e.aarch64,
        }
    }

    /// Whether `function`, defined in `section` of an object of machine `m`,
    /// is one whose user-access instructions set a lost state rather than
    /// open or close a window (not tracked).
    pub fn uaccess_state_reset(&self, m: Machine, function: &str, section: &str) -> bool {
        self.listed(
            Exemption::StateReset,
            self.uaccess_safe.state_resets.get(m),
            m,
            function,
            section,
        )
    }

    /// Whether `function`, defined in `section` of an object of machine `m`,
    /// is one whose stack is not followed (stack.toml `non_standard`).
    pub fn stack_non_standard(&self, m: Machine, function: &str, section: &str) -> bool {
        self.listed(
            Exemption::NonStandard,
            self.stack.non_standard.get(m),
            m,
            function,
            section,
        )
    }

    fn listed(
        &self,
        kind: Exemption,
        list: &[ListedFunction],
        m: Machine,
        function: &str,
        section: &str,
    ) -> bool {
        let Some(k) = list.iter().position(|e| e.names(function, section)) else {
            return false;
        };
        self.log.hit((kind, Some(m), k));
        true
    }

    /// Whether unreachable.toml's `skip_function` names `function`, defined
    /// in `section` of an object of machine `m`.
    pub fn unreachable_skipped(&self, m: Machine, function: &str, section: &str) -> bool {
        let Some(k) = self
            .unreachable
            .skip_function
            .iter()
            .position(|p| p.matches_symbol(m, function, section))
        else {
            return false;
        };
        self.log.hit((Exemption::SkipFunction, None, k));
        true
    }

    /// Whether speculation.toml exempts section `section` of an object of
    /// machine `m` (in a module or not) from `rule`.
    pub fn speculation_exempt(&self, m: Machine, rule: &str, section: &str, module: bool) -> bool {
        let Some(k) = self
            .speculation
            .exempt_section
            .iter()
            .position(|e| e.exempts(m, rule, section, module))
        else {
            return false;
        };
        self.log.hit((Exemption::SpeculationExempt, None, k));
        true
    }

    /// Records the noinstr.toml `allow` entries that let noinstr code call
    /// `callee` (after [`Noinstr::allowed`] said it may).
    pub fn noinstr_allowed_hit(&self, callee: &str) {
        let allow = &self.noinstr.allow;
        let names = allow.names.iter().map(|n| n == callee);
        let contains = allow.contains.iter().map(|c| callee.contains(c.as_str()));
        for (k, hit) in names.chain(contains).enumerate() {
            if hit {
                self.log.hit((Exemption::NoinstrAllow, None, k));
            }
        }
    }

    /// Start recording which exemption entries match ([`ExemptionLog`]).
    pub fn record_exemptions(&self) {
        self.log.start();
    }

    /// Every entry of every exemption list, described, with whether it
    /// matched something since [`Rules::record_exemptions`].
    pub fn exemption_entries(&self) -> Vec<(ExemptionEntry, String, bool)> {
        let hits = self.log.hits();
        let lp = &self.landing_pads;
        let pattern = |p: &NamePattern| {
            let mut d = format!("{:?} ({:?})", p.name, p.kind);
            if !p.arch.is_empty() {
                d += &format!(" arch {}", p.arch.join(","));
            }
            if !p.section.is_empty() {
                d += &format!(" in {}", p.section.join(","));
            }
            d
        };
        let mut all: Vec<(ExemptionEntry, String)> = Vec::new();
        let mut add = |kind, arch, descs: Vec<String>| {
            for (k, d) in descs.into_iter().enumerate() {
                all.push(((kind, arch, k), d));
            }
        };
        add(
            Exemption::ExemptSection,
            None,
            lp.exempt_section.iter().map(pattern).collect(),
        );
        add(
            Exemption::NeverExemptSection,
            None,
            lp.never_exempt_section.iter().map(pattern).collect(),
        );
        add(
            Exemption::NoPadTarget,
            None,
            lp.no_pad_target.iter().map(pattern).collect(),
        );
        for m in [Machine::X86_64, Machine::Aarch64] {
            let listed = |l: &[ListedFunction]| {
                l.iter()
                    .map(|e| format!("{} in {} ({})", e.function, e.section, m.name()))
                    .collect()
            };
            add(
                Exemption::StateReset,
                Some(m),
                listed(self.uaccess_safe.state_resets.get(m)),
            );
            add(
                Exemption::NonStandard,
                Some(m),
                listed(self.stack.non_standard.get(m)),
            );
        }
        add(
            Exemption::SkipFunction,
            None,
            self.unreachable.skip_function.iter().map(pattern).collect(),
        );
        add(
            Exemption::SpeculationExempt,
            None,
            self.speculation
                .exempt_section
                .iter()
                .map(|e| {
                    format!(
                        "{:?} ({:?}) arch {} for {}",
                        e.name,
                        e.kind,
                        e.arch.join(","),
                        e.rules.join(",")
                    )
                })
                .collect(),
        );
        let allow = &self.noinstr.allow;
        add(
            Exemption::NoinstrAllow,
            None,
            allow
                .names
                .iter()
                .map(|n| format!("{n:?} (exact)"))
                .chain(allow.contains.iter().map(|c| format!("{c:?} (contains)")))
                .collect(),
        );
        all.into_iter()
            .map(|(e, d)| {
                let hit = hits.contains(&e);
                (e, d, hit)
            })
            .collect()
    }

    pub fn extend_uaccess_safe(&mut self, names: &[String]) {
        self.extra_uaccess_safe.extend(names.iter().cloned());
        self.uaccess_safe_sets.reset();
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
    fn substrings_with_and_without_a_common_prefix() {
        let set = |p: &[&str]| NameSet {
            contains: p.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        let shared = set(&["_4core9panicking", "_4core6option13expect_failed"]);
        assert!(shared.contains("_RNvNtCs1_4core9panicking5panic"));
        assert!(shared.contains("x_4core6option13expect_failedy"));
        // The shared prefix alone is not a match.
        assert!(!shared.contains("_RNvNtCs1_4core5other"));
        assert!(!shared.contains("panic"));
        let disjoint = set(&["abc", "xyz"]);
        assert!(disjoint.contains("--xyz--"));
        assert!(!disjoint.contains("ab-xy"));
        assert!(!set(&[]).contains("anything"));
        // Rust patterns: only in names mangled as Rust's are.
        let rust = NameSet {
            rust: vec!["5alloc5alloc18handle_alloc_error".into()],
            ..Default::default()
        };
        assert!(rust.contains("_RNvNtCs1_5alloc5alloc18handle_alloc_error"));
        assert!(rust.contains("_ZN5alloc5alloc18handle_alloc_error17h0123456789abcdefE"));
        assert!(!rust.contains("x5alloc5alloc18handle_alloc_error"));
    }

    /// Several sets asked at once answer as each asked alone: exact names
    /// shared by sets, sets with substring and Rust patterns, names of
    /// lengths no set has, and every symbol name of the fixtures against
    /// the rules' thunk and frame-exempt sets.
    #[test]
    fn name_flags_answer_as_each_set() {
        let exact = |n: &[&str]| {
            let mut s = NameSet::default();
            s.add_names(n.iter().map(|x| x.to_string()));
            s
        };
        let a = exact(&["__x86_return_thunk", "ret", "both"]);
        let b = exact(&["__x86_indirect_thunk_rax", "both"]);
        let mut c = exact(&["plain"]);
        c.contains = vec!["_4core9panicking".into()];
        let d = NameSet {
            rust: vec!["5alloc5alloc18handle_alloc_error".into()],
            ..Default::default()
        };
        let sets = [(&a, 1u8), (&b, 2), (&c, 4), (&d, 8)];
        let flags = NameFlags::new(&sets);
        let each = |n: &str| {
            sets.iter()
                .filter(|(s, _)| s.contains(n))
                .fold(0u8, |f, (_, b)| f | b)
        };
        let mut names: Vec<String> = [
            "__x86_return_thunk",
            "ret",
            "both",
            "__x86_indirect_thunk_rax",
            "plain",
            "x_4core9panicking_y",
            "_RNvNtCs1_5alloc5alloc18handle_alloc_error",
            "x5alloc5alloc18handle_alloc_error",
            "",
            "r",
            "bot",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        crate::model::each_fixture_model(&["testdata"], |_, obj, _| {
            names.extend(obj.symbols.iter().map(|s| s.name.to_string()));
        });
        let r = Rules::builtin();
        let mut flagged = 0;
        for m in [Machine::X86_64, Machine::Aarch64] {
            let rule_sets = [
                (r.return_thunks(m), 1u8),
                (r.indirect_thunks(m), 2),
                (r.frame_exempt_calls(m), 4),
            ];
            let rule_flags = NameFlags::new(&rule_sets);
            for n in &names {
                let alone = rule_sets
                    .iter()
                    .filter(|(s, _)| s.contains(n))
                    .fold(0u8, |f, (_, b)| f | b);
                assert_eq!(rule_flags.get(n), alone, "{n} ({m:?})");
                flagged += usize::from(alone != 0);
            }
        }
        for n in &names {
            assert_eq!(flags.get(n), each(n), "{n}");
        }
        assert!(
            flagged > 10,
            "{flagged} fixture names in the rules' sets: too few"
        );
        assert_eq!(flags.get("both"), 3);
        assert_eq!(flags.get("x_4core9panicking_y"), 4);
    }

    #[test]
    fn embedded_rules_parse() {
        let r = Rules::builtin();
        let x = r.noreturn(Machine::X86_64, None);
        assert!(x.contains("panic"));
        assert!(x.contains("hlt_play_dead"));
        assert!(x.contains("fortify_panic") && x.contains("__fortify_panic"));
        assert!(!r.noreturn(Machine::Aarch64, None).contains("hlt_play_dead"));
        // Each version's objtool list where the version is known: Linux 6.1's
        // global_noreturns[], 6.12's noreturns.h.
        let version = KernelVersion::parse;
        let x61 = r.noreturn(Machine::X86_64, version("6.1.0-35-amd64"));
        assert!(x61.contains("fortify_panic") && !x61.contains("__fortify_panic"));
        assert!(!x61.contains("arch_cpu_idle_dead") && !x61.contains("start_kernel"));
        assert!(x61.contains("rewind_stack_and_make_dead") && x61.contains("panic"));
        let x612 = r.noreturn(Machine::X86_64, version("6.12"));
        assert!(!x612.contains("fortify_panic") && x612.contains("__fortify_panic"));
        assert!(x612.contains("arch_cpu_idle_dead"));
        assert!(
            r.noreturn(Machine::Aarch64, version("6.1"))
                .contains("cpu_die")
        );
        assert!(x.contains("_RNvNtCs1_4core9panicking5panic"));
        assert!(r.is_prefix_symbol("__cfi_foo"));
        assert!(r.doc("fallthrough").is_some());
        let safe = r.uaccess_safe(Machine::X86_64, None);
        assert!(safe.contains("__asan_load8_noabort"));
        assert!(safe.contains("rep_movs_alternative"));
        assert!(safe.contains("clear_user_erms"));
        assert!(safe.contains("__stack_chk_fail"));
        assert!(!safe.contains("copy_from_user"));
        // Each version's own list where the version is known.
        let v = |s| KernelVersion::parse(s);
        let safe61 = r.uaccess_safe(Machine::X86_64, v("6.1.158"));
        assert!(!safe61.contains("__stack_chk_fail"));
        assert!(!safe61.contains("rep_movs_alternative"));
        assert!(safe61.contains("clear_user_erms"));
        assert!(safe61.contains("__asan_load8_noabort"));
        let safe612 = r.uaccess_safe(Machine::X86_64, v("6.12.0-1-amd64"));
        assert!(safe612.contains("__stack_chk_fail"));
        assert!(!safe612.contains("clear_user_erms"));
        // A version the file does not name: every name.
        assert!(
            r.uaccess_safe(Machine::X86_64, v("6.6"))
                .contains("__stack_chk_fail")
        );
        assert!(
            !r.uaccess_safe(Machine::Aarch64, None)
                .contains("rep_movs_alternative")
        );
        assert!(
            r.uaccess_safe(Machine::Aarch64, None)
                .contains("__ubsan_handle_type_mismatch_v1")
        );
        assert_eq!(r.alt_layouts(Machine::X86_64)[0].size, 14);
        assert_eq!(r.alt_layouts(Machine::Aarch64)[0].size, 12);
        assert!(r.alt_replacement_only(Machine::X86_64).contains(&308));
        assert!(r.noinstr.is_noinstr_section(".noinstr.text"));
        assert!(r.noinstr.is_noinstr_section(".text..__x86.indirect_thunk"));
        assert!(!r.noinstr.is_noinstr_section(".text"));
        assert!(
            r.return_thunks(Machine::X86_64)
                .contains("__x86_return_thunk")
        );
        assert!(
            r.indirect_thunks(Machine::X86_64)
                .contains("__x86_indirect_thunk_rax")
        );
        assert!(r.indirect_jumps_leave(Machine::X86_64));
        assert!(!r.indirect_jumps_leave(Machine::Aarch64));
        let lp = &r.landing_pads;
        assert!(lp.exempt_section(Machine::X86_64, "__ex_table").is_some());
        assert!(
            lp.exempt_section(Machine::X86_64, ".discard.reachable")
                .is_some()
        );
        assert!(
            lp.exempt_section(Machine::X86_64, ".discard.ibt_endbr_noseal")
                .is_none()
        );
        assert!(lp.exempt_section(Machine::X86_64, ".rodata").is_none());
        assert!(
            lp.exempt_section(Machine::X86_64, "__patchable_function_entries")
                .is_some()
        );
        // Tables of one architecture only exempt there.
        assert!(
            lp.exempt_section(Machine::X86_64, ".orc_unwind_ip")
                .is_some()
        );
        assert!(
            lp.exempt_section(Machine::Aarch64, ".orc_unwind_ip")
                .is_none()
        );
        assert!(lp.exempt_section(Machine::Aarch64, ".bti_seal").is_some());
        assert!(lp.exempt_section(Machine::X86_64, ".bti_seal").is_none());
        assert!(lp.exempt_section(Machine::Aarch64, "__ex_table").is_some());
        let sct = |m| lp.no_pad_target(m, "__SCT__tp_func_foo", ".static_call.text");
        assert!(sct(Machine::X86_64).is_some());
        assert!(sct(Machine::Aarch64).is_none());
        assert!(
            lp.no_pad_target(Machine::X86_64, "vectors", ".entry.text")
                .is_none()
        );
        assert!(
            lp.no_pad_target(Machine::Aarch64, "vectors", ".entry.text")
                .is_some()
        );
        assert!(
            lp.no_pad_target(Machine::Aarch64, "vectors", ".text")
                .is_none()
        );
        assert!(lp.is_export_section("__ksymtab_gpl"));
    }

    #[test]
    fn a_rule_without_fix_is_a_load_error_naming_it() {
        // The built-in file with the first rule's `fix = """..."""` removed.
        let open = "\nfix = \"\"\"";
        let start = RULES.find(open).unwrap();
        let body = start + open.len();
        let end = body + RULES[body..].find("\"\"\"").unwrap() + 3;
        let first = RULES
            .split("id = \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let text = format!("{}{}", &RULES[..start], &RULES[end..]);
        std::fs::write(dir.path().join("rules.toml"), text).unwrap();
        let e = Rules::load(Some(dir.path())).unwrap_err();
        assert!(e.contains(&format!("rule {first:?} has no `fix`")), "{e}");
        assert!(
            Rules::builtin()
                .docs
                .iter()
                .all(|d| !d.fix.trim().is_empty())
        );
    }

    #[test]
    fn security_tag_and_severity_go_together() {
        let dir = tempfile::tempdir().unwrap();
        for (edit, want) in [
            ("security_severity = 7.0", "without the `security` tag"),
            ("tags = [\"security\"]", "without a security_severity"),
            (
                "tags = [\"security\"]\nsecurity_severity = 11.0",
                "outside 0.0-10.0",
            ),
        ] {
            // The first rule (fallthrough) is not a security rule.
            let text = RULES.replacen("tags = [\"correctness\", \"control-flow\"]", edit, 1);
            std::fs::write(dir.path().join("rules.toml"), text).unwrap();
            let e = Rules::load(Some(dir.path())).unwrap_err();
            assert!(
                e.contains("rule \"fallthrough\" has") && e.contains(want),
                "{e}"
            );
        }
    }

    #[test]
    fn config_exempt_sections_are_honoured() {
        let mut r = Rules::builtin();
        r.extend_exempt_sections(&[".my_table".into(), ".sites.*".into()]);
        assert!(
            r.landing_pads
                .exempt_section(Machine::X86_64, ".my_table")
                .is_some()
        );
        assert!(
            r.landing_pads
                .exempt_section(Machine::X86_64, ".my_table2")
                .is_none()
        );
        assert!(
            r.landing_pads
                .exempt_section(Machine::X86_64, ".sites.a")
                .is_some()
        );
    }
}
