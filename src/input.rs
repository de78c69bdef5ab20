//! Finding and loading inputs: files, directories, compressed modules, archives.

use memmap2::Mmap;
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A file named on the command line or found in a directory.
#[derive(Debug, Clone)]
pub struct Input {
    pub path: PathBuf,
}

/// File names a directory walk picks up.
pub fn is_object_name(name: &str) -> bool {
    [".o", ".ko", ".ko.xz", ".ko.zst", ".a"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// Expand paths: files as given, directories walked recursively (sorted,
/// symlinked directories not followed). Errors are (path, message).
pub fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, &mut out, &mut errs),
            Ok(_) => out.push(Input { path: p.clone() }),
            Err(e) => errs.push((p.display().to_string(), e.to_string())),
        }
    }
    (out, errs)
}

fn walk(dir: &Path, out: &mut Vec<Input>, errs: &mut Vec<(String, String)>) {
    let rd = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(e) => {
            errs.push((dir.display().to_string(), e.to_string()));
            return;
        }
    };
    let mut entries: Vec<_> = rd.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            walk(&path, out, errs);
        } else if is_object_name(&e.file_name().to_string_lossy()) && path.is_file() {
            out.push(Input { path });
        }
    }
}

/// The bytes of a loaded file.
pub enum Bytes {
    Map(Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// How an object is named in output: the path, with `(member)` for archive members.
pub fn member_name(path: &str, member: Option<&str>) -> String {
    match member {
        Some(m) => format!("{path}({m})"),
        None => path.to_string(),
    }
}

/// An archive member name (None for a plain object) and its byte range.
pub type Member = (Option<String>, Range<usize>);

/// A loaded file: one object, or the members of an archive.
pub struct Loaded {
    pub bytes: Bytes,
    /// (member name, byte range); one unnamed member for a plain object.
    pub members: Vec<Member>,
}

const XZ_MAGIC: &[u8] = b"\xfd7zXZ\0";
const ZSTD_MAGIC: &[u8] = b"\x28\xb5\x2f\xfd";
const AR_MAGIC: &[u8] = b"!<arch>\n";
const THIN_MAGIC: &[u8] = b"!<thin>\n";
/// Decompressed modules larger than this are refused (a bomb, not a module).
const MAX_DECOMPRESSED: u64 = 4 << 30;

pub fn load(path: &Path) -> Result<Loaded, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    let bytes = if len == 0 {
        Bytes::Owned(Vec::new())
    } else {
        // SAFETY: the map is read-only; a file changed underneath us can give
        // wrong findings but the reader never trusts offsets without checks.
        Bytes::Map(unsafe { Mmap::map(&file) }.map_err(|e| e.to_string())?)
    };
    let bytes = if bytes.starts_with(XZ_MAGIC) {
        let mut v = Vec::new();
        liblzma::read::XzDecoder::new(&bytes[..])
            .take(MAX_DECOMPRESSED)
            .read_to_end(&mut v)
            .map_err(|e| format!("xz: {e}"))?;
        Bytes::Owned(v)
    } else if bytes.starts_with(ZSTD_MAGIC) {
        let mut v = Vec::new();
        zstd::stream::read::Decoder::new(&bytes[..])
            .map_err(|e| format!("zstd: {e}"))?
            .take(MAX_DECOMPRESSED)
            .read_to_end(&mut v)
            .map_err(|e| format!("zstd: {e}"))?;
        Bytes::Owned(v)
    } else {
        bytes
    };
    if bytes.starts_with(THIN_MAGIC) {
        return Err("thin archives are not supported; pass the member objects".into());
    }
    let members = if bytes.starts_with(AR_MAGIC) {
        archive_members(&bytes)?
    } else {
        vec![(None, 0..bytes.len())]
    };
    Ok(Loaded { bytes, members })
}

/// Members of a System V / GNU `ar` archive, with long names resolved.
pub fn archive_members(b: &[u8]) -> Result<Vec<Member>, String> {
    let mut out = Vec::new();
    let mut long_names: &[u8] = &[];
    let mut p = AR_MAGIC.len();
    while p + 60 <= b.len() {
        let h = &b[p..p + 60];
        if &h[58..60] != b"`\n" {
            return Err(format!("archive member header at {p:#x} is corrupt"));
        }
        let field = |r: Range<usize>| String::from_utf8_lossy(&h[r]).trim_end().to_string();
        let size: usize = field(48..58)
            .parse()
            .map_err(|_| format!("archive member at {p:#x} has a bad size"))?;
        let start = p + 60;
        let end = start
            .checked_add(size)
            .filter(|&e| e <= b.len())
            .ok_or_else(|| format!("archive member at {p:#x} runs past the end of the file"))?;
        let raw = field(0..16);
        if raw == "//" {
            long_names = &b[start..end];
        } else if raw == "/" || raw == "/SYM64/" {
            // symbol index
        } else {
            let name = if let Some(num) = raw.strip_prefix('/') {
                let off: usize = num
                    .parse()
                    .map_err(|_| format!("bad archive name {raw:?}"))?;
                let rest = long_names.get(off..).unwrap_or(&[]);
                let n = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
                String::from_utf8_lossy(&rest[..n])
                    .trim_end_matches('/')
                    .to_string()
            } else {
                raw.trim_end_matches('/').to_string()
            };
            out.push((Some(name), start..end));
        }
        p = end + (end & 1);
    }
    Ok(out)
}
