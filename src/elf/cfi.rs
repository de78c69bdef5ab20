//! DWARF call frame information (`.eh_frame`, `.debug_frame`): the
//! compiler's own statement of where the CFA and the return address are at
//! each address. Read with gimli; in a relocatable object the functions an
//! FDE covers are named by the relocation at its `initial_location`, so the
//! rows come out as section offsets of the code they describe.

use super::{Object, Place};
use gimli::{
    BaseAddresses, CfaRule, CieOrFde, DebugFrame, EhFrame, EndianSlice, LittleEndian, RegisterRule,
    UnwindContext, UnwindSection,
};

/// A register rule as far as the comparison needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// No rule: the register holds its value from the caller, or is lost.
    Undefined,
    SameValue,
    /// Saved at CFA + n.
    Offset(i64),
    /// Anything else (another register, an expression).
    Other,
}

/// One row: from `start` up to `end` (section offsets of the code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CfiRow {
    pub start: u64,
    pub end: u64,
    /// The CFA as (DWARF register, offset); `None` for an expression.
    pub cfa: Option<(u16, i64)>,
    /// The return address column's rule.
    pub ra: Rule,
    /// The frame pointer's rule (x86 rbp, arm64 x29).
    pub fp: Rule,
}

/// The CFI rows of an object per code section, sorted.
#[derive(Debug, Clone, Default)]
pub struct CfiTables {
    pub rows: Vec<Vec<CfiRow>>,
    pub fdes: usize,
    /// Which section they came from (`.eh_frame` or `.debug_frame`).
    pub source: Option<String>,
    /// FDEs or sections that could not be read, with why.
    pub errors: Vec<String>,
}

impl CfiTables {
    /// The row holding at a place.
    pub fn at(&self, section: usize, offset: u64) -> Option<&CfiRow> {
        let rows = self.rows.get(section)?;
        let i = rows.partition_point(|r| r.start <= offset);
        rows.get(i.checked_sub(1)?).filter(|r| offset < r.end)
    }
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(Vec::is_empty)
    }
}

fn rule<T: gimli::ReaderOffset>(r: Option<RegisterRule<T>>) -> Rule {
    match r {
        None | Some(RegisterRule::Undefined) => Rule::Undefined,
        Some(RegisterRule::SameValue) => Rule::SameValue,
        Some(RegisterRule::Offset(n)) => Rule::Offset(n),
        Some(_) => Rule::Other,
    }
}

impl Object<'_> {
    /// The object's DWARF CFI: `.eh_frame` when it has one, else
    /// `.debug_frame`. `ra`/`fp` are the DWARF numbers of the return
    /// address column and the frame pointer.
    pub fn cfi_tables(&self, ra: u16, fp: u16) -> CfiTables {
        let mut t = CfiTables {
            rows: vec![Vec::new(); self.sections.len()],
            ..Default::default()
        };
        let eh = self.sections_named(".eh_frame").first().copied();
        let dbg = [".debug_frame", ".zdebug_frame"]
            .iter()
            .find_map(|n| self.sections_named(n).first().copied());
        let Some(sec) = eh.or(dbg) else {
            return t;
        };
        t.source = Some(self.section_name(sec).to_string());
        // Offsets inside the section (the CIE pointers of .debug_frame)
        // are relocated against the section itself; relocations apply to
        // the uncompressed bytes.
        let mut data = match super::compressed::contents(self, sec) {
            Ok(d) => d.into_owned(),
            Err(e) => {
                t.errors.push(format!("{}: {e}", self.section_name(sec)));
                return t;
            }
        };
        for r in self.relocs(sec) {
            if let Place::Local { section, offset } = self.resolve(r.sym, r.addend)
                && section == sec
            {
                let at = r.offset as usize;
                if let Some(b) = data.get_mut(at..at + 4) {
                    b.copy_from_slice(&(offset as u32).to_le_bytes());
                }
            }
        }
        // pcrel pointers are decoded against the section's own address (0):
        // the value is discarded for the relocation's place anyway.
        let bases = BaseAddresses::default().set_eh_frame(0).set_text(0);
        let slice = EndianSlice::new(&data, LittleEndian);
        // arm64's DW_CFA_AARCH64_negate_ra_state (pointer authentication).
        let vendor = match self.machine {
            super::Machine::Aarch64 => gimli::Vendor::AArch64,
            super::Machine::X86_64 => gimli::Vendor::Default,
        };
        let result = if eh.is_some() {
            let mut s = EhFrame::new(&data, LittleEndian);
            s.set_address_size(8);
            s.set_vendor(vendor);
            self.read_fdes(&s, &bases, sec, slice, ra, fp, &mut t)
        } else {
            let mut s = DebugFrame::new(&data, LittleEndian);
            s.set_address_size(8);
            s.set_vendor(vendor);
            self.read_fdes(&s, &bases, sec, slice, ra, fp, &mut t)
        };
        if let Err(e) = result {
            t.errors.push(format!("{}: {e}", self.section_name(sec)));
        }
        for rows in t.rows.iter_mut() {
            rows.sort_by_key(|r| r.start);
        }
        t
    }

    #[allow(clippy::too_many_arguments)]
    fn read_fdes<'d, S: UnwindSection<EndianSlice<'d, LittleEndian>>>(
        &self,
        s: &S,
        bases: &BaseAddresses,
        sec: usize,
        _slice: EndianSlice<'d, LittleEndian>,
        ra: u16,
        fp: u16,
        t: &mut CfiTables,
    ) -> gimli::Result<()>
    where
        S::Offset: gimli::UnwindOffset<usize>,
    {
        let relocs = self.relocs(sec);
        let mut entries = s.entries(bases);
        let mut ctx = UnwindContext::new();
        while let Some(e) = entries.next()? {
            let CieOrFde::Fde(partial) = e else {
                continue;
            };
            let fde = match partial.parse(S::cie_from_offset) {
                Ok(f) => f,
                Err(e) => {
                    t.errors.push(format!("an FDE: {e}"));
                    continue;
                }
            };
            // initial_location follows the length and the CIE pointer.
            let field = fde.offset() as u64 + 8;
            let Some(place) = relocs
                .iter()
                .find(|r| r.offset == field)
                .map(|r| self.resolve(r.sym, r.addend))
            else {
                t.errors.push(format!(
                    "FDE at {:#x}: no relocation names its code",
                    fde.offset()
                ));
                continue;
            };
            let Place::Local { section, offset } = place else {
                continue;
            };
            t.fdes += 1;
            let base = fde.initial_address();
            let mut rows = fde.rows(s, bases, &mut ctx)?;
            while let Some(row) = rows.next_row()? {
                let cfa = match row.cfa() {
                    CfaRule::RegisterAndOffset { register, offset } => Some((register.0, *offset)),
                    CfaRule::Expression(_) => None,
                };
                t.rows[section].push(CfiRow {
                    start: offset + (row.start_address() - base),
                    end: offset + (row.end_address() - base),
                    cfa,
                    ra: rule(row.register(gimli::Register(ra))),
                    fp: rule(row.register(gimli::Register(fp))),
                });
            }
        }
        Ok(())
    }
}
