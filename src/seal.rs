//! `objlint seal`: seal landing pads nobody needs (seed 000).
//!
//! ENDBR64 (x86) and `BTI c` (arm64) at the entry of functions that are never
//! address-taken are either overwritten with a NOP of the same size (`nop`),
//! or kept and listed in a seal section of PC-relative entries (`section`:
//! `.ibt_endbr_seal` on x86 as the kernel consumes it, `.bti_seal` on arm64;
//! names and relocation types in `rules/seal.toml`). The result is written
//! through [`crate::elf::write`], re-read and verified before it replaces
//! anything. In place, the file is locked (flock) so concurrent runs take
//! turns, and a file with nothing to seal is not rewritten at all.

use crate::arch::Pad;
use crate::arch::decoder;
use crate::checks::symtab_shndx;
use crate::config::Profile;
use crate::elf::write::{self, Edits, NewReloc, NewSection, Rewritten, SymRef};
use crate::elf::{Object, Place};
use crate::elf::{STB_LOCAL, SymSection};
use crate::model::Model;
use crate::model::address_taken::{Exemption, pad_at};
use crate::rules::Rules;
use std::collections::HashSet;
use std::fs::{File, TryLockError};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

const SHF_ALLOC: u64 = 2;
/// `st_other` visibilities a dynamic symbol table exports.
const STV_DEFAULT: u8 = 0;
const STV_PROTECTED: u8 = 3;

/// How `objlint seal` seals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SealMode {
    /// Overwrite unneeded pads with NOPs of the same size.
    Nop,
    /// Keep the pads and list them in a seal section (`.ibt_endbr_seal`).
    Section,
}

/// One landing pad to seal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealSite {
    /// Index into `Model::functions`.
    pub func: usize,
    pub section: usize,
    pub offset: u64,
    pub pad: Pad,
}

/// The function-entry pads of one object, and which of them nobody needs.
#[derive(Debug, Default)]
pub struct SealReport {
    /// Pads at function entries of the kinds `seal` can replace.
    pub pads: usize,
    /// Those that must stay.
    pub needed: usize,
    pub sites: Vec<SealSite>,
}

/// The sealable pads of an object: function-entry pads the address-taken
/// analysis (`model::address_taken`, rules/landing_pads.toml) finds unneeded,
/// of a kind this architecture can replace by a NOP of the same size. Without
/// `link`, a place that any non-local symbol names (an alias, a global label)
/// keeps its pad: another object may take its address. What the object is
/// ([`crate::checks::profile::detected`]) decides the kernel's policies.
pub fn sealable(m: &Model, rules: &Rules, link: bool) -> SealReport {
    sealable_as(m, rules, link, crate::checks::profile::detected(m, rules))
}

/// [`sealable`] for kernel code (`kernel`) or user space. The kernel's
/// policies hold for kernel code only: with `link`, a global function keeps
/// its pad only when an export table names it (a linked kernel or module is
/// reached from outside through `__ksymtab` only); in user space a global
/// symbol of default or protected visibility keeps it (the dynamic linker
/// exports it, and a call through the PLT is an indirect jump). And the
/// `no_pad_target` entries of rules/landing_pads.toml (kernel vectors,
/// trampolines and patch sites by name) exempt nothing in user space: a
/// place referenced there keeps its pad.
pub fn sealable_as(m: &Model, rules: &Rules, link: bool, kernel: bool) -> SealReport {
    let obj = m.obj;
    let at = m.address_taken(&rules.landing_pads);
    let replaceable = |section: usize, offset: u64, pad: Pad| {
        let len = m
            .section_code(section)
            .and_then(|c| c.index_at(offset).map(|i| c.insns[i].len));
        m.dec
            .sealed_pad(pad)
            .is_some_and(|b| Some(b.len()) == len.map(usize::from))
    };
    let global: HashSet<(usize, u64)> = obj
        .symbols
        .iter()
        .filter(|s| s.bind != STB_LOCAL)
        .filter_map(|s| match s.section {
            SymSection::Section(i) => Some((i, s.value)),
            _ => None,
        })
        .collect();
    // User space, linked: what the dynamic symbol table may export.
    let exported: HashSet<(usize, u64)> = if kernel || !link {
        HashSet::new()
    } else {
        obj.symbols
            .iter()
            .filter(|s| s.bind != STB_LOCAL && matches!(s.other & 3, STV_DEFAULT | STV_PROTECTED))
            .filter_map(|s| match s.section {
                SymSection::Section(i) => Some((i, s.value)),
                _ => None,
            })
            .collect()
    };
    // User space: places only a kernel `no_pad_target` exempted.
    let kernel_exempt: HashSet<(usize, u64)> = if kernel {
        HashSet::new()
    } else {
        at.refs
            .iter()
            .filter(|r| matches!(r.exempt, Some(Exemption::Target(_))))
            .map(|r| (r.to_section(), r.to_offset()))
            .collect()
    };
    let mut rep = SealReport::default();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        if pad_at(m, f.section, f.start).is_some_and(|p| replaceable(f.section, f.start, p)) {
            rep.pads += 1;
        }
    }
    for e in at.unneeded_entry_pads(m, link) {
        let f = &m.functions[e.function];
        if e.offset != f.start
            || !replaceable(e.section, e.offset, e.pad)
            || (!link && global.contains(&(e.section, e.offset)))
            || exported.contains(&(e.section, e.offset))
            || kernel_exempt.contains(&(e.section, e.offset))
        {
            continue;
        }
        rep.sites.push(SealSite {
            func: e.function,
            section: e.section,
            offset: e.offset,
            pad: e.pad,
        });
    }
    rep.needed = rep.pads - rep.sites.len();
    rep
}

