//! Path walks: every path from a function's entry, carrying a state that a
//! check updates instruction by instruction. Work is memoised per
//! (instruction, state), so a walk visits each instruction at most once per
//! distinct state reaching it and stays linear for the small states checks use.
//!
//! A path follows jumps inside the function, into its `.cold` parts and into
//! code outside any function (x86 `.altinstr_aux`); through every
//! replacement of an alternative site (from the site's start to its end); and
//! over calls unless the callee never returns. A call to a label of the same
//! function or replacement (return-stack stuffing) is followed like a jump. Jumps to other functions are
//! tail calls and end the path, as do returns.

use super::alternatives::{AltSite, Replacement};
use super::{Dest, Function, Model, SectionCode};
use crate::arch::{Insn, Kind};
use crate::rules::{NameSet, Rules};
use rustc_hash::FxHashSet as HashSet;
use std::hash::Hash;

/// Who a call or tail call goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// One instruction on a path.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    pub section: usize,
    pub insn: &'a Insn,
    pub action: Action,
    /// `(section, offset)` of the alternative site when the instruction is
    /// part of one of its replacements.
    pub alt_site: Option<(usize, u64)>,
}

impl Step<'_> {
    /// Where a finding about this instruction belongs: the instruction itself,
    /// or for replacement code the original site it is patched over.
    pub fn report_at(&self) -> (usize, u64) {
        self.alt_site.unwrap_or((self.section, self.insn.offset()))
    }
}

enum Target {
    Here(Option<(usize, usize)>),
    Leaves(Callee),
    Return,
    Unknown,
}

/// Walks paths through the functions of one model.
pub struct Walker<'m, 'a> {
    m: &'m Model<'a>,
    return_thunks: NameSet,
    indirect_thunks: NameSet,
    indirect_jumps_leave: bool,
}

/// `g` is a part of `f` split off by the compiler (`f.cold`, `f.cold.1`).
pub fn is_cold_part(f: &str, g: &str) -> bool {
    g.strip_prefix(f)
        .is_some_and(|rest| rest.starts_with(".cold"))
}

/// A function that is the `.cold` part of another.
pub fn is_cold(name: &str) -> bool {
    name.contains(".cold")
}

impl<'m, 'a> Walker<'m, 'a> {
    pub fn new(m: &'m Model<'a>, rules: &Rules) -> Walker<'m, 'a> {
        let arch = m.obj.machine;
        Walker {
            m,
            return_thunks: rules.return_thunks(arch),
            indirect_thunks: rules.indirect_thunks(arch),
            indirect_jumps_leave: rules.indirect_jumps_leave(arch),
        }
    }

    pub fn model(&self) -> &'m Model<'a> {
        self.m
    }

    /// The name a direct destination is known by (function or symbol).
    fn dest_symbol(&self, dest: Dest) -> Option<&str> {
        match dest {
            Dest::External { sym } => Some(self.m.obj.symbols[sym].name.as_str()),
            Dest::Local { section, offset } => self
                .m
                .function_at_start(section, offset)
                .map(|i| self.m.functions[i].name),
            Dest::None => None,
        }
    }

    fn callee(&self, dest: Dest) -> Callee {
        match (dest, self.dest_symbol(dest)) {
            (Dest::External { sym }, Some(n)) if self.indirect_thunks.contains(n) => {
                Callee::Indirect { thunk: Some(sym) }
            }
            (Dest::Local { .. }, Some(n)) if self.indirect_thunks.contains(n) => {
                Callee::Indirect { thunk: None }
            }
            _ => Callee::Direct(dest),
        }
    }

    fn index(&self, section: usize, offset: u64) -> Option<(usize, usize)> {
        let c = self.m.section_code(section)?;
        c.index_at(offset).map(|i| (section, i))
    }

    /// Continue at `offset` after code that ended at it: not when that runs
    /// into another function (the fallthrough rule reports that).
    fn resume(&self, section: usize, from: u64, offset: u64) -> Option<(usize, usize)> {
        match self.m.function_containing(section, from) {
            Some(g) if offset >= self.m.functions[g].end => return None,
            Some(_) => {}
            None => {
                if self.m.function_at_start(section, offset).is_some() {
                    return None;
                }
            }
        }
        self.index(section, offset)
    }

    fn site_end(&self, site: &AltSite) -> Option<(usize, usize)> {
        self.resume(site.section, site.start, site.end)
    }

