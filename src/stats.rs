//! `objlint stats`: landing pads and patchable layouts per object.

use crate::cli::{StatsArgs, usage_error};

pub fn run(_a: &StatsArgs) -> i32 {
    usage_error("`stats` is not implemented yet")
}
