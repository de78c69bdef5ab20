//! `unreachable`: instructions of a function that no path reaches
//! (objtool's "unreachable instruction"), one finding per function, at its
//! first such instruction.
//!
//! Reached means reached by the one walk (`checks/flow.rs`), which follows
//! every edge objtool does and more (WARN traps from `__bug_table`, jump
//! labels, exception fixups, alternatives), so code a linked module's lost
//! annotations would otherwise hide is seen as reached. Not reported, as
//! objtool: NOPs, `int3`, speculation barriers, a trap (or a jump to one)
//! right after a path's dead end (UBSAN_TRAP's `ud2` after a noreturn
//! call; LLVM's TrapUnreachable `ud2` after a jump or return), the blocks
//! of sanitizer handlers and the functions of `rules/unreachable.toml`; also code after the site of an alternative
//! whose replacement is followed alone or that a boot-time callback
//! rewrites in place (arm64 `ALTERNATIVE_CB`), and the arm64 `-mharden-sls=blr`
//! thunks a function calls into. Functions a walk could not finish (a path
//! ended at a finding, or at a table it could not read) are not judged:
//! what the walk did not reach there says nothing.

use super::flow::UNREACHABLE;
use super::{Check, Ctx, Finding};
use crate::arch::Kind;
use crate::model::{Dest, Model, SectionCode};
use rayon::prelude::*;

pub struct Unreachable;

impl Check for Unreachable {
    fn id(&self) -> &'static str {
        UNREACHABLE
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        let facts = cx.flow();
        // Tables that add edges were not read, or name places that are no
        // instruction: what they would reach is unknown (analysis-incomplete
        // says which).
        if !m.special().unread.is_empty()
            || m.alts.error.is_some()
            || !m.special().dangling.is_empty()
        {
            return;
        }
        let r = &cx.rules.unreachable;
        // The functions to look into, then each looked into, in parallel
        // runs, findings in function order (on an LTO vmlinux.o this rule
        // finished last, on one thread).
        let candidates: Vec<usize> = m
            .functions
            .par_iter()
            .enumerate()
            .with_min_len(UNREACHABLE_CHUNK)
            .filter(|&(fi, f)| {
                !(facts.reached.all(f.section, m.insn_range(f))
                    || f.prefix
                    || facts.cut.contains(&fi)
                    || m.special().non_standard.contains(&(f.section, f.start))
                    || !r.skip_function.is_empty()
                        && cx.rules.unreachable_skipped(
                            m.obj.machine,
                            f.name,
                            m.obj.section_name(f.section),
                        ))
            })
            .map(|(fi, _)| fi)
            .collect();
        if candidates.is_empty() {
            return;
        }
        // Built here, not on first use inside the parallel runs: a worker
        // building it could take another run that waits for it.
        let entered = entered_places(m);
        let found: Vec<Finding> = candidates
            .par_iter()
            .with_min_len(UNREACHABLE_CHUNK)
            .filter_map(|&fi| first_unreached(cx, facts, &entered, fi))
            .collect();
        out.extend(found);
    }
}

/// The finding for function `fi`'s first instruction no path reached, if
/// one is to be reported.
fn first_unreached(
    cx: &Ctx,
    facts: &super::flow::Facts,
    entered: &rustc_hash::FxHashSet<(usize, u64)>,
    fi: usize,
) -> Option<Finding> {
    let m = cx.model;
    let f = &m.functions[fi];
    let code = m.section_code(f.section)?;
    let range = m.insn_range(f);
    // Nested symbols: judged as part of the one that holds them.
    if m.function_containing(f.section, f.start) != Some(fi) {
        return None;
    }
    let mut thunk_end = 0;
    // In a run of unreached code that starts where execution can enter from
    // elsewhere (a call or jump from another function, a symbol, a landing
    // pad: entry code whose unwind hints a linked module lost).
    let mut entry_run = false;
    for i in range.clone() {
        if facts.reached.contains((f.section, i)) {
            entry_run = false;
            continue;
        }
        if i < thunk_end || entry_run {
            continue;
        }
        let off = code.insns[i].offset();
        // After a call, unless the callee is declared noreturn (a call to a
        // label comes back there; a noreturn objlint only proved is news to
        // the compiler, which keeps what follows).
        let after_call =
            i > range.start && code.calls_named(i - 1) && !listed_noreturn(cx, code, i - 1);
        if after_call
            || entered.contains(&(f.section, off))
            || (off != f.start && m.symbol_starts_at(f.section, off))
            || matches!(code.insns[i].kind, Kind::Pad(_))
        {
            entry_run = true;
            continue;
        }
        let ins = &code.insns[i];
        // Code of another function nested in this one is its own.
        if m.function_containing(f.section, ins.offset()) != Some(fi) {
            continue;
        }
        if let Some(n) = call_thunk_len(m, f.section, code, i) {
            thunk_end = i + n;
            continue;
        }
        if ignored(cx, f.section, code, i, range.start) {
            continue;
        }
        return Some(report(cx, f.section, code, i, range.start));
    }
    None
}

