//! The `A2aService` implementation: one method per method of the spec (§3.1, §9), in its order,
//! over the executions, the stores and the live tasks.

use a2a_types::rt::service::{EventIds, RequestContext};
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::{
    A2aError, A2aService, AgentCard, AgentInterface, CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest, Empty, EventStream, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    SendMessageRequest, SendMessageResponse, ServiceError, StreamResponse, SubscribeToTaskRequest,
    Task, TaskPushNotificationConfig, TaskState,
};
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::sync::broadcast;

use super::errors::{
    check_history_length, invalid_params, page_error, push_config_not_found, scope_of, store_error,
    task_is_terminal, task_not_cancelable, task_not_found, tenant_of,
};
use super::execution::{Execution, FirstAnswer, Origin, Started, Work};
use super::lease::Taken;
use super::live::{LiveTask, Sequenced, Subscription};
use super::stream::{live_stream, Opening, StreamEnd};
use super::{RequestHandler, Shared};
use crate::cluster::Wakeup;
use crate::executor::{AgentExecutor, TaskContext};
use crate::lifecycle::{is_terminal, new_id, with_history};
use crate::store::{Scope, Stored, TaskQuery};

impl<E: AgentExecutor> A2aService for RequestHandler<E> {
    async fn send_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<SendMessageResponse, ServiceError> {
        let config = params.configuration.as_ref();
        let history_length = config.and_then(|c| c.history_length);
        let immediately = config.and_then(|c| c.return_immediately) == Some(true);
        let (started, _) = self.start(cx, params, false).await?;
        // The execution runs in this call's task while it waits (see `Driver`).
        let Started {
            first,
            mut settled,
            mut driver,
        } = started;
        let first = driver
            .drive(first)
            .await
            .unwrap_or_else(|_| Err(ServiceError::internal("the execution ended early")))?;
        let task = match first {
            FirstAnswer::Message(message) => return Ok(SendMessageResponse::Message(*message)),
            FirstAnswer::Task { task, settled } if immediately || settled => *task,
            FirstAnswer::Task { .. } => {
                let outcome = driver
                    .drive(settled.wait_for(Option::is_some))
                    .await
                    .map_err(|_| ServiceError::internal("the execution ended early"))?;
                outcome
                    .clone()
                    .unwrap_or_else(|| Err(ServiceError::internal("no outcome")))?
            }
        };
        Ok(SendMessageResponse::Task(with_history(
            task,
            history_length,
        )))
    }

