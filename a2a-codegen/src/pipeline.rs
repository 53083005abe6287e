//! The pipeline, in one straight line: resolve and read the inputs (`inputs.rs`), import a
//! published schema into our dialect (`import`), lower it and the tables to the model (`lower`,
//! `proto`), validate, emit tokens (`emit`), and build the files with their headers (`format`);
//! then write them, or compare them with what is on disk (`write`). [`Config::model`] stops
//! after validation.

use crate::config::ConvertTo;
use crate::diag::{Diagnostics, Note};
use crate::format::HeaderInput;
use crate::inputs::{self, custom_label, Read};
use crate::{convert, emit, format, import, ir, load, lower, proto, validate, write};
use crate::{Config, Error, GeneratedFile, Impls, Staleness, ERROR_REFERENCE};
use proc_macro2::TokenStream;
use quote::quote;
use std::path::{Path, PathBuf};

/// The inputs, read and ready to lower: the schema in our dialect (or a proto), the tables, and
/// what the import hands on (where its diagnostics belong, the overlay the headers name).
struct Loaded {
    inputs: inputs::Inputs,
    /// The custom error table, read when lowering.
    custom_errors: Option<PathBuf>,
    remap: Option<import::Remap>,
    /// The overlay that completed a published schema: named in every header that names the schema.
    overlay: Option<(String, String)>,
    notes: Vec<Note>,
}

/// The `convert` module: its tokens, and the (label, SHA-256) of each input its header names.
type ConvertModule = (TokenStream, Vec<(String, String)>);

/// A custom error table, as read.
type CustomTable = load::Source<load::RawCustomErrors>;

impl Config {
    /// Every input file this configuration reads, as given (plus the spec directory, so that a
    /// table added to it is noticed).
    pub fn input_paths(&self) -> Vec<PathBuf> {
        let mut paths = inputs::resolve(self).watched().to_vec();
        // The conversion table, and the other version's inputs it names.
        if let Some(ConvertTo::File(table, _)) = &self.convert {
            paths.push(table.clone());
            if let Ok((t, _)) = convert::Table::read(table, "") {
                paths.extend(Config::new(t.other_spec(table)).input_paths());
            }
        }
        paths
    }

