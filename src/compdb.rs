//! `compile_commands.json`: which object a source file is built into. Used by
//! the language server and the pre-commit hook to go from a source to the
//! object to check.

use serde::Deserialize;
use std::path::{Component, Path, PathBuf};

/// One entry as written by CMake, Bear, `scripts/clang-tools/gen_compile_commands.py`, ...
#[derive(Debug, Deserialize)]
struct RawEntry {
    directory: PathBuf,
    file: PathBuf,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    output: Option<PathBuf>,
}

/// A translation unit: its source, the object it is compiled into, and the
/// folder the compiler ran in (relative paths in DWARF are relative to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub source: PathBuf,
    pub object: PathBuf,
    pub directory: PathBuf,
}

/// The parsed database.
#[derive(Debug, Default)]
pub struct CompDb {
    pub path: PathBuf,
    pub units: Vec<Unit>,
}

impl CompDb {
    /// `compile_commands.json` in `build_dir` when given (relative to `root`),
    /// else in `root`, else in `root/build`.
    pub fn locate(root: &Path, build_dir: Option<&Path>) -> Option<PathBuf> {
        let dirs: Vec<PathBuf> = match build_dir {
            Some(b) => vec![root.join(b)],
            None => vec![root.to_path_buf(), root.join("build")],
        };
        dirs.into_iter()
            .map(|d| d.join("compile_commands.json"))
            .find(|p| p.is_file())
    }

    pub fn read(path: &Path) -> Result<CompDb, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let raw: Vec<RawEntry> =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let units = raw.into_iter().filter_map(unit).collect();
        Ok(CompDb {
            path: path.to_path_buf(),
            units,
        })
    }

    /// The units compiling `source` (an absolute, normalised path).
    pub fn units_for<'a>(&'a self, source: &'a Path) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units.iter().filter(move |u| u.source == source)
    }
}

fn unit(e: RawEntry) -> Option<Unit> {
    let args = match (e.arguments, e.command) {
        (Some(a), _) => a,
        (None, Some(c)) => split_command(&c),
        (None, None) => Vec::new(),
    };
    let dir = normalize(&e.directory);
    let object = e.output.or_else(|| output_arg(&args)).or_else(|| {
        // `cc -c x.c` without -o writes x.o into the current folder.
        args.iter().any(|a| a == "-c").then(|| {
            let stem = e.file.file_stem().unwrap_or_default();
            PathBuf::from(stem).with_extension("o")
        })
    })?;
    Some(Unit {
        source: normalize(&dir.join(&e.file)),
        object: normalize(&dir.join(object)),
        directory: dir,
    })
}

/// The value of `-o FILE` or `-oFILE`.
fn output_arg(args: &[String]) -> Option<PathBuf> {
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "-o" {
            return it.next().map(PathBuf::from);
        }
        if let Some(v) = a.strip_prefix("-o") {
            return Some(PathBuf::from(v));
        }
    }
    None
}

/// Split a shell command line as POSIX `sh` would for words: quotes and
/// backslashes, no expansions (compile databases hold plain commands).
pub fn split_command(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some(n @ ('"' | '\\' | '$' | '`')) => cur.push(n),
                            Some(n) => {
                                cur.push('\\');
                                cur.push(n);
                            }
                            None => cur.push('\\'),
                        },
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// Remove `.` components and fold `..` without touching the file system
/// (objects may not exist yet; symlinks in build folders are rare).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Sources the server and the hook care about: C and assembly.
pub fn is_source(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("c" | "s" | "S" | "asm" | "h")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_quotes_and_escapes() {
        assert_eq!(
            split_command(r#"gcc -DX="a b" 'c d' e\ f -o out.o"#),
            ["gcc", "-DX=a b", "c d", "e f", "-o", "out.o"]
        );
    }

    #[test]
    fn objects_from_o_output_and_default() {
        let db: Vec<RawEntry> = serde_json::from_str(
            r#"[
            {"directory":"/b","file":"../s/a.c","command":"cc -c ../s/a.c -o sub/a.o"},
            {"directory":"/b","file":"/s/b.c","arguments":["cc","-c","-obx.o","/s/b.c"]},
            {"directory":"/b","file":"c.S","arguments":["cc","-c","c.S"]},
            {"directory":"/b","file":"d.c","command":"cc -c d.c","output":"o/d.o"},
            {"directory":"/b","file":"e.c","command":"cc -E e.c"}]"#,
        )
        .unwrap();
        let units: Vec<_> = db.into_iter().filter_map(unit).collect();
        let pairs: Vec<_> = units
            .iter()
            .map(|u| (u.source.to_str().unwrap(), u.object.to_str().unwrap()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("/s/a.c", "/b/sub/a.o"),
                ("/s/b.c", "/b/bx.o"),
                ("/b/c.S", "/b/c.o"),
                ("/b/d.c", "/b/o/d.o")
            ]
        );
    }
}
