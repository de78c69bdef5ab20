//! The flow rules' one walk: every function is walked once, from its entry,
//! carrying objtool's state (`struct insn_state`): the stack state, user
//! access (AC / PAN and the flags `pushf` saved), the direction flag, the
//! instrumentation-region depth in noinstr code, and on arm64 the
//! pointer-authentication state of the return address. Each rule takes its
//! events from here.
//!
//! As objtool does, a path ends at its first finding, and the stack state
//! recorded at an instruction is the first path's: a later path arriving
//! with a different one is a `stack-mismatch`. The direction flag, the
//! instrumentation depth and the return-address signature are part of what
//! tells paths apart; the stack state is not (it must agree).

use super::analysis_incomplete::{Cause, Gap, table_start};
use super::{Ctx, uaccess};
use crate::arch::{Kind, Modifier, Op, Pac, PacKey};
use crate::elf::annotations::{Layout, places};
use crate::model::cfi::{Cfi, Follow, Frame, Mismatch, Modified, States, Unsupported};
use crate::model::special::{At, Hint};
use crate::model::walk::{
    Action, Arrival, Callee, Edge, Loc, OwnCalls, Paths, Step, Visitor, Walker, is_cold,
};
use crate::model::{Dest, Function, Model, SectionCode};
use crate::rules::NameSet;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

pub const STACK_MISMATCH: &str = "stack-mismatch";
pub const STACK_RETURN: &str = "stack-modified-return";
pub const STACK_SIBLING: &str = "stack-modified-sibling-call";
pub const STACK_UNDEFINED: &str = "stack-undefined";
pub const FRAME_POINTER: &str = "frame-pointer";
pub const PAC_RET: &str = "pac-ret";
/// The rules whose findings show the path that led to them.
const STACK_RULES: [&str; 5] = [
    STACK_MISMATCH,
    STACK_RETURN,
    STACK_SIBLING,
    STACK_UNDEFINED,
    PAC_RET,
];
pub const FALLTHROUGH: &str = "fallthrough";
pub const ORC_MISMATCH: &str = "orc-mismatch";
pub const CFI_MISMATCH: &str = "cfi-mismatch";
pub const NOINSTR: &str = "noinstr-call";
pub const DIRECTION_FLAG: &str = "direction-flag";
pub const INTRA_FUNCTION_CALL: &str = "intra-function-call";
pub const UNREACHABLE: &str = "unreachable";

/// The rules that take their events from the walk.
const FLOW_RULES: [&str; 16] = [
    STACK_MISMATCH,
    STACK_RETURN,
    STACK_SIBLING,
    STACK_UNDEFINED,
    FRAME_POINTER,
    PAC_RET,
    ORC_MISMATCH,
    CFI_MISMATCH,
    FALLTHROUGH,
    NOINSTR,
    uaccess::CALL,
    uaccess::RETURN,
    uaccess::REDUNDANT,
    DIRECTION_FLAG,
    INTRA_FUNCTION_CALL,
    UNREACHABLE,
];

/// Whether any rule that walks is on (what the walk missed matters).
pub fn any_enabled(cx: &Ctx) -> bool {
    FLOW_RULES.iter().any(|r| cx.opts.enabled(r))
}

/// Something a flow rule reports.
#[derive(Debug, Clone)]
pub struct Event {
    pub rule: &'static str,
    pub at: At,
    pub message: String,
    pub target: Option<At>,
    pub notes: Vec<String>,
    /// The function the walk was of (for rules reporting once per function).
    pub root: usize,
    /// The function the instruction belongs to, as walked.
    pub owner: Option<usize>,
    /// The instruction (section, index) the event is about, when not `at`'s.
    pub loc: Option<Loc>,
    /// The path that led there (stack and pac-ret rules): the edges it
    /// took other than running on, the last [`PATH_SHOWN`] of them.
    pub path: Vec<(Loc, Loc, Edge)>,
    /// How many edges the path took in all.
    pub path_len: usize,
}

/// A frame-pointer event, kept small: most objects are no frame-pointer
/// builds and report none of them.
#[derive(Debug, Clone, Copy)]
pub struct FrameEvent {
    pub at: At,
    pub owner: Option<usize>,
    pub root: usize,
    /// The frame pointer pushed but not made the frame (else: a call
    /// before the frame record).
    pub scratch: bool,
}

/// What the walks found, for the whole object.
#[derive(Debug, Default)]
pub struct Facts {
    pub events: Vec<Event>,
    /// Functions that call something, and those of them that set up a
    /// frame record before (the evidence for a frame-pointer build).
    pub calling: usize,
    pub framed: usize,
    /// The sections of functions that make a direct sibling call (a jump
    /// to another function) and never set up a frame record, one entry per
    /// function: kbuild compiles frame-pointer kernels with
    /// `-fno-optimize-sibling-calls`, so compiled code there makes none.
    pub unframed_sibling: Vec<usize>,
    /// The first frame-pointer event of each function.
    pub frame_events: Vec<FrameEvent>,
    /// The stack state before each instruction walked, when asked for.
    pub states: States,
    /// The stack state after replacements shorter than their site, at the
    /// site offset where they end (when states are asked for).
    pub replacement_ends: Vec<(At, Cfi)>,
    /// What the walks could not check (analysis-incomplete).
    pub gaps: Vec<Gap>,
    /// Switch-table cases not followed ([`Visitor::dead_case`]): the
    /// dispatching jump and where the case lands.
    pub dead_cases: Vec<(At, At)>,
    /// The instructions some walk reached, when the unreachable rule is on.
    pub reached: Reached,
    /// Functions a walk touched whose paths ended early (at a finding, or
    /// where the walk could not go on): what they did not reach is not
    /// judged unreachable.
    pub cut: FxHashSet<usize>,
}

/// Instructions reached by some walk, per section as one bit each.
#[derive(Debug, Default)]
pub struct Reached {
    bits: FxHashMap<usize, Vec<u64>>,
}

impl Reached {
    fn section(&mut self, m: &Model, sec: usize) -> &mut Vec<u64> {
        let n = m.section_code(sec).map_or(0, |c| c.insns.len());
        self.bits
            .entry(sec)
            .or_insert_with(|| vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, m: &Model, (sec, i): Loc) {
        if let Some(w) = self.section(m, sec).get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }
    /// Sets instruction `base + k` of `sec` for each bit `k` of `own`.
    fn set_all(&mut self, m: &Model, sec: usize, base: usize, own: &[u64]) {
        let b = self.section(m, sec);
        // Word by word: bit k of `own` is bit `base + k` of the section.
        let (first, shift) = (base / 64, base % 64);
        for (j, &word) in own.iter().enumerate().filter(|(_, w)| **w != 0) {
            if let Some(w) = b.get_mut(first + j) {
                *w |= word << shift;
            }
            if shift > 0
                && let Some(w) = b.get_mut(first + j + 1)
            {
                *w |= word >> (64 - shift);
            }
        }
    }
    pub fn contains(&self, (sec, i): Loc) -> bool {
        self.bits
            .get(&sec)
            .and_then(|b| b.get(i / 64))
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// Whether every instruction of `range` of `sec` was reached.
    pub fn all(&self, sec: usize, range: std::ops::Range<usize>) -> bool {
        if range.is_empty() {
            return true;
        }
        let Some(b) = self.bits.get(&sec) else {
            return false;
        };
        let (lo, hi) = (range.start, range.end - 1);
        let mask = |from: usize, to: usize| -> u64 {
            // Bits from..=to of one word.
            (u64::MAX >> (63 - to)) & (u64::MAX << from)
        };
        if lo / 64 == hi / 64 {
            let m = mask(lo % 64, hi % 64);
            return b.get(lo / 64).is_some_and(|w| w & m == m);
        }
        let first = mask(lo % 64, 63);
        let last = mask(0, hi % 64);
        b.get(lo / 64).is_some_and(|w| w & first == first)
            && b.get(hi / 64).is_some_and(|w| w & last == last)
            && (lo / 64 + 1..hi / 64).all(|k| b.get(k) == Some(&u64::MAX))
    }
}

/// The events of one rule, in a fixed order.
pub fn events<'a>(cx: &'a Ctx, rule: &'static str) -> impl Iterator<Item = &'a Event> + 'a {
    cx.flow().events.iter().filter(move |e| e.rule == rule)
}

/// The findings of a rule whose events carry everything: one per place
/// and message.
pub fn report(cx: &Ctx, rule: &'static str, out: &mut Vec<super::Finding>) {
    let mut seen = FxHashSet::default();
    for e in events(cx, rule) {
        if !seen.insert((e.at, &e.message)) {
            continue;
        }
        let mut fd = cx.finding(rule, e.at.0, e.at.1, e.message.clone());
        if let Some((s, o)) = e.target {
            fd.target = Some(cx.target(s, o));
        }
        fd.notes = e.notes.clone();
        out.push(fd);
    }
}

/// Saved user-access states: one bit per `pushf`, above a marker bit.
const MAX_SAVED: u32 = 31;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Access {
    pub open: bool,
    saved: u32,
}

impl Access {
    pub fn new(open: bool) -> Access {
        Access { open, saved: 0 }
    }
    pub fn push(&mut self) {
        let depth = match self.saved {
            0 => 0,
            s => 31 - s.leading_zeros(),
        };
        if depth >= MAX_SAVED {
            return;
        }
        let base = if self.saved == 0 { 1 } else { self.saved };
        self.saved = (base << 1) | u32::from(self.open);
    }
    pub fn pop(&mut self) {
        if self.saved == 0 {
            return;
        }
        self.open = self.saved & 1 != 0;
        self.saved >>= 1;
        if self.saved == 1 {
            self.saved = 0;
        }
    }
    pub fn saved_any(&self) -> bool {
        self.saved != 0
    }
}

/// What the return address register holds (arm64 pointer authentication).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
enum Lr {
    /// The caller's return address as it came (or authenticated back).
    #[default]
    Plain,
    Signed(PacKey, Modifier, i32),
    /// Stripped without checking (`xpaclri`).
    Stripped,
    /// Something else: a call's return address, an unknown write.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct PacState {
    /// The key, modifier and stack size the function signed with.
    signed: Option<(PacKey, Modifier, i32)>,
    lr: Lr,
    /// What the save slot of x30 holds, and where it is (CFA-relative).
    saved: Lr,
    slot: Option<i32>,
    /// x30 was loaded back from memory after it was authenticated.
    reloaded: bool,
}

/// What tells paths apart besides the stack state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Key {
    access: Access,
    depth: i8,
    df: bool,
    pac: PacState,
    /// Rule families that already reported on this path ([`QUIET_UACCESS`],
    /// [`QUIET_NOINSTR`]): like objtool, one finding per path, but the path
    /// goes on for the other rules.
    quiet: u8,
}

const QUIET_UACCESS: u8 = 1;
const QUIET_NOINSTR: u8 = 2;
const QUIET_DF: u8 = 4;

#[derive(Debug, Clone)]
struct State {
    cfi: Cfi,
    /// The record of `cfi` when unchanged since it was recorded.
    cfi_id: u32,
    key: Key,
    /// The interned id of `key`, or [`NO_KEY`] after it changed.
    key_id: u32,
    /// The last edge the path took ([`Walk::trail`]), or [`NO_TRAIL`].
    trail: u32,
    /// The edge taken to the next arrival, recorded in the trail only if
    /// the arrival goes on (most reach walked code: a switch of thousands
    /// of cases dispatched thousands of times).
    pending: Option<(Loc, Loc, Edge)>,
}

const NO_TRAIL: u32 = u32::MAX;

/// An edge a path took, and the one it took before it.
#[derive(Debug, Clone, Copy)]
struct Trail {
    from: Loc,
    to: Loc,
    edge: Edge,
    parent: u32,
}

/// Edges shown with a finding: the ones nearest it.
const PATH_SHOWN: usize = 12;

const NO_KEY: u32 = u32::MAX;
/// Keys interned without a map.
const FEW_KEYS: usize = 8;

impl State {
    /// A rule family reported on this path: no more of its findings here.
    fn quiet(&mut self, family: u8) {
        self.key.quiet |= family;
        self.key_id = NO_KEY;
    }
}

const NO_CFI: u32 = u32::MAX;

/// Per instruction walked: the stack state recorded and the keys seen.
#[derive(Debug, Clone, Copy)]
struct Record {
    cfi: u32,
    /// A bit per key id below [`RECORD_KEYS`] (8-byte records: the walk
    /// reads and writes one per instruction); the rest go to `overflow`.
    keys: u32,
}

const RECORD_KEYS: u32 = 32;

/// Which rules can end a path (the enabled ones), and object-wide policy.
struct Policy<'a> {
    frame: Frame,
    enabled: FxHashSet<&'static str>,
    safe: &'a NameSet,
    entered_open: bool,
    /// Functions listed in uaccess_safe.toml `state_resets`.
    resets: FxHashSet<At>,
    noinstr_sections: Vec<bool>,
    /// Instrumentation region depth changes (+1 begin, -1 end).
    depth_change: FxHashMap<At, i32>,
    /// noinstr-call can be judged in this object at all.
    noinstr_checked: bool,
    /// The architecture's builds can record instrumentation regions but this
    /// object records none: built without CONFIG_NOINSTR_VALIDATION, so a
    /// call out of noinstr code is said not judged, not found.
    regions_unrecorded: bool,
    /// A final module: objtool's annotations were dropped at its link.
    linked_module: bool,
    noinstr_allowed: NameSet,
    /// Functions whose stack objtool is told not to follow.
    non_standard: FxHashSet<At>,
    collect_states: bool,
    /// Calls on plain paths taken in one step ([`Walk::plain_call`]); off
    /// only to hold that shortcut to the general path in tests.
    plain_calls: bool,
    /// The object's ORC, to compare with (orc-mismatch).
    orc: Option<crate::elf::orc::OrcTable>,
    /// The object's DWARF CFI, to compare with (cfi-mismatch).
    cfi: Option<crate::elf::cfi::CfiTables>,
    /// The CFI holds at calls only: clang's `.debug_frame` without unwind
    /// tables (-fno-asynchronous-unwind-tables) leaves epilogues out and
    /// states a prologue in one row.
    cfi_calls_only: bool,
    /// A compiler wrote the CFI: pushes of inline assembly are not in it.
    cfi_by_compiler: bool,
    /// What the policy leaves unchecked.
    gaps: Vec<Gap>,
}

