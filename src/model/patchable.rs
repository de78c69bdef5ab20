//! Patch sites of `-fpatchable-function-entry=M,N` and kCFI type hashes.
//!
//! `__patchable_function_entries` holds one 8-byte absolute pointer per
//! function to the first of its M NOPs, N of them before the entry (after the
//! landing pad when N = 0). kCFI puts a 32-bit type hash at a fixed distance
//! before every function (x86: the `mov $hash,%eax` of its `__cfi_` preamble;
//! arm64: a data word marked `$d` right before the prefix NOPs) and every
//! indirect call reads it there. Both depend on every function having the same
//! prefix, which is what this module measures. Sizes are in NOP units: bytes
//! on x86 (any NOP encoding counts by its length, as the compilers count M),
//! instructions on arm64.

use super::Model;
use crate::arch::Kind;
use crate::elf::Place;
use crate::rules::PatchableRules;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// How far a patch site may lie before the function it belongs to, and how
/// many NOPs after an entry are counted, in NOP units.
const MAX_RUN: u64 = 64;
/// Relocations or entries per unit of parallel work.
const CHUNK: usize = 1 << 13;
/// How many instructions before its trap a kCFI check's hash load may lie.
const CHECK_WINDOW: usize = 8;

/// Where one entry of a patchable-entries section points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The entry has no relocation, so it points nowhere in a relocatable object.
    Unrelocated,
    /// Relocated against an undefined symbol.
    External {
        sym: usize,
    },
    /// Not into an executable section of this object.
    NotCode {
        section: Option<usize>,
        offset: u64,
    },
    /// Into the body of function `func`, not at its entry.
    MidFunction {
        section: usize,
        offset: u64,
        func: usize,
    },
    /// Into code that is neither a function nor shortly before one; `run`
    /// NOP units start there.
    NoFunction {
        section: usize,
        offset: u64,
        run: u64,
    },
    /// The site of code without a function symbol: farther before the next
    /// function than the object's N, with instructions in between (seen in
    /// shipped modules whose local symbols are gone). Nothing to check.
    Unnamed {
        section: usize,
        offset: u64,
    },
    Site(Site),
}

/// One entry of a patchable-entries section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The entries section and the entry's offset in it.
    pub section: usize,
    pub offset: u64,
    pub target: Target,
}

/// A patch site in front of (or at) a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub func: usize,
    pub section: usize,
    /// Offset of the first NOP (what the entry points at).
    pub offset: u64,
    /// NOP units from the site to the entry (N of this site).
    pub before: u64,
    /// Length of the landing pad at the entry, when there is one.
    pub pad: u64,
    /// Consecutive NOP units after the entry and its pad (at most `MAX_RUN`).
    pub after: u64,
    /// The first instruction in `[site, entry)` (or a landing pad the site
    /// itself points at) that is not a NOP.
    pub non_nop: Option<u64>,
}

impl Site {
    /// The entry of the function this site belongs to.
    pub fn entry(&self, model: &Model) -> u64 {
        model.functions[self.func].start
    }
    /// Offset of the `k`th NOP unit of the site (k counted from 0), skipping
    /// the landing pad at the entry.
    pub fn unit_offset(&self, model: &Model, k: u64, unit: u64) -> u64 {
        let entry = self.entry(model);
        let at = self.offset + k * unit;
        if at >= entry && self.offset <= entry {
            at + self.pad
        } else {
            at
        }
    }
}

/// Where a function's kCFI type hash is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hash {
    pub func: usize,
    pub section: usize,
    /// Offset of the 32-bit hash.
    pub offset: u64,
    /// The hash, when it is an immediate (assembly uses a relocation).
    pub value: Option<u32>,
}

impl Hash {
    /// Bytes from the hash to the function entry (K of `f-K`).
    pub fn distance(&self, model: &Model) -> u64 {
        model.functions[self.func].start.saturating_sub(self.offset)
    }
}

/// An indirect-call check reading the callee's hash at `target - disp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashCheck {
    pub section: usize,
    /// Offset of the load (x86 `add`/`cmp`, arm64 `ldur`).
    pub offset: u64,
    pub disp: u64,
}

