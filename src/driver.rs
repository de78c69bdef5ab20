//! The library's entry points, one per subcommand, with typed options: what
//! `objlint check`, `stats`, `symdiff`, `seal`, `unwind` and the language
//! server call. The command line ([`crate::app`]) only turns arguments into
//! these options and results into output and exit codes; nothing here knows
//! of clap.

use crate::config::{ConfigFile, Mitigations, Options, Profile};
use crate::elf::{Machine, Object};
use crate::engine::{self, ObjectReport};
use crate::input::{self, Input, Inputs, Loaded};
use crate::model::Model;
use crate::rules::Rules;
use crate::seal::SealMode;
use crate::stats::ObjectStats;
use crate::unwind::{CfiAgreement, OrcAgreement};
use std::path::{Path, PathBuf};

/// Why an entry point stopped, as the command line reports it.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage or configuration (`objlint: error: ...`, exit 2).
    Usage(String),
    /// A file that cannot be read or used (`objlint: FILE: ...`, exit 2).
    File(PathBuf, String),
}

/// The options and rules objects are checked with.
pub type Setup = (Options, Rules);

/// What `check` (and the language server) decide before reading objects:
/// the command line's part; the rest comes from `objlint.toml`.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// The config file for every object (default: each object's nearest
    /// `objlint.toml`).
    pub config: Option<PathBuf>,
    /// Folder of rule files replacing the built-in ones.
    pub rules: Option<PathBuf>,
    pub enable: Vec<String>,
    pub disable: Vec<String>,
    pub ibt: Option<bool>,
    pub mitigations: Option<Vec<String>>,
    pub frame_pointer: Option<bool>,
    /// `M,N` as given.
    pub patchable: Option<String>,
    pub link: bool,
    pub profile: Option<Profile>,
    /// The kernel version as given (`--kernel`).
    pub kernel: Option<String>,
    pub deny_warnings: bool,
    /// Only objects of this architecture.
    pub arch: Option<Machine>,
}

/// `-j N`: the size of the global worker pool (all cores when not given).
pub fn set_jobs(jobs: Option<usize>) -> Result<(), String> {
    match jobs {
        Some(0) => Err("-j wants at least 1".into()),
        Some(j) => {
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(j)
                .build_global();
            Ok(())
        }
        None => Ok(()),
    }
}

/// Options and rules from the config file (`config`, else the
/// `objlint.toml` nearest above the working directory) and `o`.
pub fn setup(o: &CheckOptions) -> Result<Setup, String> {
    Ok(run_setup(o)?.setup)
}

/// The run's setup ([`setup`]) with the config file it came from, which
/// [`prepare`] gives the inputs no other config file is nearer to.
pub struct RunSetup {
    config: Option<PathBuf>,
    pub setup: Setup,
}

/// [`setup`], keeping where its config file was found.
pub fn run_setup(o: &CheckOptions) -> Result<RunSetup, String> {
    let config = run_config(o);
    let setup = setup_from(o, config.as_deref())?;
    Ok(RunSetup { config, setup })
}

/// The config file of the run as a whole: `config`, else the one found
/// from the working directory up.
fn run_config(o: &CheckOptions) -> Option<PathBuf> {
    match &o.config {
        Some(p) => Some(p.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| ConfigFile::find(&d)),
    }
}

