//! # a2a-agent
//!
//! The agent layer of A2A v1 on [`a2a_types`]: what an agent author writes is an
//! [`AgentExecutor`]; the [`RequestHandler`] serves it as the generated v1 service
//! (`a2a_types::v1::A2aService`), keeping the spec's task lifecycle over a task store
//! ([`store`]), with push notifications ([`push`]) when asked.
//!
//! A complete agent (served with `a2a_types::rt::server::AgentRouter`, feature `server` of
//! a2a-types):
//!
//! ```
//! use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
//! use a2a_types::v1::A2aServer;
//!
//! struct Shout;
//!
//! impl AgentExecutor for Shout {
//!     async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
//!         task.start_work(None).await?;
//!         task.add_text_artifact("shout", &cx.text().to_uppercase()).await?;
//!         task.complete(None).await
//!     }
//! }
//!
//! let service = A2aServer::new(RequestHandler::builder(Shout).build());
//! # drop(service);
//! ```
//!
//! ## The lifecycle
//!
//! [`RequestHandler`] documents the rules it keeps; [`lifecycle`] has them as pure functions
//! (what an event does to a task, history lengths).
//!
//! ## Push notifications
//!
//! [`RequestHandlerBuilder::push_notifications`] turns them on: configs in a
//! [`store::PushConfigStore`], delivered by a [`push::PushDispatcher`] (one ordered, bounded
//! queue per registration) through a [`push::PushSender`] that screens every URL
//! ([`push::PushUrlPolicy`]: only `https` to public addresses unless allowed) and retries with
//! backoff. A webhook that is down or hangs never holds a request or changes a task.
//!
//! ## A store by itself
//!
//! ```
//! use a2a_agent::store::{MemoryStore, Scope, TaskStore};
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
//! // Tenant acme, owner alice: what she creates is hers.
//! let acme = Scope::tenant(Some("acme")).owner("alice");
//! let version = store.create_task(acme, &task).await?;
//! assert_eq!(version, 1);
//!
//! let stored = store.get_task(acme, "t-1").await?.expect("just created");
//! assert_eq!((stored.task, stored.version), (task, 1));
//!
//! // Tenants do not see each other's tasks, nor owners each other's.
//! assert!(store.get_task(Scope::default(), "t-1").await?.is_none());
//! let bobs = Scope::tenant(Some("acme")).owner("bob");
//! assert!(store.get_task(bobs, "t-1").await?.is_none());
//! # Ok(())
//! # }
//! ```
//!
//! ## Stores
//!
//! - [`store::MemoryStore`]: in memory, for tests and one process (always built).
//! - `store::SqliteStore` (feature `sqlite`): a SQLite file, for one host.
//! - `store::PostgresStore` (feature `postgres`): PostgreSQL, for several replicas.
//!
//! All of them implement both [`store::TaskStore`] and [`store::PushConfigStore`] with the same
//! rules, checked by one conformance suite (`tests/`).
//!
//! ## Several replicas
//!
//! Replicas of one agent behind a load balancer must share their tasks. What that takes:
//!
//! 1. **One PostgreSQL database** for all of them: a `store::PostgresStore` per replica, on the
//!    same database and `search_path`. A memory store per replica shares nothing, and a SQLite
//!    file serves processes on one host only.
//! 2. **The version check on every write**, which the stores do: [`store::TaskStore::update_task`]
//!    is `UPDATE ... SET ..., version = version + 1 WHERE tenant = $1 AND id = $2 AND version =
//!    $3`, checked by its affected row count. Of two replicas writing one task from the same
//!    version, one gets [`store::StoreError::Conflict`]; it must read the task again, reapply
//!    its change and retry. No update is lost, provided no code path writes a task without
//!    naming the version it read (there is no unconditional write in the traits).
//! 3. **No cached task as truth**: read the store, not a copy kept in the process, before a
//!    change. The stores cache nothing; page tokens work on any replica.
//!
//! Also: the first replica to connect creates or migrates the schema while the others wait on
//! an advisory lock, and a build that finds a newer schema than it knows refuses to start, so
//! finish a rollout that migrates; keep the replicas' clocks in sync (a task without a status
//! timestamp is listed by the time the writing replica's clock gave it; versions do not depend
//! on clocks); each replica's pool (10 connections by default, or the one given to
//! `PostgresStore::from_pool`) counts against the server's `max_connections`.
//!
//! With an event feed ([`cluster::PostgresFeed`], given with
//! [`RequestHandlerBuilder::event_feed`]), the replicas share what is live too, and any call may
//! go to any replica: each task's events are logged in the store and read by the other replicas
//! when they are told, so a stream on any replica gets every event of the task in order; an
//! execution holds its task's lease, so one replica runs a task at a time (a message for a task
//! another replica runs waits for it, a cancel is sent to it); and the tasks of a replica that
//! stopped are failed by another once its leases expire, or at once when it stopped with
//! [`RequestHandler::shutdown`] (see [`cluster`]).

#![deny(missing_docs)]

mod access;
pub mod cluster;
mod executor;
mod handler;
pub mod lifecycle;
pub mod push;
pub mod store;

pub use access::AccessPolicy;
pub use executor::{text_part, AgentExecutor, ExecutorError, TaskContext, TaskUpdater};
pub use handler::{
    RequestHandler, RequestHandlerBuilder, DEFAULT_EXECUTION_TIMEOUT, DEFAULT_EXECUTOR_HISTORY,
    DEFAULT_LEASE_TTL, DEFAULT_LOG_RETENTION, DEFAULT_MAX_STREAMS, DEFAULT_STREAM_IDLE,
};
