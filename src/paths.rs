//! The one lexical path normaliser: config files, compile_commands.json,
//! baselines and SARIF name the same object through `./`, `a/../a` and
//! absolute forms, and compare them as equal.

use std::path::{Component, Path, PathBuf};

/// Drop `.` components and fold `a/..` without touching the file system
/// (objects may not exist yet; symlinks in build folders are rare). A `..`
/// with nothing of its own to fold stays (`../x.o` is not `x.o`).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn folds_what_it_can() {
        let n = |s: &str| normalize(Path::new(s)).to_string_lossy().into_owned();
        assert_eq!(n("./a/b.o"), "a/b.o");
        assert_eq!(n("a/../a/b.o"), "a/b.o");
        assert_eq!(n("/w/./b/../c.o"), "/w/c.o");
        assert_eq!(n("../x.o"), "../x.o");
        assert_eq!(n("../../x.o"), "../../x.o");
        assert_eq!(n("/.."), "/..");
    }
}
