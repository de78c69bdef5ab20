//! Runs the checks over inputs in parallel, in a deterministic order.

use crate::checks::{self, Ctx, Finding, gnu_property};
use crate::config::Options;
use crate::elf::{Machine, Object, STB_GLOBAL, STB_WEAK, STT_FUNC, STT_NOTYPE};
use crate::input::{self, Input, Inputs};
use crate::model::Model;
pub use crate::report::object::{ObjectReport, PropertyFacts};
use crate::rules::Rules;
use crate::timing::{self, Phase};
use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// [`ObjectReport::section_offsets`] of an object.
pub fn section_offsets(obj: &Object) -> Vec<Option<u64>> {
    obj.sections
        .iter()
        .map(|s| (s.sh_type != goblin::elf::section_header::SHT_NOBITS).then_some(s.offset))
        .collect()
}

/// What becomes of an object's memory once its report is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Teardown {
    /// Freed: a library caller, the language server, every input of a run
    /// but its last.
    #[default]
    Free,
    /// Left to the process's exit, which takes the pages back whole (clang's
    /// `-disable-free`): the last input of a command-line run. glibc frees a
    /// large object chunk by chunk, its two arenas' locks taken in turn (a
    /// ThinLTO vmlinux.o: 170-200 ms of a 2 s `-j 2` run).
    Exit,
}

/// Check one object held in memory.
pub fn check_bytes(file: &str, data: &[u8], rules: &Rules, opts: &Options) -> ObjectReport {
    check_bytes_of(file, data, None, rules, opts, Teardown::Free)
}

/// [`check_bytes`] on `data` inside `held`, which gets back what parsing
/// leaves unread (a large object's relocation sections: a fifth to a third
/// of a module or vmlinux.o).
fn check_bytes_of(
    file: &str,
    data: &[u8],
    held: Option<&input::Bytes>,
    rules: &Rules,
    opts: &Options,
    end: Teardown,
) -> ObjectReport {
    let mut rep = ObjectReport {
        file: file.to_string(),
        ..Default::default()
    };
    let release = |part: &[u8]| {
        if let Some(b) = held {
            b.release(part);
        }
    };
    let mut obj = match parse(data, &release) {
        Ok(o) => o,
        Err(e) => {
            rep.error = Some(e);
            return rep;
        }
    };
    obj.mark_code_sections(rules.special.code_sections.get(obj.machine));
    rep.arch = Some(obj.machine);
    // Beside the model, what only the report and the resident set need (a
    // ThinLTO vmlinux.o's 284,616 sections: 8 ms with the other threads
    // idle).
    let aside = || {
        give_back(held, data, obj.parsed_bytes());
        section_offsets(&obj)
    };
    if opts.arch.is_some_and(|a| a != obj.machine) {
        rep.section_offsets = aside();
        return rep;
    }
    // Decoded, the instructions are in the model: the code's pages go.
    let decoded = || give_back(held, data, obj.code_bytes());
    let (offsets, model) = rayon::join(aside, || build_model(&obj, rules, opts, &decoded));
    rep.section_offsets = offsets;
    match model {
        Ok(mut model) => {
            check_model(&mut rep, &model, rules, opts, end);
            if end == Teardown::Exit {
                std::mem::forget(model);
                std::mem::forget(obj);
                return rep;
            }
            // Freed on every thread: a large object's memory goes back by
            // munmap, whose page freeing ran on one (vmlinux.o: 2% of its
            // wall time at -j 2, with the other thread idle).
            let code = std::mem::take(&mut model.code);
            drop(model);
            rayon::join(|| crate::model::free_code(code), || drop(obj));
        }
        Err(e) => rep.error = Some(e),
    }
    rep
}

/// The file pages of `ranges` of `data` (the object's bytes in `held`, the
/// file as loaded) leave the resident set; they read back if touched.
fn give_back(held: Option<&input::Bytes>, data: &[u8], ranges: Vec<std::ops::Range<usize>>) {
    let Some(b) = held else { return };
    for part in ranges.into_iter().filter_map(|r| data.get(r)) {
        b.release(part);
    }
}

/// Read an object; the reader checks every offset it uses, the guard is
/// for its bugs.
fn parse<'a>(data: &'a [u8], release: crate::elf::Release<'a>) -> Result<Object<'a>, String> {
    match catch_unwind(AssertUnwindSafe(|| {
        timing::time(Phase::Read, || Object::parse_releasing(data, Some(release)))
    })) {
        Ok(Ok(o)) => Ok(o),
        Ok(Err(e)) => Err(e.0),
        Err(_) => Err("internal error while reading (a bug in objlint)".into()),
    }
}

const CHECK_BUG: &str = "internal error while checking (a bug in objlint)";

fn build_model<'a>(
    obj: &'a Object<'a>,
    rules: &Rules,
    opts: &Options,
    decoded: &(dyn Fn() + Sync),
) -> Result<Model<'a>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        timing::time(Phase::Model, || {
            Model::build_then(obj, rules, opts.kernel, decoded)
        })
    }))
    .map_err(|_| CHECK_BUG.to_string())
}