/// Everything about patch sites and kCFI hashes in one object.
#[derive(Debug, Clone, Default)]
pub struct Patchable {
    /// NOP unit in bytes (x86 1, arm64 4).
    pub unit: u64,
    /// Entries of every patchable-entries section, in section then entry order.
    pub entries: Vec<Entry>,
    /// Places listed in the mcount sections (`__mcount_loc`), sorted.
    pub mcount: Vec<(usize, u64)>,
    /// NOPs referenced from other allocated data (`__jump_table`,
    /// `.altinstructions`, `__mcount_loc`, ...), sorted: such a NOP belongs
    /// to that table, not to a patch site. Found on first use: only NOPs
    /// after a patch site's entry ask (arm64's CALL_OPS; on x86 the entry is
    /// followed by code), and the search reads every data relocation.
    owned: std::sync::OnceLock<Vec<(usize, u64)>>,
    /// The patchable-entries sections, whose own references own nothing
    /// (sorted).
    entry_sections: Vec<usize>,
    /// `(M, N)` most sites use, when there are sites.
    pub layout: Option<(u64, u64)>,
    pub hashes: Vec<Hash>,
    pub checks: Vec<HashCheck>,
    /// The distance the hash must have: the one most checks read, else the
    /// one most hashes have.
    pub hash_offset: Option<u64>,
}

/// The layout of one object, for `objlint stats` and verbose output.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct LayoutSummary {
    /// `-fpatchable-function-entry=M,N` as most patch sites show it.
    pub m: Option<u64>,
    pub n: Option<u64>,
    /// Entries in `__patchable_function_entries` (and the `.discard` variant).
    pub entries: usize,
    /// Entries at the site of code that has no function symbol (shipped
    /// modules lost some local symbols); not checked.
    pub entries_without_symbol: usize,
    /// Functions (not counting `__cfi_`/`__pfx_` preambles) with and without a patch site.
    pub functions_with_entry: usize,
    pub functions_without_entry: usize,
    /// Distance K of the kCFI hash before each function (`f-K`), when the object uses kCFI.
    pub hash_offset: Option<u64>,
    /// Functions with a kCFI hash, and indirect-call checks reading one.
    pub hashes: usize,
    pub hash_checks: usize,
}

/// The patchable/kCFI layout of an object: M and N of its patch sites, the
/// kCFI hash offset, and how many functions have a patch site. This is the
/// per-object layout report (`objlint stats`, `check --verbose`).
pub fn layout(model: &Model, rules: &PatchableRules) -> LayoutSummary {
    model.patchable(rules).summary(model)
}

impl Model<'_> {
    /// The patch sites and kCFI hashes of this object, built on first use.
    pub fn patchable(&self, rules: &PatchableRules) -> &Patchable {
        self.patchable.get_or_init(|| {
            crate::timing::time(crate::timing::Phase::Model, || {
                Patchable::analyze(self, rules)
            })
        })
    }
}

/// The value most often seen; ties go to the smaller value.
fn majority(values: impl Iterator<Item = u64>) -> Option<u64> {
    let mut counts: HashMap<u64, usize> = HashMap::default();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(v, _)| v)
}

