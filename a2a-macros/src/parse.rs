//! From the derive input to a checked model, every problem collected as one `syn::Error`.

use crate::rules;
use a2a_facts::{case, custom, grpc, http, jsonrpc};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{
    Attribute, Data, DeriveInput, Error, Expr, Fields, Ident, Lit, LitInt, LitStr, Meta, Result,
    Token, UnOp,
};

/// A checked `#[derive(AgentError)]` input.
pub struct Input {
    /// The enum.
    pub ident: Ident,
    /// The path of the generated table's `__derive` module: `<crate>::__derive`, where `<crate>`
    /// is `::a2a_types::v1` unless `#[a2a(crate = "...")]` says otherwise.
    pub derive_mod: TokenStream,
    /// The variants, in declaration order.
    pub variants: Vec<Variant>,
}

/// One variant: one error code.
pub struct Variant {
    pub ident: Ident,
    /// The name without `r#`.
    pub name: String,
    pub code: Code,
    pub message: String,
    pub grpc: String,
    pub http: u16,
    /// The `google.rpc.ErrorInfo` reason: declared, or the name in UPPER_SNAKE_CASE.
    pub reason: Reason,
    pub doc: String,
    /// `None` for a unit variant.
    pub fields: Option<Vec<Field>>,
}

/// What the parse gives: the model, or every error found; either way the codes to check against
/// the generated table, so that a code the table takes is reported in the same compile as the
/// other errors.
pub struct Parsed {
    pub result: Result<Input>,
    /// The path of the `__derive` module, or `None` when the `crate` key is broken (the codes
    /// cannot be checked then).
    pub derive_mod: Option<TokenStream>,
    /// Every valid code, once each, in declaration order (a code given again is an error of
    /// its own).
    pub codes: Vec<Code>,
    /// Every valid reason, once each, in declaration order (likewise).
    pub reasons: Vec<Reason>,
}

/// A reason and where it comes from: the string literal of `reason = "..."`, or, for the default
/// (the variant's name in UPPER_SNAKE_CASE), the variant's name.
#[derive(Clone)]
pub struct Reason {
    pub value: String,
    pub span: Span,
    /// Whether `reason = "..."` wrote it (else it is the default).
    pub written: bool,
}

/// A code and the span of the tokens that wrote it (first and last: `-` and the literal).
#[derive(Clone, Copy)]
pub struct Code {
    pub value: i64,
    pub first: Span,
    pub last: Span,
}

/// A named field.
pub struct Field {
    pub ident: Ident,
    /// The member name in the fields object: lowerCamelCase.
    pub member: String,
}

/// Every error found, combined so that one compile reports them all.
#[derive(Default)]
struct Errors(Option<Error>);

