//! Expected-output files beside fixtures: compared, or rewritten with
//! `OBJLINT_BLESS=1` (review the diff after).

use std::path::Path;

/// Whether this run rewrites the expected files.
pub fn blessing() -> bool {
    std::env::var_os("OBJLINT_BLESS").is_some()
}

/// Compares `got` with the file `exp` (or writes it when blessing); a
/// difference is added to `failures` under `name`.
pub fn check(exp: &Path, got: &str, name: &str, failures: &mut Vec<String>) {
    if blessing() {
        std::fs::write(exp, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(exp)
        .unwrap_or_else(|_| panic!("{} missing (OBJLINT_BLESS=1 writes it)", exp.display()));
    if got != want {
        failures.push(format!("{name}:\n--- want\n{want}--- got\n{got}"));
    }
}
