//! Reading ELF64 little-endian relocatable objects.
//!
//! goblin parses the headers, section table, symbol table and relocation
//! records; names are read here, leniently, because one non-UTF-8 name must not
//! make a whole object unreadable. Extended section numbering (`e_shnum == 0`,
//! `e_shstrndx == SHN_XINDEX`, `.symtab_shndx`) is resolved here so nothing
//! above this layer sees a raw `SHN_XINDEX`.

pub mod annotations;
pub mod cfi;
pub mod compressed;
pub mod dwarf;
pub mod orc;
pub mod special_sections;

use goblin::container::{Container, Ctx, Endian};
use goblin::elf::header::{EM_AARCH64, EM_X86_64, ET_REL};
use goblin::elf::section_header::{
    SHF_ALLOC, SHF_EXECINSTR, SHT_NOBITS, SHT_REL, SHT_RELA, SHT_SYMTAB, SHT_SYMTAB_SHNDX,
    SectionHeader,
};
use rayon::prelude::*;
use std::borrow::Cow;
use std::fmt;

pub mod write;

/// The largest executable section objects may have: the decoders keep
/// offsets in a `u32` with two values reserved (no target, far target), and
/// the reader refuses larger code up front rather than the decoder midway.
pub const MAX_CODE_SECTION: u64 = (u32::MAX - 2) as u64;

pub const SHN_UNDEF: u16 = 0;
pub const SHN_LORESERVE: u16 = 0xff00;
pub const SHN_ABS: u16 = 0xfff1;
pub const SHN_COMMON: u16 = 0xfff2;
pub const SHN_XINDEX: u16 = 0xffff;

pub const STT_NOTYPE: u8 = 0;
pub const STT_OBJECT: u8 = 1;
pub const STT_FUNC: u8 = 2;
pub const STT_SECTION: u8 = 3;
pub const STT_FILE: u8 = 4;
pub const STB_LOCAL: u8 = 0;
pub const STB_GLOBAL: u8 = 1;
pub const STB_WEAK: u8 = 2;

/// Why an object could not be read. The message is for a person and names the
/// part of the file that is wrong; the caller adds the file name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ElfError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, ElfError> {
    Err(ElfError(msg.into()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Machine {
    #[serde(rename = "x86_64")]
    X86_64,
    #[serde(rename = "aarch64")]
    Aarch64,
}

impl Machine {
    pub fn name(self) -> &'static str {
        match self {
            Machine::X86_64 => "x86_64",
            Machine::Aarch64 => "aarch64",
        }
    }
}

impl fmt::Display for Machine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone)]
pub struct Section<'a> {
    pub index: usize,
    /// Borrowed from the file's section name table (owned only when it is
    /// not UTF-8: one allocation per section was a tenth of a module run's).
    pub name: Cow<'a, str>,
    pub sh_type: u32,
    pub flags: u64,
    pub addr: u64,
    pub offset: u64,
    pub size: u64,
    pub link: u32,
    pub info: u32,
    pub align: u64,
    pub entsize: u64,
}

impl Section<'_> {
    /// Where the section's bytes are in the file (empty for NOBITS).
    pub fn file_range(&self) -> std::ops::Range<usize> {
        if self.sh_type == SHT_NOBITS {
            return 0..0;
        }
        self.offset as usize..(self.offset + self.size) as usize
    }
    pub fn is_exec(&self) -> bool {
        self.flags & u64::from(SHF_EXECINSTR) != 0 && self.sh_type != SHT_NOBITS
    }
    pub fn is_alloc(&self) -> bool {
        self.flags & u64::from(SHF_ALLOC) != 0
    }
}

/// Where a symbol lives, with extended numbering already resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymSection {
    Undef,
    Abs,
    Common,
    Section(usize),
    /// `st_shndx` names no section: out of range, `SHN_XINDEX` without a
    /// `.symtab_shndx` entry, or an unknown reserved index. Holds the index read.
    Invalid(u32),
}

#[derive(Debug, Clone)]
pub struct Symbol<'a> {
    pub index: usize,
    /// Borrowed from the string table (copied only when not UTF-8).
    pub name: Cow<'a, str>,
    pub value: u64,
    pub size: u64,
    pub st_type: u8,
    pub bind: u8,
    pub other: u8,
    /// `st_shndx` as stored in the symbol table.
    pub raw_shndx: u16,
    pub section: SymSection,
}

impl Symbol<'_> {
    /// Stands in while a table is read in parallel, for a symbol that
    /// sends the table to the reader in order.
    fn placeholder(index: usize) -> Self {
        Symbol {
            index,
            name: Cow::Borrowed(""),
            value: 0,
            size: 0,
            st_type: 0,
            bind: 0,
            other: 0,
            raw_shndx: 0,
            section: SymSection::Undef,
        }
    }
    pub fn is_func(&self) -> bool {
        self.st_type == STT_FUNC
    }
    /// What an arm64 mapping symbol marks: `$x`/`$d`, optionally `.`
    /// and more, or the same renamed by a prefix (a local, untyped, empty
    /// `P$x`/`P$d`): `objcopy --prefix-symbols` renames mapping symbols
    /// too, and the kernel renames whole objects that way (the arm64
    /// vmlinux.o has 1,452 of them: `__kvm_nvhe_`, `__efistub_`, `__pi_`),
    /// which neither objdump takes for mapping symbols any more.
    pub fn mapping(&self) -> Option<Mapping> {
        let n = self.name.as_bytes();
        let at = if n.first() == Some(&b'$') {
            0
        } else if self.bind == STB_LOCAL && self.st_type == STT_NOTYPE && self.size == 0 {
            n.iter().rposition(|&b| b == b'$').filter(|&k| k > 0)?
        } else {
            return None;
        };
        let kind = match &n[at..] {
            [b'$', b'x', ..] => Mapping::Code,
            [b'$', b'd', ..] => Mapping::Data,
            _ => return None,
        };
        (n.len() == at + 2 || n[at + 2] == b'.').then_some(kind)
    }
    /// A name the assembler makes, not a label a person wrote: a `.L`
    /// local label, or a mapping symbol (`$x`, `$d`, ... renamed or not).
    pub fn is_assembler_local(&self) -> bool {
        self.name.starts_with(".L") || self.name.starts_with('$') || self.mapping().is_some()
    }
    pub fn is_weak(&self) -> bool {
        self.bind == STB_WEAK
    }
    pub fn is_global(&self) -> bool {
        self.bind == STB_GLOBAL || self.bind == STB_WEAK
    }
    pub fn section_index(&self) -> Option<usize> {
        match self.section {
            SymSection::Section(i) => Some(i),
            _ => None,
        }
    }
}

/// A relocation in 16 bytes (vmlinux.o has nearly a million; 24 bytes
/// each were a tenth of its peak memory): the offset in 32 bits (sections
/// are at most 4 GiB), the symbol index in 32 as in `r_info`, the type in
/// 16 (both psABIs' types are under 2,048), the addend in 48 bits, or for
/// the rare wider one ([`Object::addend`]) an index into the object's
/// table of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reloc {
    at: u32,
    sym: u32,
    addend_lo: u32,
    /// The addend's bits above 32, or [`WIDE`].
    addend_hi: i16,
    ty: u16,
}

/// A relocation section as read.
struct RelocTable {
    /// The section it applies to.
    target: usize,
    /// Its relocations (none kept for a deferred one, [`defers_relocs`]).
    relocs: Vec<Reloc>,
    /// Their addends past 48 bits, numbered from 0.
    wide: Vec<i64>,
    /// Whether its entries are in offset order.
    sorted: bool,
    /// For a deferred one: the offset of every [`INDEX_STRIDE`]th entry.
    index: Vec<u64>,
}

