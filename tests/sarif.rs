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

/// The OASIS SARIF 2.1.0 schema (testdata/sarif/README.md says where from),
/// checked by a JSON Schema validator with formats (`uri`, ...) on.
fn oasis_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string("testdata/sarif/sarif-schema-2.1.0.json").unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the OASIS schema compiles")
}

fn assert_valid(v: &jsonschema::Validator, log: &Value) {
    let errors: Vec<String> = v
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// objlint in `dir` with `args`.
fn sarif_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(dir)
        .args(["check", "--format", "sarif"])
        .args(args)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).expect("one JSON document");
    (out.status.code(), v)
}

/// Every location a result names: its locations, related locations and the
/// steps of its code flows.
fn result_locations(r: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = r["locations"].as_array().unwrap().iter().collect();
    out.extend(r["relatedLocations"].as_array().into_iter().flatten());
    for flow in r["codeFlows"].as_array().into_iter().flatten() {
        for tf in flow["threadFlows"].as_array().unwrap() {
            out.extend(
                tf["locations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| &l["location"]),
            );
        }
    }
    out
}

#[test]
fn logs_validate_against_the_oasis_schema() {
    let v = oasis_validator();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.o");
    std::fs::write(&bad, b"\x7fELF not really").unwrap();
    let here = std::env::current_dir().unwrap();
    let abs = here.join("testdata/source/x86-gcc-dwarf5.o");
    let runs: [&[&str]; 4] = [
        &[
            "testdata/source",
            "testdata/stack/x86-cases.o",
            bad.to_str().unwrap(),
        ],
        &[
            "--mitigations",
            "retpoline,rethunk,sls",
            "testdata/speculation",
        ],
        &["testdata/examples", abs.to_str().unwrap()],
        &[
            "--disable",
            "fallthrough",
            "testdata/source/x86-gcc-dwarf5.o",
        ],
    ];
    for args in runs {
        let (_, log) = sarif(args);
        assert_valid(&v, &log);
    }
    // With a documentation URL configured (helpUri is a `uri`).
    std::fs::write(
        dir.path().join("objlint.toml"),
        "rules_doc_url = \"https://docs.example/objlint/RULES.md#{rule}\"\n",
    )
    .unwrap();
    let obj = here.join("testdata/source/x86-gcc-dwarf5.o");
    let (_, log) = sarif_in(dir.path(), &[obj.to_str().unwrap()]);
    assert_valid(&v, &log);
    // The validator does reject what the schema forbids.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        serde_json::json!(0);
    assert!(!v.is_valid(&broken));
}

/// `helpUri` from the config's template; tags on every rule; a
/// security-severity on each rule tagged `security`, equal to the CVSS 3.1
/// base score (computed by the `cvss` crate) of the vector rules.toml gives.
#[test]
fn rule_help_uri_tags_and_security_severity() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("objlint.toml"),
        "rules_doc_url = \"https://docs.example/objlint/RULES.md#{rule}\"\n",
    )
    .unwrap();
    let obj = std::env::current_dir()
        .unwrap()
        .join("testdata/source/x86-gcc-dwarf5.o");
    let (_, log) = sarif_in(dir.path(), &[obj.to_str().unwrap()]);
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let builtin = objlint::rules::Rules::builtin();
    let mut security = 0;
    for (r, d) in rules.iter().zip(&builtin.docs) {
        assert_eq!(
            r["helpUri"],
            format!("https://docs.example/objlint/RULES.md#{}", d.id)
        );
        let tags: Vec<&str> = r["properties"]["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert!(tags.len() >= 2, "{}: {tags:?}", d.id);
        let sev = r["properties"]["security-severity"].as_str();
        if tags.contains(&"security") {
            security += 1;
            let vector = d.cvss.as_deref().unwrap_or_else(|| panic!("{}", d.id));
            let base: cvss::v3::Vector = vector.parse().unwrap();
            let want = format!("{:.1}", base.base_score().value());
            assert_eq!(sev, Some(want.as_str()), "{}", d.id);
        } else {
            assert!(sev.is_none() && d.cvss.is_none(), "{}", d.id);
        }
    }
    assert!(security >= 10, "{security}");
    // Without a configured URL (and no repository in Cargo.toml) there is none.
    let (_, log) = sarif(&["testdata/source/x86-gcc-dwarf5.o"]);
    let r0 = &log["runs"][0]["tool"]["driver"]["rules"][0];
    assert_eq!(
        r0.get("helpUri").is_some(),
        !env!("CARGO_PKG_REPOSITORY").is_empty()
    );
}

/// Paths under the working directory are relative URIs against %SRCROOT%,
/// which `originalUriBaseIds` names as the working directory; others are
/// absolute `file://` URIs. Every result location has a region: the source
/// line, or the instruction's first byte in the object, which `readelf`'s
/// section offsets confirm.
#[test]
fn relative_uris_and_a_region_everywhere() {
    let here = std::env::current_dir().unwrap();
    let abs = here.join("testdata/source/x86-gcc-text.o");
    let (_, log) = sarif(&[
        "./testdata/source/x86-gcc-dwarf5.o",
        abs.to_str().unwrap(),
        "testdata/stack/x86-cases.o",
    ]);
    let run = &log["runs"][0];
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert_eq!(base, format!("file://{}/", here.display()));
    for a in run["artifacts"].as_array().unwrap() {
        let loc = &a["location"];
        assert_eq!(loc["uriBaseId"], "%SRCROOT%", "{a}");
        let uri = loc["uri"].as_str().unwrap();
        assert!(!uri.starts_with('/') && !uri.contains("./"), "{uri}");
        assert!(here.join(uri).is_file(), "{uri}");
    }
    let results = run["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["codeFlows"].is_array()));
    for r in results {
        for l in result_locations(r) {
            let p = &l["physicalLocation"];
            assert!(p["region"].is_object(), "no region: {l}");
            assert_eq!(p["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        }
    }
    // The object location's byte offset is the section's file offset (as
    // readelf prints it) plus the offset in the section.
    let Ok(out) = Command::new("readelf")
        .args(["-SW", "testdata/source/x86-gcc-text.o"])
        .output()
    else {
        return;
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains(" .text ") && l.contains("PROGBITS"))
        .expect("readelf lists .text");
    let fields: Vec<&str> = line.split(']').nth(1).unwrap().split_whitespace().collect();
    let sh_offset = u64::from_str_radix(fields[3], 16).unwrap();
    let r = results
        .iter()
        .find(|r| {
            r["locations"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()["physicalLocation"]["artifactLocation"]["uri"]
                == "testdata/source/x86-gcc-text.o"
        })
        .expect("a finding in x86-gcc-text.o");
    let obj = &r["locations"].as_array().unwrap().last().unwrap()["physicalLocation"];
    let off = obj["address"]["offsetFromParent"].as_u64().unwrap();
    assert_eq!(obj["region"]["byteOffset"], sh_offset + off);
}

/// A path outside the working directory stays absolute.
#[test]
fn paths_outside_the_working_directory_are_absolute() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("a.o");
    std::fs::copy("testdata/source/x86-gcc-nodebug.o", &obj).unwrap();
    let (_, log) = sarif(&[obj.to_str().unwrap()]);
    let a = &log["runs"][0]["artifacts"][0]["location"];
    assert_eq!(a["uri"], format!("file://{}", obj.display()));
    assert!(a.get("uriBaseId").is_none());
}
