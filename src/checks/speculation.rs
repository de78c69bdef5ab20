//! What the speculation rules (`retpoline`, `rethunk`, `sls`) share: which
//! mitigations an object's build uses, and one pass over its instructions
//! that finds every place one of them is missing.
//!
//! Like objtool's `validate_retpoline` and `validate_sls`, every instruction
//! of every executable section is judged, reached by a path or not. The
//! build is read from the object (`rules/speculation.toml` says how) unless
//! `--mitigations` or the config file's `mitigations` say it. Places the
//! source annotated (`ANNOTATE_RETPOLINE_SAFE`, `ANNOTATE_UNRET_SAFE`) need
//! nothing; a linked module lost those annotations, so what the object
//! itself cannot vouch for there is counted as not judged
//! (`analysis-incomplete`), never reported or passed on a guess. What the
//! object still says is used: an indirect call the kernel patches into a
//! direct one (`ALT_FLAG_DIRECT_CALL`, paravirt calls) and an indirect branch
//! at an alternative whose other form goes through a retpoline thunk (the
//! kernel picks one at boot: `CALL_NOSPEC`, `JMP_NOSPEC`) need no thunk.

use super::analysis_incomplete::{Cause, Gap};
use super::{Ctx, Finding};
use crate::arch::Kind;
use crate::config::Mitigations;
use crate::elf::Machine;
use crate::model::alternatives::AltSite;
use crate::model::special::At;
use crate::model::{Dest, Model};

pub const RETPOLINE: &str = "retpoline";
pub const RETHUNK: &str = "rethunk";
pub const SLS: &str = "sls";