/// The first of the `esz`-byte relocation entries of `bytes` (in offset
/// order) whose offset is `offset` or past it, by `index`, the offset of
/// every `stride`th: it is in the run before the first indexed one at or
/// past `offset`, or is that one.
fn first_at_or_past(
    bytes: &[u8],
    esz: usize,
    index: &[u64],
    stride: usize,
    offset: u64,
) -> Option<usize> {
    let n = bytes.len() / esz;
    let at = |k: usize| rd_u64(&bytes[k * esz..], 0);
    let b = index.partition_point(|&o| o < offset);
    let (mut lo, mut hi) = (b.saturating_sub(1) * stride, (b * stride).min(n));
    while lo < hi {
        let mid = (lo + hi) / 2;
        if at(mid) < offset {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    (lo < n).then_some(lo)
}

/// A deferred table in offset order keeps the offset of every this many
/// entries: a lookup searches those, then a run of 12 KiB of the table (a
/// search of the whole touched pages across all of a 400 MB table).
const INDEX_STRIDE: usize = 512;

/// One relocation as its table has it, looked up where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelocEntry {
    pub offset: u64,
    pub r_type: u32,
    pub sym: usize,
    pub addend: i64,
}

/// The relocations of one debug section, read when first asked for.
struct Deferred {
    target: usize,
    /// Its relocation sections, each with where its wide addends start in
    /// [`Object::wide_addends`] (taken at parse).
    tables: Vec<(usize, u32)>,
    /// One table, in offset order: looked up in place ([`Object::reloc_at`]).
    in_place: bool,
    /// Its [`RelocTable::index`].
    index: Vec<u64>,
    nsyms: usize,
    relocs: std::sync::OnceLock<Vec<Reloc>>,
}

/// The size of one entry of relocation section `s`: `Elf64_Rela` or
/// `Elf64_Rel`.
fn reloc_entry_size(s: &Section) -> usize {
    if s.sh_type == SHT_RELA { 24 } else { 16 }
}

/// Whether the relocations applying to section `s` are read only when
/// asked for: those of debug sections other than the call-frame tables
/// (`cfi-mismatch` reads `.debug_frame`). In a kernel built with debug
/// info they are most of the object's relocations (DWARF 5: 82% of the 7.3
/// arm64 kbuild objects', 95% of a defconfig vmlinux.o's; an allyesconfig
/// vmlinux.o has about 200 million). They are still checked at parse, so a
/// damaged one is the same error as before; DWARF reads look up the few it
/// needs where they are ([`Object::reloc_at`]).
fn defers_relocs(s: &Section) -> bool {
    !s.is_alloc()
        && (s.name.starts_with(".debug_") || s.name.starts_with(".zdebug_"))
        && !matches!(&*s.name, ".debug_frame" | ".zdebug_frame")
}

/// Where the symbol table and its companions are.
struct SymtabLayout<'a> {
    /// The table's entries (`Elf64_Sym`, 24 bytes each), read in place.
    raw: &'a [u8],
    strtab: Section<'a>,
    /// `.symtab_shndx`: (file offset, words).
    shndx_words: Option<(u64, u64)>,
}

impl SymtabLayout<'_> {
    fn count(&self) -> usize {
        self.raw.len() / 24
    }
}

/// From this many symbols a table is read in parallel.
const PARALLEL_SYMBOLS: usize = 16_384;

/// `addend_hi` of a relocation whose addend is in [`Object::wide_addends`].
const WIDE: i16 = i16::MIN;

/// Stands for a relocation type that does not fit in 16 bits: no type of
/// either psABI, so it is as unknown as the type it replaces.
pub const R_TYPE_UNKNOWN: u32 = 0xffff;

impl Reloc {
    /// A relocation, if its offset fits in 32 bits; an addend that does not
    /// fit in 48 goes into `wide` (its index into it is kept).
    fn new(offset: u64, r_type: u32, sym: u32, addend: i64, wide: &mut Vec<i64>) -> Option<Reloc> {
        let at = u32::try_from(offset).ok()?;
        let (addend_lo, addend_hi) = match i16::try_from(addend >> 32) {
            Ok(hi) if hi != WIDE => (addend as u32, hi),
            _ => {
                wide.push(addend);
                (u32::try_from(wide.len() - 1).ok()?, WIDE)
            }
        };
        Some(Reloc {
            at,
            sym,
            addend_lo,
            addend_hi,
            ty: u16::try_from(r_type).unwrap_or(R_TYPE_UNKNOWN as u16),
        })
    }
    /// Offset in the section the relocation applies to.
    #[inline]
    pub fn offset(&self) -> u64 {
        u64::from(self.at)
    }
    #[inline]
    pub fn r_type(&self) -> u32 {
        u32::from(self.ty)
    }
    /// The symbol's index into [`Object::symbols`].
    #[inline]
    pub fn sym(&self) -> usize {
        self.sym as usize
    }
}

/// Code/data marking of arm64 mapping symbols (`$x`, `$d`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mapping {
    Code,
    Data,
}

/// Where a symbol + addend resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Inside a section of this object.
    Local { section: usize, offset: u64 },
    /// An undefined (external) symbol, plus addend.
    External { sym: usize, addend: i64 },
    /// `SHN_ABS`, common or broken symbols.
    Other,
}

impl Place {
    /// (section, offset) when the place is in this object.
    pub fn local(&self) -> Option<(usize, u64)> {
        match *self {
            Place::Local { section, offset } => Some((section, offset)),
            _ => None,
        }
    }
}

/// The compiler an object's `.comment` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Producer {
    Gcc,
    Clang,
}

/// A parsed relocatable object. Borrows the file bytes.
pub struct Object<'a> {
    pub data: &'a [u8],
    pub machine: Machine,
    pub sections: Vec<Section<'a>>,
    pub symbols: Vec<Symbol<'a>>,
    /// Index of the `SHT_SYMTAB` section, if any.
    pub symtab: Option<usize>,
    /// Index of the `.symtab_shndx` section, if any.
    pub symtab_shndx: Option<usize>,
    /// `e_shnum` as stored (0 with extended numbering).
    pub raw_shnum: u16,
    /// `e_shstrndx` as stored.
    pub raw_shstrndx: u16,
    relocs: Vec<Vec<Reloc>>,
    /// The relocations of debug sections no check reads (see
    /// [`defers_relocs`]), by target section: checked at parse, read on
    /// first use.
    deferred: Vec<Deferred>,
    /// The addends of relocations that need more than 48 bits.
    wide_addends: Vec<i64>,
    /// The relocation sections read at parse, in the order read.
    reloc_sections: Vec<usize>,
    /// arm64 mapping symbols by section (no list at all elsewhere).
    mapping: Vec<Vec<(u64, Mapping)>>,
    /// Section indices by the hash of their name, then name, then index:
    /// those of one name are a run.
    by_name: Vec<usize>,
    /// The hash of each name of `by_name`, in its order.
    name_hashes: Vec<u64>,
    /// Bytes compressed sections may still uncompress to (see
    /// [`compressed::contents`]): one budget for the whole object.
    pub(crate) inflate_budget: std::sync::atomic::AtomicU64,
    release: Option<Release<'a>>,
}

/// Gives back the file pages under a part of an object's bytes (a no-op
/// for bytes not mapped from a file).
pub type Release<'a> = &'a (dyn Fn(&[u8]) + Sync);

/// A deferred relocation table's pages go back as it is checked, this many
/// bytes at a time (an allyesconfig vmlinux.o's `.rela.debug_info` is
/// gigabytes).
const RELEASE_CHUNK: usize = 8 << 20;

/// Sections above this count are refused (the kernel's own limit is far lower;
/// this stops a corrupt header from making us allocate a huge table).
const MAX_SECTIONS: usize = 1 << 24;

/// How many bytes of names an object may make us copy: a string table's
/// names overlap (tail merging), but never by more than this over the file.
fn name_budget(data: &[u8]) -> u64 {
    (data.len() as u64)
        .saturating_mul(4)
        .saturating_add(1 << 20)
}

/// The little-endian words at `p` of `b`, which the caller has checked
/// are in range (table entries of a checked size, read in place).
#[inline]
fn rd_u16(b: &[u8], p: usize) -> u16 {
    u16::from_le_bytes([b[p], b[p + 1]])
}
#[inline]
fn rd_u32(b: &[u8], p: usize) -> u32 {
    u32::from_le_bytes(b[p..p + 4].try_into().expect("4 bytes"))
}
#[inline]
fn rd_u64(b: &[u8], p: usize) -> u64 {
    u64::from_le_bytes(b[p..p + 8].try_into().expect("8 bytes"))
}

/// A symbol table entry (`Elf64_Sym`, 24 bytes), as goblin's `Symtab::get`
/// gives it, without its per-entry reader.
#[inline]
fn raw_sym(e: &[u8]) -> goblin::elf::Sym {
    goblin::elf::Sym {
        st_name: rd_u32(e, 0) as usize,
        st_info: e[4],
        st_other: e[5],
        st_shndx: usize::from(rd_u16(e, 6)),
        st_value: rd_u64(e, 8),
        st_size: rd_u64(e, 16),
    }
}

/// A name's bytes as text: ASCII (nearly every symbol name) told a word at
/// a time, the rest through the UTF-8 validator (which goes byte by byte
/// on strings as short as names).
fn name_str(s: &[u8]) -> Result<&str, std::str::Utf8Error> {
    if s.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(s) });
    }
    std::str::from_utf8(s)
}

