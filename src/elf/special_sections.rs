//! Special sections decoded into plain structs: `.altinstructions` entries,
//! and the tables of references (`__ex_table`, `__jump_table`, `__bug_table`,
//! unwind hints) other special sections hold.
//! Layouts come from `rules/`; this file only knows how to read fields at the
//! offsets a layout names.

use super::{Object, Place};
use serde::Deserialize;

/// The layout of one `struct alt_instr` (`rules/alternatives.toml`).
#[derive(Debug, Clone, Deserialize)]
pub struct AltLayout {
    pub name: String,
    pub size: u64,
    /// Offsets of the two PC-relative words and the other fields in an entry.
    pub orig: u64,
    pub repl: u64,
    pub feature: u64,
    pub orig_len: u64,
    pub repl_len: u64,
    /// A feature bit that marks a callback entry (arm64 `ARM64_CB_BIT`).
    #[serde(default)]
    pub callback_bit: Option<u8>,
    /// Offset of the u16 of flags (x86 `ft_flags >> 16`), where there is one.
    #[serde(default)]
    pub flags: Option<u64>,
}

/// One `.altinstructions` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AltEntry {
    /// The entry: its `.altinstructions` section and offset there.
    pub at: (usize, u64),
    /// Where the original instructions are.
    pub orig: Place,
    /// Where the replacement is (a callback function for callback entries).
    pub repl: Place,
    /// CPU feature (x86 cpuid bit, arm64 cpucap), flags masked off.
    pub feature: u16,
    /// The entry names a callback that patches the original, no replacement.
    pub callback: bool,
    /// The entry's flags (0 when the layout has none).
    pub flags: u16,
    pub orig_len: u8,
    pub repl_len: u8,
}

/// The decoded `.altinstructions` of an object.
#[derive(Debug, Clone, Default)]
pub struct AltInstructions {
    /// Name of the layout that matched, when there were entries.
    pub layout: Option<String>,
    pub entries: Vec<AltEntry>,
    /// Why a present `.altinstructions` could not be read.
    pub error: Option<String>,
}

fn u16_at(d: &[u8], at: u64) -> Option<u16> {
    let at = usize::try_from(at).ok()?;
    d.get(at..at + 2)
        .map(|b| u16::from_le_bytes(b.try_into().unwrap()))
}

impl Object<'_> {
    /// Decode every `.altinstructions` section with the first layout whose
    /// relocation pattern fits: each entry has a relocation at `orig` and at
    /// `repl`, and there are no others.
    pub fn alt_instructions(&self, layouts: &[AltLayout]) -> AltInstructions {
        let mut out = AltInstructions::default();
        for &sec in self.sections_named(".altinstructions") {
            let size = self.sections[sec].size;
            let relocs = self.relocs(sec);
            if size == 0 {
                continue;
            }
            let fits = |l: &AltLayout| {
                l.size > 0
                    && size.is_multiple_of(l.size)
                    && relocs.len() as u64 == 2 * (size / l.size)
                    && relocs.chunks(2).enumerate().all(|(k, pair)| {
                        let base = k as u64 * l.size;
                        let mut offs = [pair[0].offset(), pair[1].offset()];
                        offs.sort_unstable();
                        let mut want = [base + l.orig, base + l.repl];
                        want.sort_unstable();
                        offs == want
                    })
            };
            let Some(layout) = layouts.iter().find(|l| fits(l)) else {
                out.error = Some(format!(
                    "{} ({size:#x} bytes, {} relocations) matches no known struct alt_instr layout",
                    self.section_name(sec),
                    relocs.len()
                ));
                continue;
            };
            let data = self.section_data(sec);
            let n = size / layout.size;
            for k in 0..n {
                let base = k * layout.size;
                // `fits` checked that entry k's two relocations are pair k.
                let pair = &relocs[2 * k as usize..2 * k as usize + 2];
                let place = |field: u64| {
                    pair.iter()
                        .find(|r| r.offset() == base + field)
                        .map(|r| self.resolve(r.sym(), self.addend(r)))
                        .unwrap_or(Place::Other)
                };
                let raw = u16_at(data, base + layout.feature).unwrap_or(0);
                let callback = layout.callback_bit.is_some_and(|b| raw & (1 << b) != 0);
                let feature = match layout.callback_bit {
                    Some(b) => raw & !(1 << b),
                    None => raw,
                };
                let byte = |field: u64| {
                    usize::try_from(base + field)
                        .ok()
                        .and_then(|i| data.get(i).copied())
                        .unwrap_or(0)
                };
                out.entries.push(AltEntry {
                    at: (sec, base),
                    orig: place(layout.orig),
                    repl: place(layout.repl),
                    feature,
                    callback,
                    flags: layout
                        .flags
                        .and_then(|f| u16_at(data, base + f))
                        .unwrap_or(0),
                    orig_len: byte(layout.orig_len),
                    repl_len: byte(layout.repl_len),
                });
            }
            out.layout = Some(layout.name.clone());
        }
        out
    }
}

