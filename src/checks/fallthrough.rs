//! `fallthrough`: a reachable path runs off the end of a function.
//!
//! Every path from the entry is followed; calls return unless the callee is
//! noreturn (listed in `rules/noreturn.toml`, declared so in the object's
//! DWARF, proven in this object or in another member of its archive). An
//! instruction that can execute, does not end its path, and is the last one
//! of the function lets execution continue into whatever follows. Code no
//! function covers that a path jumps to is the path's function's: where it
//! runs on, that function is reported.
//!
//! In user space, code that runs straight into the next function of its
//! section (nothing but alignment NOPs between, not after a call) is how a
//! deliberate second entry looks (an `_chk` variant that checks and
//! continues into the function): reported as a note. Kernel code has no such
//! entries: there it stays an error, as objtool has it. A function named in the annotation section
//! (`.discard.objlint.fallthrough`, rules/special.toml) is not reported.

use super::flow;
use super::{Check, Ctx, Finding};
use crate::arch::{Insn, Kind};
use crate::model::{Dest, Function};
use std::collections::BTreeMap;

pub struct Fallthrough;

impl Check for Fallthrough {
    fn id(&self) -> &'static str {
        "fallthrough"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        // Per function, the first instruction in address order whose path
        // leaves it (the walk attributes `.cold` code to its own part).
        // Code outside every function is the walk's root's: its path
        // left it by a jump and runs on into another function from there.
        let mut first: BTreeMap<usize, (usize, usize, Leaves)> = BTreeMap::new();
        for e in flow::events(cx, flow::FALLTHROUGH) {
            let Some((sec, i)) = e.loc else {
                continue;
            };
            let (owner, leaves) = match e.owner {
                None if e.root < cx.model.functions.len() => (e.root, Leaves::Unowned),
                None => continue,
                Some(o) if e.message == "into-data" => (o, Leaves::IntoData),
                Some(o) => (o, Leaves::OffEnd),
            };
            first
                .entry(owner)
                .and_modify(|v| {
                    if i < v.1 {
                        *v = (sec, i, leaves);
                    }
                })
                .or_insert((sec, i, leaves));
        }
        let annotated = annotated_places(cx);
        for (owner, (sec, k, leaves)) in first {
            let f = &cx.model.functions[owner];
            if f.prefix {
                continue;
            }
            // The source says the fall-through is meant.
            let lo = annotated.partition_point(|&p| p < (f.section, f.start));
            if annotated
                .get(lo)
                .is_some_and(|&(s, o)| s == f.section && (o < f.end || o == f.start))
            {
                continue;
            }
            if let Some(fd) = report(self.id(), cx, f, sec, k, leaves) {
                out.push(fd);
            }
        }
    }
}

/// Whether the bytes from `from` to `to` are NOP instructions that end
/// exactly there (none at all counts).
fn only_nops(m: &crate::model::Model, section: usize, from: u64, to: u64) -> bool {
    let insns = m.insns_in(section, from, to);
    insns.iter().all(|i| i.kind == Kind::Nop) && insns.last().map_or(from, |i| i.end()) == to
}

/// Places the annotation section names (`rules/special.toml`
/// `annotations.fallthrough`): a function (or any place in it) whose
/// fall-through into what follows is meant. Sorted.
fn annotated_places(cx: &Ctx) -> Vec<(usize, u64)> {
    let name = &cx.rules.special.annotations.fallthrough;
    if name.is_empty() {
        return Vec::new();
    }
    crate::elf::annotations::places(cx.model.obj, name, crate::elf::annotations::Layout::List)
}

/// How a path leaves its function by running on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leaves {
    /// Past the function's last instruction.
    OffEnd,
    /// Into bytes of the function that are not code.
    IntoData,
    /// From code outside every function it jumped to: into a function's
    /// start, past the end of the section, or into bytes that are not code.
    Unowned,
}

