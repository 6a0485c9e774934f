//! The engine's walls, checked on its sources: code imports a thing from the folder that
//! holds it (never through the crate root's old flat names, which are there for outside
//! users only), never up a pipeline stage, and no two files import each other, directly
//! or around a circle.
//!
//! Stages, lowest first (a file may use its own stage and those below):
//! `sort`, `link` and the crate root's `Problem` < `input` < `simulation`, `config` <
//! `output` < `pipeline` < `analysis`. Test modules (`#[cfg(test)]` to the end of a file)
//! and comments are not checked. A name imported through a folder's re-exports
//! (`crate::simulation::Sim`) counts as an import of the file that defines it
//! (`simulation/state.rs`), so a circle cannot hide behind a `pub use`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The modules at the crate root and their stage.
fn stage(top: &str) -> Option<u8> {
    Some(match top {
        "sort" | "link" | "Problem" | "InFile" | "Object" | "Kind" | "Bound" | "Unfinished"
        | "UnfinishedJob" => 0,
        "input" => 1,
        "simulation" | "config" => 2,
        "output" => 3,
        "pipeline" => 4,
        "analysis" => 5,
        _ => return None,
    })
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `input/validate/mod.rs` -> ["input", "validate"]; `lib.rs` -> [].
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(SRC).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The source without comments and without its test module.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every path a file names from `crate::` (grouped `use crate::{a::b, c}` expanded), as
/// segments.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        if let Some(body) = after.strip_prefix('{') {
            let mut depth = 1;
            let mut end = 0;
            for (k, ch) in body.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let mut depth = 0;
            let mut item = String::new();
            for ch in body[..end].chars().chain(std::iter::once(',')) {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(segments(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(ch);
            }
            rest = &body[end..];
        } else {
            out.push(segments(after));
            rest = after;
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// The identifiers of a path, up to the first segment that is not a whole identifier
/// (`a::b::C;\nuse x` is `[a, b, C]`).
fn segments(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for seg in s.split("::") {
        let seg = if out.is_empty() { seg.trim() } else { seg };
        let ident: String = seg
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        let whole = ident.len() == seg.len();
        out.push(ident);
        if !whole {
            break;
        }
    }
    out
}

/// The file a path resolves to: the longest module prefix that is a file of the crate,
/// then, for a name that file does not define itself, the file its re-exports take it from.
fn file_of(path: &[String], modules: &Modules) -> Option<Vec<String>> {
    let m = (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| modules.files.contains_key(m))?;
    let Some(name) = path.get(m.len()) else {
        return Some(m);
    };
    Some(defining(&m, name, modules, 0).unwrap_or(m))
}

/// The module that defines `name`, looking in `m` and then through its re-exports.
fn defining(m: &Vec<String>, name: &str, modules: &Modules, depth: u8) -> Option<Vec<String>> {
    let text = modules.code.get(m)?;
    if depth > 8 {
        return None;
    }
    if defines(text, name) {
        return Some(m.clone());
    }
    for (from, names) in reexports(m, text) {
        let Some(src) = (1..=from.len())
            .rev()
            .map(|n| from[..n].to_vec())
            .find(|x| modules.files.contains_key(x))
        else {
            continue;
        };
        match names {
            Some(names) if names.iter().any(|n| n == name) => {
                return defining(&src, name, modules, depth + 1).or(Some(src));
            }
            Some(_) => {}
            None => {
                if let Some(found) = defining(&src, name, modules, depth + 1) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// Whether `code` defines an item called `name`.
fn defines(code: &str, name: &str) -> bool {
    [
        "struct",
        "enum",
        "fn",
        "type",
        "const",
        "static",
        "trait",
        "union",
        "macro_rules!",
    ]
    .iter()
    .any(|kw| {
        let pat = format!("{kw} {name}");
        code.match_indices(&pat).any(|(i, _)| {
            let before = code[..i].chars().next_back();
            let after = code[i + pat.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// A module's `pub use` items: the module path each takes from, with the names it takes
/// (`None`: all of them, `*`).
fn reexports(m: &[String], code: &str) -> Vec<(Vec<String>, Option<Vec<String>>)> {
    let mut out = Vec::new();
    for stmt in code.split(';') {
        let s = stmt.trim();
        let Some(rest) = s
            .strip_prefix("pub use ")
            .or_else(|| s.strip_prefix("pub(crate) use "))
            .or_else(|| s.strip_prefix("pub(super) use "))
        else {
            continue;
        };
        // `a as b` keeps `a`: mark the rename before the spaces go.
        let rest = rest.replace(" as ", "@");
        let rest: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
        let (prefix, names) = match rest.rsplit_once("::") {
            Some((p, "*")) => (p.to_string(), None),
            Some((p, n)) if n.starts_with('{') => (
                p.to_string(),
                Some(
                    n.trim_matches(|c| c == '{' || c == '}')
                        .split(',')
                        .filter(|x| !x.is_empty())
                        .map(|x| x.split('@').next().unwrap_or(x).to_string())
                        .collect(),
                ),
            ),
            Some((p, n)) => (p.to_string(), Some(vec![n.to_string()])),
            None => continue,
        };
        let mut segs: Vec<&str> = prefix.split("::").collect();
        let mut from: Vec<String> = match segs.first().copied() {
            Some("crate") => {
                segs.remove(0);
                Vec::new()
            }
            Some("super") => {
                segs.remove(0);
                m[..m.len().saturating_sub(1)].to_vec()
            }
            Some("self") => {
                segs.remove(0);
                m.to_vec()
            }
            _ => m.to_vec(),
        };
        from.extend(segs.iter().map(|s| s.to_string()));
        out.push((from, names));
    }
    out
}

/// Every file of the crate by module path, and its code (comments and tests left out).
struct Modules {
    files: BTreeMap<Vec<String>, PathBuf>,
    code: BTreeMap<Vec<String>, String>,
}

#[test]
fn the_engine_imports_by_folder_never_up_a_stage_and_without_circles() {
    let mut all = Vec::new();
    files(Path::new(SRC), &mut all);
    let files: BTreeMap<Vec<String>, PathBuf> =
        all.iter().map(|f| (module_of(f), f.clone())).collect();
    let code_of = files
        .iter()
        .map(|(m, f)| (m.clone(), code(&std::fs::read_to_string(f).unwrap())))
        .collect();
    let modules = Modules {
        files,
        code: code_of,
    };
    let mut problems = Vec::new();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, text) in &modules.code {
        if module.is_empty() {
            continue; // lib.rs: the crate root's re-exports are for outside users
        }
        let name = module.join("/");
        let own = stage(&module[0]).unwrap_or(u8::MAX);
        for path in crate_paths(text) {
            let Some(target) = stage(&path[0]) else {
                problems.push(format!(
                    "{name}: crate::{} goes through the crate root's old name; import it from its folder",
                    path.join("::")
                ));
                continue;
            };
            if target > own {
                problems.push(format!(
                    "{name}: crate::{} points up a stage",
                    path.join("::")
                ));
            }
            if let Some(to) = file_of(&path, &modules) {
                if to != *module && !module.starts_with(&to) {
                    edges.entry(module.clone()).or_default().insert(to);
                }
            }
        }
        // `super::x` between the files of one folder.
        let parent = &module[..module.len() - 1];
        let mut rest = text.as_str();
        while let Some(i) = rest.find("super::") {
            let after = &rest[i + "super::".len()..];
            let mut path = parent.to_vec();
            path.extend(segments(after));
            if let Some(to) = file_of(&path, &modules) {
                if to != *module && !module.starts_with(&to) {
                    edges.entry(module.clone()).or_default().insert(to);
                }
            }
            rest = after;
        }
    }
    // Circles between files: a depth-first search for a back edge.
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for to in edges.get(m).into_iter().flatten() {
            match state.get(to).copied() {
                Some(1) => {
                    let from = stack.iter().position(|x| x == to).unwrap_or(0);
                    let names: Vec<String> = stack[from..]
                        .iter()
                        .chain(std::iter::once(to))
                        .map(|x| x.join("/"))
                        .collect();
                    circles.push(format!("a circle of imports: {}", names.join(" -> ")));
                }
                Some(_) => {}
                None => visit(to, edges, state, stack, circles),
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
    }
    let mut state = BTreeMap::new();
    let mut circles = Vec::new();
    for m in edges.keys() {
        if !state.contains_key(m) {
            visit(m, &edges, &mut state, &mut Vec::new(), &mut circles);
        }
    }
    problems.extend(circles);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checker itself: an alias, an upward import and a circle are each caught.
#[test]
fn the_checker_catches_what_it_should() {
    let paths = crate_paths(
        "use crate::{model::Scenario, input::{json, model}};\nlet x = crate::sim::State::Pending;",
    );
    assert_eq!(
        paths,
        vec![
            vec!["model".to_string(), "Scenario".to_string()],
            vec!["input".to_string()],
            vec![
                "sim".to_string(),
                "State".to_string(),
                "Pending".to_string()
            ],
        ]
    );
    assert_eq!(stage("model"), None);
    assert!(stage("analysis") > stage("pipeline"));
    assert_eq!(
        code("use a;\n// use crate::b;\n#[cfg(test)]\nuse crate::c;"),
        "use a;\n"
    );
    // A name taken through a folder's `pub use` resolves to the file that defines it.
    let m = |s: &str| s.split('/').map(String::from).collect::<Vec<_>>();
    let files: BTreeMap<Vec<String>, PathBuf> = ["sim", "sim/state", "sim/job", "sim/kueue"]
        .iter()
        .map(|s| (m(s), PathBuf::from(s)))
        .collect();
    let code_of = [
        (
            "sim",
            "pub mod state;\npub use state::*;\npub use kueue::{Kueue as K, Class};",
        ),
        ("sim/state", "pub use super::job::*;\npub struct Sim<'a> {}"),
        ("sim/job", "pub enum Reason {}"),
        ("sim/kueue", "pub(crate) struct Kueue;\npub enum Class {}"),
    ]
    .iter()
    .map(|(k, v)| (m(k), v.to_string()))
    .collect();
    let modules = Modules {
        files,
        code: code_of,
    };
    let path = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(file_of(&path("sim::Sim"), &modules), Some(m("sim/state")));
    assert_eq!(file_of(&path("sim::Reason"), &modules), Some(m("sim/job")));
    assert_eq!(file_of(&path("sim::Kueue"), &modules), Some(m("sim/kueue")));
    assert_eq!(
        file_of(&path("sim::kueue::Kueue"), &modules),
        Some(m("sim/kueue"))
    );
    assert_eq!(file_of(&path("sim::Class"), &modules), Some(m("sim/kueue")));
    assert_eq!(file_of(&path("sim::Unknown"), &modules), Some(m("sim")));
}