struct Walk<'p, 'c, 'a> {
    cx: &'c Ctx<'a>,
    p: &'p Policy<'c>,
    root: &'c Function<'a>,
    root_index: usize,
    /// Stack rules apply to this walk.
    stack: bool,
    uaccess_on: bool,
    noinstr_on: bool,
    f_safe: bool,
    base: usize,
    own: Vec<Record>,
    rest: FxHashMap<Loc, Record>,
    keys: Vec<Key>,
    key_ids: FxHashMap<Key, u32>,
    overflow: FxHashSet<(Loc, u32)>,
    cfis: Vec<Cfi>,
    /// Saved states of UNWIND_HINT_SAVE instructions.
    saves: FxHashMap<Loc, u32>,
    events: Vec<Event>,
    calls: bool,
    framed: bool,
    /// A path realigned the stack pointer (the frame is the realignment's).
    realigned: bool,
    sibling: bool,
    frame_event: Option<FrameEvent>,
    replacement_ends: Vec<(At, Cfi)>,
    hints_seen: Vec<Loc>,
    seen_messages: FxHashSet<(At, &'static str)>,
    /// The edges paths took, each pointing at the one before it.
    trail: Vec<Trail>,
    /// The current path's last edge.
    at_trail: u32,
    gaps: Vec<Gap>,
    dead_cases: Vec<(At, At)>,
    /// A path ended early: at a finding that ends it, or where it could
    /// not be followed.
    cut: bool,
}

impl<'p, 'c, 'a> Walk<'p, 'c, 'a> {
    fn record(&mut self, loc: Loc) -> &mut Record {
        let fresh = Record {
            cfi: NO_CFI,
            keys: 0,
        };
        if loc.0 == self.root.section
            && let Some(k) = loc.1.checked_sub(self.base)
            && k < self.own.len()
        {
            return &mut self.own[k];
        }
        self.rest.entry(loc).or_insert(fresh)
    }

    fn key_id(&mut self, k: Key) -> u32 {
        // Most walks see one key or a few: a search, and a map past that.
        if self.keys.len() <= FEW_KEYS {
            if let Some(i) = self.keys.iter().position(|x| *x == k) {
                return i as u32;
            }
            if self.keys.len() < FEW_KEYS {
                self.keys.push(k);
                return (self.keys.len() - 1) as u32;
            }
            self.key_ids = self
                .keys
                .iter()
                .enumerate()
                .map(|(i, &x)| (x, i as u32))
                .collect();
        }
        if let Some(&id) = self.key_ids.get(&k) {
            return id;
        }
        let id = self.keys.len() as u32;
        self.keys.push(k);
        self.key_ids.insert(k, id);
        id
    }

    fn model(&self) -> &'c Model<'a> {
        self.cx.model
    }

    fn on(&self, rule: &'static str) -> bool {
        self.p.enabled.contains(rule)
    }

    /// Record an event; whether it ends the path (its rule is enabled).
    fn event(
        &mut self,
        rule: &'static str,
        step_at: At,
        message: String,
        owner: Option<usize>,
    ) -> bool {
        let (path, path_len) = if STACK_RULES.contains(&rule) {
            self.path()
        } else {
            (Vec::new(), 0)
        };
        if STACK_RULES.contains(&rule) && self.on(rule) {
            self.cut = true;
        }
        self.events.push(Event {
            rule,
            at: step_at,
            message,
            target: None,
            notes: Vec::new(),
            root: self.root_index,
            owner,
            loc: None,
            path,
            path_len,
        });
        self.on(rule)
    }

    /// The current path's edges, the last [`PATH_SHOWN`] in path order.
    fn path(&self) -> (Vec<(Loc, Loc, Edge)>, usize) {
        let mut path = Vec::new();
        let mut n = 0;
        let mut t = self.at_trail;
        while let Some(e) = self.trail.get(t as usize) {
            if path.len() < PATH_SHOWN {
                path.push((e.from, e.to, e.edge));
            }
            n += 1;
            t = e.parent;
        }
        path.reverse();
        (path, n)
    }

    fn last(&mut self) -> &mut Event {
        self.events.last_mut().expect("an event was just pushed")
    }

    fn name_of_slot(&self, slot: usize) -> String {
        self.p.frame.slot_name(slot)
    }

    /// A conditional jump to the first byte past its own function with the
    /// stack pointer still moved: clang (arm64) bounds a switch's table with
    /// a branch to the block of a default case it proved unreachable, an
    /// empty block at the function's end, which is where the next function
    /// starts. No compiler tail-calls with its stack in use, so the edge is
    /// dead, as objtool's "jump to the end of the function" of GCOV builds
    /// and of clang's jump tables. (An unconditional jump there after a call
    /// is boot code's `bl init_kernel_el; b secondary_startup`: a tail call.)
    /// arm64 only: clang for x86 drops such a bound, and objtool reports the
    /// shape there as a sibling call (stack/x86-cases.s `jump_to_end`).
    fn dead_jump_to_end(&self, st: &Step, s: &State) -> bool {
        let Action::TailCall(Callee::Direct(dest)) = st.action else {
            return false;
        };
        self.stack
            && st.insn.kind == Kind::CondJump
            && self.arm64_branch_to_own_end(st, dest)
            && matches!(
                self.p.frame.modified(&s.cfi),
                Some(Modified::Cfa | Modified::StackSize)
            )
    }

    /// A jump to the first byte past its own function where no instruction
    /// is: the same bound of a switch as [`Walk::dead_jump_to_end`], in a
    /// kCFI build, where the next function's type hash (`$d`) sits there
    /// instead of its code.
    fn dead_jump_into_data(&self, st: &Step) -> bool {
        st.insn.kind.is_branch() && self.arm64_branch_to_own_end(st, st.code.dest(st.index))
    }

    /// Whether `dest`, where arm64 code outside alternatives branches, is the
    /// first byte past the function the code is walked as.
    fn arm64_branch_to_own_end(&self, st: &Step, dest: Dest) -> bool {
        let (Some(o), Dest::Local { section, offset }) = (st.owner, dest) else {
            return false;
        };
        let f = &self.cx.model.functions[o];
        self.cx.model.obj.machine == crate::elf::Machine::Aarch64
            && st.alt_site.is_none()
            && f.section == section
            && f.end == offset
    }

    fn modified_note(&self, c: &Cfi, m: Modified) -> String {
        let f = &self.p.frame;
        let entry = f.entry();
        match m {
            Modified::Cfa => format!(
                "the frame address is computed from {} (at entry: {})",
                f.loc_text(c.cfa),
                f.loc_text(entry.cfa)
            ),
            Modified::StackSize => format!(
                "the stack pointer is {} bytes below where it was at entry",
                c.stack_size - entry.stack_size
            ),
            Modified::Register(k) => match c.regs[k].base {
                crate::model::cfi::CLOBBERED => {
                    format!("{} was overwritten and not restored", self.name_of_slot(k))
                }
                _ => format!(
                    "{} is still saved at {}, not restored",
                    self.name_of_slot(k),
                    f.loc_text(c.regs[k])
                ),
            },
        }
    }

    fn state_note(&self, c: &Cfi) -> String {
        format!("stack state here: {}", self.p.frame.describe(c))
    }

    /// The path's stack state differs from what was recorded: objtool's
    /// `insn_cfi_match`.
    fn mismatch(&mut self, a: &Arrival, old: Cfi, new: &Cfi) -> bool {
        let f = &self.p.frame;
        if old.follow == Follow::NotJudged || new.follow == Follow::NotJudged {
            return false;
        }
        let Some(m) = f.mismatch(&old, new) else {
            return false;
        };
        let what = match m {
            Mismatch::Cfa(x, y) => format!("cfa1={} cfa2={}", f.loc_text(x), f.loc_text(y)),
            // objtool's `reg1[3]=...`, the register named: `x191=` read
            // as one name on arm64.
            Mismatch::Register(k, x, y) => format!(
                "reg1[{}]={} reg2[{}]={}",
                self.name_of_slot(k),
                f.loc_text(x),
                self.name_of_slot(k),
                f.loc_text(y)
            ),
            Mismatch::Type(x, y) => format!("type1={x} type2={y}"),
            Mismatch::Drap => "drap".to_string(),
        };
        let at = a.alt_site.unwrap_or((a.loc.0, a.insn.offset()));
        let owner = self.model().function_containing(at.0, at.1);
        let ends = self.event(
            STACK_MISMATCH,
            at,
            format!("stack state mismatch: {what}"),
            owner,
        );
        let e = self.last();
        e.notes.push(format!("first path: {}", f.describe(&old)));
        e.notes.push(format!("this path:  {}", f.describe(new)));
        ends
    }

    /// `UNWIND_HINT_RESTORE`: the state recorded at the nearest
    /// `UNWIND_HINT_SAVE` before it in the function.
    fn restore_hint(&self, a: &Arrival) -> Option<u32> {
        let lo = if a.loc.0 == self.root.section {
            self.base
        } else {
            0
        };
        (lo..a.loc.1)
            .rev()
            .find_map(|i| self.saves.get(&(a.loc.0, i)).copied())
    }
}

