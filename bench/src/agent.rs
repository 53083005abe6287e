//! The executor the Rust agents of the load benches run (`bench_agent`, `version_cost`): what the
//! interop agent's does.

use a2a_agent::{AgentExecutor, ExecutorError, TaskContext, TaskUpdater};

/// Working, the greeting (`Hello from Rust: <text>`) as an artifact, completed.
pub struct Greeter;

impl AgentExecutor for Greeter {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        task.start_work(None).await?;
        let greeting = format!("Hello from Rust: {}", cx.text());
        task.add_text_artifact("greeting", &greeting).await?;
        task.complete(None).await
    }
}
