//! Address-taken analysis: which places in code an indirect branch may land
//! on, from the relocations of one object.
//!
//! Every relocation whose target resolves into an executable section is
//! classified through [`Decoder::reloc_use`](crate::arch::Decoder::reloc_use):
//! direct-branch operands need no landing pad; everything else (pointers in
//! data, `lea`/`mov $sym`, `adr`, `adrp`+`add`) materialises the address, so
//! the target becomes *address-taken* unless an exemption applies (see
//! [`Exemption`]; the section and symbol lists are `rules/landing_pads.toml`).
//! Targets in undefined symbols are outside the object and not classified.
//!
//! Used by `ibt-missing-endbr`, `bti-missing-landing-pad`, `gnu-property`,
//! `objlint stats` and `objlint seal`: build it once per object with
//! [`Model::address_taken`], then ask [`AddressTaken::is_taken`],
//! [`AddressTaken::needs_pad`] or [`AddressTaken::unneeded_entry_pads`].

use super::Model;
use crate::arch::{Kind, Pad, RelocUse};
use crate::elf::annotations::{self, Layout};
use crate::elf::{
    Place, STB_LOCAL, STT_FILE, STT_FUNC, STT_NOTYPE, STT_OBJECT, STT_SECTION, SymSection,
};
use crate::rules::{AnnotationLayout, LandingPadRules};
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::OnceLock;

/// Why a reference to code needs no landing pad.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exemption {
    /// From code of a function to a place inside the same function (or its
    /// `.cold` part) other than its entry: `_THIS_IP_`, local labels.
    SameFunction,
    /// The end of a function: a code-range end marker, not a branch target.
    RangeEnd,
    /// A jump-table entry of a function whose indirect jumps are untracked
    /// (x86 `notrack jmp`).
    JumpTable,
    /// The target is annotated NOENDBR (`.discard.noendbr`, `.discard.annotate_insn`).
    Annotated,
    /// The symbol at the target never needs a pad (the pattern's name).
    Target(String),
    /// The target is data kept in a code section, not code: inside (or at)
    /// an `STT_OBJECT` symbol, bytes that do not decode, or a place outside
    /// every function and sized code symbol that no global symbol names
    /// (constant tables of hand-written assembly: OpenSSL's `K256`,
    /// `K_XX_XX`, the `.Lconst` blocks between functions).
    Data,
}

/// The symbol a relocation names, when it is not a section symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Named {
    /// The symbol starts at the place the relocation resolves to.
    at_target: bool,
    size: u64,
}

/// One relocation whose target is code in this object.
///
/// Sections and instruction offsets are stored in 32 bits (64 bytes a
/// reference, 96 before; vmlinux.o has 55,000): section indices are 32-bit
/// in ELF and code sections are at most 4 GiB. The two other offsets stay
/// wide: a switch table's entry in data, or a range's end a symbol's size
/// claims, need not fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRef {
    reloc_offset: u64,
    to_offset: u64,
    from_section: u32,
    /// Or [`CodeRef::NONE`].
    insn: u32,
    to_section: u32,
    /// Or [`CodeRef::NONE`].
    jump: u32,
    /// A relocation says so; otherwise the assembler resolved the reference
    /// (`lea label(%rip)` within one section, `adr`, a switch table).
    pub relocated: bool,
    pub exempt: Option<Exemption>,
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<CodeRef>() == 64);

impl CodeRef {
    const NONE: u32 = u32::MAX;