    /// Runs load, lower, validate, emit and format, returning the files in memory (sorted by
    /// path). Touches no file.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Error> {
        self.generate_with_notes().map(|(files, _)| files)
    }

    /// Like [`Config::generate`], also returning the [`Note`]s: what the generator decided on the
    /// input's behalf (e.g. that it ignores the `additionalProperties: false` of a published
    /// schema). [`Config::write`] and [`Config::check`] print them.
    pub fn generate_with_notes(&self) -> Result<(Vec<GeneratedFile>, Vec<Note>), Error> {
        let mut diags = Diagnostics::default();
        let read = inputs::read(inputs::resolve(self), &mut diags)?;
        let loaded = load_inputs(read, &mut diags)?;
        let files = self.generate_loaded(&loaded, diags)?;
        Ok((files, loaded.notes))
    }

    /// Loads, imports (when the schema is a published one), lowers and validates the inputs,
    /// without emitting: the generator's model, as `a2a-codegen ir` prints it and
    /// [`diff`](crate::diff) compares it.
    pub fn model(&self) -> Result<ir::Model, Error> {
        let mut diags = Diagnostics::default();
        let read = inputs::read(inputs::resolve(self), &mut diags)?;
        let loaded = load_inputs(read, &mut diags)?;
        self.lower_loaded(&loaded, diags).map(|(model, _)| model)
    }

    /// Like [`Config::generate`], for a schema held in memory (no tables); the source label names
    /// it in diagnostics and headers. Meant for tools and tests.
    ///
    /// ```
    /// let files = a2a_codegen::Config::new("unused")
    ///     .source_label("inline.json")
    ///     .generate_from_str(r#"{"$defs": {"Ping": {"type": "object", "properties": {}}}}"#)
    ///     .unwrap();
    /// assert!(files[1].contents.contains("pub struct Ping"));
    /// ```
    pub fn generate_from_str(&self, schema_json: &str) -> Result<Vec<GeneratedFile>, Error> {
        let label = self.label.clone().unwrap_or_else(|| "schema.json".into());
        let mut diags = Diagnostics::default();
        let schema = load::parse_json(schema_json.as_bytes(), &label, &mut diags)
            .ok_or_else(|| Error::Input(std::mem::take(&mut diags)))?;
        let read = Read {
            schema: Some(inputs::Schema::Json(schema)),
            errors: None,
            methods: None,
            overlay: inputs::explicit_overlay(self),
            custom_errors: self.custom_errors.clone(),
            notes: Vec::new(),
        };
        let loaded = load_inputs(read, &mut diags)?;
        self.generate_loaded(&loaded, diags)
    }

    /// Generates and writes into the output directory, changing only files whose bytes differ and
    /// removing generated files that are no longer produced. Returns the paths it touched.
    pub fn write(&self) -> Result<Vec<PathBuf>, Error> {
        let in_build_script = std::env::var_os("OUT_DIR").is_some();
        if self.rerun_if_changed.unwrap_or(in_build_script) {
            // Printed before generating: a failed build script re-runs anyway, but the lines also
            // tell cargo what to watch once the inputs are fixed.
            for path in self.input_paths() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        let out = self.require_out_dir()?;
        let (files, notes) = self.generate_with_notes()?;
        print_notes(&notes, in_build_script);
        write::write_all(&out, &self.place(&out, &files)).map_err(|source| Error::Io {
            path: out.clone(),
            source,
        })
    }

    /// Generates in memory and compares with the output directory.
    pub fn check(&self) -> Result<Staleness, Error> {
        let out = self.require_out_dir()?;
        let (files, notes) = self.generate_with_notes()?;
        print_notes(&notes, false);
        write::check_all(&out, &self.place(&out, &files)).map_err(|source| Error::Io {
            path: out.clone(),
            source,
        })
    }

    /// Lowers and validates, then emits and builds the files.
    fn generate_loaded(
        &self,
        loaded: &Loaded,
        diags: Diagnostics,
    ) -> Result<Vec<GeneratedFile>, Error> {
        let runtime = parse_runtime_path(&self.runtime_path)?;
        let (model, custom) = self.lower_loaded(loaded, diags)?;
        let convert = self.convert_module(&model, &runtime)?;
        let mut modules = self.emit_modules(loaded, &model, custom.as_ref(), runtime)?;
        if let Some((tokens, header)) = &convert {
            let header = header
                .iter()
                .map(|(label, sha256)| HeaderInput { label, sha256 });
            modules.push("convert", tokens.clone(), header.collect());
        }
        self.build_files(loaded, &model, modules)
    }

    /// Lowers and validates: the model, and the custom error table it read (if configured).
    /// Problems in an imported schema are pointed back at the published file and the overlay.
    fn lower_loaded(
        &self,
        loaded: &Loaded,
        diags: Diagnostics,
    ) -> Result<(ir::Model, Option<CustomTable>), Error> {
        self.lower_and_validate(loaded, diags).map_err(|mut diags| {
            if let Some(remap) = &loaded.remap {
                remap.apply(&mut diags);
            }
            Error::Input(diags)
        })
    }

    fn lower_and_validate(
        &self,
        loaded: &Loaded,
        mut diags: Diagnostics,
    ) -> Result<(ir::Model, Option<CustomTable>), Diagnostics> {
        let inputs = &loaded.inputs;
        let mut model = lower_inputs(inputs, &mut diags);
        let custom = match &loaded.custom_errors {
            Some(path) => Some(
                load::read_toml(path, &custom_label(path), &mut diags)
                    .ok_or_else(|| std::mem::take(&mut diags))?,
            ),
            None => None,
        };
        if let Some(custom) = &custom {
            model.custom_errors = Some(lower::lower_custom_errors(custom, &mut diags));
        }
        let files = validate::Files {
            schema: inputs.schema.label(),
            errors: inputs.errors.as_ref().map_or("", |s| s.label.as_str()),
            methods: inputs
                .methods
                .as_ref()
                .map_or(inputs.schema.label(), |s| s.label.as_str()),
            custom_errors: custom.as_ref().map_or("", |s| s.label.as_str()),
        };
        validate::validate(&model, &files, self.preserve_unknown_fields, &mut diags);
        if self.protobuf.is_some() {
            for gap in emit::protobuf_gaps(&model) {
                let emit::ProtobufGap {
                    name,
                    pointer,
                    reason,
                } = gap;
                diags
                    .push(files.schema, pointer.as_str(), format!("the protobuf codec cannot be generated for `{name}`: {reason}"))
                    .help("give every property its proto field number with \"x-field-number\" (or generate from the .proto), or leave the protobuf codec off");
            }
        }
        diags.into_result()?;
        Ok((model, custom))
    }

    /// The `convert` module, when configured ([`Config::convert`]): its tokens, and the inputs its
    /// header names (the table, then the other version's schema and tables).
    fn convert_module(
        &self,
        model: &ir::Model,
        runtime: &TokenStream,
    ) -> Result<Option<ConvertModule>, Error> {
        let Some(convert) = &self.convert else {
            return Ok(None);
        };
        if self.preserve_unknown_fields {
            return Err(Error::Config(
                "`convert` and `preserve_unknown_fields` do not go together yet: the \
                 conversions do not carry unknown members; turn one off"
                    .into(),
            ));
        }
        let (table, sha, table_label, module_path, other) = match convert {
            ConvertTo::File(table_path, module_path) => {
                let base = self
                    .label
                    .clone()
                    .unwrap_or_else(|| self.spec.display().to_string());
                let table_label = match table_path.strip_prefix(&self.spec) {
                    Ok(rest) => format!("{base}/{}", rest.display()),
                    Err(_) => table_path.display().to_string(),
                };
                let (table, sha) =
                    convert::Table::read(table_path, &table_label).map_err(Error::Config)?;
                let other_label = convert::normalize(
                    &Path::new(&table_label)
                        .parent()
                        .unwrap_or(Path::new(""))
                        .join(&table.other),
                );
                let mut other = Config::new(table.other_spec(table_path));
                other.source_label(other_label);
                (table, sha, table_label, module_path, other)
            }
            ConvertTo::EmbeddedV1(module_path) => {
                if self.embedded.map(|e| e.label) != Some("a2a-codegen/spec/v0_3") {
                    return Err(Error::Config(
                        "`convert_to_a2a_v1` converts the embedded A2A 0.3 module: use it on \
                         `Config::a2a_v0_3()`, or name a table with `convert`"
                            .into(),
                    ));
                }
                let label = "a2a-codegen/spec/v0_3/convert.toml".to_owned();
                let (table, sha) =
                    convert::Table::parse(crate::config::EMBEDDED_CONVERT_V0_3, &label)
                        .map_err(Error::Config)?;
                (table, sha, label, module_path, Config::a2a_v1())
            }
        };
        let mut diags = Diagnostics::default();
        let read = inputs::read(inputs::resolve(&other), &mut diags)?;
        let loaded = load_inputs(read, &mut diags)?;
        let (other_model, _) = other.lower_loaded(&loaded, diags)?;
        let mut header = vec![(table_label.clone(), sha)];
        let named = schema_header(&loaded)
            .into_iter()
            .chain(loaded.inputs.errors.iter().map(HeaderInput::from))
            .chain(loaded.inputs.methods.iter().map(HeaderInput::from));
        header.extend(named.map(|h| (h.label.to_owned(), h.sha256.to_owned())));
        let plan =
            convert::Plan::new(model, &other_model, &table, &table_label).map_err(Error::Config)?;
        let paths = convert::Paths {
            rt: runtime.clone(),
            old: quote!(super),
            new: parse_runtime_path(module_path)?,
        };
        let tokens = convert::emit_convert(&plan, &paths).map_err(Error::Config)?;
        Ok(Some((tokens, header)))
    }

    /// Emits the modules of a validated model: (module name, tokens, the inputs its header
    /// names), in module order; the error reference, when configured, among them as text.
    fn emit_modules<'a>(
        &self,
        loaded: &'a Loaded,
        model: &ir::Model,
        custom: Option<&'a CustomTable>,
        runtime: TokenStream,
    ) -> Result<Modules<'a>, Error> {
        let inputs = &loaded.inputs;
        let opts = emit::EmitOptions {
            runtime,
            preserve_unknown: self.preserve_unknown_fields,
            protobuf: self.protobuf.as_ref().map(|impls| gate_of(Some(impls))),
        };
        let schema = schema_header(loaded);
        let mut out = Modules::default();
        out.push("types", emit::emit_types(model, &opts), schema.clone());
        if let Some(errors) = inputs.errors.as_ref().filter(|_| !model.errors.is_empty()) {
            out.push(
                "errors",
                emit::emit_errors(&model.errors, &opts),
                vec![errors.into()],
            );
            if self.error_reference.is_some() {
                let text = emit::render_error_reference(
                    &model.errors,
                    &errors.label,
                    &errors.sha256,
                    self.regenerate_text(),
                )
                .map_err(Error::Bug)?;
                out.reference = Some(text);
            }
        }
        if !model.methods.is_empty() {
            let mut header: Vec<HeaderInput<'_>> = inputs.methods.iter().map(Into::into).collect();
            header.extend(schema.iter().copied());
            header.extend(inputs.errors.iter().map(HeaderInput::from));
            out.push("methods", emit::emit_methods(model, &opts), header.clone());
            out.push("server", emit::emit_server(model, &opts), header.clone());
            out.push("service", emit::emit_service(model, &opts), header);
        }
        if let (Some(table), Some(source)) = (&model.custom_errors, custom) {
            let tokens = emit::emit_custom_errors(table, &source.label, &opts);
            out.push("custom_errors", tokens, vec![source.into()]);
        }
        if self.protobuf.is_some() {
            out.push(
                "protobuf",
                emit::emit_protobuf(model, &opts),
                schema.clone(),
            );
        }
        if self.json_schema.is_some() {
            out.push("json_schema", emit::emit_json_schema(model, &opts), schema);
        }
        Ok(out)
    }

    /// The files: one for `include!` (inline modules, no inner attributes, so that it compiles
    /// inside any module of the including crate), or a module directory with `mod.rs`; each with
    /// its header. Sorted by path.
    fn build_files(
        &self,
        loaded: &Loaded,
        model: &ir::Model,
        modules: Modules<'_>,
    ) -> Result<Vec<GeneratedFile>, Error> {
        let regenerate = self.regenerate_text();
        let json_schema = gate_of(self.json_schema.as_ref());
        let protobuf = gate_of(self.protobuf.as_ref());
        let gate = |module: &str| match module {
            "json_schema" => json_schema.clone(),
            "protobuf" => protobuf.clone(),
            _ => TokenStream::new(),
        };
        let mut files: Vec<GeneratedFile> = modules
            .reference
            .map(|contents| GeneratedFile {
                path: ERROR_REFERENCE.into(),
                contents,
            })
            .into_iter()
            .collect();
        let file = |path: String, tokens, header: &[HeaderInput<'_>]| {
            let contents = format::format_file(tokens, header, regenerate).map_err(Error::Bug)?;
            Ok::<_, Error>(GeneratedFile { path, contents })
        };
        match &self.single_file {
            Some(name) => {
                let mut tokens = TokenStream::new();
                let mut header: Vec<HeaderInput<'_>> = Vec::new();
                for (module, body, inputs) in modules.list {
                    let ident = proc_macro2::Ident::new(module, proc_macro2::Span::call_site());
                    let cfg = gate(module);
                    let export = (!IMPL_ONLY.contains(&module))
                        .then(|| quote!(#cfg pub use self::#ident::*;));
                    tokens.extend(quote! {
                        #cfg mod #ident { #body }
                        #export
                    });
                    for input in inputs {
                        if !header.iter().any(|h| h.label == input.label) {
                            header.push(input);
                        }
                    }
                }
                files.push(file(name.clone(), tokens, &header)?);
            }
            None => {
                let names: Vec<(&str, TokenStream)> =
                    modules.list.iter().map(|(m, _, _)| (*m, gate(m))).collect();
                let mut doc = module_doc(loaded, model);
                if let Some(impls) = &self.protobuf {
                    let when = match impls {
                        Impls::Feature(feature) => format!(" (cargo feature `{feature}`)"),
                        Impls::Always => String::new(),
                    };
                    doc.push_str(&format!(
                        "\n\nProtobuf{when}: every message type implements the runtime's \
                         `protobuf::Message` (`encode_to_vec`, `decode`) and every type \
                         `protobuf::ProtoField`, by the proto's field numbers: the binary form of \
                         the same values, for the gRPC binding."
                    ));
                }
                let root = module_root(&doc, &names);
                files.push(file("mod.rs".into(), root, &schema_header(loaded))?);
                for (module, tokens, header) in modules.list {
                    files.push(file(format!("{module}.rs"), tokens, &header)?);
                }
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// Where each file goes: the error reference to its configured path, the modules into `out`.
    fn place<'a>(&self, out: &Path, files: &'a [GeneratedFile]) -> Vec<write::Placed<'a>> {
        files
            .iter()
            .map(|f| match &self.error_reference {
                Some(path) if f.path == ERROR_REFERENCE => (path.clone(), f),
                _ => (out.join(&f.path), f),
            })
            .collect()
    }

    /// The header's regenerate hint: the configured one, or the default.
    fn regenerate_text(&self) -> &str {
        self.regenerate
            .as_deref()
            .unwrap_or(format::DEFAULT_REGENERATE_HINT)
    }

    fn require_out_dir(&self) -> Result<PathBuf, Error> {
        if let Some(dir) = &self.out_dir {
            return Ok(dir.clone());
        }
        std::env::var_os("OUT_DIR")
            .map(PathBuf::from)
            .ok_or_else(|| {
                Error::Config(
                    "no output directory: call `out_dir(...)`, or run from a build script, where \
                 cargo sets OUT_DIR"
                        .into(),
                )
            })
    }
}

/// The emitted modules, in order, with the inputs each header names; and the error reference.
#[derive(Default)]
struct Modules<'a> {
    list: Vec<(&'static str, TokenStream, Vec<HeaderInput<'a>>)>,
    reference: Option<String>,
}

impl<'a> Modules<'a> {
    fn push(&mut self, module: &'static str, tokens: TokenStream, header: Vec<HeaderInput<'a>>) {
        self.list.push((module, tokens, header));
    }
}

/// Import: a JSON Schema in our dialect goes on as it is, a published one is imported (its
/// overlay read); a proto takes no overlay. Every problem ends the run here.
fn load_inputs(read: Read, diags: &mut Diagnostics) -> Result<Loaded, Error> {
    let Read {
        schema,
        errors,
        methods,
        overlay,
        custom_errors,
        mut notes,
    } = read;
    let fail = |diags: &mut Diagnostics| Error::Input(std::mem::take(diags));
    let (schema, remap, overlay) = match schema {
        None => return Err(fail(diags)),
        Some(inputs::Schema::Json(schema)) => {
            let prepared = import::prepare(schema, overlay, diags).ok_or_else(|| fail(diags))?;
            notes.extend(prepared.notes);
            let schema = inputs::Schema::Json(prepared.schema);
            (schema, prepared.remap, prepared.overlay)
        }
        Some(inputs::Schema::Proto(proto)) => {
            if let Some(o) = overlay.filter(|o| o.explicit) {
                diags
                    .push(
                        &o.label,
                        "",
                        format!("an overlay is given, but {} is a proto", proto.label),
                    )
                    .help(
                        "the overlay completes the JSON Schema the A2A project publishes; a \
                         proto says all of it (REQUIRED fields, oneofs, field order, enum \
                         names): remove the overlay setting",
                    );
                return Err(fail(diags));
            }
            (inputs::Schema::Proto(proto), None, None)
        }
    };
    Ok(Loaded {
        inputs: inputs::Inputs {
            schema,
            errors,
            methods,
        },
        custom_errors,
        remap,
        overlay,
        notes,
    })
}

/// The types of a schema held in memory, of any layout (a published one imported with
/// `overlay`), through the pipeline's import and lowering: diagnostics point into the published
/// file and the overlay. For tests and tools that build schemas in memory.
#[cfg(any(test, feature = "unstable-internals"))]
pub(crate) fn lower_types(
    schema: &load::Source<serde_json::Value>,
    overlay: Option<&load::Source<import::Overlay>>,
    diags: &mut Diagnostics,
    notes: &mut Vec<Note>,
) -> std::collections::BTreeMap<ir::TypeId, ir::TypeDef> {
    let Some(prepared) = import::prepare_read(schema.clone(), overlay.cloned(), diags) else {
        return Default::default();
    };
    notes.extend(prepared.notes);
    let mut own = Diagnostics::default();
    let types = lower::lower_schema(&prepared.schema, &mut own);
    if let Some(remap) = &prepared.remap {
        remap.apply(&mut own);
    }
    diags.0.extend(own.0);
    types
}

/// Lowers the data model and the tables (the custom table aside) to the model.
fn lower_inputs(inputs: &inputs::Inputs, diags: &mut Diagnostics) -> ir::Model {
    let mut model = ir::Model::default();
    match &inputs.schema {
        inputs::Schema::Json(schema) => {
            model.types = lower::lower_schema(schema, diags);
            if let Some(methods) = &inputs.methods {
                model.methods = lower::lower_methods(methods, &model.types, diags);
            }
        }
        inputs::Schema::Proto(proto) => {
            let lowered = proto::lower(proto, diags);
            model.types = lowered.types;
            // Without either table the proto gives the types only (the note says so), as a
            // single schema file does: the methods need the error enum.
            if inputs.errors.is_some() || inputs.methods.is_some() {
                model.methods = proto::methods(
                    &lowered.rpcs,
                    inputs.methods.as_ref(),
                    &proto.label,
                    &model.types,
                    diags,
                );
            }
        }
    }
    if let Some(errors) = &inputs.errors {
        model.errors = lower::lower_errors(errors, diags);
    }
    model.protocol_version = inputs
        .methods
        .as_ref()
        .and_then(|m| m.value.protocol_version.clone());
    model
}

/// The inputs a header names for the data model: the schema, then the overlay that completed
/// it (an input wherever the schema is).
fn schema_header(loaded: &Loaded) -> Vec<HeaderInput<'_>> {
    let schema = &loaded.inputs.schema;
    let mut header = vec![HeaderInput {
        label: schema.label(),
        sha256: schema.sha256(),
    }];
    header.extend(
        loaded
            .overlay
            .iter()
            .map(|(label, sha256)| HeaderInput { label, sha256 }),
    );
    header
}

