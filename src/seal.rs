//! `objlint seal`: seal landing pads nobody needs (seed 000).
//!
//! ENDBR64 (x86) and `BTI c` (arm64) at the entry of functions that are never
//! address-taken are either overwritten with a NOP of the same size (`nop`),
//! or kept and listed in a seal section of PC-relative entries (`section`:
//! `.ibt_endbr_seal` on x86 as the kernel consumes it, `.bti_seal` on arm64;
//! names and relocation types in `rules/seal.toml`). The result is written
//! through [`crate::elf::write`], re-read and verified before it replaces
//! anything.

use crate::arch::decoder;
use crate::checks::symtab_shndx;
use crate::cli::{SealArgs, SealMode, usage_error};
use crate::elf::write::{self, Edits, NewReloc, NewSection, Rewritten, SymRef};
use crate::elf::{Machine, Object, Place};
use crate::model::Model;
use crate::model::sealable::{SealReport, sealable_pads};
use crate::rules::Rules;
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

const SEAL_RULES: &str = include_str!("../rules/seal.toml");
const SHF_ALLOC: u64 = 2;

#[derive(Debug, Deserialize)]
pub struct SealSection {
    pub name: String,
    pub reloc_type: u32,
}

#[derive(Debug, Deserialize)]
struct PerArch {
    x86_64: SealSection,
    aarch64: SealSection,
}

#[derive(Debug, Deserialize)]
struct Exempt {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    prefix: Option<String>,
    #[serde(default)]
    contains: Option<String>,
    #[serde(default)]
    except: Vec<String>,
    #[allow(dead_code)]
    reason: String,
}

/// `rules/seal.toml`.
#[derive(Debug, Deserialize)]
pub struct SealRules {
    section: PerArch,
    exempt: Vec<Exempt>,
}

impl SealRules {
    pub fn builtin() -> SealRules {
        toml::from_str(SEAL_RULES).expect("rules/seal.toml parses")
    }

    pub fn section(&self, m: Machine) -> &SealSection {
        match m {
            Machine::X86_64 => &self.section.x86_64,
            Machine::Aarch64 => &self.section.aarch64,
        }
    }

    /// Whether relocations from this section never make code address-taken.
    pub fn is_exempt(&self, section: &str) -> bool {
        self.exempt.iter().any(|e| {
            let hit = e.name.as_deref() == Some(section)
                || e.prefix.as_deref().is_some_and(|p| section.starts_with(p))
                || e.contains.as_deref().is_some_and(|c| section.contains(c));
            hit && !e.except.iter().any(|x| x == section)
        })
    }
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
            if let Place::Local { section, offset } = obj.resolve(r.sym, r.addend) {
                out.insert((section, offset));
            }
        }
    }
    (sec, out)
}

/// Plan and build the sealed object in memory.
pub fn seal_object(obj: &Object, mode: SealMode, link: bool) -> Result<Sealed, String> {
    let rules = Rules::builtin();
    let seal_rules = SealRules::builtin();
    let model = Model::build(obj, &rules);
    let exempt = |s: &str| seal_rules.is_exempt(s);
    let mut report = sealable_pads(&model, &exempt, link);
    let sec = seal_rules.section(obj.machine);
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

pub fn run(a: &SealArgs) -> i32 {
    if a.in_place && a.output.is_some() {
        return usage_error("use either -o OUT or --in-place");
    }
    let target = match (&a.output, a.in_place) {
        (Some(o), _) => o.clone(),
        (None, true) => a.input.clone(),
        (None, false) => return usage_error("seal needs -o OUT or --in-place"),
    };
    let name = a.input.display().to_string();
    match seal_file(&a.input, &target, a.mode, a.link, a.in_place) {
        Ok(msg) => {
            eprintln!("objlint: {name}: {msg}");
            0
        }
        Err(e) => {
            eprintln!("objlint: {name}: {e}");
            2
        }
    }
}

/// Seal `input` into `target` (which may be the input itself).
pub fn seal_file(
    input: &Path,
    target: &Path,
    mode: SealMode,
    link: bool,
    in_place: bool,
) -> Result<String, String> {
    let raw = std::fs::read(input).map_err(|e| e.to_string())?;
    let loaded = crate::input::load(input)?;
    if loaded.members.len() != 1 || loaded.members[0].0.is_some() {
        return Err("archives cannot be sealed; seal their member objects".into());
    }
    if loaded.bytes.len() != raw.len() && in_place {
        return Err(
            "compressed modules cannot be sealed in place; write an uncompressed object with -o"
                .into(),
        );
    }
    let obj = Object::parse(&loaded.bytes).map_err(|e| e.0)?;
    let s = seal_object(&obj, mode, link)?;
    write::write_verified(target, &s.rewritten.bytes, Some(input), |back| {
        verify_sealed(&obj, back, &s)
    })?;
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
    if let Some((n, what)) = s.rewritten.dropped_trailer {
        msg.push_str(&format!("; dropped {n} trailing bytes: {what}"));
    }
    Ok(msg)
}