    async fn send_streaming_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        let history_length = params.configuration.as_ref().and_then(|c| c.history_length);
        let ids = self.shared.event_ids(&cx);
        // Refused at the cap before any task is started.
        let bounds = self.shared.stream_bounds()?;
        let (mut started, events) = self.start(cx, params, true).await?;
        started.driver.detach();
        let events = events.expect("a stream subscribes");
        let opening = Opening {
            ids,
            ..Opening::default()
        };
        Ok(live_stream(
            events,
            opening,
            Some(started.settled),
            history_length,
            StreamEnd::AtSettled,
            bounds,
        ))
    }

    async fn get_task(
        &self,
        cx: RequestContext,
        params: GetTaskRequest,
    ) -> Result<Task, ServiceError> {
        check_history_length(params.history_length)?;
        // Only the messages returned are read (checked above: not negative).
        let last = params.history_length.and_then(|n| u32::try_from(n).ok());
        let stored = self.shared.visible_recent(&cx, &params.id, last).await?;
        Ok(with_history(stored.task, params.history_length))
    }

    async fn list_tasks(
        &self,
        cx: RequestContext,
        params: ListTasksRequest,
    ) -> Result<ListTasksResponse, ServiceError> {
        check_history_length(params.history_length)?;
        let query = TaskQuery::from_request(&params)
            .map_err(|e| invalid_params(format!("Invalid params: {e}")))?;
        let page = self
            .shared
            .tasks
            .list_tasks(self.shared.list_scope(&cx), &query)
            .await
            .map_err(page_error)?;
        let include_artifacts = params.include_artifacts == Some(true);
        let tasks = page
            .tasks
            .into_iter()
            .map(|mut t| {
                if !include_artifacts {
                    t.artifacts.clear();
                }
                with_history(t, params.history_length)
            })
            .collect();
        Ok(ListTasksResponse {
            tasks,
            next_page_token: page.next_page_token.unwrap_or_default(),
            page_size: i32::try_from(page.page_size).unwrap_or(i32::MAX),
            total_size: i32::try_from(page.total_size).unwrap_or(i32::MAX),
        })
    }

    async fn cancel_task(
        &self,
        cx: RequestContext,
        params: CancelTaskRequest,
    ) -> Result<Task, ServiceError> {
        let tenant = tenant_of(&cx).map(str::to_owned);
        let tenant = tenant.as_deref();
        let shared = &self.shared;
        let stored = shared.visible(&cx, &params.id).await?;
        // From here on, the task as its owner's.
        let owner = stored.owner.clone();
        let scope = Scope::tenant(tenant).owner(&owner);
        if is_terminal(&stored.task.status.state) {
            return Err(task_not_cancelable(&stored.task));
        }
        let live = shared.entry(tenant, &params.id);
        let task_cx = TaskContext::cancel_of(stored.task, cx.detached());
        // A running execution runs the cancel beside its work. It may end before it reads the
        // request (its task settled as the cancel came in): then, as for a task that waits for
        // the client, a cancel execution takes the task.
        self.ask_running_execution(&live, &task_cx).await;
        let guard = Arc::clone(&live.lock).lock_owned().await;
        // When another replica runs the task, that replica runs the cancel (asked through the
        // feed) and this call waits for the task to end; when it stopped (its lease expired),
        // this one takes the task over.
        let ask = Wakeup::Cancel {
            tenant: tenant.unwrap_or_default().to_owned(),
            task_id: params.id.clone(),
            caller: match task_cx.call.caller.is_anonymous() {
                true => String::new(),
                false => task_cx.call.caller.id().to_owned(),
            },
        };
        let taken = shared
            .take_lease(&live, scope, &params.id, Some(ask))
            .await?;
        let stored = shared.stored(scope, &params.id).await?;
        match stored.task.status.state {
            TaskState::Canceled => return Ok(stored.task),
            ref state if is_terminal(state) => return Err(task_not_cancelable(&stored.task)),
            _ if matches!(taken, Taken::Ended) => return Err(task_not_cancelable(&stored.task)),
            _ => {}
        }
        let origin = Origin {
            tenant: tenant.map(str::to_owned),
            stored: Some(stored),
            message: None,
            push: None,
            reply_history: None,
        };
        let Started {
            mut settled,
            mut driver,
            ..
        } = Execution::start(shared, live, origin, task_cx, guard, Work::Cancel);
        let _ = driver
            .drive(tokio::time::timeout(
                shared.timeout,
                settled.wait_for(Option::is_some),
            ))
            .await;
        let now = shared.stored(scope, &params.id).await?.task;
        // Canceled, or it ended otherwise meanwhile, or the agent would not cancel it (then the
        // task is free again for whoever continues it).
        match now.status.state {
            TaskState::Canceled => Ok(now),
            ref state if is_terminal(state) => Err(task_not_cancelable(&now)),
            _ => {
                shared.give_back_lease(scope, &params.id).await;
                Err(task_not_cancelable(&now))
            }
        }
    }

    async fn subscribe_to_task(
        &self,
        cx: RequestContext,
        params: SubscribeToTaskRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        let bounds = self.shared.stream_bounds()?;
        let live = self.shared.entry(tenant_of(&cx), &params.id);
        // Subscribed before the task is read: an event between the two is not missed.
        let events = Subscription::new(&live);
        let stored = self.shared.visible(&cx, &params.id).await?;
        let ids = self.shared.event_ids(&cx);
        // A stream resumed after the event it names (`Last-Event-ID`): the task's logged events
        // after it, then the live ones; no Task first, as the stream it resumes had it.
        let resumed = match (cx.last_event_id(), &ids) {
            (Some(after), Some(_)) => {
                let mut replayed = self.shared.logged_after(&cx, &params.id, after).await?;
                // The log was trimmed after the task ended (or the id is not one this log
                // gave): the task as it is now, rather than events with a gap before them.
                let gap = |(v, _): &Sequenced| v.is_some_and(|v| v > after.saturating_add(1));
                if replayed.front().is_some_and(gap) {
                    let task = StreamResponse::Task(stored.task.clone());
                    replayed = [(Some(stored.version.max(after)), task)].into();
                }
                Some(replayed)
            }
            _ => None,
        };
        if resumed.is_none() && is_terminal(&stored.task.status.state) {
            return Err(task_is_terminal(
                &stored.task,
                "a terminal task has no events to follow",
            ));
        }
        let opening = match resumed {
            Some(replayed) => {
                let after = replayed.back().and_then(|(v, _)| *v);
                let after = after.or(cx.last_event_id());
                // Nothing after the end the client saw: the stream it resumes is over.
                if replayed.is_empty() && is_terminal(&stored.task.status.state) {
                    return Ok(Box::pin(futures_util::stream::empty()));
                }
                Opening {
                    first: replayed,
                    after,
                    ids,
                }
            }
            // The current task first, then its events (of this execution and the next ones,
            // should it wait for input) until it ends; none it already holds.
            None => Opening {
                first: [(Some(stored.version), StreamResponse::Task(stored.task))].into(),
                after: Some(stored.version),
                ids,
            },
        };
        // Events another replica writes come from the log, from the version reached here on
        // (unless events were sent here already: then from the last of those).
        if self.shared.feed.is_some() {
            live.begin_at(opening.after.unwrap_or(stored.version));
            tokio::spawn(super::fanout::catch_up(
                Arc::clone(&live),
                Arc::clone(&self.shared.tasks),
            ));
        }
        Ok(live_stream(
            events,
            opening,
            None,
            None,
            StreamEnd::AtTerminal,
            bounds,
        ))
    }

    async fn create_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let task_id = params.task_id.clone().unwrap_or_default();
        let (store, scope) = self.push_scope(&cx, &task_id).await?;
        self.check_push(&params)?;
        self.check_push_cap(&cx, &task_id, &params).await?;
        store
            .set_push_config_from(scope, &task_id, params, cx.version)
            .await
            .map_err(store_error)
    }

    async fn get_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let (store, scope) = self.push_scope(&cx, &params.task_id).await?;
        store
            .get_push_config(scope, &params.task_id, &params.id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| push_config_not_found(&params.task_id, &params.id))
    }

    async fn list_task_push_notification_configs(
        &self,
        cx: RequestContext,
        params: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, ServiceError> {
        let (store, scope) = self.push_scope(&cx, &params.task_id).await?;
        let size = match params.page_size {
            None | Some(0) => None,
            Some(n) => Some(u32::try_from(n).map_err(|_| {
                invalid_params(format!(
                    "Invalid params: `pageSize` is {n}; it must not be negative"
                ))
            })?),
        };
        let token = params.page_token.as_deref().filter(|t| !t.is_empty());
        let page = store
            .list_push_configs(scope, &params.task_id, size, token)
            .await
            .map_err(page_error)?;
        Ok(ListTaskPushNotificationConfigsResponse {
            configs: page.configs,
            next_page_token: page.next_page_token,
        })
    }

    /// The extended card; asked for over A2A 0.3, with a 0.3 twin of each JSON-RPC interface
    /// (the call came that way, so the agent serves 0.3 there), as the public card is served.
    async fn get_extended_agent_card(
        &self,
        cx: RequestContext,
        _params: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, ServiceError> {
        let mut card =
            self.shared.extended_card.clone().ok_or_else(|| {
                ServiceError::from(A2aError::extended_agent_card_not_configured())
            })?;
        if cx.version == ProtocolVersion::V0_3 {
            add_v0_3_twins(&mut card);
        }
        Ok(card)
    }

    async fn delete_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<Empty, ServiceError> {
        let (store, scope) = self.push_scope(&cx, &params.task_id).await?;
        store
            .delete_push_config(scope, &params.task_id, &params.id)
            .await
            .map_err(store_error)?;
        Ok(Empty::default())
    }
}

/// A 0.3 twin of each JSON-RPC and HTTP+JSON interface a card lists without one (what the
/// server adds to the public card when it serves 0.3 beside 1.0).
fn add_v0_3_twins(card: &mut AgentCard) {
    // A version the runtime reads as 0.3 (an empty one aside: that is no twin).
    let legacy = |v: &str| !v.is_empty() && ProtocolVersion::parse(v) == Ok(ProtocolVersion::V0_3);
    let twins: Vec<AgentInterface> = card
        .supported_interfaces
        .iter()
        .filter(|i| {
            i.protocol_binding.eq_ignore_ascii_case("JSONRPC")
                || i.protocol_binding.eq_ignore_ascii_case("HTTP+JSON")
        })
        .filter(|i| {
            !card.supported_interfaces.iter().any(|o| {
                o.url == i.url
                    && o.protocol_binding.eq_ignore_ascii_case(&i.protocol_binding)
                    && legacy(&o.protocol_version)
            })
        })
        .map(|i| AgentInterface {
            protocol_version: "0.3".into(),
            ..i.clone()
        })
        .collect();
    card.supported_interfaces.extend(twins);
}

impl<E: AgentExecutor> Shared<E> {
    /// What the call's `ListTasks` lists: its caller's tasks, or every owner's when the access
    /// policy says so.
    fn list_scope<'a>(&self, cx: &'a RequestContext) -> Scope<'a> {
        match &self.policy {
            Some(policy) if policy.lists_every_owner(&cx.caller) => Scope::tenant(tenant_of(cx)),
            _ => scope_of(cx),
        }
    }

    /// Where a streaming call gives its events' SSE ids, when they can be resumed from (the
    /// store keeps the tasks' event logs).
    fn event_ids(&self, cx: &RequestContext) -> Option<EventIds> {
        match self.tasks.keeps_events() {
            true => cx.extensions.get::<EventIds>().cloned(),
            false => None,
        }
    }

    /// The task's logged events after version `after`, all of them, oldest first.
    async fn logged_after(
        &self,
        cx: &RequestContext,
        task_id: &str,
        after: u64,
    ) -> Result<VecDeque<Sequenced>, ServiceError> {
        const PAGE: u32 = 100;
        let mut events = VecDeque::new();
        let mut from = after;
        loop {
            let page = self.tasks.events_after(tenant_of(cx), task_id, from, PAGE);
            let page = page.await.map_err(store_error)?;
            let full = page.len() == PAGE as usize;
            for logged in page {
                from = logged.version;
                events.push_back((Some(logged.version), logged.event));
            }
            if !full {
                return Ok(events);
            }
        }
    }

    /// The task as stored, or `TaskNotFound`.
    pub(super) async fn stored(&self, scope: Scope<'_>, id: &str) -> Result<Stored, ServiceError> {
        self.tasks
            .get_task(scope, id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| task_not_found(id))
    }
}