/// Functions per unit of parallel work in [`Unreachable`]'s walk over them.
const UNREACHABLE_CHUNK: usize = 256;

/// Places inside functions that execution enters from elsewhere: calls to
/// them, and jumps from other functions (`bl .L__pmull_p8_core2`).
fn entered_places(m: &Model) -> rustc_hash::FxHashSet<(usize, u64)> {
    let mut out = rustc_hash::FxHashSet::default();
    // Where the original of an alternative followed through its
    // replacement alone goes: after the site, and where its branches lead.
    for site in m.alts.sites.iter().filter(|s| s.exclusive()) {
        out.insert((site.section, site.end));
        if let Some(code) = m.section_code(site.section) {
            for k in code.lower_bound(site.start)..code.lower_bound(site.end) {
                if let Dest::Local { section, offset } = code.dest(k) {
                    out.insert((section, offset));
                }
            }
        }
    }
    // After an original a callback rewrites in place (what it writes may
    // fall through).
    out.extend(m.alts.in_place.iter().copied());
    // Functions in parallel runs (vmlinux.o: 36 ms on one thread).
    let found: Vec<Vec<(usize, u64)>> = m
        .functions
        .par_chunks(ENTERED_CHUNK)
        .with_max_len(4)
        .map(|fs| {
            let mut v = Vec::new();
            for f in fs {
                let Some(code) = m.section_code(f.section) else {
                    continue;
                };
                for (k, dest, link) in code.dests_in(m.insn_range(f)) {
                    let ins = &code.insns[k];
                    let Dest::Local { section, offset } = dest else {
                        continue;
                    };
                    // A call's link is the function it calls: no lookup.
                    let enters = match ins.kind {
                        Kind::Call => link.is_none(),
                        Kind::Jump | Kind::CondJump => {
                            (section != f.section || !(f.start..f.end).contains(&offset))
                                && m.function_at_start(section, offset).is_none()
                        }
                        _ => false,
                    };
                    if enters {
                        v.push((section, offset));
                    }
                }
            }
            v
        })
        .collect();
    out.extend(found.into_iter().flatten());
    out
}

/// Functions per unit of parallel work in [`entered_places`].
const ENTERED_CHUNK: usize = 512;

/// The length in instructions of an SLS thunk starting at `i` that a call
/// in the object goes to.
fn call_thunk_len(m: &Model, sec: usize, code: &SectionCode, i: usize) -> Option<usize> {
    let off = code.insns[i].offset();
    if !m.is_call_thunk(sec, off) {
        return None;
    }
    let jump = (i..i + 2).find(|&k| code.insns[k].kind == Kind::IndirectJump)?;
    // The jump and the barrier after it (`sb`, or `dsb` + `isb`).
    Some(jump - i + 1 + if m.barrier_after(sec, jump) { 2 } else { 0 })
}

/// Whether the call at `k` goes to a function declared noreturn
/// (rules/noreturn.toml and the config's `noreturn`), or to one of this
/// object that has no return instruction at all: what objtool's
/// `dead_end_function()` takes for noreturn, so the compiler should have
/// known too. A callee objlint proves noreturn only by following its paths
/// is news to the compiler, which keeps what follows the call.
fn listed_noreturn(cx: &Ctx, code: &SectionCode, k: usize) -> bool {
    let m = cx.model;
    if !m.call_is_noreturn(code, k) {
        return false;
    }
    let dest = code.dest(k);
    cx.rules
        .noreturn(m.obj.machine, m.kernel)
        .contains(&m.dest_name(dest))
        || match dest {
            Dest::Local { section, offset } => m
                .function_at_start(section, offset)
                .is_some_and(|g| !m.may_return(&m.functions[g])),
            _ => false,
        }
}

