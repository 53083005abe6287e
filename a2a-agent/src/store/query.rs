//! What a list call selects and returns: [`TaskQuery`], [`TaskPage`], [`PushConfigPage`].

use std::error::Error;
use std::fmt;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::UnixTime;
use a2a_types::v1::{ListTasksRequest, Task, TaskPushNotificationConfig, TaskState};

#[cfg(doc)]
use super::{PushConfigStore, TaskStore};
use super::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};

/// What [`TaskStore::list_tasks`] selects: the filters and the page of a ListTasks request, in the
/// store's terms.
///
/// Every filter that is `None` selects everything. Build one with
/// [`TaskQuery::from_request`], or directly:
///
/// ```
/// use a2a_agent::store::TaskQuery;
/// use a2a_types::v1::TaskState;
///
/// let query = TaskQuery {
///     context_id: Some("ctx-1".into()),
///     state: Some(TaskState::Working),
///     ..Default::default()
/// };
/// assert_eq!(query.page_size(), 50);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskQuery {
    /// Only tasks of this context.
    pub context_id: Option<String>,
    /// Only tasks whose `status.state` is this one.
    pub state: Option<TaskState>,
    /// Only tasks whose `status.timestamp` is at or after this instant (the proto's rule:
    /// "greater than or equal"). A task without a status timestamp, or with one that does not
    /// parse, never matches.
    pub status_timestamp_after: Option<UnixTime>,
    /// The page size asked for; see [`TaskQuery::page_size`] for what is used.
    pub requested_page_size: Option<u32>,
    /// A previous page's `next_page_token`; `None` (or empty) for the first page.
    pub page_token: Option<String>,
    /// At most this many of each listed task's newest messages are read (`None`: all of
    /// them): the stores of this crate read no more. What is returned is trimmed by the request
    /// handler in any case.
    pub history_length: Option<u32>,
    /// The listed tasks' artifacts are not read (they may be returned anyway by a store that
    /// keeps a task as one value): the request handler leaves them out in any case.
    pub omit_artifacts: bool,
}

impl TaskQuery {
    /// The query of a ListTasks request, with its values checked.
    ///
    /// The filters that ProtoJSON writes as defaults mean "no filter": an empty `contextId`,
    /// `status` `TASK_STATE_UNSPECIFIED`, an empty `pageToken`. A `pageSize` of 0 means the
    /// default (50), as for an absent one (AIP-158); above 100 it is clamped to 100.
    ///
    /// `historyLength` and `includeArtifacts` shape the tasks returned, not which are selected:
    /// they become [`TaskQuery::history_length`] and [`TaskQuery::omit_artifacts`], so that a
    /// store reads no more than is returned, and the request handler applies them (and checks
    /// `historyLength`, a negative one read as none here) to the page it gets.
    ///
    /// # Errors
    ///
    /// A [`QueryError`] naming the field: a negative `pageSize`, a `status` this version of A2A
    /// does not name, a `statusTimestampAfter` that is not an RFC 3339 timestamp. A request
    /// handler answers it with InvalidParams (-32602).
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_agent::store::TaskQuery;
    /// use a2a_types::v1::ListTasksRequest;
    ///
    /// let request = ListTasksRequest { page_size: Some(500), ..Default::default() };
    /// assert_eq!(TaskQuery::from_request(&request).unwrap().page_size(), 100);
    ///
    /// let request = ListTasksRequest { page_size: Some(-1), ..Default::default() };
    /// let err = TaskQuery::from_request(&request).unwrap_err();
    /// assert_eq!(err.field(), "pageSize");
    /// assert_eq!(err.to_string(), "`pageSize` is -1: it must not be negative");
    /// ```
    pub fn from_request(request: &ListTasksRequest) -> Result<TaskQuery, QueryError> {
        let requested_page_size = match request.page_size {
            None | Some(0) => None,
            Some(n) => Some(u32::try_from(n).map_err(|_| QueryError {
                field: "pageSize",
                reason: format!("is {n}: it must not be negative"),
            })?),
        };
        let state = match &request.status {
            None | Some(TaskState::Unspecified) => None,
            Some(TaskState::Unrecognized(name)) => {
                return Err(QueryError {
                    field: "status",
                    reason: format!("is `{name}`: not a task state of A2A v1"),
                })
            }
            Some(state) => Some(state.clone()),
        };
        let status_timestamp_after = match &request.status_timestamp_after {
            None => None,
            Some(t) => Some(t.parse().map_err(|e| QueryError {
                field: "statusTimestampAfter",
                reason: format!("is not a timestamp: {e}"),
            })?),
        };
        Ok(TaskQuery {
            context_id: request.context_id.clone().filter(|c| !c.is_empty()),
            state,
            status_timestamp_after,
            requested_page_size,
            page_token: request.page_token.clone().filter(|t| !t.is_empty()),
            history_length: request.history_length.and_then(|n| u32::try_from(n).ok()),
            omit_artifacts: request.include_artifacts != Some(true),
        })
    }

