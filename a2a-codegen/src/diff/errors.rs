//! The differ for error rows.

use super::differ::Differ;
use super::{ChangeKind, Class, ItemKind};
use crate::ir::*;

impl Differ<'_> {
    /// Pairs the rows of the two error tables: by Rust name first, then the rows left on either
    /// side by code (a rename: the same code under a new Rust name).
    pub(super) fn error_pairs(&self) -> Vec<(Option<usize>, Option<usize>)> {
        let (old, new) = (&self.old.0.errors, &self.new.0.errors);
        let mut to_new: Vec<Option<usize>> = old
            .iter()
            .map(|e| new.iter().position(|n| n.name == e.name))
            .collect();
        for (i, e) in old.iter().enumerate() {
            if to_new[i].is_some() {
                continue;
            }
            to_new[i] = new.iter().enumerate().position(|(j, n)| {
                n.code == e.code
                    && !old.iter().any(|o| o.name == n.name)
                    && !to_new.contains(&Some(j))
            });
        }
        let mut pairs: Vec<(Option<usize>, Option<usize>)> = to_new
            .iter()
            .enumerate()
            .map(|(i, j)| (Some(i), *j))
            .collect();
        pairs.extend(
            (0..new.len())
                .filter(|j| !to_new.contains(&Some(*j)))
                .map(|j| (None, Some(j))),
        );
        pairs
    }

    pub(super) fn errors(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        let new_row_for = |code: i64| new.errors.iter().find(|n| n.code == code);
        let old_row_for = |code: i64| old.errors.iter().find(|e| e.code == code);
        for pair in self.error_pairs() {
            let (e, n) = match pair {
                (Some(i), Some(j)) => (&old.errors[i], &new.errors[j]),
                (Some(i), None) => {
                    let e = &old.errors[i];
                    let now = match new_row_for(e.code) {
                        Some(other) => format!("`A2aError::{}`", other.name),
                        None => "`A2aError::Other`".to_string(),
                    };
                    self.push(
                        ItemKind::Error,
                        format!("A2aError::{}", e.name),
                        ChangeKind::Removed,
                        Class::Breaking,
                        format!(
                            "code {}: the variant is gone (code naming it stops compiling); the \
                             code now decodes to {now}",
                            e.code
                        ),
                    );
                    continue;
                }
                (None, Some(j)) => {
                    let n = &new.errors[j];
                    self.error_added(n, old_row_for(n.code).map(|e| e.name.as_str()));
                    continue;
                }
                (None, None) => continue,
            };
            let path = format!("A2aError::{}", e.name);
            if e.name != n.name {
                self.push(
                    ItemKind::Error,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "renamed: `A2aError::{}` -> `A2aError::{}` (code {}): Rust code naming \
                         the old variant stops compiling; nothing changes on the wire (the same \
                         code, decoded to the renamed variant)",
                        e.name, n.name, e.code
                    ),
                );
            }
            let code = e.code;
            if e.code != n.code {
                self.push(
                    ItemKind::Error,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "code {} -> {}: the variant now stands for another code on the wire",
                        e.code, n.code
                    ),
                );
            }
            let reason = |r: &Option<String>| r.clone().unwrap_or_else(|| "(none)".into());
            let kind = |k: ErrorKind| match k {
                ErrorKind::A2a => "a2a",
                ErrorKind::JsonRpc => "jsonrpc",
                ErrorKind::Custom => "custom",
            };
            let behaviour = [
                (
                    e.grpc != n.grpc,
                    format!(
                        "gRPC status {} -> {} (what `grpc_status()` returns)",
                        e.grpc, n.grpc
                    ),
                ),
                (
                    e.http != n.http,
                    format!(
                        "HTTP status {} -> {} (what `http_status()` returns)",
                        e.http, n.http
                    ),
                ),
                (
                    e.message != n.message,
                    format!(
                        "default message {:?} -> {:?} (what `from_code` fills in)",
                        e.message, n.message
                    ),
                ),
                (
                    e.reason != n.reason,
                    format!(
                        "ErrorInfo reason {} -> {} (what `error_info` writes)",
                        reason(&e.reason),
                        reason(&n.reason)
                    ),
                ),
                (
                    e.spec_name != n.spec_name,
                    format!(
                        "spec name {} -> {} (in `ERROR_TABLE`)",
                        e.spec_name, n.spec_name
                    ),
                ),
                (
                    e.kind != n.kind,
                    format!(
                        "table {} -> {} (`ErrorRow::standard` in `ERROR_TABLE`)",
                        kind(e.kind),
                        kind(n.kind)
                    ),
                ),
            ];
            for (changed, detail) in behaviour {
                if changed {
                    self.push(
                        ItemKind::Error,
                        &path,
                        ChangeKind::Changed,
                        Class::Behaviour,
                        format!("code {code}: {detail}"),
                    );
                }
            }
        }
    }

    /// A row only in the new table; `was` is the old table's row with the same code, if any.
    pub(super) fn error_added(&mut self, n: &ErrorDef, was: Option<&str>) {
        let path = format!("A2aError::{}", n.name);
        let head = format!("code {} ({}, HTTP {})", n.code, n.grpc, n.http);
        if self.old.0.errors.is_empty() {
            self.push(
                ItemKind::Error,
                path,
                ChangeKind::Added,
                Class::Compatible,
                format!(
                    "{head} in a new error table: `A2aError`, `ERROR_TABLE` and `is_code_taken` \
                     are new items"
                ),
            );
            return;
        }
        let decoded = match was {
            Some(name) => format!("`A2aError::{name}`"),
            None => "`A2aError::Other`".to_string(),
        };
        if was.is_none() && !crate::facts::RESERVED.contains(&n.code) {
            self.push(
                ItemKind::Error,
                path,
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "{head}: `A2aError` is #[non_exhaustive], so matches keep compiling, but the \
                     code, which used to decode to {decoded}, now decodes to the new variant, and \
                     a custom error (`#[derive(AgentError)]`) using the code stops compiling (the \
                     code is now taken)"
                ),
            );
        } else {
            let custom = if was.is_some() {
                "custom errors could not use the code before either"
            } else {
                "custom errors could never use the code: it is in the JSON-RPC reserved block"
            };
            self.push(
                ItemKind::Error,
                path,
                ChangeKind::Added,
                Class::Behaviour,
                format!(
                    "{head}: `A2aError` is #[non_exhaustive], so matches keep compiling; the \
                     code, which used to decode to {decoded}, now decodes to the new variant; \
                     {custom}"
                ),
            );
        }
    }
}
