//! `objlint lsp`: language server on stdio.
//!
//! When a C or assembly source is opened or saved, the objects built from it
//! (found through `compile_commands.json`) are checked on a worker thread and
//! their findings published as diagnostics, at the source lines DWARF maps
//! them to. A poller re-checks an object when it changes on disk (a rebuild);
//! diagnostics that went away are cleared. The loop never waits for a check.

use crate::cli::{Cli, Cmd, LspArgs};
use crate::compdb::{CompDb, Unit, is_source};
use crate::config::{ConfigFile, Options};
use crate::engine::{self, ObjectReport};
use crate::input::Input;
use crate::report::lsp::{diagnostics, file_uri, uri_path};
use crate::rules::Rules;
use clap::Parser;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, LogMessage, Notification as _,
    PublishDiagnostics,
};
use lsp_types::{
    Diagnostic, InitializeParams, LogMessageParams, MessageType, PublishDiagnosticsParams,
    SaveOptions, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// How often objects are looked at for a rebuild.
const POLL: Duration = Duration::from_millis(250);

enum Event {
    Lsp(Message),
    /// The client went away without `exit`.
    Closed,
    /// A watched object changed on disk and has been stable for one poll.
    Changed(PathBuf),
    Checked(PathBuf, Vec<ObjectReport>),
}

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
    docs: Option<String>,
    db: Option<(PathBuf, Option<Stamp>, CompDb)>,
    objects: BTreeMap<PathBuf, Tracked>,
    jobs: Sender<PathBuf>,
    watched: Arc<Mutex<BTreeMap<PathBuf, Option<Stamp>>>>,
    shutdown: bool,
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
    let iopts = init.initialization_options.unwrap_or_default();
    let build_dir = iopts
        .get("buildDir")
        .and_then(|v| v.as_str())
        .map(PathBuf::from)
        .or_else(|| a.build_dir.clone());
    let docs = iopts
        .get("rulesDocUrl")
        .and_then(|v| v.as_str())
        .map(str::to_string)
        .or_else(default_docs);
    let (rules, opts) = match check_setup(&root, a.config.as_deref()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("objlint lsp: {e}");
            return 2;
        }
    };

    let (events, rx) = mpsc::channel();
    let (jobs, job_rx) = mpsc::channel();
    let watched = Arc::new(Mutex::new(BTreeMap::new()));
    spawn_forwarder(conn.receiver.clone(), events.clone());
    spawn_worker(job_rx, events.clone(), rules, opts);
    spawn_poller(watched.clone(), events);

    let mut s = Server {
        out: conn,
        root,
        build_dir,
        docs,
        db: None,
        objects: BTreeMap::new(),
        jobs,
        watched,
        shutdown: false,
    };
    let code = s.main_loop(&rx);
    drop(s);
    let _ = io.join();
    code
}

/// Rules and options as `objlint check` would use them in the workspace.
fn check_setup(root: &Path, config: Option<&Path>) -> Result<(Rules, Options), String> {
    let config = config
        .map(|c| root.join(c))
        .or_else(|| ConfigFile::find(root));
    let mut argv = vec!["objlint".into(), "check".into()];
    if let Some(c) = config {
        argv.push("--config".into());
        argv.push(c.into_os_string());
    }
    argv.push(".".into());
    let Ok(Cli {
        cmd: Cmd::Check(args),
    }) = Cli::try_parse_from(argv)
    else {
        return Err("cannot build check options".into());
    };
    let (opts, rules) = crate::cli::setup(&args)?;
    Ok((rules, opts))
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

/// The rule docs shipped with the sources this binary was built from.
fn default_docs() -> Option<String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/rules.toml");
    p.is_file()
        .then(|| file_uri(&p).as_str().to_string() + "#{rule}")
}

fn spawn_forwarder(from: impl IntoIterator<Item = Message> + Send + 'static, to: Sender<Event>) {
    std::thread::spawn(move || {
        for m in from {
            if to.send(Event::Lsp(m)).is_err() {
                return;
            }
        }
        let _ = to.send(Event::Closed);
    });
}

/// One worker: a check already uses every core (rayon) inside the engine.
fn spawn_worker(jobs: Receiver<PathBuf>, to: Sender<Event>, rules: Rules, opts: Options) {
    std::thread::spawn(move || {
        for obj in jobs {
            let reports = engine::check_input(&Input::new(obj.clone()), &rules, &opts);
            if to.send(Event::Checked(obj, reports)).is_err() {
                return;
            }
        }
    });
}

/// Reports objects whose (mtime, size) changed and then held for one poll,
/// so a check does not read a half-written object.
fn spawn_poller(watched: Arc<Mutex<BTreeMap<PathBuf, Option<Stamp>>>>, to: Sender<Event>) {
    std::thread::spawn(move || {
        let mut last: BTreeMap<PathBuf, Option<Stamp>> = BTreeMap::new();
        loop {
            std::thread::sleep(POLL);
            let paths: Vec<(PathBuf, Option<Stamp>)> = watched
                .lock()
                .unwrap()
                .iter()
                .map(|(p, s)| (p.clone(), *s))
                .collect();
            last.retain(|p, _| paths.iter().any(|(q, _)| q == p));
            for (p, seen) in paths {
                let now = stamp(&p);
                let prev = last.insert(p.clone(), now);
                if now != seen && prev == Some(now) && now.is_some() {
                    if let Some(s) = watched.lock().unwrap().get_mut(&p) {
                        *s = now;
                    }
                    if to.send(Event::Changed(p)).is_err() {
                        return;
                    }
                }
            }
        }
    });
}

impl Server {
    fn main_loop(&mut self, rx: &Receiver<Event>) -> i32 {
        for ev in rx {
            match ev {
                Event::Lsp(Message::Request(r)) => {
                    if !self.request(r) {
                        return 1;
                    }
                }
                Event::Lsp(Message::Notification(n)) => {
                    if n.method == "exit" {
                        return if self.shutdown { 0 } else { 1 };
                    }
                    self.notification(n);
                }
                Event::Lsp(Message::Response(_)) => {}
                Event::Closed => return 1,
                Event::Changed(obj) => self.queue(&obj),
                Event::Checked(obj, reports) => self.checked(obj, reports),
            }
        }
        1
    }

    /// Answers a request; false when the client is gone.
    fn request(&mut self, r: Request) -> bool {
        let resp = if r.method == "shutdown" {
            self.shutdown = true;
            Response::new_ok(r.id, ())
        } else {
            Response::new_err(
                r.id,
                ErrorCode::MethodNotFound as i32,
                format!("objlint does not handle {}", r.method),
            )
        };
        self.out.sender.send(resp.into()).is_ok()
    }

    fn notification(&mut self, n: Notification) {
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD
            | DidSaveTextDocument::METHOD
            | DidCloseTextDocument::METHOD => n
                .params
                .get("textDocument")
                .and_then(|d| d.get("uri"))
                .and_then(|u| serde_json::from_value(u.clone()).ok()),
            _ => return,
        };
        let Some(path) = uri.as_ref().and_then(uri_path) else {
            return;
        };
        if !is_source(&path) {
            return;
        }
        if n.method == DidCloseTextDocument::METHOD {
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
            *s = stamp(obj);
        }
        t.running = true;
        let _ = self.jobs.send(obj.to_path_buf());
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
            self.notify(PublishDiagnostics::METHOD, p);
        }
    }

    fn log(&self, typ: MessageType, message: String) {
        self.notify(LogMessage::METHOD, LogMessageParams { typ, message });
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        let n = Notification::new(method.to_string(), params);
        let _ = self.out.sender.send(n.into());
    }
}
