//! `call-ops-align` (arm64): with CALL_OPS, ftrace keeps an 8-byte
//! `ftrace_ops` pointer in the prefix NOPs at `f-8` and reads it with one
//! 64-bit load, so the slot must be naturally aligned: the function entry at
//! a multiple of 8 and its section aligned to at least 8
//! (`-falign-functions=8`, which the kernel's CALL_OPS build passes).
//! Applies to functions whose patch site has at least 2 NOPs before the entry.

use super::{Check, Ctx, Finding};
use crate::elf::Machine;
use crate::model::patchable::{Site, relative};
use rustc_hash::FxHashSet as HashSet;

pub struct CallOpsAlign;

impl Check for CallOpsAlign {
    fn id(&self) -> &'static str {
        "call-ops-align"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        if m.obj.machine != Machine::Aarch64 {
            return;
        }
        let p = m.patchable(&cx.rules.patchable);
        let mut sites: Vec<&Site> = p.sites().filter(|s| s.before >= 2).collect();
        sites.sort_by_key(|s| (s.section, s.offset));
        sites.dedup_by_key(|s| s.func);
        let mut sections = HashSet::default();
        for s in sites {
            let f = &m.functions[s.func];
            let sec = &m.obj.sections[f.section];
            if sec.align < 8 && sections.insert(f.section) {
                out.push(cx.finding(
                    self.id(),
                    f.section,
                    f.start,
                    format!(
                        "section {} is aligned to {} bytes: the CALL_OPS slots of its functions (at f-8) need 8",
                        sec.name, sec.align
                    ),
                ));
            }
            if !f.start.is_multiple_of(8) {
                let slot = f.start.saturating_sub(8);
                let mut fd = cx.finding(
                    self.id(),
                    f.section,
                    f.start,
                    format!(
                        "CALL_OPS slot of {}() at {} ({}+{slot:#x}) is not 8-byte aligned",
                        f.name,
                        relative(m, s.func, slot),
                        sec.name
                    ),
                );
                fd.target = Some(cx.target(f.section, slot));
                out.push(fd);
            }
        }
    }
}
