//! `cargo xtask cycles`: import cycles between a crate's modules, read from its `crate::` paths.
//!
//! The rule, for one crate's `src/` directory:
//!
//! - a **node** is a file module: `lib.rs` or `main.rs` is the root, `foo.rs` and `foo/mod.rs`
//!   are `foo`, `foo/bar.rs` is `foo::bar` (inline `mod x { .. }` blocks count as their file);
//! - an **edge** goes from a file module to the longest prefix of a `crate::a::b::..` path it
//!   names that is itself a file module: in `use` items and in paths anywhere in its code
//!   (macro bodies included, since they are tokens); items under `#[cfg(test)]` are left out,
//!   and so is documentation (intra-doc links are not imports);
//! - a path that names the root (`crate::X` where `X` is no file module) makes no edge: the
//!   root's re-exports are the crate's surface, below nothing;
//! - a **cycle** is a strongly connected component of more than one module.
//!
//! `super::` and bare child paths (`mod x; use x::Y`) are not read: a parent and its own
//! children are one room, and `crate::` is how one room reaches into another.
//!
//! A parser (syn) rather than a text search: a `crate::` inside a string, a comment or a doc
//! link is not an import, and `use crate::{a::X, b::{c::Y}}` names two modules.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One edge's evidence: the file and line of a path that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The file, as given (under the `src/` directory passed in).
    pub file: PathBuf,
    /// Its 1-based line.
    pub line: usize,
    /// The path as written, `crate::a::b`.
    pub path: String,
}

/// The module graph of one crate: its file modules and, per module, the modules it names with
/// the first place it names each.
#[derive(Debug, Default)]
pub struct Graph {
    /// Module path (`""` for the root) to the file that holds it.
    pub modules: BTreeMap<String, PathBuf>,
    /// From a module to the modules it names.
    pub edges: BTreeMap<String, BTreeMap<String, Site>>,
}

/// Reads the crate whose sources are under `src`.
///
/// # Errors
///
/// A file that cannot be read or parsed, named with its path.
pub fn read_crate(src: &Path) -> Result<Graph, String> {
    let mut files = Vec::new();
    collect_rs(src, &mut files).map_err(|e| format!("{}: {e}", src.display()))?;
    files.sort();
    let mut graph = Graph::default();
    for file in &files {
        if let Some(module) = module_of(src, file) {
            graph.modules.insert(module, file.clone());
        }
    }
    for (module, file) in graph.modules.clone() {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text)
            .map_err(|e| format!("{}: does not parse: {e}", file.display()))?;
        let mut paths = Vec::new();
        for item in &parsed.items {
            item_paths(item, &mut paths);
        }
        for path in paths {
            let Some(target) = target_of(&graph.modules, &path) else {
                continue;
            };
            if target == module {
                continue;
            }
            graph
                .edges
                .entry(module.clone())
                .or_default()
                .entry(target)
                .or_insert_with(|| Site {
                    file: file.clone(),
                    line: line_of(&text, &path),
                    path: format!("crate::{}", path.join("::")),
                });
        }
    }
    Ok(graph)
}

/// The line (1-based) where `path` is first named: the first line with `crate::` then its
/// first segment, or else the first that names its last segment (a path inside a `use`
/// group), or else 1. Text, not spans: proc-macro2 gives lines only with a feature that would
/// change its build for every crate of the workspace.
fn line_of(text: &str, path: &[String]) -> usize {
    let whole = format!("crate::{}", path[0]);
    let last = path.last().map_or("", String::as_str);
    let find = |needle: &str| {
        text.lines()
            .position(|l| !l.trim_start().starts_with("//") && l.contains(needle))
    };
    find(&whole).or_else(|| find(last)).map_or(1, |i| i + 1)
}

/// Every `.rs` file under `dir` (in no particular order).
pub fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The module a file holds: `""` for the crate root, `a::b` for `a/b.rs` or `a/b/mod.rs`;
/// `None` for a binary under `bin/` (a crate of its own).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    match (stem, parts.is_empty()) {
        ("lib" | "main", true) => {}
        ("mod", _) => {}
        (stem, _) => parts.push(stem.to_owned()),
    }
    Some(parts.join("::"))
}