impl<E: AgentExecutor> RequestHandler<E> {
    /// Checks a message and starts its execution; for a stream, subscribed to the task's events
    /// before it runs, so none is missed.
    async fn start(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
        stream: bool,
    ) -> Result<(Started, Option<Subscription>), ServiceError> {
        let shared = &self.shared;
        let configuration = params.configuration;
        let history_length = configuration.as_ref().and_then(|c| c.history_length);
        check_history_length(history_length)?;
        let tenant = tenant_of(&cx).map(str::to_owned);
        let message = params.message;
        let push = configuration
            .as_ref()
            .and_then(|c| c.task_push_notification_config.clone());
        if let Some(push) = &push {
            self.check_push(push)?;
        }
        // The live entry is held from here on: it, and so its lock, stays the same for everyone
        // who waits on it.
        let (task_id, context_id, stored) =
            match message.task_id.clone().filter(|id| !id.is_empty()) {
                Some(task_id) => (task_id, None, true),
                None => {
                    let context_id = message.context_id.clone().filter(|c| !c.is_empty());
                    (new_id(), Some(context_id.unwrap_or_else(new_id)), false)
                }
            };
        let live = shared.entry(tenant.as_deref(), &task_id);
        let guard = Arc::clone(&live.lock).lock_owned().await;
        // What the reply carries of the history: a stream's events carry the execution's own.
        let reply = match stream {
            true => Some(0),
            false => history_length.map(|n| u32::try_from(n).unwrap_or(0)),
        };
        let stored = match stored {
            true => Some(self.continuable(&cx, &task_id, &message, reply).await?),
            false => None,
        };
        let context_id = match (&stored, context_id) {
            (Some(s), _) => s.task.context_id.clone().unwrap_or_default(),
            (None, c) => c.unwrap_or_default(),
        };
        let (stored, task) = shared.executor_view(stored, reply);
        let task_cx = TaskContext {
            task_id,
            context_id,
            message: Some(message.clone()),
            task,
            configuration,
            call: cx.detached(),
        };
        // The executor may refuse the message before it changes anything.
        shared.executor.admit(&task_cx).await?;
        let events = stream.then(|| Subscription::new(&live));
        let origin = Origin {
            tenant,
            stored,
            message: Some(message),
            push: push.map(|config| (config, task_cx.call.version)),
            reply_history: reply,
        };
        let started = Execution::start(shared, live, origin, task_cx, guard, Work::Execute);
        Ok((started, events))
    }

