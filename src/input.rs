//! Finding and loading inputs: files, directories, compressed modules, archives.

use memmap2::Mmap;
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// A file named on the command line or found in a directory, as the run's
/// [`Inputs`] hand it out.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    pub path: PathBuf,
    /// A thin archive, checked as one unit: the members read from their own
    /// files (those not also checked on their own). Empty for any other file.
    pub members: &'a [ThinMember],
    /// The folder named on the command line this file was found under (its
    /// index among the paths), for what is said about a folder as a whole.
    pub folder: Option<u32>,
}

/// A member of a thin archive: where its file is, and how findings name it
/// (`ARCHIVE(MEMBER)`, the member as the archive names it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThinMember {
    pub name: String,
    pub path: PathBuf,
}

impl Input<'_> {
    pub fn new(path: PathBuf) -> Input<'static> {
        Input {
            path,
            members: &[],
            folder: None,
        }
    }
    /// The name findings and errors give it: its path.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
    /// Whether it is a thin archive (checked as a unit of [`Input::members`]).
    pub fn is_thin(&self) -> bool {
        !self.members.is_empty()
    }
    /// The files to read, each with the name its objects go by: the file
    /// itself, or a thin archive's members.
    pub fn files(&self) -> Vec<(String, &Path)> {
        if self.is_thin() {
            self.members
                .iter()
                .map(|m| (m.name.clone(), m.path.as_path()))
                .collect()
        } else {
            vec![(self.name(), &*self.path)]
        }
    }
}

/// The inputs of a run, in order. A run holds them all for its whole length
/// (42,300 in ten copies of a module tree), so a path is kept as its folder,
/// shared with the files before it, and its file name, in one byte buffer:
/// 20 bytes and the name per input, against about 130 for a path of its own
/// (ten copies' peak memory was otherwise 5.8 MB more than one copy's).
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// Folders (each up to and with its last `/`) and file names.
    text: Vec<u8>,
    /// Each folder's bytes in `text`.
    dirs: Vec<Span>,
    entries: Vec<Entry>,
    /// The members of each thin archive among the inputs.
    thin: Vec<Box<[ThinMember]>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    dir: u32,
    name: Span,
    /// [`Input::folder`], `u32::MAX` for none.
    folder: u32,
    /// Index into `thin`, `u32::MAX` for none.
    thin: u32,
}

const NONE: u32 = u32::MAX;

impl Inputs {
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Input `i`, its path put together again.
    pub fn get(&self, i: usize) -> Option<Input<'_>> {
        let e = self.entries.get(i)?;
        let dir = self.span(self.dirs[e.dir as usize]);
        let mut path = Vec::with_capacity(dir.len() + e.name.len as usize);
        path.extend_from_slice(dir);
        path.extend_from_slice(self.span(e.name));
        Some(Input {
            path: PathBuf::from(std::ffi::OsString::from_vec(path)),
            members: if e.thin == NONE {
                &[]
            } else {
                &self.thin[e.thin as usize]
            },
            folder: (e.folder != NONE).then_some(e.folder),
        })
    }
    /// Input `i`'s folder ([`Input::folder`]), without its path.
    pub fn folder(&self, i: usize) -> Option<u32> {
        let f = self.entries.get(i)?.folder;
        (f != NONE).then_some(f)
    }
    pub fn iter(&self) -> impl Iterator<Item = Input<'_>> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
    pub fn par_iter(&self) -> impl rayon::iter::ParallelIterator<Item = Input<'_>> + '_ {
        use rayon::iter::{IntoParallelIterator, ParallelIterator};
        (0..self.len()).into_par_iter().filter_map(|i| self.get(i))
    }

    /// Add `path` (with `members` if a thin archive); an error when the run
    /// already holds more than 4 GiB of paths.
    pub fn push(
        &mut self,
        path: &Path,
        members: Vec<ThinMember>,
        folder: Option<u32>,
    ) -> Result<(), String> {
        let bytes = path.as_os_str().as_bytes();
        let cut = bytes.iter().rposition(|&b| b == b'/').map_or(0, |k| k + 1);
        let (dir, name) = bytes.split_at(cut);
        let full = || "more paths than one run can hold".to_string();
        let dir = match self.dirs.last() {
            Some(&d) if self.span(d) == dir => self.dirs.len() - 1,
            _ => {
                let d = self.put(dir).ok_or_else(full)?;
                self.dirs.push(d);
                self.dirs.len() - 1
            }
        };
        let name = self.put(name).ok_or_else(full)?;
        let thin = if members.is_empty() {
            NONE
        } else {
            self.thin.push(members.into_boxed_slice());
            u32::try_from(self.thin.len() - 1).map_err(|_| full())?
        };
        self.entries.push(Entry {
            dir: u32::try_from(dir).map_err(|_| full())?,
            name,
            folder: folder.filter(|&f| f != NONE).unwrap_or(NONE),
            thin,
        });
        Ok(())
    }

    fn span(&self, s: Span) -> &[u8] {
        &self.text[s.start as usize..][..s.len as usize]
    }

    fn put(&mut self, bytes: &[u8]) -> Option<Span> {
        let start = u32::try_from(self.text.len()).ok()?;
        let len = u32::try_from(bytes.len()).ok()?;
        start.checked_add(len)?;
        self.text.extend_from_slice(bytes);
        Some(Span { start, len })
    }

    fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.dirs.shrink_to_fit();
        self.entries.shrink_to_fit();
        self.thin.shrink_to_fit();
    }
}