/// What sealing one object did.
#[derive(Debug)]
pub struct Sealed {
    pub report: SealReport,
    /// Pads already listed in an existing seal section (left alone in `section` mode).
    pub already_listed: usize,
    /// Pads sealed by this run.
    pub sealed: usize,
    /// Unneeded by our analysis but not in an existing seal section, so kept.
    pub kept_unlisted: usize,
    pub edits: Edits,
    pub rewritten: Rewritten,
}

/// Places an existing seal section already lists.
fn listed_in(obj: &Object, name: &str) -> (Option<usize>, HashSet<(usize, u64)>) {
    let mut out = HashSet::new();
    let sec = obj.sections_named(name).first().copied();
    if let Some(s) = sec {
        for r in obj.relocs(s) {
            // PC-relative entry: target = S + A.
            if let Place::Local { section, offset } = obj.resolve(r.sym(), obj.addend(r)) {
                out.insert((section, offset));
            }
        }
    }
    (sec, out)
}

/// Plan and build the sealed object in memory, with the policies of what
/// the object is ([`crate::checks::profile::detected`]).
pub fn seal_object(obj: &Object, mode: SealMode, link: bool) -> Result<Sealed, String> {
    seal_object_as(obj, mode, link, None)
}

/// [`seal_object`] as kernel code or user space (`profile`; `None`: as
/// detected). In user space, `--mode section` is refused when there is
/// something to seal: only the kernel reads the seal section.
pub fn seal_object_as(
    obj: &Object,
    mode: SealMode,
    link: bool,
    profile: Option<Profile>,
) -> Result<Sealed, String> {
    seal_model_as(
        &Model::build(obj, Rules::builtin_shared()),
        mode,
        link,
        profile,
    )
}

/// [`seal_object`] on a model already built (with the built-in rules): one
/// model serves every mode, with and without `link`.
pub fn seal_model(model: &Model, mode: SealMode, link: bool) -> Result<Sealed, String> {
    seal_model_as(model, mode, link, None)
}

/// [`seal_model`] as kernel code or user space (see [`seal_object_as`]).
pub fn seal_model_as(
    model: &Model,
    mode: SealMode,
    link: bool,
    profile: Option<Profile>,
) -> Result<Sealed, String> {
    seal_model_with(model, Rules::builtin_shared(), mode, link, profile)
}