/// The mitigations of an object's build, and how they were told.
#[derive(Debug, Clone, Default)]
pub struct Build {
    pub on: Mitigations,
    /// Per rule whose mitigation is on: the evidence, or the option.
    pub why: Vec<(&'static str, String)>,
    /// Module code (`.init.text` needs retpolines there).
    pub module: bool,
    /// objtool's annotations can be read: the object was not linked into
    /// a module, which drops them.
    pub judged: bool,
}

/// A place a speculation rule reports.
#[derive(Debug, Clone)]
pub struct Site {
    pub rule: &'static str,
    pub at: At,
    pub message: String,
    pub notes: Vec<String>,
}

/// What the one pass found.
#[derive(Debug, Default)]
pub struct Facts {
    pub build: Build,
    pub sites: Vec<Site>,
    pub gaps: Vec<Gap>,
}

fn place(m: &Model, sec: usize, off: u64) -> String {
    m.place_name(sec, off)
}

/// The build's mitigations, from the options or the object.
fn detect(cx: &Ctx) -> Build {
    let m = cx.model;
    let r = &cx.rules.speculation;
    let obj = m.obj;
    let module = r
        .module_markers
        .sections
        .iter()
        .any(|s| !obj.sections_named(s).is_empty())
        || obj
            .symbols
            .iter()
            .any(|s| s.index != 0 && r.module_markers.symbols.iter().any(|n| *n == s.name));
    let linked = cx
        .rules
        .noinstr
        .linked_module_sections
        .iter()
        .any(|s| !obj.sections_named(s).is_empty());
    let judged = m.special().annotated || !linked;
    if let Some(on) = cx.opts.mitigations {
        return Build {
            on,
            why: [RETPOLINE, RETHUNK, SLS]
                .map(|r| {
                    (
                        r,
                        "the build's mitigations as given by --mitigations or the config file"
                            .to_string(),
                    )
                })
                .to_vec(),
            module,
            judged,
        };
    }
    let x86 = obj.machine == Machine::X86_64;
    let blr_thunks = r.sls_call_thunks.get(obj.machine);
    let mut retpoline: Option<String> = None;
    let mut rethunk: Option<String> = None;
    let mut blr: Option<String> = None;
    let (mut bare, mut hardened) = (0usize, 0usize);
    for (sec, code) in m.code.iter().enumerate() {
        let Some(code) = code else { continue };
        // Only branches and returns count.
        for &i in code.transfers() {
            let i = i as usize;
            let ins = &code.insns[i];
            match ins.kind {
                // Once the branches have said all they can, only the
                // returns and indirect jumps are still counted.
                Kind::Call | Kind::Jump | Kind::CondJump
                    if if x86 {
                        retpoline.is_none() || rethunk.is_none()
                    } else {
                        blr.is_none()
                    } =>
                {
                    let dest = code.dest(i);
                    if !x86
                        && blr.is_none()
                        && ins.kind == Kind::Call
                        && let Dest::Local { section, offset } = dest
                        && m.is_call_thunk(section, offset)
                    {
                        blr = Some(format!(
                            "a -mharden-sls=blr build: {} calls through the thunk at {}",
                            place(m, sec, ins.offset()),
                            place(m, section, offset)
                        ));
                    }
                    let Some(sym) = m.dest_sym(dest) else {
                        continue;
                    };
                    let name = &obj.symbols[sym].name;
                    if x86 && retpoline.is_none() && m.is_indirect_thunk_sym(sym) {
                        retpoline = Some(format!(
                            "a retpoline build: {} goes through {name}",
                            place(m, sec, ins.offset())
                        ));
                    }
                    if x86
                        && rethunk.is_none()
                        && ins.kind != Kind::Call
                        && m.is_return_thunk_sym(sym)
                    {
                        rethunk = Some(format!(
                            "a return-thunk build: {} returns through {name}",
                            place(m, sec, ins.offset())
                        ));
                    }
                    if !x86
                        && blr.is_none()
                        && ins.kind == Kind::Call
                        && blr_thunks.iter().any(|t| name.starts_with(t.as_str()))
                    {
                        blr = Some(format!(
                            "a -mharden-sls=blr build: {} calls through {name}",
                            place(m, sec, ins.offset())
                        ));
                    }
                }
                // Annotated places are hand-written code (the thunks) that
                // ends in a barrier whatever the build: they would outvote
                // the compiler's code in a linked whole.
                Kind::Return | Kind::IndirectJump
                    if !m.special().at(sec, ins).is_some_and(|mk| mk.retpoline_safe) =>
                {
                    bare += 1;
                    hardened += usize::from(m.sls_hardened(sec, i));
                }
                _ => {}
            }
        }
    }
    fn section<'n>(obj: &crate::elf::Object, names: &'n [String]) -> Option<&'n String> {
        names.iter().find(|s| !obj.sections_named(s).is_empty())
    }
    if x86 && retpoline.is_none() {
        if let Some(s) = section(obj, &r.detect.retpoline_sections) {
            retpoline = Some(format!("a retpoline build: the object has {s}"));
        } else if let Some(t) = &rethunk {
            // CONFIG_MITIGATION_RETHUNK depends on CONFIG_MITIGATION_RETPOLINE.
            retpoline = Some(format!("{t} (return thunks imply retpolines)"));
        }
    }
    if x86
        && rethunk.is_none()
        && let Some(s) = section(obj, &r.detect.rethunk_sections)
    {
        rethunk = Some(format!("a return-thunk build: the object has {s}"));
    }
    let sls = (bare > 0 && hardened as f64 > r.detect.sls_share * bare as f64).then(|| {
        format!(
            "an SLS-hardened build: {hardened} of {bare} returns and indirect jumps are followed by a speculation barrier"
        )
    });
    let on = Mitigations {
        retpoline: retpoline.is_some(),
        rethunk: rethunk.is_some(),
        sls: sls.is_some() || blr.is_some(),
        sls_blr: blr.is_some(),
    };
    Build {
        on,
        why: [
            (RETPOLINE, retpoline),
            (RETHUNK, rethunk),
            (SLS, sls),
            (SLS, blr),
        ]
        .into_iter()
        .filter_map(|(r, w)| Some((r, w?)))
        .collect(),
        module,
        judged,
    }
}

