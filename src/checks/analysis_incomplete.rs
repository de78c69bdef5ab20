//! `analysis-incomplete`: what objlint did not check in an object, and why.
//!
//! A clean result must mean everything was checked, so every place where a
//! rule could not look (bytes a path reaches that do not decode, a switch
//! table that could not be read, a special section whose layout is unknown,
//! functions an exemption in `rules/` takes out of a rule, annotations a
//! linked module lost) is collected as a [`Gap`] and reported here: one
//! finding per cause per object, at its first place, with the others
//! counted. What the object's own source asked not to be checked
//! (`STACK_FRAME_NON_STANDARD`, `ANNOTATE_*`) is not a gap: objtool honours
//! the same annotations.
//!
//! Gaps count only for rules that are on: with every flow rule off, an
//! undecodable instruction on a path is nobody's loss.

use super::flow;
use super::{Check, Ctx, Finding};
use crate::model::patchable::Target as PatchTarget;
use crate::model::special::{At, DanglingWhy};

pub const ID: &str = "analysis-incomplete";

/// Why something was not checked. The ids are part of the JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// A path reaches bytes that do not decode as an instruction.
    Undecodable,
    /// An indirect jump through a switch table that could not be read.
    SwitchTable,
    /// A jump or switch case to a place that is no instruction (inside one,
    /// or data), or a jump or call whose destination could not be resolved.
    BranchTarget,
    /// `.altinstructions` fits no layout of rules/alternatives.toml.
    Alternatives,
    /// A special section (`__ex_table`, `__jump_table`, `__bug_table`,
    /// unwind hints) that could not be read.
    SpecialSection,
    /// The object's ORC or DWARF CFI could not be read (in part).
    UnwindTable,
    /// Patchable entries at code no symbol names.
    PatchableUnnamed,
    /// Functions an exemption in rules/ takes out of a rule.
    Exempt,
    /// A linked module lost the annotations a rule needs.
    AnnotationsLost,
    /// The build recorded no instrumentation regions (x86 without
    /// CONFIG_NOINSTR_VALIDATION): calls out of noinstr code not judged.
    RegionsUnrecorded,
    /// Landing pads inside a function that data points at and no walk
    /// reached: an inner entry, or the cases of a computed goto whose table
    /// was not found.
    UnwalkedLabel,
    /// A return through another register than the return address's (arm64
    /// `ret x28`, lr kept in x28 across calls): the model follows no copies
    /// of the return address, so the frame at that return is not judged.
    ReturnRegister,
    /// An entry of a special section or annotation whose place is no
    /// instruction of this object (inside one, data, another object's
    /// symbol): the edge or mark it describes is not applied.
    TableEntry,
    /// Code outside every function that no path and no unwind hint reached
    /// (arm64's exception vectors and trampolines, labels of hand-written
    /// code): no flow rule checked it.
    UnwalkedCode,
    /// An unwind hint whose frame address the stack model does not follow
    /// (based on `bp_indirect`, `prev_sp`, a register the object's ORC
    /// numbering has not, or any register on arm64; objtool refuses such a
    /// hint): the stack is not judged on the paths after it.
    UnwindHint,
}

impl Cause {
    pub fn id(self) -> &'static str {
        match self {
            Cause::Undecodable => "undecodable",
            Cause::SwitchTable => "switch-table",
            Cause::BranchTarget => "branch-target",
            Cause::Alternatives => "alternatives",
            Cause::SpecialSection => "special-section",
            Cause::UnwindTable => "unwind-table",
            Cause::PatchableUnnamed => "patchable-unnamed",
            Cause::Exempt => "exempt",
            Cause::AnnotationsLost => "annotations-lost",
            Cause::RegionsUnrecorded => "regions-unrecorded",
            Cause::UnwalkedLabel => "unwalked-label",
            Cause::ReturnRegister => "return-register",
            Cause::TableEntry => "table-entry",
            Cause::UnwalkedCode => "unwalked-code",
            Cause::UnwindHint => "unwind-hint",
        }
    }

    pub const ALL: [Cause; 15] = [
        Cause::Undecodable,
        Cause::SwitchTable,
        Cause::BranchTarget,
        Cause::Alternatives,
        Cause::SpecialSection,
        Cause::UnwindTable,
        Cause::PatchableUnnamed,
        Cause::Exempt,
        Cause::AnnotationsLost,
        Cause::RegionsUnrecorded,
        Cause::UnwalkedLabel,
        Cause::ReturnRegister,
        Cause::TableEntry,
        Cause::UnwalkedCode,
        Cause::UnwindHint,
    ];
}