/// The file module a path after `crate::` reaches: its longest prefix that is one, or `None`
/// when that is only the root.
fn target_of(modules: &BTreeMap<String, PathBuf>, path: &[String]) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| modules.contains_key(m))
}

/// Whether the attributes hold `#[cfg(test)]` (alone, not `cfg(any(test, ..))`).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The `crate::` paths of one item (after `crate`); none under `#[cfg(test)]`.
fn item_paths(item: &syn::Item, out: &mut Vec<Vec<String>>) {
    use quote::ToTokens as _;
    let attrs = match item {
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        syn::Item::Trait(t) => &t.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Type(t) => &t.attrs,
        syn::Item::Macro(m) => &m.attrs,
        _ => return token_paths(item.to_token_stream(), out),
    };
    if is_test_only(attrs) {
        return;
    }
    match item {
        syn::Item::Use(u) => {
            if let syn::UseTree::Path(p) = &u.tree {
                if p.ident == "crate" {
                    use_paths(&p.tree, &mut Vec::new(), out);
                }
            }
        }
        // An inline module's items are read one by one, so that its own `#[cfg(test)]` items
        // are left out too.
        syn::Item::Mod(m) => {
            if let Some((_, items)) = &m.content {
                for item in items {
                    item_paths(item, out);
                }
            }
        }
        _ => {
            // Documentation is not code: doc attributes are dropped before the tokens are read.
            let mut tokens = TokenStream::new();
            for tree in item.to_token_stream() {
                tokens.extend([tree]);
            }
            token_paths(strip_docs(tokens), out);
        }
    }
}

/// The paths of a `use crate::..` tree, each from after `crate`.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            if n.ident != "self" {
                path.push(n.ident.to_string());
            }
            out.push(path);
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push(path);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

/// The tokens with every `#[doc = ..]` attribute (`///` and `//!` comments) removed.
fn strip_docs(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < trees.len() {
        if let TokenTree::Punct(p) = &trees[i] {
            if p.as_char() == '#' {
                let (bang, next) = match trees.get(i + 1) {
                    Some(TokenTree::Punct(b)) if b.as_char() == '!' => (1, trees.get(i + 2)),
                    other => (0, other),
                };
                if let Some(TokenTree::Group(g)) = next {
                    let is_doc =
                        g.stream().into_iter().next().is_some_and(
                            |t| matches!(&t, TokenTree::Ident(ident) if ident == "doc"),
                        );
                    if is_doc {
                        i += 2 + bang;
                        continue;
                    }
                }
            }
        }
        match &trees[i] {
            TokenTree::Group(g) => {
                let mut inner = proc_macro2::Group::new(g.delimiter(), strip_docs(g.stream()));
                inner.set_span(g.span());
                out.extend([TokenTree::Group(inner)]);
            }
            other => out.extend([other.clone()]),
        }
        i += 1;
    }
    out
}

