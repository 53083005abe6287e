//! The differ for methods and their HTTP routes.

use super::differ::Differ;
use super::{ChangeKind, Class, ItemKind};
use crate::ir::*;

impl Differ<'_> {
    /// Changes to a method's HTTP+JSON rules, matched by verb and path.
    pub(super) fn routes(&mut self, path: &str, old: &[HttpRule], new: &[HttpRule]) {
        let same = |a: &HttpRule, b: &HttpRule| a.verb == b.verb && a.path == b.path;
        let shown = |r: &HttpRule| format!("`{} {}`", r.verb, r.path);
        if old.is_empty() && !new.is_empty() {
            let listed: Vec<String> = new.iter().map(shown).collect();
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Compatible,
                format!(
                    "now on the HTTP+JSON binding ({}): `rest::RestMethod` is implemented and \
                     `decode_rest_request` serves it; nothing that compiled changes",
                    listed.join(", ")
                ),
            );
            return;
        }
        for o in old {
            match new.iter().find(|n| same(o, n)) {
                None => self.push(
                    ItemKind::Method,
                    path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "HTTP rule {} removed: `decode_rest_request` refuses requests on it (404, or \
                         405 when the path stays under another verb) that it used to serve, and \
                         `encode_call` no longer uses it",
                        shown(o)
                    ),
                ),
                Some(n) if n.body != o.body => {
                    let body = |b: &Option<String>| match b.as_deref() {
                        Some("*") => "the whole request in the body".to_string(),
                        Some(field) => format!("the field `{field}` in the body"),
                        None => "no body (the fields not in the path as query parameters)".into(),
                    };
                    self.push(
                        ItemKind::Method,
                        path,
                        ChangeKind::Changed,
                        Class::Breaking,
                        format!(
                            "HTTP rule {}: {} -> {}: the request is read from, and written to, \
                             another place",
                            shown(o),
                            body(&o.body),
                            body(&n.body)
                        ),
                    );
                }
                Some(_) => {}
            }
        }
        for n in new.iter().filter(|n| !old.iter().any(|o| same(o, n))) {
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Behaviour,
                format!(
                    "HTTP rule {} added: `decode_rest_request` also serves requests on it, and \
                     `encode_call` may pick it",
                    shown(n)
                ),
            );
        }
    }

    /// Methods, matched by Rust name: removed, changed (wire name, types, `requires`, routes,
    /// streaming), added.
    pub(super) fn methods(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        for m in &old.methods {
            match new.methods.iter().find(|n| n.rust_name == m.rust_name) {
                None => self.method_removed(m),
                Some(n) => self.method_changed(m, n),
            }
        }
        for n in &new.methods {
            if !old.methods.iter().any(|m| m.rust_name == n.rust_name) {
                self.method_added(n);
            }
        }
    }

    fn method_removed(&mut self, m: &MethodDef) {
        let new = self.new.0;
        let path = &m.rust_name;
        let mut detail = format!(
            "method removed: `method::{}` and its `MethodName`, `Reply` and `Request` \
             variants are gone",
            m.rust_name
        );
        if !new.methods.iter().any(|n| n.name == m.name) {
            detail.push_str(&format!(
                "; a server built on the new table refuses `{}` (-32601)",
                m.name
            ));
        }
        self.push(
            ItemKind::Method,
            path,
            ChangeKind::Removed,
            Class::Breaking,
            detail,
        );
    }

    fn method_changed(&mut self, m: &MethodDef, n: &MethodDef) {
        let path = &m.rust_name;
        if m.name != n.name {
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "wire name `{}` -> `{}`: Rust code is unaffected (the same \
                     `method::{}` and `MethodName`, `Reply` and `Request` variants; \
                     `NAME` and `MethodName::as_str` give the new name); on the wire, \
                     a server built on the new table refuses peers that call `{}` \
                     (-32601, method not found), and a client calls `{}`, which a \
                     peer on the old schema does not know",
                    m.name, n.name, m.rust_name, m.name, n.name
                ),
            );
        }
        for (what, a, b) in [
            ("params", &m.params, &n.params),
            ("result", &m.result, &n.result),
        ] {
            if a != b {
                self.push(
                    ItemKind::Method,
                    path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!("{what} `{a}` -> `{b}`"),
                );
            }
        }
        self.requires(m, n);
        self.routes(path, &m.http, &n.http);
        if m.streaming != n.streaming {
            let detail = if n.streaming {
                "now streaming: the reply is an SSE stream of events"
            } else {
                "no longer streaming: the reply is a single JSON-RPC response"
            };
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                detail,
            );
        }
    }

    /// The `requires` column: a path added is breaking (requests without it are refused), one
    /// removed a behaviour change.
    fn requires(&mut self, m: &MethodDef, n: &MethodDef) {
        let path = &m.rust_name;
        let now: Vec<&String> = n
            .requires
            .iter()
            .filter(|r| !m.requires.contains(r))
            .collect();
        let no_longer: Vec<&String> = m
            .requires
            .iter()
            .filter(|r| !n.requires.contains(r))
            .collect();
        let listed = |paths: &[&String]| -> String {
            paths
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pronoun = |paths: &[&String]| {
            if paths.len() == 1 {
                ("it", "it is")
            } else {
                ("them", "one is")
            }
        };
        if !now.is_empty() {
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "now requires {}: `decode_request` refuses (-32602) a request in \
                     which {} absent, null or empty{}, which it used to accept",
                    listed(&now),
                    pronoun(&now).1,
                    if now.iter().any(|p| p.contains('.')) {
                        " (below an optional object: when that object is sent)"
                    } else {
                        ""
                    }
                ),
            );
        }
        if !no_longer.is_empty() {
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Behaviour,
                format!(
                    "no longer requires {}: `decode_request` accepts a request \
                     without {}, which it used to refuse (-32602)",
                    listed(&no_longer),
                    pronoun(&no_longer).0
                ),
            );
        }
    }

    fn method_added(&mut self, n: &MethodDef) {
        let old = self.old.0;
        let signature = format!(
            "{} -> {}{}",
            n.params,
            n.result,
            if n.streaming { ", streaming" } else { "" }
        );
        let wire = if n.name == n.rust_name {
            String::new()
        } else {
            format!(", wire name `{}`", n.name)
        };
        if old.methods.is_empty() {
            self.push(
                ItemKind::Method,
                &n.rust_name,
                ChangeKind::Added,
                Class::Compatible,
                format!(
                    "new method ({signature}{wire}) in a new method table: `MethodName`, \
                     `Reply` and `Request` are new items"
                ),
            );
        } else {
            self.push(
                ItemKind::Method,
                &n.rust_name,
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new method ({signature}{wire}): new variants of `MethodName`, `Reply` \
                     and `Request`, which are not #[non_exhaustive], so exhaustive matches (a \
                     server's `match` on `Request`) stop compiling"
                ),
            );
        }
    }
}
