//! # a2a-agent
//!
//! The agent layer of A2A on [`a2a_types`]: for now, where an agent keeps its tasks and their
//! push-notification configs ([`store`]). The request handler, the executor an agent author
//! writes and push delivery build on these traits.
//!
//! ```
//! use a2a_agent::store::{MemoryStore, TaskStore};
//! use a2a_types::v1::{Task, TaskState, TaskStatus};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), a2a_agent::store::StoreError> {
//! let store = MemoryStore::new();
//! let task = Task {
//!     id: "t-1".into(),
//!     context_id: Some("ctx-1".into()),
//!     status: TaskStatus { state: TaskState::Submitted, ..Default::default() },
//!     ..Default::default()
//! };
//! let version = store.create(Some("acme"), &task).await?;
//! assert_eq!(version, 1);
//!
//! let stored = store.get(Some("acme"), "t-1").await?.expect("just created");
//! assert_eq!((stored.task, stored.version), (task, 1));
//!
//! // Tenants do not see each other's tasks.
//! assert!(store.get(None, "t-1").await?.is_none());
//! # Ok(())
//! # }
//! ```
//!
//! ## Stores
//!
//! - [`store::MemoryStore`]: in memory, for tests and one process.
//!
//! It implements both [`store::TaskStore`] and [`store::PushConfigStore`], checked by a
//! conformance suite (`tests/`) that any store can run.

#![deny(missing_docs)]

pub mod store;
