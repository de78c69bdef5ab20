//! Writing objects: the only code in objlint that writes files.
//!
//! A rewrite starts from a parsed [`Object`] and a list of [`Edits`]
//! (bytes overwritten in place, sections appended with their relocations).
//! Everything else is copied as it is: section order and indexes, symbol
//! entries byte for byte (`SHN_ABS`, `SHN_COMMON`, `SHN_XINDEX` included),
//! string tables. When a relocation needs a section symbol that does not
//! exist yet, the symbol is inserted after the last local one and every
//! symbol index that follows is renumbered (relocations, `SHT_GROUP`
//! signatures, `.llvm_addrsig`). When the section count reaches
//! `SHN_LORESERVE` the header switches to extended numbering, and symbols
//! of sections past it go through `.symtab_shndx` (created if missing).
//!
//! Nothing in the input sizes an allocation unchecked: alignments are bounded
//! ([`MAX_ALIGN`]) and so is the padding they add in all.
//!
//! [`write_verified`] writes to a temporary file next to the target (through a
//! symbolic link, to the file it names), reads it back, lets the caller verify
//! it, and only then renames it into place. Temporary files a killed run left
//! behind are removed by the next ([`remove_stale_temps`]).

use super::{
    ElfError, Object, SHN_LORESERVE, SHN_XINDEX, STB_LOCAL, STT_SECTION, SymSection, rd_u16,
    rd_u32, rd_u64,
};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;
const SHT_REL: u32 = 9;
const SHT_GROUP: u32 = 17;
const SHT_SYMTAB_SHNDX: u32 = 18;
const SHT_LLVM_ADDRSIG: u32 = 0x6fff_4c03;
const SHF_INFO_LINK: u64 = 0x40;
const EHDR_SIZE: usize = 64;
const SHDR_SIZE: usize = 64;
const SYM_SIZE: usize = 24;
const MODULE_SIG_MAGIC: &[u8] = b"~Module signature appended~\n";

