//! The one control-flow walker: every path from a function's entry, in
//! objtool's order (`validate_branch`), carrying a state a [`Visitor`]
//! defines and updates instruction by instruction.
//!
//! A path follows, besides the instruction's own control flow:
//! - jumps inside the function, into its `.cold` parts (told apart by the
//!   jump, not by name alone: the part a jump lands in is the one entered),
//!   and into code outside any function (x86 `.altinstr_aux`);
//! - every replacement of an alternative, from the site's start to its end,
//!   then on after the site; the original too unless the feature is applied
//!   everywhere or nowhere (`rules/alternatives.toml`);
//! - jump labels (`__jump_table`: the site may become a jump to its target,
//!   or a jump there may become a NOP), exception fixups (`__ex_table`: a
//!   fault resumes at the fixup with the state from before the instruction),
//!   traps the kernel resumes after (WARN: `__bug_table`, `.discard.reachable`);
//! - switch tables (arm64 tables the assembler resolved, x86 tables of
//!   relocated addresses);
//! - calls, unless the callee never returns; a call to a label of the same
//!   function (retpolines, return-stack stuffing) is a jump that pushes a
//!   return address, as objtool treats annotated intra-function calls.
//!
//! Jumps to other functions are tail calls and end the path, as do returns
//! (a jump to a return thunk is a return). Side paths (alternatives, fixups,
//! the other side of a jump label) are walked first, then a jump's target,
//! then the fall-through: the order objtool's recursion has, so the first
//! state recorded at an instruction is the one objtool records.

use super::alternatives::{AltSite, Replacement};
use super::jump_tables::Cases;
use super::special::{At, Marks};
use super::{Dest, Function, Model, SectionCode};
use crate::arch::{Insn, Kind};
use rustc_hash::FxHashSet;

/// An instruction: (section, index into its [`SectionCode::insns`]).
pub type Loc = (usize, usize);

/// Who a call or tail call goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Callee {
    Direct(Dest),
    /// Through a register or memory: `call *%rax`, `blr`, or a retpoline
    /// thunk (`thunk` is its symbol).
    Indirect {
        thunk: Option<usize>,
    },
}

/// What an instruction does, as far as the walks care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Plain,
    Call(Callee),
    /// A jump that leaves the function (sibling call).
    TailCall(Callee),
    /// A return (also a jump to a return thunk).
    Return,
    /// A call to a label of the same function: a jump that pushes the
    /// return address. `annotated` when objtool's annotation says it is meant.
    IntraCall {
        annotated: bool,
        /// Its destination is no instruction (inside one, data): the call
        /// cannot be followed.
        nowhere: bool,
    },
    /// An indirect jump through a switch table that could not be read: the
    /// path cannot be followed.
    UnknownJump,
    /// A jump (or a switch case) to a place that is no instruction: inside
    /// one, data, or a destination that could not be resolved. That edge
    /// cannot be followed; a conditional jump still falls through.
    JumpNowhere,
    /// Leaves for another context (x86 `sysret`, `iret`): the path ends.
    ContextSwitch,
}

/// How execution leaves the code being walked by running on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Past the end of the function, into whatever follows.
    OffEnd,
    /// Into bytes of the function that are not code (arm64 `$d` data).
    IntoData,
}

/// How a path leaves an instruction other than by running on to the next
/// one (what a path is told by, for backtraces).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// A branch taken (or an intra-function call).
    Jump,
    /// A switch-table case.
    Case,
    /// Into an alternative's replacement, or past a site a replacement
    /// leaves empty.
    Alternative,
    /// From a faulting instruction to its exception fixup.
    Fixup,
    /// A jump label switched the other way.
    JumpLabel,
    /// Running on somewhere else: out of a replacement back to its site,
    /// into the next function.
    RunsOn,
}

/// One instruction on a path.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    pub section: usize,
    pub index: usize,
    pub insn: &'a Insn,
    pub code: &'a SectionCode,
    pub action: Action,
    /// `(section, offset)` of the alternative site when the instruction is
    /// part of one of its replacements.
    pub alt_site: Option<At>,
    pub marks: Option<&'a Marks>,
    /// The function whose code this is walked as: the root, or the `.cold`
    /// part (or other function) a jump entered. `None` outside functions.
    pub owner: Option<usize>,
    /// Where execution runs off to after this instruction, if it leaves.
    pub exit: Option<Exit>,
    /// The last instruction of a replacement shorter than its site, falling
    /// off its end: the state after it is the state at this offset of the
    /// site (objtool's "fake NOP" of `handle_group_alt`).
    pub replacement_end: Option<At>,
}

impl<'a> Step<'a> {
    /// An instruction of the walked function's own code, outside every
    /// alternative and special section entry.
    fn own(
        code: &'a SectionCode,
        section: usize,
        index: usize,
        action: Action,
        owner: Option<usize>,
    ) -> Step<'a> {
        Step {
            section,
            index,
            insn: &code.insns[index],
            code,
            action,
            alt_site: None,
            marks: None,
            owner,
            exit: None,
            replacement_end: None,
        }
    }
    /// Where a finding about this instruction belongs: the instruction itself,
    /// or for replacement code the original site it is patched over.
    pub fn report_at(&self) -> At {
        self.alt_site.unwrap_or((self.section, self.insn.offset()))
    }
    pub fn offset(&self) -> u64 {
        self.insn.offset()
    }
}

