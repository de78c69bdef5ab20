//! `objlint lsp` over real stdio: JSON-RPC with Content-Length framing, as an
//! editor speaks it. The workspace is a temporary copy of testdata/lsp with a
//! compile_commands.json naming the object built from driver.c.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/lsp");

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start(root: &Path) -> Client {
        Client::start_with(root, &[])
    }

    /// `objlint lsp ARGS...`.
    fn start_with(root: &Path, args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_objlint"))
            .arg("lsp")
            .args(args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn objlint lsp");
        let stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if out.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("Content-Length header")];
                out.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            rx,
            next_id: 1,
        }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id)
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message matching `want`, skipping others (log messages).
    fn wait(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .rx
                .recv_timeout(left)
                .expect("no expected message from the server within 30s");
            if want(&m) {
                return m;
            }
        }
    }

    /// Diagnostics published until every file in `files` was published once
    /// after this call; returns the last list per file.
    fn diagnostics(&mut self, files: &[&Path]) -> Vec<(PathBuf, Vec<Value>)> {
        let mut got: Vec<(PathBuf, Vec<Value>)> = Vec::new();
        while files.iter().any(|f| !got.iter().any(|(g, _)| g == f)) {
            let m = self.wait(|m| m["method"] == "textDocument/publishDiagnostics");
            let uri = m["params"]["uri"].as_str().unwrap();
            let path = PathBuf::from(uri.strip_prefix("file://").expect("file URI"));
            let list = m["params"]["diagnostics"].as_array().unwrap().clone();
            got.retain(|(p, _)| *p != path);
            got.push((path, list));
        }
        // The rest of the same check's burst (other files, e.g. headers).
        while let Ok(m) = self.rx.recv_timeout(Duration::from_millis(500)) {
            if m["method"] == "textDocument/publishDiagnostics" {
                let uri = m["params"]["uri"].as_str().unwrap();
                let path = PathBuf::from(uri.strip_prefix("file://").expect("file URI"));
                let list = m["params"]["diagnostics"].as_array().unwrap().clone();
                got.retain(|(p, _)| *p != path);
                got.push((path, list));
            }
        }
        got.sort_by(|a, b| a.0.cmp(&b.0));
        got
    }

    fn stop(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "shutdown failed: {r}");
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                assert!(st.success(), "objlint lsp exited with {st}");
                return;
            }
            assert!(Instant::now() < deadline, "objlint lsp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// A workspace: sources at the root, the object in obj/ (out of tree, as
/// kbuild's O= does), compile_commands.json in build/.
fn workspace() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir_all(root.join("inc")).unwrap();
    std::fs::create_dir_all(root.join("obj")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    for f in ["driver.c", "inc/fatal.h"] {
        std::fs::copy(Path::new(FIXTURES).join(f), root.join(f)).unwrap();
    }
    std::fs::copy(
        Path::new(FIXTURES).join("driver.o"),
        root.join("obj/driver.o"),
    )
    .unwrap();
    let db = json!([{
        "directory": root,
        "file": "driver.c",
        "command": "gcc -O2 -g -ffunction-sections -c -o obj/driver.o driver.c",
    }]);
    std::fs::write(root.join("build/compile_commands.json"), db.to_string()).unwrap();
    std::fs::write(root.join("objlint.toml"), CONFIG).unwrap();
    t
}

/// The workspace's objlint.toml: where rule documentation links point.
const CONFIG: &str = "# docs\nrules_doc_url = \"https://docs.example/objlint/RULES.md#{rule}\"\n";

/// The handshake; returns the server's first log line, how it sees rebuilds.
fn initialize(c: &mut Client, root: &Path) -> String {
    initialize_with(c, root, Value::Null)
}

fn initialize_with(c: &mut Client, root: &Path, options: Value) -> String {
    let r = c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {},
               "initializationOptions": options}),
    );
    assert!(
        r["result"]["capabilities"]["textDocumentSync"]["openClose"] == true,
        "{r}"
    );
    c.notify("initialized", json!({}));
    let log = c.wait(|m| m["method"] == "window/logMessage");
    let how = log["params"]["message"].as_str().unwrap().to_string();
    assert!(how.starts_with("objlint lsp: rebuilds seen by "), "{log}");
    how
}

