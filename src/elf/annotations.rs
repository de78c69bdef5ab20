//! objtool annotation sections: lists of places in code that a tool must
//! treat specially (`.discard.noendbr` in 6.12; typed `.discard.annotate_insn`
//! entries in newer kernels). Shipped modules have lost them (the module link
//! discards `.discard.*`); objects straight from the compiler have them.

use super::{Object, Place};

/// How an annotation section lists its places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Every relocation names one place.
    List,
    /// 8-byte entries `.long place - .; .long type`; only entries whose type
    /// word equals the given value count.
    Typed(u32),
}

/// The places (section, offset) named by the sections called `name`,
/// sorted and deduplicated.
pub fn places(obj: &Object, name: &str, layout: Layout) -> Vec<(usize, u64)> {
    let mut out = Vec::new();
    for &sec in obj.sections_named(name) {
        let data = obj.section_data(sec);
        for r in obj.relocs(sec) {
            if let Layout::Typed(want) = layout {
                let at = r.offset() as usize;
                let ty = data
                    .get(at + 4..at + 8)
                    .map(|b| u32::from_le_bytes(b.try_into().unwrap()));
                if r.offset() % 8 != 0 || ty != Some(want) {
                    continue;
                }
            }
            if let Place::Local { section, offset } = obj.resolve(r.sym(), obj.addend(r)) {
                out.push((section, offset));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
