//! `objlint seal`: seal unneeded landing pads.

use crate::cli::{SealArgs, usage_error};

pub fn run(_a: &SealArgs) -> i32 {
    usage_error("`seal` is not implemented yet")
}