/// Sections by name: each name's hash and the section indexes ordered by
/// (hash, name, index). Sorted, not a map (a map cost two allocations a
/// section), and by the names' hashes: ordering by the names themselves
/// compared strings on every step of the sort and of each of the fifty or
/// so lookups an object has (a tenth of checking a small module).
fn name_index(sections: &[Section]) -> (Vec<u64>, Vec<usize>) {
    let hashes: Vec<u64> = sections
        .par_iter()
        .with_min_len(4096)
        .map(|s| name_hash(&s.name))
        .collect();
    let mut by_name: Vec<usize> = (0..sections.len()).collect();
    by_name.par_sort_by(|&a, &b| {
        hashes[a]
            .cmp(&hashes[b])
            .then_with(|| sections[a].name.cmp(&sections[b].name))
    });
    (by_name.iter().map(|&i| hashes[i]).collect(), by_name)
}

/// The hash [`Object::sections_named`] orders names by.
fn name_hash(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(name.as_bytes());
    h.finish()
}

/// The NUL-terminated name at `idx` of string table `table`. A name that
/// runs to the table's end unterminated, or names that add up to more than
/// `budget`, make the object unreadable: each would be copied whole.
fn read_cstr<'a>(
    table: &Section,
    data: &'a [u8],
    idx: u64,
    budget: &mut u64,
) -> Result<Cow<'a, str>, ElfError> {
    // Named only when there is an error: this runs once per symbol.
    let what = || match table.name.as_ref() {
        "" => format!("section {} (the section names)", table.index),
        name => format!("section {} ({name})", table.index),
    };
    let Some(s) = cstr_bytes(table, data, idx) else {
        return err(format!(
            "string table {} is not NUL-terminated (the name at {idx:#x} runs to its end)",
            what()
        ));
    };
    let n = s.len();
    *budget = budget.checked_sub(n as u64).ok_or_else(|| {
        ElfError(format!(
            "the names of string table {} add up to more than 4 times the file's size",
            what()
        ))
    })?;
    // Names are nearly always valid UTF-8: the validator's word-at-a-time
    // ASCII check is several times cheaper than the lossy decoder's.
    Ok(match name_str(s) {
        Ok(name) => Cow::Borrowed(name),
        Err(_) => String::from_utf8_lossy(s),
    })
}

/// The bytes of the name at `idx` of string table `table`, without its NUL
/// (empty past the table's end); `None` when it runs to the end unterminated.
fn cstr_bytes<'a>(table: &Section, data: &'a [u8], idx: u64) -> Option<&'a [u8]> {
    let start = table.offset.saturating_add(idx);
    let end = table
        .offset
        .saturating_add(table.size)
        .min(data.len() as u64);
    if start >= end {
        return Some(&[]);
    }
    let s = &data[start as usize..end as usize];
    Some(&s[..memchr::memchr(0, s)?])
}

impl<'a> Object<'a> {
    pub fn parse(data: &'a [u8]) -> Result<Object<'a>, ElfError> {
        Object::parse_releasing(data, None)
    }

    /// [`Object::parse`], with `release` to give back file pages of `data`
    /// read once and not soon again (a debug section's relocations as they
    /// are checked, its units as they are read): `input::Bytes::release`.
    pub fn parse_releasing(
        data: &'a [u8],
        release: Option<Release<'a>>,
    ) -> Result<Object<'a>, ElfError> {
        if data.is_empty() {
            return err("empty file");
        }
        if data.len() < 4 || &data[..4] != b"\x7fELF" {
            return err("not an ELF file");
        }
        if data.len() < 64 {
            return err(format!(
                "truncated ELF header ({} bytes, need 64)",
                data.len()
            ));
        }
        if data[4] != 2 {
            return err("not a 64-bit ELF object (only ELF64 is supported)");
        }
        if data[5] != 1 {
            return err("not a little-endian ELF object");
        }
        let header = goblin::elf::Elf::parse_header(data)
            .map_err(|e| ElfError(format!("bad ELF header: {e}")))?;
        if header.e_type != ET_REL {
            return err(format!(
                "not a relocatable object (e_type {}); objlint checks .o/.ko files",
                header.e_type
            ));
        }
        let machine = match header.e_machine {
            EM_X86_64 => Machine::X86_64,
            EM_AARCH64 => Machine::Aarch64,
            m => {
                return err(format!(
                    "unsupported machine {m} (x86_64 and aarch64 are supported)"
                ));
            }
        };
        if header.e_shoff == 0 {
            return err("no section header table");
        }
        if usize::from(header.e_shentsize) != 64 {
            return err(format!(
                "bad e_shentsize {} (expected 64)",
                header.e_shentsize
            ));
        }
        let shoff = header.e_shoff;
        if shoff
            .checked_add(64)
            .is_none_or(|end| end > data.len() as u64)
        {
            return err(format!(
                "section header table at {shoff:#x} is past the end of the file ({:#x} bytes)",
                data.len()
            ));
        }
        let ctx = Ctx::new(Container::Big, Endian::Little);
        // Extended numbering: the true count sits in section 0's sh_size.
        let count = if header.e_shnum == 0 {
            let first = SectionHeader::parse(data, shoff as usize, 1, ctx)
                .map_err(|e| ElfError(format!("bad section header 0: {e}")))?;
            first.first().map(|s| s.sh_size as usize).unwrap_or(0)
        } else {
            usize::from(header.e_shnum)
        };
        if count == 0 {
            return err("no sections");
        }
        if count > MAX_SECTIONS
            || (count as u64)
                .checked_mul(64)
                .and_then(|n| n.checked_add(shoff))
                .is_none_or(|end| end > data.len() as u64)
        {
            return err(format!(
                "section header table ({count} entries at {shoff:#x}) runs past the end of the file ({:#x} bytes)",
                data.len()
            ));
        }
        // Elf64_Shdr entries read in place (in range: checked above).
        let table = &data[shoff as usize..shoff as usize + count * 64];
        let header_at = |i: usize, e: &[u8]| Section {
            index: i,
            name: Cow::Borrowed(""),
            sh_type: rd_u32(e, 4),
            flags: rd_u64(e, 8),
            addr: rd_u64(e, 16),
            offset: rd_u64(e, 24),
            size: rd_u64(e, 32),
            link: rd_u32(e, 40),
            info: rd_u32(e, 44),
            align: rd_u64(e, 48),
            entsize: rd_u64(e, 56),
        };
        let shstrndx = if header.e_shstrndx == SHN_XINDEX {
            rd_u32(table, 40) as usize
        } else {
            usize::from(header.e_shstrndx)
        };
        if shstrndx >= count {
            return err(format!(
                "section name table index {shstrndx} out of range ({count} sections)"
            ));
        }
        let strtab_sec = header_at(shstrndx, &table[shstrndx * 64..][..64]);
        // Each entry with its name as it is in the table, and the name's
        // length, on every thread (a ThinLTO vmlinux.o's 284,616 were read
        // on one, the others idle). Where a name must be copied or is
        // unterminated, or the names pass the budget, all are read again
        // below, in order, for the first error in order.
        let in_file = |s: &Section| {
            s.sh_type == SHT_NOBITS
                || s.offset
                    .checked_add(s.size)
                    .is_some_and(|e| e <= data.len() as u64)
        };
        let (mut sections, names): (Vec<Section>, Vec<Option<usize>>) = table
            .par_chunks_exact(64)
            .with_min_len(4096)
            .enumerate()
            .map(|(i, e)| {
                let mut s = header_at(i, e);
                let name = cstr_bytes(&strtab_sec, data, u64::from(rd_u32(e, 0)))
                    .and_then(|b| name_str(b).ok());
                if let Some(name) = name {
                    s.name = Cow::Borrowed(name);
                }
                (s, name.map(str::len))
            })
            .unzip();
        if let Some(s) = sections
            .par_iter()
            .with_min_len(4096)
            .find_first(|s| !in_file(s))
        {
            return err(format!(
                "section {} data ({:#x} bytes at {:#x}) runs past the end of the file",
                s.index, s.size, s.offset
            ));
        }
        let mut budget = name_budget(data);
        let read_all = names
            .iter()
            .try_fold(0u64, |n, l| Some(n.saturating_add((*l)? as u64)))
            .is_none_or(|n| n > budget);
        if read_all {
            for (s, e) in sections.iter_mut().zip(table.chunks_exact(64)) {
                s.name = read_cstr(&strtab_sec, data, u64::from(rd_u32(e, 0)), &mut budget)?;
            }
        }

        if let Some(s) = sections
            .par_iter()
            .find_first(|s| s.is_exec() && s.size > MAX_CODE_SECTION)
        {
            return err(format!(
                "executable section {} ({}) is {:#x} bytes; sections of code over 4 GiB are not supported",
                s.index, s.name, s.size
            ));
        }
        let mut obj = Object {
            data,
            machine,
            symtab: None,
            symtab_shndx: None,
            raw_shnum: header.e_shnum,
            raw_shstrndx: header.e_shstrndx,
            relocs: crate::filled_with(sections.len(), Vec::new),
            deferred: Vec::new(),
            wide_addends: Vec::new(),
            reloc_sections: Vec::new(),
            mapping: Vec::new(),
            by_name: Vec::new(),
            name_hashes: Vec::new(),
            symbols: Vec::new(),
            sections,
            inflate_budget: compressed::budget(data).into(),
            release,
        };
        // Symbols and relocations are read side by side: a relocation
        // needs only the number of symbols (vmlinux.o: 140,000 symbols and
        // a million relocations, read first on one thread).
        // The section-name index beside them (sorting an LTO vmlinux.o's
        // 284,616 names took 27 ms with the other thread idle).
        let nsyms = obj.symtab_layout(ctx)?;
        let ((symbols, (name_hashes, by_name)), relocs) = rayon::join(
            || {
                rayon::join(
                    || match &nsyms {
                        Some(t) => obj.read_symbols(t),
                        None => Ok(Vec::new()),
                    },
                    || name_index(&obj.sections),
                )
            },
            || obj.read_reloc_tables(nsyms.as_ref().map_or(0, SymtabLayout::count)),
        );
        obj.symbols = symbols?;
        obj.take_relocs(relocs?, nsyms.as_ref().map_or(0, SymtabLayout::count))?;
        obj.read_mapping_symbols();
        obj.name_hashes = name_hashes;
        obj.by_name = by_name;
        Ok(obj)
    }