fn open(c: &mut Client, p: &Path) {
    let text = std::fs::read_to_string(p).unwrap();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(p), "languageId": "c", "version": 1, "text": text}}),
    );
}

/// All diagnostics, flattened with their file.
fn flatten(got: &[(PathBuf, Vec<Value>)]) -> Vec<(PathBuf, Value)> {
    got.iter()
        .flat_map(|(p, l)| l.iter().map(|d| (p.clone(), d.clone())))
        .collect()
}

/// Holds with or without DWARF line mapping: the rule, severity, source and
/// the two findings of driver.o are published, the one in stop() (whose code
/// is in driver.c itself) on driver.c; a rebuilt clean object clears them.
/// The rebuild is seen through file-system notifications (on Linux): without
/// one the server would look only after a minute, past `wait`'s 30 s.
#[test]
fn publishes_and_clears_diagnostics() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    let mut c = Client::start(root);
    let how = initialize(&mut c, root);
    if cfg!(target_os = "linux") {
        assert_eq!(
            how,
            "objlint lsp: rebuilds seen by file-system notifications"
        );
    }
    open(&mut c, &src);
    let got = c.diagnostics(&[&src]);
    let all = flatten(&got);
    assert_eq!(all.len(), 2, "{got:#?}");
    for (_, d) in &all {
        assert_eq!(d["code"], "fallthrough");
        assert_eq!(d["source"], "objlint");
        assert_eq!(d["severity"], 1);
        assert!(d["message"].as_str().unwrap().contains("driver.o: "), "{d}");
        // The config's rules_doc_url, not a file in the build tree.
        assert_eq!(
            d["codeDescription"]["href"],
            "https://docs.example/objlint/RULES.md#fallthrough"
        );
    }
    let msgs: Vec<&str> = all
        .iter()
        .map(|(_, d)| d["message"].as_str().unwrap())
        .collect();
    assert!(
        msgs.iter().any(|m| m.starts_with("scale() falls through")),
        "{msgs:?}"
    );
    let stop = all
        .iter()
        .find(|(_, d)| {
            d["message"]
                .as_str()
                .unwrap()
                .starts_with("stop() falls through")
        })
        .expect("stop() finding");
    assert_eq!(stop.0, src);

    // Saving re-checks and publishes the same again.
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&src)}}),
    );
    let again = c.diagnostics(&[&src]);
    assert_eq!(flatten(&again).len(), 2, "{again:#?}");

    // A rebuild: the fixed object replaces the old one; everything clears.
    let files: Vec<PathBuf> = got.iter().map(|(p, _)| p.clone()).collect();
    std::thread::sleep(Duration::from_millis(20));
    std::fs::copy(
        Path::new(FIXTURES).join("driver-fixed.o"),
        root.join("obj/driver.o"),
    )
    .unwrap();
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let after = c.diagnostics(&refs);
    assert!(flatten(&after).is_empty(), "{after:#?}");
    c.stop();
}

/// Needs DWARF source mapping (`crate::source::annotate`, branch `sarif`):
/// stop()'s finding on its line of driver.c, scale()'s on the line of
/// inc/fatal.h its call was inlined from.
#[test]
fn diagnostics_at_mapped_lines() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    let hdr = root.join("inc/fatal.h");
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &src);
    let got = c.diagnostics(&[&src, &hdr]);
    let all = flatten(&got);
    let at = |name: &str| {
        let (p, d) = all
            .iter()
            .find(|(_, d)| d["message"].as_str().unwrap().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} finding in {got:#?}"));
        (p.clone(), d["range"]["start"]["line"].as_u64().unwrap())
    };
    // 0-based lines: driver.c:12 `report_fatal("stop");`, fatal.h:10 `report_fatal(msg);`
    assert_eq!(at("stop()"), (src.clone(), 11));
    assert_eq!(at("scale()"), (hdr.clone(), 9));
    c.stop();
}

/// A source the compile database does not know gets no diagnostics and the
/// server keeps answering.
#[test]
fn unknown_source_and_unknown_request() {
    let t = workspace();
    let root = t.path();
    let other = root.join("other.c");
    std::fs::write(&other, "int x;\n").unwrap();
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &other);
    let log = c.wait(|m| m["method"] == "window/logMessage");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap()
            .contains("not in compile_commands.json"),
        "{log}"
    );
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    c.stop();
}

