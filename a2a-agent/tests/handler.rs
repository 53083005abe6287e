//! The request handler's lifecycle, called as the service trait directly (no HTTP): ids and
//! their echo, continuing a task and the refusals, history lengths, blocking and non-blocking
//! sends, streams, cancel, subscriptions, messages the executor refuses to admit, and what
//! happens to a task whose executor fails, panics, hangs or gives up; 1,000 concurrent messages
//! to one task.

use a2a_agent::store::{
    Artifacts, MemoryStore, Scope, StoreFuture, Stored, TaskPage, TaskQuery, TaskStore, WriteWith,
};
use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
use a2a_types::rt::service::RequestContext;
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::Binding;
use a2a_types::v1::{
    A2aError, A2aService, Artifact, CancelTaskRequest, GetTaskRequest, ListTasksRequest, Message,
    Part, PartContent, Role, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    ServiceError, StreamResponse, SubscribeToTaskRequest, Task, TaskState,
};
use futures_util::StreamExt as _;
use std::sync::Arc;
use std::time::Duration;

/// Behaves by the message's id prefix, as the TCK's agent does.
struct Scripted;

impl AgentExecutor for Scripted {
    async fn admit(&self, cx: &TaskContext) -> Result<(), ServiceError> {
        let id = cx.message.as_ref().map_or("", |m| m.message_id.as_str());
        match id.starts_with("refuse") {
            true => Err(A2aError::content_type_not_supported()
                .with_message("Incompatible content types: this agent refuses it")
                .into()),
            false => Ok(()),
        }
    }

    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let id = cx
            .message
            .as_ref()
            .map(|m| m.message_id.clone())
            .unwrap_or_default();
        let say = |t: &str| Some(task.text_message(t));
        if id.starts_with("reply") {
            return task.reply(task.text_message("direct")).await;
        }
        if id.starts_with("linger") {
            // Settles, then goes on running a while before it returns.
            task.require_input(say("more?")).await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            return Ok(());
        }
        if id.starts_with("input") {
            return task.require_input(say("more?")).await;
        }
        if id.starts_with("slow") {
            task.start_work(None).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            task.add_text_artifact("out", "slow result").await?;
            return task.complete(None).await;
        }
        if id.starts_with("hang") {
            task.start_work(None).await?;
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return Ok(());
        }
        if id.starts_with("error") {
            return Err(ExecutorError::new("the model went away"));
        }
        if id.starts_with("panic") {
            panic!("boom");
        }
        if id.starts_with("giveup") {
            return task.start_work(None).await;
        }
        task.add_text_artifact("echo", &cx.text()).await?;
        task.complete(say("done")).await
    }
}

fn handler() -> RequestHandler<Scripted> {
    RequestHandler::builder(Scripted)
        .execution_timeout(Duration::from_secs(2))
        .build()
}

fn cx(method: &'static str) -> RequestContext {
    RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, method)
}

fn message(id: &str, task_id: Option<&str>, context_id: Option<&str>) -> Message {
    Message {
        message_id: id.into(),
        role: Role::User,
        parts: vec![Part {
            content: PartContent::Text(format!("text of {id}")),
            ..Default::default()
        }],
        task_id: task_id.map(Into::into),
        context_id: context_id.map(Into::into),
        ..Default::default()
    }
}

fn send(m: Message) -> SendMessageRequest {
    SendMessageRequest {
        message: m,
        ..Default::default()
    }
}

fn with_config(m: Message, config: SendMessageConfiguration) -> SendMessageRequest {
    SendMessageRequest {
        message: m,
        configuration: Some(config),
        ..Default::default()
    }
}

async fn task_of(h: &RequestHandler<Scripted>, request: SendMessageRequest) -> Task {
    match h.send_message(cx("SendMessage"), request).await {
        Ok(SendMessageResponse::Task(t)) => t,
        other => panic!("{other:?}"),
    }
}

fn code(e: &ServiceError) -> i64 {
    e.error().code()
}

fn ids(task: &Task) -> Vec<String> {
    task.history.iter().map(|m| m.message_id.clone()).collect()
}