/// Tells the user what the generator decided: on stderr, or as cargo warnings in a build script
/// (cargo shows a build script's stderr only when it fails).
fn print_notes(notes: &[Note], in_build_script: bool) {
    for note in notes {
        if in_build_script {
            println!(
                "cargo:warning=a2a-codegen: {} ({} at {})",
                note.message, note.file, note.location
            );
        } else {
            eprintln!("{note}");
        }
    }
}

fn parse_runtime_path(path: &str) -> Result<TokenStream, Error> {
    syn::parse_str::<syn::Path>(path)
        .map(|p| quote!(#p))
        .map_err(|_| {
            Error::Config(format!(
                "runtime path `{path}` is not a Rust path (e.g. `::a2a_runtime`)"
            ))
        })
}

/// The docs of the module root: the schema's title and description (or the proto's), then what
/// "required" means, when a field is.
fn module_doc(loaded: &Loaded, model: &ir::Model) -> String {
    let mut doc = match &loaded.inputs.schema {
        inputs::Schema::Json(schema) => schema_doc(&schema.value),
        inputs::Schema::Proto(proto) => proto::module_doc(proto),
    };
    if let Some(presence) = emit::presence_doc(model) {
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(presence);
    }
    doc
}

/// The docs of a JSON Schema's module: its title and description.
fn schema_doc(schema: &serde_json::Value) -> String {
    let mut doc = String::new();
    for key in ["title", "description"] {
        if let Some(text) = schema.get(key).and_then(|v| v.as_str()) {
            if !doc.is_empty() {
                doc.push_str("\n\n");
            }
            doc.push_str(text.trim());
        }
    }
    doc
}

/// The module root: the module docs, and the re-export of the types.
fn module_root(doc: &str, modules: &[(&str, TokenStream)]) -> TokenStream {
    let lines = doc.lines().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    let items = modules.iter().map(|(module, cfg)| {
        let ident = proc_macro2::Ident::new(module, proc_macro2::Span::call_site());
        let export = (!IMPL_ONLY.contains(module)).then(|| quote!(#cfg pub use self::#ident::*;));
        quote! {
            // prettyplease formats generated modules; rustfmt would reformat them and make the
            // checked-in files look stale.
            #cfg
            #[rustfmt::skip]
            mod #ident;
            #export
        }
    });
    quote! {
        #( #![doc = #lines] )*
        #(#items)*
    }
}

/// Modules that hold only trait impls (and inherent methods): nothing to re-export.
const IMPL_ONLY: &[&str] = &["protobuf"];

/// The `#[cfg]` of an optional module (JSON Schema, protobuf), when it is gated on a feature.
fn gate_of(impls: Option<&Impls>) -> TokenStream {
    match impls {
        Some(Impls::Feature(feature)) => quote!(#[cfg(feature = #feature)]),
        _ => TokenStream::new(),
    }
}
