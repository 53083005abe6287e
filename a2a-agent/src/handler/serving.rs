//! The handler on a2a-runtime's server (feature `server`): one router serving A2A 1.0 and, unless
//! turned off, A2A 0.3 from the same handler, the same store and the same lifecycle.

use super::RequestHandler;
use crate::executor::AgentExecutor;
use a2a_types::rt::server::{AgentRouter, ServerError};
use a2a_types::{v0_3, v1};
use std::sync::Arc;

impl<E: AgentExecutor> RequestHandler<E> {
    /// A router for `card` serving this handler: A2A 1.0 (`v1::A2aServer`), and, unless turned
    /// off with [`RequestHandlerBuilder::v0_3`](super::RequestHandlerBuilder::v0_3), A2A 0.3
    /// through the generated conversions (`a2a_types::v0_3::Compat`): a request without
    /// `A2A-Version` is 0.3 (spec §3.6), the 0.3 JSON-RPC method names are served, and the card
    /// gains its 0.3 members (`url`, `preferredTransport`, `additionalInterfaces`, and a 0.3
    /// twin of each JSON-RPC interface). Add authentication, limits or a signer to the router,
    /// then `into_router()`.
    ///
    /// ```
    /// use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
    /// use a2a_types::v1::{AgentCard, AgentInterface};
    ///
    /// struct Done;
    /// impl AgentExecutor for Done {
    ///     async fn execute(&self, _cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
    ///         task.complete(Some(task.text_message("done"))).await
    ///     }
    /// }
    ///
    /// let card = AgentCard {
    ///     name: "done".into(),
    ///     supported_interfaces: vec![AgentInterface {
    ///         url: "http://127.0.0.1:3000/".into(),
    ///         protocol_binding: "JSONRPC".into(),
    ///         protocol_version: "1.0".into(),
    ///         ..Default::default()
    ///     }],
    ///     ..Default::default()
    /// };
    /// let router = RequestHandler::builder(Done).build().router(&card).unwrap();
    /// assert_eq!(router.served_card()["preferredTransport"], "JSONRPC"); // 0.3 clients find it
    /// let app = router.into_router().unwrap(); // an axum::Router
    /// # drop(app);
    /// ```
    pub fn router(self, card: &v1::AgentCard) -> Result<AgentRouter, ServerError> {
        let serve_v0_3 = self.shared.serve_v0_3;
        let router = AgentRouter::new(card)?.service(v1::A2aServer::new(self.clone()));
        Ok(match serve_v0_3 {
            true => router.service(v0_3::A2aServer::new(v0_3::Compat(Arc::new(self)))),
            false => router,
        })
    }
}