/// Run the checks over a model into `rep`; what they computed on the way
/// treated as `end` says.
fn check_model(
    rep: &mut ObjectReport,
    model: &Model,
    rules: &Rules,
    opts: &Options,
    end: Teardown,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // User space: the kernel-only rules are off, walk and gaps included.
        let user;
        let opts = if crate::checks::profile::is_kernel(model, rules, opts) {
            opts
        } else {
            user = opts.for_user_space(rules);
            &user
        };
        let cx = Ctx::new(model, rules, opts);
        let mut findings = run_checks(&cx);
        timing::time(Phase::Source, || {
            crate::source::annotate(model.obj, &mut findings)
        });
        let property = if opts.enabled(gnu_property::ID) && !cx.kernel {
            property_facts(&cx)
        } else {
            None
        };
        if end == Teardown::Exit {
            std::mem::forget(cx);
        }
        (model.functions.len(), findings, property)
    }));
    match result {
        Ok((n, f, p)) => {
            rep.functions = n;
            rep.findings = f;
            rep.property = p;
        }
        Err(_) => rep.error = Some(CHECK_BUG.into()),
    }
}

/// Check the members of an archive as one unit, as a link of them would
/// see them: a function one member defines (global, not weak) and proves
/// never returns is noreturn where the others call it, to a fixed point
/// (each member's inference runs again from what the others proved).
pub fn check_archive(
    name: &str,
    bytes: &[u8],
    members: &[input::Member],
    rules: &Rules,
    opts: &Options,
) -> Vec<ObjectReport> {
    let objects = members
        .iter()
        .map(|(member, range)| {
            (
                input::member_name(name, member.as_deref()),
                Ok(&bytes[range.clone()]),
            )
        })
        .collect();
    check_unit(objects, rules, opts)
}

/// Check objects as one unit ([`check_archive`]): each a name and its bytes,
/// or why they could not be read (an error report, the others checked).
pub fn check_unit(
    objects: Vec<(String, Result<&[u8], String>)>,
    rules: &Rules,
    opts: &Options,
) -> Vec<ObjectReport> {
    let mut reports: Vec<ObjectReport> = objects
        .iter()
        .map(|(file, _)| ObjectReport {
            file: file.clone(),
            ..Default::default()
        })
        .collect();
    let objects: Vec<Result<Object, String>> = objects
        .par_iter()
        .map(|(_, data)| data.clone().and_then(|d| parse(d, &|_| {})))
        .collect();
    let mut models: Vec<Option<Model>> = objects
        .par_iter()
        .zip(reports.par_iter_mut())
        .map(|(obj, rep)| {
            let obj = match obj {
                Ok(o) => o,
                Err(e) => {
                    rep.error = Some(e.clone());
                    return None;
                }
            };
            rep.arch = Some(obj.machine);
            if opts.arch.is_some_and(|a| a != obj.machine) {
                return None;
            }
            build_model(obj, rules, opts, &|| {})
                .map_err(|e| rep.error = Some(e))
                .ok()
        })
        .collect();
    link_noreturn(&mut models);
    let names: Vec<&str> = reports.iter().map(|r| r.file.as_str()).collect();
    link_address_taken(&mut models, &names, rules, opts);
    reports
        .par_iter_mut()
        .zip(models.par_iter())
        .for_each(|(rep, model)| {
            if let Some(m) = model {
                check_model(rep, m, rules, opts, Teardown::Free);
            }
        });
    let all = reports.iter_mut().map(|r| ((), r)).collect();
    property_report(all, "archive", &mut |_, rep, fd| {
        rep.findings.push(fd);
        sort_findings(&mut rep.findings);
    });
    reports
}

/// [`PropertyFacts`] of a user-space object with code.
fn property_facts(cx: &Ctx) -> Option<PropertyFacts> {
    let m = cx.model;
    if !m.code.iter().flatten().any(|c| !c.insns.is_empty()) {
        return None;
    }
    let at = m
        .obj
        .sections_named(".note.gnu.property")
        .first()
        .copied()
        .or_else(|| m.code.iter().flatten().map(|c| c.section()).next())?;
    Some(PropertyFacts {
        machine: m.obj.machine,
        features: m.obj.gnu_property_features().unwrap_or(0),
        at: cx.finding(gnu_property::ID, at, 0, String::new()),
    })
}

/// `gnu-property` across a unit (`what`: "archive", "folder"): each object
/// with [`ObjectReport::property`] that lacks a property most of the others
/// claim (see [`gnu_property::missing_in_archive`]) gets one finding, handed
/// to `add` with the report's key (which files it where it belongs).
pub fn property_report<K>(
    mut reports: Vec<(K, &mut ObjectReport)>,
    what: &str,
    add: &mut dyn FnMut(&K, &mut ObjectReport, Finding),
) {
    let members: Vec<Option<(Machine, u32)>> = reports
        .iter()
        .map(|(_, r)| {
            r.property
                .as_ref()
                .filter(|_| r.error.is_none())
                .map(|p| (p.machine, p.features))
        })
        .collect();
    let missing = gnu_property::missing_in_archive(&members);
    for ((key, rep), lacks) in reports.iter_mut().zip(missing) {
        let Some(p) = rep.property.as_ref().filter(|_| !lacks.is_empty()) else {
            continue;
        };
        let names: Vec<&str> = lacks.iter().map(|l| l.0).collect();
        let counts: Vec<String> = lacks
            .iter()
            .map(|(name, claimed, of)| format!("{name}: {claimed} of {of}"))
            .collect();
        let mut fd = p.at.clone();
        fd.message = format!(
            "does not claim {}, which other objects of this {what} claim ({} objects with code)",
            names.join(" or "),
            counts.join(", ")
        );
        fd.notes.push(format!(
            "the linker ANDs the property notes of everything it links: with this object in the link, the binary loses {} (what `ld -z cet-report`, `-z bti-report` and `-z gcs-report` warn about); build it with the feature, or add the note to hand-written assembly",
            names.join(" and ")
        ));
        add(key, rep, fd);
    }
}

