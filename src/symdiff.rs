//! `objlint symdiff`: compare symbol tables across a rewrite.

use crate::cli::{SymdiffArgs, usage_error};

pub fn run(_a: &SymdiffArgs) -> i32 {
    usage_error("`symdiff` is not implemented yet")
}
