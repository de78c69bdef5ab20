//! The rules: each a pure function of the model to findings, one file per
//! rule (or per family of rules: `uaccess`, `stack`, `unwind_tables`),
//! registered in [`all`] and documented in `rules/rules.toml`.
//!
//! Four modules here are not rules but what rules share: [`flow`] (the
//! walk over every path, which the stack, uaccess, noinstr, unreachable and
//! unwind rules read), [`pads`] (landing-pad logic), [`profile`] (kernel
//! code or user space) and [`speculation`] (the one pass `retpoline`,
//! `rethunk` and `sls` read).

// Rules.
pub mod analysis_incomplete;
pub mod bti_missing_landing_pad;
pub mod call_ops_align;
pub mod direction_flag;
pub mod fallthrough;
pub mod frame_pointer;
pub mod gnu_property;
pub mod ibt_missing_endbr;
pub mod intra_function_call;
pub mod kcfi_hash_offset;
pub mod noinstr;
pub mod pac_ret;
pub mod patchable_entry;
pub mod rethunk;
pub mod retpoline;
pub mod sls;
pub mod stack;
pub mod symtab_shndx;
pub mod uaccess;
pub mod unreachable;
pub mod unwind_tables;

// Shared by the rules.
pub mod flow;
pub mod pads;
pub mod profile;
pub mod speculation;

use crate::config::Options;
use crate::model::Model;
use crate::rules::{Rules, Severity};
use crate::timing::{self, Phase};
use serde::Serialize;

/// A referenced location a finding is about (a call or reference target).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The section's index in the object (not part of any output format).
    #[serde(skip)]
    pub section_index: usize,
    pub section: String,
    pub offset: u64,
    pub symbol: Option<String>,
    pub symbol_offset: u64,
}

/// One line of the disassembly shown with a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub offset: u64,
    pub text: String,
    /// The instruction the finding is about.
    pub primary: bool,
}

/// A source position from DWARF line information.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceLoc {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub section_index: usize,
    pub section: String,
    pub offset: u64,
    pub symbol: Option<String>,
    pub symbol_offset: u64,
    pub message: String,
    pub target: Option<Target>,
    pub notes: Vec<String>,
    /// Disassembly around the site (for the human renderer).
    pub context: Vec<Line>,
    /// Source position of the site, when the object has DWARF line info
    /// (filled by `crate::source` after the checks ran).
    pub source: Option<SourceLoc>,
    /// The path that led to the site (stack rules): the edges it took other
    /// than running on to the next instruction, the nearest last; empty
    /// when it ran straight from the entry, `None` for other rules.
    pub path: Option<Vec<PathStep>>,
    /// Earlier edges of the path not in `path`.
    pub path_omitted: usize,
    /// Why the object was not fully checked (analysis-incomplete only).
    pub cause: Option<&'static str>,
    /// The config change that settles the finding when the code is right
    /// (the LSP offers it as a code action).
    pub fix: Option<ConfigFix>,
}

/// A name to add to a list in `objlint.toml`: `noreturn = ["name"]` when a
/// callee never returns, `uaccess_safe = ["name"]` when it may run with user
/// access open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigFix {
    pub key: &'static str,
    pub name: String,
}

impl ConfigFix {
    pub fn new(key: &'static str, name: &str) -> Option<ConfigFix> {
        // A name objlint made up (`.text+0x10`) is no symbol to list.
        (!name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.$".contains(c)))
        .then(|| ConfigFix {
            key,
            name: name.to_string(),
        })
    }
}

/// An edge a path took: a branch, a switch case, an alternative, ...
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathStep {
    pub from: Target,
    pub to: Target,
    /// What kind of edge, in words ("jump", "switch case", ...).
    pub edge: &'static str,
}

/// What a check sees.
pub struct Ctx<'a> {
    pub model: &'a Model<'a>,
    pub rules: &'a Rules,
    pub opts: &'a Options,
    /// The object is kernel code ([`profile::is_kernel`]).
    pub kernel: bool,
    /// The kernel version whose policy applies (`--kernel`, the config, or
    /// a module's vermagic), when known.
    pub kernel_version: Option<crate::rules::KernelVersion>,
    /// What the one walk of every function found, for the flow rules.
    flow: std::sync::OnceLock<flow::Facts>,
    speculation: std::sync::OnceLock<speculation::Facts>,
}

