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
    /// Bytes of arguments pushed for a call here (`DW_CFA_GNU_args_size`):
    /// the unwinder pops them before entering this frame's landing pad.
    pub args_size: u64,
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

/// The exception landing pads of one function (C++ `catch`, cleanups of
/// `-fexceptions` C code): the `.gcc_except_table` entry (LSDA) its
/// `.eh_frame` FDE names. Per call-site range, (start, length, landing
/// pad), offsets from the function's `start`; a call in the range that
/// throws continues at the landing pad, entered by the unwinder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LandingPads {
    pub section: usize,
    pub start: u64,
    pub sites: Vec<(u64, u64, u64)>,
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
            if let Place::Local { section, offset } = self.resolve(r.sym(), self.addend(r))
                && section == sec
            {
                let at = r.offset() as usize;
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

    /// The landing pads the object's `.eh_frame` names through LSDA
    /// pointers into `.gcc_except_table` (empty without either). An LSDA
    /// this reader does not follow (an LPStart of its own, a call-site
    /// encoding other than ULEB128 or 4-byte data, a pointer that is not
    /// PC-relative) gives no entry.
    pub fn landing_pads(&self) -> Vec<LandingPads> {
        let mut out = Vec::new();
        // The kernel has no `.eh_frame`: its sections' names are not read
        // (a ThinLTO vmlinux.o's 284,616: 2.5 ms).
        let Some(&sec) = self.sections_named(".eh_frame").first() else {
            return out;
        };
        let has_lsda = self
            .sections
            .iter()
            .any(|s| s.name.starts_with(".gcc_except_table"));
        if !has_lsda {
            return out;
        }
        let data = self.section_data(sec);
        let at = |field: u64| {
            self.relocs_in(sec, field, field + 1)
                .first()
                .map(|r| self.resolve(r.sym(), self.addend(r)))
        };
        let bases = BaseAddresses::default().set_eh_frame(0).set_text(0);
        let mut s = EhFrame::new(data, LittleEndian);
        s.set_address_size(8);
        let mut entries = s.entries(&bases);
        while let Ok(Some(e)) = entries.next() {
            let CieOrFde::Fde(partial) = e else {
                continue;
            };
            let Ok(fde) = partial.parse(EhFrame::cie_from_offset) else {
                continue;
            };
            // With RELA the pointer field holds 0: a PC-relative pointer
            // decodes to the field's own offset, where its relocation is.
            let Some(gimli::Pointer::Direct(field)) = fde.lsda() else {
                continue;
            };
            let (
                Some(Place::Local { section, offset }),
                Some(Place::Local {
                    section: t,
                    offset: o,
                }),
            ) = (at(fde.offset() as u64 + 8), at(field))
            else {
                continue;
            };
            if let Some(sites) = lsda_sites(self.section_data(t), o as usize) {
                out.push(LandingPads {
                    section,
                    start: offset,
                    sites,
                });
            }
        }
        out
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
            let Some(place) = self
                .relocs_in(sec, field, field + 1)
                .first()
                .map(|r| self.resolve(r.sym(), self.addend(r)))
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
                // Rows a damaged FDE puts before its start or past the
                // address space (found by fuzzing) are an error, not a wrap.
                let place = |a: u64| a.checked_sub(base).and_then(|d| offset.checked_add(d));
                let (Some(start), Some(end)) =
                    (place(row.start_address()), place(row.end_address()))
                else {
                    t.errors.push(format!(
                        "FDE at {:#x}: a row outside its code",
                        fde.offset()
                    ));
                    break;
                };
                let cfa = match row.cfa() {
                    CfaRule::RegisterAndOffset { register, offset } => Some((register.0, *offset)),
                    CfaRule::Expression(_) => None,
                };
                t.rows[section].push(CfiRow {
                    start,
                    end,
                    cfa,
                    ra: rule(row.register(gimli::Register(ra))),
                    fp: rule(row.register(gimli::Register(fp))),
                    args_size: row.saved_args_size(),
                });
            }
        }
        Ok(())
    }
}

/// The call-site table of the LSDA at `p`: (start, length, landing pad)
/// of the entries with a landing pad, relative to the function's start.
fn lsda_sites(d: &[u8], mut p: usize) -> Option<Vec<(u64, u64, u64)>> {
    const OMIT: u8 = 0xff;
    let byte = |p: &mut usize| -> Option<u8> {
        let b = *d.get(*p)?;
        *p += 1;
        Some(b)
    };
    let uleb = |p: &mut usize| -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = byte(p)?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    };
    if byte(&mut p)? != OMIT {
        return None; // an LPStart of its own
    }
    if byte(&mut p)? != OMIT {
        uleb(&mut p)?; // the type table's offset
    }
    let enc = byte(&mut p)?;
    let len = uleb(&mut p)? as usize;
    let end = p.checked_add(len).filter(|&e| e <= d.len())?;
    let value = |p: &mut usize| -> Option<u64> {
        match enc {
            0x01 => uleb(p),
            // udata4, sdata4
            0x03 | 0x0b => {
                let v = u32::from_le_bytes(d.get(*p..*p + 4)?.try_into().ok()?);
                *p += 4;
                Some(u64::from(v))
            }
            _ => None,
        }
    };
    let mut sites = Vec::new();
    while p < end {
        let start = value(&mut p)?;
        let len = value(&mut p)?;
        let pad = value(&mut p)?;
        uleb(&mut p)?; // the action
        if pad != 0 {
            sites.push((start, len, pad));
        }
    }
    Some(sites)
}
