//! The ORC unwind tables objtool writes into x86 objects: `.orc_unwind_ip`
//! (a 4-byte PC-relative reference per row) and `.orc_unwind` (the rows, 6
//! bytes each, in the same order), as in arch/x86/include/asm/orc_types.h.
//!
//! Two layouts of a row: Linux 6.4 gave `type` three bits (UNDEFINED and
//! END_OF_STACK became types) and a `signal` bit; before it, `type` had two
//! bits (CALL 0, REGS 1, REGS_PARTIAL 2) and an `end` bit, and an undefined
//! row was one with an undefined `sp_reg`. Rows are read into the newer
//! meaning; which layout a table has is told from its rows ([`OrcTable::layout`]).
//!
//! Registers are numbered as Linux 6.4 to 6.12 number them (`ORC_REG_*`,
//! unchanged since 4.14), with AX, which that numbering lacks, as 10. Linux
//! 7.x renumbered them and added AX; an object says which numbering it
//! uses by the hash in `.orc_header` ([`OrcNumbering`]), and its rows are
//! read into this one.

use super::{Object, Place};

/// One ORC row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct OrcEntry {
    pub sp_offset: i16,
    pub bp_offset: i16,
    /// `ORC_REG_*`.
    pub sp_reg: u8,
    pub bp_reg: u8,
    /// `ORC_TYPE_*`.
    pub ty: u8,
    pub signal: bool,
}

pub const ORC_REG_UNDEFINED: u8 = 0;
pub const ORC_REG_PREV_SP: u8 = 1;
pub const ORC_REG_DX: u8 = 2;
pub const ORC_REG_DI: u8 = 3;
pub const ORC_REG_BP: u8 = 4;
pub const ORC_REG_SP: u8 = 5;
pub const ORC_REG_R10: u8 = 6;
pub const ORC_REG_R13: u8 = 7;
pub const ORC_REG_BP_INDIRECT: u8 = 8;
pub const ORC_REG_SP_INDIRECT: u8 = 9;
/// objlint's number for AX (Linux 7.x's `ORC_REG_AX` is 1).
pub const ORC_REG_AX: u8 = 10;

/// The registers by name, as `rules/special.toml` lists a numbering.
const ORC_REG_NAMES: [(&str, u8); 11] = [
    ("undefined", ORC_REG_UNDEFINED),
    ("prev_sp", ORC_REG_PREV_SP),
    ("dx", ORC_REG_DX),
    ("di", ORC_REG_DI),
    ("bp", ORC_REG_BP),
    ("sp", ORC_REG_SP),
    ("r10", ORC_REG_R10),
    ("r13", ORC_REG_R13),
    ("bp_indirect", ORC_REG_BP_INDIRECT),
    ("sp_indirect", ORC_REG_SP_INDIRECT),
    ("ax", ORC_REG_AX),
];

/// An ORC register of objlint's numbering by its name in `orc_types.h`
/// (lower case, without `ORC_REG_`).
pub fn orc_reg_name(r: u8) -> Option<&'static str> {
    ORC_REG_NAMES
        .iter()
        .find(|&&(_, n)| n == r)
        .map(|&(name, _)| name)
}

/// How an object numbers ORC registers (in rows and in unwind hints): its
/// numbers in objlint's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrcNumbering {
    ours: [Option<u8>; 16],
}

impl Default for OrcNumbering {
    /// Linux 6.4 to 6.12's (and every earlier one's since 4.14).
    fn default() -> OrcNumbering {
        let mut ours = [None; 16];
        for r in ORC_REG_UNDEFINED..=ORC_REG_SP_INDIRECT {
            ours[r as usize] = Some(r);
        }
        OrcNumbering { ours }
    }
}