/// Options and rules from the config file `cfg_path` (none: the defaults)
/// and `o`.
pub fn setup_from(o: &CheckOptions, cfg_path: Option<&Path>) -> Result<Setup, String> {
    let cfg = match &cfg_path {
        Some(p) => ConfigFile::read(p)?,
        None => ConfigFile::default(),
    };
    let rules_dir = o.rules.clone().or_else(|| {
        cfg.rules_dir.as_ref().map(|d| match &cfg_path {
            Some(p) if d.is_relative() => p.parent().unwrap_or(p).join(d),
            _ => d.clone(),
        })
    });
    let mut rules = Rules::load(rules_dir.as_deref())?;
    let mut opts = Options::default();
    cfg.apply(&mut opts, &mut rules);
    let mut known = crate::checks::ids();
    known.extend(rules.docs.iter().map(|d| d.id.as_str()));
    let cfg_name = cfg_path.as_ref().map(|p| p.display().to_string());
    let named = o
        .enable
        .iter()
        .map(|r| (r.as_str(), "--enable".to_string()))
        .chain(
            o.disable
                .iter()
                .map(|r| (r.as_str(), "--disable".to_string())),
        )
        .chain(cfg.rule_names().into_iter().map(|(r, table)| {
            let file = cfg_name.clone().unwrap_or_default();
            (r, format!("{file}: {table}"))
        }));
    for (r, place) in named {
        if !known.contains(&r) {
            let hint = crate::rules::closest(r, known.iter().copied())
                .map(|s| format!("; did you mean {s}?"))
                .unwrap_or_default();
            return Err(format!(
                "{place}: unknown rule {r:?} (see `objlint rules`){hint}"
            ));
        }
    }
    if let Some(r) = o.enable.iter().find(|r| o.disable.contains(r)) {
        return Err(format!(
            "--enable and --disable both name {r:?}: say which one you mean"
        ));
    }
    if !o.enable.is_empty() {
        opts.only = Some(o.enable.iter().cloned().collect());
    }
    opts.disabled.extend(o.disable.iter().cloned());
    if o.ibt.is_some() {
        opts.ibt = o.ibt;
    }
    if let Some(m) = &o.mitigations {
        opts.mitigations = Some(Mitigations::parse(m).map_err(|e| format!("--mitigations: {e}"))?);
    }
    if o.frame_pointer.is_some() {
        opts.frame_pointer = o.frame_pointer;
    }
    if let Some(p) = &o.patchable {
        let (m, n) = p
            .split_once(',')
            .and_then(|(m, n)| Some((m.trim().parse().ok()?, n.trim().parse().ok()?)))
            .filter(|(m, n): &(u32, u32)| n <= m)
            .ok_or_else(|| format!("--patchable wants M,N with N <= M, not {p:?}"))?;
        opts.patchable = Some((m, n));
    }
    opts.link |= o.link;
    if o.profile.is_some() {
        opts.profile = o.profile;
    }
    if let Some(k) = &o.kernel {
        opts.kernel = Some(crate::rules::KernelVersion::parse(k).ok_or_else(|| {
            format!("--kernel wants a kernel version (6.1, 6.12.117), not {k:?}")
        })?);
    }
    // The flag can only turn it on: a config's `deny_warnings = false` does not win.
    opts.deny_warnings |= o.deny_warnings;
    opts.arch = o.arch;
    Ok((opts, rules))
}

/// A check run, ready to go: its inputs, the paths that could not be
/// walked, and the setup of each input.
pub struct Checking {
    pub inputs: Inputs,
    /// `(path, why)` of what could not be walked.
    pub walk_errors: Vec<(String, String)>,
    /// Setup 0 is the run's own.
    pub setups: Vec<Setup>,
    /// Per input, its index into `setups`.
    which: Vec<u32>,
}

/// Find the inputs under `paths` and the setup of each: with `config`, that
/// file for all; else each input's nearest `objlint.toml` above it (as ruff
/// and git find theirs), or the run's (`run_setup`, made by [`run_setup`]) when
/// there is none above it.
pub fn prepare(
    o: &CheckOptions,
    paths: &[PathBuf],
    run_setup: RunSetup,
) -> Result<Checking, String> {
    let (inputs, walk_errors) = input::expand(paths);
    let RunSetup { config: run, setup } = run_setup;
    let mut setups = vec![setup];
    let mut which = vec![0u32; inputs.len()];
    if o.config.is_none() {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut by_dir: std::collections::HashMap<PathBuf, Option<PathBuf>> = Default::default();
        let mut index: std::collections::HashMap<Option<PathBuf>, u32> =
            [(run.clone(), 0)].into_iter().collect();
        // Inputs come folder by folder: one lookup per folder as named.
        let mut last: Option<(PathBuf, u32)> = None;
        for (i, inp) in inputs.iter().enumerate() {
            let named = inp.path.parent().unwrap_or(Path::new(""));
            if let Some((p, k)) = &last
                && p == named
            {
                which[i] = *k;
                continue;
            }
            let dir = crate::paths::normalize(&cwd.join(&inp.path));
            let dir = dir.parent().unwrap_or(&dir).to_path_buf();
            let found = nearest_config(&dir, &mut by_dir).or_else(|| run.clone());
            which[i] = match index.get(&found) {
                Some(&k) => k,
                None => {
                    let k = u32::try_from(setups.len())
                        .map_err(|_| "more configuration files than one run can use")?;
                    setups.push(setup_from(o, found.as_deref())?);
                    index.insert(found, k);
                    k
                }
            };
            last = Some((named.to_path_buf(), which[i]));
        }
    }
    Ok(Checking {
        inputs,
        walk_errors,
        setups,
        which,
    })
}