/// File names a directory walk picks up.
pub fn is_object_name(name: &str) -> bool {
    [".o", ".ko", ".ko.xz", ".ko.zst", ".a"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// Expand paths: files as given, directories walked recursively (sorted,
/// symlinked directories not followed). Errors are (path, message).
/// A thin archive (`ar rcT`, kbuild's `built-in.a` and `vmlinux.a`) is one
/// input that stands for its members, each read from its own file, checked
/// as a unit as a regular archive is; a member also named or walked on its
/// own is checked once, under its own path (and left out of the unit), a
/// member two thin archives list under the first.
pub fn expand(paths: &[PathBuf]) -> (Inputs, Vec<(String, String)>) {
    let mut out = Inputs::default();
    let mut errs = Vec::new();
    for (k, p) in paths.iter().enumerate() {
        match std::fs::metadata(p) {
            // More folders than u32 holds cannot be named on one line.
            Ok(m) if m.is_dir() => walk(p, u32::try_from(k).ok(), &mut out, &mut errs),
            Ok(_) => add_file(p, None, &mut out, &mut errs),
            Err(e) => errs.push((p.display().to_string(), e.to_string())),
        }
    }
    if !out.thin.is_empty() {
        once_each(&mut out);
    }
    out.shrink_to_fit();
    (out, errs)
}

/// Each member file once: under its own path when it was named or walked on
/// its own, else in the first thin archive that lists it. A thin archive
/// with no members left is dropped.
fn once_each(inputs: &mut Inputs) {
    let key = |p: &Path| std::fs::canonicalize(p).unwrap_or(p.to_path_buf());
    let own: std::collections::HashSet<PathBuf> = inputs
        .iter()
        .filter(|i| !i.is_thin())
        .map(|i| key(&i.path))
        .collect();
    let mut seen = std::collections::HashSet::new();
    // In input order, as the archives were pushed.
    for members in &mut inputs.thin {
        let mut kept = std::mem::take(members).into_vec();
        kept.retain(|m| {
            let k = key(&m.path);
            !own.contains(&k) && seen.insert(k)
        });
        *members = kept.into_boxed_slice();
    }
    let thin = &inputs.thin;
    inputs
        .entries
        .retain(|e| e.thin == NONE || !thin[e.thin as usize].is_empty());
}

/// Thin archives inside thin archives are followed this deep.
const MAX_THIN_DEPTH: usize = 8;

fn add_file(path: &Path, folder: Option<u32>, out: &mut Inputs, errs: &mut Vec<(String, String)>) {
    // Only `.a` names are opened here: reading every object twice would cost
    // a large tree real time, and thin archives are `.a` in practice.
    if path.extension().is_some_and(|e| e == "a") {
        let mut members = Vec::new();
        match thin_unit(path, 0, &mut members) {
            Ok(false) => {}
            Ok(true) if members.is_empty() => {
                // An empty thin archive: nothing to check (as an empty
                // regular archive).
                return;
            }
            Ok(true) => {
                let name = path.display().to_string();
                for m in &mut members {
                    m.name = format!("{name}({})", m.name);
                }
                if let Err(e) = out.push(path, members, folder) {
                    errs.push((name, e));
                }
                return;
            }
            Err(e) => {
                errs.push((path.display().to_string(), e));
                return;
            }
        }
    }
    if let Err(e) = out.push(path, Vec::new(), folder) {
        errs.push((path.display().to_string(), e));
    }
}

/// The members of a thin archive into `out`, named as the archive names
/// them (a nested thin archive's as `NESTED(MEMBER)`), with their paths;
/// `false` for any other file.
fn thin_unit(path: &Path, depth: usize, out: &mut Vec<ThinMember>) -> Result<bool, String> {
    let Some(names) = thin_members(path)? else {
        return Ok(false);
    };
    if depth >= MAX_THIN_DEPTH {
        return Err("thin archives nest too deep".into());
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    for m in names {
        let p = dir.join(&m);
        let before = out.len();
        let nested = p.extension().is_some_and(|e| e == "a")
            && thin_unit(&p, depth + 1, out).map_err(|e| format!("{m}: {e}"))?;
        if nested {
            for i in &mut out[before..] {
                i.name = format!("{}({})", p.display(), i.name);
            }
        } else {
            out.push(ThinMember { name: m, path: p });
        }
    }
    Ok(true)
}

/// The member paths (relative to the archive's folder) of a thin archive;
/// `None` for any other file (and for a member file that cannot be opened:
/// reading it says why).
fn thin_members(path: &Path) -> Result<Option<Vec<String>>, String> {
    let mut bytes = vec![0u8; THIN_MAGIC.len()];
    let Ok(Opened::File(mut f, _)) = open(path) else {
        // A pipe is read once, by `load`.
        return Ok(None);
    };
    if f.read_exact(&mut bytes).is_err() || bytes != THIN_MAGIC {
        return Ok(None);
    }
    f.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let members = ar_members(&bytes, true)?;
    Ok(Some(members.into_iter().filter_map(|(n, _)| n).collect()))
}

/// Objects under `dir`, in file-name order; symlinked folders are not
/// followed. A folder that cannot be listed, or an object-named entry that
/// cannot be looked at, is an error naming it, never skipped in silence.
fn walk(dir: &Path, folder: Option<u32>, out: &mut Inputs, errs: &mut Vec<(String, String)>) {
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let e = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().unwrap_or(dir).display().to_string();
                let msg = e
                    .io_error()
                    .map_or_else(|| e.to_string(), |io| io.to_string());
                errs.push((path, msg));
                continue;
            }
        };
        if e.file_type().is_dir() || !is_object_name(&e.file_name().to_string_lossy()) {
            continue;
        }
        // A regular file as listed (no stat: thousands of modules cost tens
        // of milliseconds before the first one is checked).
        if e.file_type().is_file() {
            add_file(e.path(), folder, out, errs);
            continue;
        }
        let link = e.path_is_symlink();
        let path = e.into_path();
        // Through a symlink to its file.
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => add_file(&path, folder, out, errs),
            // A folder reached through a symlink, a device: no object file.
            Ok(_) => {}
            Err(err) if link && err.kind() == std::io::ErrorKind::NotFound => {
                errs.push((path.display().to_string(), "dangling symbolic link".into()))
            }
            Err(err) => errs.push((path.display().to_string(), err.to_string())),
        }
    }
}