/// One thing not checked: where, and in words what (shown in the notes).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Gap {
    pub cause: Cause,
    pub at: At,
    pub detail: String,
}

impl Gap {
    pub fn new(cause: Cause, at: At, detail: impl Into<String>) -> Gap {
        Gap {
            cause,
            at,
            detail: detail.into(),
        }
    }
}

/// Places named in the notes of one finding; the rest are counted.
const SHOWN: usize = 8;

pub struct AnalysisIncomplete;

impl Check for AnalysisIncomplete {
    fn id(&self) -> &'static str {
        ID
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let mut gaps = model_gaps(cx);
        if flow::any_enabled(cx) {
            gaps.extend(cx.flow().gaps.iter().cloned());
        }
        gaps.extend(cx.speculation().gaps.iter().cloned());
        gaps.sort();
        gaps.dedup();
        for cause in Cause::ALL {
            let mine: Vec<&Gap> = gaps.iter().filter(|g| g.cause == cause).collect();
            let Some(first) = mine.first() else {
                continue;
            };
            let mut msg = message(cause, &mine);
            // The edges not followed could reach code: `unreachable` says
            // nothing there rather than guess.
            if cx.opts.enabled(flow::UNREACHABLE) {
                match cause {
                    Cause::SwitchTable => msg.push_str(if mine.len() == 1 {
                        ", nor unreachable code judged in its function"
                    } else {
                        ", nor unreachable code judged in their functions"
                    }),
                    Cause::Alternatives | Cause::SpecialSection | Cause::TableEntry => {
                        msg.push_str(", nor unreachable code judged in this object")
                    }
                    _ => {}
                }
            }
            let mut fd = cx.finding(ID, first.at.0, first.at.1, msg);
            fd.cause = Some(cause.id());
            for g in mine.iter().take(SHOWN) {
                let t = cx.target(g.at.0, g.at.1);
                fd.notes.push(format!(
                    "{}: {}",
                    crate::report::target_location(&t),
                    g.detail
                ));
            }
            if mine.len() > SHOWN {
                fd.notes.push(format!("and {} more", mine.len() - SHOWN));
            }
            out.push(fd);
        }
    }
}

pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn message(cause: Cause, gaps: &[&Gap]) -> String {
    let n = gaps.len();
    match cause {
        Cause::Undecodable => format!(
            "analysis incomplete: {} reached by a path {} not decode as an instruction; the path was not followed further",
            plural(n, "place", "places"),
            if n == 1 { "does" } else { "do" }
        ),
        Cause::SwitchTable => format!(
            "analysis incomplete: {} through a switch table that could not be read; the cases were not followed",
            plural(n, "indirect jump goes", "indirect jumps go")
        ),
        Cause::BranchTarget => format!(
            "analysis incomplete: {} to a place that is no instruction (inside one, or data) or that could not be resolved; the path was not followed there",
            plural(n, "branch goes", "branches go")
        ),
        Cause::Alternatives => {
            "analysis incomplete: the alternatives could not be read; their replacement instructions were not followed".into()
        }
        Cause::SpecialSection => format!(
            "analysis incomplete: {} could not be read; the edges {} were not followed",
            plural(n, "special section", "special sections"),
            if n == 1 { "it describes" } else { "they describe" }
        ),
        Cause::UnwindTable => format!(
            "analysis incomplete: the object's unwind tables could not be read ({}); they were not compared with the stack state there",
            plural(n, "problem", "problems")
        ),
        Cause::PatchableUnnamed => format!(
            "analysis incomplete: {} at code no symbol names; their NOPs were checked, not that they begin a function",
            plural(n, "patchable entry points", "patchable entries point")
        ),
        Cause::Exempt => format!(
            "analysis incomplete: {} exempt from a rule by rules/",
            plural(n, "function is", "functions are")
        ),
        Cause::AnnotationsLost => {
            let rules: std::collections::BTreeSet<&str> =
                gaps.iter().map(|g| g.detail.split(':').next().unwrap_or("")).collect();
            if rules.iter().all(|r| r.starts_with("calls out of")) {
                "analysis incomplete: noinstr-call was not checked: the module link dropped the instrumentation_begin()/end() annotations".into()
            } else {
                "analysis incomplete: the module link dropped objtool's annotations; what they would have said was not judged (see the notes)".into()
            }
        }
        Cause::RegionsUnrecorded => format!(
            "analysis incomplete: noinstr-call was not checked at {}: the object records no instrumentation_begin()/end() regions (a build without CONFIG_NOINSTR_VALIDATION), so whether a call is inside one cannot be told",
            plural(n, "call", "calls")
        ),
        Cause::UnwalkedLabel => format!(
            "analysis incomplete: {} landing pads inside that data points at and no path reached (entered by an indirect branch objlint does not follow: an inner entry, or a computed goto whose table it did not find); the code from there was not checked",
            plural(n, "function has", "functions have")
        ),
        Cause::ReturnRegister => format!(
            "analysis incomplete: {} through another register than the return address's; copies of the return address are not followed, so the stack at {} was not judged",
            plural(n, "return goes", "returns go"),
            if n == 1 { "it" } else { "them" }
        ),
        Cause::UnwalkedCode => format!(
            "analysis incomplete: {} of code outside every function that no path or unwind hint reached; no flow rule checked {}",
            plural(n, "run", "runs"),
            if n == 1 { "it" } else { "them" }
        ),
        Cause::UnwindHint => format!(
            "analysis incomplete: {} a frame address the stack model does not follow (objtool refuses {}); the stack was not judged on the paths after {}",
            plural(n, "unwind hint gives", "unwind hints give"),
            if n == 1 { "it" } else { "them" },
            if n == 1 { "it" } else { "them" }
        ),
        Cause::TableEntry => format!(
            "analysis incomplete: {} of the object's tables {} no instruction of this object; the edges and marks {} were not applied",
            plural(n, "entry", "entries"),
            if n == 1 { "names" } else { "name" },
            if n == 1 { "it describes" } else { "they describe" }
        ),
    }
}

