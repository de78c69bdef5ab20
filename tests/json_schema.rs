//! Every JSON Lines record objlint writes (check, symdiff, stats, unwind)
//! validates against docs/objlint.schema.json, checked with the `jsonschema`
//! crate (a JSON Schema 2020-12 validator), over the fixtures: findings with
//! and without each field that may be null, unreadable objects and paths,
//! stats and totals.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::process::Command;

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/objlint.schema.json"
    ))
    .unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("a valid JSON Schema")
}

/// The records of one run (stdout as JSON Lines).
fn records(args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "{args:?}: {out:?}"
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {e}: {l}")))
        .collect()
}

fn check_all(v: &jsonschema::Validator, recs: &[Value]) {
    for r in recs {
        let errors: Vec<String> = v.iter_errors(r).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{r}\n{errors:#?}");
    }
}

#[test]
fn every_record_validates() {
    let v = validator();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.o");
    std::fs::write(&bad, b"\x7fELF not really").unwrap();
    let bad = bad.to_str().unwrap();
    let missing = dir.path().join("missing.o");
    let missing = missing.to_str().unwrap();

    let mut all = records(&["check", "--format", "json", "testdata", bad, missing]);
    all.extend(records(&[
        "check",
        "--format",
        "json",
        "--mitigations",
        "retpoline,rethunk,sls",
        "testdata/speculation",
    ]));
    all.extend(records(&[
        "symdiff",
        "--format",
        "json",
        "testdata/symtab/kfuncs_x86.o",
        "testdata/symtab/abs_to_undef.o",
    ]));
    let stats = records(&["stats", "--format", "json", "testdata/landing", bad]);
    assert!(stats.iter().any(|r| r["type"] == "stats-total"));
    all.extend(stats);
    all.extend(records(&[
        "stats",
        "--format",
        "json",
        "--link",
        "--summary",
        "testdata/core",
        bad,
    ]));
    all.extend(records(&[
        "unwind",
        "--format",
        "json",
        "--reference",
        "testdata/stack/x86-gcc.orc.o",
        "testdata/stack/x86-gcc.o",
    ]));
    all.extend(records(&[
        "unwind",
        "--format",
        "json",
        "--cfi",
        "testdata/stack/cfi-asm.o",
    ]));
    check_all(&v, &all);

    // The run exercised what the schema describes.
    let types: BTreeSet<&str> = all.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        BTreeSet::from(["finding", "object", "stats", "stats-total", "unwind"])
    );
    let findings: Vec<&Value> = all.iter().filter(|r| r["type"] == "finding").collect();
    for key in [
        "symbol", "target", "source", "notes", "path", "cause", "fix",
    ] {
        assert!(
            findings
                .iter()
                .any(|f| !f[key].is_null() && f[key] != json!([])),
            "no finding with {key}"
        );
    }
    assert!(findings.iter().any(|f| f["symbol"].is_null()));
    for (t, file) in [("object", bad), ("object", missing), ("stats", bad)] {
        assert!(
            all.iter()
                .any(|r| r["type"] == t && r["file"] == file && r["error"].is_string()),
            "no unreadable {t} record for {file}"
        );
    }
    // Absent is null, never left out: all records of a type have the same keys.
    let mut keys: std::collections::BTreeMap<&str, Vec<&String>> = Default::default();
    for r in &all {
        let k: Vec<&String> = r.as_object().unwrap().keys().collect();
        let t = r["type"].as_str().unwrap();
        let first = keys.entry(t).or_insert_with(|| k.clone());
        assert_eq!(*first, k, "{t}: {r}");
    }
}

/// The schema holds the documented rules: a version on every record, every
/// field there (null when it does not apply), a symbol offset only with a
/// symbol.
#[test]
fn the_schema_rejects_what_the_docs_forbid() {
    let v = validator();
    let good = json!({"schema_version": 1, "type": "finding", "rule": "fallthrough",
        "severity": "error", "file": "a.o", "arch": "x86_64", "section": ".text",
        "offset": 4, "symbol": "f", "symbol_offset": 4, "message": "m", "source": null,
        "target": null, "notes": [], "cause": null, "path": null, "path_omitted": null,
        "fix": null});
    assert!(v.is_valid(&good));
    let with = |k: &str, val: Value| {
        let mut g = good.clone();
        g[k] = val;
        g
    };
    let without = |k: &str| {
        let mut g = good.clone();
        g.as_object_mut().unwrap().remove(k);
        g
    };
    for bad in [
        without("schema_version"),
        with("schema_version", json!(2)),
        without("symbol"),
        without("source"),
        with("symbol", Value::Null),
        with("arch", Value::Null),
        with("cause", json!("undecodable")),
        with("path_omitted", json!(0)),
        with("severity", json!("off")),
        with("colour", json!("red")),
    ] {
        assert!(!v.is_valid(&bad), "accepted {bad}");
    }
    // Outside any symbol both are null.
    let mut outside = with("symbol", Value::Null);
    outside["symbol_offset"] = Value::Null;
    assert!(v.is_valid(&outside));
}