/// The bytes of a loaded file.
pub enum Bytes {
    Map(Mmap),
    Owned(Vec<u8>),
    /// A small file read into its thread's reused buffer.
    Read(ReadBuf),
}

/// A buffer a small file is read into, handed back to its thread when the
/// file's bytes are dropped: mapping and unmapping each of thousands of
/// modules cost a TLB shootdown on every other core per unmap (at -j2 on
/// 4,000 small modules, more CPU time than checking them).
pub struct ReadBuf(Vec<u8>, usize);

thread_local! {
    /// The thread's buffer and how many of its bytes were ever written
    /// (those need no zeroing before the next read).
    static SPARE: std::cell::Cell<(Vec<u8>, usize)> = const { std::cell::Cell::new((Vec::new(), 0)) };
}

impl ReadBuf {
    /// `len` bytes (at most, below [`READ_BELOW`]) of `file`, from the start.
    fn read(file: &File, len: u64) -> std::io::Result<ReadBuf> {
        let (mut v, mut init) = SPARE.with(|s| s.take());
        if (v.capacity() as u64) < len {
            // All of READ_BELOW, glibc's mmap threshold (see main.rs): a
            // mapping of its own, never a block of malloc's heaps between
            // others, which kept them from shrinking (ten copies of the
            // modules in one run peaked 26% above one copy).
            v = Vec::with_capacity(READ_BELOW as usize);
            init = 0;
        }
        // One read(2) for the whole file (`read_to_end` reads in growing
        // pieces); a file that shrank meanwhile is what it still holds.
        // Only bytes never written before are zeroed (zeroing all of them
        // for each file was 1.7% of a run over the modules).
        let len = len as usize;
        // SAFETY: the first `init` bytes of the buffer were written by an
        // earlier read or resize and the allocation is the same, so they
        // are initialized `u8`s.
        unsafe { v.set_len(init.min(len)) };
        v.resize(len, 0);
        init = init.max(len);
        let mut n = 0;
        while n < v.len() {
            match (&*file).read(&mut v[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        v.truncate(n);
        Ok(ReadBuf(v, init))
    }
}

impl Drop for ReadBuf {
    fn drop(&mut self) {
        // Back to the thread that drops it, one buffer per thread.
        let v = std::mem::take(&mut self.0);
        let _ = SPARE.try_with(|s| s.set((v, self.1)));
    }
}

/// Less than this is not worth a system call to give back.
const MIN_RELEASE: usize = 64 << 10;

impl Bytes {
    /// Gives back the memory of `part` (a slice of these bytes that is not
    /// read again, e.g. relocation sections once parsed): of a file
    /// mapping, its whole pages leave the process's resident set; owned
    /// bytes stay as they are.
    pub fn release(&self, part: &[u8]) {
        let Bytes::Map(m) = self else {
            return;
        };
        if part.len() < MIN_RELEASE {
            return;
        }
        let (base, start) = (m.as_ptr() as usize, part.as_ptr() as usize);
        if start < base || start + part.len() > base + m.len() {
            return;
        }
        // SAFETY: sysconf has no preconditions.
        let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
            p if p > 0 => p as usize,
            _ => return,
        };
        let lo = (start - base).next_multiple_of(page);
        let hi = (start - base + part.len()) / page * page;
        if hi >= lo + MIN_RELEASE {
            // SAFETY: a read-only private mapping of a file, never written:
            // the dropped pages read back from the file, unchanged, if they
            // are touched again (the caveat of a file changed underneath is
            // the mapping's own, see `load`).
            let _ = unsafe {
                m.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, lo, hi - lo)
            };
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Owned(v) => v,
            Bytes::Read(r) => &r.0,
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
/// Decompressed modules larger than this are refused (a bomb, not a module;
/// the largest Debian module, amdgpu.ko, is 40 MB).
const MAX_DECOMPRESSED: u64 = 2 << 30;
/// Nor may a module decompress to more than this many times its size
/// (modules compress 3-5 times).
const MAX_RATIO: u64 = 64;
/// What is read from a pipe at most.
const MAX_PIPE: u64 = 4 << 30;

/// An opened input: a file to read or map (and its length), or a pipe
/// (`<(cat x.o)`) to read.
enum Opened {
    File(File, u64),
    Pipe(File),
}

/// Opens a path to read. Opened non-blocking, so that a FIFO with no writer
/// does not block open(2) forever (with none, it reads as empty); then what
/// it is comes from the open file (one stat per input, not two).
fn open(path: &Path) -> Result<Opened, String> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| e.to_string())?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    let ft = meta.file_type();
    if meta.is_file() {
        return Ok(Opened::File(f, meta.len()));
    }
    if ft.is_fifo() || ft.is_char_device() || ft.is_socket() {
        return Ok(Opened::Pipe(f));
    }
    Err("not a regular file".into())
}

/// All of a pipe, up to `MAX_PIPE` bytes.
fn read_pipe(mut f: File) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                if out.len() as u64 > MAX_PIPE {
                    return Err(format!("more than {MAX_PIPE:#x} bytes from a pipe"));
                }
            }
            // Opened non-blocking: a writer that has not written yet.
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(1))
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// A compressed module's contents, refused past the limits above.
fn decompress(what: &str, compressed: usize, r: impl Read) -> Result<Vec<u8>, String> {
    let limit = (compressed as u64)
        .saturating_mul(MAX_RATIO)
        .clamp(64 << 20, MAX_DECOMPRESSED);
    let mut v = Vec::new();
    r.take(limit + 1)
        .read_to_end(&mut v)
        .map_err(|e| format!("{what}: {e}"))?;
    if v.len() as u64 > limit {
        return Err(format!(
            "{what}: decompresses to more than {limit:#x} bytes from {compressed:#x} (a bomb, not a module)"
        ));
    }
    Ok(v)
}

