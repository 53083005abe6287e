//! What an execution's writes do with its task's artifacts, for a store that keeps them apart
//! (see [`Execution::write`]): which artifacts an event changes, and the events that carry them
//! all.

use a2a_types::v1::{StreamResponse, Task};

use super::Execution;
use crate::executor::AgentExecutor;
use crate::store::Artifacts;

/// A write that changes none of the task's artifacts.
pub(super) const UNCHANGED: Artifacts = Artifacts::Update { append: false };

impl<E: AgentExecutor> Execution<E> {
    /// What an event does to the task's artifacts, for a store that keeps them apart (see
    /// [`Execution::write`]): a `Task` sets them all; an artifact update changes its one, and
    /// is applied as a plain add to the task without artifacts the write changes (the event
    /// returned), once a chunk's artifact is known to exist; any other changes none.
    pub(super) fn artifacts_of(
        &self,
        event: &StreamResponse,
    ) -> Result<(Option<StreamResponse>, Artifacts), String> {
        match event {
            StreamResponse::Task(_) => Ok((None, Artifacts::Whole)),
            StreamResponse::ArtifactUpdate(u) if self.shared.tasks.appends_artifacts() => {
                let append = u.append.unwrap_or(false);
                let id = &u.artifact.artifact_id;
                let held = self.task.as_ref().map_or(&[][..], |t| &t.artifacts[..]);
                if append && !held.iter().any(|a| &a.artifact_id == id) {
                    let e = crate::lifecycle::missing_artifact(id);
                    return Err(format!("the agent broke the protocol: {e}"));
                }
                let mut added = u.clone();
                added.append = None;
                Ok((
                    Some(StreamResponse::ArtifactUpdate(added)),
                    Artifacts::Update { append },
                ))
            }
            _ => Ok((None, UNCHANGED)),
        }
    }

    /// The event a write logs: a `Task` made of a task without its artifacts (a store that
    /// keeps them apart) given them all, the held ones with the write's applied; any other as
    /// it is.
    pub(super) fn whole_event(
        &self,
        event: StreamResponse,
        task: &Task,
        artifacts: Artifacts,
    ) -> StreamResponse {
        match event {
            StreamResponse::Task(mut t) if artifacts != Artifacts::Whole => {
                let held = self
                    .task
                    .as_ref()
                    .map(|h| h.artifacts.clone())
                    .unwrap_or_default();
                t.artifacts = artifacts.apply(held, &task.artifacts);
                StreamResponse::Task(t)
            }
            other => other,
        }
    }
}