    fn new(
        (from_section, reloc_offset, insn): (usize, u64, Option<u64>),
        (to_section, to_offset): (usize, u64),
        jump: Option<u64>,
        relocated: bool,
        exempt: Option<Exemption>,
    ) -> CodeRef {
        let narrow = |v: u64| -> u32 {
            // See above: a section index, or an offset in code.
            u32::try_from(v)
                .ok()
                .filter(|&v| v != CodeRef::NONE)
                .expect("a section index or an offset in code fits 32 bits")
        };
        CodeRef {
            reloc_offset,
            to_offset,
            from_section: narrow(from_section as u64),
            insn: insn.map_or(CodeRef::NONE, narrow),
            to_section: narrow(to_section as u64),
            jump: jump.map_or(CodeRef::NONE, narrow),
            relocated,
            exempt,
        }
    }
    /// The section holding the relocation.
    pub fn from_section(&self) -> usize {
        self.from_section as usize
    }
    /// The relocation's offset in [`CodeRef::from_section`].
    pub fn reloc_offset(&self) -> u64 {
        self.reloc_offset
    }
    /// The instruction holding the relocation, when it is in code.
    pub fn insn(&self) -> Option<u64> {
        (self.insn != CodeRef::NONE).then_some(u64::from(self.insn))
    }
    pub fn to_section(&self) -> usize {
        self.to_section as usize
    }
    pub fn to_offset(&self) -> u64 {
        self.to_offset
    }
    /// For an entry of a switch table without relocations
    /// ([`Model::jump_tables`]): the offset of the indirect jump (in
    /// [`CodeRef::to_section`]) that reads it. Its target needs a jump
    /// landing pad.
    pub fn jump(&self) -> Option<u64> {
        (self.jump != CodeRef::NONE).then_some(u64::from(self.jump))
    }
}

/// A landing pad at a function entry that nothing needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryPad {
    /// Index into [`Model::functions`].
    pub function: usize,
    pub section: usize,
    pub offset: u64,
    pub pad: Pad,
}

/// An address-taking reference to the entry of a symbol this object does
/// not define (a pointer in data, `lea sym(%rip)`, `adrp`+`add`): in an
/// archive, another member may define it ([`AddressTaken::link_members`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRef {
    /// The undefined symbol.
    pub sym: usize,
    /// The offset from the symbol the reference points at (the relocation's
    /// addend less what the instruction adds).
    pub addend: i64,
    pub from_section: usize,
    pub reloc_offset: u64,
    /// The instruction holding the relocation, when it is in code.
    pub insn: Option<u64>,
}

/// A place in code: (section, offset).
pub type CodePlace = (usize, u64);

/// References from other members of an archive, each named
/// `ARCHIVE(MEMBER): sym+0xoff`, with the member it is in.
pub type MemberRefs = Vec<(String, usize)>;

/// References from other members of an archive to one place of code: a
/// function's entry, or an instruction inside a function or outside any
/// (`sym+off` may land past the function it names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRef {
    pub section: usize,
    /// From the section's start.
    pub offset: u64,
    /// The first reference, as `ARCHIVE(MEMBER): sym+0xoff`.
    pub first: String,
    /// All references, and the members they are in.
    pub count: usize,
    pub members: usize,
    /// Why it needs no landing pad (an annotation or the rules' names).
    pub exempt: Option<Exemption>,
}

/// The address-taken facts of one object.
#[derive(Debug, Default)]
pub struct AddressTaken {
    /// References to code in this object from sections that are not exempt,
    /// sorted by (section, offset).
    pub refs: Vec<CodeRef>,
    /// Per function: its entry is the target of a non-exempt reference.
    pub taken: Vec<bool>,
    /// Per function: its entry is referenced from an export table (`__ksymtab*`).
    pub exported: Vec<bool>,
    /// Address-taking references to undefined symbols (not checkable here).
    pub external: usize,
    /// Those of them, sorted by place.
    pub imports: Vec<ImportRef>,
    /// In an archive checked as a unit: functions whose address other
    /// members take (their non-exempt ones are in [`AddressTaken::taken`]).
    pub from_members: Vec<MemberRef>,
    /// Targets of non-exempt references, sorted.
    needed: Vec<(usize, u64)>,
}

impl Model<'_> {
    /// The address-taken facts of this object, built on first use.
    pub fn address_taken(&self, rules: &LandingPadRules) -> &AddressTaken {
        self.landing.get_or_init(|| {
            crate::timing::time(crate::timing::Phase::Model, || {
                AddressTaken::build(self, rules)
            })
        })
    }
}