/// The root's own calls to functions that return, with nothing on them:
/// the calls [`Visitor::plain_call`] is asked about, for a
/// [`Visitor::plain_run`] to step over without leaving its run.
pub struct OwnCalls<'w, 'm, 'a> {
    walker: &'w Walker<'m, 'a>,
    owner: Option<usize>,
}

impl OwnCalls<'_, '_, '_> {
    /// The step of the call at index `i` of `code` (section `sec`, in the
    /// root's own range), when it is one.
    #[inline]
    pub fn step_at<'c>(&self, code: &'c SectionCode, sec: usize, i: usize) -> Option<Step<'c>> {
        let ins = &code.insns[i];
        if ins.kind != Kind::Call || self.walker.m.special().at(sec, ins).is_some() {
            return None;
        }
        let callee = self.walker.own_call(code, i)?;
        Some(Step::own(code, sec, i, Action::Call(callee), self.owner))
    }
}

/// What a path arriving at an instruction sees before deciding to go on.
#[derive(Debug, Clone, Copy)]
pub struct Arrival<'a> {
    pub loc: Loc,
    pub insn: &'a Insn,
    pub marks: Option<&'a Marks>,
    /// The replacement the instruction is in, if any.
    pub alt_site: Option<At>,
}

impl<'a> Arrival<'a> {
    /// Outside every alternative and special section entry.
    pub fn plain(loc: Loc, insn: &'a Insn) -> Arrival<'a> {
        Arrival {
            loc,
            insn,
            marks: None,
            alt_site: None,
        }
    }
}

/// A state carried along paths.
pub trait Visitor {
    type State: Clone;
    /// A path arrives at an instruction with `state` (the state before it).
    /// Returns whether to go on: false when this instruction was already
    /// walked with an equal state (or the path must end here).
    fn arrive(&mut self, a: &Arrival, state: &mut Self::State) -> bool;
    /// Apply the instruction to `state`; false ends the path.
    fn step(&mut self, step: &Step, state: &mut Self::State) -> bool;
    /// Stop the whole walk (a question already answered).
    fn finished(&self) -> bool {
        false
    }
    /// Arrive at and step over straight-line instructions of the root's
    /// own range at once: from index `from` of `code` (section `sec`), the
    /// run of [`Insn::is_plain`] instructions short of `limit`, each going
    /// on to the next. A path may arrive at `from` along an edge
    /// ([`Visitor::edge`] was called). Returns how many were taken and
    /// whether the path goes on after them (it may stop where an
    /// instruction was walked already); the walker visits the rest one by
    /// one. `calls` tells which of the root's own calls the run may also
    /// step over, as [`Visitor::plain_call`] would. The default takes none.
    fn plain_run(
        &mut self,
        _code: &SectionCode,
        _sec: usize,
        _from: usize,
        _limit: usize,
        _calls: &OwnCalls,
        _state: &mut Self::State,
    ) -> (usize, bool) {
        (0, true)
    }
    /// A path takes `edge` from `from` to `to`; `state` is the state it
    /// arrives with. The default does nothing.
    #[inline]
    fn edge(&mut self, _from: Loc, _to: Loc, _edge: Edge, _state: &mut Self::State) {}
    /// A call of the root's own range to a function that returns, with
    /// nothing on it (`step`, the instruction, is a [`Action::Call`] with
    /// no alternative, mark or exit): arrive at it and step over it at
    /// once. `Some(goes on)` when taken; `None` leaves it to
    /// [`Visitor::arrive`] and [`Visitor::step`]. The default takes none.
    #[inline]
    fn plain_call(&mut self, _step: &Step, _state: &mut Self::State) -> Option<bool> {
        None
    }
    /// Whether the branch of `step` to `to` is an edge no execution takes
    /// (a bound the compiler proved never met), not followed. The default
    /// follows every edge.
    #[inline]
    fn dead_branch(&mut self, _step: &Step, _to: Loc) -> bool {
        false
    }
    /// Whether the switch-table case of `step` landing at `to` is one no
    /// execution takes. The default follows every case.
    #[inline]
    fn dead_case(&mut self, _step: &Step, _to: Loc) -> bool {
        false
    }
}

/// `g` is a part of `f` split off by the compiler (`f.cold`, `f.cold.1`).
pub fn is_cold_part(f: &str, g: &str) -> bool {
    g.strip_prefix(f)
        .is_some_and(|rest| rest.starts_with(".cold"))
}

/// A function that is the `.cold` part of another.
pub fn is_cold(name: &str) -> bool {
    // Names are short: a byte loop costs less than the substring search's
    // setup (which was 1 in 200 of a run's instructions).
    let b = name.as_bytes();
    (0..b.len()).any(|i| b[i] == b'.' && b[i + 1..].starts_with(b"cold"))
}

enum Target {
    Here(Option<Next>),
    Leaves(Callee),
    Return,
    /// A place that is no instruction (inside one, or data), or that could
    /// not be resolved at all.
    Nowhere,
}

/// Walks paths through the functions of one model.
pub struct Walker<'m, 'a> {
    m: &'m Model<'a>,
}

/// A replacement being walked: (site, replacement) indexes into
/// [`Alternatives::sites`](super::alternatives::Alternatives::sites).
pub type ReplCtx = (u32, u32);

/// Where a path goes next, and in which replacement.
type Next = (Loc, Option<ReplCtx>);

/// The successors of one instruction.
struct Flow {
    action: Action,
    exit: Option<Exit>,
    replacement_end: Option<At>,
    /// Fall-through first, then the jump target.
    next: [Option<Next>; 2],
    /// Switch-table cases.
    cases: Vec<Loc>,
}

impl<'m, 'a> Walker<'m, 'a> {
    pub fn new(m: &'m Model<'a>) -> Walker<'m, 'a> {
        Walker { m }
    }

