//! What an execution tells the call that started it: the first answer, then the settled task,
//! each with the history the caller's reply carries.

use a2a_types::v1::{ServiceError, Task};

use super::{Execution, FirstAnswer};
use crate::executor::AgentExecutor;

impl<E: AgentExecutor> Execution<E> {
    /// The task as the caller's reply carries it: with the history read for it before the
    /// messages the task holds (see `older`).
    pub(super) fn answer(&self) -> Task {
        let task = self.task.as_ref().expect("answered once the task exists");
        if self.older.is_empty() {
            return task.clone();
        }
        let mut answer = crate::lifecycle::without_history(task);
        // As stored: the oldest past the handler's cap are gone.
        let len = self.older.len() + task.history.len();
        let skip = self.shared.max_history.map_or(0, |m| len.saturating_sub(m));
        let older = self.older.get(skip..).unwrap_or_default();
        let own = &task.history[skip.saturating_sub(self.older.len())..];
        answer.history = [older, own].concat();
        answer
    }

    /// Tells the caller the first answer, once; `first` runs only then.
    pub(super) fn answer_first(
        &mut self,
        first: impl FnOnce() -> Result<FirstAnswer, ServiceError>,
    ) {
        if let Some(tx) = self.first.take() {
            let _ = tx.send(first());
        }
    }

    /// Tells the caller the outcome (and the first answer, if it had none yet).
    pub(super) fn settle(&mut self, outcome: Result<Task, ServiceError>) {
        self.answer_first(|| match &outcome {
            Ok(task) => Ok(FirstAnswer::Task {
                task: Box::new(task.clone()),
                settled: true,
            }),
            Err(e) => Err(e.clone()),
        });
        self.settled.send_replace(Some(outcome));
    }
}