impl Model<'_> {
    /// Take in references from other members of an archive to this
    /// object's functions ([`AddressTaken::link_members`]).
    pub fn link_member_refs(
        &mut self,
        rules: &LandingPadRules,
        refs: Vec<(CodePlace, MemberRefs)>,
    ) {
        let mut at = self
            .landing
            .take()
            .unwrap_or_else(|| AddressTaken::build(self, rules));
        at.link_members(self, rules, refs);
        let _ = self.landing.set(at);
    }
}

impl AddressTaken {
    /// Classify every relocation of the object, and the PC-relative address
    /// computations the assembler resolved without one.
    pub fn build(m: &Model, rules: &LandingPadRules) -> AddressTaken {
        let obj = m.obj;
        let cx = Classifier {
            m,
            noendbr: noendbr_places(m, rules),
            no_pad: no_pad_places(m, rules),
            untracked: OnceLock::new(),
            data_objects: OnceLock::new(),
            global_labels: OnceLock::new(),
        };
        // Units of work: runs of one section's relocations, and each code
        // section's own PC-relative address computations. Every unit's
        // result merges into sets, so the order they finish in is moot.
        let mut units: Vec<Unit> = Vec::new();
        for sec in &obj.sections {
            let code = m.section_code(sec.index);
            if sec.sh_type == goblin::elf::section_header::SHT_NOBITS
                || (obj.reloc_count(sec.index) == 0 && code.is_none())
            {
                continue;
            }
            // References from exempt sections (ORC, __mcount_loc, DWARF, ...)
            // take no address: skip them before any lookup, they are most
            // relocations (and a debug section's are read only when asked for).
            if rules.exempt_section(obj.machine, &sec.name).is_some() {
                continue;
            }
            let relocs = obj.relocs(sec.index);
            let export = rules.is_export_section(&sec.name);
            let mut lo = 0;
            while lo < relocs.len() {
                let hi = (lo + RELOC_CHUNK).min(relocs.len());
                units.push(Unit::Relocs(sec.index, lo..hi, export));
                lo = hi;
            }
            // vmlinux.o's .text in one unit kept one thread busy to the end.
            if let Some(c) = code {
                let mut lo = 0;
                while lo < c.computed.len() {
                    let hi = (lo + COMPUTED_CHUNK).min(c.computed.len());
                    units.push(Unit::Unrelocated(sec.index, lo..hi, export));
                    lo = hi;
                }
            }
        }
        let outs: Vec<Found> = units
            .par_iter()
            .with_max_len(1)
            .map(|u| {
                let mut out = Found::default();
                match u {
                    Unit::Relocs(sec, range, export) => {
                        cx.relocs(&mut out, *sec, range.clone(), *export)
                    }
                    Unit::Unrelocated(sec, range, export) => {
                        cx.unrelocated(&mut out, *sec, range.clone(), *export)
                    }
                }
                out
            })
            .collect();
        let mut out = Found::default();
        // Switch-table targets that no relocation names (arm64), once each,
        // also when dispatches share the table (a duplicated dispatch block;
        // thousands in a crafted object): the first dispatch names them.
        let mut seen = HashSet::default();
        for t in &m.jump_tables().tables {
            for (entry, target) in t.entries() {
                if seen.insert((t.table_section, t.table_offset, target)) {
                    let from = (t.table_section, entry, None);
                    cx.classify(
                        &mut out,
                        from,
                        (t.section, target),
                        false,
                        Some(t.jump),
                        None,
                        false,
                    );
                }
            }
        }
        let mut at = AddressTaken {
            taken: vec![false; m.functions.len()],
            exported: vec![false; m.functions.len()],
            ..Default::default()
        };
        for o in outs.into_iter().chain([out]) {
            at.external += o.external;
            at.imports.extend(o.imports);
            at.refs.extend(o.refs);
            at.needed.extend(o.needed);
            for (f, export) in o.taken {
                at.taken[f] = true;
                at.exported[f] |= export;
            }
        }
        at.refs
            .sort_by_key(|r| (r.from_section, r.reloc_offset, r.to_section, r.to_offset));
        at.needed.sort_unstable();
        at.needed.dedup();
        at.imports
            .sort_unstable_by_key(|r| (r.from_section, r.reloc_offset));
        at
    }

