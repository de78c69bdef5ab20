//! Reading and checking arbitrary bytes never panics: `check_bytes` either
//! refuses the object with a reason or reports on it, and every renderer can
//! print what it reports. Run: `cargo +nightly fuzz run check_bytes` from
//! this folder (seed the corpus with testdata/core/*/*.o).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use objlint::config::Options;
use objlint::engine::check_bytes;
use objlint::report::{Format, emitter_for};
use objlint::rules::Rules;
use std::sync::OnceLock;

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(Rules::builtin)
}

fuzz_target!(init: common::init(), |data: &[u8]| {
    let rep = check_bytes("fuzz.o", data, rules(), &Options::default());
    if let Some(e) = &rep.error {
        assert!(!e.contains("internal error"), "{e}");
        return;
    }
    // A report without findings renders the same whatever the input but for
    // its JSON object record: only reports with findings go through every
    // renderer (SARIF's log alone is tens of KB of rule metadata per run).
    let formats: &[Format] = if rep.findings.is_empty() {
        &[Format::Json]
    } else {
        &[
            Format::Short,
            Format::Json,
            Format::Human,
            Format::Sarif,
            Format::Objtool,
        ]
    };
    for &format in formats {
        let mut out = Vec::new();
        let mut em = emitter_for(format, false, rules(), None);
        em.object(&rep, &mut out).unwrap();
        em.finish(&mut out).unwrap();
    }
});
