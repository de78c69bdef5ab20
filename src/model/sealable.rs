//! Landing pads nobody needs, for `objlint seal` (seed 000).
//!
//! A conservative address-taken analysis of its own (the `ibt-missing-endbr`
//! check has a finer one; the two are meant to be unified): a function start
//! is address-taken when any relocation resolves to it, except the branch
//! operand of a direct call or jump. For a relocation inside an instruction
//! both `S + A` and the PC-relative reading `S + A + (end - P)` count.
//! Relocations from non-executable sections count unless the section is one
//! that names code without branching to it (`exempt`, from `rules/seal.toml`).
//! A pad is sealable when it is the first instruction of a function that is
//! not address-taken and, unless `link`, has only local symbols at its start
//! (another object may take a global function's address).

use super::Model;
use crate::arch::{Kind, Pad};
use crate::elf::{Place, STB_LOCAL, SymSection};
use std::collections::HashSet;

/// One sealable landing pad.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealSite {
    /// Index into `Model::functions`.
    pub func: usize,
    pub section: usize,
    pub offset: u64,
    pub pad: Pad,
    pub len: u8,
}

/// What the analysis found in one object.
#[derive(Debug, Default)]
pub struct SealReport {
    /// Function-entry pads of the kinds `seal` handles.
    pub pads: usize,
    /// Those that must stay (address-taken, or global without `link`).
    pub needed: usize,
    pub sites: Vec<SealSite>,
}

/// Places (section, offset) that relocations may turn into indirect branch targets.
pub fn address_taken_conservative(
    m: &Model,
    exempt: &dyn Fn(&str) -> bool,
) -> HashSet<(usize, u64)> {
    let obj = m.obj;
    let mut taken = HashSet::new();
    let mark = |taken: &mut HashSet<(usize, u64)>, p: Place| {
        if let Place::Local { section, offset } = p {
            taken.insert((section, offset));
        }
    };
    for s in &obj.sections {
        let relocs = obj.relocs(s.index);
        if let Some(code) = m.section_code(s.index) {
            // References the assembler resolved itself (same section, local
            // symbol): no relocation is left, the instruction holds them.
            let data = obj.section_data(s.index);
            for ins in &code.insns {
                if ins.kind.is_branch()
                    || ins.kind == Kind::Invalid
                    || !obj.relocs_in(s.index, ins.offset, ins.end()).is_empty()
                {
                    continue;
                }
                if let Some(t) = m
                    .dec
                    .pc_relative_ref(&data[ins.offset as usize..], ins.offset)
                {
                    taken.insert((s.index, t));
                }
            }
        }
        if relocs.is_empty() {
            continue;
        }
        if !s.is_exec() {
            if !exempt(&s.name) {
                for r in relocs {
                    mark(&mut taken, obj.resolve(r.sym, r.addend));
                }
            }
            continue;
        }
        let code = m.section_code(s.index);
        for r in relocs {
            let ins = code.and_then(|c| {
                let i = c.lower_bound(r.offset + 1).checked_sub(1)?;
                let ins = c.insns[i];
                (r.offset < ins.end()).then_some(ins)
            });
            match ins {
                Some(ins) => {
                    if m.dec.branch_reloc_bias(&ins, r.offset, r.r_type).is_some() {
                        continue;
                    }
                    mark(&mut taken, obj.resolve(r.sym, r.addend));
                    let bias = (ins.end() - r.offset) as i64;
                    mark(&mut taken, obj.resolve(r.sym, r.addend.wrapping_add(bias)));
                }
                None => mark(&mut taken, obj.resolve(r.sym, r.addend)),
            }
        }
    }
    taken
}

/// The function-entry pads of `m` that no indirect branch can need.
pub fn sealable_pads(m: &Model, exempt: &dyn Fn(&str) -> bool, link: bool) -> SealReport {
    let obj = m.obj;
    let taken = address_taken_conservative(m, exempt);
    let global: HashSet<(usize, u64)> = obj
        .symbols
        .iter()
        .filter(|s| s.bind != STB_LOCAL)
        .filter_map(|s| match s.section {
            SymSection::Section(i) => Some((i, s.value)),
            _ => None,
        })
        .collect();
    let mut rep = SealReport::default();
    for (fi, f) in m.functions.iter().enumerate() {
        if f.prefix {
            continue;
        }
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        let Some(ins) = code.index_at(f.start).map(|i| code.insns[i]) else {
            continue;
        };
        let Kind::Pad(pad) = ins.kind else {
            continue;
        };
        if m.dec
            .sealed_pad(pad)
            .is_none_or(|b| b.len() != usize::from(ins.len))
        {
            continue;
        }
        rep.pads += 1;
        let place = (f.section, f.start);
        if taken.contains(&place) || (!link && global.contains(&place)) {
            rep.needed += 1;
            continue;
        }
        rep.sites.push(SealSite {
            func: fi,
            section: f.section,
            offset: f.start,
            pad,
            len: ins.len,
        });
    }
    rep
}
