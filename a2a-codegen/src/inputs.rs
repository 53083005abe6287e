//! The first step of the pipeline: resolve a [`Config`]'s inputs once (where each one comes from,
//! a file or a text embedded in this crate, and how it is labelled), which also gives the files
//! cargo watches (`rerun-if-changed`); then read them.

use crate::config::EmbeddedSpec;
use crate::diag::{Diagnostics, Note};
use crate::import::OverlayPath;
use crate::load::{self, RawErrors, RawMethods, Source};
use crate::{Config, Error};
use std::path::{Path, PathBuf};

/// The data model as read: a JSON Schema (ours, or one the A2A project publishes, imported
/// later) or a compiled proto.
#[derive(Clone, Debug)]
pub(crate) enum Schema {
    /// A JSON Schema document.
    Json(Source<serde_json::Value>),
    /// A proto, compiled.
    Proto(Source<crate::proto::Compiled>),
}

impl Schema {
    /// How the file is named in diagnostics and headers.
    pub(crate) fn label(&self) -> &str {
        match self {
            Schema::Json(s) => &s.label,
            Schema::Proto(s) => &s.label,
        }
    }

    /// Lowercase hex SHA-256 of the file's bytes.
    pub(crate) fn sha256(&self) -> &str {
        match self {
            Schema::Json(s) => &s.sha256,
            Schema::Proto(s) => &s.sha256,
        }
    }
}

/// Reads the data-model file at `path`: a proto (`.proto`, compiled) or a JSON Schema.
pub(crate) fn read_schema(path: &Path, label: &str, diags: &mut Diagnostics) -> Option<Schema> {
    if load::is_proto(path) {
        crate::proto::read(path, label, diags).map(Schema::Proto)
    } else {
        load::read_json(path, label, diags).map(Schema::Json)
    }
}

/// Everything read from a spec directory.
#[derive(Clone, Debug)]
pub(crate) struct Inputs {
    /// The data model: a JSON Schema in our dialect (a published one is imported before), or a
    /// compiled proto.
    pub(crate) schema: Schema,
    /// The error table, when the directory has one.
    pub(crate) errors: Option<Source<RawErrors>>,
    /// The method table, when the directory has one.
    pub(crate) methods: Option<Source<RawMethods>>,
}

/// Where one input's bytes come from.
#[derive(Debug)]
enum Origin {
    /// A file that must exist (the schema, or a file named by a setting).
    File(PathBuf),
    /// A table beside the spec: read when it is there.
    IfPresent(PathBuf),
    /// A text of an embedded spec.
    Embedded(&'static str),
}

/// One input: where it comes from, and its label in diagnostics and headers.
#[derive(Debug)]
struct Input {
    origin: Origin,
    label: String,
}

impl Input {
    fn file(path: &Path, label: String) -> Self {
        Input {
            origin: Origin::File(path.to_path_buf()),
            label,
        }
    }

    /// A file named by a setting, labelled by its path ([`custom_label`]).
    fn given(path: &Path) -> Self {
        Input::file(path, custom_label(path))
    }

    fn read_table<T: for<'de> serde::Deserialize<'de>>(
        &self,
        diags: &mut Diagnostics,
    ) -> Option<load::Source<T>> {
        match &self.origin {
            Origin::File(path) => load::read_toml(path, &self.label, diags),
            Origin::IfPresent(path) => load::read_toml_if_present(path, &self.label, diags),
            Origin::Embedded(text) => load::parse_toml(text.as_bytes(), &self.label, diags),
        }
    }

