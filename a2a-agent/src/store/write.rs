//! What a write does beside the task: [`WriteWith`] (the event it logs and queues, the
//! [`Lease`] it takes or gives back), what a recovery sweep finds ([`ExpiredLease`]), and the
//! push outbox's claims ([`Delivery`]).

use std::time::Duration;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::{Artifact, Message, StreamResponse, TaskPushNotificationConfig};

use super::Stored;

/// What [`TaskStore::create_task_with`](super::TaskStore::create_task_with) and
/// [`TaskStore::update_task_with`](super::TaskStore::update_task_with) do beside writing the
/// task, in the same transaction. The default does nothing more: a plain write.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WriteWith<'a> {
    /// Logged as the event that made the task's new version, by a store that keeps event logs
    /// (see the [module docs](super#event-logs)).
    pub event: Option<&'a StreamResponse>,
    /// What the write does with the task's execution lease, in a store that keeps leases (see
    /// the [module docs](super#leases)).
    pub lease: Lease<'a>,
    /// Queues the logged event in the store's push outbox, once for each push config the task
    /// has in it (see the [module docs](super#push-outbox)). Only with an `event`, in a store
    /// that keeps an [`outbox`](super::TaskStore::outbox).
    pub notify: bool,
    /// What the task's `history` holds: the whole history (the default), or only its newest
    /// messages, of which the last few are new (see [`History`]). Only for an update.
    pub history: History,
    /// What the task's `artifacts` hold: all of them (the default), or only those this write
    /// changed (see [`Artifacts`]). Only for an update.
    pub artifacts: Artifacts,
}

/// What the `artifacts` of a task written with
/// [`TaskStore::update_task_with`](super::TaskStore::update_task_with) hold (see the
/// [module docs](super#artifacts)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Artifacts {
    /// All of them: the store keeps them as they are given.
    #[default]
    Whole,
    /// Only those this write changed (none, for a write that changed none): each replaces the
    /// stored artifact of its id, or is added after the others (`append` false), or its parts
    /// are added to the stored one's, and its metadata merged into that one's (`append`, an
    /// artifact update's chunk). What a store that keeps artifacts apart
    /// ([`TaskStore::appends_artifacts`](super::TaskStore::appends_artifacts)) is given, so
    /// that a stream of chunks writes each chunk once.
    Update {
        /// Whether the artifacts given are chunks to add to the stored ones of their ids.
        append: bool,
    },
}

impl Artifacts {
    /// The artifacts `stored` become once this write's `artifacts` are applied to them:
    /// `artifacts` themselves for [`Artifacts::Whole`]. What a store that keeps a task as one
    /// value writes.
    #[must_use]
    pub fn apply(self, stored: Vec<Artifact>, artifacts: &[Artifact]) -> Vec<Artifact> {
        match self {
            Artifacts::Whole => artifacts.to_vec(),
            Artifacts::Update { append } => {
                let mut whole = stored;
                for artifact in artifacts {
                    crate::lifecycle::merge_artifact(&mut whole, artifact, append);
                }
                whole
            }
        }
    }
}

/// What the `history` of a task written with
/// [`TaskStore::update_task_with`](super::TaskStore::update_task_with) holds (see the
/// [module docs](super#history)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum History {
    /// The whole history: the store keeps it as it is given.
    #[default]
    Whole,
    /// The newest messages only, of which the last `new` were added since the version the write
    /// names (those before them the store holds already). The store appends the `new` ones to
    /// the history it holds, and then, with `keep`, forgets all but the last `keep` messages.
    Append {
        /// How many of the last messages of `history` are new.
        new: u32,
        /// At most this many messages are kept, the newest (a cap on the history).
        keep: Option<u32>,
    },
}

impl History {
    /// The whole history `stored` becomes once this write's `history` is added to it: `stored`
    /// itself for [`History::Whole`]'s `history`, else `stored` and the new messages, capped.
    /// What a store that keeps a task as one value writes.
    #[must_use]
    pub fn apply(self, stored: Vec<Message>, history: &[Message]) -> Vec<Message> {
        match self {
            History::Whole => history.to_vec(),
            History::Append { new, keep } => {
                let mut whole = stored;
                let new = (new as usize).min(history.len());
                whole.extend_from_slice(&history[history.len() - new..]);
                if let Some(keep) = keep.map(|k| k as usize) {
                    let len = whole.len();
                    whole.drain(..len.saturating_sub(keep));
                }
                whole
            }
        }
    }
}

/// What a write does with the task's execution lease (see the [module docs](super#leases)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lease<'a> {
    /// Nothing: the write neither checks nor changes the lease.
    #[default]
    Ignore,
    /// Takes or renews the lease for `holder`, to expire `ttl` from now by the database's clock.
    /// The write is refused with [`StoreError::Leased`](super::StoreError::Leased) while
    /// another holder's lease has not expired.
    Hold {
        /// Who runs the task: a replica's id.
        holder: &'a str,
        /// How long the lease lasts without another write or a renewal.
        ttl: Duration,
    },
    /// Gives the lease back (the task settled): refused as [`Lease::Hold`] is.
    Release {
        /// Who ran the task.
        holder: &'a str,
    },
}

impl<'a> Lease<'a> {
    /// Its holder, unless it is [`Lease::Ignore`].
    #[must_use]
    pub fn holder(&self) -> Option<&'a str> {
        match self {
            Lease::Ignore => None,
            Lease::Hold { holder, .. } | Lease::Release { holder } => Some(holder),
        }
    }
}

/// A task whose execution lease expired before it reached a terminal state: what a recovery
/// sweep settles (see [`TaskStore::expired_leases`](super::TaskStore::expired_leases)).
#[derive(Clone, Debug, PartialEq)]
pub struct ExpiredLease {
    /// The task's tenant (`""` for the default one).
    pub tenant: String,
    /// The task as stored, with its version and owner.
    pub stored: Stored,
    /// Who held the lease.
    pub holder: String,
}

/// Names a store's push outbox: a [`TaskStore`](super::TaskStore) and a
/// [`PushConfigStore`](super::PushConfigStore) with the same one queue a task's notifications in
/// the write that logs its event (see the [module docs](super#push-outbox)). Each SQL store
/// opened has its own; its clones share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutboxId(pub(crate) u64);

/// Which configs [`PushConfigStore::claim_deliveries`](super::PushConfigStore::claim_deliveries)
/// claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deliveries<'a> {
    /// The configs of one task with notifications queued (what the replica that wrote its
    /// events does next).
    Task {
        /// The task's tenant (`None`: the default one).
        tenant: Option<&'a str>,
        /// The task.
        task_id: &'a str,
    },
    /// Configs of any task whose oldest queued notification is older than `older_than` and
    /// that no live claim holds: what a replica that stopped left (a recovery sweep).
    Stale {
        /// How long a notification waits before another replica takes it over.
        older_than: Duration,
    },
}

/// A push config claimed to send its queued notifications: only its holder sends them, one
/// after another, until it gives the claim back or the claim expires.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    /// The task's tenant (`""` for the default one).
    pub tenant: String,
    /// The task.
    pub task_id: String,
    /// The config's id.
    pub config_id: String,
    /// The config as stored.
    pub config: TaskPushNotificationConfig,
    /// The version of the call that set it: its notifications' shape (see
    /// [`PushTarget`](super::PushTarget)).
    pub protocol: ProtocolVersion,
}