/// [`seal_model_as`] under `rules` (`--rules`: its `seal.toml` among them);
/// the model built with the same rules.
pub fn seal_model_with(
    model: &Model,
    rules: &Rules,
    mode: SealMode,
    link: bool,
    profile: Option<Profile>,
) -> Result<Sealed, String> {
    let obj = model.obj;
    let kernel = match profile {
        Some(p) => p == Profile::Kernel,
        None => crate::checks::profile::detected(model, rules),
    };
    let mut report = sealable_as(model, rules, link, kernel);
    let sec = rules.seal.section(obj.machine);
    let (existing, listed) = listed_in(obj, &sec.name);
    // A seal section written before (objtool --ibt) was made with annotations
    // a linked object no longer has (IBT_NOSEAL in .discard.ibt_endbr_noseal):
    // pads it does not list stay.
    let mut kept_unlisted = 0;
    if existing.is_some() {
        let before = report.sites.len();
        report
            .sites
            .retain(|s| listed.contains(&(s.section, s.offset)));
        kept_unlisted = before - report.sites.len();
        report.needed += kept_unlisted;
    }
    let mut edits = Edits::default();
    let mut already_listed = 0;
    let mut sealed = 0;
    match mode {
        SealMode::Nop => {
            let dec = decoder(obj.machine);
            for s in &report.sites {
                let nop = dec.sealed_pad(s.pad).ok_or("pad kind cannot be sealed")?;
                edits.patches.push((s.section, s.offset, nop.to_vec()));
                sealed += 1;
            }
        }
        SealMode::Section => {
            let mut relocs = Vec::new();
            for s in &report.sites {
                if listed.contains(&(s.section, s.offset)) {
                    already_listed += 1;
                    continue;
                }
                relocs.push(NewReloc {
                    offset: 4 * relocs.len() as u64,
                    r_type: sec.reloc_type,
                    sym: SymRef::SectionOf(s.section),
                    addend: s.offset as i64,
                });
            }
            if !relocs.is_empty() {
                sealed = relocs.len();
                let mut ns =
                    NewSection::progbits(&sec.name, SHF_ALLOC, 4, 4, vec![0; 4 * relocs.len()]);
                ns.relocs = relocs;
                edits.sections.push(ns);
            }
        }
    }
    let rewritten = write::rewrite(obj, &edits).map_err(|e| e.0)?;
    if !kernel && mode == SealMode::Section && sealed > 0 {
        return Err(format!(
            "user-space code: only the kernel reads {} (its module loader and boot code poison the pads it lists); seal user space with --mode nop, or say --profile kernel if this is kernel code",
            sec.name
        ));
    }
    Ok(Sealed {
        report,
        already_listed,
        sealed,
        kept_unlisted,
        edits,
        rewritten,
    })
}

/// Everything checked on the re-read output before it may replace anything.
pub fn verify_sealed(old: &Object, new_bytes: &[u8], s: &Sealed) -> Result<(), String> {
    let new =
        Object::parse(new_bytes).map_err(|e| format!("the output does not read back: {e}"))?;
    write::verify(old, &new, &s.rewritten, &s.edits)?;
    let before = symtab_shndx::problems(old).len();
    let after = symtab_shndx::problems(&new).len();
    if after > before {
        return Err(format!(
            "the output has {after} symbol table problems, the input {before}"
        ));
    }
    Ok(())
}

/// Extensions of compressed files: objlint writes uncompressed objects only.
const COMPRESSED_EXTS: &[&str] = &["zst", "xz", "gz", "bz2", "lz4", "lzma", "lzo"];

/// The compressed extension `p` ends with, if any.
fn compressed_name(p: &Path) -> Option<String> {
    let ext = p.extension()?.to_str()?.to_ascii_lowercase();
    COMPRESSED_EXTS.contains(&ext.as_str()).then_some(ext)
}

/// The compression a file is in, by its magic (as `input::load` reads it).
fn compression_of(path: &Path) -> Result<Option<&'static str>, String> {
    let mut head = Vec::with_capacity(6);
    File::open(path)
        .and_then(|f| f.take(6).read_to_end(&mut head))
        .map_err(|e| e.to_string())?;
    Ok(if head.starts_with(b"\xfd7zXZ\0") {
        Some("xz")
    } else if head.starts_with(b"\x28\xb5\x2f\xfd") {
        Some("zstd")
    } else {
        None
    })
}

/// Whether two paths name one file (by device and inode).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
        _ => false,
    }
}

/// Take an exclusive flock on the file `path` names, waiting for another
/// objlint run that holds it. That run replaces the file by rename, so once
/// the lock is ours the path may name a new file: then lock that one.
fn lock_for_update(path: &Path) -> Result<Option<File>, String> {
    let mut said = false;
    loop {
        let f = File::open(path).map_err(|e| e.to_string())?;
        match f.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                if !said {
                    eprintln!(
                        "objlint: {}: another objlint run is replacing it; waiting",
                        path.display()
                    );
                    said = true;
                }
                f.lock().map_err(|e| format!("cannot lock it: {e}"))?;
            }
            // A filesystem without flock: seal as before, unlocked.
            Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                return Ok(None);
            }
            Err(TryLockError::Error(e)) => return Err(format!("cannot lock it: {e}")),
        }
        let held = f.metadata().map_err(|e| e.to_string())?;
        let now = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if (held.dev(), held.ino()) == (now.dev(), now.ino()) {
            return Ok(Some(f));
        }
    }
}