/// Opened before the object is built: checked when it appears. Closing the
/// source clears its diagnostics.
#[test]
fn object_built_later_and_close() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    let obj = root.join("obj/driver.o");
    std::fs::remove_file(&obj).unwrap();
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &src);
    let log = c.wait(|m| m["method"] == "window/logMessage");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap()
            .contains("not built yet"),
        "{log}"
    );
    std::fs::copy(Path::new(FIXTURES).join("driver.o"), &obj).unwrap();
    let got = c.diagnostics(&[&src]);
    assert_eq!(flatten(&got).len(), 2, "{got:#?}");
    let files: Vec<PathBuf> = got.iter().map(|(p, _)| p.clone()).collect();
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&src)}}),
    );
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let after = c.diagnostics(&refs);
    assert!(flatten(&after).is_empty(), "{after:#?}");
    c.stop();
}

/// The fix of a finding is a code action: it adds the callee to `noreturn`
/// in objlint.toml (comments kept); once the file is saved the server reads
/// it again, checks anew, and both findings (two calls to report_fatal) go.
#[test]
fn code_action_adds_the_fix_to_the_config() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    let cfg = root.join("objlint.toml");
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &src);
    let got = c.diagnostics(&[&src]);
    let all = flatten(&got);
    assert_eq!(all.len(), 2, "{got:#?}");
    let (file, d) = all
        .iter()
        .find(|(p, _)| *p == src)
        .expect("a diagnostic on driver.c");
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(file)}, "range": d["range"],
               "context": {"diagnostics": [d]}}),
    );
    let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(actions.len(), 1, "{r}");
    let a = &actions[0];
    assert_eq!(
        a["title"],
        "Add \"report_fatal\" to `noreturn` in objlint.toml"
    );
    assert_eq!(a["kind"], "quickfix");
    let edits = a["edit"]["changes"][uri(&cfg)].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    // One edit replacing the whole file (2 lines).
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], json!({"line": 2, "character": 0}));
    let new = edits[0]["newText"].as_str().unwrap();
    assert_eq!(new, format!("{CONFIG}noreturn = [\"report_fatal\"]\n"));
    // No action away from the findings.
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&src)},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
               "context": {"diagnostics": []}}),
    );
    assert_eq!(r["result"], json!([]), "{r}");

    // The client applies and saves it.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&cfg, new).unwrap();
    let files: Vec<PathBuf> = got.iter().map(|(p, _)| p.clone()).collect();
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let after = c.diagnostics(&refs);
    assert!(flatten(&after).is_empty(), "{after:#?}");
    c.stop();
}

/// Without a config file the action creates one.
#[test]
fn code_action_creates_the_config() {
    let t = workspace();
    let root = t.path();
    std::fs::remove_file(root.join("objlint.toml")).unwrap();
    let src = root.join("driver.c");
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &src);
    let all = flatten(&c.diagnostics(&[&src]));
    let (file, d) = &all[0];
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(file)}, "range": d["range"],
               "context": {"diagnostics": [d]}}),
    );
    let ops = r["result"][0]["edit"]["documentChanges"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"));
    let cfg = uri(&root.join("objlint.toml"));
    assert_eq!(ops[0], json!({"kind": "create", "uri": cfg}));
    assert_eq!(ops[1]["textDocument"]["uri"], cfg);
    assert_eq!(
        ops[1]["edits"][0]["newText"],
        "noreturn = [\"report_fatal\"]\n"
    );
    c.stop();
}