/// Noreturn facts across the models of one archive, to a fixed point. A
/// name counts when every strong definition of it (per architecture) never
/// returns; weak definitions never count (a strong one replaces them).
fn link_noreturn(models: &mut [Option<Model>]) {
    use rustc_hash::{FxHashMap, FxHashSet};
    if models.iter().flatten().count() < 2 {
        return;
    }
    models.par_iter_mut().flatten().for_each(|m| {
        let _ = catch_unwind(AssertUnwindSafe(|| {
            timing::time(Phase::Model, || m.prove_exports())
        }));
    });
    let mut rounds = 0;
    loop {
        let mut defs: FxHashMap<(Machine, String), bool> = FxHashMap::default();
        for m in models.iter().flatten() {
            for (name, noreturn) in m.strong_definitions() {
                defs.entry((m.obj.machine, name.to_string()))
                    .and_modify(|v| *v &= noreturn)
                    .or_insert(noreturn);
            }
        }
        let mut names: FxHashMap<Machine, FxHashSet<String>> = FxHashMap::default();
        for ((machine, name), noreturn) in defs {
            if noreturn {
                names.entry(machine).or_default().insert(name);
            }
        }
        let changed = models
            .par_iter_mut()
            .flatten()
            .map(|m| match names.get(&m.obj.machine) {
                // Inference already ran on this model when it was built.
                Some(n) => catch_unwind(AssertUnwindSafe(|| {
                    timing::time(Phase::Model, || m.link_noreturn(n))
                }))
                .unwrap_or(false),
                None => false,
            })
            .reduce(|| false, |a, b| a | b);
        rounds += 1;
        // Each round adds at least one name; a chain longer than this is
        // not a real archive's.
        if !changed || rounds > 64 {
            break;
        }
    }
}

/// Address-taken facts across the models of one archive, as a link of them
/// sees them: a member's address-taking reference to a symbol it does not
/// define makes the function another member defines under that name (its
/// one strong definition, else its first weak one) address-taken there.
/// Only between members built with landing pads (IBT / BTI), the ones
/// whose missing pads fault; `names` are the members' report names.
fn link_address_taken(models: &mut [Option<Model>], names: &[&str], rules: &Rules, opts: &Options) {
    use crate::checks::pads as landing;
    use crate::model::address_taken::{CodePlace, MemberRefs};
    use rustc_hash::FxHashMap;
    if !["ibt-missing-endbr", "bti-missing-landing-pad"]
        .iter()
        .any(|r| opts.enabled(r))
    {
        return;
    }
    let enforced: Vec<bool> = models
        .par_iter()
        .map(|m| {
            m.as_ref().is_some_and(|m| {
                catch_unwind(AssertUnwindSafe(|| landing::enforced(m, opts))).unwrap_or(false)
            })
        })
        .collect();
    if enforced.iter().filter(|&&e| e).count() < 2 {
        return;
    }
    // (machine, name) -> its definition; `None` when two members define it
    // strongly (no link takes both).
    let mut defs: FxHashMap<(Machine, &str), Option<MemberDef>> = FxHashMap::default();
    for (i, m) in models.iter().enumerate() {
        let Some(m) = m.as_ref().filter(|_| enforced[i]) else {
            continue;
        };
        let code_symbols = m.obj.symbols.iter().filter(|s| {
            (s.bind == STB_GLOBAL || s.bind == STB_WEAK)
                && matches!(s.st_type, STT_FUNC | STT_NOTYPE)
                && !s.name.is_empty()
                && !s.name.starts_with('$')
                && !rules.is_prefix_symbol(&s.name)
        });
        for s in code_symbols {
            let Some(section) = s.section_index().filter(|&k| m.section_code(k).is_some()) else {
                continue;
            };
            let strong = s.bind != STB_WEAK;
            let def = MemberDef {
                member: i,
                place: (section, s.value),
                size: s.size,
                strong,
            };
            defs.entry((m.obj.machine, s.name.as_ref()))
                .and_modify(|d| match d {
                    Some(old) if strong && old.strong => *d = None,
                    Some(old) if strong => *old = def,
                    _ => {}
                })
                .or_insert(Some(def));
        }
    }
    // Each member's references to the others: (defining member, the place
    // in it, where the reference is, referencing member).
    type Found = (usize, CodePlace, String, usize);
    let found: Vec<Vec<Found>> = models
        .par_iter()
        .enumerate()
        .map(|(j, m)| {
            let Some(m) = m.as_ref().filter(|_| enforced[j]) else {
                return Vec::new();
            };
            catch_unwind(AssertUnwindSafe(|| {
                let at = m.address_taken(&rules.landing_pads);
                at.imports
                    .iter()
                    .filter_map(|r| {
                        let name = m.obj.symbols[r.sym].name.as_ref();
                        let def = (*defs.get(&(m.obj.machine, name))?)?;
                        let to = member_ref_place(models[def.member].as_ref()?, def, r.addend)?;
                        let place =
                            landing::place_str(m, r.from_section, r.insn.unwrap_or(r.reloc_offset));
                        Some((def.member, to, format!("{}: {place}", names[j]), j))
                    })
                    .collect()
            }))
            .unwrap_or_default()
        })
        .collect();
    let mut per_member: Vec<FxHashMap<CodePlace, MemberRefs>> =
        vec![FxHashMap::default(); models.len()];
    for (i, to, place, j) in found.into_iter().flatten() {
        per_member[i].entry(to).or_default().push((place, j));
    }
    models.par_iter_mut().zip(per_member).for_each(|(m, refs)| {
        if let Some(m) = m.as_mut().filter(|_| !refs.is_empty()) {
            let mut refs: Vec<_> = refs.into_iter().collect();
            refs.sort_unstable_by_key(|r| r.0);
            let _ = catch_unwind(AssertUnwindSafe(|| {
                m.link_member_refs(&rules.landing_pads, refs)
            }));
        }
    });
}

