//! Switch tables the relocations do not show: arm64 compilers emit the
//! entries as offsets between two labels of the same code section
//! (`.byte (.Lcase - .Lbase) >> 2`), which the assembler resolves, so the
//! case targets are reached by `br` through data that names no symbol. The
//! decoder recognises the dispatch ([`Decoder::table_jump`](crate::arch::Decoder::table_jump));
//! here the table is located through the dispatch's relocation and read.
//!
//! A table is taken only when it is fully known: its size from the bounds
//! check on the index, no relocation inside it (relocated entries are
//! references of their own, seen by the address-taken analysis anyway), and
//! every entry landing on an instruction of the function that jumps. Anything
//! else is counted, not guessed: a wrong table would invent landing-pad
//! findings.

use super::Model;
use crate::arch::{Kind, RelocUse};
use crate::elf::Place;

/// One recovered table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpTable {
    /// Index into [`Model::functions`] of the function holding the jump.
    pub func: usize,
    /// The code section and offset of the indirect jump.
    pub section: usize,
    pub jump: u64,
    /// Where the table is.
    pub table_section: usize,
    pub table_offset: u64,
    pub entry_size: u8,
    /// Per entry: (its offset in `table_section`, its target in `section`).
    pub entries: Vec<(u64, u64)>,
}

/// The switch tables of one object.
#[derive(Debug, Default)]
pub struct JumpTables {
    pub tables: Vec<JumpTable>,
    /// Dispatches through a table whose size was not found.
    pub unbounded: usize,
    /// Dispatches whose table could not be located or read consistently.
    pub rejected: usize,
}

impl Model<'_> {
    /// The switch tables of this object, built on first use.
    pub fn jump_tables(&self) -> &JumpTables {
        self.jump_tables.get_or_init(|| JumpTables::build(self))
    }
}

impl JumpTables {
    pub fn build(m: &Model) -> JumpTables {
        let mut out = JumpTables::default();
        for (fi, f) in m.functions.iter().enumerate() {
            let Some(code) = m
                .section_code(f.section)
                .filter(|c| c.has_any(Kind::IndirectJump.bit()))
            else {
                continue;
            };
            let range = m.insn_range(f);
            let insns = &code.insns[range.clone()];
            if !insns.iter().any(|i| i.kind == Kind::IndirectJump) {
                continue;
            }
            let data = m.obj.section_data(f.section);
            for (k, ins) in insns.iter().enumerate() {
                if ins.kind != Kind::IndirectJump {
                    continue;
                }
                let Some(tj) = m.dec.table_jump(insns, data, k) else {
                    continue;
                };
                let Some(n) = tj.entries else {
                    out.unbounded += 1;
                    continue;
                };
                match read_table(m, fi, &tj, n) {
                    Some((table_section, table_offset, entries)) => out.tables.push(JumpTable {
                        func: fi,
                        section: f.section,
                        jump: ins.offset(),
                        table_section,
                        table_offset,
                        entry_size: tj.entry_size,
                        entries,
                    }),
                    None => out.rejected += 1,
                }
            }
        }
        out
    }
}

type Entries = (usize, u64, Vec<(u64, u64)>);

fn read_table(m: &Model, fi: usize, tj: &crate::arch::TableJump, n: u64) -> Option<Entries> {
    let f = &m.functions[fi];
    let obj = m.obj;
    let (ts, to) = match tj.table_pc {
        Some(pc) => (f.section, pc),
        None => {
            let code = m.section_code(f.section)?;
            let insn = code.insns.get(code.index_at(tj.table_insn)?)?;
            obj.relocs_in(f.section, insn.offset(), insn.end())
                .iter()
                .find_map(|r| match m.dec.reloc_use(Some(insn), r.offset, r.r_type) {
                    RelocUse::Address(bias) => match obj.resolve(r.sym, r.addend + bias) {
                        Place::Local { section, offset } => Some((section, offset)),
                        _ => None,
                    },
                    _ => None,
                })?
        }
    };
    let size = u64::from(tj.entry_size);
    // A switch has at most a few thousand cases; a larger bound is not a table.
    if n == 0 || n > 4096 {
        return None;
    }
    let data = obj.section_data(ts);
    let end = to.checked_add(n * size)?;
    if end as usize > data.len() || !obj.relocs_in(ts, to, end).is_empty() {
        return None;
    }
    let code = m.section_code(f.section)?;
    let mut entries = Vec::with_capacity(n as usize);
    for k in 0..n {
        let at = to + k * size;
        let b = &data[at as usize..(at + size) as usize];
        let mut raw = [0u8; 8];
        raw[..b.len()].copy_from_slice(b);
        let v = u64::from_le_bytes(raw);
        let bits = 8 * size as u32;
        let v = if tj.signed {
            (((v << (64 - bits)) as i64) >> (64 - bits)) as u64
        } else {
            v
        };
        let target = tj.base.wrapping_add(v << tj.shift);
        if target < f.start || target >= f.end || code.index_at(target).is_none() {
            return None;
        }
        entries.push((at, target));
    }
    Some((ts, to, entries))
}
