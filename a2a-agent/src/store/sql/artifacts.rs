//! Task artifacts in SQL (see `store`'s docs, "Artifacts"): a row per artifact and per chunk in
//! `a2a_artifacts`, numbered from 0 in the order they were written. An artifact's first row
//! (`chunk` 0) holds it as it was given; each chunk added to it later (an artifact update with
//! `append`) is a row of its own (`chunk` 1) holding the chunk's artifact. A read joins the rows
//! in order and adds each chunk to its artifact, as the task lifecycle does, so a chunk is
//! written once, whatever came before it. An artifact given again without `append` replaces
//! its first row in place (it keeps its place among the others) and its chunks' rows are
//! deleted. The task's JSON holds no artifacts. `artifact_id` holds the id as a JSON string
//! (PostgreSQL's `TEXT` holds no NUL; JSON escapes it).

use a2a_types::v1::Artifact;

use super::{backend, next, Bind, Migration};
use crate::store::{Artifacts, StoreError};

/// The step of the schema that keeps artifacts apart (PostgreSQL's eighth, SQLite's ninth):
/// the table, then (`moves_artifacts`) each stored task's artifacts moved out of its JSON into
/// rows, by [`SqlStore::move_out_of_json`](super::SqlStore::move_out_of_json) (in Rust, as the
/// histories were: see `history_migration`).
pub(crate) const fn artifacts_migration(version: i64, sql: &'static str) -> Migration {
    Migration {
        version,
        description: "task artifacts a row per chunk",
        moves_histories: false,
        moves_artifacts: true,
        sql,
    }
}

/// The table of [`artifacts_migration`], its `task_id` of type `$id` (as `history_table`).
macro_rules! artifacts_table {
    ($id:literal) => {
        concat!(
            "
CREATE TABLE a2a_artifacts (
    tenant      TEXT   NOT NULL,
    task_id     ",
            $id,
            " NOT NULL,
    idx         BIGINT NOT NULL,
    artifact_id TEXT   NOT NULL,
    chunk       BIGINT NOT NULL,
    artifact    TEXT   NOT NULL,
    PRIMARY KEY (tenant, task_id, idx)
);
"
        )
    };
}
pub(crate) use artifacts_table;

/// The artifacts of the task `t` (an alias in the statement), joined as by `{artifacts}`, the
/// database's `Dialect::ARTIFACTS_AGG` of `[chunk,artifact]` pairs: one column of a read.
pub(crate) const ARTIFACTS_OF: &str =
    "(SELECT {artifacts} FROM a2a_artifacts a WHERE a.tenant = {t}.tenant AND a.task_id = {t}.id)";

/// The artifacts a write gives, encoded: each one's id and JSON, and what the write does with
/// them.
pub(crate) struct ArtifactsWrite {
    items: Vec<(String, String)>,
    how: Artifacts,
    /// Whether rows may be stored already (not for a task just created).
    replaces: bool,
}

impl ArtifactsWrite {
    /// `artifacts` as a write with `how` gives them; `replaces` unless the task is new.
    pub(crate) fn of(
        label: &'static str,
        artifacts: &[Artifact],
        how: Artifacts,
        replaces: bool,
    ) -> Result<ArtifactsWrite, StoreError> {
        let items = artifacts
            .iter()
            .map(|a| {
                let encode = |e| backend(label, "encode an artifact as JSON", e);
                let json = serde_json::to_string(a).map_err(encode)?;
                // As a JSON string: PostgreSQL's `TEXT` holds no NUL, which an id may.
                let id = serde_json::to_string(&a.artifact_id).map_err(encode)?;
                Ok((id, json))
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(ArtifactsWrite {
            items,
            how,
            replaces,
        })
    }

    /// The statements that write the rows, run after the task's write in its transaction,
    /// each with its binds (`$1` tenant and `$2` task id first).
    pub(crate) fn after<'a>(
        &'a self,
        tenant: &Bind<'a>,
        id: &Bind<'a>,
    ) -> Vec<(String, Vec<Bind<'a>>)> {
        let key = vec![tenant.clone(), id.clone()];
        let mut emit = Emit {
            shared: None,
            current: key.clone(),
            key,
            out: Vec::new(),
        };
        self.emit(&mut emit);
        emit.out
    }

    /// The same as entries of a write's `WITH` whose `written` entry returns a row when the
    /// task was written (PostgreSQL): nothing is written otherwise, and no two entries touch
    /// one row. Their binds are added to `binds`.
    pub(crate) fn in_with<'a>(&'a self, binds: &mut Vec<Bind<'a>>) -> Vec<String> {
        let mut emit = Emit {
            shared: Some(binds),
            current: Vec::new(),
            key: Vec::new(),
            out: Vec::new(),
        };
        self.emit(&mut emit);
        let entries = emit.out.into_iter().enumerate();
        entries
            .map(|(k, (text, _))| format!("artifacts_{k} AS ({text})"))
            .collect()
    }