/// A symbol of code one member of an archive defines for the others: a
/// function, or a label of hand-written code (`STT_NOTYPE`, SYM_CODE_START).
#[derive(Clone, Copy)]
struct MemberDef {
    member: usize,
    place: crate::model::address_taken::CodePlace,
    size: u64,
    strong: bool,
}

/// Where `sym+addend` (`sym` defined by `def` in `m`) lands: an instruction
/// of the section, inside `sym` or not (a negative addend or one past its
/// end names code of another function, or outside any). The end of a
/// function or of a sized routine (`sym+size`, a range's end), unless `sym`
/// itself starts there and has a size, and places between instructions are
/// no branch target, as inside one object (address_taken's `classify`).
fn member_ref_place(
    m: &Model,
    def: MemberDef,
    addend: i64,
) -> Option<crate::model::address_taken::CodePlace> {
    let (section, start) = def.place;
    let at = start.checked_add_signed(addend)?;
    let names_routine_here = addend == 0 && def.size > 0;
    if !names_routine_here && m.range_ends_at(section, at) {
        return None;
    }
    m.section_code(section)?.index_at(at)?;
    Some((section, at))
}

/// Functions from which an object's object-wide checks run side by side.
const PARALLEL_CHECKS: usize = 4096;

/// Run every enabled check over a model; findings sorted by place and rule.
pub fn run_checks(cx: &Ctx) -> Vec<Finding> {
    // Each with its place in checks::all(), which names its timing.
    let checks: Vec<_> = checks::all()
        .into_iter()
        .enumerate()
        .filter(|(_, c)| cx.opts.enabled(c.id()))
        .collect();
    let funcs = &cx.model.functions;
    let mut out: Vec<Finding> = Vec::new();
    // The walk first: nearly every object-wide check reads it, and a check
    // waiting for another's first use would hold a thread idle while the
    // walk's own parallel work ran on one. Then the checks side by side,
    // their findings in check order.
    // (Side by side only in large objects: in a module the threads are
    // busy with other inputs.)
    if funcs.len() < PARALLEL_CHECKS {
        for &(i, c) in &checks {
            timing::time(Phase::Rule(i), || c.check_object(cx, &mut out));
        }
    } else {
        // The speculation pass reads no lazy part of the model the walk
        // builds (a thread waiting in one may run the other's work): the
        // two side by side.
        let wants = |readers: &[&str]| checks.iter().any(|(_, c)| readers.contains(&c.id()));
        // Likewise the model's two tables several checks read: built side
        // by side, each with its own parallel work, before any check waits
        // for one (on vmlinux.o a thread waited 20 ms for the patchable
        // entries). All four at once: a thread done with one part takes
        // work of the others, so the walk's serial end (the walks from
        // unwind hints, in order) no longer leaves a thread idle. Neither
        // table reads the walk or the speculation pass; the walk's end may
        // wait for the address-taken table, which the other thread has
        // usually built first (it takes this join's second half at once).
        let m = cx.model;
        rayon::join(
            || {
                rayon::join(
                    || wants(checks::WALK_READERS).then(|| cx.flow()),
                    || wants(checks::SPECULATION_READERS).then(|| cx.speculation()),
                )
            },
            || {
                rayon::join(
                    || wants(checks::PATCHABLE_READERS).then(|| m.patchable(&cx.rules.patchable)),
                    || {
                        (wants(checks::LANDING_READERS) && checks::pads::reads_address_taken(cx))
                            .then(|| m.address_taken(&cx.rules.landing_pads))
                    },
                )
            },
        );
        let found: Vec<Vec<Finding>> = checks
            .par_iter()
            .map(|&(i, c)| {
                let mut v = Vec::new();
                timing::time(Phase::Rule(i), || c.check_object(cx, &mut v));
                v
            })
            .collect();
        out.extend(found.into_iter().flatten());
    }
    sort_findings(&mut out);
    out
}

/// Findings in the output's order (place, rule, message), each once.
fn sort_findings(out: &mut Vec<Finding>) {
    out.sort_by(|a, b| {
        (a.section_index, a.offset, a.rule, &a.message).cmp(&(
            b.section_index,
            b.offset,
            b.rule,
            &b.message,
        ))
    });
    out.dedup();
}

/// Check a file (all members of an archive; a thin archive's members read
/// from their files, as one unit).
pub fn check_input(inp: &Input, rules: &Rules, opts: &Options) -> Vec<ObjectReport> {
    check_input_then(inp, rules, opts, Teardown::Free)
}