/// `objlint.toml` in `dir` or the nearest folder above it, each folder
/// looked at once however many inputs share it (thousands of modules in a
/// few hundred folders).
fn nearest_config(
    dir: &Path,
    by_dir: &mut std::collections::HashMap<PathBuf, Option<PathBuf>>,
) -> Option<PathBuf> {
    if let Some(found) = by_dir.get(dir) {
        return found.clone();
    }
    let found =
        ConfigFile::in_dir(dir).or_else(|| dir.parent().and_then(|up| nearest_config(up, by_dir)));
    by_dir.insert(dir.to_path_buf(), found.clone());
    found
}

impl Checking {
    /// Check every input in parallel; `sink` gets each input's reports, with
    /// the setup they were checked under, in input order as they are done.
    /// `last`: what becomes of the last input's memory (the process exits
    /// after a command-line run).
    pub fn run(&self, last: engine::Teardown, sink: &mut dyn FnMut(&Setup, Vec<ObjectReport>)) {
        let setup = |i: usize| {
            let (o, r) = &self.setups[self.which[i] as usize];
            (r, o)
        };
        let mut next = 0;
        engine::check_inputs_streaming_with(&self.inputs, &setup, last, &mut |reports| {
            let s = &self.setups[self.which[next] as usize];
            next += 1;
            sink(s, reports);
        });
    }
}

/// Check one object file (all members of an archive) under `setup`: what
/// the language server does when an object is rebuilt.
pub fn check_object(path: &Path, setup: &Setup) -> Vec<ObjectReport> {
    let (opts, rules) = setup;
    engine::check_input(&Input::new(path.to_path_buf()), rules, opts)
}

/// What `stats` counts.
#[derive(Debug, Clone, Default)]
pub struct StatsOptions {
    pub paths: Vec<PathBuf>,
    /// Folder of rule files replacing the built-in ones.
    pub rules: Option<PathBuf>,
    /// The inputs are linked wholes.
    pub link: bool,
    /// Name every unneeded pad too.
    pub list: bool,
}

/// The stats of every object under the paths, in input order.
pub fn stats(o: &StatsOptions) -> Result<Vec<ObjectStats>, Failure> {
    let rules = Rules::load(o.rules.as_deref()).map_err(Failure::Usage)?;
    Ok(crate::stats::collect(&o.paths, &rules, o.link, o.list))
}

/// One object file, not an archive (`what`: why, for the error).
fn load_single(path: &Path, what: &str) -> Result<Loaded, Failure> {
    let l = input::load(path).map_err(|e| Failure::File(path.into(), e))?;
    if l.members.len() != 1 || l.members[0].0.is_some() {
        return Err(Failure::File(path.into(), what.into()));
    }
    Ok(l)
}

fn parse<'a>(path: &Path, l: &'a Loaded) -> Result<Object<'a>, Failure> {
    Object::parse(&l.bytes).map_err(|e| Failure::File(path.into(), e.to_string()))
}

/// The outcome of `symdiff`.
pub struct Symdiff {
    /// The findings, as a report on the object after.
    pub report: ObjectReport,
    /// A line per symbol only added (for `--verbose`).
    pub added: Vec<String>,
}

/// Compare the symbol tables of two versions of an object.
pub fn symdiff(before: &Path, after: &Path) -> Result<Symdiff, Failure> {
    const WHAT: &str = "symdiff compares single objects, not archives";
    let (lb, la) = (load_single(before, WHAT), load_single(after, WHAT));
    let (lb, la) = (lb?, la?);
    let b = parse(before, &lb)?;
    let a = parse(after, &la)?;
    if b.machine != a.machine {
        return Err(Failure::Usage(format!(
            "{} is {} but {} is {}",
            before.display(),
            b.machine,
            after.display(),
            a.machine
        )));
    }
    let d = crate::symdiff::diff(&b, &a, &Rules::builtin());
    let added = d
        .added
        .iter()
        .map(|&j| crate::symdiff::describe(&a, j))
        .collect();
    Ok(Symdiff {
        report: ObjectReport {
            file: after.display().to_string(),
            arch: Some(a.machine),
            functions: 0,
            findings: d.findings,
            error: None,
            section_offsets: engine::section_offsets(&a),
            ..Default::default()
        },
        added,
    })
}