impl Patchable {
    pub fn analyze(model: &Model, rules: &PatchableRules) -> Patchable {
        let obj = model.obj;
        let mut p = Patchable {
            unit: model.dec.min_insn_len(),
            ..Default::default()
        };
        for name in &rules.mcount_sections {
            for &sec in obj.sections_named(name) {
                for r in obj.relocs(sec) {
                    if let Place::Local { section, offset } = obj.resolve(r.sym(), obj.addend(r)) {
                        p.mcount.push((section, offset));
                    }
                }
            }
        }
        p.mcount.sort_unstable();
        p.mcount.dedup();
        let mut secs: Vec<usize> = rules
            .entry_sections
            .iter()
            .flat_map(|n| obj.sections_named(n).iter().copied())
            .collect();
        secs.sort_unstable();
        secs.dedup();
        if secs.is_empty() {
            p.find_hashes(model, rules);
            return p;
        }
        p.entry_sections = secs.clone();
        for sec in secs {
            let size = obj.sections[sec].size;
            let relocs = obj.relocs(sec);
            let n = size / 8;
            // Entries in order, in parallel runs (one section's entries on
            // this thread when they are one run: an LTO vmlinux.o has a
            // section of them per function).
            let run = |c: u64| {
                let from = c * CHUNK as u64;
                let to = (from + CHUNK as u64).min(n);
                let p = &p;
                (from..to).map(move |k| {
                    let off = k * 8;
                    let lo = relocs.partition_point(|r| r.offset() < off);
                    let target = match relocs.get(lo).filter(|r| r.offset() == off) {
                        None => Target::Unrelocated,
                        Some(r) => match obj.resolve(r.sym(), obj.addend(r)) {
                            Place::External { sym, .. } => Target::External { sym },
                            Place::Other => Target::NotCode {
                                section: None,
                                offset: obj.addend(r) as u64,
                            },
                            Place::Local { section, offset } => p.site(model, section, offset),
                        },
                    };
                    Entry {
                        section: sec,
                        offset: off,
                        target,
                    }
                })
            };
            let runs = n.div_ceil(CHUNK as u64);
            let entries: Vec<Entry> = if runs <= 1 {
                (0..runs).flat_map(run).collect()
            } else {
                (0..runs).into_par_iter().flat_map_iter(run).collect()
            };
            p.entries.extend(entries);
        }
        let sites: Vec<&Site> = p.sites().collect();
        if let Some(n) = majority(sites.iter().map(|s| s.before)) {
            let after = majority(sites.iter().filter(|s| s.before == n).map(|s| s.after));
            p.layout = Some((n + after.unwrap_or(0), n));
            // A site of code without a symbol still starts with N NOPs.
            let unit = p.unit;
            for e in p.entries.iter_mut() {
                let (section, offset) = match &e.target {
                    Target::Site(s)
                        if s.before > n
                            && s.non_nop.is_some_and(|b| (b - s.offset) / unit >= n.max(1)) =>
                    {
                        (s.section, s.offset)
                    }
                    &Target::NoFunction {
                        section,
                        offset,
                        run,
                    } if run >= n.max(1) => (section, offset),
                    _ => continue,
                };
                e.target = Target::Unnamed { section, offset };
            }
        }
        p.find_hashes(model, rules);
        p
    }

    /// Sites that belong to a function.
    pub fn sites(&self) -> impl Iterator<Item = &Site> {
        self.entries.iter().filter_map(|e| match &e.target {
            Target::Site(s) => Some(s),
            _ => None,
        })
    }

    pub fn summary(&self, model: &Model) -> LayoutSummary {
        let with: HashSet<usize> = self.sites().map(|s| s.func).collect();
        let funcs = model.functions.iter().filter(|f| !f.prefix).count();
        LayoutSummary {
            m: self.layout.map(|l| l.0),
            n: self.layout.map(|l| l.1),
            entries: self.entries.len(),
            entries_without_symbol: self
                .entries
                .iter()
                .filter(|e| matches!(e.target, Target::Unnamed { .. }))
                .count(),
            functions_with_entry: with.len(),
            functions_without_entry: funcs - with.len(),
            hash_offset: self.hash_offset,
            hashes: self.hashes.len(),
            hash_checks: self.checks.len(),
        }
    }

    /// The instruction at `offset` of an executable section, decoded on its own.
    fn insn_at(model: &Model, section: usize, offset: u64) -> Option<crate::arch::Insn> {
        let insns = model.insns_in(section, offset, offset.saturating_add(16));
        insns.first().copied().filter(|i| i.kind != Kind::Invalid)
    }

    fn pad_len(model: &Model, section: usize, offset: u64) -> u64 {
        match Self::insn_at(model, section, offset) {
            Some(i) if matches!(i.kind, Kind::Pad(_)) => u64::from(i.len),
            _ => 0,
        }
    }