/// [`check_input`], a single object's memory then treated as `end` says
/// (an archive's members are freed).
fn check_input_then(
    inp: &Input,
    rules: &Rules,
    opts: &Options,
    end: Teardown,
) -> Vec<ObjectReport> {
    if inp.is_thin() {
        return check_thin(inp, rules, opts);
    }
    let name = inp.name();
    let loaded = match timing::time(Phase::Read, || input::load(&inp.path)) {
        Ok(l) => l,
        Err(e) => {
            return vec![ObjectReport {
                file: name,
                error: Some(e),
                ..Default::default()
            }];
        }
    };
    let mut reports = match loaded.members.as_slice() {
        [(None, range)] => vec![check_bytes_of(
            &name,
            &loaded.bytes[range.clone()],
            Some(&loaded.bytes),
            rules,
            opts,
            end,
        )],
        members => check_archive(&name, &loaded.bytes, members, rules, opts),
    };
    for rep in &mut reports {
        rep.ignored = opts.ignores.filter(&inp.path, &mut rep.findings);
    }
    if end == Teardown::Exit {
        // The file's mapping too (a munmap of what is still resident).
        std::mem::forget(loaded);
    }
    reports
}

/// A thin archive's members, each read from its own file (a regular archive
/// among them by its members), checked as one unit. A member that cannot be
/// read is an error report naming it; the others are checked without it.
fn check_thin(inp: &Input, rules: &Rules, opts: &Options) -> Vec<ObjectReport> {
    let files = inp.files();
    let loaded: Vec<Result<input::Loaded, String>> = files
        .par_iter()
        .map(|(_, path)| {
            timing::time(Phase::Read, || input::load(path)).map_err(|e| {
                format!(
                    "member {} of the thin archive cannot be read: {e}",
                    path.display()
                )
            })
        })
        .collect();
    let mut objects = Vec::new();
    let mut paths = Vec::new();
    for ((name, path), l) in files.iter().zip(&loaded) {
        match l {
            Err(e) => {
                objects.push((name.clone(), Err(e.clone())));
                paths.push(*path);
            }
            Ok(l) => {
                for (member, range) in &l.members {
                    let file = input::member_name(name, member.as_deref());
                    objects.push((file, Ok(&l.bytes[range.clone()])));
                    paths.push(*path);
                }
            }
        }
    }
    let mut reports = check_unit(objects, rules, opts);
    for (rep, path) in reports.iter_mut().zip(paths) {
        rep.ignored = opts.ignores.filter(path, &mut rep.findings);
    }
    reports
}

/// Check all inputs, in parallel; reports come back in input order.
pub fn check_inputs(inputs: &Inputs, rules: &Rules, opts: &Options) -> Vec<ObjectReport> {
    let mut all = Vec::new();
    check_inputs_streaming(inputs, rules, opts, &mut |r| all.extend(r));
    all
}

/// Check all inputs in parallel and hand each input's reports to `sink` in
/// input order, as soon as it and every input before it are done (ripgrep's
/// habit). Workers take inputs in order from one counter, so what waits for an
/// earlier input is at most about one per worker: memory stays flat however
/// many objects a run has. Each input's own work (archive members, sections,
/// functions) is parallel inside it.
pub fn check_inputs_streaming(
    inputs: &Inputs,
    rules: &Rules,
    opts: &Options,
    sink: &mut dyn FnMut(Vec<ObjectReport>),
) {
    check_inputs_streaming_with(inputs, &|_| (rules, opts), Teardown::Free, sink)
}

/// [`check_inputs_streaming`] with the rules and options of each input
/// (by index): each object under its own `objlint.toml`; the last input's
/// memory treated as `last` says.
pub fn check_inputs_streaming_with<'a>(
    inputs: &Inputs,
    setup: &(dyn Fn(usize) -> (&'a Rules, &'a Options) + Sync),
    last: Teardown,
    sink: &mut dyn FnMut(Vec<ObjectReport>),
) {
    let mut folders = Folders::new(inputs);
    for_each_input(
        inputs,
        &|i, inp| {
            let (rules, opts) = setup(i);
            let end = if i + 1 == inputs.len() {
                last
            } else {
                Teardown::Free
            };
            check_input_then(inp, rules, opts, end)
        },
        &mut |i, r| folders.pass(i, r, setup, sink),
    );
}