impl Visitor for Walk<'_, '_, '_> {
    type State = State;

    fn plain_run(
        &mut self,
        code: &SectionCode,
        sec: usize,
        from: usize,
        limit: usize,
        calls: &OwnCalls,
        s: &mut State,
    ) -> (usize, bool) {
        // noinstr region marks may sit on plain instructions.
        if self.noinstr_on || sec != self.root.section {
            return (0, true);
        }
        if s.key_id == NO_KEY {
            s.key_id = self.key_id(s.key);
        }
        if s.key_id >= RECORD_KEYS {
            return (0, true);
        }
        let mut bit = 1u32 << s.key_id;
        let (parent, pushed) = self.take_pending(s);
        self.at_trail = s.trail;
        let Some(base) = from.checked_sub(self.base) else {
            return (0, true);
        };
        let limit = limit.min(self.base + self.own.len());
        let stack = self.stack;
        // Calls taken in the run, as `plain_call` would take them (the key
        // cannot change in a run without pointer authentication).
        let take_calls = self.calls_in_one_step(s);
        let mut j = from;
        while j < limit {
            // Instructions that change no state, reached for the first
            // time: only recorded (most of a function).
            if stack && s.cfi_id == NO_CFI {
                self.cfis.push(s.cfi);
                s.cfi_id = (self.cfis.len() - 1) as u32;
            }
            let id = if stack { s.cfi_id } else { NO_CFI - 1 };
            let fresh = &mut self.own[base + (j - from)..base + (limit - from)];
            let n = code.insns[j..limit]
                .iter()
                .zip(fresh.iter_mut())
                .take_while(|(ins, r)| ins.is_inert() && r.cfi == NO_CFI)
                .map(|(_, r)| {
                    r.cfi = id;
                    r.keys |= bit;
                })
                .count();
            j += n;
            if j >= limit {
                break;
            }
            let ins = &code.insns[j];
            let call = if ins.is_plain() {
                None
            } else if take_calls
                && !ins.has_ops()
                && let Some(st) = calls.step_at(code, sec, j)
            {
                Some(st)
            } else {
                break;
            };
            let k = base + (j - from);
            // Arrival.
            let id = if stack {
                if s.cfi_id == NO_CFI {
                    self.cfis.push(s.cfi);
                    s.cfi_id = (self.cfis.len() - 1) as u32;
                }
                s.cfi_id
            } else {
                NO_CFI - 1
            };
            let rec = self.own[k];
            if rec.cfi != NO_CFI {
                if stack && rec.cfi != id && self.cfis[rec.cfi as usize] != s.cfi {
                    let old = self.cfis[rec.cfi as usize];
                    let a = Arrival::plain((sec, j), ins);
                    if self.mismatch(&a, old, &s.cfi) {
                        return self.run_ends(from, j, s, parent, pushed);
                    }
                }
                if rec.keys & bit != 0 {
                    return self.run_ends(from, j, s, parent, pushed);
                }
            }
            if ins.has_ops() && !stack {
                return (j - from, true);
            }
            let r = &mut self.own[k];
            if r.cfi == NO_CFI {
                r.cfi = id;
            }
            r.keys |= bit;
            // The call's step: the stack at a call.
            if let Some(st) = call {
                if stack
                    && s.cfi.follow != Follow::NotJudged
                    && let Action::Call(c) = st.action
                {
                    self.stack_at_call(&st, c, &s.cfi);
                }
                j += 1;
                continue;
            }
            // The instruction's stack operations.
            if ins.has_ops() {
                let frame = &self.p.frame;
                let m = self.model();
                let next_hint = code
                    .insns
                    .get(j + 1)
                    .is_some_and(|n| m.special().at(sec, n).is_some_and(|mk| mk.hint.is_some()));
                // The state before is `id`'s (interned at the arrival
                // above): only the key needs saving.
                debug_assert!(self.cfis[id as usize] == s.cfi);
                let saved_key = s.key;
                let mut failed = false;
                // Only operations on the return-address register move the
                // key here: the state before is kept, and the keys are
                // compared, for those alone.
                let mut pac = false;
                for op in code.ops(j) {
                    self.realigned |= frame.realigns(&op);
                    let before = frame
                        .ra_reg()
                        .is_some_and(|ra| pac_moves(&op, ra))
                        .then_some(s.cfi);
                    if frame.apply(&mut s.cfi, &op, true, next_hint).is_err() {
                        failed = true;
                        break;
                    }
                    if let Some(before) = before {
                        self.pac_stack_op(&op, &before, s);
                        pac = true;
                    }
                }
                if failed {
                    // The slow path reports it, from the state before.
                    s.cfi = self.cfis[id as usize];
                    s.cfi_id = id;
                    s.key = saved_key;
                    let r = &mut self.own[k];
                    r.keys &= !bit;
                    if r.cfi == id && rec.cfi == NO_CFI {
                        r.cfi = NO_CFI;
                    }
                    return (j - from, true);
                }
                if s.cfi != self.cfis[id as usize] {
                    s.cfi_id = NO_CFI;
                }
                // Only pointer authentication changes the key here.
                if pac && s.key != saved_key {
                    s.key_id = self.key_id(s.key);
                    if s.key_id >= RECORD_KEYS {
                        return (j + 1 - from, true);
                    }
                    bit = 1u32 << s.key_id;
                }
                if s.cfi.cfa.base == frame.fp() {
                    self.framed = true;
                }
            }
            j += 1;
        }
        (j - from, true)
    }

    /// arm64: the switch bound of [`Walk::dead_jump_into_data`] where code
    /// outside every function, not the next function's hash, follows the
    /// function (the nVHE hypervisor's `__vgic_v3_clear_active_lr`).
    /// An unconditional branch there is one too where nothing but NOPs
    /// lie between it and the next function: clang lowers `unreachable()`
    /// after an exhausted switch to a branch to the function's end, and
    /// Linux 7.3's clang inverts the bound to `b.ls <case>; b <end>`
    /// (vgic-v3-sr.c); no code means to enter a function through the
    /// padding before it.
    fn dead_branch(&mut self, st: &Step, to: Loc) -> bool {
        if !matches!(st.insn.kind, Kind::CondJump | Kind::Jump)
            || !self.arm64_branch_to_own_end(st, st.code.dest(st.index))
        {
            return false;
        }
        let m = self.model();
        let Some(c) = m.section_code(to.0) else {
            return false;
        };
        if !outside_functions(m, to.0, c, to.1) {
            return false;
        }
        if st.insn.kind == Kind::CondJump {
            return true;
        }
        padding_to_next_function(m, to.0, c, to.1)
    }

    /// arm64: a switch-table case that lands on nothing but saves of
    /// registers to the stack ending the function, where only padding NOPs
    /// lie before the next function and nothing falls into the saves: a
    /// case the compiler knows is never taken (its index excluded before
    /// the switch), whose table entry it pointed at what it left of the
    /// case's block at the function's end. gcc 16 (Linux 7.2's mlxfw.ko:
    /// `mlxfw_fsm_reactivate_err()`'s FW_ALREADY_ACTIVATED, which its only
    /// caller returns on first) leaves a shrink-wrapping `stp` there. A
    /// case that computes anything is followed (and runs off, reported).
    /// The case is not followed: its saves are then unreachable, and said
    /// to be.
    fn dead_case(&mut self, st: &Step, to: Loc) -> bool {
        let m = self.model();
        let Some(o) = st.owner else {
            return false;
        };
        let f = &m.functions[o];
        if m.obj.machine != crate::elf::Machine::Aarch64
            || st.alt_site.is_some()
            || to.0 != f.section
            || to.1 == 0
        {
            return false;
        }
        let Some(c) = m.section_code(to.0) else {
            return false;
        };
        // Not entered by falling into it.
        if !c.insns[to.1 - 1].kind.ends_flow() {
            return false;
        }
        let sp = self.p.frame.sp() as crate::arch::Reg;
        let mut k = to.1;
        while let Some(i) = c.insns.get(k)
            && i.end() <= f.end
        {
            let saves_only = i.has_ops()
                && c.ops(k).all(|op| {
                    matches!(op, Op::Stack {
                        src: crate::arch::Src::Reg(_),
                        dst: crate::arch::Dst::Store(b, _),
                    } if b == sp)
                });
            if !saves_only || (k > to.1 && c.insns[k - 1].end() != i.offset()) {
                return false;
            }
            k += 1;
        }
        let dead =
            k > to.1 && c.insns[k - 1].end() == f.end && padding_to_next_function(m, to.0, c, k);
        if dead {
            let at = (to.0, c.insns[to.1].offset());
            if !self.dead_cases.iter().any(|d| d.1 == at) {
                self.dead_cases.push((st.report_at(), at));
            }
        }
        dead
    }

    /// An x86 call to a function that returns, on a path whose key it
    /// cannot change (user access closed, the direction flag clear, no
    /// noinstr regions to judge): the arrival, then what [`Walk::apply`]
    /// does for it, without the general step's cases (a call is one
    /// instruction in eight; arm64 calls rewrite x30 and take the general
    /// path).
    fn plain_call(&mut self, st: &Step, s: &mut State) -> Option<bool> {
        if !self.calls_in_one_step(s) || st.insn.has_ops() {
            return None;
        }
        if !self.arrive(&Arrival::plain((st.section, st.index), st.insn), s) {
            return Some(false);
        }
        // The step: the stack at a call.
        if self.stack
            && s.cfi.follow != Follow::NotJudged
            && let Action::Call(c) = st.action
        {
            self.stack_at_call(st, c, &s.cfi);
        }
        Some(true)
    }

    fn edge(&mut self, from: Loc, to: Loc, edge: Edge, s: &mut State) {
        if self.stack {
            s.pending = Some((from, to, edge));
        }
        // A landing pad is entered with the arguments the call pushed
        // popped (`DW_CFA_GNU_args_size`).
        if edge == Edge::Fixup
            && let Some(code) = self.model().section_code(from.0)
            && let Some(mk) = self.model().special().at(from.0, &code.insns[from.1])
            && mk.pad_args > 0
        {
            let sp = self.p.frame.sp() as crate::arch::Reg;
            let pop = crate::arch::Op::Stack {
                src: crate::arch::Src::Add(sp, mk.pad_args as i32),
                dst: crate::arch::Dst::Reg(sp),
            };
            if self.p.frame.apply(&mut s.cfi, &pop, true, false).is_ok() {
                s.cfi_id = NO_CFI;
            }
        }
    }

    fn arrive(&mut self, a: &Arrival, s: &mut State) -> bool {
        let (parent, pushed) = self.take_pending(s);
        let go_on = self.arrive_at(a, s);
        if !go_on {
            self.drop_pending(s, parent, pushed);
        }
        go_on
    }

    fn step(&mut self, st: &Step, s: &mut State) -> bool {
        if self.dead_jump_to_end(st, s) {
            let plain = Step {
                action: Action::Plain,
                ..*st
            };
            return self.step(&plain, s);
        }
        self.at_trail = s.trail;
        match st.action {
            Action::UnknownJump => self.gap(st),
            Action::JumpNowhere if !self.dead_jump_into_data(st) => self.gap(st),
            Action::Call(Callee::Direct(Dest::None)) if st.insn.kind == Kind::Call => self.gap(st),
            Action::IntraCall { nowhere: true, .. } => self.gap(st),
            _ if st.insn.kind == Kind::Invalid => self.gap(st),
            _ => {}
        }
        // Only these change what tells paths apart.
        let may_change = st.insn.has_ops()
            || matches!(
                st.insn.kind,
                Kind::UaccessOpen | Kind::UaccessClose | Kind::PushFlags | Kind::PopFlags
            )
            || (self.p.frame.ra_reg().is_some() && matches!(st.action, Action::Call(_)));
        if !may_change {
            return self.apply(st, s);
        }
        let key_before = s.key;
        let go_on = self.apply(st, s);
        if s.key != key_before {
            s.key_id = NO_KEY;
        }
        go_on
    }
}

impl Walk<'_, '_, '_> {
    /// Whether a call on this path may be taken in one step
    /// ([`Visitor::plain_call`], and in a plain run): its key cannot change
    /// (user access closed, the direction flag clear, no noinstr regions to
    /// judge) and it does not rewrite a return-address register.
    #[inline]
    fn calls_in_one_step(&self, s: &State) -> bool {
        self.p.plain_calls
            && !self.noinstr_on
            && !s.key.access.open
            && !s.key.df
            && self.p.frame.ra_reg().is_none()
    }

    /// The edge the path took to arrive here goes into its trail: the
    /// trail's last edge before it, and whether it was recorded.
    #[inline]
    fn take_pending(&mut self, s: &mut State) -> (u32, bool) {
        let parent = s.trail;
        let pushed = match s.pending.take() {
            Some((from, to, edge)) if self.trail.len() < u32::MAX as usize - 1 => {
                self.trail.push(Trail {
                    from,
                    to,
                    edge,
                    parent,
                });
                s.trail = (self.trail.len() - 1) as u32;
                true
            }
            _ => false,
        };
        (parent, pushed)
    }

    /// The path ended where it arrived: nothing refers to the edge it came
    /// by (events copied theirs).
    #[inline]
    fn drop_pending(&mut self, s: &mut State, parent: u32, pushed: bool) {
        if pushed && self.trail.len() == s.trail as usize + 1 {
            self.trail.pop();
            s.trail = parent;
        }
    }

    /// A plain run ends its path at index `j` (walked already, or a
    /// finding).
    #[cold]
    fn run_ends(
        &mut self,
        from: usize,
        j: usize,
        s: &mut State,
        parent: u32,
        pushed: bool,
    ) -> (usize, bool) {
        if j == from {
            self.drop_pending(s, parent, pushed);
        }
        (j - from, false)
    }

    fn arrive_at(&mut self, a: &Arrival, s: &mut State) -> bool {
        self.at_trail = s.trail;
        let mut hint = false;
        if a.marks.is_some_and(|mk| mk.hint.is_some()) {
            self.hints_seen.push(a.loc);
        }
        if self.stack
            && let Some(h) = a.marks.and_then(|mk| mk.hint)
        {
            match h.ty {
                Hint::SAVE => {}
                Hint::RESTORE => {
                    if let Some(id) = self.restore_hint(a) {
                        s.cfi = self.cfis[id as usize];
                        s.cfi_id = id;
                        hint = true;
                    }
                }
                _ => {
                    s.cfi = match self.p.frame.from_hint(&h) {
                        Some(c) => c,
                        None => {
                            self.unfollowed_hint(a, &h);
                            Cfi::not_followed(Follow::NotJudged)
                        }
                    };
                    s.cfi_id = NO_CFI;
                    hint = true;
                }
            }
        }
        if self.noinstr_on
            && let Some(d) = self.p.depth_change.get(&(a.loc.0, a.insn.offset()))
        {
            let depth = (i32::from(s.key.depth) + d).clamp(-4, 4) as i8;
            if depth != s.key.depth {
                s.key.depth = depth;
                s.key_id = NO_KEY;
            }
        }
        if s.key_id == NO_KEY {
            s.key_id = self.key_id(s.key);
        }
        let key = s.key_id;
        let stack = self.stack;
        let rec = *self.record(a.loc);
        let mut cfi = rec.cfi;
        if rec.cfi != NO_CFI {
            if stack && !hint && rec.cfi != s.cfi_id && self.cfis[rec.cfi as usize] != s.cfi {
                let old = self.cfis[rec.cfi as usize];
                if self.mismatch(a, old, &s.cfi) {
                    return false;
                }
            }
        } else if stack {
            if s.cfi_id == NO_CFI {
                self.cfis.push(s.cfi);
                s.cfi_id = (self.cfis.len() - 1) as u32;
            }
            cfi = s.cfi_id;
            if a.marks
                .and_then(|mk| mk.hint)
                .is_some_and(|h| h.ty == Hint::SAVE)
            {
                self.saves.insert(a.loc, cfi);
            }
        } else {
            // Reached without stack rules: marked walked all the same.
            cfi = NO_CFI - 1;
        }
        if key < RECORD_KEYS {
            let r = self.record(a.loc);
            r.cfi = cfi;
            if r.keys & (1 << key) != 0 {
                return false;
            }
            r.keys |= 1 << key;
            true
        } else {
            self.record(a.loc).cfi = cfi;
            self.overflow.insert((a.loc, key))
        }
    }
}

