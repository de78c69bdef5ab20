//! `objlint lsp`: language server on stdio.
//!
//! When a C or assembly source is opened or saved, the objects built from it
//! (found through `compile_commands.json`) are checked on a worker thread and
//! their findings published as diagnostics, at the source lines DWARF maps
//! them to. An object is checked again when it changes on disk (a rebuild),
//! seen through file-system notifications (the `notify` crate: inotify,
//! FSEvents, ...) on the folders of the objects and the config, or by
//! polling where those cannot be had (`--poll`, or a folder that cannot be
//! watched); diagnostics that went away are cleared. The loop never waits for a check.
//! A source saved since its object was built gets a notice instead of stale
//! ranges. A finding that a config entry settles (a noreturn or uaccess-safe
//! name) comes with a code action that adds it to `objlint.toml`; the server
//! re-reads the file when it changes and checks again.

use crate::compdb::{CompDb, Unit, is_source};
use crate::config::ConfigFile;
use crate::driver::CheckOptions;
use crate::engine::ObjectReport;
use crate::report::lsp::{diagnostics, file_uri, uri_path};
use clap::Args;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, LogMessage, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CreateFile, Diagnostic, DiagnosticSeverity,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    DocumentChangeOperation, DocumentChanges, InitializeParams, LogMessageParams, MessageType,
    OneOf, OptionalVersionedTextDocumentIdentifier, Position, PublishDiagnosticsParams, Range,
    ResourceOp, SaveOptions, ServerCapabilities, TextDocumentEdit, TextDocumentSyncCapability,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit, WorkspaceEdit,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// How often objects are looked at for a rebuild without notifications,
/// and after a change was seen, until it holds.
const POLL: Duration = Duration::from_millis(250);
/// With notifications: a look anyway this often, in case one was missed.
const IDLE: Duration = Duration::from_secs(60);

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

/// What `initializationOptions` may say.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitOptions {
    /// Where compile_commands.json is, over `--build-dir`.
    build_dir: Option<PathBuf>,
    /// The rule documentation link (`{rule}` for the id), over the
    /// config's `rules_doc_url`.
    rules_doc_url: Option<String>,
}

enum Event {
    Lsp(Message),
    /// The client went away without `exit`.
    Closed,
    /// A watched object changed on disk and has been stable for one poll.
    Changed(PathBuf),
    Checked(PathBuf, Vec<ObjectReport>),
}

/// What objects are checked with: `objlint check`'s rules and options.
type Setup = Arc<crate::driver::Setup>;

/// What identifies a version of a file on disk.
type Stamp = (SystemTime, u64);