    pub fn model(&self) -> &'m Model<'a> {
        self.m
    }

    /// Who a call or jump to `dest` goes to (a retpoline thunk is an
    /// indirect callee).
    fn callee(&self, dest: Dest) -> Callee {
        match (dest, self.m.dest_sym(dest)) {
            (Dest::External { sym }, Some(s)) if self.m.is_indirect_thunk_sym(s) => {
                Callee::Indirect { thunk: Some(sym) }
            }
            (Dest::Local { .. }, Some(s)) if self.m.is_indirect_thunk_sym(s) => {
                Callee::Indirect { thunk: None }
            }
            _ => Callee::Direct(dest),
        }
    }

    /// Whether a jump to `dest` is a return (a return thunk).
    pub fn is_return_thunk(&self, dest: Dest) -> bool {
        self.m.is_return_thunk(dest)
    }

    /// Where a walk of `root` starts: its first instruction.
    pub fn entry(&self, root: &Function) -> Option<Loc> {
        self.index(root.section, root.start)
    }

    fn index(&self, section: usize, offset: u64) -> Option<Loc> {
        let c = self.m.section_code(section)?;
        c.index_at(offset).map(|i| (section, i))
    }

    /// Whether a place belongs to the walk from `root`: its own range, one of
    /// its `.cold` parts, or code outside every function.
    // Asked only of jumps out of the root's range: kept out of the walk
    // loop, which the compiler inlines into its callers while it is small.
    #[inline(never)]
    fn inside(&self, root: &Function, owner: Option<usize>, section: usize, offset: u64) -> bool {
        if section == root.section && offset >= root.start && offset < root.end {
            return true;
        }
        match self.m.function_containing(section, offset) {
            None => true,
            Some(g) => {
                let g = &self.m.functions[g];
                self.m.is_cold_part_of(root, g.name)
                    || owner.is_some_and(|o| {
                        let o = &self.m.functions[o];
                        o.section == section && offset >= o.start && offset < o.end
                    })
            }
        }
    }

    /// Continue at `to` after code of `owner` that ended there, on a walk
    /// from `root`.
    #[inline]
    fn fall(
        &self,
        root: &Function,
        owner: Option<usize>,
        code: &SectionCode,
        section: usize,
        i: usize,
    ) -> (Option<Loc>, Option<Exit>) {
        let ins = &code.insns[i];
        let to = ins.end();
        match owner {
            // A preamble runs on into its function through the bytes no
            // symbol covers (clang-19's `__cfi_` symbols are the 5-byte
            // `mov $hash,%eax`, its NOP padding outside them): objtool walks
            // them in the preamble's state and stops at the function.
            Some(o)
                if to >= self.m.functions[o].end
                    && !(self.m.functions[o].prefix
                        && self.m.function_containing(section, to).is_none()) =>
            {
                return (None, Some(Exit::OffEnd));
            }
            Some(_) => {}
            // Code outside every function that runs on into one: the path
            // left its function and comes back into another (objtool: "falls
            // through to next function"), unless it is a preamble's.
            None => {
                if self.m.function_at_start(section, to).is_some() {
                    return (None, (!root.prefix).then_some(Exit::OffEnd));
                }
            }
        }
        let next = match code.insns.get(i + 1) {
            Some(n) if n.offset() == to => Some(i + 1),
            _ => code.index_at(to),
        };
        match next {
            Some(i) => (Some((section, i)), None),
            None if owner.is_some() => (None, Some(Exit::IntoData)),
            // Past the end of the section, or into data.
            None if !root.prefix => (None, Some(Exit::OffEnd)),
            None => (None, None),
        }
    }

    /// A direct jump at `i` to code of the root's own range (after its
    /// start) that, if conditional, falls through to the next instruction
    /// without a gap: its target, and whether it falls through.
    // Always in the walk loop: outlined, a walk took 0.4% more instructions.
    #[inline(always)]
    fn own_jump(&self, root: &Function, code: &SectionCode, i: usize) -> Option<(usize, bool)> {
        let ins = &code.insns[i];
        let falls = match ins.kind {
            Kind::Jump => false,
            Kind::CondJump => true,
            _ => return None,
        };
        let to = code.link(i)?;
        let off = code.insns[to].offset();
        if off <= root.start || off >= root.end {
            return None;
        }
        if falls && code.insns.get(i + 1)?.offset() != ins.end() {
            return None;
        }
        Some((to, falls))
    }