impl Walk<'_, '_, '_> {
    /// The path cannot be followed past this instruction.
    #[cold]
    fn gap(&mut self, st: &Step) {
        self.cut = true;
        let at = st.report_at();
        let gap = if st.insn.kind == Kind::Invalid {
            let bytes = self.model().obj.section_data(st.section);
            let b = bytes
                .get(st.insn.offset() as usize..)
                .unwrap_or(&[])
                .iter()
                .take(usize::from(st.insn.len.clamp(1, 15)))
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ");
            Gap::new(Cause::Undecodable, at, format!("bytes {b} do not decode"))
        } else if matches!(
            st.action,
            Action::Call(_) | Action::IntraCall { nowhere: true, .. }
        ) {
            let m = self.model();
            let to = match st.code.dest(st.index) {
                Dest::Local { section, offset } => format!(
                    "call to {}+{offset:#x}, which is no instruction",
                    m.obj.section_name(section)
                ),
                _ => "the call's destination could not be resolved".to_string(),
            };
            Gap::new(Cause::BranchTarget, at, to)
        } else if matches!(st.action, Action::JumpNowhere) {
            let m = self.model();
            let switch = m
                .jump_tables()
                .cases(st.section, st.insn.offset())
                .is_some();
            let to = match st.code.dest(st.index) {
                _ if switch => "a switch case is no instruction".to_string(),
                Dest::Local { section, offset } => format!(
                    "jump to {}+{offset:#x}, which is no instruction",
                    m.obj.section_name(section)
                ),
                _ => "the jump's destination could not be resolved".to_string(),
            };
            Gap::new(Cause::BranchTarget, at, to)
        } else {
            Gap::new(
                Cause::SwitchTable,
                at,
                "the indirect jump's table could not be read",
            )
        };
        self.add_gap(gap);
    }

    /// An unwind hint whose frame address the model does not follow.
    #[cold]
    fn unfollowed_hint(&mut self, a: &Arrival, h: &Hint) {
        let arm64 = self.cx.model.obj.machine == crate::elf::Machine::Aarch64;
        let reg = match (arm64, h.sp_reg) {
            (true, _) => "on arm64".to_string(),
            (false, Hint::UNKNOWN_REG) => {
                "based on a register the object's ORC numbering has not".to_string()
            }
            (false, r) => match crate::elf::orc::orc_reg_name(r) {
                Some(name) => format!("based on {name}"),
                None => format!("based on ORC register {r}"),
            },
        };
        let at = a.alt_site.unwrap_or((a.loc.0, a.insn.offset()));
        self.add_gap(Gap::new(
            Cause::UnwindHint,
            at,
            format!("UNWIND_HINT_{} {reg}", h.type_name()),
        ));
    }

    /// A gap, once however many paths reach it.
    fn add_gap(&mut self, gap: Gap) {
        if !self.gaps.contains(&gap) {
            self.gaps.push(gap);
        }
    }

    fn apply(&mut self, st: &Step, s: &mut State) -> bool {
        let m = self.model();
        let frame = &self.p.frame;
        let at = st.report_at();
        let in_function = st.owner.is_some();
        // The stack operations (objtool's handle_insn_ops).
        if st.insn.has_ops() {
            let next_hint = m
                .section_code(st.section)
                .and_then(|c| c.insns.get(st.index + 1))
                .is_some_and(|n| {
                    m.special()
                        .at(st.section, n)
                        .is_some_and(|mk| mk.hint.is_some())
                });
            for op in st.code.ops(st.index) {
                match op {
                    Op::Stack { .. } | Op::CfaFrom { .. } | Op::ProbeEnd { .. } if self.stack => {
                        self.realigned |= frame.realigns(&op);
                        let before = s.cfi;
                        if let Err(u) = frame.apply(&mut s.cfi, &op, in_function, next_hint) {
                            if self.stack_undefined(st, u, &before) {
                                return false;
                            }
                            s.cfi.cfa = crate::model::cfi::Loc::UNDEF;
                            s.cfi.follow = Follow::No;
                        }
                        if s.cfi != before {
                            s.cfi_id = NO_CFI;
                        }
                        self.pac_stack_op(&op, &before, s);
                    }
                    Op::Direction(set) => {
                        let msg = match (set, s.key.df) {
                            (true, true) => Some("recursive STD"),
                            // Entry code (no function) clears what it cannot know.
                            (false, false) if in_function => Some("redundant CLD"),
                            _ => None,
                        };
                        s.key.df = set;
                        if let Some(msg) = msg
                            && s.key.quiet & QUIET_DF == 0
                            && self.event(DIRECTION_FLAG, at, msg.to_string(), st.owner)
                        {
                            s.quiet(QUIET_DF);
                        }
                    }
                    Op::Pac { reg, pac }
                        if Some(reg) == frame.ra_reg() && !self.pac_op(st, s, pac) =>
                    {
                        return false;
                    }
                    _ => {}
                }
            }
            if self.stack && s.cfi.cfa.base == frame.fp() {
                self.framed = true;
            }
        }
        // User access (checks/uaccess.rs): toggles, then calls and returns.
        if self.uaccess_on && s.key.quiet & QUIET_UACCESS == 0 {
            let mut a = s.key.access;
            let ev = match st.insn.kind {
                Kind::UaccessOpen if a.open => {
                    Some((uaccess::REDUNDANT, "recursive UACCESS enable"))
                }
                Kind::UaccessOpen => {
                    a.open = true;
                    None
                }
                // A close right after saving the state is smap_save(): deliberate.
                // Entry code (no function) closes what it cannot know is open.
                Kind::UaccessClose if !a.open && !a.saved_any() && in_function => {
                    Some((uaccess::REDUNDANT, "redundant UACCESS disable"))
                }
                Kind::UaccessClose => {
                    a.open = false;
                    None
                }
                Kind::PushFlags => {
                    a.push();
                    None
                }
                Kind::PopFlags => {
                    a.pop();
                    None
                }
                _ => None,
            };
            s.key.access = a;
            if let Some((rule, msg)) = ev {
                let ends = self.event(rule, at, msg.to_string(), st.owner);
                self.uaccess_alt_note(st);
                if ends {
                    s.quiet(QUIET_UACCESS);
                }
            } else if a.open {
                let e = match st.action {
                    Action::Call(c) if !uaccess::is_safe(m, self.p.safe, c) => {
                        Some(uaccess::call_event(m, c, false))
                    }
                    Action::TailCall(c) if !uaccess::is_safe(m, self.p.safe, c) => {
                        Some(uaccess::call_event(m, c, true))
                    }
                    Action::Return if !self.f_safe => Some((
                        uaccess::RETURN,
                        "return with UACCESS enabled".to_string(),
                        None,
                        Vec::new(),
                    )),
                    _ => None,
                };
                if let Some((rule, message, target, notes)) = e {
                    let ends = self.event(rule, at, message, st.owner);
                    let ev = self.last();
                    ev.target = target;
                    ev.notes = notes;
                    self.uaccess_alt_note(st);
                    if ends {
                        s.quiet(QUIET_UACCESS);
                    }
                }
            }
        }
        // noinstr code calling out (checks/noinstr.rs).
        if self.noinstr_on && s.key.depth <= 0 && s.key.quiet & QUIET_NOINSTR == 0 {
            let call = match st.action {
                Action::Call(c) => Some((c, false)),
                Action::TailCall(c) => Some((c, true)),
                _ => None,
            };
            if let Some((c, tail)) = call
                && let Some(message) = super::noinstr::judge(
                    self.cx,
                    &self.p.noinstr_sections,
                    &self.p.noinstr_allowed,
                    st,
                    c,
                    tail,
                    m.obj.section_name(self.root.section),
                )
                && self.seen_messages.insert((at, NOINSTR))
            {
                if self.p.regions_unrecorded {
                    self.add_gap(Gap::new(Cause::RegionsUnrecorded, at, message));
                } else {
                    let ends = self.event(NOINSTR, at, message, st.owner);
                    let ev = self.last();
                    if let Callee::Direct(Dest::Local { section, offset }) = c {
                        ev.target = Some((section, offset));
                    }
                    if let Callee::Indirect { thunk: Some(t) } = c {
                        ev.notes.push(format!("through {}", m.obj.symbols[t].name));
                    }
                    if ends {
                        s.quiet(QUIET_NOINSTR);
                    }
                }
            }
        }
        // Calls and returns with the direction flag set (objtool's
        // validate_call / validate_return).
        let x86 = m.obj.machine == crate::elf::Machine::X86_64;
        if x86 && s.key.df && s.key.quiet & QUIET_DF == 0 && self.on(DIRECTION_FLAG) {
            let msg = match st.action {
                Action::Call(c) | Action::TailCall(c) => Some(match c {
                    Callee::Direct(d @ (Dest::Local { .. } | Dest::External { .. })) => {
                        format!("call to {}() with DF set", m.dest_name(d))
                    }
                    _ => "indirect call with DF set".to_string(),
                }),
                Action::Return => Some("return with DF set".to_string()),
                _ => None,
            };
            if let Some(msg) = msg
                && self.event(DIRECTION_FLAG, at, msg, st.owner)
            {
                s.quiet(QUIET_DF);
            }
        }
        // A call to a label of the function, not annotated as meant (where
        // the annotations survive: a linked module lost them).
        if let Action::IntraCall {
            annotated: false, ..
        } = st.action
            && x86
            && self.on(INTRA_FUNCTION_CALL)
            && self.seen_messages.insert((at, INTRA_FUNCTION_CALL))
        {
            if m.special().annotated || !self.p.linked_module {
                self.event(
                    INTRA_FUNCTION_CALL,
                    at,
                    "unannotated intra-function call".to_string(),
                    st.owner,
                );
                let note = format!(
                    "`{}` calls into its own function; mark it ANNOTATE_INTRA_FUNCTION_CALL if it is meant (retpoline and RSB-stuffing sequences), else call a function",
                    m.disasm(st.section, st.insn)
                );
                self.last().notes.push(note);
            } else {
                self.add_gap(Gap::new(
                    Cause::AnnotationsLost,
                    at,
                    "intra-function-call: not judged: ANNOTATE_INTRA_FUNCTION_CALL was dropped at link",
                ));
            }
        }
        // The stack at calls, returns and tail calls (not judged after a
        // hint the model does not follow).
        if self.stack && s.cfi.follow != Follow::NotJudged {
            match st.action {
                // What is judged at a call here and above is what
                // `Walk::plain_call` judges on the paths it takes: a check
                // added for calls goes there too, or narrows its conditions.
                Action::Call(c) => {
                    self.stack_at_call(st, c, &s.cfi);
                    if frame.ra_reg().is_some() {
                        let before = s.cfi;
                        frame.call(&mut s.cfi);
                        if s.cfi != before {
                            s.cfi_id = NO_CFI;
                        }
                        s.key.pac.lr = Lr::Other;
                    }
                }
                Action::IntraCall { .. } => {
                    let op = if frame.ra_reg().is_some() {
                        None
                    } else {
                        Some(Op::Stack {
                            src: crate::arch::Src::Const,
                            dst: crate::arch::Dst::Push,
                        })
                    };
                    let before = s.cfi;
                    match op {
                        Some(op) => {
                            if let Err(u) = frame.apply(&mut s.cfi, &op, in_function, false)
                                && self.stack_undefined(st, u, &before)
                            {
                                return false;
                            }
                        }
                        None => frame.call(&mut s.cfi),
                    }
                    if s.cfi != before {
                        s.cfi_id = NO_CFI;
                    }
                }
                Action::Return => {
                    let modified = in_function.then(|| frame.modified(&s.cfi)).flatten();
                    // Judged only where the frame looks modified: through
                    // a copy of x30 it may be restored all the same.
                    let data = m.obj.section_data(st.section);
                    if modified.is_some()
                        && let Some(r) = data
                            .get(st.insn.offset() as usize..)
                            .and_then(|b| m.dec.return_register(b))
                    {
                        self.add_gap(Gap::new(
                            Cause::ReturnRegister,
                            at,
                            format!(
                                "returns through x{r}, not x30: copies of the return address are not followed, so the frame at this return was not judged"
                            ),
                        ));
                        return false;
                    }
                    // Both rules may speak about one return (the path ends
                    // here anyway).
                    self.pac_leave(st, s, false);
                    if let Some(md) = modified {
                        let note = self.modified_note(&s.cfi, md);
                        let ends = self.event(
                            STACK_RETURN,
                            at,
                            "return with modified stack frame".to_string(),
                            st.owner,
                        );
                        let st_note = self.state_note(&s.cfi);
                        let e = self.last();
                        e.notes.push(note);
                        e.notes.push(st_note);
                        if ends {
                            return false;
                        }
                    }
                    if s.cfi.bp_scratch && in_function {
                        self.frame_event(st, true);
                    }
                }
                Action::TailCall(c) => {
                    if in_function && matches!(c, Callee::Direct(_)) {
                        self.sibling = true;
                    }
                    if in_function && let Some(md) = frame.modified(&s.cfi) {
                        let note = self.modified_note(&s.cfi, md);
                        let ends = self.event(
                            STACK_SIBLING,
                            at,
                            "sibling call from callable instruction with modified stack frame"
                                .to_string(),
                            st.owner,
                        );
                        let st_note = self.state_note(&s.cfi);
                        let e = self.last();
                        e.notes.push(note);
                        e.notes.push(st_note);
                        if ends {
                            return false;
                        }
                    }
                    if !self.pac_leave(st, s, true) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        // Also for the site check, not only for the ORC.
        if self.stack
            && let Some(at) = st.replacement_end
        {
            self.replacement_ends.push((at, s.cfi));
        }
        // Preambles (`__pfx_`, `__cfi_`) fall through by design; code outside
        // every function walked from an unwind hint there is no function's
        // (objtool follows it with no function and says nothing).
        let prefix = st.owner.is_some_and(|o| m.functions[o].prefix);
        let nobodys = st.owner.is_none() && self.root_index == usize::MAX;
        if let Some(exit) = st.exit.filter(|_| !prefix && !nobodys) {
            let owner = st.owner;
            let ends = self.event(FALLTHROUGH, at, String::new(), owner);
            let e = self.last();
            e.loc = Some((st.section, st.index));
            e.message = match exit {
                crate::model::walk::Exit::OffEnd => "off-end".into(),
                crate::model::walk::Exit::IntoData => "into-data".into(),
            };
            if ends {
                return false;
            }
        }
        true
    }

    /// Calls the frame-pointer rule does not count (`rules/calls.toml`), and
    /// a call into the middle of another instruction: the retbleed and SRSO
    /// untraining sequences call a return hidden in an immediate
    /// (`srso_untrain_ret` calls `srso_safe_ret`), objtool's `embedded_insn`.
    /// The stack at a call (both ways a walk steps over one): the function
    /// calls, unless the callee is exempt, and a call without a valid frame
    /// in a function is frame-pointer evidence.
    fn stack_at_call(&mut self, st: &Step, c: Callee, cfi: &Cfi) {
        if !self.special_call(st, c) {
            self.calls = true;
            if !self.p.frame.valid_frame(cfi) && st.owner.is_some() {
                self.frame_event(st, false);
            }
        }
    }

    /// A call the frame-pointer rule does not count: to a frame-exempt
    /// symbol, or to a place no instruction starts at.
    fn special_call(&self, st: &Step, c: Callee) -> bool {
        let m = self.model();
        match c {
            Callee::Direct(Dest::External { sym }) => m.is_frame_exempt_sym(sym),
            Callee::Direct(dest @ Dest::Local { section, offset }) => {
                match m.function_at_branch_dest(st.code, st.index, dest) {
                    Some(i) => m.is_special_callee_fn(i),
                    None => m
                        .section_code(section)
                        .is_some_and(|c| c.index_at(offset).is_none()),
                }
            }
            _ => false,
        }
    }

    fn stack_undefined(&mut self, st: &Step, u: Unsupported, before: &Cfi) -> bool {
        let at = st.report_at();
        let ends = self.event(STACK_UNDEFINED, at, u.message().to_string(), st.owner);
        let note = self.state_note(before);
        let dis = self.model().disasm(st.section, st.insn);
        let e = self.last();
        e.notes.push(format!("at `{dis}`"));
        e.notes.push(note);
        ends
    }

    /// The first frame-pointer event of the walk (the rule reports one
    /// per function). Never ends the path: whether the build uses frame
    /// pointers is only known once every function was walked.
    fn frame_event(&mut self, st: &Step, scratch: bool) {
        if self.frame_event.is_some() || !self.on(FRAME_POINTER) {
            return;
        }
        self.frame_event = Some(FrameEvent {
            at: st.report_at(),
            owner: st.owner,
            root: self.root_index,
            scratch,
        });
    }

    fn uaccess_alt_note(&mut self, st: &Step) {
        if st.alt_site.is_none() {
            return;
        }
        let m = self.model();
        let note = format!(
            "in the alternative replacement at {}+{:#x}: {}",
            m.obj.section_name(st.section),
            st.insn.offset(),
            m.disasm(st.section, st.insn)
        );
        self.last().notes.push(note);
    }

    /// Saving x30 to its save slot and loading it from there move its
    /// signature state with it (`before` is the stack state before the
    /// operation, to place the slot); any other write to x30 replaces what
    /// it held.
    fn pac_stack_op(&mut self, op: &Op, before: &Cfi, s: &mut State) {
        let frame = &self.p.frame;
        let Some(ra) = frame.ra_reg() else {
            return;
        };
        if !pac_moves(op, ra) {
            return;
        }
        let Op::Stack { src, dst } = *op else { return };
        // The CFA-relative address `base + off` stands for, before the op.
        let at = |base: u8, off: i32| {
            let base = base as crate::model::cfi::Base;
            if base == frame.sp() {
                Some(off - before.stack_size)
            } else if base == before.cfa.base {
                Some(off - before.cfa.offset)
            } else {
                None
            }
        };
        let p = &mut s.key.pac;
        match (src, dst) {
            (crate::arch::Src::Reg(r), crate::arch::Dst::Store(base, off)) if r == ra => {
                let addr = at(base, off);
                let first = before.regs[frame.ra_slot()] != s.cfi.regs[frame.ra_slot()];
                if first || (addr.is_some() && addr == p.slot) {
                    p.saved = p.lr;
                    p.slot = addr;
                }
            }
            (crate::arch::Src::Load(base, off), crate::arch::Dst::Reg(r)) if r == ra => {
                let addr = at(base, off);
                if addr.is_some() && addr == p.slot {
                    if p.signed.is_some() && p.lr == Lr::Plain && p.saved != Lr::Plain {
                        p.reloaded = true;
                    }
                    p.lr = p.saved;
                } else {
                    p.lr = Lr::Other;
                }
            }
            (_, crate::arch::Dst::Reg(r)) if r == ra => p.lr = Lr::Other,
            _ => {}
        }
    }

    fn pac_op(&mut self, st: &Step, s: &mut State, pac: Pac) -> bool {
        let p = &mut s.key.pac;
        let ss = s.cfi.stack_size;
        match pac {
            Pac::Sign(k, md) => {
                p.lr = Lr::Signed(k, md, ss);
                if p.signed.is_none() {
                    p.signed = Some((k, md, ss));
                }
                p.reloaded = false;
                true
            }
            Pac::Auth(k, md) => {
                let was = p.lr;
                match was {
                    Lr::Signed(k0, m0, s0)
                        if k0 == k && m0 == md && (md != Modifier::Sp || s0 == ss) =>
                    {
                        p.lr = Lr::Plain;
                        true
                    }
                    _ => {
                        p.lr = Lr::Other;
                        let why = match was {
                            Lr::Signed(k0, _, _) if k0 != k => format!(
                                "authenticates with key {} but the return address was signed with key {}",
                                key_name(k),
                                key_name(k0),
                            ),
                            Lr::Signed(_, m0, _) if m0 != md => format!(
                                "authenticates with {} but the return address was signed with {}",
                                mod_name(md),
                                mod_name(m0)
                            ),
                            Lr::Signed(_, _, s0) => format!(
                                "authenticates with sp {} bytes {} the sp it was signed with",
                                (ss - s0).abs(),
                                if ss > s0 { "below" } else { "above" }
                            ),
                            Lr::Plain => {
                                "authenticates a return address that was never signed".into()
                            }
                            Lr::Stripped => {
                                "authenticates a return address whose signature was stripped".into()
                            }
                            Lr::Other => "authenticates x30 after it was overwritten".into(),
                        };
                        let at = st.report_at();
                        let ends = self.event(
                            PAC_RET,
                            at,
                            format!("return address authentication will fail: {why}"),
                            st.owner,
                        );
                        !ends
                    }
                }
            }
            Pac::Strip => {
                p.lr = Lr::Stripped;
                true
            }
        }
    }

    /// A return or tail call in a function that signed its return address:
    /// x30 must hold the authenticated address.
    fn pac_leave(&mut self, st: &Step, s: &State, tail: bool) -> bool {
        let p = s.key.pac;
        if p.signed.is_none() || p.lr == Lr::Plain || st.owner.is_none() {
            return true;
        }
        let what = if tail { "tail call" } else { "return" };
        let why = match p.lr {
            Lr::Signed(..) if p.reloaded => {
                "with a signed return address: x30 was reloaded from the stack after it was authenticated"
            }
            Lr::Signed(..) => "without authenticating the return address it signed",
            Lr::Stripped => "with a return address stripped of its signature, not authenticated",
            _ => "with x30 changed since it was authenticated or saved",
        };
        let at = st.report_at();
        let ends = self.event(PAC_RET, at, format!("{what} {why}"), st.owner);
        !ends
    }
}

/// Whether the instructions of `c` from index `k` (where its function
/// ends) are padding NOPs outside every function up to the next function,
/// which follows them without a gap.
fn padding_to_next_function(m: &Model, sec: usize, c: &SectionCode, k: usize) -> bool {
    let outside = |k: usize| outside_functions(m, sec, c, k);
    if !outside(k) {
        return false;
    }
    let end = (k..c.insns.len())
        .find(|&j| !outside(j) || c.insns[j].kind != Kind::Nop)
        .unwrap_or(c.insns.len());
    end < c.insns.len() && !outside(end) && c.insns[end - 1].end() == c.insns[end].offset()
}

/// Whether instruction `k` of `c` (section `sec`) is code outside every
/// function.
fn outside_functions(m: &Model, sec: usize, c: &SectionCode, k: usize) -> bool {
    c.insns
        .get(k)
        .is_some_and(|i| m.function_containing(sec, i.offset()).is_none())
}

/// Whether a stack operation can change what [`Walk::pac_stack_op`]
/// follows of the return address: a store of it, or a write to it.
#[inline]
fn pac_moves(op: &Op, ra: crate::arch::Reg) -> bool {
    use crate::arch::{Dst, Src};
    match *op {
        Op::Stack {
            src: Src::Reg(r),
            dst: Dst::Store(..),
        } => r == ra,
        Op::Stack {
            dst: Dst::Reg(r), ..
        } => r == ra,
        _ => false,
    }
}

fn key_name(k: PacKey) -> &'static str {
    match k {
        PacKey::A => "A",
        PacKey::B => "B",
    }
}

fn mod_name(m: Modifier) -> String {
    match m {
        Modifier::Sp => "sp as modifier".into(),
        Modifier::Zero => "a zero modifier".into(),
        Modifier::Reg(r) => format!("x{r} as modifier"),
    }
}

fn policy<'c>(cx: &'c Ctx, collect_states: bool) -> Policy<'c> {
    let m = cx.model;
    let rules = cx.rules;
    let nr = &rules.noinstr;
    let noinstr_sections: Vec<bool> = m
        .obj
        .sections
        .iter()
        .map(|s| s.is_exec() && nr.is_noinstr_section(&s.name))
        .collect();
    let a = &nr.annotations;
    let annotated = [&a.begin, &a.end, &a.typed]
        .iter()
        .any(|s| !m.obj.sections_named(s).is_empty());
    let linked_module = nr
        .linked_module_sections
        .iter()
        .any(|s| !m.obj.sections_named(s).is_empty());
    let mut depth_change: FxHashMap<At, i32> = FxHashMap::default();
    let lists = [
        (a.begin.as_str(), Layout::List, 1),
        (a.end.as_str(), Layout::List, -1),
        (a.typed.as_str(), Layout::Typed(a.type_begin), 1),
        (a.typed.as_str(), Layout::Typed(a.type_end), -1),
    ];
    for (name, layout, d) in lists {
        for place in places(m.obj, name, layout) {
            *depth_change.entry(place).or_default() += d;
        }
    }
    let enabled = super::all()
        .iter()
        .map(|c| c.id())
        .chain(FLOW_RULES)
        .filter(|r| cx.opts.enabled(r))
        .collect();
    let mut gaps = Vec::new();
    let orc = cx
        .opts
        .enabled(ORC_MISMATCH)
        .then(|| {
            m.obj
                .orc_table(m.orc_numbering.as_ref().map_err(String::as_str))
        })
        .filter(|t| t.present);
    let orc = match orc {
        Some(t) if t.error.is_some() => {
            let e = t.error.unwrap_or_default();
            gaps.push(Gap::new(
                Cause::UnwindTable,
                table_start(m.obj, ".orc_unwind"),
                format!("{e}: orc-mismatch not checked"),
            ));
            None
        }
        t => t,
    };
    let abi = m.dec.frame();
    let cfi = cx
        .opts
        .enabled(CFI_MISMATCH)
        .then(|| m.obj.cfi_tables(abi.dwarf_ra, abi.dwarf[abi.fp as usize]));
    if let Some(t) = &cfi {
        let name = t.source.as_deref().unwrap_or(".eh_frame");
        let at = table_start(m.obj, name);
        for e in &t.errors {
            gaps.push(Gap::new(
                Cause::UnwindTable,
                at,
                format!("{e}: cfi-mismatch not checked where it applies"),
            ));
        }
    }
    let cfi = cfi.filter(|t| !t.is_empty());
    let producer = m.obj.producer();
    let cfi_calls_only = producer == Some(crate::elf::Producer::Clang)
        && cfi.as_ref().is_some_and(|t| {
            t.source
                .as_deref()
                .is_some_and(|s| s.ends_with("debug_frame"))
        });
    let mut non_standard: FxHashSet<At> = m.special().non_standard.iter().copied().collect();
    if !cx.rules.stack.non_standard.get(m.obj.machine).is_empty() {
        for f in m.functions.iter().filter(|f| !f.prefix) {
            if cx
                .rules
                .stack_non_standard(m.obj.machine, f.name, m.obj.section_name(f.section))
                && non_standard.insert((f.section, f.start))
            {
                gaps.push(Gap::new(
                    Cause::Exempt,
                    (f.section, f.start),
                    "the stack is not followed (rules/stack.toml non_standard)",
                ));
            }
        }
    }
    // A final module lost STACK_FRAME_NON_STANDARD with the other
    // annotations; objtool's ORC still says which functions it was told not
    // to follow: no row of theirs says anything.
    if let Some(t) = &orc
        && !m.special().annotated
    {
        for f in m.functions.iter().filter(|f| f.end > f.start && !f.prefix) {
            let rows = &t.rows[f.section];
            let lo = rows.partition_point(|r| r.0 <= f.start).saturating_sub(1);
            let covering = rows[lo..].iter().take_while(|r| r.0 < f.end);
            let mut any = false;
            let silent = covering
                .inspect(|_| any = true)
                .all(|r| r.1.ty == crate::elf::orc::ORC_TYPE_UNDEFINED);
            // Said, not assumed silently: an ORC misread as all undefined
            // would otherwise turn the stack rules off without a word.
            if any && silent && non_standard.insert((f.section, f.start)) {
                gaps.push(Gap::new(
                    Cause::AnnotationsLost,
                    (f.section, f.start),
                    "the stack is not followed: the module's ORC is undefined throughout the function (objtool was told not to follow it; STACK_FRAME_NON_STANDARD was dropped at link)",
                ));
            }
        }
    }
    let resets: FxHashSet<At> = m
        .functions
        .iter()
        .filter(|f| rules.uaccess_state_reset(m.obj.machine, f.name, m.obj.section_name(f.section)))
        .map(|f| (f.section, f.start))
        .collect();
    if [uaccess::CALL, uaccess::RETURN, uaccess::REDUNDANT]
        .iter()
        .any(|r| cx.opts.enabled(r))
    {
        for f in m
            .functions
            .iter()
            .filter(|f| resets.contains(&(f.section, f.start)))
        {
            gaps.push(Gap::new(
                Cause::Exempt,
                (f.section, f.start),
                "user access is not tracked (rules/uaccess_safe.toml state_resets)",
            ));
        }
    }
    let noinstr_checkable = (annotated || !linked_module) && noinstr_sections.iter().any(|&b| b);
    // Calls out of noinstr code are judged (and instrumentation regions
    // followed) only for the rule: with it off, neither they nor the
    // regions-unrecorded gap about them are said.
    let noinstr_checked = noinstr_checkable && cx.opts.enabled(NOINSTR);
    let regions_unrecorded = *nr.regions_recorded.get(m.obj.machine) && depth_change.is_empty();
    if cx.opts.enabled(NOINSTR) && !noinstr_checkable {
        for (sec, _) in noinstr_sections.iter().enumerate().filter(|s| *s.1) {
            gaps.push(Gap::new(
                Cause::AnnotationsLost,
                (sec, 0),
                format!(
                    "calls out of {} are not judged: where instrumentation is allowed is unknown",
                    m.obj.section_name(sec)
                ),
            ));
        }
    }
    Policy {
        frame: Frame::new(m.dec.frame()),
        enabled,
        safe: rules.uaccess_safe(m.obj.machine, cx.kernel_version),
        entered_open: rules.uaccess_entered_open(m.obj.machine),
        resets,
        noinstr_checked,
        regions_unrecorded,
        linked_module,
        noinstr_sections,
        depth_change,
        noinstr_allowed: nr.allowed(),
        non_standard,
        collect_states,
        plain_calls: true,
        orc,
        cfi,
        cfi_calls_only,
        cfi_by_compiler: producer.is_some(),
        gaps,
    }
}