    /// The page size a store uses: [`DEFAULT_PAGE_SIZE`] when none (or 0) was asked for,
    /// otherwise the one asked for, clamped to [`MAX_PAGE_SIZE`].
    ///
    /// ```
    /// use a2a_agent::store::TaskQuery;
    ///
    /// let q = |n| TaskQuery { requested_page_size: n, ..Default::default() };
    /// assert_eq!((q(None).page_size(), q(Some(0)).page_size()), (50, 50));
    /// assert_eq!((q(Some(7)).page_size(), q(Some(101)).page_size()), (7, 100));
    /// ```
    #[must_use]
    pub fn page_size(&self) -> u32 {
        effective_page_size(self.requested_page_size)
    }
}

/// One page of [`TaskStore::list_tasks`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskPage {
    /// The page's tasks, newest first, as stored: with the newest
    /// [`TaskQuery::history_length`] messages of each history (all by default), and no
    /// artifacts when [`TaskQuery::omit_artifacts`] asked for none.
    pub tasks: Vec<Task>,
    /// The token of the next page, or `None` on the last page (ListTasksResponse writes `""`).
    pub next_page_token: Option<String>,
    /// The page size used (after the default and the clamp).
    pub page_size: u32,
    /// How many tasks match the filters, on every page.
    pub total_size: u64,
}

/// One page of [`PushConfigStore::list_push_configs`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PushConfigPage {
    /// The page's configs, by id.
    pub configs: Vec<TaskPushNotificationConfig>,
    /// The token of the next page, or `None` on the last page.
    pub next_page_token: Option<String>,
}

/// A push config and the A2A version of the call that set it: the version its notifications
/// are sent in ([`PushConfigStore::push_targets`]).
///
/// A 1.0 config gets each event as a `StreamResponse` (1.0's JSON: `{"statusUpdate": ...}`); a
/// 0.3 config gets the task as it stands after the event, in 0.3's JSON (`{"kind": "task",
/// ...}`), as a2a-sdk 0.3's sender posts it.
#[derive(Clone, Debug, PartialEq)]
pub struct PushTarget {
    /// The config as stored.
    pub config: TaskPushNotificationConfig,
    /// The version of the call that set it.
    pub protocol: ProtocolVersion,
}

impl PushTarget {
    /// A config set over 1.0 (or by a store that records no version).
    pub fn v1(config: TaskPushNotificationConfig) -> PushTarget {
        PushTarget {
            config,
            protocol: ProtocolVersion::V1_0,
        }
    }
}

/// A ListTasks request whose values a store cannot select by; see [`TaskQuery::from_request`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    field: &'static str,
    reason: String,
}

impl QueryError {
    /// The request's field at fault, as named on the wire (`pageSize`, `status`,
    /// `statusTimestampAfter`): what a `google.rpc.BadRequest` field violation names.
    #[must_use]
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// What is wrong with it, without the field's name (`is -1: it must not be negative`).
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` {}", self.field, self.reason)
    }
}

impl Error for QueryError {}

/// The page size a list uses for a requested one.
pub(crate) fn effective_page_size(requested: Option<u32>) -> u32 {
    match requested {
        None | Some(0) => DEFAULT_PAGE_SIZE,
        Some(n) => n.min(MAX_PAGE_SIZE),
    }
}