    /// A direct call at `i` to the start of a function of this object or
    /// to an undefined symbol, that returns, followed without a gap by the
    /// next instruction: who it calls ([`Walker::flow`]'s answer for it).
    #[inline]
    fn own_call(&self, code: &SectionCode, i: usize) -> Option<Callee> {
        let ins = &code.insns[i];
        if ins.kind != Kind::Call || code.insns.get(i + 1)?.offset() != ins.end() {
            return None;
        }
        let (dest, link) = code.dest_link(i);
        let callee = match link {
            Some(g) if self.m.is_indirect_thunk_fn(g) => Callee::Indirect { thunk: None },
            Some(_) => Callee::Direct(dest),
            None if matches!(dest, Dest::External { .. }) => self.callee(dest),
            None => return None,
        };
        (!self.m.goes_to_noreturn(dest, link)).then_some(callee)
    }

    /// A return, or a jump to an undefined return thunk.
    #[inline(always)]
    fn own_return(&self, code: &SectionCode, i: usize) -> bool {
        match code.insns[i].kind {
            Kind::Return => true,
            Kind::Jump => {
                let dest = code.dest(i);
                matches!(dest, Dest::External { .. }) && self.is_return_thunk(dest)
            }
            _ => false,
        }
    }

    fn site_end(&self, site: &AltSite) -> Option<Loc> {
        self.after_site(site).ok().flatten()
    }

    /// Where paths go on after an alternative site: its end, or none when
    /// the site ends its function; `Err` when the end is no instruction
    /// (a table entry analysis-incomplete reports).
    fn after_site(&self, site: &AltSite) -> Result<Option<Loc>, ()> {
        let owner = self.m.function_containing(site.section, site.start);
        match owner {
            Some(g) if site.end >= self.m.functions[g].end => Ok(None),
            None if self.m.function_at_start(site.section, site.end).is_some() => Ok(None),
            _ => match self.index(site.section, site.end) {
                Some(l) => Ok(Some(l)),
                None if site.end >= self.m.obj.sections[site.section].size => Ok(None),
                None => Err(()),
            },
        }
    }

    fn jump_target(
        &self,
        root: &Function,
        owner: Option<usize>,
        dest: Dest,
        link: Option<usize>,
        repl: Option<(ReplCtx, &AltSite, &Replacement)>,
    ) -> Target {
        // The common case: a jump inside the root's own range.
        if let Dest::Local { section, offset } = dest
            && repl.is_none()
            && section == root.section
            && offset > root.start
            && offset < root.end
        {
            // Not an instruction: maybe a return thunk inside another
            // instruction (`retbleed_return_thunk`), checked below.
            if let Some(i) = link.or_else(|| self.m.section_code(section)?.index_at(offset)) {
                return Target::Here(Some(((section, i), None)));
            }
        }
        if self.is_return_thunk(dest) {
            return Target::Return;
        }
        let Dest::Local { section, offset } = dest else {
            return match dest {
                Dest::External { .. } => Target::Leaves(self.callee(dest)),
                _ => Target::Nowhere,
            };
        };
        if let Some((ctx, site, r)) = repl
            && section == r.section
        {
            if offset == r.end {
                return Target::Here(self.site_end(site).map(|l| (l, None)));
            }
            if (r.start..r.end).contains(&offset) {
                return match self.index(section, offset) {
                    Some(l) => Target::Here(Some((l, Some(ctx)))),
                    None => Target::Nowhere,
                };
            }
        }
        // A jump to an indirect thunk is an indirect jump, also where the
        // thunk is code no function symbol covers (vmlinux.o's
        // `__x86_indirect_thunk_array`): objtool's `retpoline_thunk`.
        let callee = self.callee(dest);
        if matches!(callee, Callee::Indirect { .. }) {
            return Target::Leaves(callee);
        }
        if self.inside(root, owner, section, offset) {
            match link
                .map(|i| (section, i))
                .or_else(|| self.index(section, offset))
            {
                Some(l) => Target::Here(Some((l, None))),
                None => Target::Nowhere,
            }
        } else {
            Target::Leaves(callee)
        }
    }

    /// A call to a label inside the function, the replacement it is in, or
    /// the code outside functions being walked (`call 1f; int3; 1:`): where
    /// it goes, `Some(None)` when that is no instruction. A call to where a
    /// symbol starts is a call, unless objtool's annotation says otherwise.
    fn intra_call(
        &self,
        root: &Function,
        owner: Option<usize>,
        dest: Dest,
        annotated: bool,
        repl: Option<(ReplCtx, &AltSite, &Replacement)>,
    ) -> Option<Option<Next>> {
        let Dest::Local { section, offset } = dest else {
            return None;
        };
        if let Some((ctx, _, r)) = repl
            && section == r.section
            && (r.start..r.end).contains(&offset)
        {
            return Some(self.index(section, offset).map(|l| (l, Some(ctx))));
        }
        if !annotated && self.m.symbol_starts_at(section, offset) {
            return None;
        }
        self.inside(root, owner, section, offset)
            .then(|| self.index(section, offset).map(|l| (l, None)))
    }

