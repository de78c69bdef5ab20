//! `frame-pointer`: in a frame-pointer build, a call made before the
//! function set up its frame record, or the frame-pointer register used as
//! a scratch register (objtool's `--stackval`: "call without frame pointer
//! save/setup", "BP used as a scratch register").
//!
//! The frame-pointer unwinder walks the chain of frame records: x86
//! `push %rbp; mov %rsp,%rbp`, arm64 `stp x29, x30, [sp, #-n]!; mov x29, sp`.
//! A call made before the record exists hides the caller from every stack
//! trace taken in the callee. Whether the build uses frame pointers is read
//! from the object (nearly every function that calls something sets up a
//! record first, and on x86 no function makes sibling calls; functions that
//! realign the stack count neither way: `rules/stack.toml`), unless `--frame-pointer`/
//! `--no-frame-pointer` or the config's `frame_pointer` say. One finding per
//! function.

use super::flow;
use super::{Check, Ctx, Finding};
use crate::elf::Machine;

pub struct FramePointer;

/// Whether the object is built with frame pointers.
pub fn frame_pointer_build(cx: &Ctx) -> bool {
    if let Some(on) = cx.opts.frame_pointer {
        return on;
    }
    let f = cx.flow();
    let d = cx
        .rules
        .stack
        .frame_pointer_detect
        .get(cx.model.obj.machine);
    let unframed_sibling = f
        .unframed_sibling
        .iter()
        .filter(|&&sec| {
            let name = cx.model.obj.section_name(sec);
            !d.trampoline_sections.iter().any(|t| t == name)
        })
        .count();
    f.calling >= d.min_calling.max(1)
        && f.framed as f64 >= d.share * f.calling as f64
        && d.max_unframed_sibling
            .is_none_or(|max| unframed_sibling <= max)
}

impl Check for FramePointer {
    fn id(&self) -> &'static str {
        flow::FRAME_POINTER
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        if !frame_pointer_build(cx) {
            return;
        }
        let arm64 = cx.model.obj.machine == Machine::Aarch64;
        let mut events = cx.flow().frame_events.clone();
        events.sort_by_key(|e| e.at);
        for e in events {
            let (message, note) = match (e.scratch, arm64) {
                (true, false) => (
                    "BP used as a scratch register",
                    "%rbp is pushed but never made the frame pointer (mov %rsp,%rbp)",
                ),
                (true, true) => (
                    "x29 used as a scratch register",
                    "x29 is saved but never made the frame pointer (mov x29, sp)",
                ),
                (false, false) => (
                    "call without frame pointer save/setup",
                    "no frame record yet: push %rbp; mov %rsp,%rbp come before the first call",
                ),
                (false, true) => (
                    "call without frame pointer save/setup",
                    "no frame record yet: stp x29, x30, [sp, #-n]!; mov x29, sp come before the first call",
                ),
            };
            let mut fd = cx.finding(self.id(), e.at.0, e.at.1, message.to_string());
            fd.notes.push(note.to_string());
            out.push(fd);
        }
    }
}