/// The symbol a new relocation refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymRef {
    /// A symbol of the original object (its original index).
    Old(usize),
    /// The `STT_SECTION` symbol of a section (inserted when missing).
    SectionOf(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReloc {
    pub offset: u64,
    pub r_type: u32,
    pub sym: SymRef,
    pub addend: i64,
}

/// A section to append; its relocations go into a new `.rela<name>`.
#[derive(Debug, Clone)]
pub struct NewSection {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub align: u64,
    pub entsize: u64,
    pub data: Vec<u8>,
    pub relocs: Vec<NewReloc>,
}

impl NewSection {
    /// An `SHT_PROGBITS` section.
    pub fn progbits(name: &str, flags: u64, align: u64, entsize: u64, data: Vec<u8>) -> Self {
        NewSection {
            name: name.to_string(),
            sh_type: SHT_PROGBITS,
            flags,
            align,
            entsize,
            data,
            relocs: Vec::new(),
        }
    }
}

/// Changes to make to an object.
#[derive(Debug, Clone, Default)]
pub struct Edits {
    /// Bytes to overwrite: (section, offset, new bytes).
    pub patches: Vec<(usize, u64, Vec<u8>)>,
    pub sections: Vec<NewSection>,
}

/// A rewritten object and how it maps to the original.
#[derive(Debug)]
pub struct Rewritten {
    pub bytes: Vec<u8>,
    /// Original symbol index -> new index.
    pub sym_map: Vec<usize>,
    /// New section symbols: (new symbol index, section).
    pub added_symbols: Vec<(usize, usize)>,
    /// Index of each `Edits::sections` entry in the new object.
    pub new_sections: Vec<usize>,
    /// Sections the writer added on its own (`.rela*`, `.symtab_shndx`).
    pub extra_sections: usize,
    /// Bytes past the ELF data that were not carried over, and what they were.
    pub dropped_trailer: Option<(usize, &'static str)>,
}

fn fail<T>(msg: impl Into<String>) -> Result<T, ElfError> {
    Err(ElfError(msg.into()))
}

fn put_u16(b: &mut [u8], p: usize, v: u16) {
    b[p..p + 2].copy_from_slice(&v.to_le_bytes());
}
fn put_u32(b: &mut [u8], p: usize, v: u32) {
    b[p..p + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(b: &mut [u8], p: usize, v: u64) {
    b[p..p + 8].copy_from_slice(&v.to_le_bytes());
}

/// One section header, as raw fields.
#[derive(Debug, Clone, Copy, Default)]
struct Shdr {
    name: u32,
    sh_type: u32,
    flags: u64,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
}

impl Shdr {
    fn read(b: &[u8], p: usize) -> Shdr {
        Shdr {
            name: rd_u32(b, p),
            sh_type: rd_u32(b, p + 4),
            flags: rd_u64(b, p + 8),
            addr: rd_u64(b, p + 16),
            offset: rd_u64(b, p + 24),
            size: rd_u64(b, p + 32),
            link: rd_u32(b, p + 40),
            info: rd_u32(b, p + 44),
            align: rd_u64(b, p + 48),
            entsize: rd_u64(b, p + 56),
        }
    }
    fn write(&self, out: &mut Vec<u8>) {
        let mut h = [0u8; SHDR_SIZE];
        put_u32(&mut h, 0, self.name);
        put_u32(&mut h, 4, self.sh_type);
        put_u64(&mut h, 8, self.flags);
        put_u64(&mut h, 16, self.addr);
        put_u64(&mut h, 24, self.offset);
        put_u64(&mut h, 32, self.size);
        put_u32(&mut h, 40, self.link);
        put_u32(&mut h, 44, self.info);
        put_u64(&mut h, 48, self.align);
        put_u64(&mut h, 56, self.entsize);
        out.extend_from_slice(&h);
    }
}

fn read_uleb(b: &[u8], p: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*p)?;
        *p += 1;
        if shift < 64 {
            v |= u64::from(byte & 0x7f) << shift;
        }
        if byte & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
    }
}

fn write_uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The size of an appended module signature at the end of `data`, if any
/// (`struct module_signature` ends with a big-endian `sig_len`).
fn module_signature_len(data: &[u8]) -> Option<usize> {
    let end = data.len().checked_sub(MODULE_SIG_MAGIC.len())?;
    if &data[end..] != MODULE_SIG_MAGIC || end < 12 {
        return None;
    }
    let sig_len = u32::from_be_bytes(data[end - 4..end].try_into().unwrap()) as usize;
    Some(MODULE_SIG_MAGIC.len() + 12 + sig_len)
}

/// The largest `sh_addralign` a rewrite accepts: 64 KiB pages (arm64) are
/// the largest alignment kernel objects ask for; anything above is a corrupt
/// or crafted header, and the writer pads by it.
pub const MAX_ALIGN: u64 = 1 << 16;
/// Padding allowed beyond the input's size in total (sections laid out in
/// index order may need more than the input's order did).
const PAD_SLACK: usize = 1 << 20;

/// Every section's `sh_addralign` is 0 or a power of two of at most [`MAX_ALIGN`].
fn check_alignments(obj: &Object, shdrs: &[Shdr]) -> Result<(), ElfError> {
    for (i, h) in shdrs.iter().enumerate().skip(1) {
        let a = h.align;
        if a > MAX_ALIGN || (a > 1 && !a.is_power_of_two()) {
            return fail(format!(
                "section {i} ({}) has sh_addralign {a:#x}; objlint rewrites sections aligned to a power of two up to {MAX_ALIGN:#x}",
                obj.sections[i].name
            ));
        }
    }
    Ok(())
}

/// Rewrite `obj` with `edits` applied. Nothing is written to disk.
pub fn rewrite(obj: &Object, edits: &Edits) -> Result<Rewritten, ElfError> {
    let data = obj.data;
    let Some(symtab) = obj.symtab else {
        return fail("the object has no symbol table");
    };
    if rd_u16(data, 0x38) != 0 {
        return fail("relocatable object with program headers: not supported for rewriting");
    }
    let shoff = rd_u64(data, 0x28) as usize;
    let nsec = obj.sections.len();
    let mut shdrs: Vec<Shdr> = (0..nsec)
        .map(|i| Shdr::read(data, shoff + i * SHDR_SIZE))
        .collect();
    let shstrndx = if obj.raw_shstrndx == SHN_XINDEX {
        shdrs[0].link as usize
    } else {
        usize::from(obj.raw_shstrndx)
    };
    // Section 0 is the null header: the layout below neither reads nor
    // writes its contents, so a table claimed there cannot be carried over.
    if symtab == 0 {
        return fail(
            "section 0 (the null section header) is the symbol table; refusing to rewrite",
        );
    }
    if obj.symtab_shndx == Some(0) {
        return fail(
            "section 0 (the null section header) is the .symtab_shndx table; refusing to rewrite",
        );
    }
    let nsyms = obj.symbols.len();
    let first_global = (shdrs[symtab].info as usize).min(nsyms);
    if let Some(x) = obj.symtab_shndx
        && shdrs[x].size != (nsyms * 4) as u64
    {
        return fail(format!(
            "{} has {:#x} bytes for {nsyms} symbols; refusing to rewrite a broken table",
            obj.sections[x].name, shdrs[x].size
        ));
    }
    check_alignments(obj, &shdrs)?;
    if !edits.sections.is_empty() && (shstrndx == 0 || shdrs[shstrndx].sh_type != SHT_STRTAB) {
        return fail(format!(
            "the section name table (section {shstrndx}) is not a string table; cannot add names to it"
        ));
    }
    for (s, off, bytes) in &edits.patches {
        let sec = obj
            .sections
            .get(*s)
            .filter(|_| *s != 0)
            .ok_or_else(|| ElfError(format!("patch in missing section {s}")))?;
        if sec.sh_type == SHT_NOBITS
            || off
                .checked_add(bytes.len() as u64)
                .is_none_or(|end| end > sec.size)
        {
            return fail(format!(
                "patch of {} bytes at {}+{off:#x} is outside the section data",
                bytes.len(),
                sec.name
            ));
        }
    }

    // Section symbols the new relocations need.
    let mut sec_sym: HashMap<usize, usize> = HashMap::new();
    for s in &obj.symbols {
        if s.st_type == STT_SECTION
            && s.bind == STB_LOCAL
            && s.value == 0
            && s.index < first_global
            && let SymSection::Section(i) = s.section
        {
            sec_sym.entry(i).or_insert(s.index);
        }
    }
    let mut new_locals: Vec<usize> = Vec::new();
    let mut planned: HashMap<usize, usize> = HashMap::new();
    for ns in &edits.sections {
        for r in &ns.relocs {
            match r.sym {
                SymRef::SectionOf(i) => {
                    if i == 0 || i >= nsec {
                        return fail(format!("relocation against missing section {i}"));
                    }
                    if !sec_sym.contains_key(&i) && !planned.contains_key(&i) {
                        planned.insert(i, first_global + new_locals.len());
                        new_locals.push(i);
                    }
                }
                SymRef::Old(i) if i >= nsyms => {
                    return fail(format!("relocation against missing symbol {i}"));
                }
                SymRef::Old(_) => {}
            }
        }
    }
    let k = new_locals.len();
    let sym_map: Vec<usize> = (0..nsyms)
        .map(|i| if i < first_global { i } else { i + k })
        .collect();
    let added_symbols: Vec<(usize, usize)> = new_locals
        .iter()
        .enumerate()
        .map(|(j, &s)| (first_global + j, s))
        .collect();
    let resolve = |r: &SymRef| -> usize {
        match *r {
            SymRef::Old(i) => sym_map[i],
            SymRef::SectionOf(s) => match sec_sym.get(&s) {
                Some(&i) => sym_map[i],
                None => planned[&s],
            },
        }
    };

    // Sections to append: each new section, then its .rela section.
    struct Added {
        hdr: Shdr,
        name: String,
        data: Vec<u8>,
    }
    let mut added: Vec<Added> = Vec::new();
    let mut new_sections = Vec::new();
    for ns in &edits.sections {
        let index = nsec + added.len();
        new_sections.push(index);
        added.push(Added {
            hdr: Shdr {
                sh_type: ns.sh_type,
                flags: ns.flags,
                size: ns.data.len() as u64,
                align: ns.align,
                entsize: ns.entsize,
                ..Default::default()
            },
            name: ns.name.clone(),
            data: ns.data.clone(),
        });
        if !ns.relocs.is_empty() {
            let mut rd = Vec::with_capacity(ns.relocs.len() * 24);
            for r in &ns.relocs {
                rd.extend_from_slice(&r.offset.to_le_bytes());
                let info = ((resolve(&r.sym) as u64) << 32) | u64::from(r.r_type);
                rd.extend_from_slice(&info.to_le_bytes());
                rd.extend_from_slice(&r.addend.to_le_bytes());
            }
            added.push(Added {
                hdr: Shdr {
                    sh_type: SHT_RELA,
                    flags: SHF_INFO_LINK,
                    size: rd.len() as u64,
                    link: symtab as u32,
                    info: index as u32,
                    align: 8,
                    entsize: 24,
                    ..Default::default()
                },
                name: format!(".rela{}", ns.name),
                data: rd,
            });
        }
    }
    // New section symbols of sections past SHN_LORESERVE need .symtab_shndx.
    let needs_xindex = added_symbols
        .iter()
        .any(|&(_, s)| s >= usize::from(SHN_LORESERVE));
    let mut new_shndx_section = None;
    if needs_xindex && obj.symtab_shndx.is_none() {
        new_shndx_section = Some(nsec + added.len());
        added.push(Added {
            hdr: Shdr {
                sh_type: SHT_SYMTAB_SHNDX,
                link: symtab as u32,
                align: 4,
                entsize: 4,
                ..Default::default()
            },
            name: ".symtab_shndx".to_string(),
            data: Vec::new(),
        });
    }
    let total = nsec + added.len();
    if total > u32::MAX as usize {
        return fail("too many sections");
    }

    // Section contents, old and new.
    let mut contents: Vec<Vec<u8>> = Vec::with_capacity(total);
    for (i, h) in shdrs.iter().enumerate() {
        if i == 0 || h.sh_type == SHT_NOBITS {
            contents.push(Vec::new());
        } else {
            contents.push(obj.section_data(i).to_vec());
        }
    }
    for (s, off, bytes) in &edits.patches {
        let o = *off as usize;
        contents[*s][o..o + bytes.len()].copy_from_slice(bytes);
    }
    // .shstrtab: the original strings plus the new names.
    for a in added.iter_mut() {
        a.hdr.name = contents[shstrndx].len() as u32;
        contents[shstrndx].extend_from_slice(a.name.as_bytes());
        contents[shstrndx].push(0);
    }
    // Symbol table (and .symtab_shndx) with the new section symbols.
    if k > 0 {
        let old = std::mem::take(&mut contents[symtab]);
        let split = first_global * SYM_SIZE;
        let mut st = Vec::with_capacity(old.len() + k * SYM_SIZE);
        st.extend_from_slice(&old[..split]);
        for &(_, s) in &added_symbols {
            let mut e = [0u8; SYM_SIZE];
            e[4] = (STB_LOCAL << 4) | STT_SECTION;
            let shndx = if s >= usize::from(SHN_LORESERVE) {
                SHN_XINDEX
            } else {
                s as u16
            };
            put_u16(&mut e, 6, shndx);
            st.extend_from_slice(&e);
        }
        st.extend_from_slice(&old[split..]);
        contents[symtab] = st;
        shdrs[symtab].info = (first_global + k) as u32;
        let words: Vec<u8> = added_symbols
            .iter()
            .flat_map(|&(_, s)| {
                let w = if s >= usize::from(SHN_LORESERVE) {
                    s as u32
                } else {
                    0
                };
                w.to_le_bytes()
            })
            .collect();
        // A second table would keep the old numbering.
        if let Some(extra) = (1..nsec).find(|&i| {
            shdrs[i].sh_type == SHT_SYMTAB_SHNDX
                && shdrs[i].link as usize == symtab
                && Some(i) != obj.symtab_shndx
        }) {
            return fail(format!(
                "section {extra} ({}) is a second .symtab_shndx table; cannot renumber it",
                obj.sections[extra].name
            ));
        }
        if let Some(x) = obj.symtab_shndx {
            let old = std::mem::take(&mut contents[x]);
            let split = first_global * 4;
            let mut v = Vec::with_capacity(old.len() + words.len());
            v.extend_from_slice(&old[..split]);
            v.extend_from_slice(&words);
            v.extend_from_slice(&old[split..]);
            contents[x] = v;
        } else if let Some(j) = new_shndx_section {
            let a = &mut added[j - nsec];
            a.data = vec![0u8; (nsyms + k) * 4];
            let split = first_global * 4;
            a.data[split..split + words.len()].copy_from_slice(&words);
        }
        // Renumber every reference to a symbol index past the insertion point.
        for i in 1..nsec {
            let h = shdrs[i];
            let links_symtab = h.link as usize == symtab;
            match h.sh_type {
                SHT_RELA | SHT_REL if links_symtab => {
                    let esz = if h.sh_type == SHT_RELA { 24 } else { 16 };
                    let c = &mut contents[i];
                    for p in (0..c.len() / esz).map(|n| n * esz) {
                        let info = rd_u64(c, p + 8);
                        let sym = (info >> 32) as usize;
                        if sym >= nsyms {
                            return fail(format!(
                                "relocation in {} names symbol {sym} of {nsyms}",
                                obj.sections[i].name
                            ));
                        }
                        let info = ((sym_map[sym] as u64) << 32) | (info & 0xffff_ffff);
                        put_u64(c, p + 8, info);
                    }
                }
                SHT_GROUP if links_symtab => {
                    let sym = h.info as usize;
                    if sym < nsyms {
                        shdrs[i].info = sym_map[sym] as u32;
                    }
                }
                SHT_LLVM_ADDRSIG if links_symtab => {
                    let c = &contents[i];
                    let mut p = 0;
                    let mut v = Vec::with_capacity(c.len());
                    while p < c.len() {
                        let Some(sym) = read_uleb(c, &mut p) else {
                            return fail(format!("{} is truncated", obj.sections[i].name));
                        };
                        let sym = sym_map.get(sym as usize).copied().unwrap_or(sym as usize);
                        write_uleb(&mut v, sym as u64);
                    }
                    contents[i] = v;
                }
                SHT_SYMTAB | SHT_SYMTAB_SHNDX => {}
                t if links_symtab && h.flags & SHF_INFO_LINK == 0 => {
                    return fail(format!(
                        "section {} (type {t:#x}) refers to the symbol table in a way objlint cannot renumber",
                        obj.sections[i].name
                    ));
                }
                _ => {}
            }
        }
    }
    for a in added {
        contents.push(a.data);
        shdrs.push(a.hdr);
    }

    // Layout: header, section data in index order, section header table.
    // Alignments are bounded (check_alignments), and so is the padding they
    // add in all: the input's own size, plus slack for a different order.
    let pad_budget = data.len() + PAD_SLACK;
    let mut padding = 0usize;
    let mut out = Vec::with_capacity(data.len() + 4096);
    out.extend_from_slice(&data[..EHDR_SIZE]);
    for i in 1..total {
        let h = &mut shdrs[i];
        h.size = if h.sh_type == SHT_NOBITS {
            h.size
        } else {
            contents[i].len() as u64
        };
        let align = h.align.max(1) as usize;
        if h.sh_type == SHT_NOBITS {
            h.offset = out.len().next_multiple_of(align) as u64;
            continue;
        }
        let start = out.len().next_multiple_of(align);
        padding += start - out.len();
        if padding > pad_budget {
            let name = obj
                .sections
                .get(i)
                .map_or("a new section", |s| s.name.as_ref());
            return fail(format!(
                "section alignments (up to section {i}, {name}, aligned to {align:#x}) would pad the output with more than {pad_budget:#x} bytes, more than the input holds; refusing to rewrite"
            ));
        }
        out.resize(start, 0);
        h.offset = out.len() as u64;
        out.extend_from_slice(&contents[i]);
    }
    out.resize(out.len().next_multiple_of(8), 0);
    let new_shoff = out.len();
    let extended = total >= usize::from(SHN_LORESERVE);
    shdrs[0].size = if extended { total as u64 } else { 0 };
    shdrs[0].link = if shstrndx >= usize::from(SHN_LORESERVE) {
        shstrndx as u32
    } else {
        0
    };
    for h in &shdrs {
        h.write(&mut out);
    }
    put_u64(&mut out, 0x28, new_shoff as u64);
    put_u16(&mut out, 0x3c, if extended { 0 } else { total as u16 });
    put_u16(
        &mut out,
        0x3e,
        if shstrndx >= usize::from(SHN_LORESERVE) {
            SHN_XINDEX
        } else {
            shstrndx as u16
        },
    );

    let orig_end = (0..nsec)
        .map(|i| Shdr::read(data, shoff + i * SHDR_SIZE))
        .filter(|h| h.sh_type != SHT_NOBITS)
        .map(|h| (h.offset + h.size) as usize)
        .chain(std::iter::once(shoff + nsec * SHDR_SIZE))
        .max()
        .unwrap_or(0);
    let dropped_trailer = (data.len() > orig_end).then(|| {
        let n = data.len() - orig_end;
        let what = match module_signature_len(data) {
            Some(l) if l <= n => "module signature (it would no longer match)",
            _ => "bytes outside any section",
        };
        (n, what)
    });

    Ok(Rewritten {
        bytes: out,
        sym_map,
        added_symbols,
        new_sections,
        extra_sections: total - nsec - edits.sections.len(),
        dropped_trailer,
    })
}

/// Check that `new` is `old` with exactly the edits applied: every original
/// section, symbol and relocation unchanged (symbol indexes through
/// `sym_map`), the patches in place, the new sections and relocations as asked.
pub fn verify(old: &Object, new: &Object, rw: &Rewritten, edits: &Edits) -> Result<(), String> {
    let nsec = old.sections.len();
    if new.machine != old.machine {
        return Err("machine changed".into());
    }
    let want = nsec + edits.sections.len() + rw.extra_sections;
    if new.sections.len() != want {
        return Err(format!("{} sections, expected {want}", new.sections.len()));
    }
    let symtab = old.symtab.ok_or("no symbol table")?;
    if new.symtab != Some(symtab) {
        return Err("the symbol table moved".into());
    }
    let reencoded = |i: usize| {
        Some(i) == old.symtab
            || Some(i) == old.symtab_shndx
            || matches!(
                old.sections[i].sh_type,
                SHT_RELA | SHT_REL | SHT_LLVM_ADDRSIG
            )
    };
    let shstrndx = |o: &Object| {
        if o.raw_shstrndx == SHN_XINDEX {
            o.sections[0].link as usize
        } else {
            usize::from(o.raw_shstrndx)
        }
    };
    let old_shstr = shstrndx(old);
    if shstrndx(new) != old_shstr {
        return Err("the section name table moved".into());
    }
    let mut patches: HashMap<usize, Vec<(u64, &[u8])>> = HashMap::new();
    for (s, off, bytes) in &edits.patches {
        patches.entry(*s).or_default().push((*off, bytes));
    }
    for (a, b) in old.sections.iter().zip(&new.sections).skip(1) {
        let i = a.index;
        let same = a.name == b.name
            && a.sh_type == b.sh_type
            && a.flags == b.flags
            && a.addr == b.addr
            && a.align == b.align
            && a.entsize == b.entsize
            && a.link == b.link;
        if !same {
            return Err(format!("section {i} ({}) header changed", a.name));
        }
        if a.sh_type == SHT_NOBITS {
            if a.size != b.size {
                return Err(format!("section {i} ({}) size changed", a.name));
            }
            continue;
        }
        if reencoded(i) {
            continue;
        }
        let orig = old.section_data(i);
        let got = new.section_data(i);
        let ok = match patches.get(&i) {
            Some(ps) => {
                let mut want = orig.to_vec();
                for &(off, bytes) in ps {
                    want[off as usize..off as usize + bytes.len()].copy_from_slice(bytes);
                }
                got == want.as_slice()
            }
            None if i == old_shstr => got.starts_with(orig),
            None => got == orig,
        };
        if !ok {
            return Err(format!("section {i} ({}) contents changed", a.name));
        }
        if a.info != b.info && a.sh_type != SHT_GROUP {
            return Err(format!("section {i} ({}) sh_info changed", a.name));
        }
    }
    if new.symbols.len() != old.symbols.len() + rw.added_symbols.len() {
        return Err(format!(
            "{} symbols, expected {}",
            new.symbols.len(),
            old.symbols.len() + rw.added_symbols.len()
        ));
    }
    for s in &old.symbols {
        let t = &new.symbols[rw.sym_map[s.index]];
        let same = s.name == t.name
            && s.value == t.value
            && s.size == t.size
            && s.st_type == t.st_type
            && s.bind == t.bind
            && s.other == t.other
            && s.raw_shndx == t.raw_shndx
            && s.section == t.section;
        if !same {
            return Err(format!(
                "symbol {} ({}) changed: section {:?} -> {:?}, value {:#x} -> {:#x}",
                s.index, s.name, s.section, t.section, s.value, t.value
            ));
        }
    }
    for &(idx, sec) in &rw.added_symbols {
        let t = &new.symbols[idx];
        if t.st_type != STT_SECTION || t.bind != STB_LOCAL || t.section != SymSection::Section(sec)
        {
            return Err(format!(
                "added section symbol {idx} does not name section {sec}"
            ));
        }
    }
    for i in 1..nsec {
        let a = old.relocs(i);
        let b = new.relocs(i);
        let same = a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                x.offset() == y.offset()
                    && x.r_type() == y.r_type()
                    && old.addend(x) == new.addend(y)
                    && rw.sym_map.get(x.sym()) == Some(&y.sym())
            });
        if !same {
            return Err(format!(
                "relocations of section {i} ({}) changed",
                old.sections[i].name
            ));
        }
    }
    for (ns, &i) in edits.sections.iter().zip(&rw.new_sections) {
        let s = &new.sections[i];
        if s.name != ns.name || new.section_data(i) != ns.data.as_slice() {
            return Err(format!("new section {} was not written as asked", ns.name));
        }
        let mut want: Vec<(u64, u32, i64, Option<usize>)> = ns
            .relocs
            .iter()
            .map(|r| {
                let sec = match r.sym {
                    SymRef::Old(j) => old.symbols[j].section_index(),
                    SymRef::SectionOf(j) => Some(j),
                };
                (r.offset, r.r_type, r.addend, sec)
            })
            .collect();
        let mut got: Vec<(u64, u32, i64, Option<usize>)> = new
            .relocs(i)
            .iter()
            .map(|r| {
                let t = &new.symbols[r.sym()];
                (r.offset(), r.r_type(), new.addend(r), t.section_index())
            })
            .collect();
        want.sort_unstable();
        got.sort_unstable();
        if want != got {
            return Err(format!("relocations of new section {} differ", ns.name));
        }
    }
    Ok(())
}