    fn jump_target(
        &self,
        f: &Function,
        dest: Dest,
        repl: Option<(&AltSite, &Replacement)>,
    ) -> Target {
        let name = self.dest_symbol(dest);
        if name.is_some_and(|n| self.return_thunks.contains(n)) {
            return Target::Return;
        }
        let Dest::Local { section, offset } = dest else {
            return match dest {
                Dest::External { .. } => Target::Leaves(self.callee(dest)),
                _ => Target::Unknown,
            };
        };
        if let Some((site, r)) = repl
            && section == r.section
        {
            if offset == r.end {
                return Target::Here(self.site_end(site));
            }
            if (r.start..r.end).contains(&offset) {
                return Target::Here(self.index(section, offset));
            }
        }
        match self.m.function_containing(section, offset) {
            Some(g) => {
                let g = &self.m.functions[g];
                let same = g.sym == f.sym || (g.start == f.start && g.section == f.section);
                if same || is_cold_part(f.name, g.name) {
                    Target::Here(self.index(section, offset))
                } else {
                    Target::Leaves(self.callee(dest))
                }
            }
            // Code outside any function (`.altinstr_aux`, arm64 replacements).
            None => Target::Here(self.index(section, offset)),
        }
    }

    /// A call to a label inside the function or the replacement it is in
    /// (return-stack stuffing: `call 1f; int3; 1:`) is a jump, not a call.
    fn intra_call(
        &self,
        f: &Function,
        dest: Dest,
        repl: Option<(&AltSite, &Replacement)>,
    ) -> Option<(usize, usize)> {
        let Dest::Local { section, offset } = dest else {
            return None;
        };
        if let Some((_, r)) = repl
            && section == r.section
            && (r.start..r.end).contains(&offset)
        {
            return self.index(section, offset);
        }
        let g = &self.m.functions[self.m.function_containing(section, offset)?];
        let inside = (g.sym == f.sym && offset != f.start) || is_cold_part(f.name, g.name);
        if inside {
            self.index(section, offset)
        } else {
            None
        }
    }

    fn flow(
        &self,
        f: &Function,
        sec: usize,
        code: &SectionCode,
        i: usize,
        repl: Option<(&AltSite, &Replacement)>,
    ) -> (Action, [Option<(usize, usize)>; 2]) {
        let ins = &code.insns[i];
        let dest = code.dest(i);
        let mut out = [None, None];
        let mut falls = false;
        let action = match ins.kind {
            Kind::Return => Action::Return,
            Kind::Call => {
                falls = !self.m.is_noreturn(dest);
                match self.intra_call(f, dest, repl) {
                    Some(to) => {
                        out[1] = Some(to);
                        Action::Plain
                    }
                    None => Action::Call(self.callee(dest)),
                }
            }
            Kind::IndirectCall => {
                falls = true;
                Action::Call(Callee::Indirect { thunk: None })
            }
            Kind::IndirectJump if self.indirect_jumps_leave => {
                Action::TailCall(Callee::Indirect { thunk: None })
            }
            Kind::Jump | Kind::CondJump => {
                falls = ins.kind == Kind::CondJump;
                match self.jump_target(f, dest, repl) {
                    Target::Here(to) => {
                        out[1] = to;
                        Action::Plain
                    }
                    Target::Leaves(c) => Action::TailCall(c),
                    Target::Return => Action::Return,
                    Target::Unknown => Action::Plain,
                }
            }
            k => {
                falls = !k.ends_flow();
                Action::Plain
            }
        };
        if falls {
            out[0] = match repl {
                Some((site, r)) if ins.end() >= r.end => self.site_end(site),
                _ => self.resume(sec, ins.offset(), ins.end()),
            };
        }
        (action, out)
    }

    /// Walk every path from the entry of `f`, starting in state `init`.
    /// `visit` sees each instruction with the state before it and returns the
    /// state after it, or `None` to end the path there.
    pub fn walk<S, F>(&self, f: &Function, init: S, mut visit: F)
    where
        S: Copy + Eq + Hash,
        F: FnMut(&Step, S) -> Option<S>,
    {
        let Some(entry) = self.index(f.section, f.start) else {
            return;
        };
        let mut seen: HashSet<(usize, usize, S)> = HashSet::default();
        let mut work = vec![(entry.0, entry.1, init)];
        while let Some((sec, i, s)) = work.pop() {
            if !seen.insert((sec, i, s)) {
                continue;
            }
            let Some(code) = self.m.section_code(sec) else {
                continue;
            };
            let ins = &code.insns[i];
            if let Some(site) = self.m.alts.site_at(sec, ins.offset()) {
                for r in &site.repls {
                    let to = if r.start == r.end {
                        self.site_end(site)
                    } else {
                        self.index(r.section, r.start)
                    };
                    if let Some((s2, j)) = to {
                        work.push((s2, j, s));
                    }
                }
                if site.exclusive() {
                    continue;
                }
            }
            let repl = self.m.alts.replacement_containing(sec, ins.offset());
            let (action, next) = self.flow(f, sec, code, i, repl);
            let step = Step {
                section: sec,
                insn: ins,
                action,
                alt_site: repl.map(|(site, _)| (site.section, site.start)),
            };
            let Some(after) = visit(&step, s) else {
                continue;
            };
            for (s2, j) in next.into_iter().flatten() {
                work.push((s2, j, after));
            }
        }
    }
}