    /// Find the symbol table and its companions, checked.
    fn symtab_layout(&mut self, ctx: Ctx) -> Result<Option<SymtabLayout<'a>>, ElfError> {
        let symtabs: Vec<usize> = self
            .sections
            .par_iter()
            .with_min_len(4096)
            .filter(|s| s.sh_type == SHT_SYMTAB)
            .map(|s| s.index)
            .collect();
        let Some(&symidx) = symtabs.first() else {
            return Ok(None);
        };
        if symtabs.len() > 1 {
            return err("more than one SHT_SYMTAB section");
        }
        self.symtab = Some(symidx);
        let st = self.sections[symidx].clone();
        if st.entsize != 24 && st.entsize != 0 {
            return err(format!(
                "symbol table entry size {} (expected 24)",
                st.entsize
            ));
        }
        let count = (st.size / 24) as usize;
        // Checked here, before the string table, as it always was.
        goblin::elf::Symtab::parse(self.data, st.offset as usize, count, ctx)
            .map_err(|e| ElfError(format!("bad symbol table: {e}")))?;
        // In range: the parse above checked it.
        let raw = &self.data[st.offset as usize..st.offset as usize + count * 24];
        let strtab = self
            .sections
            .get(st.link as usize)
            .cloned()
            .ok_or_else(|| {
                ElfError(format!(
                    "symbol table links to missing string table {}",
                    st.link
                ))
            })?;
        // .symtab_shndx: SHT_SYMTAB_SHNDX linked to this symbol table.
        let shndx_sec = self
            .sections
            .par_iter()
            .with_min_len(4096)
            .find_first(|s| s.sh_type == SHT_SYMTAB_SHNDX && s.link as usize == symidx)
            .map(|s| s.index);
        self.symtab_shndx = shndx_sec;
        let shndx_words: Option<(u64, u64)> = shndx_sec.map(|i| {
            let s = &self.sections[i];
            (s.offset, s.size / 4)
        });
        Ok(Some(SymtabLayout {
            raw,
            strtab,
            shndx_words,
        }))
    }

    /// The symbols. Large tables are read in parallel, names borrowed; a
    /// table that needs more (a name not UTF-8 or unterminated, names past
    /// the budget) is read again in order, for the first error in order.
    fn read_symbols(&self, t: &SymtabLayout<'a>) -> Result<Vec<Symbol<'a>>, ElfError> {
        if t.count() >= PARALLEL_SYMBOLS {
            let bail = std::sync::atomic::AtomicBool::new(false);
            let mut symbols = Vec::new();
            t.raw
                .par_chunks_exact(24)
                .enumerate()
                .map(|(i, e)| {
                    let sym = raw_sym(e);
                    let name = self.borrowed_name(t, sym.st_name as u64);
                    let sym = name.map(|name| self.symbol(t, i, &sym, Cow::Borrowed(name)));
                    sym.unwrap_or_else(|| {
                        bail.store(true, std::sync::atomic::Ordering::Relaxed);
                        Symbol::placeholder(i)
                    })
                })
                .collect_into_vec(&mut symbols);
            let names: u64 = symbols.par_iter().map(|s| s.name.len() as u64).sum();
            if !bail.into_inner() && names <= name_budget(self.data) {
                return Ok(symbols);
            }
        }
        let mut symbols = Vec::with_capacity(t.count());
        let mut budget = name_budget(self.data);
        for (i, sym) in t.raw.chunks_exact(24).map(raw_sym).enumerate() {
            let name = read_cstr(&t.strtab, self.data, sym.st_name as u64, &mut budget)?;
            // A symbol outside its section is kept as read: `symtab-shndx`
            // and `symdiff` report such symbols (a rewrite that moved one,
            // seed 003), and the model ignores functions that lie outside.
            symbols.push(self.symbol(t, i, &sym, name));
        }
        Ok(symbols)
    }

    /// A name of the string table as it is: `None` where it must be
    /// copied or is unterminated.
    fn borrowed_name(&self, t: &SymtabLayout, idx: u64) -> Option<&'a str> {
        name_str(cstr_bytes(&t.strtab, self.data, idx)?).ok()
    }

    fn symbol(
        &self,
        t: &SymtabLayout,
        i: usize,
        sym: &goblin::elf::Sym,
        name: Cow<'a, str>,
    ) -> Symbol<'a> {
        let nsec = self.sections.len();
        let raw_shndx = sym.st_shndx as u16;
        let section = match raw_shndx {
            SHN_UNDEF => SymSection::Undef,
            SHN_ABS => SymSection::Abs,
            SHN_COMMON => SymSection::Common,
            SHN_XINDEX => match t.shndx_words {
                Some((off, n)) if (i as u64) < n => {
                    let p = (off + 4 * i as u64) as usize;
                    let v = u32::from_le_bytes(self.data[p..p + 4].try_into().unwrap());
                    if (v as usize) < nsec && v != 0 {
                        SymSection::Section(v as usize)
                    } else {
                        SymSection::Invalid(v)
                    }
                }
                _ => SymSection::Invalid(u32::from(SHN_XINDEX)),
            },
            x if x >= SHN_LORESERVE => SymSection::Invalid(u32::from(x)),
            x if usize::from(x) < nsec => SymSection::Section(usize::from(x)),
            x => SymSection::Invalid(u32::from(x)),
        };
        Symbol {
            index: i,
            name,
            value: sym.st_value,
            size: sym.st_size,
            st_type: sym.st_type(),
            bind: sym.st_bind(),
            other: sym.st_other,
            raw_shndx,
            section,
        }
    }

    /// The relocation tables, each on its own (vmlinux.o has a million
    /// relocations); the first error in section order is the one reported.
    /// A deferred table ([`defers_relocs`]) is only checked.
    fn read_reloc_tables(&self, nsyms: usize) -> Result<Vec<(usize, RelocTable, bool)>, ElfError> {
        let nsec = self.sections.len();
        let tables: Vec<(usize, bool)> = (0..nsec)
            .filter(|&i| matches!(self.sections[i].sh_type, SHT_RELA | SHT_REL))
            .map(|i| {
                let t = self.sections[i].info as usize;
                (i, t < nsec && defers_relocs(&self.sections[t]))
            })
            .collect();
        let read: Vec<Option<RelocTable>> = tables
            .par_iter()
            .map(|&(i, deferred)| self.read_reloc_section(i, nsyms, !deferred))
            .collect::<Result<_, _>>()?;
        Ok(tables
            .into_iter()
            .zip(read)
            .filter_map(|((i, deferred), r)| Some((i, r?, deferred)))
            .collect())
    }

    fn take_relocs(
        &mut self,
        read: Vec<(usize, RelocTable, bool)>,
        nsyms: usize,
    ) -> Result<(), ElfError> {
        for (i, t, deferred) in read {
            let RelocTable {
                target,
                relocs: mut v,
                wide,
                sorted,
                index,
            } = t;
            // Each table's wide addends were numbered from 0.
            let base = self.wide_addends.len();
            if !wide.is_empty() {
                if u32::try_from(base + wide.len()).is_err() {
                    return err("more than 2^32 relocation addends past 48 bits");
                }
                for r in v.iter_mut().filter(|r| r.addend_hi == WIDE) {
                    r.addend_lo += base as u32;
                }
                self.wide_addends.extend(wide);
            }
            self.reloc_sections.push(i);
            if deferred {
                self.deferred.push(Deferred {
                    target,
                    tables: vec![(i, base as u32)],
                    in_place: sorted,
                    index,
                    nsyms,
                    relocs: std::sync::OnceLock::new(),
                });
                continue;
            }
            let slot = &mut self.relocs[target];
            if slot.is_empty() {
                *slot = v;
            } else {
                slot.extend(v);
            }
        }
        // By target; two tables of one target (rare) become one entry, in
        // section order (the sort is stable), searched only once read.
        self.deferred.sort_by_key(|d| d.target);
        self.deferred.dedup_by(|later, first| {
            if later.target != first.target {
                return false;
            }
            first.tables.append(&mut later.tables);
            first.in_place = false;
            true
        });
        self.relocs
            .par_iter_mut()
            .filter(|v| v.len() > 1)
            .for_each(|v| v.sort_by_key(|r| r.offset()));
        Ok(())
    }

    /// A deferred target's relocations, read as [`Self::take_relocs`] would
    /// have: tables in order, wide addends where parse numbered them, sorted
    /// by offset (a stable sort, as there).
    fn read_deferred(&self, d: &Deferred) -> Vec<Reloc> {
        let mut all = Vec::new();
        for &(i, base) in &d.tables {
            // Checked at parse; the bytes are the same (a file changed
            // underneath a mapping is the mapping's own caveat: then none).
            let Ok(Some(RelocTable { relocs: mut v, .. })) =
                self.read_reloc_section(i, d.nsyms, true)
            else {
                return Vec::new();
            };
            for r in v.iter_mut().filter(|r| r.addend_hi == WIDE) {
                r.addend_lo += base;
            }
            all.extend(v);
        }
        if all.len() > 1 {
            all.sort_by_key(|r| r.offset());
        }
        all
    }

    /// The relocations of relocation section `i` and the section they apply
    /// to; `None` for a dynamic-style table (no target section).
    fn read_reloc_section(
        &self,
        i: usize,
        nsyms: usize,
        keep: bool,
    ) -> Result<Option<RelocTable>, ElfError> {
        let nsec = self.sections.len();
        let s = &self.sections[i];
        let is_rela = s.sh_type == SHT_RELA;
        let target = s.info as usize;
        if target == 0 || target >= nsec {
            // Dynamic-style relocation sections; nothing in a .o we check.
            return Ok(None);
        }
        if Some(s.link as usize) != self.symtab {
            return err(format!(
                "relocation section {} links to section {}, not the symbol table",
                s.name, s.link
            ));
        }
        let esz = reloc_entry_size(s) as u64;
        if !s.size.is_multiple_of(esz) {
            return err(format!(
                "relocation section {} size {:#x} is not a multiple of {esz}",
                s.name, s.size
            ));
        }
        let name = &s.name;
        // Elf64_Rela / Elf64_Rel, little-endian, read in place.
        let bytes = s
            .offset
            .checked_add(s.size)
            .and_then(|end| self.data.get(s.offset as usize..end as usize))
            .ok_or_else(|| {
                ElfError(format!(
                    "bad relocation section {name}: {:#x} bytes at {:#x} run past the end of the file",
                    s.size, s.offset
                ))
            })?;
        let tsize = compressed::logical_size(self.data, &self.sections[target]);
        let mut v = Vec::with_capacity(if keep { bytes.len() / esz as usize } else { 0 });
        let mut wide = Vec::new();
        let (mut sorted, mut last) = (true, 0);
        let mut index = Vec::new();
        let per_chunk = RELEASE_CHUNK / esz as usize / INDEX_STRIDE * INDEX_STRIDE;
        for (k, e) in bytes.chunks_exact(esz as usize).enumerate() {
            if !keep && k % INDEX_STRIDE == 0 {
                index.push(rd_u64(e, 0));
                if k > 0 && k % per_chunk == 0 {
                    self.release(&bytes[(k - per_chunk) * esz as usize..k * esz as usize]);
                }
            }
            let (offset, info) = (rd_u64(e, 0), rd_u64(e, 8));
            let sym = (info >> 32) as u32;
            if offset >= tsize {
                return err(format!(
                    "relocation in {name} at {offset:#x} is outside {} ({tsize:#x} bytes)",
                    self.sections[target].name
                ));
            }
            if sym as usize >= nsyms.max(1) {
                return err(format!(
                    "relocation in {name} at {offset:#x} names symbol {sym} of {nsyms}"
                ));
            }
            let addend = if is_rela { rd_u64(e, 16) as i64 } else { 0 };
            let Some(r) = Reloc::new(offset, info as u32, sym, addend, &mut wide) else {
                return err(format!(
                    "relocation in {name} at {offset:#x}: offsets past 4 GiB are not supported"
                ));
            };
            sorted &= offset >= last;
            last = offset;
            if keep {
                v.push(r);
            }
        }
        Ok(Some(RelocTable {
            target,
            relocs: v,
            wide,
            sorted,
            index,
        }))
    }

    fn read_mapping_symbols(&mut self) {
        if self.machine != Machine::Aarch64 {
            return;
        }
        // Only arm64 has them: elsewhere no list per section at all (an LTO
        // vmlinux.o has 284,616 sections).
        self.mapping = vec![Vec::new(); self.sections.len()];
        for sym in &self.symbols {
            let Some(kind) = sym.mapping() else {
                continue;
            };
            if let SymSection::Section(s) = sym.section {
                self.mapping[s].push((sym.value, kind));
            }
        }
        for v in self.mapping.iter_mut() {
            v.sort_by_key(|m| m.0);
            v.dedup_by_key(|m| m.0);
        }
    }

    /// Take the allocated sections named `names` for code (`SHF_EXECINSTR`)
    /// though they are not flagged so (rules/special.toml `code_sections`).
    pub fn mark_code_sections(&mut self, names: &[String]) {
        for name in names {
            for i in self.sections_named(name).to_vec() {
                let s = &mut self.sections[i];
                if s.sh_type == goblin::elf::section_header::SHT_PROGBITS
                    && s.is_alloc()
                    && s.size <= MAX_CODE_SECTION
                {
                    s.flags |= u64::from(SHF_EXECINSTR);
                }
            }
        }
    }

    /// A `key=value` entry of a kernel module's `.modinfo` (`vermagic`).
    pub fn modinfo(&self, key: &str) -> Option<&'a str> {
        let &sec = self.sections_named(".modinfo").first()?;
        self.section_data(sec)
            .split(|&b| b == 0)
            .filter_map(|e| std::str::from_utf8(e).ok())
            .find_map(|e| e.strip_prefix(key)?.strip_prefix('='))
    }

    /// The release a linked kernel says it is: vmlinux.o's `linux_banner`
    /// ("Linux version 6.1.192 (...)"), `6.1.192`.
    pub fn banner_release(&self) -> Option<&'a str> {
        let s = self
            .symbols
            .iter()
            .find(|s| s.st_type == STT_OBJECT && &*s.name == "linux_banner")?;
        let data = self.section_data(s.section_index()?);
        let start = usize::try_from(s.value).ok()?;
        let end = start.checked_add(usize::try_from(s.size).ok()?)?;
        let text = std::str::from_utf8(data.get(start..end)?.split(|&b| b == 0).next()?).ok()?;
        text.strip_prefix("Linux version ")?.split(' ').next()
    }

    /// Gives back the file pages under `part` of the object's bytes, when
    /// parsed with a way to ([`Object::parse_releasing`]).
    pub fn release(&self, part: &[u8]) {
        if let Some(r) = self.release {
            r(part);
        }
    }

    /// The bytes of a section (empty for NOBITS).
    pub fn section_data(&self, index: usize) -> &'a [u8] {
        &self.data[self.sections[index].file_range()]
    }

    /// The file ranges (from [`Object::data`]'s start) of the sections read
    /// whole at parse and never read again by a check: the relocation
    /// sections (into [`Object::relocs`]) and the symbol table with its
    /// `.symtab_shndx` (into [`Object::symbols`]; names stay in `.strtab`).
    pub fn parsed_bytes(&self) -> Vec<std::ops::Range<usize>> {
        let tables = [self.symtab, self.symtab_shndx];
        let parsed = self.reloc_sections.iter().copied();
        parsed
            .chain(tables.into_iter().flatten())
            .map(|i| self.sections[i].file_range())
            .collect()
    }

    /// The file ranges of the executable sections: decoded whole when the
    /// model is built; after that only a few bytes around a finding or an
    /// entry are read again.
    pub fn code_bytes(&self) -> Vec<std::ops::Range<usize>> {
        self.sections
            .iter()
            .filter(|s| s.is_exec())
            .map(Section::file_range)
            .collect()
    }

    /// A relocation's addend.
    #[inline]
    pub fn addend(&self, r: &Reloc) -> i64 {
        if r.addend_hi == WIDE {
            self.wide_addends[r.addend_lo as usize]
        } else {
            (i64::from(r.addend_hi) << 32) | i64::from(r.addend_lo)
        }
    }

    /// Relocations applying to a section, sorted by offset.
    pub fn relocs(&self, section: usize) -> &[Reloc] {
        let v = &self.relocs[section];
        if !v.is_empty() || self.deferred.is_empty() {
            return v;
        }
        match self.deferred_of(section) {
            Some(d) => d.relocs.get_or_init(|| self.read_deferred(d)),
            None => v,
        }
    }

    /// The deferred relocations of `section`, if they are.
    fn deferred_of(&self, section: usize) -> Option<&Deferred> {
        let k = self
            .deferred
            .binary_search_by_key(&section, |d| d.target)
            .ok()?;
        Some(&self.deferred[k])
    }

    /// The one table of deferred relocations `d`, if it is searched where it
    /// is (in offset order, not read yet): its bytes and entry size.
    fn in_place(&self, d: &Deferred) -> Option<(&'a [u8], usize)> {
        if !d.in_place || d.relocs.get().is_some() {
            return None;
        }
        let s = &self.sections[d.tables[0].0];
        Some((self.data.get(s.file_range())?, reloc_entry_size(s)))
    }

    /// The first relocation at `offset` of `section`. A deferred table in
    /// offset order is searched where it is, not read ([`defers_relocs`]):
    /// how DWARF is read for a few of its offsets.
    pub fn reloc_at(&self, section: usize, offset: u64) -> Option<RelocEntry> {
        if let Some(d) = self.deferred_of(section)
            && let Some((bytes, esz)) = self.in_place(d)
        {
            // Entries checked at parse, in offset order.
            let k = first_at_or_past(bytes, esz, &d.index, INDEX_STRIDE, offset)?;
            let e = &bytes[k * esz..(k + 1) * esz];
            let info = rd_u64(e, 8);
            return (rd_u64(e, 0) == offset).then(|| RelocEntry {
                offset,
                r_type: info as u32,
                sym: (info >> 32) as usize,
                addend: if esz == 24 { rd_u64(e, 16) as i64 } else { 0 },
            });
        }
        let r = self
            .relocs_in(section, offset, offset.saturating_add(1))
            .first()?;
        Some(RelocEntry {
            offset,
            r_type: r.r_type(),
            sym: r.sym(),
            addend: self.addend(r),
        })
    }

    /// Gives back the pages of the relocations of `[start, end)` of
    /// `section` where they are looked up in place ([`Self::reloc_at`]):
    /// lookups scattered over a table map most of it (each page read maps
    /// the 64 KiB around it).
    pub fn release_relocs(&self, section: usize, start: u64, end: u64) {
        if self.release.is_none() {
            return;
        }
        let Some(d) = self.deferred_of(section) else {
            return;
        };
        let Some((bytes, esz)) = self.in_place(d) else {
            return;
        };
        let n = bytes.len() / esz;
        let at = |o| first_at_or_past(bytes, esz, &d.index, INDEX_STRIDE, o).unwrap_or(n);
        let (lo, hi) = (at(start), at(end));
        if lo < hi {
            self.release(&bytes[lo * esz..hi * esz]);
        }
    }

    /// How many relocations apply to `section`, without reading a deferred
    /// table.
    pub fn reloc_count(&self, section: usize) -> usize {
        match self.deferred_of(section) {
            Some(d) => d
                .tables
                .iter()
                .map(|&(i, _)| {
                    let s = &self.sections[i];
                    s.size as usize / reloc_entry_size(s)
                })
                .sum(),
            None => self.relocs[section].len(),
        }
    }

    /// Whether the relocations of `section` are deferred (read on first
    /// use, [`defers_relocs`]).
    pub fn relocs_deferred(&self, section: usize) -> bool {
        self.deferred_of(section).is_some()
    }

    /// Relocations applying to `[start, end)` of a section.
    pub fn relocs_in(&self, section: usize, start: u64, end: u64) -> &[Reloc] {
        let v = self.relocs(section);
        let lo = v.partition_point(|r| r.offset() < start);
        let hi = v.partition_point(|r| r.offset() < end);
        &v[lo..hi]
    }

    /// Which compiler made the object, from `.comment` (`GCC: ...`,
    /// `... clang version ...`); `None` for assembler output, which has none.
    pub fn producer(&self) -> Option<Producer> {
        let mut out = None;
        for &i in self.sections_named(".comment") {
            for s in self.section_data(i).split(|&b| b == 0) {
                let s = String::from_utf8_lossy(s);
                if s.contains("clang version") {
                    return Some(Producer::Clang);
                }
                if s.starts_with("GCC:") {
                    out = Some(Producer::Gcc);
                }
            }
        }
        out
    }

    /// Sections with this exact name (several may share one).
    pub fn sections_named(&self, name: &str) -> &[usize] {
        let h = name_hash(name);
        let lo = self.name_hashes.partition_point(|&x| x < h);
        let n = self.name_hashes[lo..].partition_point(|&x| x == h);
        // The names of a run share a hash: they differ only where two
        // names collide.
        let run = &self.by_name[lo..lo + n];
        let of = |i: &usize| self.sections[*i].name.as_ref();
        let a = run.partition_point(|i| of(i) < name);
        let n = run[a..].partition_point(|i| of(i) == name);
        &run[a..a + n]
    }

    /// arm64 mapping symbols of a section, sorted by offset. Empty on x86.
    pub fn mapping(&self, section: usize) -> &[(u64, Mapping)] {
        self.mapping.get(section).map_or(&[], Vec::as_slice)
    }

    /// The code ranges of an executable section: everything on x86; on arm64
    /// the ranges marked `$x` (everything when the section has no mapping
    /// symbols at all, as in some hand-written objects).
    /// Whether mapping symbols (`$x`/`$d`) tell code from data in `section`.
    pub fn has_mapping_symbols(&self, section: usize) -> bool {
        !self.mapping(section).is_empty()
    }

    pub fn code_ranges(&self, section: usize) -> Vec<(u64, u64)> {
        let size = self.sections[section].size;
        let m = self.mapping(section);
        if m.is_empty() {
            return vec![(0, size)];
        }
        let mut out = Vec::new();
        for (i, &(off, kind)) in m.iter().enumerate() {
            let end = m.get(i + 1).map(|n| n.0).unwrap_or(size).min(size);
            if kind == Mapping::Code && off < end {
                out.push((off, end));
            }
        }
        out
    }

    /// Resolve `symbol + addend` to a place.
    pub fn resolve(&self, sym: usize, addend: i64) -> Place {
        let Some(s) = self.symbols.get(sym) else {
            return Place::Other;
        };
        match s.section {
            SymSection::Section(sec) => Place::Local {
                section: sec,
                offset: s.value.wrapping_add(addend as u64),
            },
            SymSection::Undef if sym != 0 => Place::External { sym, addend },
            _ => Place::Other,
        }
    }

    /// Name of a section by index, or a placeholder.
    pub fn section_name(&self, index: usize) -> &str {
        self.sections
            .get(index)
            .map(|s| s.name.as_ref())
            .unwrap_or("?")
    }

    /// Decode the `.note.gnu.property` feature bits
    /// (`GNU_PROPERTY_X86_FEATURE_1_AND` / `GNU_PROPERTY_AARCH64_FEATURE_1_AND`).
    pub fn gnu_property_features(&self) -> Option<u32> {
        let want = match self.machine {
            Machine::X86_64 => 0xc000_0002u32,
            Machine::Aarch64 => 0xc000_0000u32,
        };
        let idx = *self.sections_named(".note.gnu.property").first()?;
        let d = self.section_data(idx);
        let rd = |p: usize| -> Option<u32> {
            d.get(p..p + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        };
        let mut p = 0usize;
        let mut found = None;
        while p + 12 <= d.len() {
            let namesz = rd(p)? as usize;
            let descsz = rd(p + 4)? as usize;
            let ntype = rd(p + 8)?;
            let name_end = p + 12 + namesz.div_ceil(4) * 4;
            let desc_end = name_end.checked_add(descsz)?;
            if desc_end > d.len() {
                return found;
            }
            if ntype == 5 {
                let mut q = name_end;
                while q + 8 <= desc_end {
                    let pr_type = rd(q)?;
                    let pr_datasz = rd(q + 4)? as usize;
                    if pr_type == want && pr_datasz >= 4 {
                        found = Some(found.unwrap_or(0) | rd(q + 8)?);
                    }
                    q += 8 + pr_datasz.div_ceil(8) * 8;
                }
            }
            p = desc_end.div_ceil(8) * 8;
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Section names, read on every thread, are goblin's; a name that is
    /// not UTF-8 is read again in order, with the replacement character,
    /// and the others stay as they were.
    #[test]
    fn section_names_match_goblin_and_survive_a_bad_one() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/examples/stack-x86_64.o"
        );
        let bytes = std::fs::read(path).unwrap();
        let elf = goblin::elf::Elf::parse(&bytes).unwrap();
        let want: Vec<String> = elf
            .section_headers
            .iter()
            .map(|h| elf.shdr_strtab.get_at(h.sh_name).unwrap().to_string())
            .collect();
        let names = |b: &[u8]| -> Vec<String> {
            let obj = Object::parse(b).unwrap();
            obj.sections.iter().map(|s| s.name.to_string()).collect()
        };
        assert!(want.len() > 5);
        assert_eq!(names(&bytes), want);
        // The second byte of the first ".text" name made 0xff.
        let k = want.iter().position(|n| n == ".text").unwrap();
        let strtab = &elf.section_headers[elf.header.e_shstrndx as usize];
        let at = strtab.sh_offset as usize + elf.section_headers[k].sh_name + 1;
        let mut bad = bytes.clone();
        bad[at] = 0xff;
        let mut want_bad = want.clone();
        // Other names that end in the same bytes share them.
        for (i, h) in elf.section_headers.iter().enumerate() {
            let start = strtab.sh_offset as usize + h.sh_name;
            let end = start + want[i].len();
            if (start..end).contains(&at) {
                want_bad[i] = String::from_utf8_lossy(&bad[start..end]).into_owned();
            }
        }
        assert_ne!(want_bad, want);
        assert!(want_bad[k].contains('\u{fffd}'));
        assert_eq!(names(&bad), want_bad);
    }

    /// Mapping symbols as the ABI names them, and renamed by a prefix; what
    /// only looks like one is not.
    #[test]
    fn mapping_symbols_plain_and_renamed() {
        let sym = |name: &'static str, bind: u8, st_type: u8, size: u64| Symbol {
            index: 1,
            name: Cow::Borrowed(name),
            value: 0,
            size,
            st_type,
            bind,
            other: 0,
            raw_shndx: 1,
            section: SymSection::Section(1),
        };
        let local = |name| sym(name, STB_LOCAL, STT_NOTYPE, 0);
        assert_eq!(local("$x").mapping(), Some(Mapping::Code));
        assert_eq!(local("$d").mapping(), Some(Mapping::Data));
        assert_eq!(local("$x.17").mapping(), Some(Mapping::Code));
        assert_eq!(local("$d.str").mapping(), Some(Mapping::Data));
        assert_eq!(local("__kvm_nvhe_$d").mapping(), Some(Mapping::Data));
        assert_eq!(local("__pi_$x.42").mapping(), Some(Mapping::Code));
        assert_eq!(local("$xyz").mapping(), None);
        assert_eq!(local("$a").mapping(), None);
        assert_eq!(local("__pi_$data").mapping(), None);
        assert_eq!(local("plain").mapping(), None);
        // A renamed one is local, untyped and empty, as mapping symbols are.
        assert_eq!(sym("f$d", STB_GLOBAL, STT_NOTYPE, 0).mapping(), None);
        assert_eq!(sym("f$d", STB_LOCAL, STT_FUNC, 0).mapping(), None);
        assert_eq!(sym("f$d", STB_LOCAL, STT_NOTYPE, 4).mapping(), None);
    }

    /// An x86-64 object of a symbol table only, one symbol per name (after
    /// the null symbol); `terminate: false` leaves the last name open.
    fn object_with_symbols(names: &[Vec<u8>], terminate: bool) -> Vec<u8> {
        let mut strtab = vec![0u8];
        let mut syms = vec![0u8; 24];
        for (k, n) in names.iter().enumerate() {
            let mut e = [0u8; 24];
            e[..4].copy_from_slice(&(strtab.len() as u32).to_le_bytes());
            e[4] = 0x12; // global function
            e[6..8].copy_from_slice(&(SHN_ABS).to_le_bytes());
            e[8..16].copy_from_slice(&(k as u64 * 16).to_le_bytes());
            syms.extend_from_slice(&e);
            strtab.extend_from_slice(n);
            if terminate || k + 1 < names.len() {
                strtab.push(0);
            }
        }
        let shstr = b"\0.strtab\0.symtab\0.shstrtab\0".to_vec();
        let mut b = vec![0u8; 64];
        let strtab_at = b.len();
        b.extend_from_slice(&strtab);
        let symtab_at = b.len().next_multiple_of(8);
        b.resize(symtab_at, 0);
        b.extend_from_slice(&syms);
        let shstr_at = b.len();
        b.extend_from_slice(&shstr);
        let shoff = b.len().next_multiple_of(8);
        b.resize(shoff, 0);
        // (name, type, offset, size, link, entsize)
        let hdrs = [
            (0, 0, 0, 0, 0, 0),
            (1, 3, strtab_at, strtab.len(), 0, 0),
            (9, 2, symtab_at, syms.len(), 1, 24),
            (17, 3, shstr_at, shstr.len(), 0, 0),
        ];
        for (name, ty, off, size, link, entsize) in hdrs {
            let mut h = [0u8; 64];
            h[..4].copy_from_slice(&(name as u32).to_le_bytes());
            h[4..8].copy_from_slice(&(ty as u32).to_le_bytes());
            h[24..32].copy_from_slice(&(off as u64).to_le_bytes());
            h[32..40].copy_from_slice(&(size as u64).to_le_bytes());
            h[40..44].copy_from_slice(&(link as u32).to_le_bytes());
            h[56..64].copy_from_slice(&(entsize as u64).to_le_bytes());
            b.extend_from_slice(&h);
        }
        b[..4].copy_from_slice(b"\x7fELF");
        (b[4], b[5], b[6]) = (2, 1, 1);
        b[16..18].copy_from_slice(&ET_REL.to_le_bytes());
        b[18..20].copy_from_slice(&EM_X86_64.to_le_bytes());
        b[20..24].copy_from_slice(&1u32.to_le_bytes());
        b[40..48].copy_from_slice(&(shoff as u64).to_le_bytes());
        b[52..54].copy_from_slice(&64u16.to_le_bytes());
        b[58..60].copy_from_slice(&64u16.to_le_bytes());
        b[60..62].copy_from_slice(&4u16.to_le_bytes());
        b[62..64].copy_from_slice(&3u16.to_le_bytes());
        b
    }

    /// Large tables are read in parallel; each symbol comes out as the
    /// reader in order gives it, also when one name sends the table back
    /// to that reader, and an unterminated name is the same error.
    #[test]
    fn large_symbol_tables_read_as_in_order() {
        let n = PARALLEL_SYMBOLS + 3_000;
        let mut names: Vec<Vec<u8>> = (0..n).map(|k| format!("f{k}").into_bytes()).collect();
        let check = |names: &[Vec<u8>]| {
            let b = object_with_symbols(names, true);
            let obj = Object::parse(&b).expect("parses");
            assert_eq!(obj.symbols.len(), n + 1);
            for (k, want) in names.iter().enumerate() {
                let s = &obj.symbols[k + 1];
                assert_eq!(s.index, k + 1);
                assert_eq!(s.name, String::from_utf8_lossy(want));
                assert_eq!((s.value, s.section), (k as u64 * 16, SymSection::Abs));
                assert!(s.is_func() && s.is_global());
            }
        };
        check(&names);
        names[PARALLEL_SYMBOLS + 7] = b"bad\xffname".to_vec();
        check(&names);
        let b = object_with_symbols(&names, false);
        let e = Object::parse(&b).err().expect("unterminated");
        assert!(e.0.contains("is not NUL-terminated"), "{}", e.0);
    }

    /// Debug sections' relocations (but `.debug_frame`'s) are left in their
    /// tables at parse; looked up there, counted, and read when asked for,
    /// they are what goblin reads from the same tables (in offset order, a
    /// stable sort), and lookups agree before and after the read.
    #[test]
    fn deferred_relocations_are_goblins() {
        for path in [
            "testdata/source/x86-gcc-text.o",
            "testdata/source/x86-clang-zstd.o",
            "testdata/user/noreturn-decl-g-arm64.o",
            "testdata/stack/arm64-clang-noreturn-ptr.o",
        ] {
            let data = std::fs::read(path).unwrap();
            deferred_as_goblin_reads(path, &data);
        }
    }

    fn deferred_as_goblin_reads(path: &str, data: &[u8]) {
        {
            let obj = Object::parse(data).unwrap();
            let g = goblin::elf::Elf::parse(data).unwrap();
            let deferred: Vec<usize> = (0..obj.sections.len())
                .filter(|&i| obj.relocs_deferred(i))
                .collect();
            let names: Vec<&str> = deferred.iter().map(|&i| &*obj.sections[i].name).collect();
            assert!(
                names.iter().any(|n| n.ends_with("debug_info")),
                "{path}: {names:?}"
            );
            for (i, s) in obj.sections.iter().enumerate() {
                if s.name.ends_with("debug_frame") || s.is_alloc() {
                    assert!(!obj.relocs_deferred(i), "{path}: {}", s.name);
                }
            }
            for &sec in &deferred {
                let mut want: Vec<RelocEntry> = g
                    .shdr_relocs
                    .iter()
                    .filter(|(i, _)| g.section_headers[*i].sh_info as usize == sec)
                    .flat_map(|(_, rs)| rs.iter())
                    .map(|r| RelocEntry {
                        offset: r.r_offset,
                        r_type: r.r_type,
                        sym: r.r_sym,
                        addend: r.r_addend.unwrap_or(0),
                    })
                    .collect();
                want.sort_by_key(|r| r.offset);
                assert!(!want.is_empty(), "{path}: {}", obj.sections[sec].name);
                let first = |off: u64| want.iter().find(|r| r.offset == off).copied();
                let probes: Vec<u64> = want
                    .iter()
                    .flat_map(|r| [r.offset, r.offset + 1, r.offset.wrapping_sub(1)])
                    .chain([0, u64::MAX])
                    .collect();
                // In the table, nothing read.
                assert_eq!(obj.reloc_count(sec), want.len());
                for &p in &probes {
                    assert_eq!(obj.reloc_at(sec, p), first(p), "{path} {sec} {p:#x}");
                }
                // Read.
                let got: Vec<RelocEntry> = obj
                    .relocs(sec)
                    .iter()
                    .map(|r| RelocEntry {
                        offset: r.offset(),
                        r_type: r.r_type(),
                        sym: r.sym(),
                        addend: obj.addend(r),
                    })
                    .collect();
                assert_eq!(got, want, "{path}: {}", obj.sections[sec].name);
                assert_eq!(obj.reloc_count(sec), want.len());
                for &p in &probes {
                    assert_eq!(obj.reloc_at(sec, p), first(p), "{path} {sec} {p:#x}");
                }
            }
        }
    }

    /// Three relocation tables of one debug section, others between them in
    /// section order (`.rela.debug_aranges` and `.rela.debug_line` of
    /// x86-gcc-dwarf5.o pointed at `.debug_info`, `.rela.debug_loclists` and
    /// `.rela.debug_rnglists` between): one deferred entry, read as goblin
    /// reads the three. (Merging neighbours pairwise left two entries.)
    #[test]
    fn deferred_tables_of_one_section_are_one() {
        let path = "testdata/source/x86-gcc-dwarf5.o";
        let mut data = std::fs::read(path).unwrap();
        let obj = Object::parse(&data).unwrap();
        let idx = |n: &str| obj.sections_named(n)[0];
        let info = idx(".debug_info");
        let moved = [idx(".rela.debug_aranges"), idx(".rela.debug_line")];
        let tables = [idx(".rela.debug_info"), moved[0], moved[1]];
        let shoff = rd_u64(&data, 0x28) as usize;
        drop(obj);
        for i in moved {
            let at = shoff + 64 * i + 44;
            data[at..at + 4].copy_from_slice(&(info as u32).to_le_bytes());
        }
        deferred_as_goblin_reads(path, &data);
        let obj = Object::parse(&data).unwrap();
        let n: usize = tables
            .iter()
            .map(|&i| obj.sections[i].size as usize / 24)
            .sum();
        assert_eq!(obj.deferred.iter().filter(|d| d.target == info).count(), 1);
        assert_eq!(obj.reloc_count(info), n);
        assert_eq!(obj.relocs(info).len(), n);
    }

    /// The search of a table in place through its sparse index finds what a
    /// plain scan finds: tables with repeated offsets and gaps, strides
    /// shorter and longer than the table, offsets before, between, on and
    /// past its entries, both entry sizes.
    #[test]
    fn in_place_search_is_a_scan() {
        for esz in [16usize, 24] {
            for n in [0usize, 1, 2, 5, 513, 1400] {
                let offsets: Vec<u64> = (0..n as u64)
                    .map(|k| k / 3 * 5 + u64::from(k % 3 == 2))
                    .collect();
                let mut bytes = vec![0u8; n * esz];
                for (k, o) in offsets.iter().enumerate() {
                    bytes[k * esz..k * esz + 8].copy_from_slice(&o.to_le_bytes());
                }
                for stride in [1usize, 3, 7, 512, 4096] {
                    let index: Vec<u64> = offsets.iter().copied().step_by(stride).collect();
                    let last = offsets.last().copied().unwrap_or(0);
                    for probe in 0..=last + 3 {
                        let want = offsets.iter().position(|&o| o >= probe);
                        assert_eq!(
                            first_at_or_past(&bytes, esz, &index, stride, probe),
                            want,
                            "esz {esz} n {n} stride {stride} probe {probe}"
                        );
                    }
                }
            }
        }
    }

    /// A damaged relocation of a debug section is an error at parse, as any
    /// other: its table is checked though not read.
    #[test]
    fn deferred_relocations_are_checked_at_parse() {
        let mut data = std::fs::read("testdata/source/x86-gcc-text.o").unwrap();
        let obj = Object::parse(&data).unwrap();
        let rela = (0..obj.sections.len())
            .find(|&i| obj.sections[i].name == ".rela.debug_info")
            .unwrap();
        assert!(obj.relocs_deferred(obj.sections[rela].info as usize));
        let at = obj.sections[rela].offset as usize + 24;
        drop(obj);
        // The second entry's symbol: past the table.
        data[at + 12..at + 16].copy_from_slice(&0x00ff_ffffu32.to_le_bytes());
        let e = Object::parse(&data).err().expect("a damaged relocation");
        assert!(
            e.0.contains(".rela.debug_info") && e.0.contains("names symbol"),
            "{}",
            e.0
        );
    }

    #[test]
    fn relocations_round_trip_in_16_bytes() {
        assert_eq!(std::mem::size_of::<Reloc>(), 16);
        let data = std::fs::read("testdata/examples/bti-arm64.o").unwrap();
        let mut obj = Object::parse(&data).unwrap();
        let mut wide = Vec::new();
        let addends = [
            0,
            -4,
            i64::from(i32::MAX) + 1,
            i64::from(i32::MIN) - 1,
            // The direct map's base, a 48-bit canonical address.
            0xffff_8880_0000_0000_u64 as i64,
            (1 << 47) - 1,
            // Wider (and the lowest 2^32 of 48 bits, whose high half is
            // the mark): kept aside, exactly.
            -(1 << 47),
            1 << 47,
            -(1 << 47) - 1,
            i64::MAX,
            i64::MIN,
            1 << 50,
        ];
        let rs: Vec<Reloc> = addends
            .iter()
            .map(|&a| Reloc::new(0xffff_fff0, 2, 7, a, &mut wide).expect("fits"))
            .collect();
        assert_eq!(wide.len(), 6);
        obj.wide_addends = wide;
        for (r, &a) in rs.iter().zip(&addends) {
            assert_eq!(
                (r.offset(), r.r_type(), r.sym(), obj.addend(r)),
                (0xffff_fff0, 2, 7, a)
            );
        }
        assert_eq!(Reloc::new(1 << 32, 2, 7, 0, &mut Vec::new()), None);
        // arm64's largest type fits; a type no psABI has stays unknown.
        let ty = |t| Reloc::new(0, t, 0, 0, &mut Vec::new()).map(|r| r.r_type());
        assert_eq!(ty(1032), Some(1032));
        assert_eq!(ty(0x1_0002), Some(R_TYPE_UNKNOWN));
    }
}
#[cfg(test)]
mod by_name_tests {
    use super::*;

    /// Sections looked up by name come out as a scan of every section
    /// finds them, in index order, on every object the tests have (groups
    /// and sections of the same name among them).
    #[test]
    fn sections_by_name_as_a_scan_finds_them() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata"));
        let (inputs, _) = crate::input::expand(&[dir.to_path_buf()]);
        let (mut objects, mut repeated) = (0, 0);
        for input in inputs.iter() {
            let Ok(l) = crate::input::load(&input.path) else {
                continue;
            };
            for (_, r) in &l.members {
                let Ok(o) = Object::parse(&l.bytes[r.clone()]) else {
                    continue;
                };
                objects += 1;
                for s in &o.sections {
                    let scan: Vec<usize> = (0..o.sections.len())
                        .filter(|&i| o.sections[i].name == s.name)
                        .collect();
                    repeated += usize::from(scan.len() > 1);
                    assert_eq!(o.sections_named(&s.name), scan, "{}", input.path.display());
                }
                assert!(o.sections_named("no such section").is_empty());
            }
        }
        assert!(
            objects > 100 && repeated > 0,
            "{objects} objects, {repeated} repeated names"
        );
    }
}
