//! The methods of a proto: its service's rpcs (name, request and response types, server
//! streaming, `google.api.http` rules), completed by the method table beside it (`doc`,
//! `requires`, `rust_name`, `http_also_served`), which must agree with the rpcs row by row.

use crate::diag::Diagnostics;
use crate::ir::*;
use crate::load::{RawMethod, RawMethods, Source};
use crate::{lower, routes};
use std::collections::BTreeMap;

/// One rpc of the proto's service.
#[derive(Clone, Debug)]
pub(crate) struct Rpc {
    pub(crate) name: String,
    /// The request message's type id.
    pub(crate) params: TypeId,
    /// The response message's type id.
    pub(crate) result: TypeId,
    /// `returns (stream ...)`.
    pub(crate) streaming: bool,
    pub(crate) http: Vec<HttpRule>,
    /// The leading comment.
    pub(crate) doc: Option<String>,
    /// `line L, column C` of the declaration.
    pub(crate) location: String,
}

/// The model's methods: one per rpc, in the proto's order. With a method table, its rows must be
/// the rpcs in the same order, and what they repeat of the proto (`params`, `result`,
/// `streaming`, `http` when given) must agree with it; `doc`, `requires` and `rust_name` are the
/// table's. Without one, the doc is the rpc's comment and nothing is required.
pub(crate) fn methods(
    rpcs: &[Rpc],
    table: Option<&Source<RawMethods>>,
    proto_label: &str,
    types: &BTreeMap<TypeId, TypeDef>,
    diags: &mut Diagnostics,
) -> Vec<MethodDef> {
    check_http_rules(rpcs, proto_label, types, diags);
    let Some(table) = table else {
        return rpcs.iter().map(from_proto).collect();
    };
    let file = table.label.as_str();
    let rows = &table.value.method;
    let mut methods = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let at = format!("/method/{i}");
        let Some(rpc) = rpcs.get(i).filter(|r| r.name == row.name) else {
            misplaced_row(row, i, rpcs, file, proto_label, diags);
            continue;
        };
        check_row_agrees(row, &at, rpc, file, proto_label, diags);
        let mut method = from_proto(rpc);
        method.rust_name = row.rust_name.clone().unwrap_or_else(|| row.name.clone());
        method.doc = row.doc.clone();
        method.requires = row.requires.clone();
        method.http_also_served = lower::also_served_rules(row, i, file, types, diags);
        method.unsupported = row.unsupported.clone();
        methods.push(method);
    }
    for rpc in rpcs {
        if rows.iter().any(|r| r.name == rpc.name) {
            continue;
        }
        diags
            .push(
                file,
                "/method",
                format!(
                    "the rpc `{}` ({proto_label}, {}) has no row",
                    rpc.name, rpc.location
                ),
            )
            .help("add a [[method]] row for it, in the proto's order (name, params, result, streaming, doc, and requires if any)");
    }
    methods
}

/// Every rpc's `google.api.http` rules, checked against its request and response types.
fn check_http_rules(
    rpcs: &[Rpc],
    proto_label: &str,
    types: &BTreeMap<TypeId, TypeDef>,
    diags: &mut Diagnostics,
) {
    for rpc in rpcs {
        for rule in &rpc.http {
            for p in routes::check(rule, &rpc.params, &rpc.result, types) {
                diags
                    .push(
                        proto_label,
                        rpc.location.clone(),
                        format!(
                            "the google.api.http rule `{} {}` of the rpc `{}`: {}",
                            rule.verb, rule.path, rpc.name, p.message
                        ),
                    )
                    .help(p.help);
            }
        }
    }
}

/// The method of an rpc as the proto alone gives it (doc from its comment, nothing required).
fn from_proto(rpc: &Rpc) -> MethodDef {
    MethodDef {
        name: rpc.name.clone(),
        rust_name: rpc.name.clone(),
        params: rpc.params.clone(),
        result: rpc.result.clone(),
        streaming: rpc.streaming,
        doc: rpc
            .doc
            .clone()
            .unwrap_or_else(|| format!("The `{}` rpc.", rpc.name)),
        requires: Vec::new(),
        http: rpc.http.clone(),
        http_also_served: Vec::new(),
        unsupported: None,
    }
}

/// A row that is not the rpc at its position: another rpc's (out of order) or no rpc's.
fn misplaced_row(
    row: &RawMethod,
    i: usize,
    rpcs: &[Rpc],
    file: &str,
    proto_label: &str,
    diags: &mut Diagnostics,
) {
    let at = format!("/method/{i}");
    match rpcs.iter().position(|r| r.name == row.name) {
        Some(j) => diags
            .push(
                file,
                format!("{at}/name"),
                format!(
                    "row {i} is `{}`, which is rpc {j} of {proto_label}",
                    row.name
                ),
            )
            .help("keep the rows in the order of the proto's rpcs, one row per rpc"),
        None => diags
            .push(
                file,
                format!("{at}/name"),
                format!("`{}` is no rpc of {proto_label}", row.name),
            )
            .help(format!(
                "the proto's rpcs are {}; fix the name or remove the row",
                rpcs.iter()
                    .map(|r| format!("`{}`", r.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
    };
}

/// What a row repeats of its rpc (`params`, `result`, `streaming`, `http` when given) must be
/// the rpc's.
fn check_row_agrees(
    row: &RawMethod,
    at: &str,
    rpc: &Rpc,
    file: &str,
    proto_label: &str,
    diags: &mut Diagnostics,
) {
    let mut disagree = |key: &str, table: String, proto: String| {
        let help = if key == "http" {
            format!("leave `http` out (the proto gives the rules), or write the proto's: {proto}")
        } else {
            format!("the rpc decides: write {proto}, or change the rpc")
        };
        diags
            .push(
                file,
                format!("{at}/{key}"),
                format!(
                    "`{}` has {key} {table} here, but {proto} in {proto_label} ({})",
                    row.name, rpc.location
                ),
            )
            .help(help);
    };
    if row.params != rpc.params {
        disagree(
            "params",
            format!("`{}`", row.params),
            format!("`{}`", rpc.params),
        );
    }
    if row.result != rpc.result {
        disagree(
            "result",
            format!("`{}`", row.result),
            format!("`{}`", rpc.result),
        );
    }
    if row.streaming != rpc.streaming {
        disagree(
            "streaming",
            row.streaming.to_string(),
            rpc.streaming.to_string(),
        );
    }
    let http = lower::http_rules(row);
    if !http.is_empty() && http != rpc.http {
        let show = |rules: &[HttpRule]| {
            rules
                .iter()
                .map(|r| format!("`{} {}`", r.verb, r.path))
                .collect::<Vec<_>>()
                .join(", ")
        };
        disagree("http", show(&http), show(&rpc.http));
    }
}