impl Errors {
    fn push(&mut self, error: Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    fn finish(self) -> Result<()> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

const VARIANT_KEYS: &str = "`code`, `message`, `grpc`, `http` or `reason`";
/// How to pick a reason: the end of the diagnostics of a reason the table takes, or that another
/// variant has. `written` says whether `reason = "..."` gave it, or it is the default.
pub fn reason_advice(written: bool) -> String {
    let why = "over HTTP+JSON the reason, not the code, names the error";
    if written {
        format!("pick another reason, as {why}")
    } else {
        format!(
            "it is the variant's name in UPPER_SNAKE_CASE (the default): give the variant \
             another with `#[a2a(reason = \"...\")]`, as {why}"
        )
    }
}

/// How to pick a code: the end of every code diagnostic, the macro's and the const check's.
pub fn code_advice() -> String {
    format!(
        "pick a code in {} not used by the A2A table, or any code outside {}",
        jsonrpc::SERVER_ERRORS_TEXT,
        jsonrpc::PRE_DEFINED_TEXT
    )
}

pub fn parse(input: &DeriveInput) -> Parsed {
    let mut errors = Errors::default();
    let (krate, krate_ok) = container_attrs(&input.attrs, &mut errors);
    let derive_mod = krate.unwrap_or_else(|| quote!(::a2a_types::v1::__derive));

    let data = match &input.data {
        Data::Enum(data) => Some(data),
        Data::Struct(data) => {
            let item = &input.ident;
            let token = data.struct_token;
            errors.push(Error::new_spanned(
                quote!(#token #item),
                "`AgentError` can only be derived for an enum, with one variant per error code",
            ));
            None
        }
        Data::Union(data) => {
            let item = &input.ident;
            let token = data.union_token;
            errors.push(Error::new_spanned(
                quote!(#token #item),
                "`AgentError` can only be derived for an enum, with one variant per error code",
            ));
            None
        }
    };

    let generics = &input.generics;
    if !generics.params.is_empty() {
        errors.push(Error::new_spanned(
            generics,
            "generic error enums are not supported: `AgentError` needs one concrete type per \
             error domain",
        ));
    } else if let Some(clause) = &generics.where_clause {
        errors.push(Error::new_spanned(
            clause,
            "generic error enums are not supported: remove the `where` clause",
        ));
    }

    let mut variants = Vec::new();
    let mut seen = Seen::default();
    for variant in data.map(|d| d.variants.iter()).into_iter().flatten() {
        if let Some(v) = parse_variant(variant, &mut seen, &mut errors) {
            variants.push(v);
        }
    }

    Parsed {
        result: errors.finish().map(|()| Input {
            ident: input.ident.clone(),
            derive_mod: derive_mod.clone(),
            variants,
        }),
        derive_mod: krate_ok.then_some(derive_mod),
        codes: seen.codes.into_iter().map(|(code, _)| code).collect(),
        reasons: seen.reasons.into_iter().map(|(reason, _)| reason).collect(),
    }
}

/// The valid codes and reasons of the variants parsed so far, each with its variant's name.
#[derive(Default)]
struct Seen {
    codes: Vec<(Code, String)>,
    reasons: Vec<(Reason, String)>,
}

/// The container attributes: `#[a2a(crate = "path")]`, giving `path::__derive`. Its tokens carry
/// the string's span, so that a path without a generated table is reported on the string. The
/// flag is false when `crate` was given but is broken (invalid, twice, or in an attribute that
/// does not parse): the module is then unknown.
fn container_attrs(attrs: &[Attribute], errors: &mut Errors) -> (Option<TokenStream>, bool) {
    let mut krate: Option<TokenStream> = None;
    let mut ok = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident("a2a")) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let value: Expr = meta.value()?.parse()?;
                if krate.is_some() {
                    errors.push(Error::new_spanned(&meta.path, "duplicate key `crate`"));
                    ok = false;
                    return Ok(());
                }
                // Broken until it is a path.
                ok = false;
                match string_literal(&value) {
                    Some(lit) => match lit.parse_with(syn::Path::parse_mod_style) {
                        Ok(path) => {
                            krate = Some(quote_spanned!(lit.span()=> #path::__derive));
                            ok = true;
                        }
                        Err(_) => errors.push(Error::new_spanned(
                            lit,
                            format!(
                                "`{}` is not a path: `crate` names the module generated from \
                                 the error table, like `crate = \"crate::a2a\"` (the default is \
                                 `::a2a_types::v1`)",
                                lit.value()
                            ),
                        )),
                    },
                    None => errors.push(Error::new_spanned(
                        &value,
                        "`crate` must be a string literal holding a path, like \
                         `crate = \"crate::a2a\"`",
                    )),
                }
                Ok(())
            } else {
                errors.push(Error::new_spanned(
                    &meta.path,
                    format!(
                        "unknown key `{}` in `#[a2a(...)]` on the enum: the only key there is \
                         `crate`",
                        key_name(&meta)
                    ),
                ));
                skip_value(meta.input)
            }
        });
        if let Err(error) = result {
            errors.push(error);
            ok = false;
        }
    }
    (krate, ok)
}

/// The keys of a variant's `#[a2a(...)]`, as written.
#[derive(Default)]
struct VariantAttrs {
    code: Option<Code>,
    message: Option<String>,
    grpc: Option<String>,
    http: Option<u16>,
    reason: Option<LitStr>,
    /// Keys seen, so that a second one is reported even when the first was invalid.
    seen: Vec<String>,
}

/// One variant, or `None` when it has errors (all pushed). `seen` holds the valid codes and
/// reasons of the variants before it, with their names; the variant's own are added when valid
/// and new, even when the variant has other errors.
fn parse_variant(variant: &syn::Variant, seen: &mut Seen, errors: &mut Errors) -> Option<Variant> {
    let mut attrs = VariantAttrs::default();
    let mut broken = false;
    for attr in variant.attrs.iter().filter(|a| a.path().is_ident("a2a")) {
        let result = attr.parse_nested_meta(|meta| variant_key(meta, &mut attrs, errors));
        if let Err(error) = result {
            errors.push(error);
            broken = true;
        }
    }

    let ident = &variant.ident;
    let name = ident.unraw().to_string();
    let mut ok = true;

    let fields = match &variant.fields {
        Fields::Unit => None,
        Fields::Named(named) => {
            let mut fields: Vec<Field> = Vec::new();
            for field in &named.named {
                for attr in field.attrs.iter().filter(|a| a.path().is_ident("a2a")) {
                    errors.push(Error::new_spanned(
                        attr,
                        "`#[a2a(...)]` goes on the enum and its variants, not on fields: a \
                         field's member name is its name in lowerCamelCase",
                    ));
                    ok = false;
                }
                let field_ident = field.ident.clone().expect("named fields have names");
                let member = case::lower_camel(&field_ident.unraw().to_string());
                if let Some(other) = fields.iter().find(|f| f.member == member) {
                    errors.push(Error::new_spanned(
                        &field_ident,
                        format!(
                            "fields `{}` and `{}` would both travel as the member `{member}`",
                            other.ident, field_ident
                        ),
                    ));
                    ok = false;
                }
                fields.push(Field {
                    ident: field_ident,
                    member,
                });
            }
            Some(fields)
        }
        Fields::Unnamed(unnamed) => {
            errors.push(Error::new_spanned(
                quote!(#ident #unnamed),
                format!(
                    "tuple variants are not supported: name the fields (`{name} {{ .. }}`), they \
                     become the members of the error's data"
                ),
            ));
            ok = false;
            None
        }
    };

    let code = match attrs.code {
        Some(code) => {
            if let Some((_, first)) = seen.codes.iter().find(|(c, _)| c.value == code.value) {
                errors.push(error_between(
                    code.first,
                    code.last,
                    format!(
                        "code {} is already used by `{first}`: every variant needs its own code",
                        code.value
                    ),
                ));
                ok = false;
            } else {
                seen.codes.push((code, name.clone()));
            }
            Some(code)
        }
        // A `code` was written but was invalid, or the attribute holding it may not have parsed
        // that far: that is reported already.
        None if broken || attrs.seen.iter().any(|k| k == "code") => None,
        None => {
            errors.push(Error::new_spanned(
                ident,
                "missing `code`: every variant needs `#[a2a(code = ...)]` with its JSON-RPC error \
                 code, like `#[a2a(code = -32050)]`",
            ));
            None
        }
    };

    let reason = match attrs.reason {
        Some(lit) => Some(Reason {
            value: lit.value(),
            span: lit.span(),
            written: true,
        }),
        // A `reason` was written but was invalid, or the attribute may not have parsed that far
        // (so whether the default applies is unknown): reported already.
        None if broken || attrs.seen.iter().any(|k| k == "reason") => None,
        None => {
            let value = case::upper_snake(&name);
            if case::is_upper_snake(&value) {
                Some(Reason {
                    value,
                    span: ident.span(),
                    written: false,
                })
            } else {
                errors.push(Error::new_spanned(
                    ident,
                    format!(
                        "the default reason of `{name}`, its name in UPPER_SNAKE_CASE (`{value}`), \
                         is not UPPER_SNAKE_CASE as a `google.rpc.ErrorInfo` reason must be \
                         (`{}`): give one with `#[a2a(reason = \"...\")]`",
                        case::UPPER_SNAKE_PATTERN
                    ),
                ));
                None
            }
        }
    };
    let reason = match reason {
        Some(reason) => {
            if let Some((_, first)) = seen.reasons.iter().find(|(r, _)| r.value == reason.value) {
                errors.push(Error::new(
                    reason.span,
                    format!(
                        "reason `{}` is already used by `{first}`: every variant needs its own; \
                         {}",
                        reason.value,
                        reason_advice(reason.written)
                    ),
                ));
                ok = false;
            } else {
                seen.reasons.push((reason.clone(), name.clone()));
            }
            reason
        }
        None => return None,
    };
    let code = code?;

    let grpc = attrs
        .grpc
        .unwrap_or_else(|| custom::DEFAULT_GRPC.to_string());
    let http = attrs.http.unwrap_or_else(|| custom::default_http(&grpc));
    let message = attrs.message.unwrap_or_else(|| case::sentence(&name));
    let doc = doc_line(&variant.attrs).unwrap_or_else(|| message.clone());

    ok.then(|| Variant {
        ident: ident.clone(),
        name,
        code,
        message,
        grpc,
        http,
        reason,
        doc,
        fields,
    })
}

/// One `key = value` of a variant's `#[a2a(...)]`. Problems with the value are collected and the
/// parse goes on; only broken syntax stops it.
fn variant_key(meta: ParseNestedMeta, attrs: &mut VariantAttrs, errors: &mut Errors) -> Result<()> {
    let key = key_name(&meta);
    if !matches!(
        key.as_str(),
        "code" | "message" | "grpc" | "http" | "reason"
    ) {
        errors.push(Error::new_spanned(
            &meta.path,
            format!("unknown key `{key}`: a variant's `#[a2a(...)]` takes {VARIANT_KEYS}"),
        ));
        return skip_value(meta.input);
    }
    let value: Expr = meta.value()?.parse()?;
    if attrs.seen.contains(&key) {
        errors.push(Error::new_spanned(
            &meta.path,
            format!("duplicate key `{key}`"),
        ));
        return Ok(());
    }
    attrs.seen.push(key.clone());
    match key.as_str() {
        "code" => match code_value(&value) {
            Ok(code) => {
                if let Some(reason) = rules::reserved_reason(code.value) {
                    errors.push(Error::new_spanned(
                        &value,
                        format!("{reason}; {}", code_advice()),
                    ));
                } else {
                    attrs.code = Some(code);
                }
            }
            Err(error) => errors.push(error),
        },
        "message" => match string_literal(&value) {
            Some(lit) => attrs.message = Some(lit.value()),
            None => errors.push(Error::new_spanned(
                &value,
                "`message` must be a string literal: the error's default message",
            )),
        },
        "grpc" => match string_literal(&value) {
            Some(lit) if grpc::by_name(&lit.value()).is_some() => attrs.grpc = Some(lit.value()),
            Some(lit) => errors.push(Error::new_spanned(
                lit,
                format!(
                    "`{}` is not a gRPC status code name; expected one of: {}",
                    lit.value(),
                    grpc::names_list()
                ),
            )),
            None => errors.push(Error::new_spanned(
                &value,
                format!(
                    "`grpc` must be a string literal naming a gRPC status code, one of: {}",
                    grpc::names_list()
                ),
            )),
        },
        "reason" => match string_literal(&value) {
            Some(lit) if case::is_upper_snake(&lit.value()) => attrs.reason = Some(lit.clone()),
            Some(lit) => errors.push(Error::new_spanned(
                lit,
                format!(
                    "{} is not UPPER_SNAKE_CASE: a `google.rpc.ErrorInfo` reason matches `{}`, \
                     like `QUOTA_EXCEEDED`",
                    match lit.value() {
                        empty if empty.is_empty() => "the empty string".to_string(),
                        value => format!("`{value}`"),
                    },
                    case::UPPER_SNAKE_PATTERN
                ),
            )),
            None => errors.push(Error::new_spanned(
                &value,
                "`reason` must be a string literal: the error's `google.rpc.ErrorInfo` reason in \
                 UPPER_SNAKE_CASE, like `reason = \"QUOTA_EXCEEDED\"`",
            )),
        },
        _ => match http_value(&value) {
            Ok(http) => attrs.http = Some(http),
            Err(error) => errors.push(error),
        },
    }
    Ok(())
}

/// A key as written (`crate` included, which is a keyword).
fn key_name(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(|i| i.unraw().to_string())
        .unwrap_or_else(|| meta.path.to_token_stream().to_string().replace(' ', ""))
}

/// Skips the rest of an unknown key (`= value`, `(...)`, or nothing) up to the next `,`.
fn skip_value(input: ParseStream) -> Result<()> {
    while !input.is_empty() && !input.peek(Token![,]) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// Looks through the invisible groups a `macro_rules!` expansion leaves around `$x:expr`.
fn ungroup(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => ungroup(&group.expr),
        other => other,
    }
}

fn string_literal(expr: &Expr) -> Option<&LitStr> {
    match ungroup(expr) {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(lit), ..
        }) => Some(lit),
        _ => None,
    }
}

