//! Command-line arguments and dispatch. Exit status: 0 clean, 1 findings at
//! error level (or warning level under `--deny-warnings`), 2 unreadable input
//! or bad usage.

use crate::baseline::{self, Baseline};
use crate::config::{ConfigFile, Mitigations, Options};
use crate::elf::Machine;
use crate::engine;
use crate::input;
use crate::report::{self, Format};
use crate::rules::{Rules, Severity};
use crate::timing::{self, Phase};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "objlint",
    version,
    propagate_version = true,
    about = "Static validator for kernel ELF objects (x86-64, arm64)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Check objects (.o, .ko, .ko.xz, .ko.zst, .a, or directories of them).
    Check(CheckArgs),
    /// Compare the symbol tables of two versions of an object (before/after a rewrite).
    Symdiff(SymdiffArgs),
    /// Seal landing pads nobody needs (ENDBR64 / BTI c at functions never address-taken).
    Seal(SealArgs),
    /// Landing pads needed vs unneeded, patchable layouts, per object and in total.
    Stats(StatsArgs),
    /// The unwind table objlint computes (objtool's ORC), or how it agrees
    /// with a reference: the ORC an object carries or objtool wrote.
    Unwind(UnwindArgs),
    /// Language server on stdio.
    Lsp(LspArgs),
    /// Check the objects built from staged (or named) sources, found through
    /// compile_commands.json: the pre-commit hook.
    Precommit(PrecommitArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of objlint or of one subcommand.
    Man {
        /// Subcommand (e.g. `check` for objlint-check(1)).
        subcommand: Option<String>,
    },
    /// List the rules, or explain one.
    Rules {
        /// Show the full documentation of this rule.
        #[arg(long, value_name = "RULE", value_parser = RuleId { explain: true }, hide_possible_values = true)]
        explain: Option<String>,
        /// Every rule's documentation as one Markdown page (docs/RULES.md).
        #[arg(long, conflicts_with = "explain")]
        markdown: bool,
    },
}

/// A rule id on the command line: any text (unknown ids get objlint's own
/// error, with a suggestion), with the known ids as possible values so that
/// shell completion offers them.
#[derive(Clone, Copy)]
struct RuleId {
    /// `rules --explain` also knows symdiff's rule.
    explain: bool,
}

impl clap::builder::TypedValueParser for RuleId {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let mut ids = crate::checks::ids();
        if self.explain {
            ids.push("symtab-changed");
        }
        Some(Box::new(
            ids.into_iter().map(clap::builder::PossibleValue::new),
        ))
    }
}

#[derive(Args, Debug)]
pub struct SymdiffArgs {
    /// Output format (default: human on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Also list symbols that were only added.
    #[arg(long)]
    pub verbose: bool,
    /// The object before the rewrite.
    pub before: PathBuf,
    /// The object after it.
    pub after: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SealMode {
    /// Overwrite unneeded pads with NOPs of the same size.
    Nop,
    /// Keep the pads and list them in a seal section (`.ibt_endbr_seal`).
    Section,
}

#[derive(Args, Debug)]
pub struct SealArgs {
    /// How to seal: overwrite the pads with NOPs, or list them in a section.
    #[arg(long, value_enum)]
    pub mode: SealMode,
    /// Output file.
    #[arg(
        short,
        long,
        required_unless_present = "in_place",
        conflicts_with = "in_place"
    )]
    pub output: Option<PathBuf>,
    /// Replace the input (through a temporary file and rename).
    #[arg(long)]
    pub in_place: bool,
    /// The input is a linked whole: every function not referenced from data qualifies.
    #[arg(long)]
    pub link: bool,
    /// Seal as kernel code or user space (default: as detected from the
    /// object, rules/profile.toml). The kernel's policies (the seal section,
    /// `--link` keeping only exported functions' pads, the kernel's
    /// no-pad targets) hold for kernel code only.
    #[arg(long, value_enum)]
    pub profile: Option<crate::config::Profile>,
    /// The object to seal.
    pub input: PathBuf,
}

