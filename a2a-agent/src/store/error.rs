//! Why a store call failed: [`StoreError`].

use std::error::Error;
use std::fmt;

/// Why a store call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The write would lose or duplicate data: [`TaskStore::create_task`](super::TaskStore::create_task) of an id that exists
    /// (`expected_version` is `None`), or [`TaskStore::update_task`](super::TaskStore::update_task) naming a version that is no
    /// longer the stored one (`expected_version` is the one named).
    Conflict {
        /// The task's id.
        task_id: String,
        /// The version the update named; `None` for a create.
        expected_version: Option<u64>,
    },
    /// [`TaskStore::update_task`](super::TaskStore::update_task) of a task the tenant does not have.
    NotFound {
        /// The task's id.
        task_id: String,
    },
    /// [`TaskStore::update_task`](super::TaskStore::update_task) of a task in a terminal state (completed, failed, canceled,
    /// rejected): terminal states are final (A2A §4.1.3), whatever version the update names.
    Terminal {
        /// The task's id.
        task_id: String,
        /// Its stored state's wire name (`TASK_STATE_CANCELED`).
        state: String,
    },
    /// A write that holds or gives back a task's execution lease
    /// ([`Lease`](super::Lease)) while another holder's lease has not expired: another replica
    /// runs the task.
    Leased {
        /// The task's id.
        task_id: String,
        /// Who holds the lease.
        holder: String,
    },
    /// A page token that is not one this crate's stores issued for that list (malformed,
    /// truncated, or from the other kind of list).
    InvalidPageToken,
    /// [`TaskStore::create_task`](super::TaskStore::create_task) on a store at its cap of tasks
    /// ([`MemoryStore::with_max_tasks`](super::MemoryStore::with_max_tasks)) when none of them is
    /// terminal, so none can be evicted to make room: nothing is written. It passes once a task
    /// ends (a terminal task can be evicted) or with a higher cap.
    Full {
        /// The store's cap.
        max_tasks: usize,
    },
    /// The backend failed: the database could not be reached, a statement failed, a stored
    /// row did not decode. The source says which store, what it was doing and why.
    Backend(Box<dyn Error + Send + Sync>),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict {
                task_id,
                expected_version: None,
            } => write!(f, "task `{task_id}` already exists"),
            StoreError::Conflict {
                task_id,
                expected_version: Some(v),
            } => write!(
                f,
                "task `{task_id}` was written by someone else: version {v} is no longer the \
                 stored one (read it again and retry)"
            ),
            StoreError::NotFound { task_id } => write!(f, "task `{task_id}` does not exist"),
            StoreError::Terminal { task_id, state } => write!(
                f,
                "task `{task_id}` is {state}, a terminal state: it is not written again"
            ),
            StoreError::Leased { task_id, holder } => write!(
                f,
                "task `{task_id}` is run by `{holder}`, whose lease has not expired: it is not \
                 written by another"
            ),
            StoreError::InvalidPageToken => f.write_str(
                "invalid page token: not one this store issued for this list (start again \
                 without a token)",
            ),
            StoreError::Full { max_tasks } => write!(
                f,
                "the task store is full: it holds {max_tasks} tasks, its cap, and none of them is \
                 terminal, so none can be evicted for a new one (retry once tasks have ended, or \
                 raise the cap)"
            ),
            StoreError::Backend(e) => write!(f, "store backend failed: {e}"),
        }
    }
}

impl Error for StoreError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            StoreError::Backend(e) => Some(&**e),
            _ => None,
        }
    }
}