fn int_literal(expr: &Expr) -> Option<&LitInt> {
    match ungroup(expr) {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(lit), ..
        }) => Some(lit),
        _ => None,
    }
}

/// `code = 42` or `code = -32050`: an integer literal, maybe negated, that fits an `i64`.
fn code_value(expr: &Expr) -> Result<Code> {
    let not_int = || {
        Error::new_spanned(
            expr,
            "`code` must be an integer literal, like `code = -32050` or `code = 42`",
        )
    };
    let (negative, lit, first) = match ungroup(expr) {
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            let lit = int_literal(&unary.expr).ok_or_else(not_int)?;
            let UnOp::Neg(minus) = unary.op else {
                unreachable!()
            };
            (true, lit, minus.span)
        }
        other => {
            let lit = int_literal(other).ok_or_else(not_int)?;
            (false, lit, lit.span())
        }
    };
    if !matches!(lit.suffix(), "" | "i64") {
        return Err(Error::new_spanned(
            lit,
            format!(
                "an error code is an `i64`: drop the `{}` suffix",
                lit.suffix()
            ),
        ));
    }
    let magnitude: Option<i128> = lit.base10_digits().parse::<u64>().ok().map(i128::from);
    let value = magnitude
        .map(|m| if negative { -m } else { m })
        .and_then(|v| i64::try_from(v).ok());
    match value {
        Some(value) => Ok(Code {
            value,
            first,
            last: lit.span(),
        }),
        None => Err(Error::new_spanned(
            expr,
            format!(
                "code {}{} does not fit in an `i64`",
                if negative { "-" } else { "" },
                lit.base10_digits()
            ),
        )),
    }
}

