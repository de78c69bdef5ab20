//! `fallthrough`: a reachable path runs off the end of a function.
//!
//! Every path from the entry is followed; calls return unless the callee is
//! noreturn (listed in `rules/noreturn.toml` or proven in this object). An
//! instruction that can execute, does not end its path, and is the last one
//! of the function lets execution continue into whatever follows.

use super::{Check, Ctx, Finding};
use crate::model::{Dest, Function};

pub struct Fallthrough;

impl Check for Fallthrough {
    fn id(&self) -> &'static str {
        "fallthrough"
    }

    fn check_function(&self, cx: &Ctx, f: &Function, out: &mut Vec<Finding>) {
        if f.prefix {
            return;
        }
        let m = cx.model;
        let Some(code) = m.section_code(f.section) else {
            return;
        };
        // Only the last instruction, or one followed by a gap in the decoded
        // code (arm64 `$d` data), can leave the function: when none of them
        // does, no walk is needed (the common case).
        let range = m.insn_range(f);
        let leaves = |i: usize| {
            let fl = m.flow(f, code, i);
            fl.off_end || fl.into_data
        };
        let gap = |i: usize| {
            i + 1 == range.end
                || code
                    .insns
                    .get(i + 1)
                    .is_none_or(|n| n.offset() != code.insns[i].end())
        };
        if !range.clone().any(|i| gap(i) && leaves(i)) {
            return;
        }
        // The first instruction in address order that leaves the function.
        let mut first: Option<usize> = None;
        m.walk(f, |i, fl| {
            if (fl.off_end || fl.into_data) && first.is_none_or(|k| i < k) {
                first = Some(i);
            }
            std::ops::ControlFlow::Continue(())
        });
        let Some(k) = first else {
            return;
        };
        let ins = &code.insns[k];
        if m.flow(f, code, k).into_data {
            let at = ins.end();
            let mut fd = cx.finding(
                self.id(),
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
            out.push(fd);
            return;
        }
        let size = m.obj.sections[f.section].size;
        let after = ins.end();
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
        let mut fd = cx.finding(self.id(), f.section, ins.offset(), message);
        fd.notes = notes;
        if enclosing.is_some() {
            fd.target = Some(cx.target(f.section, after));
        } else if let Some(n) = next.filter(|_| after < size) {
            let g = &m.functions[n];
            fd.target = Some(cx.target(g.section, g.start));
        }
        if ins.kind == crate::arch::Kind::Call {
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
                format!(
                    "the last instruction calls {}, which is not known to be noreturn; if it never returns, add it to rules/noreturn.toml or the config's `noreturn` list",
                    m.dest_name(dest)
                )
            });
        }
        out.push(fd);
    }
}