    /// What a patch site at `section+offset` belongs to.
    fn site(&self, model: &Model, section: usize, offset: u64) -> Target {
        let obj = model.obj;
        let unit = self.unit;
        if !obj.sections.get(section).is_some_and(|s| s.is_exec())
            || offset >= obj.sections[section].size
        {
            return Target::NotCode {
                section: Some(section),
                offset,
            };
        }
        let containing = model
            .function_containing(section, offset)
            .filter(|&i| !model.functions[i].prefix);
        let (func, before, pad) = match containing {
            Some(g) => {
                let start = model.functions[g].start;
                let pad = Self::pad_len(model, section, start);
                if offset != start && offset != start + pad {
                    return Target::MidFunction {
                        section,
                        offset,
                        func: g,
                    };
                }
                (g, 0, pad)
            }
            None => {
                let next = model.next_function(section, offset);
                let gap = next.map(|f| model.functions[f].start - offset);
                let Some(f) = next
                    .filter(|_| gap.is_some_and(|g| g <= MAX_RUN * unit && g.is_multiple_of(unit)))
                else {
                    return Target::NoFunction {
                        section,
                        offset,
                        run: self.nop_run(model, section, offset),
                    };
                };
                let gap = gap.unwrap_or(0);
                (
                    f,
                    gap / unit,
                    Self::pad_len(model, section, model.functions[f].start),
                )
            }
        };
        let start = model.functions[func].start;
        let data = obj.section_data(section);
        let mut non_nop = None;
        if offset < start {
            non_nop = model
                .insns_in(section, offset, start)
                .iter()
                .find(|i| i.kind != Kind::Nop || i.end() > start)
                .map(|i| i.offset());
        } else if offset == start && pad > 0 {
            // N = 0 sites come after the landing pad; patching this one
            // would overwrite the pad.
            non_nop = Some(start);
        }
        // NOPs after the entry (and its pad), up to the function's end, a
        // NOP another table owns (mcount, jump label) or `MAX_RUN` units.
        let from = start + pad;
        let end = model.functions[func]
            .end
            .min(from + MAX_RUN * unit)
            .min(data.len() as u64);
        let mut after = 0;
        let v = if from < end {
            model.insns_in(section, from, end)
        } else {
            Default::default()
        };
        for i in v.iter() {
            if i.kind != Kind::Nop || i.end() > end {
                break;
            }
            // An mcount site is ftrace's even at the entry (objtool's
            // `--mcount --mnop` makes `call __fentry__` a NOP there); other
            // references to the entry itself take the function's address.
            if self.mcount.binary_search(&(section, i.offset())).is_ok()
                || (i.offset() != start
                    && self
                        .owned(model)
                        .binary_search(&(section, i.offset()))
                        .is_ok())
            {
                break;
            }
            after += u64::from(i.len) / unit;
        }
        Target::Site(Site {
            func,
            section,
            offset,
            before,
            pad,
            after,
            non_nop,
        })
    }

    /// See [`Patchable::owned`].
    fn owned(&self, model: &Model) -> &[(usize, u64)] {
        self.owned.get_or_init(|| {
            let obj = model.obj;
            // Runs of relocations of data sections, checked in parallel (a
            // vmlinux.o has millions); the result is sorted, so order is moot.
            let units: Vec<(usize, std::ops::Range<usize>)> = obj
                .sections
                .iter()
                .filter(|s| {
                    // Sorted: an LTO vmlinux.o has one entry section per
                    // function (61,236 in 285,044 sections).
                    s.is_alloc()
                        && !s.is_exec()
                        && self.entry_sections.binary_search(&s.index).is_err()
                })
                .flat_map(|s| {
                    let n = obj.relocs(s.index).len();
                    (0..n)
                        .step_by(CHUNK)
                        .map(move |lo| (s.index, lo..(lo + CHUNK).min(n)))
                })
                .collect();
            let mut owned: Vec<(usize, u64)> = units
                .par_iter()
                .flat_map_iter(|(sec, range)| {
                    obj.relocs(*sec)[range.clone()].iter().filter_map(|r| {
                        // Only a NOP can be taken for a patch site's (or a
                        // place the model's decoding does not start an
                        // instruction at).
                        if let Place::Local { section, offset } =
                            obj.resolve(r.sym(), obj.addend(r))
                            && let Some(code) = model.section_code(section)
                            && code
                                .index_at(offset)
                                .is_none_or(|i| code.insns[i].kind == Kind::Nop)
                        {
                            Some((section, offset))
                        } else {
                            None
                        }
                    })
                })
                .collect();
            owned.par_sort_unstable();
            owned.dedup();
            owned
        })
    }