/// What `seal` does.
#[derive(Debug, Clone)]
pub struct SealOptions {
    pub input: PathBuf,
    /// Where the sealed object goes (the input itself in place).
    pub output: PathBuf,
    pub in_place: bool,
    pub mode: SealMode,
    /// The input is a linked whole.
    pub link: bool,
    /// Kernel code or user space (default: as detected).
    pub profile: Option<Profile>,
    /// Folder of rule files replacing the built-in ones (`seal.toml` among them).
    pub rules: Option<PathBuf>,
}

/// Seal an object; the summary of what was done.
pub fn seal(o: &SealOptions) -> Result<String, Failure> {
    let rules = Rules::load(o.rules.as_deref()).map_err(Failure::Usage)?;
    crate::seal::seal_file(
        &o.input, &o.output, o.mode, o.link, o.in_place, o.profile, &rules,
    )
    .map_err(|e| Failure::File(o.input.clone(), e))
}

/// What `unwind` compares the computed table with.
#[derive(Debug, Clone)]
pub enum UnwindAgainst {
    /// Nothing: print the table.
    Nothing,
    /// The object's DWARF CFI.
    Cfi,
    /// The ORC table of this object.
    Orc(PathBuf),
}

/// What `unwind` does.
#[derive(Debug, Clone)]
pub struct UnwindOptions {
    pub file: PathBuf,
    pub rules: Option<PathBuf>,
    /// `--kernel`: the object's kernel version.
    pub kernel: Option<crate::rules::KernelVersion>,
    /// objtool's `--prefix=N`.
    pub prefix: Option<u64>,
    pub against: UnwindAgainst,
    /// Disagreements to keep as examples.
    pub examples: usize,
}

/// The outcome of `unwind`.
pub enum Unwound {
    /// The computed rows, `section+0xoff: entry`.
    Table(Vec<String>),
    Cfi {
        walked: usize,
        agreement: CfiAgreement,
    },
    Orc {
        walked: usize,
        unexpressible: usize,
        agreement: OrcAgreement,
    },
}

/// Compute an object's unwind table and compare it as asked.
pub fn unwind(o: &UnwindOptions) -> Result<Unwound, Failure> {
    use crate::unwind::{compare_cfi, compare_orc, computed_orc, reference_orc};
    const WHAT: &str = "unwind reads single objects, not archives";
    // A bad rules folder is reported before anything is read.
    let rules = Rules::load(o.rules.as_deref()).map_err(Failure::Usage)?;
    let loaded = load_single(&o.file, WHAT)?;
    let mut obj = parse(&o.file, &loaded)?;
    obj.mark_code_sections(rules.special.code_sections.get(obj.machine));
    let m = Model::build_then(&obj, &rules, o.kernel, &|| {});
    let computed = computed_orc(&m, &rules, &Options::default(), o.prefix);
    match &o.against {
        UnwindAgainst::Nothing => Ok(Unwound::Table(
            computed
                .rows
                .iter()
                .enumerate()
                .flat_map(|(sec, rows)| {
                    let obj = &obj;
                    rows.iter().map(move |(off, e)| {
                        format!("{}+{off:#x}: {}", obj.section_name(sec), e.text())
                    })
                })
                .collect(),
        )),
        UnwindAgainst::Cfi => {
            let mut all_paths = Rules::load(o.rules.as_deref()).map_err(Failure::Usage)?;
            all_paths.clear_replacement_only();
            Ok(Unwound::Cfi {
                walked: computed.walked,
                agreement: compare_cfi(&m, &computed.states, o.examples, &all_paths),
            })
        }
        UnwindAgainst::Orc(refpath) => {
            let rl = load_single(refpath, WHAT)?;
            let robj = parse(refpath, &rl)?;
            // The reference must hold the same code at the same section indexes.
            for s in obj.sections.iter().filter(|s| s.is_exec()) {
                let same = robj
                    .sections
                    .get(s.index)
                    .is_some_and(|r| r.name == s.name && r.size == s.size);
                if !same {
                    return Err(Failure::File(
                        refpath.clone(),
                        format!(
                            "section {} ({}) differs from {}",
                            s.index,
                            s.name,
                            o.file.display()
                        ),
                    ));
                }
            }
            let reference = reference_orc(&robj, &rules, m.kernel)
                .map_err(|e| Failure::File(refpath.clone(), e))?;
            Ok(Unwound::Orc {
                walked: computed.walked,
                unexpressible: computed.unexpressible,
                agreement: compare_orc(&m, &computed, &reference, o.examples),
            })
        }
    }
}
