//! `stats` and `symdiff` on arbitrary bytes never panic: the input is split
//! in two objects at the length its first 4 bytes give (little-endian;
//! `fuzz/seed.py` writes seeds so), symdiff compares them, stats reads each.
//! Run from fuzz/:
//! `cargo +nightly fuzz run stats_symdiff`.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use objlint::elf::Object;
use objlint::rules::Rules;

fuzz_target!(init: common::init(), |data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let cut = (u32::from_le_bytes(*len) as usize).min(rest.len());
    let (a, b) = rest.split_at(cut);
    let rules = Rules::builtin_shared();
    for part in [a, b] {
        let s = objlint::stats::object_stats("fuzz.o".into(), part, rules, true, true);
        if let Some(e) = &s.error {
            assert!(!e.contains("internal error"), "{e}");
        }
    }
    if let (Ok(before), Ok(after)) = (Object::parse(a), Object::parse(b)) {
        let _ = objlint::symdiff::diff(&before, &after, rules);
    }
});