/// Whether an alternative the place belongs to (as original or replacement)
/// goes through a retpoline thunk in another form: the kernel chooses the
/// form at boot (`CALL_NOSPEC`, `JMP_NOSPEC`).
fn thunk_alternative(m: &Model, sec: usize, off: u64) -> bool {
    let site: Option<&AltSite> = m
        .alts
        .site_containing(sec, off)
        .or_else(|| m.alts.replacement_containing(sec, off).map(|(s, _)| s));
    let Some(site) = site else {
        return false;
    };
    let through_thunk = |sec: usize, from: u64, to: u64| {
        let Some(code) = m.section_code(sec) else {
            return false;
        };
        (code.lower_bound(from)..code.lower_bound(to))
            .any(|k| code.insns[k].kind.is_branch() && m.is_indirect_thunk(code.dest(k)))
    };
    through_thunk(site.section, site.start, site.end)
        || site
            .repls
            .iter()
            .any(|r| through_thunk(r.section, r.start, r.end))
}

/// The one pass: the build, then every place a rule that is on and enabled
/// reports, and what could not be judged.
pub fn analyze(cx: &Ctx) -> Facts {
    let build = detect(cx);
    let m = cx.model;
    let obj = m.obj;
    let x86 = obj.machine == Machine::X86_64;
    let on = build.on;
    let want = |rule: &str, mitigation: bool| mitigation && cx.opts.enabled(rule);
    let (retpoline, rethunk, sls) = (
        x86 && want(RETPOLINE, on.retpoline),
        x86 && want(RETHUNK, on.rethunk),
        want(SLS, on.sls),
    );
    let mut facts = Facts {
        build,
        ..Facts::default()
    };
    if !(retpoline || rethunk || sls) {
        return facts;
    }
    let exempt = |rule: &str, name: &str| {
        cx.rules
            .speculation_exempt(obj.machine, rule, name, facts.build.module)
    };
    let judged = facts.build.judged;
    // Places objtool listed as thunk branches when it ran (`.retpoline_sites`,
    // `.return_sites`): a bare branch there was changed after it, which no
    // lost annotation explains, so it is judged in linked modules too.
    let detect = &cx.rules.speculation.detect;
    let relevant_kinds = Kind::IndirectCall.bit() | Kind::IndirectJump.bit() | Kind::Return.bit();
    if !m.code.iter().flatten().any(|c| c.has_any(relevant_kinds)) {
        return facts;
    }
    let lists: Vec<&str> = detect
        .retpoline_sections
        .iter()
        .chain(&detect.rethunk_sections)
        .map(String::as_str)
        .collect();
    let mut listed = rustc_hash::FxHashSet::default();
    for (k, name) in lists.iter().enumerate() {
        for &s in obj.sections_named(name) {
            for r in obj.relocs(s) {
                if let crate::elf::Place::Local { section, offset } =
                    obj.resolve(r.sym(), obj.addend(r))
                {
                    listed.insert((section, offset, k));
                }
            }
        }
    }
    let mut sites = Vec::new();
    let mut lost: Vec<(&'static str, At)> = Vec::new();
    for (sec, code) in m.code.iter().enumerate() {
        let Some(code) = code.as_ref().filter(|c| c.has_any(relevant_kinds)) else {
            continue;
        };
        let name = obj.section_name(sec);
        let retpoline = retpoline && !exempt(RETPOLINE, name);
        let rethunk = rethunk && !exempt(RETHUNK, name);
        for &i in code.transfers() {
            let i = i as usize;
            let ins = &code.insns[i];
            let off = ins.offset();
            let relevant = matches!(
                ins.kind,
                Kind::IndirectCall | Kind::IndirectJump | Kind::Return
            );
            if !relevant {
                continue;
            }
            let safe = m.special().at(sec, ins).is_some_and(|mk| mk.retpoline_safe);
            let list = if ins.kind == Kind::Return {
                &detect.rethunk_sections
            } else {
                &detect.retpoline_sections
            };
            let listed = list.iter().find(|n| {
                lists
                    .iter()
                    .enumerate()
                    .any(|(k, l)| l == n && listed.contains(&(sec, off, k)))
            });
            let mut report = |rule: &'static str, message: String, mut notes: Vec<String>| {
                if let Some(list) = listed.filter(|_| rule != SLS) {
                    notes.push(format!(
                        "objtool listed this place in {list} as a branch through a thunk: the code was changed after objtool ran"
                    ));
                }
                if judged || (listed.is_some() && rule != SLS) {
                    sites.push(Site {
                        rule,
                        at: (sec, off),
                        message,
                        notes,
                    });
                } else {
                    lost.push((rule, (sec, off)));
                }
            };
            let what = match ins.kind {
                Kind::IndirectCall => "call",
                Kind::IndirectJump => "jump",
                _ => "return",
            };
            if retpoline && !safe && ins.kind != Kind::Return {
                let direct = m
                    .alts
                    .site_containing(sec, off)
                    .is_some_and(AltSite::direct_call);
                if !direct && !thunk_alternative(m, sec, off) {
                    report(
                        RETPOLINE,
                        format!("indirect {what} found in MITIGATION_RETPOLINE build"),
                        vec![format!(
                            "`{}` is steerable by branch-target injection; call through __x86_indirect_thunk_<reg> (CALL_NOSPEC / JMP_NOSPEC in assembly), or annotate ANNOTATE_RETPOLINE_SAFE where it cannot be steered",
                            m.disasm(sec, ins)
                        )],
                    );
                }
            }
            if rethunk && !safe && ins.kind == Kind::Return {
                report(
                    RETHUNK,
                    "'naked' return found in MITIGATION_RETHUNK build".into(),
                    vec!["return with `RET` (jmp __x86_return_thunk) in assembly, or annotate ANNOTATE_UNRET_SAFE where the return thunk cannot be used".into()],
                );
            }
            if sls && !safe {
                let hardened = ins.kind == Kind::IndirectCall || m.sls_hardened(sec, i);
                if !hardened {
                    let (message, fix) = if x86 {
                        (
                            format!(
                                "missing int3 after {}",
                                if what == "return" {
                                    "ret"
                                } else {
                                    "indirect jump"
                                }
                            ),
                            "end it with `int3` (the RET macro does in assembly)",
                        )
                    } else {
                        (
                            format!("missing speculation barrier after `{}`", m.disasm(sec, ins)),
                            "follow it with `sb`, or `dsb sy` and `isb`, as -mharden-sls=retbr does",
                        )
                    };
                    report(
                        SLS,
                        message,
                        vec![format!(
                            "the processor may speculate straight past it into the bytes that follow; {fix}"
                        )],
                    );
                }
                if ins.kind == Kind::IndirectCall && on.sls_blr && !x86 {
                    sites.push(Site {
                        rule: SLS,
                        at: (sec, off),
                        message: format!(
                            "indirect call `{}` not through an SLS thunk in a -mharden-sls=blr build",
                            m.disasm(sec, ins)
                        ),
                        notes: vec!["call through the compiler's thunk for the register (GCC __call_indirect_x<N>, LLVM __llvm_slsblr_thunk_x<N>)".into()],
                    });
                }
            }
        }
    }
    facts.sites = sites;
    for rule in [RETPOLINE, RETHUNK, SLS] {
        let mine: Vec<At> = lost.iter().filter(|l| l.0 == rule).map(|l| l.1).collect();
        if let Some(&first) = mine.first() {
            facts.gaps.push(Gap::new(
                Cause::AnnotationsLost,
                first,
                format!(
                    "{rule}: {} not judged: ANNOTATE_RETPOLINE_SAFE / ANNOTATE_UNRET_SAFE were dropped at link",
                    super::analysis_incomplete::plural(mine.len(), "place", "places")
                ),
            ));
        }
    }
    facts
}

/// The findings of one rule.
pub fn run(cx: &Ctx, rule: &'static str, out: &mut Vec<Finding>) {
    let f = cx.speculation();
    for s in f.sites.iter().filter(|s| s.rule == rule) {
        let mut fd = cx.finding(rule, s.at.0, s.at.1, s.message.clone());
        fd.notes = s.notes.clone();
        fd.notes.extend(
            f.build
                .why
                .iter()
                .filter(|w| w.0 == rule)
                .map(|w| w.1.clone()),
        );
        out.push(fd);
    }
}