    fn read_schema(&self, diags: &mut Diagnostics) -> Option<Schema> {
        match &self.origin {
            Origin::File(path) | Origin::IfPresent(path) => read_schema(path, &self.label, diags),
            Origin::Embedded(text) => {
                load::parse_json(text.as_bytes(), &self.label, diags).map(Schema::Json)
            }
        }
    }
}

/// Every input of a configuration, resolved once: what [`read`] reads and what cargo watches.
#[derive(Debug)]
pub(crate) struct Resolved {
    /// The spec path to check before reading, with its label (unless a schema file replaces it).
    spec: Option<(PathBuf, String)>,
    schema: Input,
    errors: Option<Input>,
    methods: Option<Input>,
    overlay: Option<OverlayPath>,
    /// The custom error table (read with the model's tables, when lowering).
    custom_errors: Option<PathBuf>,
    /// The files (and spec directory) a build script re-runs on.
    watch: Vec<PathBuf>,
    /// Said when a spec file comes without tables: it gives the types only.
    types_only: Option<Note>,
}

impl Resolved {
    /// Every input file, as given (plus the spec directory, so that a table added to it is
    /// noticed): [`Config::input_paths`].
    pub(crate) fn watched(&self) -> &[PathBuf] {
        &self.watch
    }
}

/// Where each input of `config` comes from.
pub(crate) fn resolve(config: &Config) -> Resolved {
    let label = config.label.clone().unwrap_or_else(|| {
        config
            .spec
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    match config.embedded {
        Some(spec) => resolve_embedded(config, spec, &label),
        None => resolve_files(config, &label),
    }
}

/// The inputs of an embedded spec: its texts, each replaced by a file when one is set. Only
/// those files are watched (the texts are part of this crate).
fn resolve_embedded(config: &Config, spec: &'static EmbeddedSpec, label: &str) -> Resolved {
    let embedded = |text: &'static str, file: &str| Input {
        origin: Origin::Embedded(text),
        label: format!("{label}/{file}"),
    };
    let or_given = |given: &Option<PathBuf>, text, file| match given {
        Some(path) => Input::given(path),
        None => embedded(text, file),
    };
    let watch = [
        &config.schema_file,
        &config.errors_table,
        &config.methods_table,
        &config.custom_errors,
        &config.overlay,
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect();
    Resolved {
        spec: None,
        schema: or_given(&config.schema_file, spec.schema, load::SCHEMA_FILE),
        errors: Some(or_given(
            &config.errors_table,
            spec.errors,
            load::ERRORS_FILE,
        )),
        methods: Some(or_given(
            &config.methods_table,
            spec.methods,
            load::METHODS_FILE,
        )),
        overlay: explicit_overlay(config),
        custom_errors: config.custom_errors.clone(),
        watch,
        types_only: None,
    }
}

/// The inputs of a spec directory or spec file, each replaced by a file when one is set.
fn resolve_files(config: &Config, label: &str) -> Resolved {
    let spec = &config.spec;
    let is_dir = !spec.is_file();
    let (dir, dir_label) = table_dir(spec, label);
    let in_dir = |file: &str| match dir_label.as_str() {
        "" => file.to_string(),
        dir => format!("{dir}/{file}"),
    };
    let schema = match &config.schema_file {
        Some(path) => Input::given(path),
        None if is_dir => {
            let file = load::schema_file_in(&dir);
            Input::file(&dir.join(file), in_dir(file))
        }
        None => Input::file(spec, label.to_string()),
    };
    // A table given on its own must exist; one beside the spec is optional.
    let table = |given: &Option<PathBuf>, file: &str| match given {
        Some(path) => Some(Input::given(path)),
        None => Some(dir.join(file))
            .filter(|p| p.exists())
            .map(|path| Input {
                origin: Origin::IfPresent(path),
                label: in_dir(file),
            }),
    };
    let errors = table(&config.errors_table, load::ERRORS_FILE);
    let methods = table(&config.methods_table, load::METHODS_FILE);
    let beside = OverlayPath {
        path: dir.join(load::OVERLAY_FILE),
        label: in_dir(load::OVERLAY_FILE),
        explicit: false,
    };
    let overlay = explicit_overlay(config).or_else(|| Some(beside).filter(|o| o.path.exists()));

    let mut watch: Vec<PathBuf> = Vec::new();
    if is_dir {
        watch.push(spec.clone());
    }
    for input in [Some(&schema), errors.as_ref(), methods.as_ref()]
        .into_iter()
        .flatten()
    {
        if let Origin::File(path) | Origin::IfPresent(path) = &input.origin {
            watch.push(path.clone());
        }
    }
    watch.extend(config.custom_errors.clone());
    // In a spec directory, an overlay found there is covered by watching the directory.
    watch.extend(
        overlay
            .as_ref()
            .filter(|o| o.explicit || !is_dir)
            .map(|o| o.path.clone()),
    );

    let types_only = (!is_dir && errors.is_none() && methods.is_none()).then(|| Note {
        file: label.to_string(),
        location: String::new(),
        message: format!(
            "{} gives the types only (types.rs): the error enum, the reply decoders and the \
             server side come from errors.toml and methods.toml, and there are none beside it; \
             put them there (or pass the spec directory) for them",
            if load::is_proto(spec) {
                "a proto alone (it has no error table)"
            } else {
                "a single schema file"
            }
        ),
    });
    Resolved {
        // With the schema given on its own, the spec directory only supplies optional tables.
        spec: config
            .schema_file
            .is_none()
            .then(|| (spec.clone(), label.to_string())),
        schema,
        errors,
        methods,
        overlay,
        custom_errors: config.custom_errors.clone(),
        watch,
        types_only,
    }
}

/// What [`read`] read, before importing: the data model (`None` when it could not be read, the
/// diagnostics saying why), the tables, the overlay (not read yet: only a published schema takes
/// one) and the notes so far.
pub(crate) struct Read {
    pub(crate) schema: Option<Schema>,
    pub(crate) errors: Option<Source<RawErrors>>,
    pub(crate) methods: Option<Source<RawMethods>>,
    pub(crate) overlay: Option<OverlayPath>,
    pub(crate) custom_errors: Option<PathBuf>,
    pub(crate) notes: Vec<Note>,
}

/// Reads the resolved inputs; a spec path that cannot be one stops here.
pub(crate) fn read(resolved: Resolved, diags: &mut Diagnostics) -> Result<Read, Error> {
    if let Some((spec, label)) = &resolved.spec {
        if let Some(problem) = spec_path_problem(spec, label) {
            return Err(Error::Input(problem));
        }
    }
    let schema = resolved.schema.read_schema(diags);
    let errors = resolved.errors.and_then(|t| t.read_table(diags));
    let methods = resolved.methods.and_then(|t| t.read_table(diags));
    Ok(Read {
        schema,
        errors,
        methods,
        overlay: resolved.overlay,
        custom_errors: resolved.custom_errors,
        notes: resolved.types_only.into_iter().collect(),
    })
}

/// The directory whose tables (and overlay) complete the data model, with its label: the spec
/// directory, or the one holding a spec file (a schema or proto is read with the `errors.toml`,
/// `methods.toml` and `overlay.toml` beside it).
fn table_dir(spec: &Path, label: &str) -> (PathBuf, String) {
    if !spec.is_file() {
        return (spec.to_path_buf(), label.trim_end_matches('/').to_string());
    }
    let dir = spec
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let dir_label = match label.trim_end_matches('/').rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => String::new(),
    };
    (dir, dir_label)
}

/// The overlay set with [`Config::overlay`], if any.
pub(crate) fn explicit_overlay(config: &Config) -> Option<OverlayPath> {
    config.overlay.as_ref().map(|path| OverlayPath {
        path: path.clone(),
        label: custom_label(path),
        explicit: true,
    })
}

/// How a file named by a setting is labelled in diagnostics and headers: the path as given when
/// it is relative (so output does not depend on where the checkout lives), else its file name.
pub(crate) fn custom_label(path: &Path) -> String {
    if path.is_relative() {
        path.to_string_lossy().replace('\\', "/")
    } else {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// A spec path that cannot be what it should: missing (a typo such as `a2a.schema.jsn` would
/// otherwise be read as a directory), or one of the tables given in place of the schema.
fn spec_path_problem(spec: &Path, label: &str) -> Option<Diagnostics> {
    let shown = spec.display();
    let mut diags = Diagnostics::default();
    if !spec.exists() {
        let looks_like_file = spec.extension().is_some();
        diags
            .push(
                label,
                "",
                if looks_like_file {
                    format!("the spec file {shown} does not exist")
                } else {
                    format!("the spec directory {shown} does not exist (a2a.schema.json or a2a.proto, errors.toml and methods.toml are read from it)")
                },
            )
            .help(if looks_like_file {
                "check the file name; --spec takes a schema file (a2a.schema.json, or the \
                 published a2a.json), a proto (a2a.proto), or a spec directory holding one of \
                 them with errors.toml and methods.toml"
            } else {
                "pass --spec with a spec directory (a2a.schema.json or a2a.proto, errors.toml, \
                 methods.toml) or a schema or proto file"
            });
        return Some(diags);
    }
    let is_table = spec.is_file()
        && spec
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
    if is_table {
        diags
            .push(
                label,
                "",
                format!("{shown} is a TOML table, not a JSON schema or a proto"),
            )
            .help(
                "pass the spec directory that holds it (with a2a.schema.json or a2a.proto \
                 beside it) as --spec; a table elsewhere goes with Config::errors_table / \
                 methods_table, a custom error table with --custom-errors",
            );
        return Some(diags);
    }
    None
}