#[tokio::test]
async fn a_new_message_gets_a_task_with_fresh_ids_that_completes() {
    let h = handler();
    let task = task_of(&h, send(message("m1", None, None))).await;
    assert_eq!(task.status.state, TaskState::Completed);
    assert!(!task.id.is_empty());
    let context = task.context_id.clone().unwrap();
    assert!(!context.is_empty());
    assert_eq!(ids(&task)[0], "m1");
    assert_eq!(task.history[0].task_id.as_deref(), Some(task.id.as_str()));
    assert_eq!(task.artifacts.len(), 1);
    let msg = task.status.message.as_ref().unwrap();
    assert_eq!(
        (msg.role.clone(), msg.context_id.as_deref()),
        (Role::Agent, Some(context.as_str()))
    );
    // The client's contextId is kept.
    let task = task_of(&h, send(message("m2", None, Some("ctx-given")))).await;
    assert_eq!(task.context_id.as_deref(), Some("ctx-given"));
    // And the task is stored.
    let got = h
        .get_task(
            cx("GetTask"),
            GetTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(got, task);
}

#[tokio::test]
async fn a_direct_reply_is_a_message_and_keeps_no_task() {
    let h = handler();
    match h
        .send_message(cx("SendMessage"), send(message("reply-1", None, None)))
        .await
    {
        Ok(SendMessageResponse::Message(m)) => {
            assert_eq!(m.role, Role::Agent);
            assert_eq!(m.task_id, None);
            assert!(m.context_id.is_some());
        }
        other => panic!("{other:?}"),
    }
    let list = h
        .list_tasks(cx("ListTasks"), ListTasksRequest::default())
        .await
        .unwrap();
    assert!(list.tasks.is_empty(), "{list:?}");
}

#[tokio::test]
async fn a_message_continues_its_task_in_the_order_exchanged() {
    let h = handler();
    let first = task_of(&h, send(message("input-1", None, None))).await;
    assert_eq!(first.status.state, TaskState::InputRequired);
    // Only the taskId: the context is the task's.
    let done = task_of(&h, send(message("m2", Some(&first.id), None))).await;
    assert_eq!(done.id, first.id);
    assert_eq!(done.context_id, first.context_id);
    assert_eq!(done.status.state, TaskState::Completed);
    let history = ids(&done);
    assert_eq!(history.len(), 3, "{history:?}");
    assert_eq!(
        (history[0].as_str(), history[2].as_str()),
        ("input-1", "m2")
    );
    assert_eq!(done.history[1].role, Role::Agent); // the "more?" the agent asked
}

#[tokio::test]
async fn messages_the_lifecycle_refuses_get_the_spec_errors() {
    let h = handler();
    let e = h
        .send_message(cx("SendMessage"), send(message("m", Some("nope"), None)))
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32001, "{e:?}");
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    let e = h
        .send_message(
            cx("SendMessage"),
            send(message("m", Some(&waiting.id), Some("other-ctx"))),
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32602, "{e:?}");
    let done = task_of(&h, send(message("m1", None, None))).await;
    let e = h
        .send_message(cx("SendMessage"), send(message("m2", Some(&done.id), None)))
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32004, "{e:?}");
    assert!(matches!(e.error(), A2aError::UnsupportedOperation { .. }));
    // The refused messages changed nothing.
    let again = h
        .get_task(
            cx("GetTask"),
            GetTaskRequest {
                id: done.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(again, done);
}

#[tokio::test]
async fn a_message_the_executor_does_not_admit_gets_its_error_and_changes_nothing() {
    let h = handler();
    let get = |id: String| {
        let h = &h;
        async move {
            h.get_task(
                cx("GetTask"),
                GetTaskRequest {
                    id,
                    ..Default::default()
                },
            )
            .await
            .unwrap()
        }
    };
    // A new message: the executor's error is the answer, blocking or streaming (before any
    // stream begins), and no task is kept.
    let e = h
        .send_message(cx("SendMessage"), send(message("refuse-1", None, None)))
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32005, "{e:?}");
    assert!(e.to_string().contains("refuses it"), "{e}");
    let streamed = h
        .send_streaming_message(
            cx("SendStreamingMessage"),
            send(message("refuse-2", None, None)),
        )
        .await;
    let Err(e) = streamed else {
        panic!("a stream began for a message the executor refused")
    };
    assert_eq!(code(&e), -32005, "{e:?}");
    let list = h
        .list_tasks(cx("ListTasks"), ListTasksRequest::default())
        .await
        .unwrap();
    assert!(list.tasks.is_empty(), "{list:?}");
    // A message continuing a waiting task: the task stays as it was (the message is not in its
    // history), and takes the next message.
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    let before = get(waiting.id.clone()).await;
    let e = h
        .send_message(
            cx("SendMessage"),
            send(message("refuse-3", Some(&waiting.id), None)),
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32005, "{e:?}");
    assert_eq!(get(waiting.id.clone()).await, before);
    let done = task_of(&h, send(message("m2", Some(&waiting.id), None))).await;
    assert_eq!(done.status.state, TaskState::Completed);
    let history = ids(&done);
    assert_eq!(history.len(), 3, "{history:?}");
    assert!(!history.iter().any(|id| id == "refuse-3"), "{history:?}");
    // The lifecycle's own refusals come first.
    let e = h
        .send_message(
            cx("SendMessage"),
            send(message("refuse-4", Some("nope"), None)),
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32001, "{e:?}");
}

#[tokio::test]
async fn history_length_trims_replies() {
    let h = handler();
    let first = task_of(&h, send(message("input-1", None, None))).await;
    let config = |n| SendMessageConfiguration {
        history_length: Some(n),
        ..Default::default()
    };
    let none = task_of(
        &h,
        with_config(message("input-2", Some(&first.id), None), config(0)),
    )
    .await;
    assert!(none.history.is_empty());
    let get = |n: Option<i32>| GetTaskRequest {
        id: first.id.clone(),
        history_length: n,
        ..Default::default()
    };
    let all = h.get_task(cx("GetTask"), get(None)).await.unwrap();
    assert_eq!(all.history.len(), 3);
    let two = h.get_task(cx("GetTask"), get(Some(2))).await.unwrap();
    assert_eq!(ids(&two), ids(&all)[1..].to_vec());
    let e = h.get_task(cx("GetTask"), get(Some(-1))).await.unwrap_err();
    assert_eq!(code(&e), -32602);
}

#[tokio::test]
async fn return_immediately_does_not_wait_for_the_task_to_settle() {
    let h = handler();
    let config = SendMessageConfiguration {
        return_immediately: Some(true),
        ..Default::default()
    };
    let task = task_of(&h, with_config(message("slow-1", None, None), config)).await;
    assert!(
        !matches!(task.status.state, TaskState::Completed),
        "{:?}",
        task.status
    );
    // The blocking default waits.
    let task = task_of(&h, send(message("slow-2", None, None))).await;
    assert_eq!(task.status.state, TaskState::Completed);
}

async fn collect(stream: a2a_types::v1::EventStream<StreamResponse>) -> Vec<StreamResponse> {
    tokio::time::timeout(Duration::from_secs(5), stream.map(|e| e.unwrap()).collect())
        .await
        .expect("the stream ends")
}

