//! DWARF of a relocatable object, read as gimli should see it.
//!
//! A relocatable object has no addresses yet: in a `-ffunction-sections`
//! object every function's section starts at 0, and references between DWARF
//! sections (`DW_FORM_strp` into `.debug_str`, `DW_AT_low_pc`, the line
//! table's `DW_LNE_set_address`) are 0 plus a relocation. So each allocated
//! section gets a synthetic base address and the absolute relocations of
//! the debug sections are applied against those bases: to a copy (uncompressed
//! when `SHF_COMPRESSED` or `.zdebug_*`), or, for [`noreturn_names`], which
//! every object with DWARF pays for, as gimli reads each offset of a section
//! read in place. `crate::source` maps places to source lines with this; the
//! model reads which functions the source declares noreturn.

use super::{Machine, Object, RelocEntry, compressed};
use gimli::{EndianSlice, LittleEndian, RelocateReader, SectionId};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;

/// The DWARF sections [`noreturn_names`] reads (a unit's line program is
/// read with it).
const DECLS: [SectionId; 7] = [
    SectionId::DebugAbbrev,
    SectionId::DebugAddr,
    SectionId::DebugInfo,
    SectionId::DebugLine,
    SectionId::DebugLineStr,
    SectionId::DebugStr,
    SectionId::DebugStrOffsets,
];

/// The functions the object's DWARF says never return: every
/// `DW_TAG_subprogram` with `DW_AT_noreturn` (C's `_Noreturn`,
/// `__attribute__((noreturn))`, C++'s `[[noreturn]]`), declarations of
/// functions defined elsewhere included, by linkage name (else name). Empty
/// without `.debug_info`; what is malformed is skipped, the names read so
/// far kept.
pub fn noreturn_names(obj: &Object) -> Vec<String> {
    if obj.sections_named(".debug_info").is_empty() && obj.sections_named(".zdebug_info").is_empty()
    {
        return Vec::new();
    }
    let base = synthetic_bases(obj);
    let bases = relocation_bases(obj, &base, &DECLS);
    // The scan reads all of `.debug_info` once, and nothing reads it again
    // but source lines for a finding: its pages go back as it goes.
    let read = info_read(obj);
    let Some(mut names) = with_dwarf(obj, &DECLS, &bases, |dwarf| {
        let mut names = Vec::new();
        let _ = read_noreturn(dwarf, &mut names, &read);
        names
    }) else {
        return Vec::new();
    };
    names.sort_unstable();
    names.dedup();
    names
}

/// The object's DWARF sections `ids` as gimli should see them, handed to
/// `f`. A section that is one object section, not compressed, is read in
/// place with its relocations applied as gimli reads each offset and
/// address, each looked up where its table is (an arm64 vmlinux.o's
/// `.debug_info` is 230 MB, its `.debug_str_offsets` 52 MB under 13 M
/// relocations, of which a read of declarations or line tables needs a
/// few); the others are copied with theirs applied. `None` when a section
/// cannot be read (a damaged compressed one).
pub fn with_dwarf<T>(
    obj: &Object,
    ids: &[SectionId],
    bases: &[u64],
    f: impl FnOnce(&gimli::Dwarf<Relocated>) -> T,
) -> Option<T> {
    let mut sections: HashMap<SectionId, (Cow<[u8]>, Option<usize>)> = HashMap::new();
    for &id in ids {
        let section = match debug_sections(obj, id.name())[..] {
            [i] if !compressed::is_compressed(obj, i) => {
                (Cow::Borrowed(obj.section_data(i)), Some(i))
            }
            _ => (Cow::Owned(load_section(obj, id, bases).ok()?), None),
        };
        sections.insert(id, section);
    }
    let dwarf = gimli::Dwarf::load(|id| -> Result<_, ()> {
        let (data, section) = sections
            .get(&id)
            .map_or((&[][..], None), |(d, r)| (&d[..], *r));
        let at = Relocs {
            obj,
            section,
            bases,
        };
        Ok(RelocateReader::new(
            EndianSlice::new(data, LittleEndian),
            at,
        ))
    })
    .ok()?;
    Some(f(&dwarf))
}

/// The relocations of one debug section read in place, applied as gimli
/// reads the offsets and addresses they patch (as [`apply_relocs`] does to
/// a copy).
#[derive(Clone, Copy)]
pub struct Relocs<'a> {
    obj: &'a Object<'a>,
    /// The section read in place, whose relocations apply (none for a
    /// copy with them applied).
    section: Option<usize>,
    bases: &'a [u64],
}

impl std::fmt::Debug for Relocs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "relocations of {:?}", self.section)
    }
}

impl Relocs<'_> {
    fn at(&self, offset: usize, value: u64) -> u64 {
        self.section
            .and_then(|s| self.obj.reloc_at(s, offset as u64))
            .and_then(|r| reloc_value(self.obj, &r, self.bases))
            .map_or(value, |(v, _)| v)
    }
}

