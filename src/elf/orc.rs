//! The ORC unwind tables objtool writes into x86 objects: `.orc_unwind_ip`
//! (a 4-byte PC-relative reference per row) and `.orc_unwind` (the rows, 6
//! bytes each, in the same order), as in arch/x86/include/asm/orc_types.h.

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

    fn reg(r: u8, off: i16) -> String {
        let name = match r {
            ORC_REG_PREV_SP => "prevsp",
            ORC_REG_DX => "dx",
            ORC_REG_DI => "di",
            ORC_REG_BP => "bp",
            ORC_REG_SP => "sp",
            ORC_REG_R10 => "r10",
            ORC_REG_R13 => "r13",
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
    /// The ORC tables of this object (empty when it has none).
    pub fn orc_table(&self) -> OrcTable {
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
        let relocs = self.relocs(ip);
        let mut r = 0;
        for k in 0..n {
            while r < relocs.len() && relocs[r].offset() < k * 4 {
                r += 1;
            }
            let Some(rel) = relocs.get(r).filter(|x| x.offset() == k * 4) else {
                t.unresolved += 1;
                continue;
            };
            let e = OrcEntry::parse(&data[(k * OrcEntry::SIZE) as usize..][..6]);
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
