//! The house rules of `backend/` (ARCHITECTURE.md), checked on the source text so that they
//! stay true: no two files import each other in a circle, a result's consequences are started
//! from one module, no diesel row is an API schema, no function outside tests is over 120
//! lines, and the CSRF input is written once.
//!
//! "Imports" here are the paths a file names that start with `crate::`, `super::` or `self::`
//! (in `use` declarations and in code), resolved to the file of the deepest module they name.
//! A parent's `mod child;` and its bare `child::` paths are how Rust declares modules, not
//! imports, and do not count.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate whose modules are files below one folder.
struct CrateRoot {
    /// The file of the crate's root module.
    root: &'static str,
    /// The folder its module tree starts in.
    dir: &'static str,
}

const CRATES: &[CrateRoot] = &[
    CrateRoot {
        root: "backend/lib.rs",
        dir: "backend",
    },
    CrateRoot {
        root: "backend/domain/src/lib.rs",
        dir: "backend/domain/src",
    },
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file without its comments, string contents and `#[cfg(test)]` items (a test
/// module at the end of a file is where this project keeps them).
fn code_of(text: &str) -> String {
    let before_tests = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut code = String::with_capacity(before_tests.len());
    let mut chars = before_tests.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                code.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                code.push('"');
            }
            // A character literal ('{', '\'', '\n'), not a lifetime ('a).
            '\'' => {
                let ahead: Vec<char> = chars.clone().take(3).collect();
                let length = match ahead.as_slice() {
                    ['\\', _, '\''] => 3,
                    [_, '\'', ..] => 2,
                    _ => 0,
                };
                code.push('\'');
                for _ in 0..length {
                    chars.next();
                }
                if length > 0 {
                    code.push('\'');
                }
            }
            _ => code.push(c),
        }
    }
    code
}

/// Every module of the crates below `backend/`, by its path (`["service", "games"]`), with
/// the file it is written in.
fn modules() -> BTreeMap<(usize, Vec<String>), PathBuf> {
    let repo = repo();
    let mut modules = BTreeMap::new();
    for (index, krate) in CRATES.iter().enumerate() {
        let dir = repo.join(krate.dir);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        for file in files {
            let relative = file.strip_prefix(&dir).expect("below the crate's folder");
            let mut path: Vec<String> = relative
                .iter()
                .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            if file == repo.join(krate.root) {
                path.clear();
            } else if path.last().is_some_and(|last| last == "mod") {
                path.pop();
            }
            // The domain crate's `tests/` and `benches/` sit beside `src/`, not below it; the
            // service crate's `bin/` and the domain crate are crates of their own.
            if index == 0 && matches!(path.first().map(String::as_str), Some("domain" | "bin")) {
                continue;
            }
            modules.insert((index, path), file);
        }
    }
    modules
}

/// The paths a `use` tree or an inline path names, flattened: `crate::{a::{b, c}, d}` gives
/// `crate::a::b`, `crate::a::c`, `crate::d`.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let rest: String = bytes[i..bytes.len().min(i + 8)].iter().collect();
        let keyword = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|k| rest.starts_with(k));
        // `$crate::` in a macro is the crate root too; `pub(crate)` is not a path.
        match keyword {
            Some(keyword) if starts_word || bytes[i - 1] == '$' => {
                let (tree, end) = read_tree(&bytes, i);
                expand(&tree, Vec::new(), &mut paths);
                i = end.max(i + keyword.len());
            }
            _ => i += 1,
        }
    }
    paths
}

/// A use tree: a path of segments, optionally followed by a group of subtrees.
#[derive(Debug)]
struct Tree {
    segments: Vec<String>,
    group: Vec<Tree>,
}

fn read_tree(chars: &[char], mut i: usize) -> (Tree, usize) {
    let mut tree = Tree {
        segments: Vec::new(),
        group: Vec::new(),
    };
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i < chars.len() && chars[i] == '{' {
            i += 1;
            loop {
                while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
                    i += 1;
                }
                if i >= chars.len() || chars[i] == '}' {
                    return (tree, i + 1);
                }
                let (sub, end) = read_tree(chars, i);
                tree.group.push(sub);
                i = end;
            }
        }
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        if i == start {
            return (tree, i);
        }
        tree.segments.push(chars[start..i].iter().collect());
        if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            i += 2;
        } else {
            return (tree, i);
        }
    }
}