impl gimli::read::Relocate for Relocs<'_> {
    fn relocate_address(&self, offset: usize, value: u64) -> gimli::Result<u64> {
        Ok(self.at(offset, value))
    }

    fn relocate_offset(&self, offset: usize, value: usize) -> gimli::Result<usize> {
        Ok(self.at(offset, value as u64) as usize)
    }
}

/// A DWARF section as [`with_dwarf`] hands it to gimli.
pub type Relocated<'a> = RelocateReader<EndianSlice<'a, LittleEndian>, Relocs<'a>>;

/// How many bytes of `.debug_info` are read before they are given back.
const RELEASE_RUN: usize = 4 << 20;

/// For a walk over the units in order, with `read` from [`info_read`]: once
/// unit `h` is [`RELEASE_RUN`] past `behind` (where the bytes last given
/// back end), the bytes before it go.
pub fn read_behind(
    h: &gimli::UnitHeader<Relocated>,
    behind: &mut usize,
    read: &dyn Fn(usize, usize),
) {
    if let Some(at) = h.offset().to_debug_info_offset(h)
        && at.0 >= *behind + RELEASE_RUN
    {
        read(*behind, at.0 - *behind);
        *behind = at.0;
    }
}

/// Gives back the pages of `.debug_info` from an offset, so many bytes, once
/// read (when it is one section read in place): a vmlinux.o's is hundreds of
/// MB, and even a walk over its units' headers alone maps most of it (each
/// page read maps the 64 KiB around it).
pub fn info_read<'o>(obj: &'o Object<'o>) -> impl Fn(usize, usize) + Sync + 'o {
    let info = match debug_sections(obj, ".debug_info")[..] {
        [i] if !compressed::is_compressed(obj, i) => Some((i, obj.section_data(i))),
        _ => None,
    };
    move |off, len| {
        if let Some((i, d)) = info
            && let Some(part) = d.get(off..off.saturating_add(len).min(d.len()))
        {
            obj.release(part);
            obj.release_relocs(i, off as u64, (off + part.len()) as u64);
        }
    }
}

