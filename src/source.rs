//! Mapping (section, offset) to source lines through DWARF `.debug_line`.
//!
//! A relocatable object has no addresses yet: in a `-ffunction-sections`
//! object every function's section starts at 0 and the line table's
//! `DW_LNE_set_address` operands are 0 plus a relocation against the
//! section. Read plainly, every function would claim address 0. So each
//! allocated section gets a synthetic base address, and gimli reads the
//! debug sections with their absolute relocations applied against those
//! bases (in place, or copied when `SHF_COMPRESSED` or `.zdebug_*`:
//! [`with_dwarf`]). Inlined code maps to the header it came from: the line
//! table row names that file.

use crate::checks::{Finding, SourceLoc};
use crate::elf::Object;
use crate::elf::dwarf::{
    Relocated, info_read, read_behind, relocation_bases, synthetic_bases, with_dwarf,
};
use gimli::{Reader, SectionId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Fill `Finding::source` where the object has line information. Reads the
/// DWARF only when there are findings.
pub fn annotate(obj: &Object, findings: &mut [Finding]) {
    if findings.is_empty() {
        return;
    }
    let places: Vec<(usize, u64)> = findings
        .iter()
        .map(|f| (f.section_index, f.offset))
        .collect();
    let Ok(map) = LineMap::covering(obj, &places) else {
        return;
    };
    if map.is_empty() {
        return;
    }
    for f in findings.iter_mut() {
        f.source = map.lookup(f.section_index, f.offset);
    }
}

/// The source position of one place in an object, if its DWARF says.
/// Builds the line map each time: use [`LineMap`] for many lookups.
pub fn locate(obj: &Object, section: usize, offset: u64) -> Option<SourceLoc> {
    LineMap::covering(obj, &[(section, offset)])
        .ok()?
        .lookup(section, offset)
}

/// Where a mapped source file is on disk: as recorded (absolute, or relative
/// to the working directory), else relative to the object's folder (objects
/// built with `-fdebug-prefix-map=$PWD=.` record paths relative to where the
/// compiler ran, usually beside the object). `object_file` may name an
/// archive member as `lib.a(member.o)`.
pub fn find_on_disk(object_file: &str, source_file: &str) -> Option<PathBuf> {
    let src = Path::new(source_file);
    if src.is_file() {
        return Some(src.to_path_buf());
    }
    if src.is_absolute() {
        return None;
    }
    let obj = match object_file.strip_suffix(')').and_then(|s| s.rfind('(')) {
        Some(i) => &object_file[..i],
        None => object_file,
    };
    let p = Path::new(obj).parent()?.join(src);
    p.is_file().then_some(p)
}

/// A row of a line table; `file` is the program's file index until its
/// sequence is kept, then an index into [`LineMap::files`].
#[derive(Debug, Clone, Copy)]
struct Row {
    address: u64,
    file: u64,
    line: u32,
    column: u32,
}

#[derive(Debug)]
struct Sequence {
    start: u64,
    end: u64,
    rows: Vec<Row>,
}

/// The line table of one object, addressed by (section, offset).
#[derive(Debug, Default)]
pub struct LineMap {
    /// Synthetic address of each section (0 for non-allocated ones).
    base: Vec<u64>,
    files: Vec<String>,
    /// Sorted by start, not overlapping.
    sequences: Vec<Sequence>,
}

/// The DWARF sections gimli needs for line tables and unit roots.
const NEEDED: [SectionId; 7] = [
    SectionId::DebugAbbrev,
    SectionId::DebugAddr,
    SectionId::DebugInfo,
    SectionId::DebugLine,
    SectionId::DebugLineStr,
    SectionId::DebugStr,
    SectionId::DebugStrOffsets,
];

impl LineMap {
    /// Read the object's line tables. An object without `.debug_line` gives
    /// an empty map; malformed DWARF gives an error.
    pub fn new(obj: &Object) -> Result<LineMap, String> {
        LineMap::build(obj, None)
    }

    /// The line tables' sequences that hold one of `places` (section,
    /// offset): what a few findings need of a kernel's (vmlinux.o with
    /// debug info: 24 MB of line programs), the rest decoded and dropped.
    pub fn covering(obj: &Object, places: &[(usize, u64)]) -> Result<LineMap, String> {
        let base = synthetic_bases(obj);
        let mut wanted: Vec<u64> = places
            .iter()
            .filter_map(|&(s, off)| base.get(s).filter(|&&b| b != 0)?.checked_add(off))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        LineMap::build(obj, Some(&wanted))
    }

    fn build(obj: &Object, wanted: Option<&[u64]>) -> Result<LineMap, String> {
        let base = synthetic_bases(obj);
        let mut map = LineMap {
            base,
            ..LineMap::default()
        };
        if obj.sections_named(".debug_line").is_empty()
            && obj.sections_named(".zdebug_line").is_empty()
            || wanted.is_some_and(<[u64]>::is_empty)
        {
            return Ok(map);
        }
        let bases = relocation_bases(obj, &map.base, &NEEDED);
        let read = info_read(obj);
        with_dwarf(obj, &NEEDED, &bases, |dwarf| {
            map.read_units(dwarf, wanted, &read)
        })
        .ok_or_else(|| "DWARF sections".to_string())?
        .map_err(|e| format!("DWARF: {e}"))?;
        map.sequences.sort_by_key(|s| (s.start, s.end));
        Ok(map)
    }

    pub fn is_empty(&self) -> bool {
        self.sequences.is_empty()
    }

    /// The source position of `offset` in `section`. A row with line 0 (code
    /// the compiler attributes to no line) takes the nearest line before it
    /// in the same sequence.
    pub fn lookup(&self, section: usize, offset: u64) -> Option<SourceLoc> {
        let base = *self.base.get(section)?;
        if base == 0 {
            return None;
        }
        let addr = base.checked_add(offset)?;
        let i = self.sequences.partition_point(|s| s.start <= addr);
        let seq = &self.sequences[i.checked_sub(1)?];
        if addr >= seq.end {
            return None;
        }
        let k = seq.rows.partition_point(|r| r.address <= addr);
        let row = seq.rows[..k].iter().rev().find(|r| r.line != 0)?;
        Some(SourceLoc {
            file: self.files[row.file as usize].clone(),
            line: row.line,
            column: row.column,
        })
    }

    fn read_units(
        &mut self,
        dwarf: &gimli::Dwarf<Relocated>,
        wanted: Option<&[u64]>,
        read: &dyn Fn(usize, usize),
    ) -> gimli::Result<()> {
        let mut interned: HashMap<String, u32> = HashMap::new();
        let mut units = dwarf.units();
        // Units' bytes given back behind the walk (see `info_read`).
        let mut behind = 0;
        while let Some(header) = units.next()? {
            read_behind(&header, &mut behind, read);
            let unit = dwarf.unit(header)?;
            let Some(program) = unit.line_program.clone() else {
                continue;
            };
            let comp_dir = unit
                .comp_dir
                .as_ref()
                .map(|d| d.to_string_lossy().map(|s| s.into_owned()))
                .transpose()?
                .unwrap_or_default();
            // file index in this program -> index in self.files
            let mut file_ids: HashMap<u64, u32> = HashMap::new();
            let mut rows = program.rows();
            let mut current: Vec<Row> = Vec::new();
            while let Some((header, row)) = rows.next_row()? {
                if row.end_sequence() {
                    if let Some(first) = current.first() {
                        let start = first.address;
                        let end = row.address();
                        let asked = wanted.is_none_or(|w| {
                            w.get(w.partition_point(|&a| a < start))
                                .is_some_and(|&a| a < end)
                        });
                        // Sequences at address 0 belong to no section we based
                        // (an unrelocated or discarded one): drop them.
                        if start != 0 && end > start && asked {
                            for r in &mut current {
                                r.file = match file_ids.get(&r.file) {
                                    Some(&f) => u64::from(f),
                                    None => {
                                        let path =
                                            file_path(dwarf, &unit, header, r.file, &comp_dir)?;
                                        let next = self.files.len() as u32;
                                        let f = *interned.entry(path.clone()).or_insert(next);
                                        if f == next {
                                            self.files.push(path);
                                        }
                                        file_ids.insert(r.file, f);
                                        u64::from(f)
                                    }
                                };
                            }
                            self.sequences.push(Sequence {
                                start,
                                end,
                                rows: std::mem::take(&mut current),
                            });
                        }
                    }
                    current.clear();
                    continue;
                }
                let column = match row.column() {
                    gimli::ColumnType::LeftEdge => 0,
                    gimli::ColumnType::Column(c) => u32::try_from(c.get()).unwrap_or(0),
                };
                current.push(Row {
                    address: row.address(),
                    file: row.file_index(),
                    line: row
                        .line()
                        .map_or(0, |l| u32::try_from(l.get()).unwrap_or(0)),
                    column,
                });
            }
        }
        Ok(())
    }
}

/// A file of a line program as a path: the compilation directory, the
/// file's directory, its name (each replacing the others when absolute),
/// with `.` components dropped.
fn file_path(
    dwarf: &gimli::Dwarf<Relocated>,
    unit: &gimli::Unit<Relocated>,
    header: &gimli::LineProgramHeader<Relocated>,
    index: u64,
    comp_dir: &str,
) -> gimli::Result<String> {
    let Some(file) = header.file(index) else {
        return Ok(format!("<file {index}>"));
    };
    let mut path = PathBuf::from(comp_dir);
    // Directory 0 is the compilation directory (DWARF 5 repeats it there).
    if file.directory_index() != 0
        && let Some(dir) = file.directory(header)
    {
        path.push(dwarf.attr_string(unit, dir)?.to_string_lossy()?.as_ref());
    }
    path.push(
        dwarf
            .attr_string(unit, file.path_name())?
            .to_string_lossy()?
            .as_ref(),
    );
    let clean: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    Ok(clean.to_string_lossy().into_owned())
}