fn expand(tree: &Tree, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    prefix.extend(tree.segments.iter().cloned());
    if tree.group.is_empty() {
        out.push(prefix);
    } else {
        for sub in &tree.group {
            expand(sub, prefix.clone(), out);
        }
    }
}

/// The files each file imports.
fn imports() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let modules = modules();
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for ((krate, module), file) in &modules {
        let text = std::fs::read_to_string(file).expect("source file");
        let is_dir_module = file.ends_with("mod.rs") || file.ends_with("lib.rs");
        let targets = edges.entry(file.clone()).or_default();
        for path in named_paths(&code_of(&text)) {
            let mut absolute: Vec<String> = Vec::new();
            let mut segments = path.iter().peekable();
            match segments.peek().map(|s| s.as_str()) {
                Some("crate") => {
                    segments.next();
                }
                Some("self") | Some("super") => {
                    absolute = module.clone();
                    // A file `a/b.rs` is module `a::b`; `super` from it is `a`.
                    while let Some(segment) = segments.peek() {
                        match segment.as_str() {
                            "self" => {}
                            "super" => {
                                absolute.pop();
                            }
                            _ => break,
                        }
                        segments.next();
                    }
                    let _ = is_dir_module;
                }
                _ => continue,
            }
            let mut target = modules.get(&(*krate, absolute.clone()));
            for segment in segments {
                absolute.push(segment.clone());
                match modules.get(&(*krate, absolute.clone())) {
                    Some(found) => target = Some(found),
                    None => break,
                }
            }
            if let Some(target) = target
                && target != file
            {
                targets.insert(target.clone());
            }
        }
    }
    edges
}

/// The strongly connected groups of more than one file (Tarjan's algorithm).
fn circles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a PathBuf) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        let edges = state.edges;
        for target in edges.get(node).into_iter().flatten() {
            if !state.index.contains_key(target) {
                visit(state, target);
                let low = state.low[node].min(state.low[target]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(target) {
                let low = state.low[node].min(state.index[target]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut group = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                group.push(member.clone());
                if member == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                state.found.push(group);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.found
}

fn shown(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn no_two_files_of_the_backend_import_each_other_in_a_circle() {
    let edges = imports();
    let found = circles(&edges);
    let described: Vec<String> = found
        .iter()
        .map(|group| {
            let members: BTreeSet<&PathBuf> = group.iter().collect();
            let arrows: Vec<String> = group
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| members.contains(to))
                        .map(move |to| format!("{} -> {}", shown(from), shown(to)))
                })
                .collect();
            arrows.join("; ")
        })
        .collect();
    assert!(
        described.is_empty(),
        "import circles:\n{}",
        described.join("\n")
    );
}

#[test]
fn the_circle_finder_sees_a_circle_through_use_groups_and_super() {
    let paths = named_paths("use crate::{a::{b, c::D}, e};\nfn f() { super::g::h(); }");
    assert_eq!(
        paths,
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "D"],
            vec!["crate", "e"],
            vec!["super", "g", "h"],
        ]
    );
    let a = PathBuf::from("a.rs");
    let b = PathBuf::from("b.rs");
    let c = PathBuf::from("c.rs");
    let edges = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([a.clone(), c.clone()])),
        (c.clone(), BTreeSet::new()),
    ]);
    assert_eq!(circles(&edges), vec![vec![a, b]]);
}

/// Every Rust file below the given folders of the repository (tests and benches of a crate
/// sit beside `src/`, so `engine/src` and `backend` hold no test files but `#[cfg(test)]`
/// modules, which `code_of` leaves out).
fn source_files(folders: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in folders {
        rust_files(&repo().join(folder), &mut files);
    }
    files.retain(|file| {
        let shown = shown(file);
        !shown.starts_with("backend/domain/tests") && !shown.starts_with("backend/domain/benches")
    });
    files
}

/// The derive lists in front of each item of `code`, joined per item.
fn derives_per_item(code: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut current = String::new();
    for line in code.lines() {
        let line = line.trim();
        if line.starts_with("#[derive(") || (!current.is_empty() && line.starts_with("#[")) {
            current.push_str(line);
        } else if !current.is_empty() {
            items.push(std::mem::take(&mut current));
        }
    }
    items
}