fn stamp(p: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(p).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// An object some open source is built into.
#[derive(Default)]
struct Tracked {
    /// Open sources (units) it is built from.
    units: Vec<Unit>,
    /// Diagnostics last published for it, per file.
    diags: BTreeMap<PathBuf, Vec<Diagnostic>>,
    /// A check is running.
    running: bool,
    /// Check again when the running one is done.
    again: bool,
}

struct Server {
    out: Connection,
    root: PathBuf,
    build_dir: Option<PathBuf>,
    /// `--config`, as given.
    config_arg: Option<PathBuf>,
    /// The config file code actions edit and the server watches: the one in
    /// use, else `objlint.toml` in the workspace root.
    config: PathBuf,
    /// `rulesDocUrl` from the client, over the config's `rules_doc_url`.
    docs_override: Option<String>,
    docs: Option<String>,
    setup: Setup,
    db: Option<(PathBuf, Option<Stamp>, CompDb)>,
    objects: BTreeMap<PathBuf, Tracked>,
    jobs: Sender<(PathBuf, Setup)>,
    watched: Arc<Mutex<BTreeMap<PathBuf, Option<Stamp>>>>,
    /// Tells the watcher that `watched` has new files (folders to watch).
    poke: Sender<()>,
}

pub fn run(a: &LspArgs) -> i32 {
    let (conn, io) = Connection::stdio();
    let caps = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..Default::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    };
    let params = match conn.initialize(serde_json::to_value(caps).expect("capabilities")) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("objlint lsp: {e}");
            return 2;
        }
    };
    let init: InitializeParams = match serde_json::from_value(params) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("objlint lsp: bad initialize params: {e}");
            return 2;
        }
    };
    let root = workspace_root(&init);
    let (iopts, iopts_error) = match init.initialization_options.clone() {
        None | Some(serde_json::Value::Null) => (InitOptions::default(), None),
        Some(v) => match serde_json::from_value::<InitOptions>(v) {
            Ok(o) => (o, None),
            Err(e) => (
                InitOptions::default(),
                Some(format!("initializationOptions ignored: {e}")),
            ),
        },
    };
    let build_dir = iopts.build_dir.or_else(|| a.build_dir.clone());
    let mut docs_error = None;
    let docs_override = iopts.rules_doc_url.filter(|u| {
        let ok = crate::report::is_doc_url(u);
        if !ok {
            docs_error = Some(format!(
                "rulesDocUrl {u:?} ignored: not an absolute URL (scheme:..., no spaces)"
            ));
        }
        ok
    });
    let config = config_path(&root, a.config.as_deref());
    let setup = match check_setup(&root, a.config.as_deref()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("objlint lsp: {e}");
            return 2;
        }
    };

    let (events, rx) = mpsc::channel();
    let (jobs, job_rx) = mpsc::channel();
    let config = config.unwrap_or_else(|| root.join("objlint.toml"));
    let watched = Arc::new(Mutex::new(BTreeMap::from([(
        config.clone(),
        stamp(&config),
    )])));
    spawn_forwarder(conn.receiver.clone(), events.clone());
    spawn_worker(job_rx, events.clone());
    let (poke, poked) = mpsc::channel();
    let how = spawn_watcher(watched.clone(), events, poke.clone(), poked, a.poll);

    let mut s = Server {
        out: conn,
        root,
        build_dir,
        config_arg: a.config.clone(),
        config,
        docs_override,
        docs: None,
        setup: Arc::new(setup),
        db: None,
        objects: BTreeMap::new(),
        jobs,
        watched,
        poke,
    };
    s.docs = s.docs_url();
    s.log(
        MessageType::INFO,
        format!("objlint lsp: rebuilds seen by {how}"),
    );
    for e in [iopts_error, docs_error].into_iter().flatten() {
        s.log(MessageType::WARNING, e);
    }
    let code = s.main_loop(&rx);
    drop(s);
    let _ = io.join();
    code
}

/// The config file in use: `--config` (relative to the root), else the
/// `objlint.toml` in the root or above.
fn config_path(root: &Path, config: Option<&Path>) -> Option<PathBuf> {
    config
        .map(|c| root.join(c))
        .or_else(|| ConfigFile::find(root))
}

/// Rules and options as `objlint check` would use them in the workspace.
fn check_setup(root: &Path, config: Option<&Path>) -> Result<crate::driver::Setup, String> {
    crate::driver::setup(&CheckOptions {
        config: config_path(root, config),
        ..Default::default()
    })
}

