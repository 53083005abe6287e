//! What a write does beside the task: [`WriteWith`] (the event it logs, the [`Lease`] it takes
//! or gives back), and what a recovery sweep finds ([`ExpiredLease`]).

use std::time::Duration;

use a2a_types::v1::StreamResponse;

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