/// The input loop of every subcommand that reads many inputs (`check`,
/// `stats`): `work` runs on each input in parallel and `sink` gets each
/// result in input order, as soon as it and every input before it are done
/// (ripgrep's habit). Workers take inputs in order from one counter, so
/// what waits for an earlier input is at most about one per worker: memory
/// stays flat however many objects a run has.
///
/// A large input ([`LARGE_INPUT`]) runs alone: the other workers leave the
/// pool to its own parallel work once their current input is done, and come
/// back when it is. Peak memory is then the largest object's, not the sum
/// of the largest few that happen to be checked at once (amdgpu.ko and
/// i915.ko together: 116 MB, amdgpu.ko alone: 89 MB).
///
/// Workers run at most [`AHEAD`] inputs per thread past the first one not
/// yet handed to `sink`, so results waiting for a slow input stay bounded
/// too: a thread the system stalls for seconds (a busy build machine) would
/// otherwise let the others finish tens of thousands of inputs that all wait
/// for it. A worker that reaches the bound leaves the pool, as for a large
/// input, and the caller's thread sends it back once results move on (it
/// must not wait where it is: rayon may have started it on top of the slow
/// input's own unfinished work, on the same thread).
pub fn for_each_input<T: Send>(
    inputs: &Inputs,
    work: &(dyn Fn(usize, &Input) -> T + Sync),
    sink: &mut dyn FnMut(usize, T),
) {
    use std::sync::atomic::Ordering;
    let pool = Pool {
        inputs,
        work,
        next: std::sync::atomic::AtomicUsize::new(0),
        done: std::sync::atomic::AtomicUsize::new(0),
        ahead: AHEAD * rayon::current_num_threads().max(1),
        stop: std::sync::atomic::AtomicBool::new(false),
        gate: std::sync::Mutex::new(Gate::default()),
        mail: std::sync::Mutex::new(Vec::new()),
        posted: std::sync::Condvar::new(),
    };
    let mut panicked = None;
    // The body runs on the calling thread, which must not be a pool worker
    // (it would hold one while it waits).
    rayon::in_place_scope(|s| {
        for _ in 0..rayon::current_num_threads().min(inputs.len()) {
            let pool = &pool;
            s.spawn(move |s| pool.worker(s));
        }
        let mut pending = std::collections::BTreeMap::new();
        let mut batch = Vec::new();
        let mut want = 0;
        'run: while want < inputs.len() {
            {
                let mut mail = crate::lock(&pool.mail);
                if mail.is_empty() {
                    mail = pool
                        .posted
                        .wait_timeout(mail, MAIL_WAIT)
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .0;
                }
                std::mem::swap(&mut *mail, &mut batch);
            }
            for d in batch.drain(..) {
                match d {
                    Done::Input(i, r) => {
                        pending.insert(i, r);
                    }
                    Done::Panicked(p) => {
                        panicked = Some(p);
                        break 'run;
                    }
                }
            }
            while let Some(r) = pending.remove(&want) {
                sink(want, r);
                want += 1;
            }
            pool.done.store(want, Ordering::Release);
            let back = {
                let mut g = pool.gate();
                if g.parked > 0 && pool.next.load(Ordering::Relaxed) < want + pool.ahead {
                    std::mem::take(&mut g.parked)
                } else {
                    0
                }
            };
            for _ in 0..back {
                let pool = &pool;
                s.spawn(move |s| pool.worker(s));
            }
        }
        pool.stop.store(true, Ordering::Relaxed);
    });
    if let Some(p) = panicked {
        std::panic::resume_unwind(p);
    }
}

/// Results posted before a worker wakes the caller's thread for them: each
/// wake-up is a system call and a switch of threads on a busy core (on the
/// 4,230 modules one per result cost 3-4% of the wall time, `-j 2`). The
/// last inputs, a worker leaving the pool and a panic wake it at once.
const MAIL_BATCH: usize = 32;
/// How long the caller's thread waits for a batch at most: results go out
/// at most this late.
const MAIL_WAIT: std::time::Duration = std::time::Duration::from_millis(10);

/// What a worker hands back: an input's result, or the panic of its work.
enum Done<T> {
    Input(usize, T),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Inputs per thread a worker may run past the first one not yet handed on
/// (see [`for_each_input`]); a module's report waiting is a few KB. Not
/// fewer: under `chrt -f` (the benchmarks) the caller's thread runs only
/// when a worker blocks, and with 64 per thread the workers left the pool
/// often enough to cost 8% on the 4,230 modules.
const AHEAD: usize = 1024;

/// Inputs from this size on run alone (see [`for_each_input`]), as do thin
/// archives (a whole kernel's `vmlinux.a` is a small file).
const LARGE_INPUT: u64 = 16 << 20;

/// How much smaller a compressed module is, at least: amdgpu.ko's 20.5 MB
/// are 3.5 MB with Debian's xz settings (5.9x) and 3.9 MB with `zstd -19`.
const COMPRESSION: u64 = 5;

/// Whether a file of `len` bytes is a large input: by what it holds, so a
/// compressed module (`.ko.xz`, `.ko.zst`, told by name) by its likely size.
fn is_large(path: &std::path::Path, len: u64) -> bool {
    let compressed = path.extension().is_some_and(|e| e == "xz" || e == "zst");
    let len = if compressed {
        len.saturating_mul(COMPRESSION)
    } else {
        len
    };
    len >= LARGE_INPUT
}

struct Pool<'i, T> {
    inputs: &'i Inputs,
    work: &'i (dyn Fn(usize, &Input) -> T + Sync),
    next: std::sync::atomic::AtomicUsize,
    /// Inputs handed on to the sink, in order.
    done: std::sync::atomic::AtomicUsize,
    /// How far past `done` a worker may start an input.
    ahead: usize,
    /// The run is over (a worker's work panicked): take no more inputs.
    stop: std::sync::atomic::AtomicBool,
    gate: std::sync::Mutex<Gate>,
    /// Results for the caller's thread, and its wake-up.
    mail: std::sync::Mutex<Vec<Done<T>>>,
    posted: std::sync::Condvar,
}

/// How many large inputs are running (two may start at once); how many
/// workers left the pool to them; how many left it because they were
/// [`AHEAD`] too far.
#[derive(Default)]
struct Gate {
    large: usize,
    left: usize,
    parked: usize,
}