/// Files smaller than this (most modules) are read, into a buffer of this
/// size each thread reuses; larger ones mapped, so that their parts can be
/// given back once read. (Read up to 4 MiB, ten copies of the modules in
/// one run peaked 17-20% above one copy: every thread kept a 4 MiB buffer.)
const READ_BELOW: u64 = 1 << 20;
/// Mapped files smaller than this are mapped whole at once: their pages in
/// one call, not one fault per 64 KiB.
const POPULATE_BELOW: u64 = 4 << 20;

pub fn load(path: &Path) -> Result<Loaded, String> {
    let bytes = match open(path)? {
        Opened::Pipe(f) => Bytes::Owned(read_pipe(f)?),
        Opened::File(file, len) => {
            if len == 0 {
                Bytes::Owned(Vec::new())
            } else if len < READ_BELOW {
                Bytes::Read(ReadBuf::read(&file, len).map_err(|e| e.to_string())?)
            } else {
                // SAFETY: the map is read-only; a file changed underneath us can give
                // wrong findings but the reader never trusts offsets without checks.
                let mut o = memmap2::MmapOptions::new();
                if len < POPULATE_BELOW {
                    o.populate();
                }
                Bytes::Map(unsafe { o.map(&file) }.map_err(|e| e.to_string())?)
            }
        }
    };
    from_bytes(bytes)
}

