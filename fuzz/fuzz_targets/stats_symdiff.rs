//! `stats` and `symdiff` on arbitrary bytes never panic: the input is split
//! in two objects (symdiff compares them; stats reads each). Run from fuzz/:
//! `cargo +nightly fuzz run stats_symdiff`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use objlint::elf::Object;
use objlint::rules::Rules;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let cut = usize::from(data[0]) * data.len() / 256;
    let (a, b) = data[1..].split_at(cut.min(data.len() - 1));
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