/// Functions walked as roots: every function (preambles too: objtool
/// walks `__cfi_` preambles, and their state is the function's entry
/// state); `.cold` parts only when nothing jumps into them from outside
/// (they are walked from their parent otherwise).
fn roots(m: &Model) -> Vec<(usize, bool)> {
    let mut entered: FxHashSet<usize> = FxHashSet::default();
    let cold: Vec<bool> = m.functions.iter().map(|f| is_cold(f.name)).collect();
    let any_cold = cold.contains(&true);
    for (f, _) in m
        .functions
        .iter()
        .zip(&cold)
        .filter(|(_, c)| any_cold && !**c)
    {
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        for &i in code.transfers_in(m.insn_range(f)) {
            let i = i as usize;
            if !matches!(code.insns[i].kind, Kind::Jump | Kind::CondJump) {
                continue;
            }
            if let Dest::Local { section, offset } = code.dest(i)
                && !(section == f.section && offset >= f.start && offset < f.end)
                && let Some(g) = m.function_containing(section, offset)
                && cold[g]
            {
                entered.insert(g);
            }
        }
    }
    (0..m.functions.len())
        .filter_map(|i| (!cold[i] || !entered.contains(&i)).then_some((i, cold[i])))
        .collect()
}

/// Walk every function of the object.
pub fn analyze(cx: &Ctx, collect_states: bool) -> Facts {
    analyze_with(cx, policy(cx, collect_states))
}

