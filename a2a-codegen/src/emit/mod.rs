//! Stage 4: IR to Rust tokens, one function per IR kind, written into an ordered list of files.
//!
//! Generated code uses fully qualified paths only (`::serde::...`, `::std::...`) and reaches the
//! shared runtime (timestamps, base64, ProtoJSON numbers) through one configurable path, the way
//! prost-generated code relies on the prost crate.

mod custom;
mod errors;
mod json_schema;
mod methods;
mod protobuf;
mod reference;
mod rest;
mod server;
mod service;
mod types;

use proc_macro2::TokenStream;

pub use custom::emit_custom_errors;
pub(crate) use errors::constructor_name;
pub use errors::emit_errors;
pub use json_schema::emit_json_schema;
pub use methods::emit_methods;
pub use protobuf::emit_protobuf;
pub(crate) use protobuf::{gaps as protobuf_gaps, Gap as ProtobufGap};
pub use reference::render_error_reference;
pub use server::emit_server;
pub use service::emit_service;
pub use types::{emit_types, presence_doc};

/// Settings that change the emitted code.
#[derive(Clone, Debug)]
pub struct EmitOptions {
    /// Path of the runtime module, e.g. `::a2a_runtime` or `crate::rt`.
    pub runtime: TokenStream,
    /// Add an `unknown_fields` map to every struct and keep unknown members through decode/encode.
    pub preserve_unknown: bool,
    /// The gate of the protobuf codec when it is generated (`#[cfg(feature = "...")]`, or
    /// nothing when always), `None` when it is not: a module with methods and the codec serves
    /// gRPC (`service::Protocol::GRPC`).
    pub protobuf: Option<TokenStream>,
}

impl EmitOptions {
    /// The runtime path as text for rustdoc links (`::a2a_runtime`, `crate::rt`): a `#rt`
    /// inside a `///` comment of a `quote!` is not interpolated, so links are built with this.
    pub(crate) fn runtime_doc_path(&self) -> String {
        self.runtime
            .to_string()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    }
}

/// Splits doc text into `#[doc]` attributes, one per line, each with the conventional leading space.
pub(crate) fn doc_attrs(doc: &str) -> TokenStream {
    let lines = doc.lines().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    quote::quote! { #( #[doc = #lines] )* }
}