#[derive(Args, Debug)]
pub struct UnwindArgs {
    /// Output: short (one row per line, or a summary), json (one record).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Compare with the ORC table of this object (objtool's output for the
    /// same code, or FILE itself with --reference FILE).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// As objtool's `--prefix=N`: N bytes of NOPs before a function take
    /// its entry state.
    #[arg(long)]
    pub prefix: Option<u64>,
    /// Compare with the object's DWARF CFI (.eh_frame or .debug_frame)
    /// instead, at every instruction it covers.
    #[arg(long, conflicts_with = "reference")]
    pub cfi: bool,
    /// Disagreements to show.
    #[arg(long, default_value_t = 10)]
    pub examples: usize,
    /// Folder of rule files replacing the built-in ones.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The object to compute the table of.
    pub file: PathBuf,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Output format: human (table), short (one line per object), json (JSON Lines).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The inputs are linked wholes (vmlinux.o, final modules): global
    /// functions not referenced anywhere (exports count) are unneeded too.
    #[arg(long)]
    pub link: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Only the totals per architecture.
    #[arg(long)]
    pub summary: bool,
    /// List every unneeded pad (`file: function: kind`) instead of the counts.
    #[arg(long, conflicts_with = "summary")]
    pub list: bool,
    /// Folder of rule files replacing the built-in ones.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Objects or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub struct LspArgs {
    /// Build folder holding compile_commands.json (default: workspace root, then build/).
    #[arg(long)]
    pub build_dir: Option<PathBuf>,
    /// Config file (default: objlint.toml in the workspace root or above).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Look for rebuilt objects every 250 ms instead of through file-system
    /// notifications (for network file systems that send none).
    #[arg(long)]
    pub poll: bool,
}

#[derive(Args, Debug)]
pub struct PrecommitArgs {
    /// Build folder holding compile_commands.json (default: the repository
    /// root, then build/).
    #[arg(long)]
    pub build_dir: Option<PathBuf>,
    /// Sources to map to objects (default: those staged in git).
    pub sources: Vec<PathBuf>,
    /// Options for `objlint check`, after `--`.
    #[arg(last = true)]
    pub check: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArchArg {
    Auto,
    #[value(name = "x86_64")]
    X86_64,
    #[value(name = "aarch64")]
    Aarch64,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Output format (default: human on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Only check objects of this architecture.
    #[arg(long, value_enum, default_value = "auto")]
    pub arch: ArchArg,
    /// Run only these rules (comma separated; `objlint rules` lists them).
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = RuleId { explain: false }, hide_possible_values = true)]
    pub enable: Vec<String>,
    /// Do not run these rules (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = RuleId { explain: false }, hide_possible_values = true)]
    pub disable: Vec<String>,
    /// Config file (default: objlint.toml in this folder or above).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Folder of rule files replacing the built-in ones.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Treat objects as built with IBT/BTI.
    #[arg(long, conflicts_with = "no_ibt")]
    pub ibt: bool,
    /// Treat objects as built without IBT/BTI.
    #[arg(long = "no-ibt")]
    pub no_ibt: bool,
    /// Speculation mitigations the objects are built with, comma separated
    /// (retpoline, rethunk, sls, sls-blr; `none`); detected per object if absent.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub mitigations: Option<Vec<String>>,
    /// Treat objects as built with frame pointers (frame-pointer rule).
    #[arg(long, conflicts_with = "no_frame_pointer")]
    pub frame_pointer: bool,
    /// Treat objects as built without frame pointers.
    #[arg(long = "no-frame-pointer")]
    pub no_frame_pointer: bool,
    /// Expected -fpatchable-function-entry=M,N layout.
    #[arg(long, value_name = "M,N")]
    pub patchable: Option<String>,
    /// The input is a linked whole (vmlinux.o, a final module).
    #[arg(long)]
    pub link: bool,
    /// Kernel code or user space: the kernel-only rules (uaccess, noinstr,
    /// patchable entries, kCFI, CALL_OPS) run on kernel code only (default:
    /// detected per object).
    #[arg(long, value_enum, value_name = "PROFILE")]
    pub profile: Option<crate::config::Profile>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Report only findings not recorded in this baseline file.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Record the current findings as a baseline file.
    #[arg(long)]
    pub write_baseline: Option<PathBuf>,
    /// Exit 1 on findings at warning level too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Colour in human output: auto (on a terminal, unless NO_COLOR is set or
    /// TERM=dumb; CLICOLOR_FORCE forces it), always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: report::ColorWhen,
    /// No summary line on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print where the run spent its time and memory, per phase and rule, on
    /// stderr (thread time: with -j1 it adds up to the run).
    #[arg(long)]
    pub timings: bool,
    /// Objects or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
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

pub fn usage_error(msg: &str) -> i32 {
    eprintln!("objlint: error: {msg}");
    2
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    // The one-object subcommands under the guard `check` uses per object: a
    // bug (a panic) is one error and exit 2, not an abort.
    let guarded = |what: &str, f: &dyn Fn() -> i32| -> i32 {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| {
            eprintln!("objlint: internal error in {what} (a bug in objlint)");
            2
        })
    };
    match cli.cmd {
        Cmd::Check(a) => run_check(a),
        Cmd::Symdiff(a) => guarded("symdiff", &|| crate::symdiff::run(&a)),
        Cmd::Seal(a) => guarded("seal", &|| crate::seal::run(&a)),
        Cmd::Stats(a) => crate::stats::run(&a),
        Cmd::Unwind(a) => guarded("unwind", &|| crate::unwind::run(&a)),
        Cmd::Lsp(a) => crate::lsp::run(&a),
        Cmd::Precommit(a) => crate::precommit::run(&a),
        Cmd::Completions { shell } => {
            // Into a buffer: clap_complete panics on a write error (a closed pipe).
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "objlint", &mut buf);
            i32::from(std::io::stdout().write_all(&buf).is_err()) * 2
        }
        Cmd::Man { subcommand } => run_man(subcommand.as_deref()),
        Cmd::Rules { explain, markdown } => run_rules(explain, markdown),
    }
}

