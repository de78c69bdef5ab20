//! Loading arbitrary bytes as `check` does (xz/zstd decompression under its
//! limits, ar and thin archives) never panics, and each member then checks
//! with the options a build may pass, an archive also as one link. Run from fuzz/:
//! `cargo +nightly fuzz run load -- -rss_limit_mb=1024`.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use objlint::config::Options;
use objlint::engine::check_bytes;
use objlint::input::{Bytes, from_bytes};
use objlint::rules::Rules;

fuzz_target!(init: common::init(), |data: &[u8]| {
    let Some((&sel, body)) = data.split_first() else {
        return;
    };
    let Ok(loaded) = from_bytes(Bytes::Owned(body.to_vec())) else {
        return;
    };
    // The first byte picks the options: --link, --ibt/--no-ibt,
    // --frame-pointer, --patchable.
    let opts = Options {
        link: sel & 1 != 0,
        ibt: [None, Some(true), Some(false)]
            .get(usize::from(sel >> 1 & 3))
            .copied()
            .flatten(),
        frame_pointer: (sel & 8 != 0).then_some(true),
        patchable: (sel & 16 != 0).then_some((4, 2)),
        ..Default::default()
    };
    for (_, range) in &loaded.members {
        let rep = check_bytes(
            "fuzz.o",
            &loaded.bytes[range.clone()],
            Rules::builtin_shared(),
            &opts,
        );
        if let Some(e) = &rep.error {
            assert!(!e.contains("internal error"), "{e}");
        }
    }
    // An archive is also checked as one link (what `check` does with it):
    // names and places resolved across members.
    if loaded.members.len() > 1 {
        let unit = objlint::engine::check_archive(
            "fuzz.a",
            &loaded.bytes,
            &loaded.members,
            Rules::builtin_shared(),
            &opts,
        );
        for rep in &unit {
            if let Some(e) = &rep.error {
                assert!(!e.contains("internal error"), "{e}");
            }
        }
    }
});
