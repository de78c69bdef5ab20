//! Where a check run spends its time and memory, per phase (`check
//! --timings`). Off unless enabled: then each phase is timed on the thread
//! that runs it, exclusive of phases nested in it (the walk started by the
//! first rule that needs it is the walk's, not the rule's). Work a phase hands
//! to other threads is counted where it runs, so the totals are thread time;
//! with `-j1` they add up to the run.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// A phase of checking an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Parsing the ELF file (sections, symbols, relocations).
    Read,
    /// Decoding instructions.
    Decode,
    /// Functions, branches, alternatives and the kernel's tables (decoding apart).
    Model,
    /// The one walk of every function (stack, user access, reachability).
    Walk,
    /// The speculation rules' pass over the code.
    Speculation,
    /// Source lines for findings (DWARF).
    Source,
    /// Rendering findings.
    Output,
    /// One rule, by its place in [`crate::checks::all`].
    Rule(usize),
}

/// The phases other than rules, in report order.
pub const PHASES: [Phase; 7] = [
    Phase::Read,
    Phase::Decode,
    Phase::Model,
    Phase::Walk,
    Phase::Speculation,
    Phase::Source,
    Phase::Output,
];

const FIXED: usize = PHASES.len();
const SLOTS: usize = FIXED + 64;

impl Phase {
    fn slot(self) -> usize {
        match self {
            Phase::Read => 0,
            Phase::Decode => 1,
            Phase::Model => 2,
            Phase::Walk => 3,
            Phase::Speculation => 4,
            Phase::Source => 5,
            Phase::Output => 6,
            Phase::Rule(i) => (FIXED + i).min(SLOTS - 1),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Phase::Read => "read",
            Phase::Decode => "decode",
            Phase::Model => "model",
            Phase::Walk => "walk",
            Phase::Speculation => "speculation pass",
            Phase::Source => "source lines",
            Phase::Output => "output",
            Phase::Rule(_) => "rule",
        }
    }
}

static ON: AtomicBool = AtomicBool::new(false);
static NANOS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
static CALLS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
/// Peak resident set (KiB) seen at the end of each phase.
static PEAK_KB: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

thread_local! {
    /// The phases open on this thread, each with when it last resumed.
    static OPEN: RefCell<Vec<(usize, Instant)>> = const { RefCell::new(Vec::new()) };
}

/// Start collecting (for the whole process).
pub fn enable() {
    ON.store(true, Relaxed);
}

pub fn enabled() -> bool {
    ON.load(Relaxed)
}

fn charge(slot: usize, from: Instant, to: Instant) {
    let ns = to.saturating_duration_since(from).as_nanos();
    NANOS[slot].fetch_add(u64::try_from(ns).unwrap_or(u64::MAX), Relaxed);
}

/// Run `f` as phase `p`.
#[inline]
pub fn time<T>(p: Phase, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    timed(p, f)
}

#[inline(never)]
fn timed<T>(p: Phase, f: impl FnOnce() -> T) -> T {
    let slot = p.slot();
    let start = Instant::now();
    OPEN.with(|o| {
        let mut o = o.borrow_mut();
        if let Some(&(outer, since)) = o.last() {
            charge(outer, since, start);
        }
        o.push((slot, start));
    });
    let r = f();
    let end = Instant::now();
    OPEN.with(|o| {
        let mut o = o.borrow_mut();
        if let Some((s, since)) = o.pop() {
            charge(s, since, end);
        }
        if let Some(outer) = o.last_mut() {
            outer.1 = end;
        }
    });
    CALLS[slot].fetch_add(1, Relaxed);
    if !matches!(p, Phase::Rule(_)) {
        // Rules run per function: reading /proc there would cost more than they do.
        if let Some(kb) = peak_rss_kb() {
            PEAK_KB[slot].fetch_max(kb, Relaxed);
        }
    }
    r
}

/// The process's peak resident set so far (Linux `VmHWM`), in KiB.
pub fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One phase's totals.
#[derive(Debug, Clone)]
pub struct Row {
    pub phase: Phase,
    pub seconds: f64,
    pub calls: u64,
    /// Peak resident set at the end of the phase, in KiB (not for rules).
    pub peak_kb: Option<u64>,
}

/// What was collected: the fixed phases, then each of `rules` rules (by
/// place in [`crate::checks::all`]) that ran.
pub fn rows(rules: usize) -> Vec<Row> {
    let row = |phase: Phase| {
        let s = phase.slot();
        Row {
            phase,
            seconds: NANOS[s].load(Relaxed) as f64 / 1e9,
            calls: CALLS[s].load(Relaxed),
            peak_kb: Some(PEAK_KB[s].load(Relaxed)).filter(|&k| k > 0),
        }
    };
    let mut v: Vec<Row> = PHASES.iter().map(|&p| row(p)).collect();
    v.extend(
        (0..rules.min(SLOTS - FIXED))
            .map(|i| row(Phase::Rule(i)))
            .filter(|r| r.calls > 0),
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outer phase is charged only for its own part: the two add up to
    /// the whole (an inclusive count would make them add up to more).
    #[test]
    fn nested_phases_are_exclusive() {
        enable();
        let sleep = |ms| std::thread::sleep(std::time::Duration::from_millis(ms));
        let t0 = Instant::now();
        time(Phase::Rule(60), || {
            sleep(20);
            time(Phase::Rule(61), || sleep(40));
            sleep(20);
        });
        let total = t0.elapsed().as_secs_f64();
        let r = rows(62);
        let get = |p| r.iter().find(|r| r.phase == p).unwrap().clone();
        let (outer, inner) = (get(Phase::Rule(60)), get(Phase::Rule(61)));
        assert!(
            inner.seconds >= 0.040 && outer.seconds >= 0.040,
            "{outer:?} {inner:?}"
        );
        assert!(
            (outer.seconds + inner.seconds - total).abs() < 0.005,
            "{outer:?} {inner:?} {total}"
        );
        assert_eq!((outer.calls, inner.calls), (1, 1));
    }
}
