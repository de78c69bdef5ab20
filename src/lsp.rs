//! `objlint lsp`: language server on stdio.

use crate::cli::{LspArgs, usage_error};

pub fn run(_a: &LspArgs) -> i32 {
    usage_error("`lsp` is not implemented yet")
}
