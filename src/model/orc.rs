//! ORC tables from the stack states the walk recorded, as objtool's
//! `orc_create` builds them: per code section, a row wherever the state
//! changes, rows of alternative sites from the original and replacement
//! code laid over each other byte by byte, `UNDEFINED` where no path went,
//! and a terminator at the section's end. With `prefix` (objtool's
//! `--prefix=N`) the N bytes of NOPs before a function take its entry state,
//! as objtool gives them when it adds `__pfx_` symbols.

use super::Model;
use super::cfi::{Cfi, Frame, StateMap};
use super::special::At;
use super::walk::Loc;
use crate::arch::Kind;
use crate::elf::Object;
use crate::elf::orc::{OrcEntry, OrcNumbering};
use crate::rules::{KernelVersion, OrcFormat, SpecialRules};
use rustc_hash::FxHashMap;

/// Whether `hex` spells `bytes` (either case).
fn hex_is(hex: &str, bytes: &[u8]) -> bool {
    hex.len() == 2 * bytes.len()
        && hex.as_bytes().chunks_exact(2).zip(bytes).all(|(pair, &b)| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                == Some(b)
        })
}

/// The number the object's own entries give the stack pointer, as written:
/// the most frequent in ORC `call` rows of `sp+8` with no frame pointer
/// (every function's first row) and in the unwind hints that name a
/// register (FUNC is `sp+8` by definition, the entry code's REGS and
/// IRET_REGS are on the stack pointer). `None` when the object has neither.
fn sp_as_written(obj: &Object, rules: &SpecialRules) -> Option<u8> {
    let mut count = [0usize; 16];
    if let Some(&s) = obj.sections_named(".orc_unwind").first() {
        for b in obj.section_data(s).chunks_exact(OrcEntry::SIZE as usize) {
            // Linux 6.4's layout: type in the low three bits of byte 5.
            if b[5] & 7 == crate::elf::orc::ORC_TYPE_CALL
                && i16::from_le_bytes([b[0], b[1]]) == 8
                && b[4] >> 4 == crate::elf::orc::ORC_REG_UNDEFINED
            {
                count[usize::from(b[4] & 0xf)] += 1;
            }
        }
    }
    let h = &rules.unwind_hints;
    let size = usize::try_from(h.size).ok().filter(|&n| n > 0)?;
    let field = |e: &[u8], at: u64| usize::try_from(at).ok().and_then(|i| e.get(i).copied());
    for &s in obj.sections_named(&h.section) {
        for e in obj.section_data(s).chunks_exact(size) {
            let offset = field(e, h.sp_offset)
                .zip(field(e, h.sp_offset + 1))
                .map(|(a, b)| i16::from_le_bytes([a, b]));
            // Hints naming a register (CALL, REGS, REGS_PARTIAL, FUNC): the
            // kernel's hint macros base nearly all on the stack pointer.
            let named = (super::special::Hint::CALL..=super::special::Hint::FUNC)
                .contains(&field(e, h.ty).unwrap_or(0));
            if named
                && offset.is_some()
                && let Some(r) = field(e, h.sp_reg)
            {
                count[usize::from(r & 0xf)] += 1;
            }
        }
    }
    let (reg, &n) = count.iter().enumerate().max_by_key(|&(_, n)| *n)?;
    (n > 0).then_some(reg as u8)
}

/// How `obj` numbers ORC registers: the numbering its `.orc_header` names;
/// else the latest one in which the stack pointer is the number the
/// object's ORC rows and FUNC hints give it (a kbuild object has no
/// header); else its kernel's (the last one `since` it); else the first of
/// the rules' formats. With it, the first kernel known to use it (what the
/// object says of its kernel when nothing else does). `Err` says why it is
/// not known (a hash none names).
pub fn numbering(
    obj: &Object,
    rules: &SpecialRules,
    kernel: Option<KernelVersion>,
) -> Result<(OrcNumbering, Option<KernelVersion>), String> {
    let formats = &rules.orc_format;
    let named = |f: &OrcFormat| {
        OrcNumbering::from_names(&f.regs)
            .map(|n| (n, f.since))
            .map_err(|e| format!("ORC format {:?}: {e}", f.name))
    };
    if let Some(h) = obj.orc_header() {
        return match formats.iter().find(|f| hex_is(&f.hash, h)) {
            Some(f) => named(f),
            None => Err(format!(
                ".orc_header names an ORC register numbering objlint does not know (orc_types.h hash {}; rules/special.toml orc_format)",
                h.iter().map(|b| format!("{b:02x}")).collect::<String>()
            )),
        };
    }
    if let Some(sp) = sp_as_written(obj, rules)
        && let Some(f) = formats
            .iter()
            .rev()
            .find(|f| f.regs.get(usize::from(sp)).is_some_and(|r| r == "sp"))
    {
        return named(f);
    }
    let by_kernel = kernel.and_then(|k| {
        formats
            .iter()
            .rev()
            .find(|f| f.since.is_none_or(|s| s <= k))
    });
    match by_kernel.or(formats.first()) {
        Some(f) => named(f),
        None => Ok((OrcNumbering::default(), None)),
    }
}

/// Sections objtool writes ORC for: code, but not alternative replacements
/// or `.discard.*`.
pub fn has_orc(m: &Model, section: usize) -> bool {
    let s = &m.obj.sections[section];
    s.is_exec()
        && s.name != ".altinstr_replacement"
        && s.name != ".altinstr_aux"
        && !s.name.starts_with(".discard.")
}