    /// A switch's cases, in table order; one that is no instruction is an
    /// edge the walk cannot follow.
    fn follow_cases(&self, fl: &mut Flow, sec: usize, cases: &Cases) {
        fl.cases = cases.iter().filter_map(|t| self.index(sec, t)).collect();
        fl.cases.extend(
            cases
                .elsewhere()
                .iter()
                .filter_map(|&(s, t)| self.index(s, t)),
        );
        if fl.cases.len() < cases.len() + cases.elsewhere().len() {
            fl.action = Action::JumpNowhere;
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn flow(
        &self,
        root: &Function,
        owner: Option<usize>,
        sec: usize,
        code: &SectionCode,
        i: usize,
        marks: Option<&Marks>,
        repl: Option<(ReplCtx, &AltSite, &Replacement)>,
    ) -> Flow {
        let ins = &code.insns[i];
        let (dest, link) = if ins.kind.is_branch() {
            code.dest_link(i)
        } else if matches!(ins.kind, Kind::IndirectCall | Kind::IndirectJump) {
            // Through a symbol's GOT slot: to the symbol.
            (code.dest(i), None)
        } else {
            (Dest::None, None)
        };
        let mut fl = Flow {
            action: Action::Plain,
            exit: None,
            replacement_end: None,
            next: [None, None],
            cases: Vec::new(),
        };
        let mut falls = false;
        match ins.kind {
            Kind::Return => fl.action = Action::Return,
            // A call to an SLS thunk in the function is an indirect call.
            Kind::Call
                if link.is_none()
                    && matches!(dest, Dest::Local { section, offset } if self.m.is_call_thunk(section, offset)) =>
            {
                falls = true;
                fl.action = Action::Call(Callee::Indirect { thunk: None });
            }
            Kind::Call => match link
                .is_none()
                .then(|| {
                    let annotated = marks.is_some_and(|m| m.intra_call);
                    self.intra_call(root, owner, dest, annotated, repl)
                })
                .flatten()
            {
                Some(to) => {
                    fl.next[1] = to;
                    fl.action = Action::IntraCall {
                        annotated: marks.is_some_and(|m| m.intra_call),
                        nowhere: to.is_none(),
                    };
                }
                None => {
                    // A call annotated reachable (the kernel's ASM_REACHABLE
                    // after `call_on_stack()`) returns whatever its callee.
                    falls = marks.is_some_and(|m| m.resumes)
                        || !(self.m.call_is_noreturn(code, i) || self.m.marked_noreturn(code, i));
                    fl.action = Action::Call(match link {
                        // A call to the start of a function of this object.
                        Some(g) if self.m.is_indirect_thunk_fn(g) => {
                            Callee::Indirect { thunk: None }
                        }
                        Some(_) => Callee::Direct(dest),
                        // A place of this object that no symbol names and
                        // that is no instruction (inside one, data): not a
                        // callee the walk knows. (Where a symbol starts it
                        // is that symbol, decoded or not: srso_safe_ret
                        // inside srso_untrain_ret's `movabs`.)
                        None if matches!(dest, Dest::Local { section, offset }
                            if self.index(section, offset).is_none()
                                && !self.m.symbol_starts_at(section, offset)) =>
                        {
                            Callee::Direct(Dest::None)
                        }
                        None => self.callee(dest),
                    });
                }
            },
            Kind::IndirectCall if dest != Dest::None => {
                falls = marks.is_some_and(|m| m.resumes)
                    || !(self.m.call_is_noreturn(code, i) || self.m.marked_noreturn(code, i));
                fl.action = Action::Call(self.callee(dest));
            }
            Kind::IndirectCall => {
                falls = marks.is_some_and(|m| m.resumes)
                    || !(self.m.ends_declared_noreturn(owner, ins)
                        || self.m.marked_noreturn(code, i));
                fl.action = Action::Call(Callee::Indirect { thunk: None });
            }
            Kind::IndirectJump => {
                let tables = self.m.jump_tables();
                match tables.cases(sec, ins.offset()) {
                    Some(cases) => self.follow_cases(&mut fl, sec, cases),
                    None if tables.unread(sec, ins.offset()) => fl.action = Action::UnknownJump,
                    None if dest != Dest::None => fl.action = Action::TailCall(self.callee(dest)),
                    None if self.m.indirect_jumps_leave() || owner.is_some() => {
                        fl.action = Action::TailCall(Callee::Indirect { thunk: None });
                    }
                    None => {}
                }
            }
            Kind::Jump | Kind::CondJump => {
                falls = ins.kind == Kind::CondJump;
                match self.jump_target(root, owner, dest, link, repl) {
                    Target::Here(to) => fl.next[1] = to,
                    // A switch dispatched through a retpoline thunk.
                    Target::Leaves(Callee::Indirect { .. })
                        if let Some(cases) = self.m.jump_tables().cases(sec, ins.offset()) =>
                    {
                        self.follow_cases(&mut fl, sec, cases)
                    }
                    Target::Leaves(c) => fl.action = Action::TailCall(c),
                    Target::Return => fl.action = Action::Return,
                    Target::Nowhere => fl.action = Action::JumpNowhere,
                }
            }
            Kind::Trap => falls = marks.is_some_and(|m| m.resumes),
            // sync_core()'s IRET to itself: its stack operation says so.
            Kind::ContextSwitch if ins.has_ops() && owner.is_some() => falls = true,
            Kind::ContextSwitch => fl.action = Action::ContextSwitch,
            k => falls = !k.ends_flow(),
        }
        if falls {
            match repl {
                Some((_, site, r)) if ins.end() >= r.end => {
                    let after = self.after_site(site);
                    fl.next[0] = after.ok().flatten().map(|l| (l, None));
                    // A site that ends its function (or its section): the
                    // replacement runs on past it, as `fall` has it.
                    if after == Ok(None) && !root.prefix {
                        fl.exit = Some(Exit::OffEnd);
                    }
                    let len = r.end - r.start;
                    if len < site.end - site.start {
                        fl.replacement_end = Some((site.section, site.start + len));
                    }
                }
                // Inside the replacement, wherever it is placed.
                Some((ctx, _, _)) => {
                    fl.next[0] = self.index(sec, ins.end()).map(|l| (l, Some(ctx)))
                }
                None => {
                    let (to, exit) = self.fall(root, owner, code, sec, i);
                    fl.next[0] = to.map(|l| (l, None));
                    fl.exit = exit;
                }
            }
        }
        fl
    }

    /// Walk every path from the entry of `root` (its first instruction),
    /// starting in state `init`.
    pub fn walk<V: Visitor>(&self, root: &Function, init: V::State, v: &mut V) {
        if let Some(entry) = self.entry(root) {
            self.walk_from(root, entry, init, v);
        }
    }

    /// Walk every path from `entry`, as code of `root`.
    pub fn walk_from<V: Visitor>(&self, root: &Function, entry: Loc, init: V::State, v: &mut V) {
        self.walk_from_in(root, entry, init, v, &mut Paths::default());
    }

    /// [`Walker::walk_from`] with buffers kept from an earlier walk.
    // Inlined into each caller: the flow walk's one call site gains most
    // (its visitor's methods inline into the loop).
    #[inline(always)]
    pub fn walk_from_in<V: Visitor>(
        &self,
        root: &Function,
        entry: Loc,
        init: V::State,
        v: &mut V,
        paths: &mut Paths<V::State>,
    ) {
        let m = self.m;
        let special = m.special();
        let root_index = m.function_index_of(root);
        // The last answer outside the root and the span it holds for: the
        // walks from unwind hints (roots of no extent) ask at every step.
        let last = std::cell::Cell::new((usize::MAX, 0u64, 0u64, None));
        let owner_of = |sec: usize, off: u64| {
            if sec == root.section && off >= root.start && off < root.end {
                return root_index;
            }
            let (s, lo, hi, found) = last.get();
            if s == sec && lo <= off && off < hi {
                return found;
            }
            let (found, hi) = m.function_containing_span(sec, off);
            last.set((sec, off, hi, found));
            found
        };
        // Straight-line code, own jumps and calls in bulk: the root's own
        // instructions but its last (whose fall-through may leave the
        // function), when the function owning them ends where the root does
        // (an alias of another size at its start ends paths elsewhere).
        let whole = if root_index.is_some_and(|o| m.functions[o].end == root.end) {
            root.insns.clone()
        } else {
            0..0
        };
        let own = whole.start..whole.end.saturating_sub(1);
        let own_calls = OwnCalls {
            walker: self,
            owner: root_index,
        };
        // Paths not yet walked, the next one to walk last. A path goes on
        // in place while it has one way to go.
        let Paths { work, side, succ } = paths;
        work.clear();
        let (mut at, mut state): (Next, V::State) = ((entry, None), init);
        loop {
            loop {
                if v.finished() {
                    return;
                }
                let ((sec, i), ctx) = at;
                let Some(code) = m.section_code(sec) else {
                    break;
                };
                let ins = &code.insns[i];
                if ctx.is_none() && sec == root.section && own.contains(&i) && ins.is_plain() {
                    let (taken, goes_on) =
                        v.plain_run(code, sec, i, own.end, &own_calls, &mut state);
                    if !goes_on {
                        break;
                    }
                    if taken > 0 {
                        at = ((sec, i + taken), None);
                        continue;
                    }
                }
                // Looked up once (a map's miss on vmlinux.o's marked
                // instructions, each asked up to twice).
                let marks = special.at(sec, ins);
                // A jump inside the root's own range with nothing on it: no
                // visitor's state changes; the target first, as below.
                if ctx.is_none()
                    && sec == root.section
                    && own.contains(&i)
                    && let Some((to, falls)) = self.own_jump(root, code, i)
                    && marks.is_none()
                {
                    let arrival = Arrival::plain((sec, i), ins);
                    if !v.arrive(&arrival, &mut state) {
                        break;
                    }
                    if falls {
                        fork(work, v, (sec, i), ((sec, i + 1), None), None, &state);
                    }
                    v.edge((sec, i), (sec, to), Edge::Jump, &mut state);
                    at = ((sec, to), None);
                    continue;
                }
                // A return of the root's own range (or a jump to a return
                // thunk) with nothing on it: the step ends the path.
                if ctx.is_none()
                    && sec == root.section
                    && whole.contains(&i)
                    && self.own_return(code, i)
                    && marks.is_none()
                {
                    let arrival = Arrival::plain((sec, i), ins);
                    if v.arrive(&arrival, &mut state) {
                        let step = Step::own(code, sec, i, Action::Return, root_index);
                        v.step(&step, &mut state);
                    }
                    break;
                }
                // A call of the root's own range to a function (of this
                // object or not) that returns, with nothing on it: the
                // step, then on to the next instruction.
                if ctx.is_none()
                    && sec == root.section
                    && own.contains(&i)
                    && let Some(callee) = self.own_call(code, i)
                    && marks.is_none()
                {
                    let step = Step::own(code, sec, i, Action::Call(callee), root_index);
                    let goes_on = match v.plain_call(&step, &mut state) {
                        Some(goes_on) => goes_on,
                        None => {
                            let arrival = Arrival::plain((sec, i), ins);
                            v.arrive(&arrival, &mut state) && v.step(&step, &mut state)
                        }
                    };
                    if !goes_on {
                        break;
                    }
                    at = ((sec, i + 1), None);
                    continue;
                }
                let repl = ctx.map(|c| {
                    let site = &m.alts.sites[c.0 as usize];
                    (c, site, &site.repls[c.1 as usize])
                });
                let alt_site = repl.map(|(_, site, _)| (site.section, site.start));
                let arrival = Arrival {
                    loc: (sec, i),
                    insn: ins,
                    marks,
                    alt_site,
                };
                if !v.arrive(&arrival, &mut state) {
                    break;
                }
                // Paths that start from the state before this instruction.
                side.clear();
                let mut skip_orig = false;
                if let Some(mk) = marks {
                    if mk.alt_site
                        && !mk.ignore_alts
                        && let Some(si) = m.alts.site_index_at(sec, ins.offset())
                    {
                        let site = &m.alts.sites[si];
                        for (ri, r) in site.repls.iter().enumerate() {
                            if r.start == r.end {
                                side.extend(
                                    self.site_end(site).map(|l| ((l, None), Edge::Alternative)),
                                );
                            } else if let Some(l) = self.index(r.section, r.start)
                                && !special
                                    .get((l.0, r.start))
                                    .is_some_and(|rm| rm.skip_version)
                            {
                                side.push(((l, Some((si as u32, ri as u32))), Edge::Alternative));
                            }
                        }
                        skip_orig = site.exclusive() || mk.skip_version;
                    }
                    side.extend(
                        mk.fixups
                            .iter()
                            .filter_map(|&(s, o)| self.index(s, o))
                            .map(|l| ((l, None), Edge::Fixup)),
                    );
                    match (mk.jump_label, ins.kind) {
                        (Some(_), Kind::Jump) => side.extend(
                            self.index(sec, ins.end())
                                .map(|l| ((l, ctx), Edge::JumpLabel)),
                        ),
                        (Some((s, o)), _) => {
                            side.extend(self.index(s, o).map(|l| ((l, None), Edge::JumpLabel)))
                        }
                        _ => {}
                    }
                }
                let before = (!side.is_empty()).then(|| state.clone());
                succ.clear();
                let mut goes_on = false;
                if !skip_orig {
                    let owner = match alt_site {
                        Some((s, o)) => owner_of(s, o),
                        None => owner_of(sec, ins.offset()),
                    };
                    let fl = self.flow(root, owner, sec, code, i, marks, repl);
                    let step = Step {
                        section: sec,
                        index: i,
                        insn: ins,
                        code,
                        action: fl.action,
                        alt_site,
                        marks,
                        owner,
                        exit: fl.exit,
                        replacement_end: fl.replacement_end,
                    };
                    if v.step(&step, &mut state) {
                        // Walked in this order: switch cases in table order,
                        // the jump target, the fall-through.
                        succ.extend(fl.next[0].map(|to| {
                            let on = to == ((sec, i + 1), ctx);
                            (to, (!on).then_some(Edge::RunsOn))
                        }));
                        succ.extend(
                            fl.next[1]
                                .filter(|&(to, _)| !v.dead_branch(&step, to))
                                .map(|to| (to, Some(Edge::Jump))),
                        );
                        succ.extend(
                            fl.cases
                                .iter()
                                .rev()
                                .filter(|&&l| !v.dead_case(&step, l))
                                .map(|&l| ((l, None), Some(Edge::Case))),
                        );
                        goes_on = !succ.is_empty();
                    }
                }
                match before {
                    None => {
                        // The common case: the path goes on in place.
                        let Some((&(first, edge), rest)) = succ.split_last() else {
                            break;
                        };
                        for &(to, e) in rest {
                            fork(work, v, (sec, i), to, e, &state);
                        }
                        if let Some(e) = edge {
                            v.edge((sec, i), first.0, e, &mut state);
                        }
                        at = first;
                    }
                    Some(b) => {
                        // Side paths first, with the state from before.
                        if goes_on {
                            for &(to, e) in succ.iter() {
                                fork(work, v, (sec, i), to, e, &state);
                            }
                        }
                        state = b;
                        let (&(first, edge), rest) = side.split_first().expect("side paths");
                        for &(to, e) in rest.iter().rev() {
                            fork(work, v, (sec, i), to, Some(e), &state);
                        }
                        v.edge((sec, i), first.0, edge, &mut state);
                        at = first;
                    }
                }
            }
            // The next path, its state copied once (a pop moved it twice).
            let Some((next, s)) = work.last() else {
                return;
            };
            at = *next;
            state.clone_from(s);
            work.truncate(work.len() - 1);
        }
    }
}

/// The buffers of a walk, kept by callers that walk many roots (one
/// allocation per thread instead of per root).
pub struct Paths<S> {
    /// Paths not yet walked, the next one to walk last.
    work: Vec<(Next, S)>,
    side: Vec<(Next, Edge)>,
    succ: Vec<(Next, Option<Edge>)>,
}

impl<S> Default for Paths<S> {
    fn default() -> Self {
        Paths {
            work: Vec::new(),
            side: Vec::new(),
            succ: Vec::new(),
        }
    }
}

/// A path to walk later: `state` taken from `from` to `to`, along `edge`
/// when it is not the fall-through. The copy is made in its place on the
/// stack of paths (a state is a few hundred bytes).
#[inline]
fn fork<V: Visitor>(
    work: &mut Vec<(Next, V::State)>,
    v: &mut V,
    from: Loc,
    to: Next,
    edge: Option<Edge>,
    state: &V::State,
) {
    work.push((to, state.clone()));
    if let Some(e) = edge {
        let (_, s) = work.last_mut().expect("a path was just pushed");
        v.edge(from, to.0, e, s);
    }
}

/// Instructions walked already: a bit per instruction of the root's own
/// range, a set for the rest (`.cold` parts, replacements).
#[derive(Debug, Default)]
pub struct Seen {
    section: usize,
    base: usize,
    bits: Vec<u64>,
    rest: FxHashSet<Loc>,
}

impl Seen {
    pub fn new(m: &Model, root: &Function) -> Seen {
        let r = m.insn_range(root);
        Seen {
            section: root.section,
            base: r.start,
            bits: vec![0; r.len().div_ceil(64)],
            rest: FxHashSet::default(),
        }
    }
    /// Marks `loc`; false if it was marked already.
    #[inline]
    pub fn insert(&mut self, loc: Loc) -> bool {
        if loc.0 == self.section
            && let Some(k) = loc.1.checked_sub(self.base)
            && let Some(w) = self.bits.get_mut(k / 64)
        {
            let bit = 1 << (k % 64);
            let new = *w & bit == 0;
            *w |= bit;
            return new;
        }
        self.rest.insert(loc)
    }
    /// Marks the plain instructions from `from` (short of `limit`) in
    /// order, up to the first marked already: [`Visitor::plain_run`] for
    /// visitors that only mark.
    pub fn insert_run(
        &mut self,
        code: &SectionCode,
        sec: usize,
        from: usize,
        limit: usize,
    ) -> (usize, bool) {
        let end = code.plain_end(from, limit);
        for j in from..end {
            if !self.insert((sec, j)) {
                return (j - from, false);
            }
        }
        (end - from, true)
    }
    /// Every instruction marked.
    pub fn iter(&self) -> impl Iterator<Item = Loc> + '_ {
        let own = self.bits.iter().enumerate().flat_map(move |(w, &bits)| {
            (0..64)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| (self.section, self.base + w * 64 + b))
        });
        own.chain(self.rest.iter().copied())
    }
}

/// Reachability: which instructions some path reaches.
pub struct Reach {
    seen: Seen,
}

impl Reach {
    pub fn new(m: &Model, root: &Function) -> Reach {
        Reach {
            seen: Seen::new(m, root),
        }
    }
    pub fn seen(&self) -> impl Iterator<Item = Loc> + '_ {
        self.seen.iter()
    }
}