#[tokio::test]
async fn a_stream_begins_with_the_task_and_ends_at_its_final_state() {
    let h = handler();
    let stream = h
        .send_streaming_message(
            cx("SendStreamingMessage"),
            send(message("slow-1", None, None)),
        )
        .await
        .unwrap();
    let events = collect(stream).await;
    let StreamResponse::Task(task) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(task.status.state, TaskState::Submitted);
    let kinds: Vec<String> = events
        .iter()
        .map(|e| match e {
            StreamResponse::Task(_) => "task".into(),
            StreamResponse::StatusUpdate(u) => format!("{:?}", u.status.state),
            StreamResponse::ArtifactUpdate(_) => "artifact".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds, ["task", "Working", "artifact", "Completed"]);
    for e in &events[1..] {
        match e {
            StreamResponse::StatusUpdate(u) => assert_eq!(u.task_id, task.id),
            StreamResponse::ArtifactUpdate(u) => assert_eq!(u.task_id, task.id),
            _ => {}
        }
    }
    // A direct reply streams as one message.
    let stream = h
        .send_streaming_message(
            cx("SendStreamingMessage"),
            send(message("reply-1", None, None)),
        )
        .await
        .unwrap();
    let events = collect(stream).await;
    assert!(
        matches!(&events[..], [StreamResponse::Message(_)]),
        "{events:?}"
    );
}

#[tokio::test]
async fn cancel_ends_a_waiting_or_running_task_and_refuses_a_finished_one() {
    let h = handler();
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    let canceled = h
        .cancel_task(
            cx("CancelTask"),
            CancelTaskRequest {
                id: waiting.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    let e = h
        .cancel_task(
            cx("CancelTask"),
            CancelTaskRequest {
                id: waiting.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32002, "{e:?}");
    let config = SendMessageConfiguration {
        return_immediately: Some(true),
        ..Default::default()
    };
    let running = task_of(&h, with_config(message("hang-1", None, None), config)).await;
    let canceled = tokio::time::timeout(
        Duration::from_secs(5),
        h.cancel_task(
            cx("CancelTask"),
            CancelTaskRequest {
                id: running.id.clone(),
                ..Default::default()
            },
        ),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    let e = h
        .cancel_task(
            cx("CancelTask"),
            CancelTaskRequest {
                id: "nope".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32001);
}

#[tokio::test]
async fn subscribers_get_the_task_then_the_same_events_in_order() {
    let h = Arc::new(handler());
    let config = SendMessageConfiguration {
        return_immediately: Some(true),
        ..Default::default()
    };
    let task = task_of(&h, with_config(message("slow-1", None, None), config)).await;
    let sub = || {
        h.subscribe_to_task(
            cx("SubscribeToTask"),
            SubscribeToTaskRequest {
                id: task.id.clone(),
                ..Default::default()
            },
        )
    };
    let (a, b, c) = (
        sub().await.unwrap(),
        sub().await.unwrap(),
        sub().await.unwrap(),
    );
    drop(c); // closing one stream does not affect the others
    let (a, b) = (collect(a).await, collect(b).await);
    assert!(
        matches!(&a[0], StreamResponse::Task(t) if t.id == task.id),
        "{a:?}"
    );
    assert_eq!(a, b);
    assert!(
        matches!(a.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{a:?}"
    );
    let e = sub()
        .await
        .err()
        .expect("a terminal task refuses subscriptions");
    assert_eq!(code(&e), -32004);
    let e = h
        .subscribe_to_task(
            cx("SubscribeToTask"),
            SubscribeToTaskRequest {
                id: "nope".into(),
                ..Default::default()
            },
        )
        .await
        .err()
        .unwrap();
    assert_eq!(code(&e), -32001);
}

#[tokio::test]
async fn an_executor_that_fails_panics_hangs_or_gives_up_leaves_its_task_failed() {
    let h = handler();
    for (id, reason) in [
        ("error-1", "the model went away"),
        ("panic-1", "boom"),
        ("giveup-1", "without a final or interrupted state"),
        ("hang-1", "did not finish within"),
    ] {
        let task = tokio::time::timeout(
            Duration::from_secs(10),
            task_of(&h, send(message(id, None, None))),
        )
        .await
        .expect(id);
        assert_eq!(task.status.state, TaskState::Failed, "{id}");
        let text = match &task.status.message.as_ref().unwrap().parts[0].content {
            PartContent::Text(t) => t.clone(),
            other => panic!("{other:?}"),
        };
        assert!(text.contains(reason), "{id}: {text}");
    }
    // The handler goes on serving.
    assert_eq!(
        task_of(&h, send(message("m", None, None)))
            .await
            .status
            .state,
        TaskState::Completed
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_messages_to_one_task_are_all_kept_in_order() {
    let h = Arc::new(handler());
    let first = task_of(&h, send(message("input-0", None, None))).await;
    let calls: Vec<_> = (1..=1000)
        .map(|i| {
            let (h, id) = (Arc::clone(&h), first.id.clone());
            tokio::spawn(async move {
                task_of(&h, send(message(&format!("input-{i}"), Some(&id), None))).await
            })
        })
        .collect();
    let mut seen = Vec::new();
    for call in calls {
        let t = tokio::time::timeout(Duration::from_secs(60), call)
            .await
            .unwrap()
            .unwrap();
        seen.push(t.history.len());
    }
    let task = h
        .get_task(
            cx("GetTask"),
            GetTaskRequest {
                id: first.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let users: Vec<&Message> = task
        .history
        .iter()
        .filter(|m| m.role == Role::User)
        .collect();
    assert_eq!(users.len(), 1001);
    // Each reply saw a longer history than the one served before it: served one at a time.
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 1000);
}

#[tokio::test]
async fn list_tasks_filters_by_context_and_leaves_artifacts_out_unless_asked() {
    let h = handler();
    let a = task_of(&h, send(message("m1", None, Some("ctx-a")))).await;
    let _b = task_of(&h, send(message("m2", None, Some("ctx-b")))).await;
    let list = h
        .list_tasks(
            cx("ListTasks"),
            ListTasksRequest {
                context_id: Some("ctx-a".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(list.tasks.len(), 1);
    assert_eq!(list.tasks[0].id, a.id);
    assert!(list.tasks[0].artifacts.is_empty());
    let with = h
        .list_tasks(
            cx("ListTasks"),
            ListTasksRequest {
                include_artifacts: Some(true),
                history_length: Some(0),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(with.tasks.len(), 2);
    assert!(with
        .tasks
        .iter()
        .all(|t| t.artifacts.len() == 1 && t.history.is_empty()));
    let e = h
        .list_tasks(
            cx("ListTasks"),
            ListTasksRequest {
                page_token: Some("junk".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32602);
}

#[tokio::test]
async fn tasks_live_in_the_store_the_handler_is_given() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::new());
    let h = RequestHandler::builder(Scripted)
        .task_store(Arc::clone(&store))
        .build();
    let task = task_of(&h, send(message("input-1", None, None))).await;
    drop(h);
    // Another handler on the same store (a restart) continues the task.
    let h = RequestHandler::builder(Scripted).task_store(store).build();
    let done = task_of(&h, send(message("m2", Some(&task.id), None))).await;
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(done.history.len(), 3);
}

#[tokio::test]
async fn push_configs_and_the_extended_card_are_refused_when_not_configured() {
    let h = handler();
    let e = h
        .get_extended_agent_card(cx("GetExtendedAgentCard"), Default::default())
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32007);
    let e = h
        .create_task_push_notification_config(
            cx("CreateTaskPushNotificationConfig"),
            Default::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32003);
}

/// What a webhook received: the `Authorization` header and the body, per request.
type Received = Arc<std::sync::Mutex<Vec<(Option<String>, serde_json::Value)>>>;

/// A webhook on loopback that keeps what it receives.
async fn webhook() -> (String, Received) {
    let seen: Received = Arc::default();
    let keep = Arc::clone(&seen);
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(
            move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
                let keep = Arc::clone(&keep);
                async move {
                    let auth = headers
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_owned);
                    let body = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
                    keep.lock().unwrap().push((auth, body));
                    axum::http::StatusCode::OK
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_with_a_push_config_posts_its_events_to_the_webhook() {
    use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
    use a2a_types::v1::{AuthenticationInfo, TaskPushNotificationConfig};
    let policy = PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        ..Default::default()
    };
    let dispatcher = PushDispatcher::new(PushSender::new(policy).unwrap());
    let configs = Arc::new(MemoryStore::new());
    let h = RequestHandler::builder(Scripted)
        .push_notifications(configs, dispatcher.clone())
        .build();
    let (url, seen) = webhook().await;
    let config = TaskPushNotificationConfig {
        id: Some("p-1".into()),
        url: url.clone(),
        authentication: Some(AuthenticationInfo {
            scheme: "Bearer".into(),
            credentials: Some("s3cret".into()),
        }),
        ..Default::default()
    };
    let inline = SendMessageConfiguration {
        task_push_notification_config: Some(config.clone()),
        ..Default::default()
    };
    let task = task_of(&h, with_config(message("input-1", None, None), inline)).await;
    let stored = h
        .get_task_push_notification_config(
            cx("GetTaskPushNotificationConfig"),
            a2a_types::v1::GetTaskPushNotificationConfigRequest {
                task_id: task.id.clone(),
                id: "p-1".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(stored.url, url);
    let done = task_of(&h, send(message("m2", Some(&task.id), None))).await;
    assert_eq!(done.status.state, TaskState::Completed);
    tokio::time::timeout(Duration::from_secs(10), dispatcher.idle())
        .await
        .unwrap();
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty());
    for (auth, body) in &seen {
        assert_eq!(auth.as_deref(), Some("Bearer s3cret"));
        serde_json::from_value::<StreamResponse>(body.clone()).unwrap();
    }
    let last: StreamResponse = serde_json::from_value(seen.last().unwrap().1.clone()).unwrap();
    assert!(
        matches!(&last, StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed),
        "{last:?}"
    );
    // A URL the policy refuses is refused before it is kept.
    let e = h
        .create_task_push_notification_config(
            cx("CreateTaskPushNotificationConfig"),
            TaskPushNotificationConfig {
                task_id: Some(task.id.clone()),
                url: "http://169.254.169.254/latest".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32602, "{e:?}");
}

#[tokio::test]
async fn a_subscription_to_a_waiting_task_follows_it_to_its_end() {
    let h = Arc::new(handler());
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    let sub = h
        .subscribe_to_task(
            cx("SubscribeToTask"),
            SubscribeToTaskRequest {
                id: waiting.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let (h2, id) = (Arc::clone(&h), waiting.id.clone());
    let finish = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        task_of(&h2, send(message("m2", Some(&id), None))).await
    });
    let events = collect(sub).await;
    assert!(
        matches!(&events[0], StreamResponse::Task(t) if t.status.state == TaskState::InputRequired),
        "{events:?}"
    );
    assert!(
        matches!(events.last(), Some(StreamResponse::StatusUpdate(u)) if u.status.state == TaskState::Completed),
        "{events:?}"
    );
    assert_eq!(finish.await.unwrap().status.state, TaskState::Completed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_on_one_store_lose_no_message_to_one_task() {
    // Two handlers on one store stand for two replicas on one PostgreSQL: their per-process
    // locks do not see each other, so their writes race and the version check decides.
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::new());
    let replicas: Vec<Arc<RequestHandler<Scripted>>> = (0..2)
        .map(|_| {
            Arc::new(
                RequestHandler::builder(Scripted)
                    .task_store(Arc::clone(&store))
                    .build(),
            )
        })
        .collect();
    let first = task_of(&replicas[0], send(message("input-0", None, None))).await;
    let calls: Vec<_> = (1..=100)
        .map(|i| {
            let (h, id) = (Arc::clone(&replicas[i % 2]), first.id.clone());
            tokio::spawn(async move {
                task_of(&h, send(message(&format!("input-{i}"), Some(&id), None))).await
            })
        })
        .collect();
    for call in calls {
        let t = tokio::time::timeout(Duration::from_secs(60), call)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(t.status.state, TaskState::InputRequired);
    }
    let task = store
        .get_task(None.into(), &first.id)
        .await
        .unwrap()
        .unwrap()
        .task;
    let mut users: Vec<String> = task
        .history
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.message_id.clone())
        .collect();
    users.sort();
    users.dedup();
    assert_eq!(users.len(), 101, "every message kept once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_on_another_replica_is_final_and_the_running_execution_stops() {
    // Replica A runs a slow task; replica B (its own locks and live registry, the same store)
    // cancels it. A's execution must not write over the cancel when its executor goes on: the
    // store refuses the write, and A's subscribers get the canceled task.
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::new());
    let replica = || {
        RequestHandler::builder(Scripted)
            .task_store(Arc::clone(&store))
            .build()
    };
    let (a, b) = (replica(), replica());
    let config = SendMessageConfiguration {
        return_immediately: Some(true),
        ..Default::default()
    };
    let started = task_of(&a, with_config(message("slow-x", None, None), config)).await;
    let subscription = a
        .subscribe_to_task(
            cx("SubscribeToTask"),
            SubscribeToTaskRequest {
                id: started.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let canceled = b
        .cancel_task(
            cx("CancelTask"),
            CancelTaskRequest {
                id: started.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);

    // A's executor adds its artifact and completes 300 ms in: both writes are refused.
    let events = tokio::time::timeout(Duration::from_secs(10), collect(subscription))
        .await
        .expect("A's subscription ends");
    match events.last() {
        Some(StreamResponse::Task(t)) => assert_eq!(t.status.state, TaskState::Canceled),
        other => panic!("A's subscription should end with the canceled task: {other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let stored = store
        .get_task(None.into(), &started.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.task.status.state, TaskState::Canceled);
    assert!(
        stored.task.artifacts.is_empty(),
        "{:?}",
        stored.task.artifacts
    );
    // A reads it canceled too, and refuses a message to it.
    let read = a
        .get_task(
            cx("GetTask"),
            GetTaskRequest {
                id: started.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(read.status.state, TaskState::Canceled);
}

#[tokio::test]
async fn a_history_cap_keeps_the_newest_messages() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::new());
    let h = RequestHandler::builder(Scripted)
        .task_store(Arc::clone(&store))
        .max_history(3)
        .build();
    let first = task_of(&h, send(message("input-0", None, None))).await;
    for i in 1..=5 {
        let t = task_of(
            &h,
            send(message(&format!("input-{i}"), Some(&first.id), None)),
        )
        .await;
        assert!(t.history.len() <= 3, "{:?}", ids(&t));
    }
    let stored = store
        .get_task(None.into(), &first.id)
        .await
        .unwrap()
        .unwrap()
        .task;
    // Each turn adds the agent's last question (from the status) and the client's message:
    // the newest three remain.
    assert_eq!(stored.history.len(), 3);
    assert_eq!(stored.history[0].message_id, "input-4");
    assert_eq!(stored.history[1].role, Role::Agent);
    assert_eq!(stored.history[2].message_id, "input-5");
}

/// A task store that refuses every update while `broken` is set, and takes `create_delay` to
/// create a task.
struct Flaky {
    inner: MemoryStore,
    broken: std::sync::atomic::AtomicBool,
    create_delay: Duration,
}

impl TaskStore for Flaky {
    fn get_task<'a>(
        &'a self,
        scope: a2a_agent::store::Scope<'a>,
        task_id: &'a str,
    ) -> a2a_agent::store::StoreFuture<'a, Option<a2a_agent::store::Stored>> {
        TaskStore::get_task(&self.inner, scope, task_id)
    }
    fn create_task<'a>(
        &'a self,
        scope: a2a_agent::store::Scope<'a>,
        task: &'a Task,
    ) -> a2a_agent::store::StoreFuture<'a, u64> {
        Box::pin(async move {
            tokio::time::sleep(self.create_delay).await;
            TaskStore::create_task(&self.inner, scope, task).await
        })
    }
    fn update_task<'a>(
        &'a self,
        scope: a2a_agent::store::Scope<'a>,
        task: &'a Task,
        expected_version: u64,
    ) -> a2a_agent::store::StoreFuture<'a, u64> {
        if self.broken.load(std::sync::atomic::Ordering::SeqCst) {
            return Box::pin(async {
                Err(a2a_agent::store::StoreError::Backend(
                    "the disk is full".into(),
                ))
            });
        }
        TaskStore::update_task(&self.inner, scope, task, expected_version)
    }
    fn list_tasks<'a>(
        &'a self,
        scope: a2a_agent::store::Scope<'a>,
        query: &'a a2a_agent::store::TaskQuery,
    ) -> a2a_agent::store::StoreFuture<'a, a2a_agent::store::TaskPage> {
        TaskStore::list_tasks(&self.inner, scope, query)
    }
    fn delete_task<'a>(
        &'a self,
        scope: a2a_agent::store::Scope<'a>,
        task_id: &'a str,
    ) -> a2a_agent::store::StoreFuture<'a, bool> {
        TaskStore::delete_task(&self.inner, scope, task_id)
    }
}

#[tokio::test]
async fn a_store_that_fails_is_an_internal_error_and_keeps_its_last_whole_task() {
    let store = Arc::new(Flaky {
        inner: MemoryStore::new(),
        broken: std::sync::atomic::AtomicBool::new(true),
        create_delay: Duration::ZERO,
    });
    let h = RequestHandler::builder(Scripted)
        .task_store(Arc::clone(&store) as Arc<dyn TaskStore>)
        .build();
    // The first event creates the task; the next write (the completion) fails.
    let e = h
        .send_message(cx("SendMessage"), send(message("m1", None, None)))
        .await
        .unwrap_err();
    assert_eq!(code(&e), -32603, "{e:?}");
    assert!(e.error().message().contains("the disk is full"), "{e:?}");
    let list = h
        .list_tasks(
            cx("ListTasks"),
            ListTasksRequest {
                include_artifacts: Some(true),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(list.tasks.len(), 1);
    let kept = &list.tasks[0];
    // Whole: the state and artifact of the write that succeeded, the user's message in history.
    assert_eq!(kept.status.state, TaskState::Submitted);
    assert_eq!(kept.artifacts.len(), 1);
    assert_eq!(ids(kept), ["m1"]);
    // Mended, the handler serves again.
    store
        .broken
        .store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(
        task_of(&h, send(message("m2", None, None)))
            .await
            .status
            .state,
        TaskState::Completed
    );
}

#[tokio::test]
async fn the_task_a_stream_opens_with_is_stored_before_it_is_sent() {
    // A slow store: the caller who reads the task the stream began with finds it.
    let store = Arc::new(Flaky {
        inner: MemoryStore::new(),
        broken: std::sync::atomic::AtomicBool::new(false),
        create_delay: Duration::from_millis(200),
    });
    let h = RequestHandler::builder(Scripted)
        .task_store(Arc::clone(&store) as Arc<dyn TaskStore>)
        .build();
    let request = send(message("opened", None, None));
    let mut stream = h
        .send_streaming_message(cx("SendStreamingMessage"), request)
        .await
        .unwrap();
    let Some(Ok(StreamResponse::Task(task))) = stream.next().await else {
        panic!("the task first");
    };
    assert_eq!(ids(&task), ["opened"]);
    assert_eq!(get_task(&h, &task.id).await.id, task.id);
    let rest = stream.collect::<Vec<_>>().await;
    assert!(rest.iter().all(Result::is_ok), "{rest:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_that_races_the_end_of_an_execution_still_cancels() {
    let h = handler();
    for i in 0..300 {
        // The call returns as the task settles at input-required, while its execution is still
        // ending: the cancel races that end (or, for `linger`, comes in while it runs).
        let prefix = if i % 2 == 0 { "input" } else { "linger" };
        let task = task_of(&h, send(message(&format!("{prefix}-{i}"), None, None))).await;
        let canceled = tokio::time::timeout(
            Duration::from_secs(5),
            h.cancel_task(
                cx("CancelTask"),
                CancelTaskRequest {
                    id: task.id.clone(),
                    ..Default::default()
                },
            ),
        )
        .await
        .unwrap_or_else(|_| panic!("cancel {i} ({prefix}) hung"))
        .unwrap();
        assert_eq!(canceled.status.state, TaskState::Canceled, "{i}");
    }
}

#[tokio::test]
async fn ended_tasks_are_deleted_once_older_than_the_retention_and_the_others_kept() {
    let h = RequestHandler::builder(Scripted)
        .delete_ended_tasks_after(Duration::from_millis(300))
        .build();
    let done = task_of(&h, send(message("m1", None, None))).await;
    assert_eq!(done.status.state, TaskState::Completed);
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    assert_eq!(waiting.status.state, TaskState::InputRequired);
    let get = |id: &str| {
        let request = GetTaskRequest {
            id: id.to_owned(),
            ..Default::default()
        };
        h.get_task(cx("GetTask"), request)
    };
    assert!(get(&done.id).await.is_ok(), "kept until it is old enough");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let gone = loop {
        match get(&done.id).await {
            Err(e) => break e,
            Ok(_) => assert!(std::time::Instant::now() < deadline, "never deleted"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(code(&gone), -32001, "TaskNotFound");
    // A task that has not ended is kept, however old.
    assert_eq!(
        get(&waiting.id).await.unwrap().status.state,
        TaskState::InputRequired
    );
}

/// What a temporary refusal answers: `InternalError` with a RetryInfo over JSON-RPC, 503 with
/// `Retry-After: 1` over HTTP+JSON.
fn assert_try_again(e: &ServiceError) {
    assert_eq!(code(e), -32603, "{e}");
    let rest = e.rest_response();
    assert_eq!((rest.status, rest.retry_after), (503, Some(1)), "{e}");
    let data = e.error().data().unwrap().to_string();
    assert!(data.contains("google.rpc.RetryInfo"), "{data}");
}

fn subscribe(id: &str) -> SubscribeToTaskRequest {
    SubscribeToTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

#[tokio::test]
async fn streams_past_the_cap_are_refused_for_now_and_a_closed_one_frees_its_place() {
    let h = RequestHandler::builder(Scripted).max_streams(1).build();
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    let first = h
        .subscribe_to_task(cx("SubscribeToTask"), subscribe(&waiting.id))
        .await
        .unwrap();
    let refused = h
        .subscribe_to_task(cx("SubscribeToTask"), subscribe(&waiting.id))
        .await
        .err()
        .unwrap();
    assert_try_again(&refused);
    assert!(refused.error().message().contains("1 streams at once"));
    // A streamed message at the cap starts no task.
    let list = || h.list_tasks(cx("ListTasks"), ListTasksRequest::default());
    let before = list().await.unwrap().total_size;
    let streamed = h
        .send_streaming_message(cx("SendStreamingMessage"), send(message("m1", None, None)))
        .await;
    assert_try_again(&streamed.err().unwrap());
    assert_eq!(list().await.unwrap().total_size, before);
    // The client goes away: its place is free.
    drop(first);
    let again = h
        .subscribe_to_task(cx("SubscribeToTask"), subscribe(&waiting.id))
        .await;
    assert!(again.is_ok());
}

#[tokio::test]
async fn a_stream_without_events_for_its_idle_time_ends_with_a_try_again() {
    let h = RequestHandler::builder(Scripted)
        .stream_idle_timeout(Some(Duration::from_millis(200)))
        .build();
    let waiting = task_of(&h, send(message("input-1", None, None))).await;
    let mut stream = h
        .subscribe_to_task(cx("SubscribeToTask"), subscribe(&waiting.id))
        .await
        .unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(StreamResponse::Task(_)))
    ));
    let started = std::time::Instant::now();
    let ended = tokio::time::timeout(Duration::from_secs(5), stream.next()).await;
    let error = ended.unwrap().unwrap().err().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(190));
    assert_try_again(&error);
    assert!(error.error().message().contains("Last-Event-ID"));
    assert!(stream.next().await.is_none(), "the stream is over");
}

#[tokio::test]
async fn a_full_memory_store_refuses_a_new_task_for_now() {
    let h = RequestHandler::builder(Scripted)
        .task_store(Arc::new(MemoryStore::with_max_tasks(1)))
        .build();
    task_of(&h, send(message("input-1", None, None))).await;
    let refused = h
        .send_message(cx("SendMessage"), send(message("m2", None, None)))
        .await
        .err()
        .unwrap();
    assert_try_again(&refused);
    assert!(refused.error().message().contains("full"), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_configs_past_the_cap_per_task_are_refused_and_a_replacement_is_not_one_more() {
    use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
    use a2a_types::v1::TaskPushNotificationConfig;
    let policy = PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        ..Default::default()
    };
    let dispatcher = PushDispatcher::new(PushSender::new(policy).unwrap());
    let h = RequestHandler::builder(Scripted)
        .push_notifications(Arc::new(MemoryStore::new()), dispatcher)
        .max_push_configs_per_task(2)
        .build();
    let task = task_of(&h, send(message("input-1", None, None))).await;
    let config = |id: &str| TaskPushNotificationConfig {
        id: Some(id.into()),
        task_id: Some(task.id.clone()),
        url: "http://127.0.0.1:9/hook".into(),
        ..Default::default()
    };
    let create =
        |c| h.create_task_push_notification_config(cx("CreateTaskPushNotificationConfig"), c);
    create(config("a")).await.unwrap();
    create(config("b")).await.unwrap();
    let refused = create(config("c")).await.err().unwrap();
    assert_eq!(code(&refused), -32602, "{refused}");
    assert!(refused
        .error()
        .message()
        .contains("2 push notification configs"));
    assert!(create(config("b")).await.is_ok(), "a replacement");
}

/// The task `id` as `GetTask` reads it, whole.
async fn get_task<E: AgentExecutor>(h: &RequestHandler<E>, id: &str) -> Task {
    let request = GetTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    };
    h.get_task(cx("GetTask"), request).await.unwrap()
}

/// Records how much of its task's history each execution is given, and sends that back in a
/// `Task` event with one message of its own: only that one is new.
#[derive(Clone, Default)]
struct Windowed {
    given: Arc<std::sync::Mutex<Vec<usize>>>,
}

impl AgentExecutor for Windowed {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let given = cx.task.as_ref().map_or(0, |t| t.history.len());
        self.given.lock().unwrap().push(given);
        if let Some(mut snapshot) = cx.task {
            snapshot.history.push(task.text_message("noted"));
            snapshot.status.state = TaskState::Working;
            task.send(StreamResponse::Task(snapshot)).await?;
        }
        task.require_input(None).await
    }
}

/// Eight messages to one task through a handler that gives its executor the last four: what
/// the executor saw, and the task's history as replies and `GetTask` show it, on `store`.
async fn eight_turns_with_a_window_of_four(store: Arc<dyn TaskStore>) {
    let agent = Windowed::default();
    let h = RequestHandler::builder(agent.clone())
        .task_store(store)
        .executor_history(Some(4))
        .build();
    let send_to = |id: &str, task_id: Option<&str>, history_length: Option<i32>| {
        let config = SendMessageConfiguration {
            history_length,
            ..Default::default()
        };
        with_config(message(id, task_id, None), config)
    };
    let reply = |r| match r {
        Ok(SendMessageResponse::Task(t)) => t,
        other => panic!("{other:?}"),
    };
    let first = reply(
        h.send_message(cx("SendMessage"), send_to("input-0", None, None))
            .await,
    );
    let mut last = first.clone();
    for i in 1..8 {
        let id = format!("input-{i}");
        let length = (i == 6).then_some(2);
        last = reply(
            h.send_message(cx("SendMessage"), send_to(&id, Some(&first.id), length))
                .await,
        );
        if i == 6 {
            // Only what was asked for: the newest two.
            assert_eq!(last.history.len(), 2, "{:?}", ids(&last));
            assert_eq!(last.history[0].message_id, "input-6");
        }
    }
    assert_eq!(*agent.given.lock().unwrap(), [0, 1, 3, 4, 4, 4, 4, 4]);
    // Every message once, in order: each turn's message, then the agent's note.
    let got = get_task(&h, &first.id).await;
    assert_eq!(got.history.len(), 15, "{:?}", ids(&got));
    assert_eq!(ids(&got)[..2], ["input-0", "input-1"]);
    assert_eq!(got.history[14].role, Role::Agent);
    let mut unique = ids(&got);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 15, "no message twice: {:?}", ids(&got));
    // A reply that names no historyLength carries the whole history, as GetTask does.
    assert_eq!(ids(&last), ids(&got));
}

#[tokio::test]
async fn the_executor_is_given_the_latest_messages_and_replies_the_whole_history() {
    eight_turns_with_a_window_of_four(Arc::new(MemoryStore::new())).await;
}

/// A SQLite store in a file of its own, and the folder that holds it.
#[cfg(feature = "sqlite")]
async fn sqlite_store() -> (Arc<dyn TaskStore>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let store = a2a_agent::store::SqliteStore::open(path).await.unwrap();
    (Arc::new(store), dir)
}

/// A store that keeps each task as one value: a memory store behind the trait's defaults.
fn whole_store() -> Arc<Flaky> {
    let store = Arc::new(Flaky {
        inner: MemoryStore::new(),
        broken: std::sync::atomic::AtomicBool::new(false),
        create_delay: Duration::ZERO,
    });
    assert!(!store.appends_history() && !store.appends_artifacts());
    store
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_executor_is_given_the_latest_messages_on_sqlite_too() {
    let (store, _dir) = sqlite_store().await;
    eight_turns_with_a_window_of_four(store).await;
}

#[tokio::test]
async fn a_store_that_keeps_tasks_whole_gets_whole_histories() {
    eight_turns_with_a_window_of_four(whole_store()).await;
}

/// Streams its answer as `chunks` chunks of one artifact (`append`), then gives a second
/// artifact twice (the second time replaces the first), and waits for input.
#[derive(Clone)]
struct Chunky {
    chunks: usize,
}

impl AgentExecutor for Chunky {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let turn = cx.message.as_ref().map_or("", |m| m.message_id.as_str());
        let artifact = |id: &str, text: &str| Artifact {
            artifact_id: id.to_owned(),
            parts: vec![a2a_agent::text_part(text)],
            ..Default::default()
        };
        let out = format!("out-{turn}");
        for i in 0..self.chunks {
            let chunk = artifact(&out, &format!("c{i}"));
            task.artifact(chunk, i > 0, i + 1 == self.chunks).await?;
        }
        task.artifact(artifact("side", &format!("{turn} draft")), false, true)
            .await?;
        task.artifact(artifact("side", &format!("{turn} final")), false, true)
            .await?;
        task.require_input(None).await
    }
}

/// Two turns of [`Chunky`] on `store`: the artifacts as `GetTask`, a reply and a stream of the
/// second turn show them.
async fn two_turns_of_chunks(store: Arc<dyn TaskStore>) {
    const CHUNKS: usize = 300;
    let h = RequestHandler::builder(Chunky { chunks: CHUNKS })
        .task_store(store)
        .build();
    let texts = |t: &Task| -> Vec<(String, Vec<String>)> {
        let text = |p: &Part| match &p.content {
            PartContent::Text(t) => t.to_string(),
            other => format!("{other:?}"),
        };
        let of = |a: &Artifact| (a.artifact_id.clone(), a.parts.iter().map(text).collect());
        t.artifacts.iter().map(of).collect()
    };
    let chunks: Vec<String> = (0..CHUNKS).map(|i| format!("c{i}")).collect();
    let first = match h
        .send_message(cx("SendMessage"), send(message("t1", None, None)))
        .await
    {
        Ok(SendMessageResponse::Task(t)) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        texts(&first),
        [
            ("out-t1".to_owned(), chunks.clone()),
            ("side".to_owned(), vec!["t1 final".to_owned()]),
        ]
    );
    // The second turn, streamed: its first event, the task, has the first turn's artifacts.
    let stream = h
        .send_streaming_message(
            cx("SendStreamingMessage"),
            send(message("t2", Some(&first.id), None)),
        )
        .await
        .unwrap();
    let events = collect(stream).await;
    match &events[0] {
        StreamResponse::Task(t) => assert_eq!(texts(t), texts(&first)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        events.len(),
        1 + CHUNKS + 2 + 1,
        "the task, the chunks, two, the status"
    );
    let got = get_task(&h, &first.id).await;
    assert_eq!(
        texts(&got),
        [
            ("out-t1".to_owned(), chunks.clone()),
            ("side".to_owned(), vec!["t2 final".to_owned()]),
            ("out-t2".to_owned(), chunks.clone()),
        ]
    );
}

/// A memory store that records what each write says of its task's artifacts, and what each
/// read asks for.
#[derive(Default)]
struct Recording {
    inner: MemoryStore,
    writes: std::sync::Mutex<Vec<Artifacts>>,
    reads: std::sync::Mutex<Vec<String>>,
}

impl TaskStore for Recording {
    fn get_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
    ) -> StoreFuture<'a, Option<Stored>> {
        self.reads.lock().unwrap().push("whole".into());
        self.inner.get_task(scope, task_id)
    }
    fn get_task_recent<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        last: u32,
    ) -> StoreFuture<'a, Option<Stored>> {
        self.reads.lock().unwrap().push(format!("last {last}"));
        self.inner.get_task_recent(scope, task_id, last)
    }
    fn appends_history(&self) -> bool {
        true
    }
    fn appends_artifacts(&self) -> bool {
        true
    }
    fn create_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task) -> StoreFuture<'a, u64> {
        self.inner.create_task(scope, task)
    }
    fn update_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task, v: u64) -> StoreFuture<'a, u64> {
        self.update_task_with(scope, task, v, WriteWith::default())
    }
    fn update_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        v: u64,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        self.writes.lock().unwrap().push(with.artifacts);
        self.inner.update_task_with(scope, task, v, with)
    }
    fn list_tasks<'a>(
        &'a self,
        scope: Scope<'a>,
        query: &'a TaskQuery,
    ) -> StoreFuture<'a, TaskPage> {
        let (last, omit) = (query.history_length, query.omit_artifacts);
        self.reads
            .lock()
            .unwrap()
            .push(format!("list {last:?} {omit}"));
        self.inner.list_tasks(scope, query)
    }
    fn delete_task<'a>(&'a self, scope: Scope<'a>, task_id: &'a str) -> StoreFuture<'a, bool> {
        self.inner.delete_task(scope, task_id)
    }
}

#[tokio::test]
async fn get_task_and_list_tasks_read_no_more_than_they_return() {
    let store = Arc::new(Recording::default());
    let h = RequestHandler::builder(Scripted)
        .task_store(Arc::clone(&store) as Arc<dyn TaskStore>)
        .build();
    let task = task_of(&h, send(message("input-1", None, None))).await;
    store.reads.lock().unwrap().clear();
    for history_length in [Some(1), None] {
        let request = GetTaskRequest {
            id: task.id.clone(),
            history_length,
            ..Default::default()
        };
        h.get_task(cx("GetTask"), request).await.unwrap();
    }
    for (history_length, include_artifacts) in [(Some(2), None), (None, Some(true))] {
        let request = ListTasksRequest {
            history_length,
            include_artifacts,
            ..Default::default()
        };
        h.list_tasks(cx("ListTasks"), request).await.unwrap();
    }
    assert_eq!(
        *store.reads.lock().unwrap(),
        ["last 1", "whole", "list Some(2) true", "list None false"]
    );
}

#[tokio::test]
async fn streamed_chunks_make_one_artifact_and_a_replaced_one_keeps_its_place() {
    two_turns_of_chunks(Arc::new(MemoryStore::new())).await;
    // Through the handler (which wraps its store), each chunk is written as itself.
    let store = Arc::new(Recording::default());
    two_turns_of_chunks(Arc::clone(&store) as Arc<dyn TaskStore>).await;
    let writes = store.writes.lock().unwrap();
    let chunks = writes
        .iter()
        .filter(|w| **w == Artifacts::Update { append: true })
        .count();
    assert_eq!(chunks, 2 * (300 - 1), "{writes:?}");
    assert!(!writes.contains(&Artifacts::Whole), "{writes:?}");
}

#[cfg(feature = "sqlite")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_chunks_make_one_artifact_on_sqlite_too() {
    let (store, _dir) = sqlite_store().await;
    two_turns_of_chunks(store).await;
}

