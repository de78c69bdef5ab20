//! The result of checking one object: the data every renderer reads.

use crate::checks::Finding;
use crate::elf::Machine;

/// The result for one object (a file, or one member of an archive).
#[derive(Debug, Clone, Default)]
pub struct ObjectReport {
    /// Path as given, with `(member)` for archive members.
    pub file: String,
    pub arch: Option<Machine>,
    pub functions: usize,
    pub findings: Vec<Finding>,
    /// Why the object could not be checked.
    pub error: Option<String>,
    /// Where each section's bytes start in the object (`None` for sections
    /// without bytes), by section index: SARIF's byte regions.
    pub section_offsets: Vec<Option<u64>>,
    /// Findings dropped by the config's per-file and per-symbol ignores.
    pub ignored: usize,
    /// Its property claims, for what is said of an archive or a folder as
    /// a whole: set for user-space objects with code checked with
    /// `gnu-property` on.
    pub property: Option<PropertyFacts>,
}

/// What the archive and folder property reports need of an object: its
/// machine, the feature bits of its `.note.gnu.property` (0 without one),
/// and where a finding about it goes (at the note, else the start of the
/// code; the message left empty).
#[derive(Debug, Clone)]
pub struct PropertyFacts {
    pub machine: Machine,
    pub features: u32,
    pub at: Finding,
}