impl Visitor for Reach {
    type State = ();
    fn plain_run(
        &mut self,
        code: &SectionCode,
        sec: usize,
        from: usize,
        limit: usize,
        _: &OwnCalls,
        _: &mut (),
    ) -> (usize, bool) {
        self.seen.insert_run(code, sec, from, limit)
    }
    fn arrive(&mut self, a: &Arrival, _: &mut ()) -> bool {
        self.seen.insert(a.loc)
    }
    fn step(&mut self, _: &Step, _: &mut ()) -> bool {
        true
    }
}

/// Whether some path may return to the caller (for noreturn inference):
/// a return, running off the end, an indirect jump that cannot be followed,
/// bytes that do not decode, a tail call to a function that may return.
pub struct MayReturn<'m, 'a> {
    m: &'m Model<'a>,
    seen: Seen,
    pub returns: bool,
    pub entered: bool,
}

impl<'m, 'a> MayReturn<'m, 'a> {
    pub fn new(m: &'m Model<'a>, root: &Function) -> MayReturn<'m, 'a> {
        MayReturn {
            m,
            seen: Seen::new(m, root),
            returns: false,
            entered: false,
        }
    }
}

impl Visitor for MayReturn<'_, '_> {
    type State = ();
    fn plain_run(
        &mut self,
        code: &SectionCode,
        sec: usize,
        from: usize,
        limit: usize,
        _: &OwnCalls,
        _: &mut (),
    ) -> (usize, bool) {
        self.entered = true;
        self.seen.insert_run(code, sec, from, limit)
    }
    fn arrive(&mut self, a: &Arrival, _: &mut ()) -> bool {
        self.entered = true;
        self.seen.insert(a.loc)
    }
    fn step(&mut self, s: &Step, _: &mut ()) -> bool {
        let exits = s.insn.kind == Kind::Invalid
            || s.exit.is_some()
            || match s.action {
                Action::Return | Action::UnknownJump | Action::JumpNowhere => true,
                Action::TailCall(Callee::Direct(d)) => !self.m.is_noreturn(d),
                Action::TailCall(Callee::Indirect { .. }) => true,
                _ => false,
            };
        if exits {
            self.returns = true;
        }
        !exits
    }
    fn finished(&self) -> bool {
        self.returns
    }
}