    fn emit<'a>(&'a self, e: &mut Emit<'a, '_>) {
        let (from, using) = match e.shared.is_some() {
            true => (" FROM written", " USING written"),
            false => ("", ""),
        };
        let next_idx = "(SELECT COALESCE(MAX(x.idx) + 1, 0) FROM a2a_artifacts x \
            WHERE x.tenant = $1 AND x.task_id = $2)";
        const INSERT: &str =
            "INSERT INTO a2a_artifacts (tenant, task_id, idx, artifact_id, chunk, artifact)";
        let this = |i: &str| {
            format!(
                "a2a_artifacts.tenant = $1 AND a2a_artifacts.task_id = $2 \
                 AND a2a_artifacts.artifact_id = {i}"
            )
        };
        match self.how {
            Artifacts::Whole => {
                if !self.items.is_empty() {
                    let mut values = Vec::new();
                    for (k, (aid, json)) in self.items.iter().enumerate() {
                        let (i, j) = (e.bind(Bind::text(aid)), e.bind(Bind::text(json)));
                        values.push(format!("({k}, {i}, {j})"));
                    }
                    let gate = if from.is_empty() { "" } else { "written, " };
                    // `WHERE true`: else SQLite reads the `ON` of `ON CONFLICT` as a join's.
                    e.push(format!(
                        "{INSERT} SELECT $1, $2, v.column1, v.column2, 0, v.column3 \
                         FROM {gate}(VALUES {}) AS v WHERE true \
                         ON CONFLICT (tenant, task_id, idx) DO UPDATE SET \
                         artifact_id = excluded.artifact_id, chunk = 0, artifact = excluded.artifact",
                        values.join(", ")
                    ));
                }
                if self.replaces {
                    let n = self.items.len();
                    e.push(format!(
                        "DELETE FROM a2a_artifacts{using} WHERE a2a_artifacts.tenant = $1 \
                         AND a2a_artifacts.task_id = $2 AND a2a_artifacts.idx >= {n}"
                    ));
                }
            }
            Artifacts::Update { append: true } => {
                for (k, (aid, json)) in self.items.iter().enumerate() {
                    let (i, j) = (e.bind(Bind::text(aid)), e.bind(Bind::text(json)));
                    e.push(format!(
                        "{INSERT} SELECT $1, $2, {next_idx} + {k}, {i}, 1, {j}{from}"
                    ));
                }
            }
            Artifacts::Update { append: false } => {
                for (k, (aid, json)) in self.items.iter().enumerate() {
                    // Each statement its own binds when they run apart.
                    let (i, j) = (e.bind(Bind::text(aid)), e.bind(Bind::text(json)));
                    e.push(format!(
                        "UPDATE a2a_artifacts SET artifact = {j}{from} WHERE {} \
                         AND a2a_artifacts.chunk = 0",
                        this(&i)
                    ));
                    let i = e.bind(Bind::text(aid));
                    e.push(format!(
                        "DELETE FROM a2a_artifacts{using} WHERE {} AND a2a_artifacts.chunk = 1",
                        this(&i)
                    ));
                    let (i, j) = (e.bind(Bind::text(aid)), e.bind(Bind::text(json)));
                    e.push(format!(
                        "{INSERT} SELECT $1, $2, {next_idx} + {k}, {i}, 0, {j}{from} \
                         WHERE NOT EXISTS (SELECT 1 FROM a2a_artifacts y WHERE y.tenant = $1 \
                         AND y.task_id = $2 AND y.artifact_id = {i} AND y.chunk = 0)"
                    ));
                }
            }
        }
    }
}

/// Statements being made: their binds in one list (a `WITH`: `shared`) or each its own,
/// after the task's key.
struct Emit<'a, 'b> {
    shared: Option<&'b mut Vec<Bind<'a>>>,
    current: Vec<Bind<'a>>,
    key: Vec<Bind<'a>>,
    out: Vec<(String, Vec<Bind<'a>>)>,
}

impl<'a> Emit<'a, '_> {
    /// Binds a value for the statement being made; its placeholder.
    fn bind(&mut self, value: Bind<'a>) -> String {
        match self.shared.as_deref_mut() {
            Some(shared) => next(shared, value),
            None => next(&mut self.current, value),
        }
    }

    /// The statement made, with the binds given it since the last.
    fn push(&mut self, text: String) {
        let binds = std::mem::replace(&mut self.current, self.key.clone());
        self.out.push((text, binds));
    }
}

/// The artifacts of an [`ARTIFACTS_OF`] (`None`: no row), put back together.
pub(crate) fn decode_joined(
    label: &'static str,
    task_id: &str,
    joined: Option<&str>,
) -> Result<Vec<Artifact>, StoreError> {
    let rows: Vec<(u8, Artifact)> =
        super::history::decode_rows(label, task_id, joined, "artifacts", |s| {
            serde_json::from_str(s)
        })?;
    let mut artifacts = Vec::new();
    for (chunk, artifact) in &rows {
        crate::lifecycle::merge_artifact(&mut artifacts, artifact, *chunk == 1);
    }
    Ok(artifacts)
}