    /// NOP units starting at a place (at most `MAX_RUN`).
    fn nop_run(&self, model: &Model, section: usize, offset: u64) -> u64 {
        let data = model.obj.section_data(section);
        let end = (offset + MAX_RUN * self.unit).min(data.len() as u64);
        if offset >= end {
            return 0;
        }
        model
            .insns_in(section, offset, end)
            .iter()
            .take_while(|i| i.kind == Kind::Nop && i.end() <= end)
            .map(|i| u64::from(i.len) / self.unit)
            .sum()
    }

    fn find_hashes(&mut self, model: &Model, rules: &PatchableRules) {
        let obj = model.obj;
        let dec = model.dec;
        // Indirect-call checks: a hash load shortly before a kCFI trap. A
        // trap is a check's only within `CHECK_WINDOW` instructions after a
        // load, so the traps asked are those after each load.
        for (sec, code) in model.code.iter().enumerate() {
            let Some(code) = code else { continue };
            let data = obj.section_data(sec);
            let loads = &code.kcfi_hash_loads;
            let mut next = 0;
            for &l in loads {
                let from = (l as usize + 1).max(next);
                let to = (l as usize + CHECK_WINDOW + 1).min(code.insns.len());
                for t in from..to {
                    if !code.insns[t].is_kcfi_trap() {
                        continue;
                    }
                    // The nearest load before the trap that reads as one.
                    self.checks
                        .extend((t.saturating_sub(CHECK_WINDOW)..t).rev().find_map(|k| {
                            let l = &code.insns[k];
                            if !l.is_kcfi_hash_load() {
                                return None;
                            }
                            let bytes = &data[l.offset() as usize..l.end() as usize];
                            dec.kcfi_hash_load(bytes).map(|h| HashCheck {
                                section: sec,
                                offset: l.offset(),
                                disp: h.disp.unsigned_abs(),
                            })
                        }));
                }
                next = next.max(to);
            }
        }
        // Hashes: the `__cfi_` preamble among the preambles right before a
        // function (x86), else a data word before its prefix NOPs (arm64).
        let mut candidates = Vec::new();
        let mut funcs = 0usize;
        for (i, f) in model.functions.iter().enumerate() {
            if f.prefix {
                continue;
            }
            funcs += 1;
            let pre = model.functions[..i]
                .iter()
                .enumerate()
                .rev()
                .take_while(|(_, g)| g.prefix && g.section == f.section)
                .find(|(_, g)| g.name.starts_with(rules.hash_preamble.as_str()))
                .map(|(p, _)| p);
            let hash = match (pre, obj.machine) {
                (Some(p), _) => self.preamble_hash(model, p, i),
                (None, crate::elf::Machine::Aarch64) => Self::data_word_hash(model, i),
                _ => None,
            };
            candidates.extend(hash);
        }
        // arm64 hashes are bare data words; without checks reading them, take
        // them as hashes only when most functions have one (some hand-written
        // assembly keeps data right before a function).
        let from_preambles = obj.machine == crate::elf::Machine::X86_64;
        if from_preambles || !self.checks.is_empty() || candidates.len() * 2 > funcs {
            self.hashes = candidates;
        }
        self.hash_offset = majority(self.checks.iter().map(|c| c.disp))
            .or_else(|| majority(self.hashes.iter().map(|h| h.distance(model))));
    }

    /// x86: the last `mov $imm32,%eax` of the `__cfi_` preamble `p` before function `f`.
    fn preamble_hash(&self, model: &Model, p: usize, f: usize) -> Option<Hash> {
        let pf = &model.functions[p];
        let code = model.section_code(pf.section)?;
        let data = model.obj.section_data(pf.section);
        code.insns[model.insn_range(pf)]
            .iter()
            .rev()
            .find_map(|ins| {
                let bytes = &data[ins.offset() as usize..ins.end() as usize];
                model.dec.kcfi_hash_mov(bytes).map(|v| Hash {
                    func: f,
                    section: pf.section,
                    offset: ins.end() - 4,
                    value: Some(v),
                })
            })
            .filter(|h| h.offset < model.functions[f].start)
    }