    /// Take in references from other members of an archive to this object's
    /// functions: `refs` per (function index, offset from its start: an
    /// instruction), each reference named as `ARCHIVE(MEMBER): sym+0xoff`,
    /// with the member it is in. What annotations and the rules' names exempt
    /// here stays exempt; the rest needs a landing pad there, and at offset 0
    /// makes the function address-taken, as a link of the members would.
    pub fn link_members(
        &mut self,
        m: &Model,
        rules: &LandingPadRules,
        refs: Vec<(CodePlace, MemberRefs)>,
    ) {
        if refs.is_empty() {
            return;
        }
        let noendbr = noendbr_places(m, rules);
        let no_pad = no_pad_places(m, rules);
        for (at, mut from) in refs {
            let exempt = if let Some(name) = no_pad.get(&at) {
                Some(Exemption::Target(name.clone()))
            } else if noendbr.contains(&at) {
                Some(Exemption::Annotated)
            } else {
                None
            };
            if exempt.is_none() {
                if let Some(f) = m.function_at_start(at.0, at.1) {
                    self.taken[f] = true;
                }
                if let Err(k) = self.needed.binary_search(&at) {
                    self.needed.insert(k, at);
                }
            }
            from.sort_unstable();
            let count = from.len();
            let first = from[0].0.clone();
            from.dedup_by_key(|r| r.1);
            self.from_members.push(MemberRef {
                section: at.0,
                offset: at.1,
                first,
                count,
                members: from.len(),
                exempt,
            });
        }
        self.from_members
            .sort_unstable_by_key(|r| (r.section, r.offset));
    }

    /// Whether function `f` (index into [`Model::functions`]) is address-taken.
    pub fn is_taken(&self, f: usize) -> bool {
        self.taken[f]
    }

    /// Whether a non-exempt reference targets this place.
    pub fn needs_pad(&self, section: usize, offset: u64) -> bool {
        self.needed.binary_search(&(section, offset)).is_ok()
    }

    /// The non-exempt references: each needs a landing pad at its target.
    pub fn needing_pad(&self) -> impl Iterator<Item = &CodeRef> {
        self.refs.iter().filter(|r| r.exempt.is_none())
    }

    /// Landing pads in the entry regions of functions that are provably never
    /// reached indirectly: not address-taken in this object, and local (other
    /// objects may take a global function's address) unless `link` says the
    /// object is a linked whole, where only export tables keep a pad (their
    /// references already count as address-taking). A function's entry region
    /// is its first instruction and any NOPs and pads that directly follow
    /// (arm64 CALL_OPS puts NOPs before `paciasp`). The caller decides which
    /// kinds it may remove ([`Pad::sealable`]).
    ///
    /// Only what the object shows counts: a shipped `.ko` lost its
    /// `.discard.ibt_endbr_noseal` entries at module link (kvm's IBT_NOSEAL
    /// fastop functions, reached by computed offsets, are the one case in the
    /// Debian corpus), so there prefer objtool's own `.ibt_endbr_seal` list.
    pub fn unneeded_entry_pads(&self, m: &Model, link: bool) -> Vec<EntryPad> {
        let mut out = Vec::new();
        for (fi, f) in m.functions.iter().enumerate() {
            if f.prefix || self.taken[fi] || (!link && (f.global || f.weak)) {
                continue;
            }
            for (offset, pad) in entry_pads(m, fi) {
                if !self.needs_pad(f.section, offset) {
                    out.push(EntryPad {
                        function: fi,
                        section: f.section,
                        offset,
                        pad,
                    });
                }
            }
        }
        out
    }
}

