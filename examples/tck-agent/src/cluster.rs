//! The cluster tests' scenarios beside the TCK's: [`ClusterExecutor`] runs two more message
//! shapes, and can record every execution's start and end in a file, so that a test can tell
//! whether two replicas ever ran one task at once.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_agent::{AgentExecutor, ExecutorError, TaskContext, TaskUpdater};

use crate::TckExecutor;

/// The TCK's scenarios ([`TckExecutor`]), and for messages whose id starts with
/// - `cluster-long-MS-`: works for MS milliseconds, then completes;
/// - `cluster-input`: waits for input (as does every later message to the task whose id starts
///   with it).
///
/// With a log, each execution appends `start TASK PID NANOS` as it begins and `end TASK PID
/// NANOS` as it ends or is stopped (a line a write, unbuffered: a killed process loses no line
/// it wrote).
pub struct ClusterExecutor {
    log: Option<Arc<Mutex<File>>>,
}

impl ClusterExecutor {
    /// Recording into `log` (appended to), when given.
    ///
    /// # Errors
    ///
    /// The file cannot be opened for appending.
    pub fn new(log: Option<&Path>) -> std::io::Result<ClusterExecutor> {
        let log = match log {
            Some(path) => Some(Arc::new(Mutex::new(
                OpenOptions::new().create(true).append(true).open(path)?,
            ))),
            None => None,
        };
        Ok(ClusterExecutor { log })
    }
}

/// Writes `end` for its execution when dropped: whether the work returned or was stopped.
struct Recorded {
    log: Option<Arc<Mutex<File>>>,
    task_id: String,
}

impl Recorded {
    fn start(log: &Option<Arc<Mutex<File>>>, task_id: &str) -> Recorded {
        record(log, "start", task_id);
        Recorded {
            log: log.clone(),
            task_id: task_id.to_owned(),
        }
    }
}

impl Drop for Recorded {
    fn drop(&mut self) {
        record(&self.log, "end", &self.task_id);
    }
}

fn record(log: &Option<Arc<Mutex<File>>>, what: &str, task_id: &str) {
    if let Some(log) = log {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let line = format!("{what} {task_id} {} {nanos}\n", std::process::id());
        if let Ok(mut file) = log.lock() {
            let _ = file.write_all(line.as_bytes());
        }
    }
}

impl AgentExecutor for ClusterExecutor {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let _recorded = Recorded::start(&self.log, &cx.task_id);
        let id = cx
            .message
            .as_ref()
            .map(|m| m.message_id.clone())
            .unwrap_or_default();
        if let Some(rest) = id.strip_prefix("cluster-long-") {
            let ms = rest.split('-').next().and_then(|ms| ms.parse().ok());
            task.start_work(None).await?;
            tokio::time::sleep(Duration::from_millis(ms.unwrap_or(1_000))).await;
            return task.complete(None).await;
        }
        if id.starts_with("cluster-input") {
            return task.require_input(None).await;
        }
        TckExecutor.execute(cx, task).await
    }
}