    /// arm64: a 4-byte `$d` word right before the NOPs that precede `f`.
    fn data_word_hash(model: &Model, f: usize) -> Option<Hash> {
        let func = &model.functions[f];
        let sec = func.section;
        let data = model.obj.section_data(sec);
        let map = model.obj.mapping(sec);
        let word = |o: u64| {
            data.get(o as usize..o as usize + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        };
        let mut p = func.start;
        for _ in 0..MAX_RUN {
            let Some(prev) = p.checked_sub(4) else { break };
            let is_nop = Self::insn_at(model, sec, prev).is_some_and(|i| i.kind == Kind::Nop);
            let in_code = match map.partition_point(|m| m.0 <= prev) {
                0 => map.is_empty(),
                k => map[k - 1].1 == crate::elf::Mapping::Code,
            };
            if !is_nop || !in_code {
                break;
            }
            p = prev;
        }
        let at = p.checked_sub(4)?;
        let k = map.binary_search_by_key(&at, |m| m.0).ok()?;
        let marked = map[k].1 == crate::elf::Mapping::Data
            && map
                .get(k + 1)
                .is_some_and(|n| n.0 == p && n.1 == crate::elf::Mapping::Code);
        let relocated = !model.obj.relocs_in(sec, at, at + 4).is_empty();
        marked.then(|| Hash {
            func: f,
            section: sec,
            offset: at,
            value: (!relocated).then(|| word(at)).flatten(),
        })
    }
}

/// `f+0x4` / `f-0x8`: a place named relative to function `func`'s entry.
pub fn relative(model: &Model, func: usize, offset: u64) -> String {
    let f = &model.functions[func];
    if offset >= f.start {
        format!("{}+{:#x}", f.name, offset - f.start)
    } else {
        format!("{}-{:#x}", f.name, f.start - offset)
    }
}

/// `16 bytes of NOPs` (x86) / `2 NOPs` (arm64).
pub fn nops(unit: u64, n: u64) -> String {
    match (unit, n) {
        (1, 1) => "1 byte of NOPs".to_string(),
        (1, n) => format!("{n} bytes of NOPs"),
        (_, 1) => "1 NOP".to_string(),
        (_, n) => format!("{n} NOPs"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks found from the hash loads are the ones a pass over every
    /// trap finds (the nearest load that reads as one, at most
    /// `CHECK_WINDOW` instructions before the trap), in every fixture.
    #[test]
    fn checks_from_the_loads_are_those_of_every_trap() {
        let rules = crate::rules::Rules::builtin();
        let (mut total, mut windows) = (0, false);
        crate::model::each_fixture_model(&["testdata"], |path, obj, m| {
            let mut every = Vec::new();
            for (sec, code) in m.code.iter().enumerate() {
                let Some(code) = code else { continue };
                let data = obj.section_data(sec);
                for t in (0..code.insns.len()).filter(|&t| code.insns[t].is_kcfi_trap()) {
                    every.extend((t.saturating_sub(CHECK_WINDOW)..t).rev().find_map(|k| {
                        let l = &code.insns[k];
                        let bytes = &data[l.offset() as usize..l.end() as usize];
                        (l.is_kcfi_hash_load())
                            .then(|| m.dec.kcfi_hash_load(bytes))
                            .flatten()
                            .map(|h| (sec, l.offset(), h.disp.unsigned_abs()))
                    }));
                }
            }
            let got: Vec<_> = (m.patchable(&rules.patchable).checks.iter())
                .map(|c| (c.section, c.offset, c.disp))
                .collect();
            assert_eq!(got, every, "{path}");
            if path.ends_with("kcfi_window_x86.o") {
                // By hand (the fixture's comment): the loads at 0xa and
                // 0x3b, 8 and 1 instructions before their traps.
                let at: Vec<_> = got.iter().map(|&(_, o, d)| (o, d)).collect();
                assert_eq!(at, [(0xa, 0xf), (0x3b, 0xf)]);
                windows = true;
            }
            total += got.len();
        });
        assert!(total > 0 && windows, "the kCFI fixtures are missing");
    }
}