/// The summary line of a run.
fn summary(s: &Sealed, mode: SealMode) -> String {
    let r = &s.report;
    let mut msg = format!(
        "{} of {} function-entry landing pads are unneeded; {} sealed ({}), {} needed",
        r.sites.len(),
        r.pads,
        s.sealed,
        match mode {
            SealMode::Nop => "NOP",
            SealMode::Section => "listed in the seal section",
        },
        r.needed
    );
    if s.already_listed > 0 {
        msg.push_str(&format!(", {} already listed", s.already_listed));
    }
    if s.kept_unlisted > 0 {
        msg.push_str(&format!(
            "; {} more look unneeded but are kept: the existing seal section does not list them",
            s.kept_unlisted
        ));
    }
    msg
}

fn note_stale(msg: &mut String, removed: &[PathBuf]) {
    if !removed.is_empty() {
        let names: Vec<String> = removed
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        msg.push_str(&format!(
            "; removed {} temporary file(s) that killed objlint runs left in its folder: {}",
            names.len(),
            names.join(", ")
        ));
    }
}

/// Seal `input` into `target` (which may be the input itself). A symbolic
/// link as target is written through; `-o` naming the input (by any path)
/// is sealing in place.
///
/// As kernel code or user space (`profile`; `None`: as detected), under
/// `rules` (`--rules`: its `seal.toml` among them).
pub fn seal_file(
    input: &Path,
    target: &Path,
    mode: SealMode,
    link: bool,
    in_place: bool,
    profile: Option<Profile>,
    rules: &Rules,
) -> Result<String, String> {
    let meta = std::fs::metadata(input).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let real = write::real_path(target)?;
    let in_place = in_place || same_file(input, &real);
    // Held until the new file is in place: a second run waits, then reads it.
    let _lock = if in_place {
        lock_for_update(&real)?
    } else {
        None
    };
    if in_place && let Some(fmt) = compression_of(input)? {
        return Err(format!(
            "{fmt}-compressed modules cannot be sealed in place; write an uncompressed object with -o"
        ));
    }
    for p in [target, real.as_path()] {
        if let Some(ext) = compressed_name(p) {
            return Err(format!(
                "{}: objlint writes uncompressed objects; name the output without .{ext} and compress it afterwards",
                p.display()
            ));
        }
    }
    let loaded = crate::input::load(input)?;
    if loaded.members.len() != 1 || loaded.members[0].0.is_some() {
        return Err("archives cannot be sealed; seal their member objects".into());
    }
    let obj = Object::parse(&loaded.bytes).map_err(|e| e.0)?;
    let s = seal_model_with(&Model::build(&obj, rules), rules, mode, link, profile)?;
    let mut msg = summary(&s, mode);
    let unchanged = s.edits.patches.is_empty() && s.edits.sections.is_empty();
    if unchanged && in_place {
        // Not rewritten: the bytes, times and a module signature stay.
        let dir = real.parent().filter(|d| !d.as_os_str().is_empty());
        let removed = write::remove_stale_temps(dir.unwrap_or(Path::new(".")));
        msg.push_str(&format!(
            "; nothing to seal: {} is left unchanged",
            real.display()
        ));
        note_stale(&mut msg, &removed);
        return Ok(msg);
    }
    let written = if unchanged {
        // A copy keeps what a rewrite would drop (a signature still valid).
        write::write_verified(&real, &loaded.bytes, Some(input), |back| {
            if back == &loaded.bytes[..] {
                Ok(())
            } else {
                Err("the output does not read back as written".into())
            }
        })?
    } else {
        write::write_verified(&real, &s.rewritten.bytes, Some(input), |back| {
            verify_sealed(&obj, back, &s)
        })?
    };
    if unchanged {
        msg.push_str("; nothing to seal: the output is a copy of the input");
    } else if let Some((n, what)) = s.rewritten.dropped_trailer {
        msg.push_str(&format!("; dropped {n} trailing bytes: {what}"));
    }
    note_stale(&mut msg, &written.stale_removed);
    Ok(msg)
}