/// The landing pads in the entry region of function `fi`: its first
/// instruction and the NOPs and pads right after it.
pub fn entry_pads(m: &Model, fi: usize) -> Vec<(u64, Pad)> {
    let f = &m.functions[fi];
    let Some(code) = m.section_code(f.section) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ins in &code.insns[m.insn_range(f)] {
        match ins.kind {
            Kind::Pad(p) if p.is_landing_pad() => out.push((ins.offset(), p)),
            Kind::Nop | Kind::Pad(_) => {}
            _ => break,
        }
    }
    out
}

/// The pad exactly at a place, if an instruction starts there and is one.
pub fn pad_at(m: &Model, section: usize, offset: u64) -> Option<Pad> {
    let code = m.section_code(section)?;
    match code.insns[code.index_at(offset)?].kind {
        Kind::Pad(p) if p.is_landing_pad() => Some(p),
        _ => None,
    }
}

/// The state of one [`AddressTaken::build`].
struct Classifier<'m, 'a> {
    m: &'m Model<'a>,
    noendbr: HashSet<(usize, u64)>,
    no_pad: HashMap<(usize, u64), String>,
    /// Per function: has an untracked indirect jump; built on first need.
    untracked: OnceLock<Vec<bool>>,
    /// Sized `STT_NOTYPE` symbols of code: (section, start, end); built on first need.
    /// `STT_OBJECT` symbols in code sections; built on first need.
    data_objects: OnceLock<Vec<(usize, u64, u64)>>,
    /// Where global or weak code symbols start; built on first need.
    global_labels: OnceLock<HashSet<(usize, u64)>>,
}

/// Relocations per unit of parallel work.
const RELOC_CHUNK: usize = 1 << 13;
/// Address computations per unit of work looking for unrelocated ones.
const COMPUTED_CHUNK: usize = 1 << 12;

/// A unit of [`AddressTaken::build`]'s work, with whether its section is an
/// export table.
enum Unit {
    /// Relocations `range` of a section.
    Relocs(usize, std::ops::Range<usize>, bool),
    /// The address computations without a relocation among a code
    /// section's computations `range` (`SectionCode::computed`).
    Unrelocated(usize, std::ops::Range<usize>, bool),
}

/// What one unit found.
#[derive(Default)]
struct Found {
    refs: Vec<CodeRef>,
    needed: Vec<(usize, u64)>,
    /// Functions whose entry is taken, and whether by an export table.
    taken: Vec<(usize, bool)>,
    external: usize,
    imports: Vec<ImportRef>,
}

impl Classifier<'_, '_> {
    /// Classify relocations `range` of section `sec`.
    fn relocs(&self, out: &mut Found, sec: usize, range: std::ops::Range<usize>, export: bool) {
        let m = self.m;
        let obj = m.obj;
        let relocs = &obj.relocs(sec)[range];
        let code = m.section_code(sec);
        // The instruction holding each relocation (relocs are sorted).
        let mut k = match (code, relocs.first()) {
            (Some(c), Some(r)) => c.insns.partition_point(|i| i.end() <= r.offset()),
            _ => 0,
        };
        for r in relocs {
            let insn = code.and_then(|c| {
                // Far ahead (relocations are sparse in code): from the
                // instruction before the first at or past it, by the page
                // index; stepping through every instruction between was
                // 0.6% of the instructions of a run over the x86 modules.
                if c.insns.get(k + 8).is_some_and(|i| i.end() <= r.offset()) {
                    k = k.max(c.lower_bound(r.offset()).saturating_sub(1));
                }
                while k < c.insns.len() && c.insns[k].end() <= r.offset() {
                    k += 1;
                }
                c.insns.get(k).filter(|i| i.offset() <= r.offset())
            });
            let bias = match m.dec.reloc_use(insn, r.offset(), r.r_type()) {
                RelocUse::Address(b) => b,
                RelocUse::Branch(_) | RelocUse::Partial => continue,
            };
            let mut addend = obj.addend(r);
            // `.long sym - start` (arm64's PE/COFF header: `efi_pe_entry -
            // .L_head`) is assembled as `S + (P - start) - P`: with the start
            // at the section's beginning the addend is the word's own offset,
            // and the place meant is the symbol itself.
            if insn.is_none()
                && addend != 0
                && addend as u64 == r.offset()
                && obj.symbols[r.sym()].st_type != STT_SECTION
                && m.dec.pc_relative_word(r.r_type())
            {
                addend = 0;
            }
            match obj.resolve(r.sym(), addend.wrapping_add(bias)) {
                Place::Local { section, offset } => {
                    let from = (sec, r.offset(), insn.map(|i| i.offset()));
                    let sym = &obj.symbols[r.sym()];
                    let named = (sym.st_type != STT_SECTION).then_some(Named {
                        at_target: sym.value == offset,
                        size: sym.size,
                    });
                    self.classify(out, from, (section, offset), export, None, named, true);
                }
                Place::External { sym, addend } => {
                    if obj.sections[sec].is_alloc() {
                        out.external += 1;
                        out.imports.push(ImportRef {
                            sym,
                            addend,
                            from_section: sec,
                            reloc_offset: r.offset(),
                            insn: insn.map(|i| i.offset()),
                        });
                    }
                }
                Place::Other => {}
            }
        }
    }