impl<'i, T: Send> Pool<'i, T> {
    fn gate(&self) -> std::sync::MutexGuard<'_, Gate> {
        crate::lock(&self.gate)
    }

    /// Hands `d` to the caller's thread, waking it when `now` or when
    /// enough wait.
    fn post(&self, d: Option<Done<T>>, now: bool) {
        let n = {
            let mut mail = crate::lock(&self.mail);
            mail.extend(d);
            mail.len()
        };
        if now || n >= MAIL_BATCH {
            self.posted.notify_one();
        }
    }

    fn worker<'s>(&'s self, s: &rayon::Scope<'s>) {
        use std::sync::atomic::Ordering;
        loop {
            {
                let mut g = self.gate();
                if self.stop.load(Ordering::Relaxed) {
                    return;
                }
                if g.large > 0 {
                    g.left += 1;
                    return;
                }
                // Read under the lock the caller's thread takes after it
                // moves `done` on, so it sees this worker parked.
                if self.next.load(Ordering::Relaxed)
                    >= self.done.load(Ordering::Acquire) + self.ahead
                {
                    g.parked += 1;
                    drop(g);
                    // What it waits for is the caller's to hand on.
                    self.post(None, true);
                    return;
                }
            }
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(inp) = self.inputs.get(i) else {
                return;
            };
            let large = inp.is_thin()
                || std::fs::metadata(&inp.path).is_ok_and(|m| is_large(&inp.path, m.len()));
            if large {
                self.gate().large += 1;
            }
            let r = catch_unwind(AssertUnwindSafe(|| (self.work)(i, &inp)));
            if large {
                let back = {
                    let mut g = self.gate();
                    g.large -= 1;
                    if g.large == 0 {
                        std::mem::take(&mut g.left)
                    } else {
                        0
                    }
                };
                for _ in 0..back {
                    s.spawn(move |s| self.worker(s));
                }
            }
            match r {
                Ok(r) => {
                    // The last inputs (none left to start) go out at once.
                    let last = self.next.load(Ordering::Relaxed) >= self.inputs.len();
                    self.post(Some(Done::Input(i, r)), last || large);
                }
                Err(p) => {
                    self.stop.store(true, Ordering::Relaxed);
                    self.post(Some(Done::Panicked(p)), true);
                    return;
                }
            }
            // The caller's thread hands results on; where it waits for a
            // core (under `chrt -f` it runs only when a worker yields one),
            // let it run before results pile up.
            if self.next.load(Ordering::Relaxed) > self.done.load(Ordering::Relaxed) + YIELD_LAG {
                std::thread::yield_now();
            }
        }
    }
}

/// Results waiting for the caller's thread past which a worker yields its core.
const YIELD_LAG: usize = 64;

/// The property report of a folder named on the command line (what `ld -z
/// cet-report` and the like would say of a link of its objects): the
/// objects found under it that are user space with code, each as a whole
/// file (an archive's members take part in their archive's report instead).
/// A folder's reports go out as they come until its first such object;
/// from there they wait for the folder's last input, so a folder of kernel
/// objects streams as ever.
struct Folders<'i> {
    inputs: &'i Inputs,
    /// Per input: whether it is its folder's last input.
    last: Vec<bool>,
    /// Inputs of the folder held back: (index, reports).
    held: Vec<(usize, Vec<ObjectReport>)>,
}