#[test]
fn no_diesel_row_is_an_api_schema() {
    const DIESEL: &[&str] = &[
        "Insertable",
        "Queryable",
        "QueryableByName",
        "Selectable",
        "AsChangeset",
        "Identifiable",
        "Associations",
    ];
    let mut both = Vec::new();
    for file in source_files(&["backend"]) {
        let code = code_of(&std::fs::read_to_string(&file).expect("source file"));
        for derives in derives_per_item(&code) {
            let names: BTreeSet<&str> = derives
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .collect();
            if names.contains("ToSchema") && DIESEL.iter().any(|d| names.contains(d)) {
                both.push(format!("{}: {derives}", shown(&file)));
            }
        }
    }
    assert!(
        both.is_empty(),
        "structs that are both a diesel row and an API schema:\n{}",
        both.join("\n")
    );
}

/// Each function of `code` with its first line (1-based) and its length in lines, found by
/// counting braces from its `fn` keyword.
fn function_lengths(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let mut depth = 0i64;
        let mut opened = false;
        for (offset, body_line) in lines[start..].iter().enumerate() {
            for c in body_line.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if !opened && body_line.trim_end().ends_with(';') {
                break;
            }
            if opened && depth <= 0 {
                found.push((name.to_string(), start + 1, offset + 1));
                break;
            }
        }
    }
    found
}

/// The name of the function a line declares, if it declares one.
fn function_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "pub" | "async" | "const" | "unsafe" | "extern" => {}
            w if w.starts_with("pub(") => {}
            "fn" => {
                let next = words.next()?;
                let end = next
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(next.len());
                return Some(&next[..end]).filter(|name| !name.is_empty());
            }
            _ => return None,
        }
    }
    None
}

#[test]
fn no_function_outside_tests_is_over_120_lines() {
    const LIMIT: usize = 120;
    let mut long = Vec::new();
    for file in source_files(&["backend", "engine/src"]) {
        let code = code_of(&std::fs::read_to_string(&file).expect("source file"));
        for (name, line, length) in function_lengths(&code) {
            if length > LIMIT {
                long.push(format!("{}:{line} {name}: {length} lines", shown(&file)));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines (split them into named steps):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_function_counter_counts_a_body_and_skips_a_declaration() {
    let code =
        "trait T {\n    fn declared(&self);\n}\npub(crate) fn two() {\n    let x = { 1 };\n}\n";
    assert_eq!(function_lengths(code), vec![("two".to_string(), 4, 3)]);
}

#[test]
fn the_csrf_input_is_written_once_in_the_templates() {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(repo().join("templates"))
        .expect("templates folder")
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).expect("template");
        let count = text.matches("name=\"csrf_token\"").count();
        if count > 0 {
            files.push((shown(&path), count));
        }
    }
    let total: usize = files.iter().map(|(_, count)| count).sum();
    assert_eq!(
        total, 1,
        "the CSRF input should be written in one template (an include or macro), found in: {files:?}"
    );
}

/// A result's consequences follow from the one results path: only `service/effects.rs`
/// (after the commit) tells live watchers or refolds ratings after a write; use cases
/// record what changed in their `Effects` instead (the background worker and the command
/// line run the catch-up's windows with `refold::step`, never a write's).
#[test]
fn only_the_effects_fire_a_results_consequences() {
    const CONSEQUENCES: &[&str] = &[
        "live::game_changed(",
        "live::event_changed(",
        "refold::step_with(",
        "recompute::recompute(",
        "recompute::recompute_all(",
    ];
    let mut fired_elsewhere = Vec::new();
    for file in source_files(&["backend"]) {
        let shown = shown(&file);
        if shown == "backend/service/effects.rs" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&file).expect("source file"));
        for call in CONSEQUENCES {
            if code.contains(call) {
                fired_elsewhere.push(format!("{shown}: {call}"));
            }
        }
    }
    assert!(
        fired_elsewhere.is_empty(),
        "consequences fired outside service/effects.rs: {fired_elsewhere:?}"
    );
    let effects = code_of(
        &std::fs::read_to_string(repo().join("backend/service/effects.rs")).expect("effects.rs"),
    );
    for call in &CONSEQUENCES[..4] {
        assert!(effects.contains(call), "effects.rs no longer calls {call}");
    }
}