fn read_noreturn(
    dwarf: &gimli::Dwarf<Relocated>,
    names: &mut Vec<String>,
    read: &(dyn Fn(usize, usize) + Sync),
) -> gimli::Result<()> {
    // Units in parallel: a vmlinux.o with debug info has thousands (the
    // arm64 defconfig's .debug_info is 230 MB), and nothing else waits for
    // these names but the model. A malformed unit is skipped.
    let mut headers = Vec::new();
    let mut units = dwarf.units();
    let mut behind = 0;
    let end = loop {
        match units.next() {
            Ok(Some(h)) => {
                read_behind(&h, &mut behind, read);
                headers.push(h);
            }
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    read(behind, usize::MAX / 2);
    // Runs of consecutive units of a few MB each: a run's bytes go back
    // once it is read (pages of a unit alone are often fewer than are
    // worth a system call).
    let mut runs: Vec<Vec<gimli::UnitHeader<Relocated>>> = Vec::new();
    let mut bytes = usize::MAX;
    for h in headers {
        if bytes >= RELEASE_RUN {
            runs.push(Vec::new());
            bytes = 0;
        }
        bytes += h.length_including_self();
        runs.last_mut().expect("pushed").push(h);
    }
    let found: Vec<Vec<String>> = runs
        .into_par_iter()
        .map(|run| {
            let mut v = Vec::new();
            let span = run.first().zip(run.last()).and_then(|(a, b)| {
                let lo = a.offset().to_debug_info_offset(a)?.0;
                let hi = b.offset().to_debug_info_offset(b)?.0 + b.length_including_self();
                Some((lo, hi - lo))
            });
            for h in run {
                let _ = unit_noreturn(dwarf, h, &mut v);
            }
            if let Some((at, len)) = span {
                read(at, len);
            }
            v
        })
        .collect();
    names.extend(found.into_iter().flatten());
    end
}

fn unit_noreturn(
    dwarf: &gimli::Dwarf<Relocated>,
    header: gimli::UnitHeader<Relocated>,
    names: &mut Vec<String>,
) -> gimli::Result<()> {
    let unit = dwarf.unit(header)?;
    // Raw entries: only a subprogram whose abbreviation can say noreturn has
    // its attributes read; every other entry's are skipped by their forms
    // (building each entry's attributes was most of a vmlinux.o's DWARF time).
    let mut raw = unit.entries_raw(None)?;
    while !raw.is_empty() {
        let Some(abbrev) = raw.read_abbreviation()? else {
            continue;
        };
        let specs = abbrev.attributes();
        if abbrev.tag() != gimli::DW_TAG_subprogram
            || !specs.iter().any(|a| a.name() == gimli::DW_AT_noreturn)
        {
            raw.skip_attributes(specs)?;
            continue;
        }
        let (mut noreturn, mut linkage, mut plain) = (false, None, None);
        for &spec in specs {
            let a = raw.read_attribute(spec)?;
            match a.name() {
                gimli::DW_AT_noreturn => {
                    noreturn = matches!(a.value(), gimli::AttributeValue::Flag(true));
                }
                gimli::DW_AT_linkage_name | gimli::DW_AT_MIPS_linkage_name => {
                    linkage.get_or_insert(a.value());
                }
                gimli::DW_AT_name => plain = Some(a.value()),
                _ => {}
            }
        }
        if noreturn
            && let Some(v) = linkage.or(plain)
            && let Ok(s) = dwarf.attr_string(&unit, v)
            && let Ok(s) = gimli::Reader::to_string_lossy(&s)
        {
            names.push(s.into_owned());
        }
    }
    Ok(())
}

/// A distinct address for every allocated section, with a gap between them
/// so that a sequence's end never equals the next section's start.
pub fn synthetic_bases(obj: &Object) -> Vec<u64> {
    let mut next: u64 = 0x1_0000;
    obj.sections
        .iter()
        .map(|s| {
            if !s.is_alloc() {
                return 0;
            }
            let b = next;
            next = next.saturating_add(s.size).saturating_add(0x1f) & !0xf;
            b
        })
        .collect()
}

/// The debug sections of one DWARF section name: `.debug_x` and `.zdebug_x`,
/// in section order.
fn debug_sections(obj: &Object, name: &str) -> Vec<usize> {
    let zname = format!(".z{}", &name[1..]);
    let mut idx: Vec<usize> = obj.sections_named(name).to_vec();
    idx.extend_from_slice(obj.sections_named(&zname));
    idx.sort_unstable();
    idx
}

/// What a relocation against each section resolves to: the synthetic base
/// for allocated sections; for a debug section, its place in the
/// concatenation of the sections of its name (0 for the first, the usual
/// and only one). `ids` are the DWARF sections that will be read.
pub fn relocation_bases(obj: &Object, synthetic: &[u64], ids: &[SectionId]) -> Vec<u64> {
    let mut out = synthetic.to_vec();
    for &id in ids {
        let mut off = 0u64;
        for s in debug_sections(obj, id.name()) {
            out[s] = off;
            off = off.saturating_add(compressed::logical_size(obj.data, &obj.sections[s]));
        }
    }
    out
}

/// One DWARF section as gimli should see it: every object section of that
/// name uncompressed and concatenated, with its absolute relocations applied.
pub fn load_section(obj: &Object, id: SectionId, bases: &[u64]) -> Result<Vec<u8>, String> {
    let idx = debug_sections(obj, id.name());
    let mut out = Vec::new();
    for i in idx {
        let start = out.len();
        out.extend_from_slice(&compressed::contents(obj, i)?);
        apply_relocs(obj, i, &mut out[start..], bases);
    }
    Ok(out)
}

const R_X86_64_64: u32 = 1;
const R_X86_64_32: u32 = 10;
const R_X86_64_32S: u32 = 11;
const R_AARCH64_ABS64: u32 = 257;
const R_AARCH64_ABS32: u32 = 258;

/// Apply the absolute relocations of `section` to `buf` (its uncompressed
/// bytes). Others (PC-relative, TLS offsets) do not occur in the sections we
/// read, or do not matter for line tables.
fn apply_relocs(obj: &Object, section: usize, buf: &mut [u8], bases: &[u64]) {
    for r in obj.relocs(section) {
        let r = RelocEntry {
            offset: r.offset(),
            r_type: r.r_type(),
            sym: r.sym(),
            addend: obj.addend(r),
        };
        let Some((v, width)) = reloc_value(obj, &r, bases) else {
            continue;
        };
        let at = r.offset as usize;
        let Some(dst) = buf.get_mut(at..at.saturating_add(width)) else {
            continue;
        };
        if width == 8 {
            dst.copy_from_slice(&v.to_le_bytes());
        } else {
            dst.copy_from_slice(&(v as u32).to_le_bytes());
        }
    }
}

/// What an absolute relocation of a debug section writes, `S + A` against
/// the bases, and its width in bytes; `None` for the other kinds.
fn reloc_value(obj: &Object, r: &RelocEntry, bases: &[u64]) -> Option<(u64, usize)> {
    let width = match (obj.machine, r.r_type) {
        (Machine::X86_64, R_X86_64_64) | (Machine::Aarch64, R_AARCH64_ABS64) => 8,
        (Machine::X86_64, R_X86_64_32 | R_X86_64_32S) | (Machine::Aarch64, R_AARCH64_ABS32) => 4,
        _ => return None,
    };
    let sym = obj.symbols.get(r.sym)?;
    let s = match sym.section_index() {
        Some(sec) => bases[sec].wrapping_add(sym.value),
        None => sym.value,
    };
    Some((s.wrapping_add(r.addend as u64), width))
}