fn analyze_with(cx: &Ctx, p: Policy) -> Facts {
    let m = cx.model;
    let walker = Walker::new(m);
    let roots = roots(m);
    let mut facts = Facts::default();
    // The roots' findings are merged a run of roots at a time, in order:
    // held all at once they were vmlinux.o's largest passing allocation.
    // Each run merges while the next is walked (merging between the runs
    // held a thread idle 16 times on vmlinux.o).
    let mut hints_seen: FxHashSet<Loc> = FxHashSet::default();
    let mut merge = |parts: Vec<RootFacts>, facts: &mut Facts| {
        for r in parts {
            hints_seen.extend(r.hints_seen.iter().copied());
            absorb(m, facts, r);
        }
    };
    let mut walked: Vec<RootFacts> = Vec::new();
    for run in roots.chunks(ROOTS_MERGED) {
        let before = std::mem::take(&mut walked);
        let parts = rayon::join(
            || {
                run.par_iter()
                    .with_min_len(16)
                    .with_max_len(ROOTS_PER_JOB)
                    .map_init(Spare::take, |scr, &(fi, orphan_cold)| {
                        walk_root(cx, &p, &walker, fi, orphan_cold, &mut scr.0)
                    })
                    .collect::<Vec<RootFacts>>()
            },
            || merge(before, &mut facts),
        )
        .0;
        walked = parts;
    }
    merge(walked, &mut facts);
    // objtool's validate_unwind_hints: code only unwind hints lead to
    // (entry code), walked from each hint no walk reached, in address order.
    // Every such hint is walked at once, on every thread; a walk whose hint
    // an earlier one reached is dropped unread, as it would not have been
    // taken (a walk depends on its hint alone).
    let pending: Vec<Loc> = m
        .special()
        .hints()
        .iter()
        .filter_map(|&((sec, off), _)| Some((sec, m.section_code(sec)?.index_at(off)?)))
        .filter(|at| !hints_seen.contains(at))
        .collect();
    let hint_walks: Vec<RootFacts> = pending
        .par_iter()
        .map_init(Spare::take, |scr, &at| {
            walk_hint(cx, &p, &walker, at, &mut scr.0)
        })
        .collect();
    for (at, r) in pending.iter().zip(hint_walks) {
        if hints_seen.contains(at) {
            continue;
        }
        hints_seen.extend(r.hints_seen.iter().copied());
        absorb(m, &mut facts, r);
    }
    facts.gaps.extend(p.gaps.iter().cloned());
    // What no path reached is also what no flow rule checked, whichever
    // of them is on.
    let gaps = unwalked_labels(cx, &facts);
    facts.gaps.extend(gaps);
    let gaps = unwalked_code(cx, &facts);
    facts.gaps.extend(gaps);
    facts
}

/// Code outside every function that no path and no unwind hint reached:
/// no flow rule checked it (arm64's exception vectors, whose hand-written
/// code has no function symbols and no hints to enter it by). One gap per
/// run of such code. Not counted: padding, traps, speculation barriers,
/// patch sites before functions; and in a linked object (vmlinux.o, a
/// module, `ld -r` of several objects) code no symbol covers at all, which
/// is what the link left of a weak definition another replaced (dead, as
/// objtool's `find_symbol_hole_containing` takes it).
fn unwalked_code(cx: &Ctx, facts: &Facts) -> Vec<Gap> {
    let m = cx.model;
    let obj = m.obj;
    // The runs, found on every thread a stretch between functions at a time
    // (a vmlinux.o's code is nearly all one section); the lookups that judge
    // them are built only if there is one. On one thread this tail of the
    // walk was 4% of vmlinux.o's wall time at -j 2.
    let stretches: Vec<(usize, &SectionCode, u64, u64)> = m
        .code
        .par_iter()
        .enumerate()
        .with_min_len(256)
        .filter_map(|(sec, code)| Some((sec, code.as_deref()?)))
        .filter(|&(sec, _)| crate::model::orc::has_orc(m, sec))
        .flat_map_iter(|(sec, code)| {
            m.outside_functions(sec)
                .into_iter()
                .map(move |(a, b)| (sec, code, a, b))
        })
        .collect();
    let runs: Vec<(usize, &SectionCode, Run)> = stretches
        .par_iter()
        .with_min_len(64)
        .flat_map_iter(|&(sec, code, a, b)| {
            unreached_runs(m, facts, sec, code, a, b)
                .into_iter()
                .map(move |r| (sec, code, r))
        })
        .collect();
    if runs.is_empty() {
        return Vec::new();
    }
    // Linked: told so, a module, a vmlinux.o, or a partial link of several
    // objects (`ld -r`: more than one source file's symbol).
    let linked = cx.opts.link
        || !obj.sections_named(".gnu.linkonce.this_module").is_empty()
        || obj.banner_release().is_some()
        || obj
            .symbols
            .iter()
            .filter(|s| s.st_type == crate::elf::STT_FILE)
            .nth(1)
            .is_some();
    // Sized symbols of any kind (not only code routines: a linked object's
    // code may lie in a data symbol's range).
    let (sites, covered) = rayon::join(
        || PatchSites::new(cx),
        || {
            if linked {
                sized_symbols(obj)
            } else {
                Vec::new()
            }
        },
    );
    let mut referenced: Option<Vec<CodeRef>> = None;
    let mut out = Vec::new();
    for (sec, code, r) in runs {
        let off = code.insns[r.first].offset();
        // A patch site's NOPs before a function (patchable-entry judges
        // what is there).
        if sites.contains(sec, off) {
            continue;
        }
        let mut why = String::new();
        if linked {
            let k = covered.partition_point(|&(s, v, _)| (s, v) <= (sec, off));
            let in_symbol = covered[..k]
                .iter()
                .rev()
                .take_while(|x| x.0 == sec)
                .any(|x| off < x.2);
            if !in_symbol {
                // Dead unless something points into it: code that computes a
                // branch into its own out-of-line part (arm64 aes-modes.S's
                // `adr x16, 1f; sub x16, x16, x12, lsl #3; br x16` in a
                // `.subsection`).
                let refs = referenced.get_or_insert_with(|| code_refs(cx));
                let at = refs.partition_point(|x| (x.0, x.1) < (sec, r.from));
                match refs.get(at).filter(|x| x.0 == sec && x.1 < r.to) {
                    Some(&(_, _, from)) => {
                        why = format!(
                            "; no symbol covers them, {} points into them",
                            m.place_name(from.0, from.1)
                        )
                    }
                    None => continue,
                }
            }
        }
        out.push(Gap::new(
            Cause::UnwalkedCode,
            (sec, off),
            format!(
                "{} not reached{why}",
                super::analysis_incomplete::plural(r.n, "instruction", "instructions")
            ),
        ));
    }
    out
}

/// The runs of code in `[a, b)` of `sec`, a stretch outside every function,
/// that no path reached (padding, traps and speculation barriers not
/// counted), in order.
fn unreached_runs(
    m: &Model,
    facts: &Facts,
    sec: usize,
    code: &SectionCode,
    a: u64,
    b: u64,
) -> Vec<Run> {
    let data = m.obj.section_data(sec);
    let mut out = Vec::new();
    let mut i = code.lower_bound(a);
    // The current run: its first instruction, the instructions counted, and
    // the span it covers (from the end of the last instruction reached, or
    // of a function, to its last one's end).
    let mut run: Option<Run> = None;
    let mut span_from = a;
    while i < code.insns.len() && code.insns[i].offset() < b {
        let ins = &code.insns[i];
        // Padding first: most code between functions is.
        let filler = matches!(
            ins.kind,
            Kind::Nop | Kind::Breakpoint | Kind::Invalid | Kind::Pad(_) | Kind::Trap
        );
        if filler && run.is_none() {
            i += 1;
            continue;
        }
        if facts.reached.contains((sec, i)) {
            out.extend(run.take());
            span_from = ins.end();
        } else if !filler
            && data
                .get(ins.offset() as usize..)
                .is_none_or(|b| m.dec.speculation_barrier(b).is_none())
        {
            match &mut run {
                Some(r) => {
                    r.n += 1;
                    r.to = ins.end();
                }
                None => {
                    run = Some(Run {
                        first: i,
                        n: 1,
                        from: span_from,
                        to: ins.end(),
                    })
                }
            }
        }
        i += 1;
    }
    out.extend(run);
    out
}

/// Sized symbols of any kind as (section, start, end), sorted.
fn sized_symbols(obj: &crate::elf::Object) -> Vec<(usize, u64, u64)> {
    let mut v: Vec<(usize, u64, u64)> = obj
        .symbols
        .iter()
        .filter(|s| s.size > 0 && matches!(s.st_type, 0..=2))
        .filter_map(|s| Some((s.section_index()?, s.value, s.value.saturating_add(s.size))))
        .collect();
    v.par_sort_unstable();
    v
}

/// A run of code no path reached ([`unwalked_code`]).
struct Run {
    first: usize,
    n: usize,
    from: u64,
    to: u64,
}

/// A place in code something points at (section, offset), and the place
/// pointing at it.
type CodeRef = (usize, u64, (usize, u64));

/// Places in code something points at (a relocation, a PC-relative address
/// computation; not a code range's end, not metadata sections'), sorted.
fn code_refs(cx: &Ctx) -> Vec<CodeRef> {
    let at = cx.model.address_taken(&cx.rules.landing_pads);
    let mut v: Vec<CodeRef> = at
        .refs
        .iter()
        .filter(|r| r.exempt != Some(crate::model::address_taken::Exemption::RangeEnd))
        .map(|r| {
            let from = (r.from_section(), r.insn().unwrap_or(r.reloc_offset()));
            (r.to_section(), r.to_offset(), from)
        })
        .collect();
    v.par_sort_unstable();
    v
}

/// The byte ranges from each patch site to its function's entry, for
/// lookups by place (a scan of every site per run of unwalked code was
/// quadratic on vmlinux.o: 8% of its instructions).
struct PatchSites {
    /// (section, site offset, entry), sorted.
    ranges: Vec<(usize, u64, u64)>,
    /// Per index: the furthest entry of the section's ranges up to it.
    reach: Vec<u64>,
}

impl PatchSites {
    fn new(cx: &Ctx) -> PatchSites {
        let m = cx.model;
        PatchSites::from_ranges(
            m.patchable(&cx.rules.patchable)
                .sites()
                .map(|s| (s.section, s.offset, s.entry(m)))
                .collect(),
        )
    }

