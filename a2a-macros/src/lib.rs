//! Procedural macros for `a2a-types`: `#[derive(AgentError)]`, which declares an agent's own
//! error codes (JSON-RPC) and reasons (HTTP+JSON).
//!
//! Use it through `a2a-types`, which re-exports it beside the trait it implements
//! (`a2a_runtime::custom::AgentError`, also `a2a_types::rt::custom::AgentError`):
//!
//! ```ignore
//! use a2a_types::AgentError; // the trait and the derive
//!
//! #[derive(Debug, AgentError)]
//! pub enum BillingError {
//!     /// The account used up its quota for the period.
//!     #[a2a(code = -32050, message = "quota exceeded", grpc = "RESOURCE_EXHAUSTED", http = 429)]
//!     QuotaExceeded { retry_after_secs: u32 },
//!     #[a2a(code = 42, reason = "PLAN_LAPSED")]
//!     PlanExpired,
//! }
//! ```
//!
//! An agent then answers with `A2aError::from_custom(&error)`, and a client that passes the type
//! to `Decoder::new().custom_errors::<BillingError>().decode::<T>` (or `.stream::<T>()`) gets
//! `CallError::Custom { error, message }` back, fields included.
//!
//! # Variant attributes
//!
//! Every variant carries `#[a2a(...)]` with these keys (each at most once; they may be split over
//! several `#[a2a(...)]` attributes):
//!
//! | key | value | default |
//! |---|---|---|
//! | `code` | the JSON-RPC error code: an integer literal (`-32050`, `42`) that fits an `i64` | required |
//! | `message` | the default `message` of the error object: a string literal | the variant's name in words: `PlanExpired` → `"Plan expired"` |
//! | `grpc` | a gRPC status code name (`"NOT_FOUND"`, one of the 17 of `google.rpc.Code`) | `"UNKNOWN"` |
//! | `http` | an HTTP status: an integer literal in `100..=599` | the status `google.rpc.Code` gives the `grpc` code (`UNKNOWN` → 500, `RESOURCE_EXHAUSTED` → 429, `NOT_FOUND` → 404, ...) |
//! | `reason` | the `google.rpc.ErrorInfo` reason: a string literal in UPPER_SNAKE_CASE, `[A-Z][A-Z0-9_]*` (`"QUOTA_EXCEEDED"`) | the variant's name in UPPER_SNAKE_CASE: `QuotaExceeded` → `"QUOTA_EXCEEDED"` |
//!
//! A code may be any `i64` outside the JSON-RPC reserved block `-32768..=-32100` (which holds the
//! five standard errors) and not used by a row of the A2A error table (`-32001..=-32009` in A2A
//! v1): that is, a free code of the server-error range `-32099..=-32000`, or any code outside
//! `-32768..=-32000`. Each variant needs its own code.
//!
//! Why a reason: the HTTP+JSON binding answers an error with a `google.rpc.Status` whose `code` is
//! the HTTP status, which several errors share, so there the `ErrorInfo`'s `reason` names the
//! error (a2a-sdk's REST client maps the first ErrorInfo's reason to its error class, whatever
//! the domain). A reason must therefore be UPPER_SNAKE_CASE as `google.rpc.ErrorInfo` asks, not
//! be one of the A2A table's (`TASK_NOT_FOUND`, ...), and be the variant's own within the enum;
//! `a2a_runtime::custom::from_reason` reads a variant back from one. (`error_details.proto` also
//! advises at most 63 characters, at least 3 and no trailing `_`; that is not enforced.)
//!
//! The variant's row (`AgentError::ROWS`, one per variant in declaration order) takes its `name`
//! and `spec_name` from the variant, its `reason` from `reason` (or the variant's name in
//! UPPER_SNAKE_CASE, `QuotaExceeded` → `QUOTA_EXCEEDED`), `standard: false`, and as `doc` the
//! variant's `///` lines joined into one (or the message when there are none).
//!
//! The derive implements `AgentError` only: derive or write `Debug`, `Display` and
//! `std::error::Error` as for any other error type (`CallError<E>` needs `E: Debug` to be an
//! `Error` itself).
//!
//! # The data mapping
//!
//! The wire form is the one documented in `a2a_runtime::custom`: the error's `data` is an array
//! holding a `google.rpc.ErrorInfo` (reason: the row's reason; domain: the enum's name)
//! and, for a variant with fields, one object with `@type` `type.a2a-codegen/<Enum>.<Variant>` and
//! one member per field:
//!
//! ```json
//! {"code": -32050, "message": "quota exceeded", "data": [
//!   {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "QUOTA_EXCEEDED",
//!    "domain": "BillingError", "metadata": {}},
//!   {"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": 30}
//! ]}
//! ```
//!
//! - Variants are unit variants or have named fields (`Variant { .. }`); tuple variants are
//!   refused, as their fields would have no member names.
//! - A field's member name is its Rust name in lowerCamelCase (`retry_after_secs` →
//!   `retryAfterSecs`, `r#type` → `type`).
//! - A field's value is its `serde` form: every field type implements `serde::Serialize` and
//!   `serde::de::DeserializeOwned` (the user's crate depends on `serde` for that; it needs no
//!   `serde_json`). An absent member decodes as `null`, so `Option` fields may be left out.
//! - Decoding gives `None` (and the client keeps the catch-all `A2aError::Other`) when the code is
//!   not one of the enum's, or when a variant with fields finds no fields object or a field that
//!   does not decode.
//!
//! # The `crate` attribute
//!
//! The expansion reaches the runtime only through `<path>::__derive`, a hidden module the
//! generator emits beside the error table; `<path>` is `::a2a_types::v1` by default. When the
//! types are generated into the user's own crate (a `build.rs` running `a2a-codegen`), or re-exported
//! under another name, point the derive at that module on the enum:
//!
//! ```ignore
//! #[derive(Debug, a2a_types::AgentError)]
//! #[a2a(crate = "crate::a2a")] // the module generated from the error table
//! pub enum BillingError {
//!     #[a2a(code = 42)]
//!     PlanExpired,
//! }
//! ```
//!
//! The codes are then checked against that module's table (see below). With `a2a-codegen` in
//! `build.rs` and the output `include!`d as `pub mod a2a { .. }` at the crate root, that is
//! `crate = "crate::a2a"` inside the crate and `crate = "my_crate::a2a"` from its tests or
//! dependents; `examples/echo-agent/tests/derive.rs` does the latter.
//!
//! # What it expands to
//!
//! An `impl <path>::__derive::AgentError for Enum` (`DOMAIN`, `ROWS`, `code`, `fields_detail`,
//! `from_code_and_data`), and per variant two const items checking the code and the reason
//! against the generated table:
//!
//! ```ignore
//! const _: () = if let Some(__message) = <path>::__derive::TakenMessage::new(
//!     &<path>::__derive::ERROR_TABLE,
//!     <path>::__derive::is_code_taken(-32001),
//!     -32001,
//!     "pick a code in ...",
//! ) {
//!     panic!("{}", __message.as_str())
//! };
//! const _: () = if let Some(__message) = <path>::__derive::TakenMessage::for_reason(
//!     &<path>::__derive::ERROR_TABLE,
//!     "TASK_NOT_FOUND",
//!     "pick another reason, ...",
//! ) {
//!     panic!("{}", __message.as_str())
//! };
//! ```
//!
//! A code or reason the table takes fails to compile, pointing at the code or the reason (at the
//! variant's name, for a default reason), with a message `TakenMessage` builds at compile time
//! from the table's row (a const panic formats nothing but one `&str`,
//! so the row's name is spliced in by a `const fn`). The macro itself knows only the JSON-RPC
//! rules (`-32768..=-32100` and the five standard errors) and the form of a reason; what the A2A
//! table holds it learns from the generated module alone. Paths are absolute (`::core`, `::std`, `<path>::__derive`),
//! so the expansion needs nothing in scope.
//!
//! # Diagnostics
//!
//! Every problem is reported in one compile, each on the tokens at fault, with a trybuild ui test
//! per item in `tests/derive-ui/ui/agent_error/` (named after `ui:`; `many_errors.rs` has most of them at
//! once):
//!
//! - the derive on a struct or union (on the item): only enums (ui: `not_enum`);
//! - generic parameters or a `where` clause (on them): generic error enums are not supported
//!   (ui: `generic`);
//! - a variant without `#[a2a(...)]` or without `code` (on the variant's name): missing `code`
//!   (ui: `missing_code`);
//! - `code` not an integer literal, with a suffix other than `i64`, or outside `i64` (on the
//!   value) (ui: `code_not_integer`, `code_out_of_range`);
//! - a code in the JSON-RPC reserved block `-32768..=-32100`, naming the standard error when it
//!   is one of `-32700`, `-32600`, `-32601`, `-32602`, `-32603` (on the code)
//!   (ui: `reserved_code`);
//! - a code already used by an earlier variant (on the second, naming the first)
//!   (ui: `duplicate_code`);
//! - a code used by a row of the error table of the `crate` module (`-32001..=-32009` in A2A v1,
//!   `-32001..=-32007` in v0.3, and whatever the table holds): the const check fails on the
//!   code, naming the row, like ``code -32001 is taken by the standard error `TaskNotFound`
//!   (A2A); pick a code in ...`` (rustc's `error[E0080]: evaluation panicked: ...`)
//!   (ui: `table_code`, `table_code_crate`, `many_errors`);
//! - an unknown key in a variant's `#[a2a(...)]` (on the key) (ui: `unknown_key`), or a key given
//!   twice (on the second) (ui: `duplicate_key`);
//! - `message` not a string literal (on the value) (ui: `message_not_string`);
//! - `grpc` not one of the 17 gRPC status code names (on the value, listing them)
//!   (ui: `grpc_invalid`);
//! - `http` not an integer literal in `100..=599` (on the value) (ui: `http_invalid`);
//! - `reason` not a string literal, or not UPPER_SNAKE_CASE (`[A-Z][A-Z0-9_]*`; on the value)
//!   (ui: `reason_invalid`), or, without `reason`, a variant name whose UPPER_SNAKE_CASE is no
//!   valid reason (not ASCII; on the name) (ui: `reason_default_invalid`);
//! - a reason, declared or default, already used by an earlier variant (on the second's value,
//!   or its name, naming the first) (ui: `duplicate_reason`);
//! - a reason used by a row of the error table of the `crate` module (`TASK_NOT_FOUND`,
//!   `UNSUPPORTED_OPERATION`, ... in A2A v1; none in v0.3, whose rows have no reason): the
//!   const check fails on the reason (on the variant's name for a default one), naming the row,
//!   like ``reason `TASK_NOT_FOUND` is taken by the standard error `TaskNotFound` (A2A); pick
//!   another reason, ...`` (ui: `table_reason`, `many_errors`);
//! - a tuple variant (on the variant): name the fields (ui: `tuple_variant`);
//! - two fields whose member names coincide (`a_b` and `aB`; on the second) (ui: `member_clash`);
//! - `#[a2a(...)]` on a field (on the attribute): fields take no attributes (ui: `field_attr`);
//! - on the enum, `crate` not a string literal, or a string that is not a path (on the value),
//!   given twice (on the second) (ui: `crate_invalid`), or another key (on the key)
//!   (ui: `container_unknown_key`);
//! - a `crate` path that resolves but holds no generated table: rustc's own "cannot find
//!   `__derive`" (on the string) (ui: `crate_wrong_module`);
//! - `#[a2a]` that is not a list of `key = value` (on the attribute, as `syn` words it)
//!   (ui: `attr_not_list`).
//!
//! The table checks are const evaluations, which rustc runs in the same compile as the macro's
//! own errors (and as type errors elsewhere in the crate), so they are emitted beside them: a
//! code is checked as soon as it is a valid integer that no earlier variant uses, a reason as
//! soon as it is valid and no earlier variant's, whatever else is wrong with its variant or the
//! enum. What still waits for a second compile:
//!
//! - every table check, while the enum's `crate` key is broken (not a string, not a path, given
//!   twice, or in an `#[a2a ...]` that does not parse): which table to check against is unknown
//!   (ui: `table_code_crate_broken`);
//! - a code the macro cannot read (not an integer literal, or out of `i64`), or any key after a
//!   syntax error in the same `#[a2a(...)]` (`code 3` without `=`): `syn` stops parsing that
//!   attribute at the first broken token (a code given twice is checked once, on the variant
//!   that has it first; the same for reasons), and the default reason of a variant whose
//!   `#[a2a(...)]` broke, which may have had a `reason` after the broken token;
//! - a taken code or reason when the `crate` path has no generated table: there is no table to
//!   read.

#![deny(missing_docs)]

mod expand;
mod parse;
mod rules;

use proc_macro::TokenStream;

/// Derives `AgentError` for an enum of an agent's own errors, one variant per error, each with
/// its JSON-RPC code (`#[a2a(code = ...)]`) and its `google.rpc.ErrorInfo` reason
/// (`#[a2a(reason = "...")]`, by default the variant's name in UPPER_SNAKE_CASE): see the
/// [crate docs](crate) for the attributes, the wire form and the diagnostics.
#[proc_macro_derive(AgentError, attributes(a2a))]
pub fn derive_agent_error(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let parsed = parse::parse(&input);
    match parsed.result {
        Ok(model) => expand::expand(&model).into(),
        // No impl, but the codes are still checked against the table when its module is known.
        Err(error) => {
            let mut tokens = error.into_compile_error();
            if let Some(d) = &parsed.derive_mod {
                tokens.extend(expand::code_checks(d, &parsed.codes));
                tokens.extend(expand::reason_checks(d, &parsed.reasons));
            }
            tokens.into()
        }
    }
}
