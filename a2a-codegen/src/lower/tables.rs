//! The TOML tables to the IR: the error table, a custom error table, the method table (and the
//! HTTP rules of its rows, which a proto's rpcs take too).

use crate::diag::Diagnostics;
use crate::ir::*;
use crate::load::{RawCustomErrors, RawErrors, RawMethod, RawMethods, Source};
use crate::naming;
use crate::routes;
use a2a_facts::{custom, http};
use std::collections::BTreeMap;

/// Lowers the error table. Row problems are reported with `/error/<index>/<key>` pointers.
pub fn lower_errors(source: &Source<RawErrors>, diags: &mut Diagnostics) -> Vec<ErrorDef> {
    let file = source.label.as_str();
    let mut out = Vec::new();
    for (i, row) in source.value.error.iter().enumerate() {
        // A bad value is reported and replaced, so that the row still takes part in the
        // whole-table checks (duplicate codes and names) and every problem shows in one run.
        let at = format!("/error/{i}");
        let kind = match row.kind.as_str() {
            "a2a" => ErrorKind::A2a,
            "jsonrpc" => ErrorKind::JsonRpc,
            other => {
                diags
                    .push(
                        file,
                        format!("{at}/kind"),
                        format!("unknown kind `{other}`"),
                    )
                    .help("use \"a2a\" or \"jsonrpc\"");
                ErrorKind::A2a
            }
        };
        let http = match u16::try_from(row.http) {
            Ok(h) if (100..=599).contains(&h) => h,
            _ => {
                diags
                    .push(
                        file,
                        format!("{at}/http"),
                        format!("HTTP status {} is out of range", row.http),
                    )
                    .help("use 100..=599");
                500
            }
        };
        out.push(ErrorDef {
            name: row.name.clone(),
            spec_name: row.spec_name.clone(),
            code: row.code,
            kind,
            grpc: row.grpc.clone(),
            http,
            message: row.message.clone(),
            reason: row.reason.clone(),
            doc: row.doc.clone(),
        });
    }
    out
}

/// The enum name of a custom error table that does not name one.
pub const DEFAULT_CUSTOM_ENUM: &str = "CustomError";

/// Lowers a user's own error table, filling in the defaults `#[derive(AgentError)]` uses: the
/// message is the name in words, gRPC `UNKNOWN`, HTTP the one `google.rpc.Code` gives the gRPC
/// status, the reason the name in UPPER_SNAKE_CASE, the spec name the name, the doc the message.
/// The reasons are checked with the codes, against the standard table, in [`crate::validate`].
pub fn lower_custom_errors(
    source: &Source<RawCustomErrors>,
    diags: &mut Diagnostics,
) -> CustomErrors {
    let file = source.label.as_str();
    let mut rows = Vec::new();
    let mut reason_written = Vec::new();
    for (i, row) in source.value.error.iter().enumerate() {
        let at = format!("/error/{i}");
        reason_written.push(row.reason.is_some());
        if let Some(kind) = row.kind.as_deref().filter(|k| *k != "custom") {
            diags
                .push(file, format!("{at}/kind"), format!("kind `{kind}` in a custom table"))
                .help("leave `kind` out, or write \"custom\": a2a and jsonrpc rows belong to the standard table");
        }
        let grpc = row
            .grpc
            .clone()
            .unwrap_or_else(|| custom::DEFAULT_GRPC.to_string());
        let http = match row.http {
            None => custom::default_http(&grpc),
            Some(h) => match u16::try_from(h) {
                Ok(h) if http::STATUS_RANGE.contains(&h) => h,
                _ => {
                    diags
                        .push(
                            file,
                            format!("{at}/http"),
                            format!("HTTP status {h} is out of range"),
                        )
                        .help(format!(
                            "use {}..={}",
                            http::STATUS_RANGE.start(),
                            http::STATUS_RANGE.end()
                        ));
                    custom::DEFAULT_HTTP
                }
            },
        };
        let message = row
            .message
            .clone()
            .unwrap_or_else(|| naming::sentence(&row.name));
        rows.push(ErrorDef {
            name: row.name.clone(),
            spec_name: row.spec_name.clone().unwrap_or_else(|| row.name.clone()),
            code: row.code,
            kind: ErrorKind::Custom,
            grpc,
            http,
            reason: Some(
                row.reason
                    .clone()
                    .unwrap_or_else(|| naming::upper_snake(&row.name)),
            ),
            doc: row.doc.clone().unwrap_or_else(|| message.clone()),
            message,
        });
    }
    CustomErrors {
        enum_name: source
            .value
            .enum_name
            .clone()
            .unwrap_or_else(|| DEFAULT_CUSTOM_ENUM.to_string()),
        rows,
        reason_written,
    }
}

/// Lowers the method table of a JSON Schema route, checking each HTTP rule against the types.
pub fn lower_methods(
    source: &Source<RawMethods>,
    types: &BTreeMap<TypeId, TypeDef>,
    diags: &mut Diagnostics,
) -> Vec<MethodDef> {
    let file = source.label.as_str();
    let mut methods = Vec::new();
    for (i, m) in source.value.method.iter().enumerate() {
        let http = http_rules(m);
        for (j, rule) in http.iter().enumerate() {
            for p in routes::check(rule, &m.params, &m.result, types) {
                diags
                    .push(file, format!("/method/{i}/http/{j}/{}", p.key), p.message)
                    .help(p.help);
            }
        }
        let http_also_served = also_served_rules(m, i, file, types, diags);
        methods.push(MethodDef {
            name: m.name.clone(),
            rust_name: m.rust_name.clone().unwrap_or_else(|| m.name.clone()),
            params: m.params.clone(),
            result: m.result.clone(),
            streaming: m.streaming,
            doc: m.doc.clone(),
            requires: m.requires.clone(),
            http,
            http_also_served,
            unsupported: m.unsupported.clone(),
        });
    }
    methods
}

/// The `http_also_served` column of method row `i`, as IR rules, each checked against the
/// method's types like the `http` rules.
pub(crate) fn also_served_rules(
    row: &RawMethod,
    i: usize,
    file: &str,
    types: &BTreeMap<TypeId, TypeDef>,
    diags: &mut Diagnostics,
) -> Vec<HttpRule> {
    let rules = to_rules(&row.http_also_served);
    for (j, rule) in rules.iter().enumerate() {
        for p in routes::check(rule, &row.params, &row.result, types) {
            diags
                .push(
                    file,
                    format!("/method/{i}/http_also_served/{j}/{}", p.key),
                    p.message,
                )
                .help(p.help);
        }
    }
    rules
}

/// The `http` column of a method row, as IR rules.
pub(crate) fn http_rules(row: &RawMethod) -> Vec<HttpRule> {
    to_rules(&row.http)
}

fn to_rules(rules: &[crate::load::RawHttpRule]) -> Vec<HttpRule> {
    rules
        .iter()
        .map(|r| HttpRule {
            verb: r.verb.clone(),
            path: r.path.clone(),
            body: r.body.clone(),
            response_body: r.response_body.clone(),
        })
        .collect()
}