/// A temporary file beside `target`, removed unless kept.
/// It is locked (flock) while it exists, so [`remove_stale_temps`] can tell
/// a live writer's file from one a killed process left behind.
struct TempFile {
    path: PathBuf,
    file: std::fs::File,
    keep: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// What [`write_verified`] did besides writing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Temporary files of killed objlint runs removed from the target's folder.
    pub stale_removed: Vec<PathBuf>,
}

const TEMP_TAG: &str = ".objlint-";
const TEMP_END: &str = ".tmp";

/// The name of temporary file `n` of process `pid` for a target named `base`.
fn temp_name(base: &str, pid: u32, n: u32) -> String {
    // Within NAME_MAX (255) however long the target's name is.
    let mut end = base.len().min(200);
    while !base.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}{TEMP_TAG}{pid}-{n}{TEMP_END}", &base[..end])
}

/// The process id in a name [`temp_name`] made, for any target.
fn temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(TEMP_END)?;
    let (_, tail) = rest.rsplit_once(TEMP_TAG)?;
    let (pid, n) = tail.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !digits(n) {
        return None;
    }
    pid.parse().ok()
}

/// Remove temporary files that objlint runs killed before they could clean
/// up left in `dir`. One is stale when its process is gone (no `/proc/PID`)
/// and nobody holds its lock; without `/proc` nothing is removed, because
/// a file just created is not locked yet.
pub fn remove_stale_temps(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if !Path::new("/proc/self").exists() {
        return out;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    let me = std::process::id();
    for e in rd.filter_map(Result::ok) {
        let name = e.file_name();
        let Some(pid) = temp_pid(&name.to_string_lossy()) else {
            continue;
        };
        // Never open a FIFO or follow a link here: only our own regular files.
        if pid == me
            || !e.file_type().is_ok_and(|t| t.is_file())
            || Path::new(&format!("/proc/{pid}")).exists()
        {
            continue;
        }
        let path = e.path();
        let Ok(f) = std::fs::File::open(&path) else {
            continue;
        };
        if f.try_lock().is_ok() && std::fs::remove_file(&path).is_ok() {
            out.push(path);
        }
    }
    out
}

/// Where writing `target` lands: a symbolic link is followed to the file it
/// names (which may not exist yet), so replacing the file keeps the link.
pub fn real_path(target: &Path) -> Result<PathBuf, String> {
    let mut p = target.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                p = match p.parent() {
                    Some(d) if to.is_relative() => d.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(format!(
        "{}: too many levels of symbolic links",
        target.display()
    ))
}

/// Write `bytes` to `target` safely: into a temporary file in the target's
/// folder, read back and passed to `check`, then renamed over the target.
/// On any error the target is untouched and the temporary file is gone.
/// A symbolic link is written through (see [`real_path`]); stale temporary
/// files of killed runs in that folder are removed first.
/// `mode_from` gives the permissions to use (the input file, usually).
pub fn write_verified(
    target: &Path,
    bytes: &[u8],
    mode_from: Option<&Path>,
    check: impl FnOnce(&[u8]) -> Result<(), String>,
) -> Result<Written, String> {
    let target = &real_path(target)?;
    // rename() would replace a device, FIFO or folder with a regular file.
    if let Ok(m) = std::fs::metadata(target)
        && !m.is_file()
    {
        return Err(format!(
            "{}: not a regular file; refusing to replace it",
            target.display()
        ));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base = target
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", target.display()))?
        .to_string_lossy()
        .into_owned();
    let stale_removed = remove_stale_temps(&dir);
    let mut tmp = None;
    for n in 0..100u32 {
        let p = dir.join(temp_name(&base, std::process::id(), n));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&p)
        {
            Ok(f) => {
                // Best effort: where flock is not supported, the process
                // id alone keeps the file from being taken for stale.
                let _ = f.try_lock();
                tmp = Some(TempFile {
                    path: p,
                    file: f,
                    keep: false,
                });
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("{}: {e}", p.display())),
        }
    }
    let Some(mut tmp) = tmp else {
        return Err(format!("{}: no free temporary name", dir.display()));
    };
    let path = tmp.path.clone();
    tmp.file
        .write_all(bytes)
        .and_then(|_| tmp.file.sync_all())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let back = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    check(&back)?;
    if let Some(m) = mode_from.and_then(|p| std::fs::metadata(p).ok()) {
        std::fs::set_permissions(&path, m.permissions())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    std::fs::rename(&path, target).map_err(|e| format!("{}: {e}", target.display()))?;
    tmp.keep = true;
    // The rename survives a crash only once the folder is on disk too.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(Written { stale_removed })
}
