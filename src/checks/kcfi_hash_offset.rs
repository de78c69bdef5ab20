//! `kcfi-hash-offset`: every function's kCFI type hash must sit at the one
//! distance before its entry that the object's indirect-call checks read.
//!
//! The check before an indirect call loads 32 bits at `target-K` (x86
//! `add -K(%reg),%r10d`, arm64 `ldur wN, [xM, #-K]`) and traps when they are
//! not the expected hash. K follows from the prefix: x86 `N+4` (the
//! `mov $hash,%eax` of `__cfi_f` ends where the N prefix NOPs begin), arm64
//! `4N+4`. A function with a different number of prefix NOPs (a
//! `patchable_function_entry` attribute, Rust code built without the prefix
//! flag, seed 002) has its hash elsewhere, and every indirect call to it traps.
//! Without checks in the object, K is the configured one (`--patchable`) or
//! the one most hashes have.

use super::{Check, Ctx, Finding};
use crate::model::patchable::relative;

pub struct KcfiHashOffset;

impl Check for KcfiHashOffset {
    fn id(&self) -> &'static str {
        "kcfi-hash-offset"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        let p = m.patchable(&cx.rules.patchable);
        if p.hashes.is_empty() && p.checks.is_empty() {
            return;
        }
        let (expected, why) = match (p.checks.is_empty(), cx.opts.patchable) {
            (false, _) => (
                p.hash_offset,
                "the indirect-call checks in this object read it at",
            ),
            (true, Some((_, n))) => (
                Some(u64::from(n) * p.unit + 4),
                "the configured prefix puts it at",
            ),
            (true, None) => (p.hash_offset, "most functions in this object have it at"),
        };
        let Some(k) = expected else { return };
        for h in &p.hashes {
            let d = h.distance(m);
            if d == k {
                continue;
            }
            let f = &m.functions[h.func];
            let value = h.value.map(|v| format!(" ({v:#010x})")).unwrap_or_default();
            let mut fd = cx.finding(
                self.id(),
                f.section,
                f.start,
                format!(
                    "kCFI type hash of {}(){value} is at {}; {why} {}-{k:#x}",
                    f.name,
                    relative(m, h.func, h.offset),
                    f.name
                ),
            );
            fd.target = Some(cx.target(h.section, h.offset));
            out.push(fd);
        }
        // Checks that disagree with the rest of the object.
        for c in p.checks.iter().filter(|c| c.disp != k) {
            out.push(cx.finding(
                self.id(),
                c.section,
                c.offset,
                format!(
                    "indirect-call check reads the kCFI hash at target-{:#x}; the other checks in this object read target-{k:#x}",
                    c.disp
                ),
            ));
        }
    }
}