/// What [`generate`] made: the rows of every section (empty for sections
/// without ORC), the states objtool could not have written (`unknown CFA
/// base reg` ...), and the alternative sites whose versions disagree on a
/// row at one byte (a stack layout conflict: no one table fits them all).
pub struct Generated {
    pub rows: Vec<Vec<(u64, OrcEntry)>>,
    pub unexpressible: usize,
    pub conflicts: Vec<At>,
}

/// The ORC of every section (see [`Generated`]). With `prefix`, the padding
/// NOPs before a function take its entry state: before every function, or
/// before those in `only` (indexes into the model's functions).
pub fn generate(
    m: &Model,
    frame: &Frame,
    states: &StateMap,
    replacement_ends: &FxHashMap<At, Cfi>,
    prefix: Option<u64>,
    only: Option<&rustc_hash::FxHashSet<usize>>,
) -> Generated {
    let mut errors = 0;
    let mut conflicts = Vec::new();
    let mut entry = |c: &Cfi| match frame.orc(c) {
        Ok(e) => e,
        Err(_) => {
            errors += 1;
            OrcEntry::undefined()
        }
    };
    // Prefix NOPs take the state of the function they precede: each NOP's
    // place maps to the place of that state (a state each was 212 bytes a
    // NOP, 200 MB on a vmlinux.o).
    let mut prefixed: FxHashMap<Loc, Loc> = FxHashMap::default();
    if let Some(n) = prefix.filter(|&n| n > 0) {
        for (fi, f) in m.functions.iter().enumerate() {
            if only.is_some_and(|o| !o.contains(&fi)) {
                continue;
            }
            let Some(code) = m.section_code(f.section) else {
                continue;
            };
            let Some(i) = code.index_at(f.start) else {
                continue;
            };
            if !states.contains_key(&(f.section, i)) {
                continue;
            }
            let mut k = i;
            let mut run = Vec::new();
            while let Some(p) = k.checked_sub(1) {
                let ins = &code.insns[p];
                if ins.kind != Kind::Nop || ins.end() != code.insns[p + 1].offset() {
                    break;
                }
                let back = f.start - ins.offset();
                if back > n {
                    break;
                }
                run.push(p);
                if back == n {
                    for &q in &run {
                        prefixed.insert((f.section, q), (f.section, i));
                    }
                    break;
                }
                k = p;
            }
        }
    }
    let mut out = vec![Vec::new(); m.obj.sections.len()];
    for (sec, code) in m.code.iter().enumerate() {
        let Some(code) = code else { continue };
        if !has_orc(m, sec) {
            continue;
        }
        let rows = &mut out[sec];
        let mut prev = OrcEntry::undefined();
        let mut push = |rows: &mut Vec<(u64, OrcEntry)>, at: u64, e: OrcEntry| {
            if e != prev {
                rows.push((at, e));
                prev = e;
            }
        };
        let mut i = 0;
        while i < code.insns.len() {
            let ins = &code.insns[i];
            if let Some(site) = m.alts.site_at(sec, ins.offset())
                && site.end > site.start
            {
                // The group's bytes: a state wherever some version of the
                // code has an instruction boundary, the original first.
                let len = site.end - site.start;
                let mut at: Vec<Option<Cfi>> = vec![None; len as usize];
                let mut j = i;
                while j < code.insns.len() && code.insns[j].offset() < site.end {
                    let k = (code.insns[j].offset() - site.start) as usize;
                    at[k] = states.get(&(sec, j)).copied();
                    j += 1;
                }
                let mut conflict = false;
                for r in site.repls.iter().filter(|r| r.end > r.start) {
                    let Some(rc) = m.section_code(r.section) else {
                        continue;
                    };
                    let mut q = rc.lower_bound(r.start);
                    while q < rc.insns.len() && rc.insns[q].offset() < r.end {
                        let k = (rc.insns[q].offset() - r.start) as usize;
                        if k < at.len()
                            && let Some(c) = states.get(&(r.section, q))
                        {
                            match at[k] {
                                None => at[k] = Some(*c),
                                Some(a) => conflict |= frame.orc(&a).ok() != frame.orc(c).ok(),
                            }
                        }
                        q += 1;
                    }
                }
                // Where a shorter replacement ends, the state after it.
                for r in &site.repls {
                    let k = (r.end - r.start) as usize;
                    if k < at.len()
                        && let Some(c) = replacement_ends.get(&(sec, site.start + k as u64))
                    {
                        match at[k] {
                            None => at[k] = Some(*c),
                            Some(a) => conflict |= frame.orc(&a).ok() != frame.orc(c).ok(),
                        }
                    }
                }
                if conflict {
                    conflicts.push((sec, site.start));
                }
                for (k, c) in at.iter().enumerate() {
                    if let Some(c) = c {
                        let e = entry(c);
                        push(rows, site.start + k as u64, e);
                    }
                }
                i = j.max(i + 1);
                continue;
            }
            let c = (states.get(&(sec, i)))
                .or_else(|| prefixed.get(&(sec, i)).and_then(|at| states.get(at)));
            let e = c.map_or_else(OrcEntry::undefined, &mut entry);
            push(rows, ins.offset(), e);
            i += 1;
        }
        if !rows.is_empty() {
            rows.push((m.obj.sections[sec].size, OrcEntry::undefined()));
        }
    }
    Generated {
        rows: out,
        unexpressible: errors,
        conflicts,
    }
}
