//! objlint: a static validator for ELF objects built for the Linux kernel
//! and other low-level code, on x86-64 and arm64.
//!
//! Layers, one direction: [`elf`] (bytes) → [`arch`] (instructions) →
//! [`model`] (functions, flow) → [`checks`] (findings) → [`report`] (formats).

pub mod arch;
pub mod baseline;
pub mod checks;
pub mod cli;
pub mod compdb;
pub mod config;
pub mod elf;
pub mod engine;
pub mod input;
pub mod lsp;
pub mod model;
pub mod precommit;
pub mod report;
pub mod rules;
pub mod seal;
pub mod source;
pub mod stats;
pub mod symdiff;
pub mod timing;
pub mod unwind;
