//! Hot paths, on one thread: decoding throughput (MB/s of executable section
//! bytes) per arch, and model building + all checks (functions per second).
//! Inputs: the committed fixtures, plus up to 200 corpus modules per arch
//! when $OBJCORPUS (or ~/.cache/objcorpus) exists.
//!
//! The analysis runs inside a one-thread rayon pool: called from outside a
//! pool, every parallel loop inside the model would hand its work to another
//! thread and wait, which measures the hand-off, not the analysis.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use objlint::arch::decoder;
use objlint::checks::Ctx;
use objlint::config::Options;
use objlint::elf::{Machine, Object};
use objlint::model::Model;
use objlint::rules::Rules;
use std::path::{Path, PathBuf};

fn inputs(machine: Machine) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let corpus = std::env::var_os("OBJCORPUS")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/objcorpus")));
    let dir = match machine {
        Machine::X86_64 => "x86_64",
        Machine::Aarch64 => "arm64",
    };
    let mut paths = Vec::new();
    if let Some(c) = corpus {
        let (found, _) = objlint::input::expand(&[c.join(dir)]);
        paths.extend(found.iter().take(200).map(|i| i.path));
    }
    let (fixtures, _) = objlint::input::expand(&[PathBuf::from("testdata")]);
    paths.extend(fixtures.iter().map(|i| i.path));
    for p in paths {
        let b = std::fs::read(&p).unwrap_or_default();
        if Object::parse(&b).is_ok_and(|o| o.machine == machine) {
            files.push(b);
        }
    }
    files
}

fn bench(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let rules = Rules::builtin();
    let opts = Options::default();
    for machine in [Machine::X86_64, Machine::Aarch64] {
        let files = inputs(machine);
        if files.is_empty() {
            continue;
        }
        let objs: Vec<Object> = files.iter().map(|b| Object::parse(b).unwrap()).collect();
        let text: u64 = objs
            .iter()
            .flat_map(|o| o.sections.iter().filter(|s| s.is_exec()).map(|s| s.size))
            .sum();
        let mut g = c.benchmark_group(format!("{machine}"));
        g.sample_size(10);
        g.throughput(Throughput::Bytes(text));
        let dec = decoder(machine);
        g.bench_function("decode", |b| {
            let mut out = Vec::new();
            b.iter(|| {
                for o in &objs {
                    for s in o.sections.iter().filter(|s| s.is_exec()) {
                        out.clear();
                        dec.decode(o.section_data(s.index), 0, &mut out);
                    }
                }
                out.len()
            })
        });
        g.finish();
        let functions: usize = objs
            .iter()
            .map(|o| Model::build(o, &rules).functions.len())
            .sum();
        let mut g = c.benchmark_group(format!("{machine}/analysis"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(functions as u64));
        g.bench_function("model+checks", |b| {
            b.iter(|| {
                pool.install(|| {
                    let mut n = 0;
                    for o in &objs {
                        let m = Model::build(o, &rules);
                        let cx = Ctx::new(&m, &rules, &opts);
                        n += objlint::engine::run_checks(&cx).len();
                    }
                    n
                })
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
