//! Where each part of a rewritten schema came from (the import's remap table, [`super::Remap`]).

/// Where a part of the rewritten schema came from: diagnostics about it are moved there.
#[derive(Clone, Debug)]
pub(super) struct Origin {
    /// The JSON pointer in the rewritten schema.
    pub(super) new: String,
    /// The file it came from: the published schema or the overlay.
    pub(super) file: String,
    /// The JSON pointer (or TOML path) there.
    pub(super) old: String,
    /// Whether a diagnostic deeper inside keeps the rest of its pointer (else it points at `old`).
    pub(super) keep_rest: bool,
}