fn report(
    id: &'static str,
    cx: &Ctx,
    f: &Function,
    sec: usize,
    k: usize,
    leaves: Leaves,
) -> Option<Finding> {
    let m = cx.model;
    let code = m.section_code(sec)?;
    let ins = &code.insns[k];
    if leaves == Leaves::Unowned {
        return Some(report_unowned(id, cx, f, sec, ins));
    }
    if leaves == Leaves::IntoData {
        let at = ins.end();
        let mut fd = cx.finding(
            id,
            f.section,
            ins.offset(),
            format!(
                "{}() runs into data at {}+{:#x}",
                f.name,
                f.name,
                at - f.start
            ),
        );
        fd.notes.push(
                "the bytes after this instruction are marked as data (a `$d` mapping symbol, e.g. a literal pool), not code".to_string(),
            );
        return Some(fd);
    }
    let size = m.obj.sections[f.section].size;
    // A replacement's last instruction (in its own section): the path runs on
    // from the end of its site, which is the function's end.
    let replacement = sec != f.section;
    let after = if replacement { f.end } else { ins.end() };
    let next = m.next_function(f.section, f.end.min(after).max(f.start + 1));
    // Bytes between the two functions (alignment, patchable-entry NOPs, a
    // `__cfi_`/`__pfx_` preamble) do not stop execution reaching the next
    // function, so the message is objtool's either way; a note says how far.
    let mut notes = Vec::new();
    // Past the end of a nested function symbol, into the rest of the
    // function around it.
    let enclosing = m
        .function_containing(f.section, after)
        .filter(|&h| m.functions[h].start < after && m.functions[h].start != f.start);
    let message = match next {
        _ if enclosing.is_some() => format!(
            "{}() runs off its end into the middle of {}() at {}",
            f.name,
            m.functions[enclosing.unwrap()].name,
            m.place_name(f.section, after)
        ),
        Some(n) if after < size => {
            let g = &m.functions[n];
            if g.start > after {
                notes.push(format!(
                        "{} bytes outside any function (padding, patchable-entry NOPs or a preamble) lie between the end of {}() and {}()",
                        g.start - after,
                        f.name,
                        g.name
                    ));
            }
            format!("{}() falls through to next function {}()", f.name, g.name)
        }
        _ if after >= size => format!(
            "{}() falls through past the end of section {}",
            f.name,
            m.obj.section_name(f.section)
        ),
        _ => format!(
            "{}() runs off its end into code outside any function at {}+{:#x}",
            f.name,
            m.obj.section_name(f.section),
            after
        ),
    };
    let mut fd = cx.finding(id, sec, ins.offset(), message);
    fd.notes = notes;
    if replacement {
        fd.notes.push(format!(
            "through an alternative's replacement ({}), which runs past the end of its site, the end of {}()",
            m.place_name(sec, ins.offset()),
            f.name
        ));
    }
    // The code runs straight into the next symbol of the section, with
    // nothing but NOPs between (alignment), after an instruction that just
    // runs on (not a call or system call, whose return is the question
    // then, nor a trap): what an
    // entry that continues into its sibling on purpose looks like (glibc's `__memmove_chk_erms` checks
    // the size and runs into `__memmove_erms`). A missing return looks the
    // same, so it is said, as a note.
    // Kernel code has no such entries (objtool reports every one).
    let deliberate = !cx.kernel
        && enclosing.is_none()
        && matches!(
            ins.kind,
            Kind::Other | Kind::Nop | Kind::Pad(_) | Kind::CondJump
        )
        && next
            .is_some_and(|n| after < size && only_nops(m, f.section, after, m.functions[n].start));
    if deliberate {
        fd.severity = fd.severity.min(crate::rules::Severity::Note);
        fd.notes.push(format!(
            "the code runs on into {}(), next in the same section (nothing but NOPs between): an entry that continues into the next function on purpose looks like this; if it is meant, name {}() in a `{}` section (docs/CONFIG.md, annotations); if not, a return or jump is missing",
            next.map_or("", |n| m.functions[n].name),
            f.name,
            cx.rules.special.annotations.fallthrough
        ));
    }
    if enclosing.is_some() {
        fd.target = Some(cx.target(f.section, after));
    } else if let Some(n) = next.filter(|_| after < size) {
        let g = &m.functions[n];
        fd.target = Some(cx.target(g.section, g.start));
    }
    if ins.kind == Kind::Syscall {
        fd.notes.push(
            "the last instruction is a system call that returns: its number is not one of those that never return (rules/noreturn.toml `syscalls`), or it is not moved into the register by an immediate in the straight-line code before the call".to_string(),
        );
    }
    if code.calls_named(k) {
        let dest = code.dest(k);
        let weak = match dest {
            Dest::Local { section, offset } => m
                .function_at_start(section, offset)
                .is_some_and(|i| m.functions[i].weak),
            _ => false,
        };
        fd.notes.push(if weak {
                format!(
                    "the last instruction calls {}, which is weak: another definition may replace it and return, so it never counts as noreturn",
                    m.dest_name(dest)
                )
            } else {
                fd.fix = crate::checks::ConfigFix::new("noreturn", &m.dest_name(dest));
                format!(
                    "the last instruction calls {}, which is not known to be noreturn; if it never returns, add it to rules/noreturn.toml or the config's `noreturn` list",
                    m.dest_name(dest)
                )
            });
    }
    Some(fd)
}

/// A path of `f` that left it by a jump to code outside every function, which
/// runs on from `ins` (objtool's wording where it has one).
fn report_unowned(id: &'static str, cx: &Ctx, f: &Function, sec: usize, ins: &Insn) -> Finding {
    let m = cx.model;
    let after = ins.end();
    let next = m.function_at_start(sec, after);
    let message = match next {
        Some(g) => format!(
            "{}() falls through to next function {}()",
            f.name, m.functions[g].name
        ),
        None if after >= m.obj.sections[sec].size => format!(
            "{}() falls through past the end of section {}",
            f.name,
            m.obj.section_name(sec)
        ),
        None => format!(
            "{}() runs into bytes that are not code at {}",
            f.name,
            m.place_name(sec, after)
        ),
    };
    let mut fd = cx.finding(id, sec, ins.offset(), message);
    fd.notes.push(format!(
        "the path left {}() by a jump to code outside any function, which runs on from {} without a return or jump",
        f.name,
        m.place_name(sec, ins.offset())
    ));
    if let Some(g) = next {
        let g = &m.functions[g];
        fd.target = Some(cx.target(g.section, g.start));
    }
    fd
}