impl<'i> Folders<'i> {
    fn new(inputs: &'i Inputs) -> Folders<'i> {
        let mut last = vec![false; inputs.len()];
        let mut at = rustc_hash::FxHashMap::default();
        for k in 0..inputs.len() {
            if let Some(f) = inputs.folder(k) {
                at.insert(f, k);
            }
        }
        for k in at.into_values() {
            last[k] = true;
        }
        Folders {
            inputs,
            last,
            held: Vec::new(),
        }
    }

    /// Input `i`'s reports, to `sink` now or when its folder is complete.
    fn pass<'a>(
        &mut self,
        i: usize,
        reports: Vec<ObjectReport>,
        setup: &(dyn Fn(usize) -> (&'a Rules, &'a Options) + Sync),
        sink: &mut dyn FnMut(Vec<ObjectReport>),
    ) {
        if self.inputs.folder(i).is_none()
            || (self.held.is_empty() && !reports.iter().any(|r| r.property.is_some()))
        {
            return sink(reports);
        }
        self.held.push((i, reports));
        if !self.last[i] {
            return;
        }
        let mut held = std::mem::take(&mut self.held);
        let inputs = self.inputs;
        // A file's own report, not an archive's members.
        let whole = held
            .iter_mut()
            .filter(|(k, r)| r.len() == 1 && inputs.get(*k).is_some_and(|i| r[0].file == i.name()))
            .map(|(k, r)| (*k, &mut r[0]))
            .collect();
        property_report(whole, "folder", &mut |&k, rep, fd| {
            let (_, opts) = setup(k);
            let mut one = vec![fd];
            if let Some(inp) = inputs.get(k) {
                rep.ignored += opts.ignores.filter(&inp.path, &mut one);
            }
            rep.findings.extend(one);
            sort_findings(&mut rep.findings);
        });
        for (_, r) in held {
            sink(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Inputs named `/nonexistent/K.o` (nothing reads them: `work` is the test's).
    fn named_inputs(n: usize) -> Inputs {
        named_inputs_thin(n, |_| false)
    }

    /// As [`named_inputs`], input K a thin archive of one member where `thin(K)`.
    fn named_inputs_thin(n: usize, thin: impl Fn(usize) -> bool) -> Inputs {
        let mut inputs = Inputs::default();
        for k in 0..n {
            let members = if thin(k) {
                vec![input::ThinMember {
                    name: "m.o".into(),
                    path: "/nonexistent/m.o".into(),
                }]
            } else {
                Vec::new()
            };
            let path = std::path::PathBuf::from(format!("/nonexistent/{k}.o"));
            inputs.push(&path, members, None).unwrap();
        }
        inputs
    }

    /// [`for_each_input`] on a pool of `threads`: what reached the sink, in order.
    fn run_inputs<T: Send>(
        threads: usize,
        inputs: &Inputs,
        work: &(dyn Fn(usize, &Input) -> T + Sync),
    ) -> Vec<(usize, T)> {
        let mut got = Vec::new();
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| for_each_input(inputs, work, &mut |i, r| got.push((i, r))));
        got
    }

    #[test]
    fn compressed_modules_are_large_by_what_they_hold() {
        let p = |s: &str| std::path::PathBuf::from(s);
        // amdgpu.ko: 20.5 MB, 3.5 MB as Debian ships it (xz).
        assert!(is_large(&p("amdgpu.ko"), 20_549_712));
        assert!(is_large(&p("amdgpu.ko.xz"), 3_465_964));
        assert!(is_large(&p("amdgpu.ko.zst"), 3_882_348));
        assert!(!is_large(&p("i915.ko"), 6_061_296));
        assert!(!is_large(&p("i915.ko.xz"), 1_200_000));
        assert!(!is_large(&p("big.ko"), 3_465_964));
    }

    /// A large input runs alone: once it has started, each other worker
    /// finishes at most the input it already took, and all come back after
    /// it; every result reaches the sink once, in input order.
    #[test]
    fn large_inputs_run_alone() {
        let threads = 3;
        // Large inputs far enough apart that, without the gate, the other
        // workers would not reach the next one while one runs.
        // A thin archive counts as large whatever its size.
        let inputs = named_inputs_thin(240, |k| k % 60 == 30);
        let running_large = AtomicUsize::new(0);
        let started_during = AtomicUsize::new(0);
        let work = |_: usize, inp: &Input| {
            if inp.is_thin() {
                running_large.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(20));
                running_large.fetch_sub(1, Ordering::SeqCst);
            } else {
                if running_large.load(Ordering::SeqCst) > 0 {
                    started_during.fetch_add(1, Ordering::SeqCst);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            inp.path.clone()
        };
        let got = run_inputs(threads, &inputs, &work);
        let want: Vec<_> = inputs
            .iter()
            .enumerate()
            .map(|(i, x)| (i, x.path.clone()))
            .collect();
        assert_eq!(got, want);
        let larges = inputs.iter().filter(|i| i.is_thin()).count();
        // Without the gate the others check about 2 x 20 small inputs per
        // large one (73 in all, measured; 0 with it).
        assert!(
            started_during.load(Ordering::SeqCst) <= larges * (threads - 1),
            "{} small inputs started while a large one ran",
            started_during.load(Ordering::SeqCst)
        );
    }

    /// A panic in one input's work ends the run with that panic, at once:
    /// no hang waiting for its result (the caller's thread keeps a sender).
    #[test]
    fn a_panicking_input_ends_the_run() {
        let inputs = named_inputs(500);
        let work = |i: usize, _: &Input| {
            assert!(i != 5, "input 5");
            i
        };
        // Its own pool: what reached the sink is read after the panic.
        let mut got = Vec::new();
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .unwrap()
                .install(|| for_each_input(&inputs, &work, &mut |i, n| got.push((i, n))))
        }));
        assert!(r.is_err());
        assert_eq!(got, (0..5).map(|i| (i, i)).collect::<Vec<_>>());
    }

    /// While one input is slow (a stalled thread), the others run at most
    /// [`AHEAD`] inputs per thread past it; every result still reaches the
    /// sink once, in order.
    #[test]
    fn results_waiting_for_a_slow_input_stay_bounded() {
        let threads = 3;
        let bound = 10 + AHEAD * threads + threads;
        let inputs = named_inputs(4 * AHEAD * threads);
        let slow_done = std::sync::atomic::AtomicBool::new(false);
        let furthest = AtomicUsize::new(0);
        let work = |i: usize, _: &Input| {
            if i == 10 {
                // Parallel work of its own, as a real input has.
                let n: usize = (0..64u64).into_par_iter().map(|_| 1).sum();
                // Slow until the others pass the bound (the fault) or stop
                // moving for a while (they left the pool).
                let (mut seen, mut since) = (0, std::time::Instant::now());
                loop {
                    let f = furthest.load(Ordering::SeqCst);
                    if f > bound {
                        break;
                    }
                    if f != seen {
                        (seen, since) = (f, std::time::Instant::now());
                    } else if since.elapsed() > Duration::from_millis(200) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                slow_done.store(true, Ordering::SeqCst);
                return n;
            }
            if !slow_done.load(Ordering::SeqCst) {
                furthest.fetch_max(i, Ordering::SeqCst);
            }
            1
        };
        let got = run_inputs(threads, &inputs, &work);
        assert_eq!(got.len(), inputs.len());
        assert!(got.iter().enumerate().all(|(k, &(i, _))| k == i));
        assert_eq!(got[10].1, 64);
        // Without the bound the others finish all of them meanwhile.
        let far = furthest.load(Ordering::SeqCst);
        assert!(
            far <= bound,
            "input {far} started while input 10 ran (bound {bound})"
        );
    }

    /// A run whose last object is left to the process's exit reports what a
    /// run that frees it does (the object leaked here is the test's).
    #[test]
    fn teardown_at_exit_reports_the_same() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "o" || e == "ko"))
            .collect();
        names.sort();
        assert!(names.len() >= 3);
        let mut inputs = Inputs::default();
        for p in &names {
            inputs.push(p, Vec::new(), None).unwrap();
        }
        let rules = Rules::builtin();
        let opts = Options::default();
        let run = |last| {
            let mut all = Vec::new();
            check_inputs_streaming_with(&inputs, &|_| (&rules, &opts), last, &mut |r| {
                all.extend(r)
            });
            format!("{all:#?}")
        };
        let freed = run(Teardown::Free);
        assert!(freed.contains("findings"));
        assert_eq!(run(Teardown::Exit), freed);
    }
}