impl OrcNumbering {
    /// From register names by number (`["undefined", "ax", ...]`).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<OrcNumbering, String> {
        if names.len() > 16 {
            return Err(format!("{} registers, ORC has 4 bits", names.len()));
        }
        let mut ours = [None; 16];
        for (raw, name) in names.iter().enumerate() {
            let name = name.as_ref();
            let r = ORC_REG_NAMES
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| format!("{name:?} is no ORC register objlint knows"))?;
            ours[raw] = Some(r.1);
        }
        Ok(OrcNumbering { ours })
    }

    /// A register as the object numbers it, in objlint's numbering.
    pub fn ours(&self, raw: u8) -> Option<u8> {
        self.ours.get(raw as usize).copied().flatten()
    }
}

pub const ORC_TYPE_UNDEFINED: u8 = 0;
pub const ORC_TYPE_END_OF_STACK: u8 = 1;
pub const ORC_TYPE_CALL: u8 = 2;
pub const ORC_TYPE_REGS: u8 = 3;
pub const ORC_TYPE_REGS_PARTIAL: u8 = 4;

impl OrcEntry {
    pub const SIZE: u64 = 6;

    pub fn undefined() -> OrcEntry {
        OrcEntry::default()
    }

    /// A row in the layout of Linux 6.4 and later.
    pub fn parse(b: &[u8]) -> OrcEntry {
        let bits = u16::from_le_bytes([b[4], b[5]]);
        OrcEntry {
            sp_offset: i16::from_le_bytes([b[0], b[1]]),
            bp_offset: i16::from_le_bytes([b[2], b[3]]),
            sp_reg: (bits & 0xf) as u8,
            bp_reg: ((bits >> 4) & 0xf) as u8,
            ty: ((bits >> 8) & 7) as u8,
            signal: (bits >> 11) & 1 != 0,
        }
    }

    /// Whether objtool 6.4 or later could have written these bytes: its
    /// UNDEFINED and END_OF_STACK rows are all zero but the type (it
    /// returns before filling them), its other rows have a CFA register,
    /// and there are five types.
    fn fits_since_6_4(b: &[u8]) -> bool {
        match b[5] & 7 {
            ORC_TYPE_UNDEFINED | ORC_TYPE_END_OF_STACK => b[5] >> 3 == 0 && b[..5] == [0; 5],
            ORC_TYPE_CALL | ORC_TYPE_REGS | ORC_TYPE_REGS_PARTIAL => {
                b[4] & 0xf != ORC_REG_UNDEFINED && b[5] >> 4 == 0
            }
            _ => false,
        }
    }

    /// A row in the layout before Linux 6.4, in the newer meaning: an
    /// undefined CFA register is an UNDEFINED row, or END_OF_STACK with
    /// `end`; REGS and REGS_PARTIAL were signal frames by their type.
    /// `None` where the bytes fit that layout neither (type 3, bits past `end`).
    fn parse_before_6_4(b: &[u8]) -> Option<OrcEntry> {
        let bits = u16::from_le_bytes([b[4], b[5]]);
        let (ty, end) = ((bits >> 8) & 3, (bits >> 10) & 1 != 0);
        if bits >> 11 != 0 || ty == 3 {
            return None;
        }
        let sp_reg = (bits & 0xf) as u8;
        if sp_reg == ORC_REG_UNDEFINED {
            return Some(OrcEntry {
                ty: if end {
                    ORC_TYPE_END_OF_STACK
                } else {
                    ORC_TYPE_UNDEFINED
                },
                ..OrcEntry::default()
            });
        }
        Some(OrcEntry {
            sp_offset: i16::from_le_bytes([b[0], b[1]]),
            bp_offset: i16::from_le_bytes([b[2], b[3]]),
            sp_reg,
            bp_reg: ((bits >> 4) & 0xf) as u8,
            ty: [ORC_TYPE_CALL, ORC_TYPE_REGS, ORC_TYPE_REGS_PARTIAL][ty as usize],
            signal: ty != 0,
        })
    }