    fn from_ranges(mut ranges: Vec<(usize, u64, u64)>) -> PatchSites {
        ranges.par_sort_unstable();
        let mut reach = Vec::with_capacity(ranges.len());
        for (k, r) in ranges.iter().enumerate() {
            let before = match k.checked_sub(1) {
                Some(p) if ranges[p].0 == r.0 => reach[p],
                _ => 0,
            };
            reach.push(r.2.max(before));
        }
        PatchSites { ranges, reach }
    }

    /// Whether `off` lies in `[site, entry)` of some site of `sec`.
    fn contains(&self, sec: usize, off: u64) -> bool {
        let k = self
            .ranges
            .partition_point(|&(s, o, _)| (s, o) <= (sec, off));
        k > 0 && self.ranges[k - 1].0 == sec && off < self.reach[k - 1]
    }
}

/// Landing pads inside functions that data points at and no walk reached:
/// entered only by indirect branches the walk does not follow (an inner
/// entry point, a computed goto whose table was not found). Without a pad
/// such code is `unreachable`; with one (IBT, BTI) that rule takes it for
/// entry code, so it is said here. One gap per function, at its first such
/// pad.
fn unwalked_labels(cx: &Ctx, facts: &Facts) -> Vec<Gap> {
    let m = cx.model;
    // The unreached pads of each function not wholly reached, in parallel
    // runs (one thread went over vmlinux.o's functions here).
    let unreached_pads: Vec<Vec<(usize, u64)>> = m
        .functions
        .par_iter()
        .enumerate()
        .with_min_len(256)
        .filter(|&(fi, f)| {
            !(f.prefix || facts.reached.all(f.section, m.insn_range(f)) || facts.cut.contains(&fi))
        })
        .filter_map(|(_, f)| {
            let code = m.section_code(f.section)?;
            let pads: Vec<(usize, u64)> = m
                .insn_range(f)
                .filter_map(|i| {
                    let ins = &code.insns[i];
                    let off = ins.offset();
                    (matches!(ins.kind, Kind::Pad(_))
                        && off != f.start
                        && !facts.reached.contains((f.section, i))
                        && !m.symbol_starts_at(f.section, off))
                    .then_some((f.section, off))
                })
                .collect();
            (!pads.is_empty()).then_some(pads)
        })
        .collect();
    if unreached_pads.is_empty() {
        return Vec::new();
    }
    // Looked up after the parallel runs: built inside one, it could make a
    // worker wait for a build that another run it took is waiting for.
    let taken: FxHashSet<(usize, u64)> = m
        .address_taken(&cx.rules.landing_pads)
        .refs
        .iter()
        .map(|r| (r.to_section(), r.to_offset()))
        .collect();
    unreached_pads
        .into_iter()
        .filter_map(|pads| {
            let mut hit = pads.iter().filter(|p| taken.contains(p));
            let &(sec, off) = hit.next()?;
            let count = 1 + hit.count();
            Some(Gap::new(
                Cause::UnwalkedLabel,
                (sec, off),
                format!(
                    "{} not reached",
                    super::analysis_incomplete::plural(count, "landing pad", "landing pads")
                ),
            ))
        })
        .collect()
}

/// Roots walked between merges of their findings.
const ROOTS_MERGED: usize = 4096;
/// At most this many roots walked in one go by a thread: rayon splits a run
/// into a few pieces and further only when a thread steals, so the last
/// piece of each run, walked alone, held the other thread idle.
const ROOTS_PER_JOB: usize = 32;

/// One root's findings into the object's.
fn absorb(m: &Model, facts: &mut Facts, r: RootFacts) {
    let (sec, base, own) = &r.reached_own;
    let own = own.words();
    facts.reached.set_all(m, *sec, *base, own);
    for &l in &r.reached {
        facts.reached.set(m, l);
    }
    if r.cut {
        let own = (0..own.len() * 64)
            .filter(|k| own[k / 64] & (1 << (k % 64)) != 0)
            .map(|k| (*sec, base + k));
        for (sec, i) in own.chain(r.reached.iter().copied()) {
            let off = m.section_code(sec).map_or(0, |c| c.insns[i].offset());
            if let Some(g) = m.function_containing(sec, off) {
                facts.cut.insert(g);
            }
        }
    }
    facts.events.extend(r.events);
    facts.frame_events.extend(r.frame_event);
    // A function that realigns the stack keeps a frame base in any build:
    // it is no evidence either way.
    facts.calling += usize::from(r.calls && !r.realigned);
    facts.framed += usize::from(r.calls && r.framed && !r.realigned);
    if r.sibling && !r.framed {
        facts.unframed_sibling.push(*sec);
    }
    if let Some((table, places)) = r.states {
        facts.states.extend(&table, places);
    }
    facts.replacement_ends.extend(r.replacement_ends);
    facts.gaps.extend(r.gaps);
    facts.dead_cases.extend(r.dead_cases);
}

/// A walk's table of states, and the places it recorded with an index into it.
type RootStates = (Vec<Cfi>, Vec<(Loc, u32)>);

/// Buffers a thread's walks reuse, one root after another.
#[derive(Default)]
struct Scratch {
    own: Vec<Record>,
    cfis: Vec<Cfi>,
    trail: Vec<Trail>,
    keys: Vec<Key>,
    paths: Paths<State>,
}

