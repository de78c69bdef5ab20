//! The rule registry as one Markdown page (docs/RULES.md): a section per
//! rule whose anchor is the rule id, so `RULES.md#{rule}` links to it.

use crate::rules::Rules;

pub fn markdown(rules: &Rules) -> String {
    let mut s = String::from(
        "# objlint rules\n\n<!-- Written by `objlint rules --markdown` from rules/rules.toml; \
         tests/output.rs checks it is current. -->\n\n",
    );
    for d in &rules.docs {
        s.push_str(&format!(
            "<a id=\"{id}\"></a>\n\n## {id}\n\n{}\n\n- architectures: {}\n- default severity: {}\n- tags: {}\n",
            d.summary,
            d.arch.join(", "),
            d.severity.name(),
            d.tags.join(", "),
            id = d.id,
        ));
        if let (Some(v), Some(sev)) = (&d.cvss, d.security_severity) {
            s.push_str(&format!("- security severity: {sev:.1} (`{v}`)\n"));
        }
        s.push_str(&format!(
            "\n### What it checks\n\n{}\n\n### Why it matters\n\n{}\n\n### How to fix\n\n{}\n",
            d.what.trim(),
            d.why.trim(),
            d.fix.trim()
        ));
        if !d.example.trim().is_empty() {
            s.push_str(&format!(
                "\n### Example\n\n```\n{}\n```\n",
                d.example.trim_matches('\n')
            ));
        }
        s.push('\n');
    }
    s
}