/// Options and rules from the config file (`--config`, else the
/// `objlint.toml` nearest above the working directory) and the command line.
pub fn setup(a: &CheckArgs) -> Result<(Options, Rules), String> {
    setup_from(a, run_config(a).as_deref())
}

/// The config file of the run as a whole: `--config`, else the one found
/// from the working directory up.
fn run_config(a: &CheckArgs) -> Option<PathBuf> {
    match &a.config {
        Some(p) => Some(p.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| ConfigFile::find(&d)),
    }
}

/// The options and rules objects are checked with.
type Setup = (Options, Rules);

/// The setups of a run and which one each input uses: with `--config`, that
/// file for all; else each input's nearest `objlint.toml` above it (as ruff
/// and git find theirs), or the run's when there is none above it. Setup 0
/// is the run's own.
fn setups_for(a: &CheckArgs, inputs: &[input::Input]) -> Result<(Vec<Setup>, Vec<usize>), String> {
    let run = run_config(a);
    let mut setups = vec![setup_from(a, run.as_deref())?];
    let mut which = vec![0; inputs.len()];
    if a.config.is_some() {
        return Ok((setups, which));
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut by_dir: std::collections::HashMap<PathBuf, Option<PathBuf>> = Default::default();
    let mut index: std::collections::HashMap<Option<PathBuf>, usize> =
        [(run.clone(), 0)].into_iter().collect();
    for (i, inp) in inputs.iter().enumerate() {
        let dir = crate::compdb::normalize(&cwd.join(&inp.path));
        let dir = dir.parent().unwrap_or(&dir).to_path_buf();
        let found = by_dir
            .entry(dir.clone())
            .or_insert_with(|| ConfigFile::find(&dir))
            .clone()
            .or_else(|| run.clone());
        which[i] = match index.get(&found) {
            Some(&k) => k,
            None => {
                setups.push(setup_from(a, found.as_deref())?);
                index.insert(found, setups.len() - 1);
                setups.len() - 1
            }
        };
    }
    Ok((setups, which))
}

/// Options and rules from the config file `cfg_path` (none: the defaults)
/// and the command line.
pub fn setup_from(
    a: &CheckArgs,
    cfg_path: Option<&std::path::Path>,
) -> Result<(Options, Rules), String> {
    let cfg = match &cfg_path {
        Some(p) => ConfigFile::read(p)?,
        None => ConfigFile::default(),
    };
    let rules_dir = a.rules.clone().or_else(|| {
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
    let named = a
        .enable
        .iter()
        .map(|r| (r.as_str(), "--enable".to_string()))
        .chain(
            a.disable
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
    if let Some(r) = a.enable.iter().find(|r| a.disable.contains(r)) {
        return Err(format!(
            "--enable and --disable both name {r:?}: say which one you mean"
        ));
    }
    if !a.enable.is_empty() {
        opts.only = Some(a.enable.iter().cloned().collect());
    }
    opts.disabled.extend(a.disable.iter().cloned());
    if a.ibt {
        opts.ibt = Some(true);
    }
    if a.no_ibt {
        opts.ibt = Some(false);
    }
    if let Some(m) = &a.mitigations {
        opts.mitigations = Some(Mitigations::parse(m).map_err(|e| format!("--mitigations: {e}"))?);
    }
    if a.frame_pointer {
        opts.frame_pointer = Some(true);
    }
    if a.no_frame_pointer {
        opts.frame_pointer = Some(false);
    }
    if let Some(p) = &a.patchable {
        let (m, n) = p
            .split_once(',')
            .and_then(|(m, n)| Some((m.trim().parse().ok()?, n.trim().parse().ok()?)))
            .filter(|(m, n): &(u32, u32)| n <= m)
            .ok_or_else(|| format!("--patchable wants M,N with N <= M, not {p:?}"))?;
        opts.patchable = Some((m, n));
    }
    opts.link |= a.link;
    if a.profile.is_some() {
        opts.profile = a.profile;
    }
    // The flag can only turn it on: a config's `deny_warnings = false` does not win.
    opts.deny_warnings |= a.deny_warnings;
    opts.arch = match a.arch {
        ArchArg::Auto => None,
        ArchArg::X86_64 => Some(Machine::X86_64),
        ArchArg::Aarch64 => Some(Machine::Aarch64),
    };
    Ok((opts, rules))
}

/// The man page of objlint, or of `objlint SUBCOMMAND` as objlint-SUBCOMMAND(1).
fn run_man(sub: Option<&str>) -> i32 {
    let top = Cli::command();
    let cmd = match sub {
        None => top,
        Some(s) => match top.find_subcommand(s) {
            Some(c) => {
                // clap names are 'static; this runs once per process.
                let name: &'static str = format!("objlint-{s}").leak();
                c.clone()
                    .name(name)
                    .bin_name(name)
                    .version(env!("CARGO_PKG_VERSION"))
            }
            None => return usage_error(&format!("no subcommand {s:?}")),
        },
    };
    let mut out = std::io::stdout().lock();
    match report::man::render(cmd, &mut out) {
        Ok(()) => 0,
        Err(e) => usage_error(&e.to_string()),
    }
}

/// Totals of a check run, counted as reports are emitted.
#[derive(Default)]
struct Tally {
    bad: usize,
    nfind: usize,
    nerr: usize,
    nwarn: usize,
    nfunc: usize,
    nobj: usize,
    incomplete: usize,
    /// Warnings under a setup with deny_warnings.
    denied: usize,
    ignored: usize,
}

impl Tally {
    fn emit(
        &mut self,
        r: &engine::ObjectReport,
        deny_warnings: bool,
        em: &mut dyn report::Emitter,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        self.ignored += r.ignored;
        if let Some(e) = &r.error {
            eprintln!("objlint: {}: {e}", r.file);
            self.bad += 1;
            // Formats that record failures (SARIF) see the report too.
            return timing::time(Phase::Output, || em.object(r, out));
        }
        self.nobj += 1;
        self.incomplete += usize::from(r.findings.iter().any(|f| f.cause.is_some()));
        self.nfunc += r.functions;
        self.nfind += r.findings.len();
        for f in &r.findings {
            match f.severity {
                Severity::Error => self.nerr += 1,
                Severity::Warning => {
                    self.nwarn += 1;
                    self.denied += usize::from(deny_warnings);
                }
                // A note never fails a run.
                _ => {}
            }
        }
        timing::time(Phase::Output, || em.object(r, out))
    }
}

pub(crate) fn run_check(a: CheckArgs) -> i32 {
    let t0 = Instant::now();
    // A bad config is an error before anything is read.
    if let Err(e) = setup(&a) {
        return usage_error(&e);
    }
    if let Err(e) = set_jobs(a.jobs) {
        return usage_error(&e);
    }
    if a.timings {
        timing::enable();
    }
    let baseline = match &a.baseline {
        Some(p) => match Baseline::read(p) {
            Ok(b) => Some((b, baseline::root_of(p))),
            Err(e) => return usage_error(&e),
        },
        None => None,
    };
    let (inputs, walk_errors) = input::expand(&a.paths);
    let (setups, which) = match setups_for(&a, &inputs) {
        Ok(x) => x,
        Err(e) => return usage_error(&e),
    };
    let (opts, rules) = &setups[0];
    let tty = std::io::stdout().is_terminal();
    let format = a
        .format
        .unwrap_or(if tty { Format::Human } else { Format::Short });
    let show_progress = report::progress::wanted(
        a.quiet,
        format,
        inputs.len(),
        std::io::stderr().is_terminal(),
    );
    let progress = report::progress::Progress::new(inputs.len(), show_progress);
    let color = report::use_color(a.color, tty);
    let docs = opts
        .rules_doc_url
        .clone()
        .or_else(report::default_rules_doc_url);
    let mut em = report::emitter_for(format, color, rules, docs.as_deref());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let mut filter = baseline
        .as_ref()
        .map(|(b, root)| baseline::Filter::new(b, root.clone()));
    // What a baseline to be written records: every finding, kept to the end.
    let mut recorded: Vec<(String, crate::checks::Finding)> = Vec::new();
    // Paths that could not be walked are reported like unreadable objects.
    for (file, e) in walk_errors {
        let r = engine::ObjectReport {
            file,
            error: Some(e),
            ..Default::default()
        };
        if tally.emit(&r, false, em.as_mut(), &mut out).is_err() {
            return 2;
        }
    }
    let mut failed = false;
    let mut next = 0;
    let setup = |i: usize| {
        let (o, r) = &setups[which[i]];
        (r, o)
    };
    engine::check_inputs_streaming_with(&inputs, &setup, &mut |reports| {
        progress.inc();
        let deny = setups[which[next]].0.deny_warnings;
        next += 1;
        for mut r in reports {
            if a.write_baseline.is_some() {
                recorded.extend(r.findings.iter().map(|f| (r.file.clone(), f.clone())));
            }
            if let Some(f) = filter.as_mut() {
                f.retain_new(&r.file, &mut r.findings);
            }
            // With a bar on the terminal, each object's output goes out
            // whole while the bar is off the screen.
            if failed {
                continue;
            }
            failed = progress
                .suspend(|| {
                    tally.emit(&r, deny, em.as_mut(), &mut out)?;
                    if show_progress { out.flush() } else { Ok(()) }
                })
                .is_err();
        }
    });
    progress.finish();
    if failed {
        return 2;
    }
    // Every report is an object or unreadable, and so is every unwalked path.
    if tally.nobj == 0 && tally.bad == 0 {
        let paths: Vec<String> = a.paths.iter().map(|p| p.display().to_string()).collect();
        eprintln!("objlint: no objects found in {}", paths.join(", "));
        return 2;
    }
    if let Some(p) = &a.write_baseline {
        let all = recorded.iter().map(|(file, f)| (file.as_str(), f));
        if let Err(e) = Baseline::record(all, baseline::root_of(p).as_deref()).write(p) {
            eprintln!("objlint: error: {e}");
            return 2;
        }
    }
    let baselined = filter.map_or(0, |f| f.suppressed);
    let Tally {
        bad,
        nfind,
        nerr,
        nfunc,
        nobj,
        incomplete,
        denied,
        ignored,
        ..
    } = tally;
    if em.finish(&mut out).is_err() || out.flush().is_err() {
        return 2;
    }
    drop(out);
    if !a.quiet {
        let mut base = if a.baseline.is_some() {
            format!(", {baselined} in the baseline")
        } else {
            String::new()
        };
        if ignored > 0 {
            base.push_str(&format!(", {ignored} ignored by the config"));
        }
        eprintln!(
            "objlint: {}, {}, {} ({}){base}, {incomplete} not fully checked, {bad} unreadable, {:.2}s",
            count(nobj, "object"),
            count(nfunc, "function"),
            count(nfind, "finding"),
            count(nerr, "error"),
            t0.elapsed().as_secs_f64()
        );
    }
    if a.timings {
        let ids = crate::checks::ids();
        let rows = timing::rows(ids.len());
        let _ = report::timings::write(
            &mut std::io::stderr().lock(),
            &rows,
            &ids,
            t0.elapsed().as_secs_f64(),
        );
    }
    if bad > 0 {
        2
    } else if (nerr > 0 || denied > 0) && a.write_baseline.is_none() {
        1
    } else {
        0
    }
}

/// `1 object`, `2 objects`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn run_rules(explain: Option<String>, markdown: bool) -> i32 {
    let rules = Rules::builtin();
    let mut out = std::io::stdout().lock();
    if markdown {
        let md = report::rules_md::markdown(&rules);
        return i32::from(out.write_all(md.as_bytes()).is_err()) * 2;
    }
    match explain {
        Some(id) => match rules.doc(&id) {
            Some(d) => {
                let _ = writeln!(
                    out,
                    "{} ({}; default {})\n\n{}\n\n## What it does\n{}\n## Why it matters\n{}\n## How to fix\n{}\n",
                    d.id,
                    d.arch.join(", "),
                    d.severity.name(),
                    d.summary,
                    d.what.trim_start(),
                    d.why.trim_start(),
                    d.fix.trim()
                );
                if !d.example.is_empty() {
                    let _ = writeln!(out, "## Example\n{}", d.example.trim_start_matches('\n'));
                }
                0
            }
            None => usage_error(&format!("unknown rule {id:?}")),
        },
        None => {
            for d in &rules.docs {
                let _ = writeln!(out, "{:<24} {:<16} {}", d.id, d.arch.join(","), d.summary);
            }
            0
        }
    }
}
