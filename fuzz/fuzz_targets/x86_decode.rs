//! x86-64 code decoded the quick way (`arch::x86`'s bytes-only decoder for
//! the common instructions) and with iced-x86 alone gives the same
//! instructions and stack operations, and neither panics. Run from fuzz/:
//! `cargo +nightly fuzz run x86_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(d) = objlint::arch::x86::quick_differs(data, 0x1000) {
        panic!("{d}");
    }
});