thread_local! {
    /// A thread's [`Scratch`] between rayon jobs: a fresh one per job
    /// regrew its buffers (with jobs of at most [`ROOTS_PER_JOB`] roots,
    /// 1.2% of a module run's instructions).
    static SPARE: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

/// The thread's spare [`Scratch`] for the length of a job, given back after.
struct Spare(Scratch);

impl Spare {
    fn take() -> Spare {
        Spare(SPARE.with(|s| s.take()).unwrap_or_default())
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        let s = std::mem::take(&mut self.0);
        let _ = SPARE.try_with(|c| c.set(Some(s)));
    }
}

/// A root's walked bits: most functions' in place (an allocation per
/// root was a fifth of a module run's allocations).
enum Bits {
    Few([u64; FEW_WORDS], u8),
    Many(Vec<u64>),
}

const FEW_WORDS: usize = 4;

impl Bits {
    fn from_words(mut words: impl ExactSizeIterator<Item = u64>) -> Bits {
        let n = words.len();
        if n > FEW_WORDS {
            return Bits::Many(words.collect());
        }
        let mut few = [0; FEW_WORDS];
        for (w, v) in few.iter_mut().zip(&mut words) {
            *w = v;
        }
        Bits::Few(few, n as u8)
    }
    fn words(&self) -> &[u64] {
        match self {
            Bits::Few(w, n) => &w[..usize::from(*n)],
            Bits::Many(v) => v,
        }
    }
}

/// What one root's walk found.
struct RootFacts {
    hints_seen: Vec<Loc>,
    events: Vec<Event>,
    frame_event: Option<FrameEvent>,
    calls: bool,
    framed: bool,
    realigned: bool,
    sibling: bool,
    /// The walk's table of states and the places recorded with an index
    /// into it (when states are asked for).
    states: Option<RootStates>,
    replacement_ends: Vec<(At, Cfi)>,
    gaps: Vec<Gap>,
    dead_cases: Vec<(At, At)>,
    /// What the walk reached (when the unreachable rule is on): in the
    /// root's own range as bits from its first instruction (section, that
    /// index, bits), and elsewhere.
    reached_own: (usize, usize, Bits),
    reached: Vec<Loc>,
    cut: bool,
}

/// Walk from an unwind hint no function's walk reached.
fn walk_hint(cx: &Ctx, p: &Policy, walker: &Walker, at: Loc, scr: &mut Scratch) -> RootFacts {
    let m = cx.model;
    let off = m.section_code(at.0).map_or(0, |c| c.insns[at.1].offset());
    match m.function_containing(at.0, off) {
        Some(fi) => walk_root_from(cx, p, walker, fi, &m.functions[fi], false, Some(at), scr),
        None => {
            let f = m.pseudo_function(at.0, off);
            walk_root_from(cx, p, walker, usize::MAX, &f, false, Some(at), scr)
        }
    }
}

fn walk_root(
    cx: &Ctx,
    p: &Policy,
    walker: &Walker,
    fi: usize,
    orphan_cold: bool,
    scr: &mut Scratch,
) -> RootFacts {
    let f = &cx.model.functions[fi];
    walk_root_from(cx, p, walker, fi, f, orphan_cold, None, scr)
}

#[allow(clippy::too_many_arguments)]
fn walk_root_from(
    cx: &Ctx,
    p: &Policy,
    walker: &Walker,
    fi: usize,
    f: &Function,
    orphan_cold: bool,
    from: Option<Loc>,
    scr: &mut Scratch,
) -> RootFacts {
    let m = cx.model;
    let range = m.insn_range(f);
    let non_standard = p.non_standard.contains(&(f.section, f.start));
    let f_safe = p.safe.contains(f.name);
    let stack = !orphan_cold && !non_standard;
    let mut w = Walk {
        cx,
        p,
        root: f,
        root_index: fi,
        stack,
        uaccess_on: !orphan_cold
            && !f.prefix
            && from.is_none()
            && !p.resets.contains(&(f.section, f.start)),
        // Functions only: code reached through unwind hints is entry code
        // whose calls are judged where they are made from functions.
        noinstr_on: !orphan_cold
            && !f.prefix
            && from.is_none()
            && p.noinstr_checked
            && p.noinstr_sections[f.section],
        f_safe,
        base: range.start,
        own: {
            let mut own = std::mem::take(&mut scr.own);
            own.clear();
            own.resize(
                range.len(),
                Record {
                    cfi: NO_CFI,
                    keys: 0,
                },
            );
            own
        },
        rest: FxHashMap::default(),
        keys: std::mem::take(&mut scr.keys),
        key_ids: FxHashMap::default(),
        overflow: FxHashSet::default(),
        cfis: std::mem::take(&mut scr.cfis),
        saves: FxHashMap::default(),
        events: Vec::new(),
        calls: false,
        framed: false,
        realigned: false,
        sibling: false,
        frame_event: None,
        replacement_ends: Vec::new(),
        hints_seen: Vec::new(),
        seen_messages: FxHashSet::default(),
        trail: std::mem::take(&mut scr.trail),
        at_trail: NO_TRAIL,
        gaps: Vec::new(),
        dead_cases: Vec::new(),
        cut: false,
    };
    let init = State {
        cfi: if stack {
            p.frame.entry()
        } else {
            Cfi::not_followed(Follow::No)
        },
        cfi_id: NO_CFI,
        key: Key {
            access: Access::new(f_safe && p.entered_open),
            ..Key::default()
        },
        key_id: NO_KEY,
        trail: NO_TRAIL,
        pending: None,
    };
    // One call of the walk loop (the compiler inlines it here while there
    // is one).
    let (entry, init) = match from {
        // Entered at a hint: the hint gives the state.
        Some(at) => (
            Some(at),
            State {
                cfi: Cfi::undefined(),
                ..init
            },
        ),
        None => (walker.entry(f), init),
    };
    if let Some(entry) = entry {
        walker.walk_from_in(f, entry, init, &mut w, &mut scr.paths);
    }
    if stack && (p.orc.is_some() || p.cfi.is_some()) {
        compare_tables(cx, p, &mut w);
    }
    if stack && w.on(STACK_MISMATCH) {
        site_conflicts(&mut w);
    }
    let mut states = None;
    if p.collect_states && stack {
        let sec = f.section;
        let n = w.cfis.len();
        let own = (w.own.iter().enumerate())
            .filter(|(_, r)| (r.cfi as usize) < n)
            .map(|(k, r)| ((sec, w.base + k), r.cfi));
        let rest = (w.rest.iter())
            .filter(|(_, r)| (r.cfi as usize) < n)
            .map(|(&loc, r)| (loc, r.cfi));
        states = Some((w.cfis.clone(), own.chain(rest).collect()));
    }
    let mut reached = Vec::new();
    if w.cut && fi != usize::MAX {
        reached.push((f.section, range.start));
    }
    // What the walk reached, also when `unreachable` is off: what no path
    // reached no flow rule checked (`unwalked_labels`). A word per 64
    // records, built without branches.
    let own = Bits::from_words(w.own.chunks(64).map(|c| {
        c.iter()
            .rev()
            .fold(0u64, |bits, r| bits << 1 | u64::from(r.cfi != NO_CFI))
    }));
    reached.extend(w.rest.iter().filter(|r| r.1.cfi != NO_CFI).map(|r| *r.0));
    // The buffers go back for the next root.
    w.cfis.clear();
    w.trail.clear();
    w.keys.clear();
    scr.own = std::mem::take(&mut w.own);
    scr.cfis = std::mem::take(&mut w.cfis);
    scr.trail = std::mem::take(&mut w.trail);
    scr.keys = std::mem::take(&mut w.keys);
    RootFacts {
        reached_own: (f.section, w.base, own),
        reached,
        cut: w.cut,
        hints_seen: w.hints_seen,
        frame_event: w.frame_event,
        events: w.events,
        calls: w.calls,
        framed: w.framed,
        realigned: w.realigned,
        sibling: w.sibling,
        states,
        replacement_ends: w.replacement_ends,
        gaps: w.gaps,
        dead_cases: w.dead_cases,
    }
}

/// stack-mismatch at alternative sites, as objtool's `propagate_alt_cfi()`:
/// the unwinder finds a site's state by address whichever version of its
/// code runs, so the original and every replacement (and the place a
/// shorter one ends) must have one state wherever two have an instruction
/// at the same byte of the site. Linux 6.1's FILL_RETURN_BUFFER has two
/// replacements, the second ending where the first makes its second call,
/// a word deeper: objtool 6.12 says so, 6.1's kept only the last
/// replacement's states and said nothing. Versions are laid over each other
/// in objtool's order (replacements last entry first, then the original),
/// and the first instruction to disagree is named.
fn site_conflicts(w: &mut Walk) {
    let m = w.model();
    let f = w.root;
    let Some(code) = m.section_code(f.section) else {
        return;
    };
    // No replacement walked: one version of each site.
    if w.rest.is_empty() {
        return;
    }
    let mut at: Vec<Option<u32>> = Vec::new();
    let sites = m.alts.sites_overlapping(f.section, f.start, f.end);
    for site in sites
        .iter()
        .filter(|s| s.start >= f.start && s.end <= f.end)
    {
        if site.end <= site.start || site.repls.is_empty() {
            continue;
        }
        let len = (site.end - site.start) as usize;
        at.clear();
        at.resize(len, None);
        // (state id, state id, the place of the second: section, offset).
        let mut conflict: Option<(u32, u32, At)> = None;
        let frame = &w.p.frame;
        // Compared as paths meeting at an instruction are (stack-mismatch):
        // the frame address, the saved registers, the type, DRAP.
        let mut lay = |k: usize, id: u32, place: At, cfis: &[Cfi]| {
            if conflict.is_some() || k >= len || id as usize >= cfis.len() {
                return;
            }
            match at[k] {
                None => at[k] = Some(id),
                Some(first)
                    if frame
                        .mismatch(&cfis[first as usize], &cfis[id as usize])
                        .is_some() =>
                {
                    conflict = Some((first, id, place));
                }
                Some(_) => {}
            }
        };
        for r in site.repls.iter().rev().filter(|r| r.end > r.start) {
            let Some(rc) = m.section_code(r.section) else {
                continue;
            };
            let mut q = rc.lower_bound(r.start);
            while q < rc.insns.len() && rc.insns[q].offset() < r.end {
                if let Some(rec) = w.rest.get(&(r.section, q)) {
                    let off = rc.insns[q].offset();
                    lay((off - r.start) as usize, rec.cfi, (r.section, off), &w.cfis);
                }
                q += 1;
            }
            let end = site.start + (r.end - r.start);
            if end < site.end
                && let Some(&(_, c)) = w
                    .replacement_ends
                    .iter()
                    .find(|(a, _)| *a == (f.section, end))
            {
                // The state after it (objtool's jump back to the site's
                // end), interned for the comparison.
                w.cfis.push(c);
                let id = (w.cfis.len() - 1) as u32;
                lay((r.end - r.start) as usize, id, (r.section, r.end), &w.cfis);
            }
        }
        let mut i = code.lower_bound(site.start);
        while i < code.insns.len() && code.insns[i].offset() < site.end {
            if let Some(rec) = i.checked_sub(w.base).and_then(|k| w.own.get(k)) {
                let off = code.insns[i].offset();
                lay(
                    (off - site.start) as usize,
                    rec.cfi,
                    (f.section, off),
                    &w.cfis,
                );
            }
            i += 1;
        }
        let Some((first, other, (sec, off))) = conflict else {
            continue;
        };
        let (first, other) = (w.cfis[first as usize], w.cfis[other as usize]);
        let where_ = m.place_name(sec, off);
        let owner = m.function_containing(f.section, site.start);
        // Found after the walk: no path of it ends here.
        let cut = w.cut;
        w.at_trail = NO_TRAIL;
        w.event(
            STACK_MISMATCH,
            (f.section, site.start),
            format!("stack layout conflict in alternatives: {where_}"),
            owner,
        );
        w.cut = cut;
        let frame = &w.p.frame;
        let (a, b) = (frame.describe(&first), frame.describe(&other));
        let e = w.last();
        e.notes.push(format!("one version of the site here: {a}"));
        e.notes.push(format!("another, at {where_}: {b}"));
    }
}

/// orc-mismatch and cfi-mismatch: the states a root's walk recorded in its
/// own range against the object's ORC and DWARF CFI, the first difference
/// per function. Instructions of alternative sites are left out (their ORC
/// rows are the site's versions laid over each other).
fn compare_tables(cx: &Ctx, p: &Policy, w: &mut Walk) {
    let m = cx.model;
    let f = w.root;
    let Some(code) = m.section_code(f.section) else {
        return;
    };
    let frame = &p.frame;
    let sites: Vec<(u64, u64)> = m
        .alts
        .sites_overlapping(f.section, f.start, f.end)
        .iter()
        .filter(|s| s.end > f.start)
        .map(|s| (s.start, s.end))
        .collect();
    let mut orc_done = p.orc.is_none();
    let mut cfi_done = p.cfi.is_none();
    let mut site = 0;
    // Cursors over the rows: instructions come in address order.
    let orc_rows: &[(u64, crate::elf::orc::OrcEntry)] =
        p.orc.as_ref().map_or(&[], |t| t.rows[f.section].as_slice());
    let cfi_rows: &[crate::elf::cfi::CfiRow] =
        p.cfi.as_ref().map_or(&[], |t| t.rows[f.section].as_slice());
    let mut oc = orc_rows
        .partition_point(|r| r.0 <= f.start)
        .saturating_sub(1);
    let mut cc = cfi_rows
        .partition_point(|r| r.start <= f.start)
        .saturating_sub(1);
    // Where the next row of each table starts.
    let next_orc = |oc: usize| orc_rows.get(oc + 1).map_or(u64::MAX, |r| r.0);
    let next_cfi = |cc: usize| cfi_rows.get(cc + 1).map_or(u64::MAX, |r| r.start);
    let (mut orc_next, mut cfi_next) = (next_orc(oc), next_cfi(cc));
    let mut found: Vec<(&'static str, At, String, Vec<String>)> = Vec::new();
    // The comparison only changes where the state or a row does (or, with
    // CFI that holds at calls only, whether this is a call).
    let mut last: Option<(u32, usize, usize, bool)> = None;
    let mut entry: Option<(u32, Result<crate::elf::orc::OrcEntry, String>)> = None;
    let own = &w.own;
    let insns = &code.insns[w.base..w.base + own.len()];
    let mut k = 0;
    while k < own.len() {
        if orc_done && cfi_done {
            break;
        }
        // Instructions with the state just compared and no row starting
        // among them compare the same: stepped over in a tight loop
        // (unless the CFI holds at calls only).
        if let Some((cfi, _, _, _)) = last
            && !p.cfi_calls_only
        {
            let next_row = orc_next.min(cfi_next);
            // The run of that state first, then (offsets ascend) the cut
            // where the next row starts, if it starts inside the run.
            let same = own[k..].iter().take_while(|r| r.cfi == cfi).count();
            let run = &insns[k..k + same];
            k += if run.last().is_some_and(|i| i.offset() >= next_row) {
                run.partition_point(|i| i.offset() < next_row)
            } else {
                same
            };
            if k >= own.len() {
                break;
            }
        }
        let idx = k;
        let r = &own[idx];
        let ins = &insns[idx];
        k += 1;
        let Some(c) = w.cfis.get(r.cfi as usize) else {
            continue;
        };
        if c.follow == Follow::NotJudged {
            continue;
        }
        let off = ins.offset();
        while orc_next <= off {
            oc += 1;
            orc_next = next_orc(oc);
        }
        while cfi_next <= off {
            cc += 1;
            cfi_next = next_cfi(cc);
        }
        let cfi_here = !p.cfi_calls_only || matches!(ins.kind, Kind::Call | Kind::IndirectCall);
        if last == Some((r.cfi, oc, cc, cfi_here)) {
            continue;
        }
        last = Some((r.cfi, oc, cc, cfi_here));
        while site < sites.len() && sites[site].1 <= off {
            site += 1;
        }
        if sites.get(site).is_some_and(|s| s.0 <= off) {
            continue;
        }
        if entry.as_ref().is_none_or(|e| e.0 != r.cfi) {
            entry = Some((r.cfi, frame.orc(c)));
        }
        if !orc_done
            && let Some(&(at, theirs)) = orc_rows.get(oc)
            && at <= off
            && theirs.ty != crate::elf::orc::ORC_TYPE_UNDEFINED
            && let Some((_, Ok(ours))) = &entry
            && *ours != theirs
        {
            orc_done = true;
            let msg = format!(
                "ORC disagrees with the stack state: the object's ORC has {}, objlint computes {}",
                theirs.text(),
                ours.text()
            );
            let note = format!("stack state here: {}", frame.describe(c));
            found.push((ORC_MISMATCH, (f.section, off), msg, vec![note]));
        }
        // After a stack-probe loop the stack pointer is where the frame
        // address was found from (`Op::CfaFrom`); the instruction there
        // says so first, and gcc's CFI already counts from the stack
        // pointer: compared as after that.
        let exit;
        let c = match probe_exit(frame, code, w.base + idx, c) {
            Some(e) => {
                exit = e;
                &exit
            }
            None => c,
        };
        if !cfi_done
            && cfi_here
            && let Some(t) = &p.cfi
            && let Some(row) = cfi_rows.get(cc).filter(|r| r.start <= off && off < r.end)
            && let Some(d) = frame.cfi_diff(c, row)
            && !(p.cfi_by_compiler
                && d == crate::model::cfi::CfiDiff::Cfa
                && crate::model::cfi::undescribed_push(code, w.base + idx, row.start))
        {
            cfi_done = true;
            let what = match d {
                crate::model::cfi::CfiDiff::Cfa => "the frame address",
                crate::model::cfi::CfiDiff::ReturnAddress => "where the return address is",
                crate::model::cfi::CfiDiff::FramePointer => "where the frame pointer is saved",
            };
            let msg = format!(
                "DWARF CFI disagrees with the stack state on {what}: {} says {}, objlint computes {}",
                t.source.as_deref().unwrap_or("the CFI"),
                frame.cfi_row_text(row),
                frame.describe(c)
            );
            found.push((CFI_MISMATCH, (f.section, off), msg, Vec::new()));
        }
    }
    let root = Some(w.root_index);
    for (rule, at, msg, notes) in found {
        w.event(rule, at, msg, root);
        w.last().notes = notes;
    }
}

/// The state `c` at `code.insns[i]` with the instruction's first operation
/// applied, when that ends a stack-probe loop whose register the frame
/// address is found from (the stack pointer equals it there).
fn probe_exit(frame: &Frame, code: &SectionCode, i: usize, c: &Cfi) -> Option<Cfi> {
    if c.cfa.base == frame.sp() || !code.insns[i].has_ops() {
        return None;
    }
    match code.ops(i).next()? {
        op @ Op::ProbeEnd { reg, .. } if reg as crate::model::cfi::Base == c.cfa.base => {
            let mut e = *c;
            frame.apply(&mut e, &op, true, false).ok()?;
            Some(e)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Bits, FEW_WORDS, PatchSites, analyze_with, policy};

    /// The walk's shortcut for calls on plain paths ([`super::Walk::plain_call`])
    /// finds what the general path finds, on every fixture of both arches:
    /// the same events, stack states at every instruction, gaps, frame
    /// evidence and reached code.
    #[test]
    fn plain_calls_find_what_the_general_path_finds() {
        let rules = crate::rules::Rules::builtin();
        let opts = crate::checks::Options::default();
        let mut calls = 0;
        crate::model::each_fixture_model(&["testdata"], |path, _, m| {
            let cx = crate::checks::Ctx::new(m, &rules, &opts);
            let fast = analyze_with(&cx, policy(&cx, true));
            let mut p = policy(&cx, true);
            p.plain_calls = false;
            let general = analyze_with(&cx, p);
            let show = |f: &super::Facts| {
                let mut cut: Vec<_> = f.cut.iter().copied().collect();
                cut.sort_unstable();
                let reached: Vec<_> = m
                    .code
                    .iter()
                    .flatten()
                    .flat_map(|c| (0..c.insns.len()).map(move |i| (c.section(), i)))
                    .filter(|&l| f.reached.contains(l))
                    .collect();
                format!(
                    "{:?}\n{} {} {:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{cut:?}\n{reached:?}",
                    f.events,
                    f.calling,
                    f.framed,
                    f.unframed_sibling,
                    f.frame_events,
                    f.states,
                    f.replacement_ends,
                    f.gaps,
                    f.dead_cases
                )
            };
            assert_eq!(show(&fast), show(&general), "{path}");
            calls += fast.calling;
        });
        assert!(calls > 100, "the fixtures make few calls: {calls}");
    }

    #[test]
    fn patch_site_ranges_answer_as_a_scan_of_them_would() {
        // A site at or past its entry (N = 0: an empty range), one range
        // inside a longer one, and two sections.
        let ranges = vec![
            (1, 0x40, 0x50),
            (1, 0x10, 0x30),
            (1, 0x14, 0x18),
            (1, 0x60, 0x60),
            (2, 0x00, 0x10),
        ];
        let sites = PatchSites::from_ranges(ranges.clone());
        for sec in 0..4 {
            for off in 0..0x70 {
                let scan = ranges
                    .iter()
                    .any(|&(s, o, e)| s == sec && o <= off && off < e);
                assert_eq!(sites.contains(sec, off), scan, "{sec} {off:#x}");
            }
        }
    }

    #[test]
    fn walked_bits_keep_every_word_in_place_or_not() {
        for n in 0..=2 * FEW_WORDS + 1 {
            let words: Vec<u64> = (0..n as u64)
                .map(|k| k.wrapping_mul(0x9e37_79b9) | 1)
                .collect();
            let b = Bits::from_words(words.iter().copied());
            assert_eq!(b.words(), &words[..], "{n} words");
            assert_eq!(matches!(b, Bits::Few(..)), n <= FEW_WORDS);
        }
    }
}
