//! `compile_commands.json`: which object a source file is built into. Used by
//! the language server and the pre-commit hook to go from a source to the
//! object to check.

use crate::paths::normalize;
use serde::Deserialize;
use std::path::{Path, PathBuf};

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
        let mut units = Vec::new();
        for e in raw {
            if let Some(u) = unit(e).map_err(|e| format!("{}: {e}", path.display()))? {
                units.push(u);
            }
        }
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

/// The unit of an entry; `None` when it compiles no object (`-E`, ...).
fn unit(e: RawEntry) -> Result<Option<Unit>, String> {
    let args = match (e.arguments, e.command) {
        (Some(a), _) => a,
        // POSIX shell words, as the compiler was run (no expansions).
        (None, Some(c)) => shlex::split(&c).ok_or_else(|| {
            format!(
                "entry for {}: the command has an unmatched quote or a trailing backslash: {c}",
                e.file.display()
            )
        })?,
        (None, None) => Vec::new(),
    };
    let dir = normalize(&e.directory);
    let object = e.output.or_else(|| output_arg(&args)).or_else(|| {
        // `cc -c x.c` without -o writes x.o into the current folder.
        args.iter().any(|a| a == "-c").then(|| {
            let stem = e.file.file_stem().unwrap_or_default();
            PathBuf::from(stem).with_extension("o")
        })
    });
    Ok(object.map(|object| Unit {
        source: normalize(&dir.join(&e.file)),
        object: normalize(&dir.join(object)),
        directory: dir,
    }))
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
    fn commands_split_as_the_shell_does() {
        let db: Vec<RawEntry> = serde_json::from_str(
            r#"[{"directory":"/b","file":"a.c","command":"gcc -DX=\"a b\" 'c d' -c a.c -o 'out dir/a\\ b.o'"}]"#,
        )
        .unwrap();
        let u = db.into_iter().next().map(unit).unwrap().unwrap().unwrap();
        assert_eq!(u.object, Path::new("/b/out dir/a\\ b.o"));
    }

    /// A command the shell could not run is an error naming the database.
    #[test]
    fn an_unmatched_quote_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("compile_commands.json");
        std::fs::write(
            &p,
            r#"[{"directory":"/b","file":"a.c","command":"gcc -c 'a.c -o a.o"}]"#,
        )
        .unwrap();
        let e = CompDb::read(&p).unwrap_err();
        assert!(
            e.starts_with(&p.display().to_string())
                && e.contains("entry for a.c: the command has an unmatched quote"),
            "{e}"
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
        let units: Vec<_> = db.into_iter().filter_map(|e| unit(e).unwrap()).collect();
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