#[tokio::test]
async fn a_store_that_keeps_tasks_whole_gets_all_artifacts_with_each_write() {
    two_turns_of_chunks(whole_store()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_read_slower_than_its_agent_writes_gets_every_event() {
    const CHUNKS: usize = 3_000;
    let h = RequestHandler::builder(Chunky { chunks: CHUNKS }).build();
    let mut stream = h
        .send_streaming_message(
            cx("SendStreamingMessage"),
            send(message("slow", None, None)),
        )
        .await
        .unwrap();
    let mut n = 0;
    while let Some(event) = stream.next().await {
        event.unwrap_or_else(|e| panic!("event {n}: {e:?}"));
        n += 1;
        // Far slower than the memory store writes: 3,000 chunks, more than a stream's buffer.
        if n % 5 == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    assert_eq!(
        n,
        1 + CHUNKS + 2 + 1,
        "the task, the chunks, two, the status"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_nobody_reads_holds_its_agent_back_a_second_at_most() {
    const CHUNKS: usize = 3_000;
    let h = RequestHandler::builder(Chunky { chunks: CHUNKS }).build();
    let request = send(message("stalled", None, None));
    let mut stream = h
        .send_streaming_message(cx("SendStreamingMessage"), request)
        .await
        .unwrap();
    let Some(Ok(StreamResponse::Task(task))) = stream.next().await else {
        panic!("the task first");
    };
    // Never read again: the agent waits for it once, then goes on without it.
    let started = std::time::Instant::now();
    loop {
        if get_task(&h, &task.id).await.status.state == TaskState::InputRequired {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the agent was held back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let ended = stream.collect::<Vec<_>>().await;
    assert!(
        matches!(ended.last(), Some(Err(e)) if format!("{e:?}").contains("behind")),
        "the stream fell behind: {:?}",
        ended.last()
    );
}

#[tokio::test]
async fn a_store_that_keeps_tasks_whole_applies_a_chunk_by_reading_the_task() {
    // The trait's provided `update_task_with`: read, apply, write whole.
    let store = whole_store();
    let scope = Scope::tenant(None);
    let part = |t: &str| Artifact {
        artifact_id: "a".into(),
        parts: vec![a2a_agent::text_part(t)],
        ..Default::default()
    };
    let mut task = Task {
        id: "whole".into(),
        artifacts: vec![part("one")],
        ..Default::default()
    };
    store.create_task(scope, &task).await.unwrap();
    task.artifacts = vec![part("two")];
    let with = WriteWith {
        artifacts: Artifacts::Update { append: true },
        ..WriteWith::default()
    };
    store.update_task_with(scope, &task, 1, with).await.unwrap();
    let stored = store.get_task(scope, "whole").await.unwrap().unwrap().task;
    assert_eq!(stored.artifacts.len(), 1);
    assert_eq!(stored.artifacts[0].parts.len(), 2, "{:?}", stored.artifacts);
}