fn workspace_root(init: &InitializeParams) -> PathBuf {
    #[allow(deprecated)]
    let from_init = init
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .and_then(|f| uri_path(&f.uri))
        .or_else(|| init.root_uri.as_ref().and_then(uri_path))
        .or_else(|| init.root_path.as_ref().map(PathBuf::from));
    from_init
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// Forwards the client's messages until it goes away, or until a shutdown
/// request: then the main loop reads the exit itself (`handle_shutdown`).
fn spawn_forwarder(from: impl IntoIterator<Item = Message> + Send + 'static, to: Sender<Event>) {
    std::thread::spawn(move || {
        for m in from {
            let last = matches!(&m, Message::Request(r) if r.method == "shutdown");
            if to.send(Event::Lsp(m)).is_err() || last {
                return;
            }
        }
        let _ = to.send(Event::Closed);
    });
}

/// One worker: a check already uses every core (rayon) inside the engine.
fn spawn_worker(jobs: Receiver<(PathBuf, Setup)>, to: Sender<Event>) {
    std::thread::spawn(move || {
        for (obj, setup) in jobs {
            let reports = crate::driver::check_object(&obj, &setup);
            if to.send(Event::Checked(obj, reports)).is_err() {
                return;
            }
        }
    });
}

/// How long the watcher waits for a notification before it looks at the
/// files anyway: [`IDLE`] when notifications cover every watched folder and
/// no change is waiting to hold, else [`POLL`].
fn next_look(notified: bool, pending: bool) -> Duration {
    if notified && !pending { IDLE } else { POLL }
}

/// Reports watched files whose (mtime, size) changed and then held for one
/// look, so a check does not read a half-written object. The files are
/// looked at when a notification says something changed in their folders
/// (or `poke` says there are new files), else every [`POLL`] when
/// notifications cannot be had (`poll`, or no watcher, or a folder that
/// cannot be watched, e.g. one not made yet: it is tried again). Returns how
/// it watches, in words.
fn spawn_watcher(
    watched: Arc<Mutex<BTreeMap<PathBuf, Option<Stamp>>>>,
    to: Sender<Event>,
    poke: Sender<()>,
    poked: Receiver<()>,
    poll: bool,
) -> &'static str {
    use notify::Watcher as _;
    let mut watcher = if poll {
        None
    } else {
        let wake = poke.clone();
        notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
            if r.is_ok() {
                let _ = wake.send(());
            }
        })
        .ok()
    };
    let how = if watcher.is_some() {
        "file-system notifications"
    } else {
        "polling"
    };
    std::thread::spawn(move || {
        // Keeps the channel open when there is no watcher.
        let _poke = poke;
        // Folders of watched files: whether notifications come from them.
        let mut dirs: BTreeMap<PathBuf, bool> = BTreeMap::new();
        let mut last: BTreeMap<PathBuf, Option<Stamp>> = BTreeMap::new();
        loop {
            let paths: Vec<(PathBuf, Option<Stamp>)> = watched
                .lock()
                .unwrap()
                .iter()
                .map(|(p, s)| (p.clone(), *s))
                .collect();
            if let Some(w) = watcher.as_mut() {
                let want: BTreeSet<PathBuf> = paths
                    .iter()
                    .filter_map(|(p, _)| p.parent().map(Path::to_path_buf))
                    .collect();
                dirs.retain(|d, ok| {
                    let keep = want.contains(d);
                    if !keep && *ok {
                        let _ = w.unwatch(d);
                    }
                    keep
                });
                for d in want {
                    if !dirs.get(&d).copied().unwrap_or(false) {
                        let ok = w.watch(&d, notify::RecursiveMode::NonRecursive).is_ok();
                        dirs.insert(d, ok);
                    }
                }
            }
            let notified = watcher.is_some() && dirs.values().all(|ok| *ok);
            last.retain(|p, _| paths.iter().any(|(q, _)| q == p));
            let mut pending = false;
            for (p, seen) in paths {
                let now = stamp(&p);
                let prev = last.insert(p.clone(), now);
                if now == seen || now.is_none() {
                    continue;
                }
                if prev == Some(now) {
                    if let Some(s) = watched.lock().unwrap().get_mut(&p) {
                        *s = now;
                    }
                    if to.send(Event::Changed(p)).is_err() {
                        return;
                    }
                } else {
                    pending = true;
                }
            }
            match poked.recv_timeout(next_look(notified, pending)) {
                // Whatever else came in the meantime is seen by this look.
                Ok(()) => while poked.try_recv().is_ok() {},
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
    });
    how
}

impl Server {
    fn main_loop(&mut self, rx: &Receiver<Event>) -> i32 {
        for ev in rx {
            match ev {
                Event::Lsp(Message::Request(r)) => match self.out.handle_shutdown(&r) {
                    Ok(true) => return 0,
                    Ok(false) => {
                        if !self.request(r) {
                            return 1;
                        }
                    }
                    Err(e) => {
                        eprintln!("objlint lsp: {e}");
                        return 1;
                    }
                },
                // `exit` without `shutdown` first.
                Event::Lsp(Message::Notification(n)) if n.method == "exit" => return 1,
                Event::Lsp(Message::Notification(n)) => self.notification(n),
                Event::Lsp(Message::Response(_)) => {}
                Event::Closed => return 1,
                Event::Changed(p) if p == self.config => self.reload(),
                Event::Changed(obj) => self.queue(&obj),
                Event::Checked(obj, reports) => self.checked(obj, reports),
            }
        }
        1
    }

    /// The rule documentation link: the client's, else the config's, else
    /// the built-in default.
    fn docs_url(&self) -> Option<String> {
        self.docs_override
            .clone()
            .or_else(|| self.setup.0.rules_doc_url.clone())
            .or_else(crate::report::default_rules_doc_url)
    }

    /// The config file changed: read it again and check every object anew.
    fn reload(&mut self) {
        match check_setup(&self.root, self.config_arg.as_deref()) {
            Ok(s) => {
                self.setup = Arc::new(s);
                self.docs = self.docs_url();
                let objs: Vec<PathBuf> = self.objects.keys().cloned().collect();
                for o in objs {
                    self.queue(&o);
                }
            }
            Err(e) => self.log(MessageType::ERROR, e),
        }
    }

    /// Answers a request; false when the client is gone.
    fn request(&mut self, r: Request) -> bool {
        let id = r.id.clone();
        let resp = match r.extract::<CodeActionParams>(CodeActionRequest::METHOD) {
            Ok((id, p)) => Response::new_ok(id, self.code_actions(&p)),
            Err(lsp_server::ExtractError::JsonError { error, .. }) => {
                Response::new_err(id, ErrorCode::InvalidParams as i32, error.to_string())
            }
            Err(lsp_server::ExtractError::MethodMismatch(r)) => Response::new_err(
                r.id,
                ErrorCode::MethodNotFound as i32,
                format!("objlint does not handle {}", r.method),
            ),
        };
        self.out.sender.send(resp.into()).is_ok()
    }

    /// The fixes of the diagnostics published for the document within the
    /// range: each adds a name to a list in the config file.
    fn code_actions(&self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let Some(path) = uri_path(&p.text_document.uri) else {
            return Vec::new();
        };
        let overlaps = |r: &Range| r.start <= p.range.end && p.range.start <= r.end;
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for d in self
            .objects
            .values()
            .filter_map(|t| t.diags.get(&path))
            .flatten()
            .filter(|d| overlaps(&d.range))
        {
            let fix = d.data.as_ref().and_then(|v| v.get("fix"));
            let (Some(key), Some(name)) = (
                fix.and_then(|f| f["key"].as_str()),
                fix.and_then(|f| f["name"].as_str()),
            ) else {
                continue;
            };
            if !seen.insert((key.to_string(), name.to_string())) {
                continue;
            }
            match self.config_edit(key, name) {
                Ok(edit) => out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!(
                        "Add \"{name}\" to `{key}` in {}",
                        self.config
                            .file_name()
                            .map_or("objlint.toml".into(), |n| n.to_string_lossy())
                    ),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    edit: Some(edit),
                    is_preferred: Some(true),
                    ..Default::default()
                })),
                Err(e) => self.log(
                    MessageType::ERROR,
                    format!("{}: {e}", self.config.display()),
                ),
            }
        }
        out
    }

    /// The edit that adds `name` to the list `key` of the config file:
    /// the whole text replaced, or the file created.
    fn config_edit(&self, key: &str, name: &str) -> Result<WorkspaceEdit, String> {
        let uri = file_uri(&self.config);
        let old = match std::fs::read_to_string(&self.config) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e.to_string()),
        };
        let new = crate::config::with_name_added(old.as_deref().unwrap_or(""), key, name)?;
        let Some(old) = old else {
            let create = DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                uri: uri.clone(),
                options: None,
                annotation_id: None,
            }));
            let fill = DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                edits: vec![OneOf::Left(TextEdit::new(Range::default(), new))],
            });
            return Ok(WorkspaceEdit {
                document_changes: Some(DocumentChanges::Operations(vec![create, fill])),
                ..Default::default()
            });
        };
        // The end of the text, in UTF-16 units on its last line.
        let last = old.rsplit('\n').next().unwrap_or("");
        let end = Position::new(
            old.matches('\n').count() as u32,
            last.encode_utf16().count() as u32,
        );
        let edit = TextEdit::new(Range::new(Position::new(0, 0), end), new);
        Ok(WorkspaceEdit {
            changes: Some([(uri, vec![edit])].into_iter().collect()),
            ..Default::default()
        })
    }

    fn notification(&mut self, n: Notification) {
        let method = n.method.clone();
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD => n
                .extract::<DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                .map(|p| p.text_document.uri),
            DidSaveTextDocument::METHOD => n
                .extract::<DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD)
                .map(|p| p.text_document.uri),
            DidCloseTextDocument::METHOD => n
                .extract::<DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                .map(|p| p.text_document.uri),
            _ => return,
        };
        let uri = match uri {
            Ok(u) => u,
            Err(e) => {
                self.log(MessageType::ERROR, format!("bad notification: {e}"));
                return;
            }
        };
        let Some(path) = uri_path(&uri) else {
            return;
        };
        if !is_source(&path) {
            return;
        }
        if method == DidCloseTextDocument::METHOD {
            self.close(&path);
        } else {
            self.track(&path);
        }
    }

    /// The compile database, re-read when it changed on disk.
    fn db(&mut self) -> Option<&CompDb> {
        let Some(path) = CompDb::locate(&self.root, self.build_dir.as_deref()) else {
            if self.db.is_some() {
                self.db = None;
            }
            return None;
        };
        let st = stamp(&path);
        let stale = !matches!(&self.db, Some((p, s, _)) if *p == path && *s == st);
        if stale {
            match CompDb::read(&path) {
                Ok(db) => self.db = Some((path, st, db)),
                Err(e) => {
                    self.log(MessageType::ERROR, e);
                    self.db = None;
                }
            }
        }
        self.db.as_ref().map(|(_, _, d)| d)
    }

    /// Check (again) the objects built from `source`.
    fn track(&mut self, source: &Path) {
        let root = self.root.clone();
        let units: Vec<Unit> = match self.db() {
            Some(db) => db.units_for(source).cloned().collect(),
            None => {
                self.log(
                    MessageType::WARNING,
                    format!(
                        "no compile_commands.json in {} or its build/",
                        root.display()
                    ),
                );
                return;
            }
        };
        if units.is_empty() {
            if source.extension().is_some_and(|e| e != "h") {
                self.log(
                    MessageType::INFO,
                    format!("{}: not in compile_commands.json", source.display()),
                );
            }
            return;
        }
        for u in units {
            let obj = u.object.clone();
            let t = self.objects.entry(obj.clone()).or_default();
            if !t.units.contains(&u) {
                t.units.push(u);
            }
            self.watched
                .lock()
                .unwrap()
                .entry(obj.clone())
                .or_insert(None);
            let _ = self.poke.send(());
            self.queue(&obj);
        }
    }

    fn close(&mut self, source: &Path) {
        let mut gone = Vec::new();
        for (obj, t) in &mut self.objects {
            t.units.retain(|u| u.source != source);
            if t.units.is_empty() {
                gone.push(obj.clone());
            }
        }
        for obj in gone {
            self.watched.lock().unwrap().remove(&obj);
            if let Some(t) = self.objects.remove(&obj) {
                let files: Vec<PathBuf> = t.diags.into_keys().collect();
                self.publish(files);
            }
        }
    }

    fn queue(&mut self, obj: &Path) {
        let Some(t) = self.objects.get_mut(obj) else {
            return;
        };
        if t.running {
            t.again = true;
            return;
        }
        if !obj.is_file() {
            self.log(
                MessageType::INFO,
                format!("{}: not built yet; checking when it appears", obj.display()),
            );
            return;
        }
        if let Some(s) = self.watched.lock().unwrap().get_mut(obj) {
            // A check, or the notice below, is for this version: the poller
            // reports the next one (a rebuild).
            *s = stamp(obj);
        }
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let built = modified(obj);
        let newer = t
            .units
            .iter()
            .find(|u| built.is_some() && modified(&u.source) > built)
            .map(|u| u.source.clone());
        if let Some(src) = newer {
            // Its line numbers may have moved: say so instead of stale ranges.
            let name = |p: &Path| {
                p.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            };
            let notice = Diagnostic {
                range: Range::default(),
                severity: Some(DiagnosticSeverity::INFORMATION),
                source: Some("objlint".into()),
                message: format!(
                    "{} is older than {}: the source changed since the object was built; objlint checks it again when it is rebuilt",
                    name(obj),
                    name(&src)
                ),
                ..Default::default()
            };
            let mut files: BTreeSet<PathBuf> = t.diags.keys().cloned().collect();
            files.insert(src.clone());
            t.diags = BTreeMap::from([(src, vec![notice])]);
            self.publish(files);
            return;
        }
        t.running = true;
        let _ = self.jobs.send((obj.to_path_buf(), self.setup.clone()));
    }

    fn checked(&mut self, obj: PathBuf, reports: Vec<ObjectReport>) {
        let Some(t) = self.objects.get_mut(&obj) else {
            return;
        };
        t.running = false;
        let mut errors = Vec::new();
        let mut fresh: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        for u in &t.units {
            fresh.entry(u.source.clone()).or_default();
        }
        for r in &reports {
            if let Some(e) = &r.error {
                errors.push(format!("{}: {e}", r.file));
                continue;
            }
            // One object per unit; the first unit names the translation unit.
            if let Some(u) = t.units.first() {
                for (p, d) in diagnostics(r, u, self.docs.as_deref()) {
                    fresh.entry(p).or_default().extend(d);
                }
            }
        }
        let again = std::mem::take(&mut t.again);
        let mut files: BTreeSet<PathBuf> = t.diags.keys().cloned().collect();
        if errors.is_empty() {
            files.extend(fresh.keys().cloned());
            t.diags = fresh;
        }
        for e in errors {
            self.log(MessageType::ERROR, e);
        }
        self.publish(files);
        if again {
            self.queue(&obj);
        }
    }

    /// Publish the union of every tracked object's diagnostics for `files`
    /// (an empty list clears a file).
    fn publish(&self, files: impl IntoIterator<Item = PathBuf>) {
        for f in files {
            let diagnostics: Vec<Diagnostic> = self
                .objects
                .values()
                .filter_map(|t| t.diags.get(&f))
                .flatten()
                .cloned()
                .collect();
            let p = PublishDiagnosticsParams {
                uri: file_uri(&f),
                diagnostics,
                version: None,
            };
            self.notify::<PublishDiagnostics>(p);
        }
    }

    fn log(&self, typ: MessageType, message: String) {
        self.notify::<LogMessage>(LogMessageParams { typ, message });
    }

    /// Sends notification `N` with its own params type.
    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let n = Notification::new(N::METHOD.to_string(), params);
        let _ = self.out.sender.send(n.into());
    }
}

#[cfg(test)]
mod tests {
    use super::{IDLE, InitOptions, POLL, next_look};

    #[test]
    fn looks_often_only_without_notifications_or_while_a_change_settles() {
        assert_eq!(next_look(true, false), IDLE);
        assert_eq!(next_look(true, true), POLL);
        assert_eq!(next_look(false, false), POLL);
        assert_eq!(next_look(false, true), POLL);
    }

    #[test]
    fn initialization_options_are_typed() {
        let o: InitOptions = serde_json::from_value(serde_json::json!({
            "buildDir": "out", "rulesDocUrl": "https://d/R.md#{rule}", "other": 1
        }))
        .unwrap();
        assert_eq!(o.build_dir.as_deref(), Some(std::path::Path::new("out")));
        assert_eq!(o.rules_doc_url.as_deref(), Some("https://d/R.md#{rule}"));
        assert!(serde_json::from_value::<InitOptions>(serde_json::json!({"buildDir": 3})).is_err());
    }
}