/// `http = 429`: an integer literal in `http::STATUS_RANGE` (100..=599).
fn http_value(expr: &Expr) -> Result<u16> {
    let error = || {
        Error::new_spanned(
            expr,
            format!(
                "`http` must be an HTTP status: an integer literal in {}..={}",
                http::STATUS_RANGE.start(),
                http::STATUS_RANGE.end()
            ),
        )
    };
    let lit = int_literal(expr).ok_or_else(error)?;
    if !matches!(lit.suffix(), "" | "u16") {
        return Err(error());
    }
    match lit.base10_digits().parse::<u16>() {
        Ok(status) if http::STATUS_RANGE.contains(&status) => Ok(status),
        _ => Err(error()),
    }
}

/// The variant's `///` lines as one line, or `None` without docs.
fn doc_line(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let Meta::NameValue(nv) = &attr.meta {
            if let Some(lit) = string_literal(&nv.value) {
                let value = lit.value();
                lines.extend(
                    value
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string),
                );
            }
        }
    }
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// An error covering the tokens from `first` to `last` (`-` and the literal of a negative code).
pub fn error_between(first: Span, last: Span, message: impl std::fmt::Display) -> Error {
    let first = Ident::new("first", first);
    let last = Ident::new("last", last);
    Error::new_spanned(quote!(#first #last), message)
}