    /// The task `message` continues, when it may: it exists, it is not terminal, and the
    /// message names no other context.
    async fn continuable(
        &self,
        cx: &RequestContext,
        task_id: &str,
        message: &Message,
        reply: Option<u32>,
    ) -> Result<Stored, ServiceError> {
        // With a store that appends histories, only what the executor and the reply need.
        let last = match self.shared.tasks.appends_history() {
            true => self.shared.history_to_read(reply),
            false => None,
        };
        let stored = self.shared.visible_recent(cx, task_id, last).await?;
        let own = stored.task.context_id.as_deref().unwrap_or_default();
        if let Some(asked) = message.context_id.as_deref().filter(|c| !c.is_empty()) {
            if asked != own {
                return Err(invalid_params(format!(
                    "Invalid params: the message's contextId `{asked}` is not the context \
                     `{own}` of task `{task_id}`"
                )));
            }
        }
        if is_terminal(&stored.task.status.state) {
            return Err(task_is_terminal(
                &stored.task,
                "a terminal task takes no more messages",
            ));
        }
        Ok(stored)
    }

    /// Asks the task's running execution, if one runs, to run the executor's cancel, and waits
    /// (at most the execution timeout) for a terminal status or for the execution to end.
    async fn ask_running_execution(&self, live: &LiveTask, task_cx: &TaskContext) {
        let Some(asks) = live.cancel_requests() else {
            return;
        };
        // Subscribed before asking: the terminal status is not missed.
        let mut events = live.subscribe();
        if asks.send(Box::new(task_cx.clone())).await.is_err() {
            return;
        }
        let terminal = async {
            loop {
                match events.recv().await.as_deref() {
                    Ok((_, StreamResponse::StatusUpdate(u))) if is_terminal(&u.status.state) => {
                        return
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        };
        let ended = asks.closed();
        let _ = tokio::time::timeout(self.shared.timeout, async {
            tokio::select! {
                () = terminal => {}
                () = ended => {}
            }
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::TaskUpdater;
    use a2a_types::rt::version::ProtocolVersion;
    use a2a_types::rt::Binding;
    use a2a_types::v1::{Role, TaskState};
    use futures_util::StreamExt as _;
    use std::time::Duration;

    /// Waits for input when the message id says so, completes otherwise.
    struct Agent;

    impl AgentExecutor for Agent {
        async fn execute(
            &self,
            cx: TaskContext,
            task: TaskUpdater,
        ) -> Result<(), crate::ExecutorError> {
            let waits = cx
                .message
                .as_ref()
                .is_some_and(|m| m.message_id.starts_with("input"));
            match waits {
                true => task.require_input(None).await,
                false => task.complete(None).await,
            }
        }
    }

    fn cx() -> RequestContext {
        RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, "SendMessage")
    }

    fn send(id: &str, task_id: Option<&str>) -> SendMessageRequest {
        SendMessageRequest {
            message: Message {
                message_id: id.into(),
                role: Role::User,
                task_id: task_id.map(Into::into),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    async fn task(h: &RequestHandler<Agent>, request: SendMessageRequest) -> Task {
        match h.send_message(cx(), request).await {
            Ok(SendMessageResponse::Task(t)) => t,
            other => panic!("{other:?}"),
        }
    }

    fn entries(h: &RequestHandler<Agent>) -> usize {
        h.shared.live.len()
    }

    /// Every way in holds the task's entry for a while (a blocking send, a stream, a
    /// subscription, a cancel); once all of them are over, no entry is left. (Each entry holds
    /// a 1024-event channel: a process that kept them grew by hundreds of KiB per task.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_task_keeps_its_entry_once_nothing_uses_it() {
        let h = Arc::new(RequestHandler::builder(Agent).build());
        let sends = (0..200).map(|i| {
            let h = Arc::clone(&h);
            tokio::spawn(async move { task(&h, send(&format!("done-{i}"), None)).await })
        });
        for s in sends {
            assert_eq!(s.await.unwrap().status.state, TaskState::Completed);
        }
        let mut waiting = Vec::new();
        for i in 0..20 {
            waiting.push(task(&h, send(&format!("input-{i}"), None)).await.id);
        }
        for (i, id) in waiting.iter().enumerate() {
            let again = task(&h, send(&format!("input-again-{i}"), Some(id))).await;
            assert_eq!(again.status.state, TaskState::InputRequired);
        }
        for i in 0..20 {
            let stream = h
                .send_streaming_message(cx(), send(&format!("stream-{i}"), None))
                .await
                .unwrap();
            assert!(stream.collect::<Vec<_>>().await.iter().all(Result::is_ok));
        }
        // Subscribers to a waiting task: one gone early, one there until the task ends.
        let subscribe = |id: &str| {
            h.subscribe_to_task(
                cx(),
                SubscribeToTaskRequest {
                    id: id.into(),
                    ..Default::default()
                },
            )
        };
        drop(subscribe(&waiting[0]).await.unwrap());
        let follows = subscribe(&waiting[1]).await.unwrap();
        task(&h, send("done-after-waiting", Some(&waiting[1]))).await;
        assert!(follows.collect::<Vec<_>>().await.iter().all(Result::is_ok));
        assert!(subscribe("no-such-task").await.is_err());
        for id in &waiting[2..5] {
            let canceled = h
                .cancel_task(
                    cx(),
                    CancelTaskRequest {
                        id: id.clone(),
                        ..Default::default()
                    },
                )
                .await
                .unwrap();
            assert_eq!(canceled.status.state, TaskState::Canceled);
        }
        // An execution lets its entry go just after it answers: give the last ones a moment.
        for _ in 0..200 {
            if entries(&h) == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(entries(&h), 0, "entries left for tasks nothing uses");
    }
}