/// Whether a path's dead end is right before instruction `i`: a trap, a
/// call that never returns, or a jump or return (LLVM's TrapUnreachable
/// puts `ud2` after a switch's jump and after returns: rustc's default).
fn after_dead_end(m: &Model, code: &SectionCode, i: usize, lo: usize) -> bool {
    let Some(p) = i.checked_sub(1).filter(|&p| p >= lo) else {
        return false;
    };
    let prev = &code.insns[p];
    matches!(
        prev.kind,
        Kind::Trap | Kind::Jump | Kind::IndirectJump | Kind::Return
    ) || (code.calls_named(p) && m.call_is_noreturn(code, p))
}

fn ignored(cx: &Ctx, sec: usize, code: &SectionCode, i: usize, lo: usize) -> bool {
    let m = cx.model;
    let ins = &code.insns[i];
    if matches!(
        ins.kind,
        Kind::Nop | Kind::Breakpoint | Kind::Invalid | Kind::Pad(_)
    ) {
        return true;
    }
    let data = m.obj.section_data(sec);
    if data
        .get(ins.offset() as usize..)
        .is_some_and(|b| m.dec.speculation_barrier(b).is_some())
    {
        return true;
    }
    // UBSAN_TRAP: a trap, or a jump to one, after a dead end.
    if after_dead_end(m, code, i, lo) {
        let to_trap = ins.kind == Kind::Jump
            && matches!(code.dest(i), Dest::Local { section, offset } if section == sec
                && code.index_at(offset).is_some_and(|k| code.insns[k].kind == Kind::Trap));
        if ins.kind == Kind::Trap || to_trap {
            return true;
        }
    }
    // Inside an alternative site whose replacement is followed alone.
    if m.alts
        .site_containing(sec, ins.offset())
        .is_some_and(|s| s.exclusive())
    {
        return true;
    }
    // The block of a sanitizer's handler.
    let r = &cx.rules.unreachable;
    let end = (i + r.sanitizer_window).min(code.insns.len());
    (i..end).any(|k| {
        matches!(code.insns[k].kind, Kind::Call)
            && matches!(code.dest(k), d @ (Dest::External { .. } | Dest::Local { .. })
                if r.sanitizer_calls.iter().any(|n| *n == m.dest_name(d)))
    })
}

fn report(cx: &Ctx, sec: usize, code: &SectionCode, i: usize, lo: usize) -> Finding {
    let m = cx.model;
    let ins = &code.insns[i];
    let p = i.checked_sub(1).filter(|&p| p >= lo);
    let noreturn_call = p.filter(|&p| code.calls_named(p) && listed_noreturn(cx, code, p));
    match noreturn_call {
        Some(p) => {
            let name = m.dest_name(code.dest(p));
            let mut fd = cx.finding(
                UNREACHABLE,
                sec,
                ins.offset(),
                format!("{name}() is missing a __noreturn annotation"),
            );
            fd.notes.push(format!(
                "{name}() never returns (rules/noreturn.toml, the config's `noreturn`, or proven in this object), but the compiler placed code after the call: declare it `__noreturn` (or `__attribute__((noreturn))`) where the caller sees it"
            ));
            fd
        }
        None => {
            let mut fd = cx.finding(
                UNREACHABLE,
                sec,
                ins.offset(),
                "unreachable instruction".to_string(),
            );
            if let Some(&(from, _)) = cx
                .flow()
                .dead_cases
                .iter()
                .find(|d| d.1 == (sec, ins.offset()))
            {
                fd.notes.push(format!(
                    "only a case of the switch table at {} lands here, on straight-line code that runs off the end of its function into padding: a case the compiler knows is never taken (its index excluded before the switch), so the walk does not follow it",
                    crate::checks::pads::place_str(m, from.0, from.1)
                ));
            } else if let Some(p) = p
                && code.calls_named(p)
            {
                let name = m.dest_name(code.dest(p));
                fd.fix = crate::checks::ConfigFix::new("noreturn", &name);
                fd.notes.push(format!(
                    "the call to {name}() before it does not return here: if {name}() never returns, declare it `__noreturn`, or add \"{name}\" to `noreturn` in objlint.toml"
                ));
            }
            fd
        }
    }
}