/// One entry of a table of references (`__ex_table`, `__jump_table`,
/// `__bug_table`, `.discard.unwind_hints`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefEntry {
    /// The table section and the entry's offset in it.
    pub section: usize,
    pub base: u64,
    /// Where each reference field points, in the order asked for.
    pub refs: Vec<Place>,
}

/// A table's entries, or why it could not be read.
#[derive(Debug, Clone, Default)]
pub struct RefTable {
    pub entries: Vec<RefEntry>,
    /// Per section named so that did not fit the layout: what was wrong.
    pub errors: Vec<String>,
}

impl Object<'_> {
    /// The entries of every section called `name`, read as arrays of
    /// `size`-byte records whose fields at `refs` are each named by one
    /// relocation (a PC-relative reference: the place is symbol + addend).
    /// With `exact`, a section with relocations anywhere else does not fit.
    pub fn ref_table(&self, name: &str, size: u64, refs: &[u64], exact: bool) -> RefTable {
        let mut out = RefTable::default();
        for &sec in self.sections_named(name) {
            match self.ref_entries(sec, size, refs, exact) {
                Ok(mut e) => out.entries.append(&mut e),
                Err(e) => out.errors.push(format!("{}: {e}", self.section_name(sec))),
            }
        }
        out
    }

    fn ref_entries(
        &self,
        sec: usize,
        size: u64,
        refs: &[u64],
        exact: bool,
    ) -> Result<Vec<RefEntry>, String> {
        let len = self.sections[sec].size;
        if size == 0 || !len.is_multiple_of(size) {
            return Err(format!(
                "{len:#x} bytes is not a whole number of {size}-byte entries"
            ));
        }
        let relocs = self.relocs(sec);
        let n = len / size;
        if exact && relocs.len() as u64 != n * refs.len() as u64 {
            return Err(format!(
                "{} relocations for {n} entries of {} references",
                relocs.len(),
                refs.len()
            ));
        }
        let mut out = Vec::with_capacity(n as usize);
        // Entries and relocations are both in offset order: each entry's
        // search starts where its own relocations do (one search over all of
        // them per field cost vmlinux.o's __bug_table 10 ms).
        let mut first = 0;
        for k in 0..n {
            let base = k * size;
            while first < relocs.len() && relocs[first].offset() < base {
                first += 1;
            }
            let mut places = Vec::with_capacity(refs.len());
            for &field in refs {
                let at = base + field;
                let i = first + relocs[first..].partition_point(|r| r.offset() < at);
                let r = relocs
                    .get(i)
                    .filter(|r| r.offset() == at)
                    .ok_or_else(|| format!("entry {k} has no relocation at {at:#x}"))?;
                places.push(self.resolve(r.sym(), self.addend(r)));
            }
            out.push(RefEntry {
                section: sec,
                base,
                refs: places,
            });
        }
        Ok(out)
    }

    /// Little-endian `u8`/`u16` fields of a table section (0 past its end).
    pub fn table_u8(&self, sec: usize, at: u64) -> u8 {
        let d = self.section_data(sec);
        usize::try_from(at)
            .ok()
            .and_then(|i| d.get(i).copied())
            .unwrap_or(0)
    }
    pub fn table_u16(&self, sec: usize, at: u64) -> u16 {
        u16_at(self.section_data(sec), at).unwrap_or(0)
    }
}
