//! Kernel code or user space (`rules/profile.toml`): the kernel-only rules
//! (user access, noinstr, patchable entries, kCFI, CALL_OPS) run on kernel
//! code only.

use crate::arch::Kind;
use crate::config::{Options, Profile};
use crate::model::Model;
use crate::rules::Rules;

/// Whether an object is kernel code: `--profile` (or the config's
/// `profile`) decides, else the object: a kernel section or symbol of
/// `rules/profile.toml`, or an instruction that opens or closes user access
/// (x86 STAC/CLAC, arm64 `msr pan`), which user space cannot execute.
pub fn is_kernel(m: &Model, rules: &Rules, opts: &Options) -> bool {
    match opts.profile {
        Some(p) => p == Profile::Kernel,
        None => detected(m, rules),
    }
}

/// The object's own evidence (see [`is_kernel`]).
pub fn detected(m: &Model, rules: &Rules) -> bool {
    let p = &rules.profile;
    let uaccess = Kind::UaccessOpen.bit() | Kind::UaccessClose.bit();
    m.obj.sections.iter().any(|s| p.is_kernel_section(&s.name))
        || m.code.iter().flatten().any(|c| c.has_any(uaccess))
        || (!p.kernel_symbol.is_empty()
            && m.obj
                .symbols
                .iter()
                .any(|s| s.index != 0 && p.is_kernel_symbol(&s.name)))
}