/// Every `crate :: a :: b ..` run in a token stream (groups searched too), from after `crate`.
fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => token_paths(g.stream(), out),
            TokenTree::Ident(ident) if ident == "crate" => {
                let mut path = Vec::new();
                let mut j = i + 1;
                while is_colon2(&trees, j) {
                    match trees.get(j + 2) {
                        Some(TokenTree::Ident(next)) => {
                            path.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                if !path.is_empty() {
                    out.push(path);
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Whether `trees[at..]` starts with `::`.
fn is_colon2(trees: &[TokenTree], at: usize) -> bool {
    matches!(
        (trees.get(at), trees.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// The cycles of a graph: its strongly connected components of more than one module, each
/// sorted, in order (Tarjan's algorithm, iterative over sorted maps, so the output is stable).
#[must_use]
pub fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            let next: Vec<&'g str> = self
                .graph
                .edges
                .get(v)
                .map(|e| e.keys().map(String::as_str).collect())
                .unwrap_or_default();
            for w in next {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.modules.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.found.sort();
    t.found
}

/// A report of one crate's cycles: each cycle's modules and, for every edge inside it, the
/// first place that makes it, so the fix can start there.
#[must_use]
pub fn report(graph: &Graph, found: &[Vec<String>]) -> String {
    let mut text = String::new();
    for component in found {
        let _ = writeln!(text, "  cycle through {}:", component.join(", "));
        let members: BTreeSet<&String> = component.iter().collect();
        for from in component {
            for (to, site) in graph.edges.get(from).into_iter().flatten() {
                if members.contains(to) {
                    let _ = writeln!(
                        text,
                        "    {from} -> {to}  ({}:{}: {})",
                        site.file.display(),
                        site.line,
                        site.path
                    );
                }
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate laid out in a temporary directory.
    fn crate_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Graph) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let graph = read_crate(dir.path()).unwrap();
        (dir, graph)
    }

    #[test]
    fn a_use_tree_and_an_inline_path_make_edges() {
        let (_dir, graph) = crate_with(&[
            ("lib.rs", "mod a; mod b; mod c; pub use a::A;"),
            ("a.rs", "use crate::{b::{B}, c as _};\npub struct A;"),
            ("b/mod.rs", "pub struct B; mod inner;"),
            ("b/inner.rs", "fn f() { let _ = crate::a::A; }"),
            ("c.rs", ""),
        ]);
        // No cycle: b::inner -> a -> b, but b reaches b::inner by `mod`, not by `crate::`.
        assert!(cycles(&graph).is_empty());
        // a -> b and a -> c; b::inner -> a; but nothing goes from b to b::inner by `crate::`.
        let edges: Vec<(&str, &str)> = graph
            .edges
            .iter()
            .flat_map(|(f, t)| t.keys().map(move |t| (f.as_str(), t.as_str())))
            .collect();
        assert_eq!(edges, [("a", "b"), ("a", "c"), ("b::inner", "a")]);
    }

    #[test]
    fn two_modules_naming_each_other_are_a_cycle_with_their_sites() {
        let (_dir, graph) = crate_with(&[
            ("lib.rs", "mod x; mod y;"),
            ("x.rs", "pub fn f() {}\nfn g() { crate::y::h() }"),
            ("y.rs", "use crate::x::f;\npub fn h() { f() }"),
        ]);
        let found = cycles(&graph);
        assert_eq!(found, [["x".to_owned(), "y".to_owned()]]);
        let text = report(&graph, &found);
        assert!(text.contains("cycle through x, y"), "{text}");
        assert!(
            text.contains("x -> y") && text.contains("x.rs:2: crate::y::h"),
            "{text}"
        );
        assert!(
            text.contains("y -> x") && text.contains("y.rs:1: crate::x::f"),
            "{text}"
        );
    }

    #[test]
    fn tests_docs_strings_and_root_paths_make_no_edge() {
        let (_dir, graph) = crate_with(&[
            ("lib.rs", "mod x; mod y; pub struct Root;"),
            (
                "x.rs",
                "/// See [`crate::y::h`].\npub fn f() -> &'static str { \"crate::y::h\" }\n\
                 #[cfg(test)]\nmod tests { use crate::y::h; }\n\
                 #[cfg(test)]\nuse crate::y as _;\n\
                 fn r() -> crate::Root { crate::Root }",
            ),
            ("y.rs", "use crate::x::f;\npub fn h() { f(); }"),
        ]);
        assert!(cycles(&graph).is_empty());
        assert_eq!(graph.edges.len(), 1, "{:?}", graph.edges);
    }

    #[test]
    fn a_parse_error_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("lib.rs"), "mod a;\nfn broken( {").unwrap();
        let err = read_crate(dir.path()).unwrap_err();
        assert!(err.contains("lib.rs: does not parse"), "{err}");
    }
}
