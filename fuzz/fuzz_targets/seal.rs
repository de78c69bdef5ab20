//! Sealing arbitrary bytes never panics or allocates without bound; what the
//! writer would write is checked (`verify_sealed`: every section, symbol and
//! relocation kept) without panicking either. An output that fails the check
//! is refused by `seal`, never written (the first run found such an input:
//! `section 4 () header changed`; the CLI says so and exits 2).
//! Run from fuzz/: `cargo +nightly fuzz run seal -- -rss_limit_mb=1024`.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use objlint::seal::SealMode;
use objlint::elf::Object;
use objlint::model::Model;
use objlint::rules::Rules;
use objlint::seal::{seal_model, verify_sealed};

fuzz_target!(init: common::init(), |data: &[u8]| {
    let Ok(obj) = Object::parse(data) else {
        return;
    };
    // One model for the four ways (seal_object builds one per call).
    let model = Model::build(&obj, Rules::builtin_shared());
    for mode in [SealMode::Nop, SealMode::Section] {
        for link in [false, true] {
            if let Ok(s) = seal_model(&model, mode, link)
                && verify_sealed(&obj, &s.rewritten.bytes, &s).is_ok()
            {
                let back = Object::parse(&s.rewritten.bytes).expect("a verified object reads back");
                assert!(back.symbols.len() >= obj.symbols.len());
            }
        }
    }
});