    /// `lea label(%rip)` / `adr` within one section carry no relocation.
    fn unrelocated(
        &self,
        out: &mut Found,
        sec: usize,
        range: std::ops::Range<usize>,
        export: bool,
    ) {
        let m = self.m;
        let Some(c) = m.section_code(sec) else {
            return;
        };
        // Instructions and relocations are both in offset order: one cursor
        // (two searches per instruction over vmlinux.o's million).
        let relocs = m.obj.relocs(sec);
        let insns = c.computed[range].iter().map(|&k| &c.insns[k as usize]);
        let mut r = insns
            .clone()
            .next()
            .map_or(0, |i| relocs.partition_point(|x| x.offset() < i.offset()));
        for i in insns {
            let Some(to) = i.imm_target() else {
                continue;
            };
            while r < relocs.len() && relocs[r].offset() < i.offset() {
                r += 1;
            }
            if relocs.get(r).is_none_or(|x| x.offset() >= i.end()) {
                let from = (sec, i.offset(), Some(i.offset()));
                self.classify(out, from, (sec, to), export, None, None, false);
            }
        }
    }

    /// Record a reference from `(section, offset, instruction)` to a place.
    #[allow(clippy::too_many_arguments)]
    fn classify(
        &self,
        out: &mut Found,
        (from_section, from_offset, insn): (usize, u64, Option<u64>),
        (to_section, to_offset): (usize, u64),
        export: bool,
        jump: Option<u64>,
        named: Option<Named>,
        relocated: bool,
    ) {
        let m = self.m;
        // Only places where an instruction starts are branch targets.
        let Some(tcode) = m.section_code(to_section) else {
            return;
        };
        let target_fn = m.function_containing(to_section, to_offset);
        let entry = m.function_at_start(to_section, to_offset);
        // The end of a function or of a sized code routine (SYM_CODE), as
        // range checks use it (`__end_*` labels, `sym + size`), unless the
        // reference names a routine that starts there. Without a symbol
        // (section-relative, `adr`), only where nothing else starts.
        let ends_here = m.range_ends_at(to_section, to_offset);
        let range_end = ends_here
            && match named {
                Some(Named { at_target, size }) => !at_target || size == 0,
                None => entry.is_none() && !m.code_symbol_starts_at(to_section, to_offset),
            };
        if tcode.index_at(to_offset).is_none() && !range_end {
            return;
        }
        let exempt = if let Some(name) = self.no_pad.get(&(to_section, to_offset)) {
            Some(Exemption::Target(name.clone()))
        } else if self.noendbr.contains(&(to_section, to_offset)) {
            Some(Exemption::Annotated)
        } else if range_end {
            Some(Exemption::RangeEnd)
        } else if jump.is_none() && self.is_data(to_section, to_offset, target_fn) {
            Some(Exemption::Data)
        } else if entry.is_none()
            && insn.is_some()
            && (same_function(
                m,
                m.function_containing(from_section, from_offset),
                target_fn,
            ) || self.same_code_symbol(from_section, from_offset, to_section, to_offset))
        {
            Some(Exemption::SameFunction)
        } else if entry.is_none()
            && insn.is_none()
            && target_fn.is_some_and(|f| self.untracked.get_or_init(|| untracked_jumps(m))[f])
        {
            Some(Exemption::JumpTable)
        } else {
            None
        };
        if exempt.is_none() {
            out.needed.push((to_section, to_offset));
            if let Some(f) = entry {
                out.taken.push((f, export));
            }
        }
        out.refs.push(CodeRef::new(
            (from_section, from_offset, insn),
            (to_section, to_offset),
            jump,
            relocated,
            exempt,
        ));
    }

