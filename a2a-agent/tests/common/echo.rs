//! The executor of the tests that serve the handler over the wire (versions.rs, grpc.rs).

use a2a_agent::{AgentExecutor, ExecutorError, TaskContext, TaskUpdater};

/// `hang` works until canceled; anything else gets one artifact repeating it, then completes.
pub struct Echo;

impl AgentExecutor for Echo {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        task.start_work(None).await?;
        if cx.text() == "hang" {
            std::future::pending::<()>().await;
        }
        task.add_text_artifact("echo", &cx.text()).await?;
        task.complete(None).await
    }
}