/// The start of the section named `name`, where a gap about a whole table
/// is reported (section 0 if there is none).
pub fn table_start(obj: &crate::elf::Object, name: &str) -> At {
    (obj.sections_named(name).first().copied().unwrap_or(0), 0)
}

/// Gaps the model knows without walking.
fn model_gaps(cx: &Ctx) -> Vec<Gap> {
    let m = cx.model;
    let mut out = Vec::new();
    let walked = flow::any_enabled(cx);
    if walked && let Some(e) = &m.alts.error {
        let sec = e.split([' ', ':']).next().unwrap_or("");
        out.push(Gap::new(
            Cause::Alternatives,
            table_start(cx.model.obj, sec),
            format!("{e} (rules/alternatives.toml)"),
        ));
    }
    if walked {
        for e in &m.special().unread {
            let sec = e.split(':').next().unwrap_or("");
            out.push(Gap::new(
                Cause::SpecialSection,
                table_start(cx.model.obj, sec),
                e,
            ));
        }
    }
    if walked {
        let obj = m.obj;
        let place = |(s, o): (usize, u64)| format!("{}+{o:#x}", obj.section_name(s));
        for d in &m.special().dangling {
            let site = || crate::report::target_location(&cx.target(d.entry.0, d.entry.1));
            let detail = match (d.why, d.names) {
                (DanglingWhy::Replacement, Some(_)) => format!(
                    "a replacement of the alternative at {} starts here (.altinstructions), which is no instruction",
                    site()
                ),
                (DanglingWhy::SiteEnd, Some(_)) => format!(
                    "the alternative at {} ends here (.altinstructions), which is no instruction",
                    site()
                ),
                (DanglingWhy::NothingBefore, Some(_)) => format!(
                    "{} names the instruction after a trap here, but none precedes it",
                    place(d.entry)
                ),
                (_, Some(_)) => format!(
                    "{} names this place, which is no instruction",
                    place(d.entry)
                ),
                (_, None) => "names a place outside this object".to_string(),
            };
            // At the code it names, where there is one.
            let at = match d.names {
                Some(p) if obj.sections.get(p.0).is_some_and(|s| s.is_exec()) => p,
                _ => d.entry,
            };
            out.push(Gap::new(Cause::TableEntry, at, detail));
        }
    }
    if cx.opts.enabled("patchable-entry") {
        let p = m.patchable(&cx.rules.patchable);
        for e in &p.entries {
            if let PatchTarget::Unnamed { section, offset } = e.target {
                out.push(Gap::new(
                    Cause::PatchableUnnamed,
                    (section, offset),
                    format!("entry {}+{:#x}", m.obj.section_name(e.section), e.offset),
                ));
            }
        }
    }
    out
}