impl<'a> Ctx<'a> {
    pub fn new(model: &'a Model<'a>, rules: &'a Rules, opts: &'a Options) -> Ctx<'a> {
        Ctx {
            model,
            rules,
            opts,
            kernel: profile::is_kernel(model, rules, opts),
            kernel_version: opts.kernel.or(model.kernel),
            flow: Default::default(),
            speculation: Default::default(),
        }
    }
}

impl Ctx<'_> {
    /// The flow walk's results, computed on first use: with the stack state
    /// at every instruction when a rule reads them
    /// ([`gnu_property::wants_states`]), so no second walk.
    pub fn flow(&self) -> &flow::Facts {
        self.flow.get_or_init(|| {
            let states = gnu_property::wants_states(self);
            timing::time(Phase::Walk, || flow::analyze(self, states))
        })
    }

    /// The speculation rules' one pass, computed on first use.
    pub fn speculation(&self) -> &speculation::Facts {
        self.speculation
            .get_or_init(|| timing::time(Phase::Speculation, || speculation::analyze(self)))
    }

    /// A finding at a place, with symbol and disassembly context filled in.
    pub fn finding(
        &self,
        rule: &'static str,
        section: usize,
        offset: u64,
        message: String,
    ) -> Finding {
        let place = self.target(section, offset);
        Finding {
            rule,
            severity: self.opts.severity(rule, self.rules),
            section_index: section,
            section: place.section,
            offset,
            symbol: place.symbol,
            symbol_offset: place.symbol_offset,
            message,
            target: None,
            notes: Vec::new(),
            context: self.context(section, offset),
            source: None,
            path: None,
            path_omitted: 0,
            fix: None,
            cause: None,
        }
    }

    /// A target description for a place in this object.
    pub fn target(&self, section: usize, offset: u64) -> Target {
        let m = self.model;
        let (symbol, symbol_offset) = match m.function_containing(section, offset) {
            Some(i) => (
                Some(m.functions[i].name.to_string()),
                offset - m.functions[i].start,
            ),
            None => (None, offset),
        };
        Target {
            section_index: section,
            section: m.obj.section_name(section).to_string(),
            offset,
            symbol,
            symbol_offset,
        }
    }

    /// Up to 6 instructions before and 2 after `offset`, within its function
    /// (or the section when it is outside any function).
    pub fn context(&self, section: usize, offset: u64) -> Vec<Line> {
        let m = self.model;
        let Some(code) = m.section_code(section) else {
            return Vec::new();
        };
        let (lo, hi) = match m.function_containing(section, offset) {
            Some(i) => {
                let r = m.insn_range(&m.functions[i]);
                (r.start, r.end)
            }
            None => (0, code.insns.len()),
        };
        let at = code.lower_bound(offset).clamp(lo, hi.max(lo + 1) - 1);
        let from = at.saturating_sub(6).max(lo);
        let to = (at + 3).min(hi);
        (from..to)
            .map(|i| {
                let ins = &code.insns[i];
                Line {
                    offset: ins.offset(),
                    text: m.disasm(section, ins),
                    primary: ins.offset() == offset,
                }
            })
            .collect()
    }
}

/// A rule implementation.
pub trait Check: Sync {
    fn id(&self) -> &'static str;
    /// Checks the object (called once per object); a check's work over
    /// functions runs in parallel inside it.
    fn check_object(&self, _cx: &Ctx, _out: &mut Vec<Finding>) {}
}

/// Checks whose object-wide part reads the walk ([`Ctx::flow`]): when one
/// is on, the walk runs before the object-wide checks run side by side. It
/// decides only what runs first (a check missing here costs time, not
/// results).
pub const WALK_READERS: &[&str] = &[
    "fallthrough",
    "unreachable",
    "stack-mismatch",
    "stack-modified-return",
    "stack-modified-sibling-call",
    "stack-undefined",
    "frame-pointer",
    "pac-ret",
    "uaccess-call",
    "uaccess-return",
    "uaccess-redundant",
    "direction-flag",
    "intra-function-call",
    "noinstr-call",
    "orc-mismatch",
    "cfi-mismatch",
];

/// The checks that read the speculation pass ([`Ctx::speculation`]), run
/// beside the walk as [`WALK_READERS`] are.
pub const SPECULATION_READERS: &[&str] = &["retpoline", "rethunk", "sls", "analysis-incomplete"];

