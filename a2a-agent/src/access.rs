//! Who may see what: each caller its own tasks and push configs, and what an [`AccessPolicy`]
//! adds (spec §13.1: the agent's authorization model).

use a2a_types::rt::auth::Caller;
use a2a_types::v1::Task;

/// Widens what a caller may see beyond its own tasks: shared tasks, administrators.
///
/// Without a policy, a caller sees only the tasks it made ([`Caller::id`] is a task's owner) and
/// the push configs it set, in the tenants it may use; another's task is `TaskNotFound`, the same
/// answer as for a task that does not exist (spec §3.3.2: no existence oracle). A policy is asked
/// only about another's task the caller named (`GetTask`, `CancelTask`, `SubscribeToTask`, a
/// message continuing it, the push-config methods), after the task is read: say yes and the call
/// goes on as if the task were the caller's, except that push configs stay their setter's (a
/// caller lists and reads only the configs it set itself, so no credentials reach another).
///
/// ```
/// use a2a_agent::AccessPolicy;
/// use a2a_types::rt::auth::Caller;
/// use a2a_types::v1::Task;
///
/// /// Callers with the `admin` role read every task; everyone reads a task whose metadata
/// /// says `shared`.
/// struct Roles;
///
/// impl AccessPolicy for Roles {
///     fn allows(&self, caller: &Caller, method: &str, task: &Task, _owner: &str) -> bool {
///         let admin = caller.claim("role").and_then(|r| r.as_str()) == Some("admin");
///         let shared = task.metadata.as_ref().is_some_and(|m| m.contains_key("shared"));
///         admin || (shared && method == "GetTask")
///     }
///
///     fn lists_every_owner(&self, caller: &Caller) -> bool {
///         caller.claim("role").and_then(|r| r.as_str()) == Some("admin")
///     }
/// }
/// ```
pub trait AccessPolicy: Send + Sync + 'static {
    /// Whether `caller` may call `method` (its wire name: `GetTask`, `CancelTask`,
    /// `SubscribeToTask`, `SendMessage`, `SendStreamingMessage`, or a push-config method) on
    /// `task`, which `owner` made.
    fn allows(&self, caller: &Caller, method: &str, task: &Task, owner: &str) -> bool;

    /// Whether `caller`'s `ListTasks` lists every owner's tasks of its tenant (an
    /// administrator's), rather than only its own. By default, no.
    fn lists_every_owner(&self, caller: &Caller) -> bool {
        let _ = caller;
        false
    }
}
