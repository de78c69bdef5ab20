//! `--format sarif`: one SARIF 2.1.0 log per run. The shape is checked here
//! property by property (the required ones of the 2.1.0 schema for what we
//! emit, and the links between indexes).

use serde_json::Value;
use std::process::Command;

fn sarif(args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "sarif"])
        .args(args)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).expect("one JSON document");
    (out.status.code(), v)
}

fn text(v: &Value) -> &str {
    v["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {v}"))
}

#[test]
fn log_shape_and_rules() {
    let (code, log) = sarif(&[
        "testdata/source/x86-gcc-dwarf5.o",
        "testdata/source/x86-gcc-nodebug.o",
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "one log for the whole run");
    let run = &runs[0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "objlint");
    let rules = driver["rules"].as_array().unwrap();
    let builtin = objlint::rules::Rules::builtin();
    assert_eq!(rules.len(), builtin.docs.len());
    for (r, d) in rules.iter().zip(&builtin.docs) {
        assert_eq!(r["id"], d.id.as_str());
        assert_eq!(text(&r["shortDescription"]), d.summary);
        assert!(!text(&r["fullDescription"]).is_empty());
        assert!(text(&r["help"]).contains(d.why.trim()));
        assert!(!d.fix.trim().is_empty(), "{}", d.id);
        assert!(text(&r["help"]).contains(d.fix.trim()), "{}", d.id);
        let md = r["help"]["markdown"].as_str().expect("help.markdown");
        assert!(
            md.contains(&format!("## How to fix\n{}", d.fix.trim())),
            "{md}"
        );
        let lvl = r["defaultConfiguration"]["level"].as_str().unwrap();
        assert!(["error", "warning", "note", "none"].contains(&lvl));
    }

    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    let artifacts = run["artifacts"].as_array().unwrap();
    let addresses = run["addresses"].as_array().unwrap();
    for r in results {
        let rule = r["ruleId"].as_str().unwrap();
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], rule);
        assert_eq!(r["level"], "error");
        assert!(text(&r["message"]).contains("falls through"));
        assert!(r["partialFingerprints"]["objlint/v1"].is_string());
        let locs = r["locations"].as_array().unwrap();
        // The object is always the last location, with the section offset.
        let obj = &locs.last().unwrap()["physicalLocation"];
        let art = &obj["artifactLocation"];
        let ai = art["index"].as_u64().unwrap() as usize;
        assert_eq!(artifacts[ai]["location"]["uri"], art["uri"]);
        assert!(art["uri"].as_str().unwrap().ends_with(".o"));
        let addr = &obj["address"];
        assert_eq!(addr["offsetFromParent"], 0x10);
        assert_eq!(addr["relativeAddress"], 0x10);
        let parent = &addresses[addr["parentIndex"].as_u64().unwrap() as usize];
        assert_eq!(parent["kind"], "section");
        let func = locs[0]["logicalLocations"][0]["name"].as_str().unwrap();
        assert_eq!(parent["name"], format!(".text.{func}"));
        assert_eq!(locs[0]["logicalLocations"][0]["kind"], "function");
        // Related location: none here (past the end of a section).
        assert!(r.get("relatedLocations").is_none());

        let dwarf = art["uri"].as_str().unwrap().contains("dwarf5");
        assert_eq!(locs.len(), if dwarf { 2 } else { 1 });
        if dwarf {
            let src = &locs[0]["physicalLocation"];
            let uri = src["artifactLocation"]["uri"].as_str().unwrap();
            let line = src["region"]["startLine"].as_u64().unwrap();
            let want = if func == "inlined" {
                ("testdata/source/die.h", 11)
            } else {
                ("testdata/source/fall.c", 8)
            };
            assert_eq!((uri, line), want);
            assert_eq!(src["region"]["startColumn"], 3);
            let si = src["artifactLocation"]["index"].as_u64().unwrap() as usize;
            assert_eq!(artifacts[si]["location"]["uri"], uri);
        }
    }
}

#[test]
fn target_is_a_related_location() {
    // One .text: `direct` runs into padding before `inlined`.
    let (_, log) = sarif(&["testdata/source/x86-gcc-text.o"]);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let r = &results[0];
    let rel = &r["relatedLocations"][0];
    assert_eq!(rel["physicalLocation"]["address"]["name"], "inlined+0x0");
    assert!(rel["id"].is_u64() && rel["message"]["text"].is_string());
}

#[test]
fn stack_paths_are_code_flows() {
    let (_, log) = sarif(&["testdata/stack/x86-cases.o"]);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "stack-modified-return" && r["codeFlows"].is_array())
        .expect("a return reached through branches");
    let locs = r["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    let names: Vec<&str> = locs
        .iter()
        .map(|l| {
            assert!(l["location"]["message"]["text"].is_string());
            l["location"]["physicalLocation"]["address"]["name"]
                .as_str()
                .unwrap()
        })
        .collect();
    // objtool --backtrace: the branches at +0x3 and +0xf, then the site.
    assert_eq!(
        names,
        [
            "branchy_return+0x3",
            "branchy_return+0xf",
            "branchy_return+0x13"
        ]
    );
}

#[test]
fn no_findings_is_still_a_log() {
    let (code, log) = sarif(&[
        "--disable",
        "fallthrough",
        "testdata/source/x86-gcc-dwarf5.o",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 0);
    assert!(
        !log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn unreadable_objects_are_notifications() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.o");
    std::fs::write(&bad, b"\x7fELF not really").unwrap();
    let (code, log) = sarif(&[bad.to_str().unwrap(), "testdata/source/x86-gcc-dwarf5.o"]);
    assert_eq!(code, Some(2));
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error");
    assert!(text(&n["message"]).contains("bad.o"));
    let uri = n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .unwrap();
    assert!(uri.starts_with("file:///") && uri.ends_with("/bad.o"));
    // The readable object is still reported.
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 2);
}
