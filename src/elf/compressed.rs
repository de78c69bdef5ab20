//! Compressed sections: ELF `SHF_COMPRESSED` (zlib or zstd, behind an
//! `Elf64_Chdr`) and the older GNU `.zdebug_*` form (`ZLIB` + big-endian size).
//! Relocations of such a section apply to its uncompressed bytes.

use super::{Object, Section};
use std::borrow::Cow;
use std::io::Read;

pub const SHF_COMPRESSED: u64 = 0x800;
const ELFCOMPRESS_ZLIB: u32 = 1;
const ELFCOMPRESS_ZSTD: u32 = 2;
/// No section we read uncompresses to more than this (a corrupt header must
/// not make us allocate without bound).
const MAX_UNCOMPRESSED: u64 = 1 << 30;
/// Nor to more than this many times its compressed bytes (DWARF compresses
/// 3-10 times; zlib cannot exceed about 1032, zstd can: bombs).
const MAX_RATIO: u64 = 128;

/// What all compressed sections of an object together may uncompress to:
/// several sections can share one payload.
pub fn budget(data: &[u8]) -> u64 {
    (data.len() as u64)
        .saturating_mul(32)
        .saturating_add(64 << 20)
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn is_zdebug(s: &Section, d: &[u8]) -> bool {
    s.name.starts_with(".zdebug") && d.starts_with(b"ZLIB")
}

/// Size of a section's contents as relocations see them (uncompressed).
pub fn logical_size(data: &[u8], s: &Section) -> u64 {
    let start = s.offset as usize;
    let Some(d) = start
        .checked_add(s.size as usize)
        .and_then(|end| data.get(start..end))
    else {
        return s.size;
    };
    if s.flags & SHF_COMPRESSED != 0 {
        le64(d, 8).unwrap_or(s.size)
    } else if is_zdebug(s, d) && d.len() >= 12 {
        u64::from_be_bytes(d[4..12].try_into().unwrap())
    } else {
        s.size
    }
}

/// Whether a section is stored compressed.
pub fn is_compressed(obj: &Object, index: usize) -> bool {
    let s = &obj.sections[index];
    s.flags & SHF_COMPRESSED != 0 || is_zdebug(s, obj.section_data(index))
}

/// The uncompressed contents of a section (borrowed when it is not compressed).
pub fn contents<'a>(obj: &Object<'a>, index: usize) -> Result<Cow<'a, [u8]>, String> {
    let s = &obj.sections[index];
    let d = obj.section_data(index);
    let (kind, size, payload) = if s.flags & SHF_COMPRESSED != 0 {
        match (le32(d, 0), le64(d, 8)) {
            (Some(t), Some(n)) if d.len() >= 24 => (t, n, &d[24..]),
            _ => return Err(format!("{}: truncated compression header", s.name)),
        }
    } else if is_zdebug(s, d) && d.len() >= 12 {
        let n = u64::from_be_bytes(d[4..12].try_into().unwrap());
        (ELFCOMPRESS_ZLIB, n, &d[12..])
    } else {
        return Ok(Cow::Borrowed(d));
    };
    let ratio_limit = (payload.len() as u64)
        .saturating_mul(MAX_RATIO)
        .max(1 << 16);
    if size > ratio_limit {
        return Err(format!(
            "{}: claims {size:#x} uncompressed bytes from {:#x} compressed (more than {MAX_RATIO} to 1)",
            s.name,
            payload.len()
        ));
    }
    let left = &obj.inflate_budget;
    if left
        .fetch_update(
            std::sync::atomic::Ordering::Relaxed,
            std::sync::atomic::Ordering::Relaxed,
            |b| b.checked_sub(size),
        )
        .is_err()
    {
        return Err(format!(
            "{}: its compressed sections together uncompress to more than {:#x} bytes (32 times the file)",
            s.name,
            budget(obj.data)
        ));
    }
    if size > MAX_UNCOMPRESSED {
        return Err(format!(
            "{}: claims {size:#x} uncompressed bytes (limit {MAX_UNCOMPRESSED:#x})",
            s.name
        ));
    }
    let mut out = Vec::with_capacity(size.min(64 << 20) as usize);
    let read = match kind {
        ELFCOMPRESS_ZLIB => flate2::read::ZlibDecoder::new(payload)
            .take(size)
            .read_to_end(&mut out),
        ELFCOMPRESS_ZSTD => zstd::stream::read::Decoder::new(payload)
            .and_then(|r| r.take(size).read_to_end(&mut out)),
        t => return Err(format!("{}: unknown compression type {t}", s.name)),
    };
    match read {
        Ok(n) if n as u64 == size => Ok(Cow::Owned(out)),
        Ok(n) => Err(format!(
            "{}: uncompresses to {n:#x} bytes, header says {size:#x}",
            s.name
        )),
        Err(e) => Err(format!("{}: {e}", s.name)),
    }
}