    fn reg(r: u8, off: i16) -> String {
        let name = match r {
            ORC_REG_PREV_SP => "prevsp",
            ORC_REG_DX => "dx",
            ORC_REG_DI => "di",
            ORC_REG_BP => "bp",
            ORC_REG_SP => "sp",
            ORC_REG_R10 => "r10",
            ORC_REG_R13 => "r13",
            ORC_REG_AX => "ax",
            ORC_REG_BP_INDIRECT => return format!("(bp{off:+})"),
            ORC_REG_SP_INDIRECT => return format!("(sp){off:+}"),
            ORC_REG_UNDEFINED => return "(und)".to_string(),
            _ => "?",
        };
        format!("{name}{off:+}")
    }

    /// objtool's `--dump=orc` text: `type:call sp:sp+8 bp:(und) signal:0`.
    pub fn text(&self) -> String {
        let ty = match self.ty {
            ORC_TYPE_UNDEFINED => "(und)",
            ORC_TYPE_END_OF_STACK => "end",
            ORC_TYPE_CALL => "call",
            ORC_TYPE_REGS => "regs",
            ORC_TYPE_REGS_PARTIAL => "regs (partial)",
            _ => "?",
        };
        format!(
            "type:{ty} sp:{} bp:{} signal:{}",
            Self::reg(self.sp_reg, self.sp_offset),
            Self::reg(self.bp_reg, self.bp_offset),
            u8::from(self.signal)
        )
    }
}

/// The ORC rows of an object, per code section, sorted by offset: a row
/// holds from its offset up to the next row's.
#[derive(Debug, Clone, Default)]
pub struct OrcTable {
    pub rows: Vec<Vec<(u64, OrcEntry)>>,
    /// Rows whose reference could not be resolved to a section offset.
    pub unresolved: usize,
    /// Why the tables could not be read, when they could not.
    pub error: Option<String>,
    pub present: bool,
    /// The rows' layout: "6.4" (Linux 6.4 and later) or "before 6.4".
    pub layout: &'static str,
}