/// The checks that read the patchable entries ([`Model::patchable`]) and
/// the address-taking references ([`Model::address_taken`]): built side by
/// side before the object-wide checks run, for the reason [`WALK_READERS`]
/// gives.
pub const PATCHABLE_READERS: &[&str] = &[
    "patchable-entry",
    "kcfi-hash-offset",
    "call-ops-align",
    "analysis-incomplete",
];
pub const LANDING_READERS: &[&str] = &[
    "ibt-missing-endbr",
    "bti-missing-landing-pad",
    "gnu-property",
];

/// All checks, in a fixed order.
pub fn all() -> Vec<&'static dyn Check> {
    vec![
        &fallthrough::Fallthrough,
        &ibt_missing_endbr::IbtMissingEndbr,
        &bti_missing_landing_pad::BtiMissingLandingPad,
        &gnu_property::GnuProperty,
        &patchable_entry::PatchableEntry,
        &kcfi_hash_offset::KcfiHashOffset,
        &call_ops_align::CallOpsAlign,
        &uaccess::UaccessCall,
        &uaccess::UaccessReturn,
        &uaccess::UaccessRedundant,
        &noinstr::NoinstrCall,
        &direction_flag::DirectionFlag,
        &intra_function_call::IntraFunctionCall,
        &unreachable::Unreachable,
        &stack::StackMismatch,
        &stack::StackModifiedReturn,
        &stack::StackModifiedSiblingCall,
        &stack::StackUndefined,
        &frame_pointer::FramePointer,
        &pac_ret::PacRet,
        &unwind_tables::OrcMismatch,
        &unwind_tables::CfiMismatch,
        &retpoline::Retpoline,
        &rethunk::Rethunk,
        &sls::Sls,
        &symtab_shndx::SymtabShndx,
        &analysis_incomplete::AnalysisIncomplete,
    ]
}

/// Rule ids that have an implementation.
pub fn ids() -> Vec<&'static str> {
    all().iter().map(|c| c.id()).collect()
}

/// Rule ids documented in `rules/rules.toml` that no check here reports
/// (`symdiff` does).
pub const OTHER_RULES: [&str; 1] = ["symtab-changed"];

/// Modules of this folder that are not rules (see the module doc).
#[cfg(test)]
const SHARED: [&str; 4] = ["flow", "pads", "profile", "speculation"];

#[cfg(test)]
mod tests {
    /// The one list a rule is added to is [`super::all`]: a rule file that
    /// is not in it, a check without docs in `rules/rules.toml` or docs
    /// without a check fail here.
    #[test]
    fn every_rule_is_registered_and_documented() {
        let ids = super::ids();
        let rules = crate::rules::Rules::builtin();
        let documented: Vec<&str> = rules.docs.iter().map(|d| d.id.as_str()).collect();
        for id in &ids {
            assert!(
                documented.contains(id),
                "{id}: no entry in rules/rules.toml"
            );
        }
        for id in &documented {
            assert!(
                ids.contains(id) || super::OTHER_RULES.contains(id),
                "rules/rules.toml documents {id}, which no check reports"
            );
        }
        let registry = include_str!("mod.rs");
        let registry = &registry[registry.find("pub fn all()").unwrap()..];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/checks");
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            let module = path.file_stem().unwrap().to_string_lossy().into_owned();
            if module == "mod" || super::SHARED.contains(&module.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let checks: Vec<&str> = text
                .split("impl Check for ")
                .skip(1)
                .filter_map(|t| t.split(|c: char| !c.is_alphanumeric() && c != '_').next())
                .collect();
            assert!(
                !checks.is_empty(),
                "src/checks/{module}.rs implements no Check: a rule, or add it to SHARED"
            );
            for c in checks {
                assert!(
                    registry.contains(&format!("&{module}::{c},")),
                    "{module}::{c} is not in checks::all()"
                );
            }
        }
    }

    #[test]
    fn walk_readers_are_check_ids() {
        let ids = super::ids();
        for r in super::WALK_READERS
            .iter()
            .chain(super::SPECULATION_READERS)
            .chain(super::PATCHABLE_READERS)
            .chain(super::LANDING_READERS)
        {
            assert!(ids.contains(r), "{r} is not a check id");
        }
    }
}
