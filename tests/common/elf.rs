//! Reading and editing fields of ELF64 little-endian objects, for tests that
//! make broken or altered objects from committed fixtures.
#![allow(dead_code)]

pub fn rd(b: &[u8], at: usize, n: usize) -> u64 {
    let mut v = [0u8; 8];
    v[..n].copy_from_slice(&b[at..at + n]);
    u64::from_le_bytes(v)
}

pub fn wr(b: &mut [u8], at: usize, n: usize, v: u64) {
    b[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

pub fn rdg(b: &[u8], at: usize, n: usize) -> Option<u64> {
    b.get(at..at.checked_add(n)?).map(|_| rd(b, at, n))
}

/// Section headers of an ELF64 LE object: (name, header offset, sh_offset,
/// sh_size). Tolerant: mutated headers give fewer (or no) sections.
pub fn sections(b: &[u8]) -> Vec<(String, usize, usize, usize)> {
    let mut out = Vec::new();
    let (Some(shoff), Some(shnum), Some(shstrndx)) =
        (rdg(b, 0x28, 8), rdg(b, 0x3c, 2), rdg(b, 0x3e, 2))
    else {
        return out;
    };
    let hdr = |i: u64| shoff.checked_add(64 * i).map(|h| h as usize);
    let strtab = hdr(shstrndx).and_then(|h| rdg(b, h.checked_add(0x18)?, 8));
    for i in 0..shnum.min(4096) {
        let Some(h) = hdr(i) else { break };
        let (Some(name), Some(off), Some(size)) = (
            rdg(b, h, 4),
            rdg(b, h.wrapping_add(0x18), 8),
            rdg(b, h.wrapping_add(0x20), 8),
        ) else {
            break;
        };
        let name = strtab
            .and_then(|t| b.get(usize::try_from(t.checked_add(name)?).ok()?..))
            .map(|n| {
                String::from_utf8_lossy(&n[..n.iter().position(|&c| c == 0).unwrap_or(0)])
                    .into_owned()
            })
            .unwrap_or_default();
        out.push((name, h, off as usize, size as usize));
    }
    out
}

pub fn section(b: &[u8], name: &str) -> (usize, usize, usize) {
    let (_, h, off, size) = sections(b)
        .into_iter()
        .find(|s| s.0 == name)
        .unwrap_or_else(|| panic!("no section {name}"));
    (h, off, size)
}

/// Offset of the symbol table entry named `name`.
pub fn symbol(b: &[u8], name: &str) -> usize {
    let (_, symoff, symsize) = section(b, ".symtab");
    let (_, stroff, _) = section(b, ".strtab");
    (0..symsize / 24)
        .map(|i| symoff + 24 * i)
        .find(|&e| {
            let n = stroff + rd(b, e, 4) as usize;
            b[n..].starts_with(name.as_bytes()) && b[n + name.len()] == 0
        })
        .unwrap_or_else(|| panic!("no symbol {name}"))
}