    /// Whether a place in a code section holds data, not code (see
    /// [`Exemption::Data`]).
    fn is_data(&self, section: usize, offset: u64, target_fn: Option<usize>) -> bool {
        let m = self.m;
        let in_object = self
            .data_objects()
            .iter()
            .any(|&(s, lo, hi)| s == section && lo <= offset && (offset < hi || offset == lo));
        if in_object {
            return true;
        }
        let undecodable = m
            .section_code(section)
            .and_then(|c| c.index_at(offset).map(|k| c.insns[k].kind))
            .is_some_and(|k| k == Kind::Invalid);
        if undecodable {
            return true;
        }
        // Outside every function and code routine: data, unless a global
        // symbol names the place (an entry point other objects may take).
        // A local label there is how hand-written assembly names a table
        // (OpenSSL's `K_XX_XX`, without `.type`).
        target_fn.is_none()
            && self.m.code_symbol_containing(section, offset).is_none()
            && !self.global_label_at(section, offset)
    }

    /// Whether a global or weak symbol that is not data starts at the place.
    fn global_label_at(&self, section: usize, offset: u64) -> bool {
        let m = self.m;
        self.global_labels
            .get_or_init(|| {
                m.obj
                    .symbols
                    .iter()
                    .filter(|s| {
                        s.index != 0
                            && s.bind != STB_LOCAL
                            && matches!(s.st_type, STT_NOTYPE | STT_FUNC)
                    })
                    .filter_map(|s| Some((s.section_index()?, s.value)))
                    .collect()
            })
            .contains(&(section, offset))
    }
}

impl Classifier<'_, '_> {
    /// Whether both places lie in one sized non-function symbol of code,
    /// the target not at its start: hand-written `SYM_CODE_START` routines
    /// (`STT_NOTYPE`) that take their own labels' addresses, as functions do
    /// (arm64 `adr x1, 1f` handing firmware the address to resume at).
    fn same_code_symbol(&self, fs: usize, fo: u64, ts: usize, to: u64) -> bool {
        fs == ts
            && self
                .m
                .code_symbols()
                .iter()
                .any(|&(sec, lo, hi, _)| sec == fs && lo <= fo && fo < hi && lo < to && to < hi)
    }

    /// `STT_OBJECT` symbols in code sections: (section, start, end).
    fn data_objects(&self) -> &[(usize, u64, u64)] {
        let m = self.m;
        self.data_objects.get_or_init(|| {
            m.obj
                .symbols
                .iter()
                .filter(|s| s.st_type == STT_OBJECT)
                .filter_map(|s| {
                    let SymSection::Section(sec) = s.section else {
                        return None;
                    };
                    m.section_code(sec)?;
                    Some((sec, s.value, s.value.saturating_add(s.size)))
                })
                .collect()
        })
    }
}

/// `f.cold` belongs to `f` (GCC's hot/cold split).
fn parent_name(name: &str) -> &str {
    match name.find(".cold") {
        Some(i) => &name[..i],
        None => name,
    }
}

