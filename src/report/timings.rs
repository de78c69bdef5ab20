//! Rendering of `check --timings`: where the run spent its time and memory.

use crate::timing::{Phase, Row};
use std::io::{self, Write};

/// A table of phases (then rules, by time), to stderr beside the summary.
/// `rule_ids[i]` names [`Phase::Rule`]`(i)`.
pub fn write(w: &mut dyn Write, rows: &[Row], rule_ids: &[&str], wall: f64) -> io::Result<()> {
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    let name = |p: Phase| match p {
        Phase::Rule(i) => format!("  {}", rule_ids.get(i).copied().unwrap_or("?")),
        p => p.name().to_string(),
    };
    writeln!(
        w,
        "{:<30} {:>10} {:>7} {:>10} {:>12}",
        "phase", "thread s", "share", "calls", "peak RSS MB"
    )?;
    let mut rules: Vec<&Row> = rows
        .iter()
        .filter(|r| matches!(r.phase, Phase::Rule(_)))
        .collect();
    rules.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    let fixed = rows.iter().filter(|r| !matches!(r.phase, Phase::Rule(_)));
    let rule_sum: f64 = rules.iter().map(|r| r.seconds).sum();
    let line = |w: &mut dyn Write, label: &str, secs: f64, calls: String, kb: Option<u64>| {
        let share = if total > 0.0 {
            100.0 * secs / total
        } else {
            0.0
        };
        let mb = kb.map_or(String::from("-"), |k| format!("{:.0}", k as f64 / 1024.0));
        writeln!(
            w,
            "{label:<30} {secs:>10.3} {share:>6.1}% {calls:>10} {mb:>12}"
        )
    };
    for r in fixed {
        line(w, &name(r.phase), r.seconds, r.calls.to_string(), r.peak_kb)?;
    }
    line(w, "rules", rule_sum, "-".into(), None)?;
    for r in rules {
        line(w, &name(r.phase), r.seconds, r.calls.to_string(), None)?;
    }
    let peak = crate::timing::peak_rss_kb();
    writeln!(
        w,
        "{:<30} {total:>10.3} {:>7} {:>10} {:>12}\nwall {wall:.3} s",
        "total",
        "100.0%",
        "-",
        peak.map_or(String::from("-"), |k| format!("{:.0}", k as f64 / 1024.0))
    )
}