/// A file's contents as `load` reads them: decompressed, an archive's
/// members found.
pub fn from_bytes(bytes: Bytes) -> Result<Loaded, String> {
    let bytes = if bytes.starts_with(XZ_MAGIC) {
        Bytes::Owned(decompress(
            "xz",
            bytes.len(),
            liblzma::read::XzDecoder::new(&bytes[..]),
        )?)
    } else if bytes.starts_with(ZSTD_MAGIC) {
        let d = zstd::stream::read::Decoder::new(&bytes[..]).map_err(|e| format!("zstd: {e}"))?;
        Bytes::Owned(decompress("zstd", bytes.len(), d)?)
    } else {
        bytes
    };
    if bytes.starts_with(THIN_MAGIC) {
        // `check` and `stats` read the members of a `.a` thin archive (see
        // `expand`); `seal` and `symdiff` take objects.
        return Err(
            "a thin archive: name it as NAME.a to `check` or `stats`, or pass its member objects"
                .into(),
        );
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
    ar_members(b, false)
}

/// The members of an archive. A thin archive holds only their headers (its
/// symbol index and long-name table are inside): their ranges are empty and
/// their names are paths relative to the archive's folder.
///
/// Not goblin's `archive::Archive` (tried for #16): it reads no thin
/// archives (their magic, member data outside the file, GNU's `/NN  /`
/// names of nested members), and for regular ones it checks neither a
/// header's end marker nor that member data lies inside the file, fails on
/// member names that are not UTF-8, and parses the symbol index, which this
/// ignores. Taking its members would still need this walk to say what is
/// wrong with a damaged archive, and where (tests/bad_input.rs).
fn ar_members(b: &[u8], thin: bool) -> Result<Vec<Member>, String> {
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
        let raw = field(0..16);
        let inside = !thin || raw == "//" || raw == "/" || raw == "/SYM64/";
        let end = start
            .checked_add(if inside { size } else { 0 })
            .filter(|&e| e <= b.len())
            .ok_or_else(|| format!("archive member at {p:#x} runs past the end of the file"))?;
        if raw == "//" {
            long_names = &b[start..end];
        } else if raw == "/" || raw == "/SYM64/" {
            // symbol index
        } else {
            let name = if let Some(num) = raw.strip_prefix('/') {
                // GNU ar ends the field of a member of a nested thin archive
                // with '/' (`/70            /`).
                let off: usize = num
                    .trim_end_matches([' ', '/'])
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path comes back byte for byte (relative, absolute, doubled and
    /// trailing slashes, non-UTF-8 bytes), with its members and folder, and
    /// a folder's files share its bytes.
    #[test]
    fn inputs_give_back_their_paths_exactly() {
        use std::ffi::OsStr;
        let member = ThinMember {
            name: "t.a(m.o)".into(),
            path: "d/m.o".into(),
        };
        let paths: Vec<&[u8]> = vec![
            b"x.o",
            b"/a/b/c.ko",
            b"/a/b/d.ko",
            b"/a/b/sub/e.ko",
            b"/a/b/f.ko",
            b"a//b.o",
            b"/",
            b"",
            b"dir/\xff\xfe.o",
            b"t.a",
            b"x.o",
        ];
        let mut inputs = Inputs::default();
        for (k, p) in paths.iter().enumerate() {
            let members = if k == 9 { vec![member.clone()] } else { vec![] };
            let folder = (k % 3 == 1).then_some(k as u32);
            inputs
                .push(Path::new(OsStr::from_bytes(p)), members, folder)
                .unwrap();
        }
        assert_eq!(inputs.len(), paths.len());
        for (k, p) in paths.iter().enumerate() {
            let i = inputs.get(k).unwrap();
            assert_eq!(i.path.as_os_str().as_bytes(), *p, "input {k}");
            assert_eq!(i.folder, (k % 3 == 1).then_some(k as u32));
            assert_eq!(inputs.folder(k), i.folder);
            assert_eq!(i.is_thin(), k == 9);
        }
        assert_eq!(inputs.get(9).unwrap().members, [member]);
        assert!(inputs.get(paths.len()).is_none());
        // `/a/b/` once for c and d, again after `sub/`.
        let dirs: Vec<&[u8]> = inputs.dirs.iter().map(|&d| inputs.span(d)).collect();
        assert_eq!(dirs.iter().filter(|d| **d == b"/a/b/").count(), 2);
        assert_eq!(inputs.iter().count(), paths.len());
    }

    /// Small files come back whole and exact through the reused buffer,
    /// however the sizes before them went (it grows, shrinks and is shared
    /// by the loads of one thread).
    #[test]
    fn small_files_read_through_the_reused_buffer_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let mut held = Vec::new();
        for (k, len) in [300_000usize, 17, 5_000, 0, 1, 1_048_575, 64]
            .into_iter()
            .enumerate()
        {
            let p = dir.path().join(format!("{k}.o"));
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + k) as u8).collect();
            std::fs::write(&p, &data).unwrap();
            let l = load(&p).unwrap();
            assert_eq!(&l.bytes[..], &data[..], "file {k} ({len} bytes)");
            if len > 0 {
                assert!(matches!(l.bytes, Bytes::Read(_)));
            }
            // Some loads stay alive while later ones read.
            if k % 2 == 0 {
                held.push((l, data));
            }
        }
        for (l, data) in &held {
            assert_eq!(&l.bytes[..], &data[..]);
        }
    }

    /// Files from `READ_BELOW` on are mapped (their parts can be given back).
    #[test]
    fn large_files_are_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.o");
        let f = File::create(&p).unwrap();
        f.set_len(READ_BELOW).unwrap();
        let l = load(&p).unwrap();
        assert!(matches!(l.bytes, Bytes::Map(_)));
        assert_eq!(l.bytes.len() as u64, READ_BELOW);
    }
}