fn same_function(m: &Model, from: Option<usize>, to: Option<usize>) -> bool {
    match (from, to) {
        (Some(a), Some(b)) => {
            a == b || parent_name(m.functions[a].name) == parent_name(m.functions[b].name)
        }
        _ => false,
    }
}

/// Per function: it contains an untracked indirect jump (jump tables).
/// Built inside a parallel pass (the first reference that asks), so it
/// looks only at each function's transfers, where indirect jumps are: a
/// pass over every instruction kept the other threads waiting for it.
fn untracked_jumps(m: &Model) -> Vec<bool> {
    m.functions
        .iter()
        .map(|f| {
            let Some(code) = m.section_code(f.section) else {
                return false;
            };
            if !code.has_any(Kind::IndirectJump.bit()) {
                return false;
            }
            let data = m.obj.section_data(f.section);
            code.transfers_in(m.insn_range(f)).iter().any(|&k| {
                let i = &code.insns[k as usize];
                i.kind == Kind::IndirectJump
                    && m.dec
                        .untracked_jump(&data[i.offset() as usize..i.end() as usize])
            })
        })
        .collect()
}

/// Places annotated NOENDBR in this object.
fn noendbr_places(m: &Model, rules: &LandingPadRules) -> HashSet<(usize, u64)> {
    let mut set = HashSet::default();
    for a in &rules.noendbr_annotation {
        let layout = match a.layout {
            AnnotationLayout::List => Layout::List,
            AnnotationLayout::Typed => Layout::Typed(a.kind),
        };
        set.extend(annotations::places(m.obj, &a.section, layout));
    }
    set
}

/// Places where a symbol matching `no_pad_target` is defined, with the pattern.
fn no_pad_places(m: &Model, rules: &LandingPadRules) -> HashMap<(usize, u64), String> {
    if rules.no_pad_target.is_empty() {
        return HashMap::default();
    }
    // The entries that can match in each section, worked out once (the
    // machine's entries first: most objects' machine has few or none).
    let here = rules.no_pad_targets_for(m.obj.machine);
    if here.is_empty() {
        return HashMap::default();
    }
    let per_section: Vec<Vec<(usize, &crate::rules::NamePattern)>> = m
        .obj
        .sections
        .iter()
        .map(|sec| {
            here.iter()
                .filter(|(_, p)| p.in_section(&sec.name))
                .copied()
                .collect()
        })
        .collect();
    m.obj
        .symbols
        .iter()
        .filter(|s| s.st_type != STT_SECTION && s.st_type != STT_FILE)
        .filter_map(|s| {
            let SymSection::Section(sec) = s.section else {
                return None;
            };
            let &(k, p) = per_section
                .get(sec)?
                .iter()
                .find(|p| p.1.matches(&s.name))?;
            rules
                .log
                .hit((crate::rules::Exemption::NoPadTarget, None, k));
            Some(((sec, s.value), p.name.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{CodeRef, Exemption};

    /// A reference keeps every place as given: the narrow ones, absent
    /// ones, and offsets past 32 bits where they may occur (a relocation in
    /// data, a range's end a symbol's size claims in a crafted object).
    #[test]
    fn references_keep_their_places() {
        let wide = 1u64 << 40;
        let r = CodeRef::new(
            (7, wide, None),
            (3, wide + 5),
            None,
            true,
            Some(Exemption::RangeEnd),
        );
        assert_eq!(
            (r.from_section(), r.reloc_offset(), r.insn()),
            (7, wide, None)
        );
        assert_eq!(
            (r.to_section(), r.to_offset(), r.jump()),
            (3, wide + 5, None)
        );
        let top = u64::from(u32::MAX - 1);
        let r = CodeRef::new((0, 0, Some(top)), (1, 0), Some(0), false, None);
        assert_eq!((r.insn(), r.jump()), (Some(top), Some(0)));
        assert!(!r.relocated && r.exempt.is_none());
    }
}