/// A source saved after its object was built: a notice on the source
/// instead of the old (maybe moved) ranges; the rebuild brings them back.
#[test]
fn a_source_newer_than_its_object_gets_a_notice() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    let hdr = root.join("inc/fatal.h");
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &src);
    let got = c.diagnostics(&[&src]);
    assert_eq!(flatten(&got).len(), 2, "{got:#?}");
    let files: Vec<PathBuf> = got.iter().map(|(p, _)| p.clone()).collect();
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();

    // Edited and saved, not rebuilt.
    std::thread::sleep(Duration::from_millis(20));
    let text = std::fs::read_to_string(&src).unwrap();
    std::fs::write(&src, format!("/* moved */\n{text}")).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&src)}}),
    );
    let stale = flatten(&c.diagnostics(&refs));
    assert_eq!(stale.len(), 1, "{stale:#?}");
    let (p, d) = &stale[0];
    assert_eq!(*p, src);
    assert_eq!(d["severity"], 3, "information");
    assert_eq!(
        d["message"],
        "driver.o is older than driver.c: the source changed since the object was built; objlint checks it again when it is rebuilt"
    );

    // The rebuild.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::copy(
        Path::new(FIXTURES).join("driver.o"),
        root.join("obj/driver.o"),
    )
    .unwrap();
    let back = c.diagnostics(&[&src, &hdr]);
    let all = flatten(&back);
    assert_eq!(all.len(), 2, "{back:#?}");
    assert!(all.iter().all(|(_, d)| d["code"] == "fallthrough"));
    c.stop();
}

/// `exit` without `shutdown` ends the server with status 1, as the
/// protocol says.
#[test]
fn exit_without_shutdown_is_an_error() {
    let t = workspace();
    let mut c = Client::start(t.path());
    initialize(&mut c, t.path());
    c.notify("exit", Value::Null);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(st) = c.child.try_wait().unwrap() {
            assert_eq!(st.code(), Some(1));
            return;
        }
        assert!(Instant::now() < deadline, "objlint lsp did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `--poll`: no notifications; the rebuild is seen by looking every 250 ms.
#[test]
fn rebuild_seen_by_polling() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    let mut c = Client::start_with(root, &["--poll"]);
    assert_eq!(
        initialize(&mut c, root),
        "objlint lsp: rebuilds seen by polling"
    );
    open(&mut c, &src);
    let got = c.diagnostics(&[&src]);
    assert_eq!(flatten(&got).len(), 2, "{got:#?}");
    let files: Vec<PathBuf> = got.iter().map(|(p, _)| p.clone()).collect();
    std::thread::sleep(Duration::from_millis(20));
    std::fs::copy(
        Path::new(FIXTURES).join("driver-fixed.o"),
        root.join("obj/driver.o"),
    )
    .unwrap();
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let after = c.diagnostics(&refs);
    assert!(flatten(&after).is_empty(), "{after:#?}");
    c.stop();
}

/// The object's folder does not exist yet, so it cannot be watched: the
/// server polls for it until it can, and sees the object when it is built.
#[test]
fn object_in_a_folder_made_later() {
    let t = workspace();
    let root = t.path();
    let src = root.join("driver.c");
    std::fs::remove_dir_all(root.join("obj")).unwrap();
    let mut c = Client::start(root);
    initialize(&mut c, root);
    open(&mut c, &src);
    let log = c.wait(|m| m["method"] == "window/logMessage");
    assert!(log.to_string().contains("not built yet"), "{log}");
    std::fs::create_dir(root.join("obj")).unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("driver.o"),
        root.join("obj/driver.o"),
    )
    .unwrap();
    let got = c.diagnostics(&[&src]);
    assert_eq!(flatten(&got).len(), 2, "{got:#?}");
    c.stop();
}

/// Initialization options of the wrong shape, or a documentation link that
/// is no URL, are ignored with a warning; the server works on.
#[test]
fn bad_initialization_options_are_warned_about() {
    for (options, says) in [
        (json!({"buildDir": 3}), "initializationOptions ignored"),
        (
            json!({"rulesDocUrl": "docs/RULES.md"}),
            "rulesDocUrl \"docs/RULES.md\" ignored",
        ),
    ] {
        let t = workspace();
        let root = t.path();
        let src = root.join("driver.c");
        let mut c = Client::start(root);
        initialize_with(&mut c, root, options);
        let log = c.wait(|m| m["method"] == "window/logMessage");
        assert_eq!(log["params"]["type"], 2, "{log}");
        let msg = log["params"]["message"].as_str().unwrap();
        assert!(msg.contains(says), "{log}");
        open(&mut c, &src);
        let got = c.diagnostics(&[&src]);
        let all = flatten(&got);
        assert_eq!(all.len(), 2, "{got:#?}");
        // The config's link, not the bad one.
        assert_eq!(
            all[0].1["codeDescription"]["href"],
            "https://docs.example/objlint/RULES.md#fallthrough"
        );
        c.stop();
    }
}