impl OrcTable {
    /// The row holding at a place, if any.
    pub fn at(&self, section: usize, offset: u64) -> Option<&(u64, OrcEntry)> {
        let rows = self.rows.get(section)?;
        let i = rows.partition_point(|r| r.0 <= offset);
        rows.get(i.checked_sub(1)?)
    }
    pub fn len(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Object<'_> {
    /// `.orc_header`'s bytes: the hash of the orc_types.h the object was
    /// built with (Linux 6.4 and later, in objects that carry ORC).
    pub fn orc_header(&self) -> Option<&[u8]> {
        let &s = self.sections_named(".orc_header").first()?;
        Some(self.section_data(s))
    }

    /// The ORC tables of this object (empty when it has none), registers
    /// read with the object's numbering into objlint's; `Err` says why
    /// that numbering is not known, and the tables are not read.
    pub fn orc_table(&self, numbering: Result<&OrcNumbering, &str>) -> OrcTable {
        let mut t = OrcTable {
            rows: vec![Vec::new(); self.sections.len()],
            ..Default::default()
        };
        let (Some(&ip), Some(&unw)) = (
            self.sections_named(".orc_unwind_ip").first(),
            self.sections_named(".orc_unwind").first(),
        ) else {
            return t;
        };
        t.present = true;
        let numbering = match numbering {
            Ok(n) => n,
            Err(e) => {
                t.error = Some(e.to_string());
                return t;
            }
        };
        let n = self.sections[ip].size / 4;
        let data = self.section_data(unw);
        if self.sections[unw].size != n * OrcEntry::SIZE || data.len() as u64 != n * OrcEntry::SIZE
        {
            t.error = Some(format!(
                ".orc_unwind has {} bytes for {n} rows of .orc_unwind_ip",
                self.sections[unw].size
            ));
            return t;
        }
        let raw = || data.chunks_exact(OrcEntry::SIZE as usize);
        let old = if raw().all(OrcEntry::fits_since_6_4) {
            t.layout = "6.4";
            false
        } else if raw().all(|b| OrcEntry::parse_before_6_4(b).is_some()) {
            t.layout = "before 6.4";
            true
        } else {
            t.error = Some(
                ".orc_unwind fits neither ORC row layout (Linux 6.4 and later, or before)".into(),
            );
            return t;
        };
        let relocs = self.relocs(ip);
        let mut r = 0;
        for (k, b) in (0..n).zip(raw()) {
            while r < relocs.len() && relocs[r].offset() < k * 4 {
                r += 1;
            }
            let Some(rel) = relocs.get(r).filter(|x| x.offset() == k * 4) else {
                t.unresolved += 1;
                continue;
            };
            let mut e = match old {
                false => OrcEntry::parse(b),
                true => OrcEntry::parse_before_6_4(b).unwrap_or_default(),
            };
            match (numbering.ours(e.sp_reg), numbering.ours(e.bp_reg)) {
                (Some(sp), Some(bp)) => (e.sp_reg, e.bp_reg) = (sp, bp),
                _ => {
                    t.error = Some(format!(
                        ".orc_unwind row {k} names a register its numbering has not (sp_reg {}, bp_reg {})",
                        e.sp_reg, e.bp_reg
                    ));
                    return t;
                }
            }
            match self.resolve(rel.sym(), self.addend(rel)) {
                Place::Local { section, offset } => t.rows[section].push((offset, e)),
                _ => t.unresolved += 1,
            }
        }
        for rows in t.rows.iter_mut() {
            rows.sort_by_key(|r| r.0);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sp_offset, bp_offset, then the bitfield bytes.
    fn row(sp_offset: i16, bp_offset: i16, b4: u8, b5: u8) -> [u8; 6] {
        let (s, b) = (sp_offset.to_le_bytes(), bp_offset.to_le_bytes());
        [s[0], s[1], b[0], b[1], b4, b5]
    }

    #[test]
    fn rows_of_both_layouts() {
        // `type:call sp:sp+8`, as objtool 6.4+ writes it (type 2)...
        let call = row(8, 0, ORC_REG_SP, 2);
        assert!(OrcEntry::fits_since_6_4(&call));
        assert_eq!(OrcEntry::parse(&call).ty, ORC_TYPE_CALL);
        // ...and as objtool 6.1 does (CALL is type 0): UNDEFINED with a
        // register, which 6.4+ never writes.
        let old_call = row(8, 0, ORC_REG_SP, 0);
        assert!(!OrcEntry::fits_since_6_4(&old_call));
        assert_eq!(
            OrcEntry::parse_before_6_4(&old_call),
            Some(OrcEntry {
                sp_offset: 8,
                sp_reg: ORC_REG_SP,
                ty: ORC_TYPE_CALL,
                ..OrcEntry::default()
            })
        );
        // Before 6.4 an undefined CFA register with `end` is the end of the
        // stack (6.4+ would read type 4 without a CFA register).
        let old_end = row(0, 0, ORC_REG_UNDEFINED, 1 << 2);
        assert!(!OrcEntry::fits_since_6_4(&old_end));
        assert_eq!(
            OrcEntry::parse_before_6_4(&old_end).map(|e| e.ty),
            Some(ORC_TYPE_END_OF_STACK)
        );
        assert_eq!(
            OrcEntry::parse_before_6_4(&row(0, 0, 0, 0)).map(|e| e.ty),
            Some(ORC_TYPE_UNDEFINED)
        );
        // REGS (1) and REGS_PARTIAL (2) were signal frames by their type.
        let old_regs = row(160, 0, ORC_REG_SP, 1);
        let e = OrcEntry::parse_before_6_4(&old_regs).unwrap();
        assert_eq!((e.ty, e.signal), (ORC_TYPE_REGS, true));
        // Bits past `end`, or type 3, fit the old layout not.
        assert_eq!(
            OrcEntry::parse_before_6_4(&row(8, 0, ORC_REG_SP, 1 << 3)),
            None
        );
        assert_eq!(OrcEntry::parse_before_6_4(&row(8, 0, ORC_REG_SP, 3)), None);
        assert!(!OrcEntry::fits_since_6_4(&row(8, 0, ORC_REG_SP, 1 << 3)));
    }
}
