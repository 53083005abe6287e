//! Reading a `.proto` file, the normative form of A2A v1 (spec §1.4): compiled by protox (a
//! protobuf compiler written in Rust, so a build script needs no `protoc`), then lowered from its
//! descriptors to the same IR the JSON Schema route gives.
//!
//! Imports resolve, in this order, against the proto's own directory, the `google/api` protos
//! embedded in this crate ([`deps`]: what the A2A proto imports for its REQUIRED marks and HTTP
//! rules) and the `google/protobuf` well-known types protox ships. Everything the compiler
//! refuses is a diagnostic with file, line and column; everything the generator cannot model
//! ([`lower`]) is one too, naming the declaration and what to do.

mod deps;
mod lower;
mod methods;
// The declarations as JSON: for `internals::proto_outline` only.
#[cfg(feature = "unstable-internals")]
mod outline;

pub(crate) use lower::{lower, module_doc};
pub(crate) use methods::methods;
#[cfg(feature = "unstable-internals")]
pub(crate) use outline::outline;

use crate::diag::Diagnostics;
use crate::source::{self, Source};
use miette::Diagnostic as _;
use protox::file::{ChainFileResolver, File, FileResolver, GoogleFileResolver};
use protox::prost_reflect::{DescriptorPool, FileDescriptor};
use std::path::{Path, PathBuf};

/// A compiled proto: the descriptors of the file and of everything it imports.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// The file the spec names (its descriptors carry source info: lines and comments).
    pub(crate) file: FileDescriptor,
}

impl Compiled {
    /// The pool holding the file and its imports.
    pub(crate) fn pool(&self) -> &DescriptorPool {
        self.file.parent_pool()
    }
}

/// Reads and compiles the proto at `path`, labelled `label`; every problem goes to `diags`.
pub(crate) fn read(path: &Path, label: &str, diags: &mut Diagnostics) -> Option<Source<Compiled>> {
    let bytes = source::read_bytes(path, label, diags)?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| label.to_string());
    compile(&bytes, &name, Some(dir), label, diags)
}

/// Compiles proto source held in memory, named `name` (its imports resolve against `dir`, when
/// given, then the embedded ones).
pub(crate) fn compile(
    bytes: &[u8],
    name: &str,
    dir: Option<PathBuf>,
    label: &str,
    diags: &mut Diagnostics,
) -> Option<Source<Compiled>> {
    let source = source::utf8(bytes, label, "a .proto file is UTF-8 text", diags)?.to_string();
    let dir_label = match label.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => String::new(),
    };
    let mut resolver = ChainFileResolver::new();
    resolver.add(MainFile {
        name: name.to_string(),
        source,
    });
    if let Some(dir) = dir {
        resolver.add(protox::file::IncludeFileResolver::new(dir));
    }
    resolver.add(deps::EmbeddedDeps);
    resolver.add(GoogleFileResolver::new());
    let mut compiler = protox::Compiler::with_file_resolver(resolver);
    compiler.include_source_info(true);
    if let Err(e) = compiler.open_file(name) {
        report_compile_error(&e, name, label, &dir_label, diags);
        return None;
    }
    let Some(file) = compiler.descriptor_pool().get_file_by_name(name) else {
        diags.push(
            label,
            "",
            "protox compiled the file but did not return it (an a2a-codegen bug)",
        );
        return None;
    };
    Some(Source {
        label: label.to_string(),
        sha256: source::sha256_hex(bytes),
        value: Compiled { file },
    })
}

/// The proto the spec names, from the bytes already read (so that the SHA-256 in the headers is
/// the one of what was compiled).
struct MainFile {
    name: String,
    source: String,
}

impl FileResolver for MainFile {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        if name == self.name {
            File::from_source(name, &self.source)
        } else {
            Err(protox::Error::file_not_found(name))
        }
    }
}

/// How a file the compiler names is labelled: the main file by its label, an import by its
/// name under the main file's directory (where it was looked up first).
fn file_label(file: &str, main: &str, label: &str, dir_label: &str) -> String {
    if file == main {
        label.to_string()
    } else if dir_label.is_empty() {
        file.to_string()
    } else {
        format!("{dir_label}/{file}")
    }
}

/// One diagnostic for what protox refused: the file it concerns, the line and column of its
/// first label, its message, and what to do.
fn report_compile_error(
    e: &protox::Error,
    main: &str,
    label: &str,
    dir_label: &str,
    diags: &mut Diagnostics,
) {
    let file = e.file().map_or_else(
        || label.to_string(),
        |f| file_label(f, main, label, dir_label),
    );
    let location = e
        .labels()
        .and_then(|mut labels| labels.next())
        .and_then(|span| {
            let source = e.source_code()?;
            let contents = source.read_span(span.inner(), 0, 0).ok()?;
            Some(format!(
                "line {}, column {}",
                contents.line() + 1,
                contents.column() + 1
            ))
        })
        .unwrap_or_default();
    let help = if e.is_file_not_found() {
        format!(
            "imports are looked up beside the proto, then among the files a2a-codegen carries \
             ({}, and google/protobuf/*.proto); put the missing file beside the proto, under its \
             import path",
            deps::NAMES.join(", ")
        )
    } else if let Some(help) = e.help() {
        help.to_string()
    } else {
        "fix the proto so that protoc would accept it".to_string()
    };
    diags
        .push(
            &file,
            location,
            format!("the protobuf compiler refused it: {e}"),
        )
        .help(help);
}
