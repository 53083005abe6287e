//! The conformance suite every store runs (`conformance_tests!`), and the concurrent
//! read-modify-write workload.
//!
//! Each behaviour is an async fn over `&dyn TaskStore` / `&dyn PushConfigStore`, so one
//! implementation of the rules is checked against every store. Every test works in tenants and
//! ids of its own namespace (`Fixture::ns`), so tests can share one PostgreSQL database, run in
//! parallel, and be run again on the same database.

#![allow(dead_code)] // each test binary uses part of this module

pub mod echo;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_agent::store::{
    Artifacts, Deliveries, Delivery, History, Lease, PushConfigStore, Scope, StoreError, TaskPage,
    TaskQuery, TaskStore, WriteWith, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE,
};
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::Timestamp;
use a2a_types::v1::{
    Artifact, AuthenticationInfo, Message, Part, PartContent, Role, StreamResponse, Task,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent,
};

/// A store under test, seen through both traits, and a namespace of its own.
pub struct Fixture {
    pub tasks: Arc<dyn TaskStore>,
    pub configs: Arc<dyn PushConfigStore>,
    /// Unique per fixture: prefix of every tenant and id a test uses.
    pub ns: String,
    /// Whatever must live as long as the store (a temporary directory).
    pub _guard: Option<Box<dyn std::any::Any + Send + Sync>>,
}

impl Fixture {
    pub fn new<S: TaskStore + PushConfigStore>(store: S) -> Fixture {
        let store = Arc::new(store);
        Fixture {
            tasks: store.clone(),
            configs: store,
            ns: uuid::Uuid::new_v4().simple().to_string(),
            _guard: None,
        }
    }

    /// A tenant of this fixture's own.
    pub fn tenant(&self, name: &str) -> String {
        format!("{}-{name}", self.ns)
    }

    /// An id of this fixture's own.
    pub fn id(&self, name: &str) -> String {
        format!("{}-{name}", self.ns)
    }
}

/// The test database's URL, `A2A_TEST_POSTGRES_URL` (start one with
/// `a2a-agent/tests/start-postgres.sh`): `None` (a printed skip) without it, except under `CI`,
/// where its absence fails the test.
pub fn postgres_url() -> Option<String> {
    const URL_VAR: &str = "A2A_TEST_POSTGRES_URL";
    match std::env::var(URL_VAR) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => panic!(
            "{URL_VAR} is not set, and CI is: the PostgreSQL tests must run in CI \
             (export {URL_VAR}=\"$(a2a-agent/tests/start-postgres.sh start target/pg 55432)\")"
        ),
        _ => {
            println!(
                "SKIPPED: {URL_VAR} is not set (start a database with \
                 a2a-agent/tests/start-postgres.sh start target/pg 55432)"
            );
            None
        }
    }
}

/// One `#[tokio::test]` per behaviour of the suite, each on a fresh fixture from `$fixture`
/// (an `async fn() -> Option<Fixture>`; `None` skips).
#[macro_export]
macro_rules! conformance_tests {
    ($fixture:path) => {
        $crate::conformance_tests!(@each $fixture;
            created_task_reads_back_whole_at_version_1,
            create_of_an_existing_id_is_a_conflict_and_keeps_the_first,
            update_with_the_read_version_writes_the_next_version,
            update_with_a_stale_version_is_a_conflict_and_writes_nothing,
            update_of_a_missing_task_is_not_found,
            appended_messages_join_the_history_and_recent_reads_the_last,
            artifact_chunks_join_their_artifact_and_a_replaced_one_keeps_its_place,
            no_update_moves_a_task_out_of_a_terminal_state,
            logged_writes_keep_each_version_s_event_in_order,
            the_outbox_queues_notified_events_per_config_for_one_holder_at_a_time,
            delete_task_takes_its_log_configs_and_queued_notifications_with_it,
            delete_ended_removes_terminal_tasks_updated_before_a_time_oldest_first,
            trim_ended_logs_keeps_the_last_event_and_those_still_to_be_sent,
            a_lease_lets_one_holder_write_until_it_expires,
            tenants_are_isolated,
            owners_are_isolated_in_the_query,
            push_configs_are_scoped_by_owner,
            no_tenant_and_the_empty_tenant_are_the_same,
            list_filters_by_context_state_and_status_time,
            list_orders_by_last_update_newest_first_ties_by_id,
            list_pages_cover_every_task_once_with_total_size,
            list_page_size_defaults_to_50_and_is_clamped_to_100,
            list_rejects_a_malformed_page_token,
            list_of_a_tenant_without_tasks_is_empty,
            push_config_without_id_gets_a_fresh_uuid,
            push_config_set_with_an_existing_id_replaces_it,
            push_config_is_stored_under_the_task_and_tenant_it_was_set_for,
            push_configs_are_scoped_by_tenant_and_task,
            push_config_list_pages_by_id,
            push_config_delete_says_whether_there_was_one,
            push_configs_keep_the_version_they_were_set_in,
        );
    };
    (@each $fixture:path; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let Some(fixture) = $fixture().await else { return };
                common::$name(&fixture).await;
            }
        )*
    };
}

// ---------------------------------------------------------------------------------------------
// Building tasks

pub fn task(id: &str) -> Task {
    Task {
        id: id.to_owned(),
        ..Default::default()
    }
}

fn task_with(id: &str, context: &str, state: TaskState, timestamp: Option<&str>) -> Task {
    Task {
        id: id.to_owned(),
        context_id: Some(context.to_owned()),
        status: TaskStatus {
            state,
            message: None,
            timestamp: timestamp.map(Timestamp::new),
        },
        ..Default::default()
    }
}

pub fn message(id: &str) -> Message {
    Message {
        message_id: id.to_owned(),
        role: Role::User,
        parts: vec![Part {
            content: PartContent::Text(id.to_owned()),
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn ids(page: &TaskPage) -> Vec<String> {
    page.tasks.iter().map(|t| t.id.clone()).collect()
}

/// Every page of a list, in order, checking that each page says the same total.
async fn every_page(
    store: &dyn TaskStore,
    tenant: Option<&str>,
    mut query: TaskQuery,
) -> (Vec<Vec<String>>, u64) {
    let mut pages = Vec::new();
    let mut total = None;
    loop {
        let page = store
            .list_tasks(Scope::tenant(tenant), &query)
            .await
            .unwrap();
        assert_eq!(page.page_size, query.page_size());
        assert!(page.tasks.len() <= page.page_size as usize);
        match total {
            None => total = Some(page.total_size),
            Some(t) => assert_eq!(page.total_size, t, "total_size changed between pages"),
        }
        pages.push(ids(&page));
        match page.next_page_token {
            Some(token) => {
                assert!(
                    !page.tasks.is_empty(),
                    "a page with a next token is not empty"
                );
                query.page_token = Some(token);
            }
            None => break,
        }
        assert!(pages.len() < 1_000, "paging does not end");
    }
    (pages, total.unwrap())
}

// ---------------------------------------------------------------------------------------------
// TaskStore

pub async fn created_task_reads_back_whole_at_version_1(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("rich");
    let rich: Task = serde_json::from_value(serde_json::json!({
        "id": id,
        "contextId": "ctx",
        "status": {
            "state": "TASK_STATE_INPUT_REQUIRED",
            "timestamp": "2024-03-01T12:30:00.5+01:00",
            "message": {"messageId": "s", "role": "ROLE_AGENT", "parts": [{"text": "which?"}]}
        },
        "artifacts": [{"artifactId": "a", "name": "out", "parts": [{"data": {"k": [1, 2.5, null]}}]}],
        "history": [{"messageId": "m1", "role": "ROLE_USER", "parts": [{"raw": "AAEC"}, {"url": "https://x.invalid/f", "mediaType": "text/plain"}]}],
        "metadata": {"nested": {"a": "é ✓ \u{0}"}}
    }))
    .unwrap();
    assert_eq!(rich.status.state, TaskState::InputRequired);

    assert_eq!(store.create_task(scope, &rich).await.unwrap(), 1);
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!(stored.version, 1);
    assert_eq!(stored.task, rich);
    assert_eq!(
        serde_json::to_value(&stored.task).unwrap(),
        serde_json::to_value(&rich).unwrap()
    );
    assert!(store
        .get_task(scope, &f.id("missing"))
        .await
        .unwrap()
        .is_none());
}

pub async fn appended_messages_join_the_history_and_recent_reads_the_last(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("h");
    let mut whole = task(&id);
    whole.history = vec![message("m0"), message("m1 \u{0} é")];
    store.create_task(scope, &whole).await.unwrap();
    let ids =
        |t: &Task| -> Vec<String> { t.history.iter().map(|m| m.message_id.clone()).collect() };
    let append = |new: u32, keep: Option<u32>| WriteWith {
        history: History::Append { new, keep },
        ..WriteWith::default()
    };
    // The task as a writer holds it: the newest message it read (m1), and two new ones.
    let mut held = task_with(&id, "ctx", TaskState::Working, None);
    held.history = vec![message("m1 \u{0} é"), message("m2"), message("m3")];
    let v = store
        .update_task_with(scope, &held, 1, append(2, None))
        .await
        .unwrap();
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!(ids(&stored.task), ["m0", "m1 \u{0} é", "m2", "m3"]);
    assert_eq!(stored.task.status.state, TaskState::Working);
    assert_eq!(stored.version, v);
    let recent = store.get_task_recent(scope, &id, 2).await.unwrap().unwrap();
    assert_eq!(ids(&recent.task), ["m2", "m3"]);
    assert_eq!(
        (recent.version, recent.task.status.state),
        (v, TaskState::Working)
    );
    let none = store.get_task_recent(scope, &id, 0).await.unwrap().unwrap();
    assert!(none.task.history.is_empty());
    let all = store
        .get_task_recent(scope, &id, 100)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(all.task, stored.task);
    // Nothing new: the history stays; a stale version appends nothing.
    held.history.clear();
    let v = store
        .update_task_with(scope, &held, v, append(0, None))
        .await
        .unwrap();
    held.history = vec![message("late")];
    assert!(matches!(
        store
            .update_task_with(scope, &held, v - 1, append(1, None))
            .await,
        Err(StoreError::Conflict { .. })
    ));
    // With a cap: the oldest go.
    held.history = vec![message("m4"), message("m5")];
    let v = store
        .update_task_with(scope, &held, v, append(2, Some(3)))
        .await
        .unwrap();
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!(ids(&stored.task), ["m3", "m4", "m5"]);
    held.history = vec![message("m6")];
    let v = store
        .update_task_with(scope, &held, v, append(1, None))
        .await
        .unwrap();
    let recent = store.get_task_recent(scope, &id, 2).await.unwrap().unwrap();
    assert_eq!(ids(&recent.task), ["m5", "m6"]);
    // A whole history replaces it, shorter or longer.
    held.history = vec![message("w0")];
    let v = store.update_task(scope, &held, v).await.unwrap();
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!(ids(&stored.task), ["w0"]);
    held.history = vec![message("w0"), message("w1"), message("w2")];
    store.update_task(scope, &held, v).await.unwrap();
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!(ids(&stored.task), ["w0", "w1", "w2"]);
    let page = store
        .list_tasks(scope, &TaskQuery::default())
        .await
        .unwrap();
    let listed = page.tasks.iter().find(|t| t.id == id).unwrap();
    assert_eq!(ids(listed), ["w0", "w1", "w2"]);
    // A list reads no more of each history than it is asked for.
    for (length, want) in [
        (Some(2), &["w1", "w2"][..]),
        (Some(0), &[]),
        (Some(9), &["w0", "w1", "w2"]),
    ] {
        let query = TaskQuery {
            history_length: length,
            ..TaskQuery::default()
        };
        let page = store.list_tasks(scope, &query).await.unwrap();
        let listed = page.tasks.iter().find(|t| t.id == id).unwrap();
        assert_eq!(ids(listed), want, "historyLength {length:?}");
    }
}

fn artifact(id: &str, parts: &[&str]) -> Artifact {
    Artifact {
        artifact_id: id.to_owned(),
        parts: parts
            .iter()
            .map(|p| Part {
                content: PartContent::Text((*p).into()),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// Each artifact's id and the text of its parts, in order.
fn artifact_texts(t: &Task) -> Vec<(String, Vec<String>)> {
    t.artifacts
        .iter()
        .map(|a| {
            let texts = a.parts.iter().map(|p| match &p.content {
                PartContent::Text(t) => t.to_string(),
                other => format!("{other:?}"),
            });
            (a.artifact_id.clone(), texts.collect())
        })
        .collect()
}

pub async fn artifact_chunks_join_their_artifact_and_a_replaced_one_keeps_its_place(f: &Fixture) {
    let store = &*f.tasks;
    // Every store of this crate says so: a request handler then gives it each chunk alone.
    assert!(store.appends_artifacts() && store.appends_history());
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("art");
    let mut whole = task_with(&id, "ctx", TaskState::Working, None);
    whole.artifacts = vec![artifact("a", &["a1"]), artifact("b \u{0} é", &["b1"])];
    store.create_task(scope, &whole).await.unwrap();
    let update = |append| WriteWith {
        artifacts: Artifacts::Update { append },
        ..WriteWith::default()
    };
    let expect = |t: &Task, want: &[(&str, &[&str])]| {
        let want: Vec<(String, Vec<String>)> = want
            .iter()
            .map(|(id, parts)| {
                (
                    (*id).to_owned(),
                    parts.iter().map(|p| (*p).to_owned()).collect(),
                )
            })
            .collect();
        assert_eq!(artifact_texts(t), want);
    };
    let read = || async { store.get_task(scope, &id).await.unwrap().unwrap() };
    // Chunks: the task as a writer holds it, with only the chunk in its artifacts.
    let mut held = task_with(&id, "ctx", TaskState::Working, None);
    let mut chunk = artifact("a", &["a2", "a3"]);
    chunk.metadata = Some(serde_json::from_str(r#"{"k":"v"}"#).unwrap());
    held.artifacts = vec![chunk];
    let v = store
        .update_task_with(scope, &held, 1, update(true))
        .await
        .unwrap();
    held.artifacts = vec![artifact("a", &["a4"])];
    let v = store
        .update_task_with(scope, &held, v, update(true))
        .await
        .unwrap();
    let stored = read().await;
    expect(
        &stored.task,
        &[("a", &["a1", "a2", "a3", "a4"]), ("b \u{0} é", &["b1"])],
    );
    assert!(
        stored.task.artifacts[0].metadata.is_some(),
        "a chunk's metadata is merged"
    );
    // A write that changes none leaves them; a stale version writes no chunk.
    held.artifacts.clear();
    let v = store
        .update_task_with(scope, &held, v, update(false))
        .await
        .unwrap();
    held.artifacts = vec![artifact("a", &["late"])];
    assert!(matches!(
        store
            .update_task_with(scope, &held, v - 1, update(true))
            .await,
        Err(StoreError::Conflict { .. })
    ));
    expect(
        &read().await.task,
        &[("a", &["a1", "a2", "a3", "a4"]), ("b \u{0} é", &["b1"])],
    );
    // Given again without `append`: replaced where it was, its chunks gone; a new id goes last.
    held.artifacts = vec![artifact("a", &["x1"])];
    let v = store
        .update_task_with(scope, &held, v, update(false))
        .await
        .unwrap();
    held.artifacts = vec![artifact("c", &["c1"])];
    let v = store
        .update_task_with(scope, &held, v, update(false))
        .await
        .unwrap();
    held.artifacts = vec![artifact("a", &["x2"])];
    let v = store
        .update_task_with(scope, &held, v, update(true))
        .await
        .unwrap();
    let want: &[(&str, &[&str])] = &[("a", &["x1", "x2"]), ("b \u{0} é", &["b1"]), ("c", &["c1"])];
    expect(&read().await.task, want);
    expect(
        &store
            .get_task_recent(scope, &id, 1)
            .await
            .unwrap()
            .unwrap()
            .task,
        want,
    );
    let page = store
        .list_tasks(scope, &TaskQuery::default())
        .await
        .unwrap();
    expect(page.tasks.iter().find(|t| t.id == id).unwrap(), want);
    // A list that leaves them out reads none.
    let query = TaskQuery {
        omit_artifacts: true,
        ..TaskQuery::default()
    };
    let page = store.list_tasks(scope, &query).await.unwrap();
    expect(page.tasks.iter().find(|t| t.id == id).unwrap(), &[]);
    // All of them, given whole, replace them all.
    held.artifacts = vec![artifact("c", &["c2"])];
    store.update_task(scope, &held, v).await.unwrap();
    expect(&read().await.task, &[("c", &["c2"])]);
}

pub async fn create_of_an_existing_id_is_a_conflict_and_keeps_the_first(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("t");
    let first = task_with(&id, "first", TaskState::Submitted, None);
    store.create_task(scope, &first).await.unwrap();
    let second = task_with(&id, "second", TaskState::Working, None);
    match store.create_task(scope, &second).await {
        Err(StoreError::Conflict {
            task_id,
            expected_version: None,
        }) => assert_eq!(task_id, id),
        other => panic!("expected a create conflict, got {other:?}"),
    }
    let err = store.create_task(scope, &second).await.unwrap_err();
    assert_eq!(err.to_string(), format!("task `{id}` already exists"));
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!((stored.task, stored.version), (first, 1));
}

pub async fn update_with_the_read_version_writes_the_next_version(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("t");
    store.create_task(scope, &task(&id)).await.unwrap();
    let mut next = task_with(&id, "ctx", TaskState::Working, Some("2024-01-01T00:00:00Z"));
    assert_eq!(store.update_task(scope, &next, 1).await.unwrap(), 2);
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!((&stored.task, stored.version), (&next, 2));
    next.history.push(message("m"));
    next.status.state = TaskState::Completed;
    assert_eq!(store.update_task(scope, &next, 2).await.unwrap(), 3);
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!((stored.task, stored.version), (next, 3));
}

pub async fn update_with_a_stale_version_is_a_conflict_and_writes_nothing(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("t");
    store.create_task(scope, &task(&id)).await.unwrap();
    let winner = task_with(&id, "winner", TaskState::Working, None);
    store.update_task(scope, &winner, 1).await.unwrap();
    let loser = task_with(&id, "loser", TaskState::Failed, None);
    for stale in [1, 0, 3, 99, u64::MAX] {
        match store.update_task(scope, &loser, stale).await {
            Err(StoreError::Conflict {
                task_id,
                expected_version: Some(v),
            }) => assert_eq!((task_id.as_str(), v), (id.as_str(), stale)),
            other => panic!("expected a conflict for version {stale}, got {other:?}"),
        }
    }
    let err = store.update_task(scope, &loser, 1).await.unwrap_err();
    assert!(
        err.to_string().starts_with(&format!(
            "task `{id}` was written by someone else: version 1"
        )),
        "{err}"
    );
    let stored = store.get_task(scope, &id).await.unwrap().unwrap();
    assert_eq!((stored.task, stored.version), (winner, 2));
}

pub async fn update_of_a_missing_task_is_not_found(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("nowhere");
    match store.update_task(scope, &task(&id), 1).await {
        Err(StoreError::NotFound { task_id }) => assert_eq!(task_id, id),
        other => panic!("expected not found, got {other:?}"),
    }
    let err = store.update_task(scope, &task(&id), 1).await.unwrap_err();
    assert_eq!(err.to_string(), format!("task `{id}` does not exist"));
    // Whatever version is named.
    for version in [0, u64::MAX] {
        assert!(matches!(
            store.update_task(scope, &task(&id), version).await,
            Err(StoreError::NotFound { .. })
        ));
    }
    assert!(store.get_task(scope, &id).await.unwrap().is_none());
}

/// A write that logs `event`.
fn logging(event: &StreamResponse) -> WriteWith<'_> {
    WriteWith {
        event: Some(event),
        ..Default::default()
    }
}

/// A status event of `state` for task `id`: what the log is given.
fn status_event(id: &str, state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: id.to_owned(),
        context_id: "ctx".to_owned(),
        status: TaskStatus {
            state,
            ..Default::default()
        },
        ..Default::default()
    })
}

pub async fn logged_writes_keep_each_version_s_event_in_order(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("logged");
    let first = status_event(&id, TaskState::Submitted);
    assert_eq!(
        store
            .create_task_with(scope, &task(&id), logging(&first))
            .await
            .unwrap(),
        1
    );
    let states = [
        TaskState::Working,
        TaskState::InputRequired,
        TaskState::Working,
    ];
    for (i, state) in states.iter().enumerate() {
        let t = task_with(&id, "ctx", state.clone(), None);
        let v = store
            .update_task_with(
                scope,
                &t,
                i as u64 + 1,
                logging(&status_event(&id, state.clone())),
            )
            .await
            .unwrap();
        assert_eq!(v, i as u64 + 2);
    }
    // Refused writes log nothing: a stale version, an existing id, a terminal task.
    let stale = status_event(&id, TaskState::Failed);
    let t = task_with(&id, "ctx", TaskState::Failed, None);
    assert!(matches!(
        store.update_task_with(scope, &t, 1, logging(&stale)).await,
        Err(StoreError::Conflict { .. })
    ));
    assert!(matches!(
        store
            .create_task_with(scope, &task(&id), logging(&stale))
            .await,
        Err(StoreError::Conflict { .. })
    ));
    let done = status_event(&id, TaskState::Completed);
    let t = task_with(&id, "ctx", TaskState::Completed, None);
    assert_eq!(
        store
            .update_task_with(scope, &t, 4, logging(&done))
            .await
            .unwrap(),
        5
    );
    assert!(matches!(
        store.update_task_with(scope, &t, 5, logging(&stale)).await,
        Err(StoreError::Terminal { .. })
    ));
    let read = |after, limit| store.events_after(Some(&tenant), &id, after, limit);
    if !store.keeps_events() {
        assert_eq!(read(0, 100).await.unwrap(), vec![]);
        return;
    }
    let all = read(0, 100).await.unwrap();
    let versions: Vec<u64> = all.iter().map(|e| e.version).collect();
    assert_eq!(versions, [1, 2, 3, 4, 5]);
    let mut expected = vec![first];
    expected.extend(states.iter().map(|s| status_event(&id, s.clone())));
    expected.push(done);
    let events: Vec<StreamResponse> = all.into_iter().map(|e| e.event).collect();
    assert_eq!(events, expected);
    // From a version, and a page at a time.
    let tail: Vec<u64> = read(3, 100)
        .await
        .unwrap()
        .iter()
        .map(|e| e.version)
        .collect();
    assert_eq!(tail, [4, 5]);
    let page: Vec<u64> = read(1, 2)
        .await
        .unwrap()
        .iter()
        .map(|e| e.version)
        .collect();
    assert_eq!(page, [2, 3]);
    assert_eq!(read(5, 100).await.unwrap(), vec![]);
    assert_eq!(read(u64::MAX, 100).await.unwrap(), vec![]);
    // Another tenant's log is its own.
    let other = f.tenant("b");
    let theirs = store.events_after(Some(&other), &id, 0, 100).await.unwrap();
    assert_eq!(theirs, vec![]);
}

/// A write that logs `event` and queues it for the task's push configs.
fn notifying(event: &StreamResponse) -> WriteWith<'_> {
    WriteWith {
        event: Some(event),
        notify: true,
        ..Default::default()
    }
}

/// The ids of claimed configs, sorted.
fn claimed_ids(claimed: &[Delivery]) -> Vec<String> {
    let mut ids: Vec<String> = claimed.iter().map(|d| d.config_id.clone()).collect();
    ids.sort();
    ids
}

pub async fn the_outbox_queues_notified_events_per_config_for_one_holder_at_a_time(f: &Fixture) {
    let (tasks, configs) = (&*f.tasks, &*f.configs);
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let ttl = Duration::from_secs(30);
    if configs.outbox().is_none() {
        assert_eq!(tasks.outbox(), None);
        let which = Deliveries::Stale { older_than: ttl };
        assert!(configs
            .claim_deliveries("r1", ttl, which, 10)
            .await
            .unwrap()
            .is_empty());
        return;
    }
    assert_eq!(tasks.outbox(), configs.outbox(), "one store, one outbox");
    let id = f.id("outbox");
    let first = status_event(&id, TaskState::Submitted);
    tasks
        .create_task_with(scope, &task(&id), notifying(&first))
        .await
        .unwrap();
    for name in ["c1", "c2"] {
        let url = format!("https://hook.invalid/{name}");
        configs
            .set_push_config(scope, &id, config(Some(name), &url))
            .await
            .unwrap();
    }
    // Another task's config, which nothing here queues for.
    let other = f.id("outbox-other");
    tasks.create_task(scope, &task(&other)).await.unwrap();
    configs
        .set_push_config(scope, &other, config(Some("c3"), "https://hook.invalid/c3"))
        .await
        .unwrap();
    let events = [TaskState::Working, TaskState::InputRequired].map(|s| status_event(&id, s));
    for (version, event) in (1..).zip(&events) {
        let t = task_with(&id, "ctx", TaskState::Working, None);
        tasks
            .update_task_with(scope, &t, version, notifying(event))
            .await
            .unwrap();
    }
    // Logged but not queued.
    let t = task_with(&id, "ctx", TaskState::Working, None);
    let quiet = status_event(&id, TaskState::Working);
    tasks
        .update_task_with(scope, &t, 3, logging(&quiet))
        .await
        .unwrap();

    let this_task = Deliveries::Task {
        tenant: Some(&tenant),
        task_id: &id,
    };
    let claimed = configs
        .claim_deliveries("r1", ttl, this_task, 10)
        .await
        .unwrap();
    assert_eq!(claimed_ids(&claimed), ["c1", "c2"]);
    let c1 = claimed
        .iter()
        .find(|d| d.config_id == "c1")
        .unwrap()
        .clone();
    assert_eq!(
        (c1.tenant.as_str(), c1.task_id.as_str()),
        (tenant.as_str(), id.as_str())
    );
    assert_eq!(c1.config.url, "https://hook.invalid/c1");
    assert_eq!(c1.config.token.as_deref(), Some("secret"));
    // Held: no one else claims them, and the holder claims them again (a renewal).
    assert!(configs
        .claim_deliveries("r2", ttl, this_task, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        configs
            .claim_deliveries("r1", ttl, this_task, 10)
            .await
            .unwrap()
            .len(),
        2
    );
    let queued = configs.queued_notifications(&c1, 10).await.unwrap();
    let versions: Vec<u64> = queued.iter().map(|e| e.version).collect();
    assert_eq!(
        versions,
        [2, 3],
        "queued in order, the unqueued write left out"
    );
    assert_eq!(queued[0].event, events[0]);
    assert_eq!(configs.queued_notifications(&c1, 1).await.unwrap().len(), 1);
    configs.notification_sent(&c1, 2).await.unwrap();
    let versions: Vec<u64> = configs
        .queued_notifications(&c1, 10)
        .await
        .unwrap()
        .iter()
        .map(|e| e.version)
        .collect();
    assert_eq!(versions, [3]);
    // Only the holder gives a claim back.
    configs.release_delivery(&c1, "r2").await.unwrap();
    assert!(configs
        .claim_deliveries("r2", ttl, this_task, 10)
        .await
        .unwrap()
        .is_empty());
    configs.release_delivery(&c1, "r1").await.unwrap();
    let taken = configs
        .claim_deliveries("r2", ttl, this_task, 10)
        .await
        .unwrap();
    assert_eq!(claimed_ids(&taken), ["c1"]);
    // Claims that expire (r1's, renewed for a moment) are taken over by a sweep, once their
    // notifications waited long enough; a live one (r2's) is not.
    assert!(
        configs
            .renew_deliveries("r1", Some(Duration::from_millis(1)))
            .await
            .unwrap()
            >= 1
    );
    tokio::time::sleep(Duration::from_millis(60)).await;
    let stale = Deliveries::Stale {
        older_than: Duration::from_millis(50),
    };
    let swept = configs
        .claim_deliveries("r3", ttl, stale, 1000)
        .await
        .unwrap();
    let (ours, others): (Vec<Delivery>, Vec<Delivery>) =
        swept.into_iter().partition(|d| d.tenant == tenant);
    // Another test's (on a shared database) goes back at once.
    for d in &others {
        configs.release_delivery(d, "r3").await.unwrap();
    }
    assert_eq!(claimed_ids(&ours), ["c2"]);
    // A deleted config's notifications go with it.
    assert!(configs.delete_push_config(scope, &id, "c2").await.unwrap());
    assert!(configs
        .queued_notifications(&ours[0], 10)
        .await
        .unwrap()
        .is_empty());
    // Giving every claim back frees them for anyone.
    assert!(configs.renew_deliveries("r2", None).await.unwrap() >= 1);
    let again = configs
        .claim_deliveries("r4", ttl, this_task, 10)
        .await
        .unwrap();
    assert_eq!(claimed_ids(&again), ["c1"]);
}

pub async fn delete_task_takes_its_log_configs_and_queued_notifications_with_it(f: &Fixture) {
    let (tasks, configs) = (&*f.tasks, &*f.configs);
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("deleted");
    let first = status_event(&id, TaskState::Submitted);
    let mut with_artifacts = task(&id);
    with_artifacts.artifacts = vec![artifact("a", &["a1"]), artifact("b", &["b1"])];
    tasks
        .create_task_with(scope.owner("alice"), &with_artifacts, notifying(&first))
        .await
        .unwrap();
    configs
        .set_push_config(scope, &id, config(Some("c1"), "https://hook.invalid/"))
        .await
        .unwrap();
    let working = status_event(&id, TaskState::Working);
    let mut t = task_with(&id, "ctx", TaskState::Working, None);
    t.artifacts.clone_from(&with_artifacts.artifacts);
    tasks
        .update_task_with(scope, &t, 1, notifying(&working))
        .await
        .unwrap();
    let total = |scope| async move {
        let page = tasks.list_tasks(scope, &TaskQuery::default()).await;
        page.unwrap().total_size
    };
    assert_eq!(
        (total(scope).await, total(scope.owner("alice")).await),
        (1, 1)
    );
    // Another owner's task is not there to them; another tenant has none.
    assert!(!tasks.delete_task(scope.owner("bob"), &id).await.unwrap());
    assert!(!tasks
        .delete_task(Scope::tenant(Some(&f.tenant("b"))), &id)
        .await
        .unwrap());
    assert!(tasks.get_task(scope, &id).await.unwrap().is_some());
    assert_eq!(
        total(scope.owner("alice")).await,
        1,
        "a refused delete counts nothing"
    );
    assert!(tasks.delete_task(scope.owner("alice"), &id).await.unwrap());
    assert!(tasks.get_task(scope, &id).await.unwrap().is_none());
    assert_eq!(
        (total(scope).await, total(scope.owner("alice")).await),
        (0, 0)
    );
    assert!(tasks
        .events_after(Some(&tenant), &id, 0, 100)
        .await
        .unwrap()
        .is_empty());
    let left = configs
        .list_push_configs(scope, &id, None, None)
        .await
        .unwrap();
    assert!(left.configs.is_empty(), "{left:?}");
    let which = Deliveries::Task {
        tenant: Some(&tenant),
        task_id: &id,
    };
    let ttl = Duration::from_secs(30);
    assert!(configs
        .claim_deliveries("r1", ttl, which, 10)
        .await
        .unwrap()
        .is_empty());
    assert!(
        !tasks.delete_task(scope, &id).await.unwrap(),
        "deleted once"
    );
    // The id is free again, and the new task starts over.
    assert_eq!(
        tasks
            .create_task_with(scope, &task(&id), logging(&first))
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        (total(scope).await, total(scope.owner("alice")).await),
        (1, 0)
    );
    // Nothing of the deleted task comes back with the new one.
    let again = tasks.get_task(scope, &id).await.unwrap().unwrap();
    assert!(
        again.task.artifacts.is_empty(),
        "{:?}",
        again.task.artifacts
    );
    if tasks.keeps_events() {
        let log = tasks
            .events_after(Some(&tenant), &id, 0, 100)
            .await
            .unwrap();
        assert_eq!(log.iter().map(|e| e.version).collect::<Vec<_>>(), [1]);
    }
}

/// A time in the first hour of 1970: older than anything another test stores.
fn early(seconds: u32) -> String {
    format!("1970-01-01T00:{:02}:{:02}Z", seconds / 60, seconds % 60)
}

fn unix(seconds: i64) -> a2a_types::rt::UnixTime {
    a2a_types::rt::UnixTime { seconds, nanos: 0 }
}

pub async fn delete_ended_removes_terminal_tasks_updated_before_a_time_oldest_first(f: &Fixture) {
    let (tasks, configs) = (&*f.tasks, &*f.configs);
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let made = [
        ("a", TaskState::Completed, 1),
        ("b", TaskState::Failed, 2),
        ("c", TaskState::Working, 3),
        ("d", TaskState::Completed, 3000),
        ("e", TaskState::Canceled, 5),
    ];
    for (name, state, at) in &made {
        let t = task_with(&f.id(name), "ctx", state.clone(), Some(&early(*at)));
        tasks.create_task(scope, &t).await.unwrap();
        configs
            .set_push_config(scope, &t.id, config(Some("c1"), "https://hook.invalid/"))
            .await
            .unwrap();
    }
    let before = unix(60);
    // One at a time, oldest first (other runs' leftovers of 1970 may go first).
    let mut gone = Vec::new();
    for _ in 0..100 {
        if tasks.delete_ended(before, 1).await.unwrap() == 0 {
            break;
        }
        let left: Vec<&str> = ["a", "b", "e"]
            .into_iter()
            .filter(|n| !gone.contains(n))
            .collect();
        for name in left {
            if tasks.get_task(scope, &f.id(name)).await.unwrap().is_none() {
                gone.push(name);
            }
        }
    }
    assert_eq!(
        gone,
        ["a", "b", "e"],
        "the ended tasks before the time, oldest first"
    );
    for (name, present) in [("c", true), ("d", true), ("a", false)] {
        let id = f.id(name);
        assert_eq!(
            tasks.get_task(scope, &id).await.unwrap().is_some(),
            present,
            "{name}"
        );
        let configs = configs
            .list_push_configs(scope, &id, None, None)
            .await
            .unwrap();
        assert_eq!(
            configs.configs.len(),
            usize::from(present),
            "{name}'s configs"
        );
    }
    assert_eq!(tasks.delete_ended(before, 100).await.unwrap(), 0);
    let left = tasks
        .list_tasks(scope, &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!(
        (ids(&left).len(), left.total_size),
        (2, 2),
        "c and d, counted"
    );
}

pub async fn trim_ended_logs_keeps_the_last_event_and_those_still_to_be_sent(f: &Fixture) {
    let (tasks, configs) = (&*f.tasks, &*f.configs);
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    // Each task: four logged events, the second queued for a config; the last sets its state.
    let logged = |name: &str, state: TaskState, at: u32| {
        let id = f.id(name);
        async move {
            tasks
                .create_task_with(
                    scope,
                    &task(&id),
                    logging(&status_event(&id, TaskState::Submitted)),
                )
                .await
                .unwrap();
            configs
                .set_push_config(scope, &id, config(Some("c1"), "https://hook.invalid/"))
                .await
                .unwrap();
            let working = task_with(&id, "ctx", TaskState::Working, None);
            let event = status_event(&id, TaskState::Working);
            tasks
                .update_task_with(scope, &working, 1, notifying(&event))
                .await
                .unwrap();
            tasks
                .update_task_with(scope, &working, 2, logging(&event))
                .await
                .unwrap();
            let last = task_with(&id, "ctx", state.clone(), Some(&early(at)));
            let event = status_event(&id, state);
            tasks
                .update_task_with(scope, &last, 3, logging(&event))
                .await
                .unwrap();
            id
        }
    };
    let ended = logged("ended", TaskState::Completed, 10).await;
    let later = logged("later", TaskState::Completed, 120).await;
    let running = logged("running", TaskState::Working, 20).await;
    let trimmed = tasks.trim_ended_logs(unix(0), unix(60)).await.unwrap();
    let tenant = &tenant;
    let versions = |id: String| async move {
        let log = tasks.events_after(Some(tenant), &id, 0, 100).await.unwrap();
        log.iter().map(|e| e.version).collect::<Vec<u64>>()
    };
    if !tasks.keeps_events() {
        assert_eq!(trimmed, 0);
        return;
    }
    assert!(trimmed >= 2, "{trimmed}");
    assert_eq!(
        versions(ended).await,
        [2, 4],
        "the queued one and the last kept"
    );
    assert_eq!(
        versions(later).await,
        [1, 2, 3, 4],
        "ended after the window"
    );
    assert_eq!(versions(running).await, [1, 2, 3, 4], "not ended");
}

/// A write that holds the lease for `holder` for `ttl`.
fn holding(holder: &str, ttl: Duration) -> WriteWith<'_> {
    WriteWith {
        lease: Lease::Hold { holder, ttl },
        ..Default::default()
    }
}

pub async fn a_lease_lets_one_holder_write_until_it_expires(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let minute = Duration::from_secs(60);
    let id = f.id("leased");
    let working = task_with(&id, "ctx", TaskState::Working, None);
    store
        .create_task_with(scope, &working, holding("a", minute))
        .await
        .unwrap();
    if !store.keeps_leases() {
        // Leases are ignored: any write goes.
        store
            .update_task_with(scope, &working, 1, holding("b", minute))
            .await
            .unwrap();
        store
            .set_lease(scope, &id, Lease::Release { holder: "b" })
            .await
            .unwrap();
        assert_eq!(store.expired_leases(100).await.unwrap(), vec![]);
        return;
    }
    let hold_b = Lease::Hold {
        holder: "b",
        ttl: minute,
    };
    let leased = |r: Result<_, StoreError>, who: &str| match r {
        Err(StoreError::Leased { task_id, holder }) => {
            assert_eq!((task_id.as_str(), holder.as_str()), (id.as_str(), who))
        }
        other => panic!("expected Leased by {who}, got {other:?}"),
    };
    // Another holder is refused, in a write and alone; the holder writes.
    leased(
        store
            .update_task_with(scope, &working, 1, holding("b", minute))
            .await
            .map(drop),
        "a",
    );
    leased(store.set_lease(scope, &id, hold_b).await, "a");
    let release_b = Lease::Release { holder: "b" };
    let refused = WriteWith {
        lease: release_b,
        ..Default::default()
    };
    leased(
        store
            .update_task_with(scope, &working, 1, refused)
            .await
            .map(drop),
        "a",
    );
    // Giving back a lease one does not hold leaves it as it is.
    store.set_lease(scope, &id, release_b).await.unwrap();
    leased(store.set_lease(scope, &id, hold_b).await, "a");
    // A write that ignores leases is not checked (and changes nothing of the lease).
    assert_eq!(store.update_task(scope, &working, 1).await.unwrap(), 2);
    assert_eq!(
        store
            .update_task_with(scope, &working, 2, holding("a", minute))
            .await
            .unwrap(),
        3
    );
    // Given back by its holder, it is anyone's.
    let waiting = task_with(&id, "ctx", TaskState::InputRequired, None);
    let release_a = WriteWith {
        lease: Lease::Release { holder: "a" },
        ..Default::default()
    };
    assert_eq!(
        store
            .update_task_with(scope, &waiting, 3, release_a)
            .await
            .unwrap(),
        4
    );
    store
        .set_lease(
            scope,
            &id,
            Lease::Hold {
                holder: "b",
                ttl: minute,
            },
        )
        .await
        .unwrap();
    leased(
        store
            .set_lease(
                scope,
                &id,
                Lease::Hold {
                    holder: "a",
                    ttl: minute,
                },
            )
            .await,
        "b",
    );

    // An expired lease (by the database's clock) is anyone's, and listed until the task ends.
    let short = f.id("short");
    let running = task_with(&short, "ctx", TaskState::Working, None);
    let brief = Duration::from_millis(1);
    store
        .create_task_with(scope, &running, holding("a", brief))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let expired = |all: Vec<a2a_agent::store::ExpiredLease>| -> Vec<(String, u64, String)> {
        all.into_iter()
            .filter(|e| e.tenant == tenant)
            .map(|e| (e.stored.task.id, e.stored.version, e.holder))
            .collect()
    };
    assert_eq!(
        expired(store.expired_leases(1000).await.unwrap()),
        [(short.clone(), 1, "a".to_owned())]
    );
    assert_eq!(
        store
            .update_task_with(scope, &running, 1, holding("b", minute))
            .await
            .unwrap(),
        2
    );
    assert_eq!(expired(store.expired_leases(1000).await.unwrap()), []);
    // The heartbeat renews; a stopping holder's leases expire at once. A task that waits for
    // input is not listed (its execution settled it before it stopped).
    assert!(store.renew_leases("b", minute).await.unwrap() >= 2);
    assert!(store.release_leases("b").await.unwrap() >= 2);
    assert_eq!(
        expired(store.expired_leases(1000).await.unwrap()),
        [(short.clone(), 2, "b".to_owned())]
    );
    let resumed = task_with(&id, "ctx", TaskState::Working, None);
    assert_eq!(store.update_task(scope, &resumed, 4).await.unwrap(), 5);
    let mut both = expired(store.expired_leases(1000).await.unwrap());
    both.sort();
    let mut want = vec![
        (id.clone(), 5, "b".to_owned()),
        (short.clone(), 2, "b".to_owned()),
    ];
    want.sort();
    assert_eq!(both, want);
    // A task that ended is not listed, whatever its lease.
    let done = task_with(&short, "ctx", TaskState::Completed, None);
    store
        .update_task_with(scope, &done, 2, holding("c", minute))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    store.release_leases("c").await.unwrap();
    assert_eq!(
        expired(store.expired_leases(1000).await.unwrap()),
        [(id.clone(), 5, "b".to_owned())]
    );
}

pub async fn no_update_moves_a_task_out_of_a_terminal_state(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let terminal = [
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
        TaskState::Rejected,
    ];
    for state in terminal {
        let id = f.id(&format!("ended-{}", state.as_str()));
        store.create_task(scope, &task(&id)).await.unwrap();
        let ended = task_with(&id, "ctx", state.clone(), None);
        assert_eq!(store.update_task(scope, &ended, 1).await.unwrap(), 2);
        // The current version and a stale one alike: a late write of another execution.
        let late = task_with(&id, "late", TaskState::Completed, None);
        for version in [2, 1, u64::MAX] {
            match store.update_task(scope, &late, version).await {
                Err(StoreError::Terminal {
                    task_id,
                    state: stored,
                }) => assert_eq!(
                    (task_id.as_str(), stored.as_str()),
                    (id.as_str(), state.as_str())
                ),
                other => panic!(
                    "{}: expected Terminal at version {version}, got {other:?}",
                    state.as_str()
                ),
            }
        }
        let err = store.update_task(scope, &late, 2).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "task `{id}` is {}, a terminal state: it is not written again",
                state.as_str()
            )
        );
        let stored = store.get_task(scope, &id).await.unwrap().unwrap();
        assert_eq!((stored.task, stored.version), (ended, 2));
    }
    // A task created in a terminal state is final too; the interrupted states are not final.
    let id = f.id("born-rejected");
    store
        .create_task(scope, &task_with(&id, "ctx", TaskState::Rejected, None))
        .await
        .unwrap();
    assert!(matches!(
        store.update_task(scope, &task(&id), 1).await,
        Err(StoreError::Terminal { .. })
    ));
    for state in [
        TaskState::InputRequired,
        TaskState::AuthRequired,
        TaskState::Submitted,
    ] {
        let id = f.id(&format!("waiting-{}", state.as_str()));
        store
            .create_task(scope, &task_with(&id, "ctx", state, None))
            .await
            .unwrap();
        let resumed = task_with(&id, "ctx", TaskState::Working, None);
        assert_eq!(store.update_task(scope, &resumed, 1).await.unwrap(), 2);
    }
}

pub async fn tenants_are_isolated(f: &Fixture) {
    let store = &*f.tasks;
    let (a, b) = (f.tenant("a"), f.tenant("b"));
    let scope_b = Scope::tenant(Some(&b));
    let scope_a = Scope::tenant(Some(&a));
    let id = f.id("shared-id");
    let in_a = task_with(&id, "a", TaskState::Working, None);
    store.create_task(scope_a, &in_a).await.unwrap();

    assert!(store.get_task(scope_b, &id).await.unwrap().is_none());
    assert!(store
        .get_task(Scope::tenant(None), &id)
        .await
        .unwrap()
        .is_none());
    assert!(matches!(
        store.update_task(scope_b, &in_a, 1).await,
        Err(StoreError::NotFound { .. })
    ));
    let page = store
        .list_tasks(scope_b, &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!((page.tasks.len(), page.total_size), (0, 0));

    // The same id in another tenant is another task, with its own versions.
    let in_b = task_with(&id, "b", TaskState::InputRequired, None);
    assert_eq!(store.create_task(scope_b, &in_b).await.unwrap(), 1);
    store.update_task(scope_b, &in_b, 1).await.unwrap();
    let stored_a = store.get_task(scope_a, &id).await.unwrap().unwrap();
    let stored_b = store.get_task(scope_b, &id).await.unwrap().unwrap();
    assert_eq!((stored_a.task, stored_a.version), (in_a, 1));
    assert_eq!((stored_b.task, stored_b.version), (in_b, 2));
    let page = store
        .list_tasks(scope_a, &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!((ids(&page), page.total_size), (vec![id.clone()], 1));
}

pub async fn owners_are_isolated_in_the_query(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("owned");
    let every = Scope::tenant(Some(&tenant));
    let (alice, bob) = (every.owner("alice"), every.owner("bob"));
    let mine = task_with(&f.id("alice-1"), "c", TaskState::Working, None);
    store.create_task(alice, &mine).await.unwrap();
    for i in 0..3 {
        let theirs = task_with(&f.id(&format!("bob-{i}")), "c", TaskState::Working, None);
        store.create_task(bob, &theirs).await.unwrap();
    }

    // Another owner's task is not there for bob: not readable, not writable.
    assert!(store.get_task(bob, &mine.id).await.unwrap().is_none());
    assert!(matches!(
        store.update_task(bob, &mine, 1).await,
        Err(StoreError::NotFound { .. })
    ));
    let stored = store.get_task(alice, &mine.id).await.unwrap().unwrap();
    assert_eq!((stored.version, stored.owner.as_str()), (1, "alice"));
    // A scope without an owner sees it, and its owner.
    assert_eq!(
        store
            .get_task(every, &mine.id)
            .await
            .unwrap()
            .unwrap()
            .owner,
        "alice"
    );
    // An update keeps the owner, whoever's scope wrote it.
    assert_eq!(store.update_task(every, &mine, 1).await.unwrap(), 2);
    assert_eq!(
        store
            .get_task(alice, &mine.id)
            .await
            .unwrap()
            .unwrap()
            .owner,
        "alice"
    );
    // The same id, created by another, is a conflict (ids are the tenant's).
    assert!(matches!(
        store.create_task(bob, &mine).await,
        Err(StoreError::Conflict { .. })
    ));

    // Lists: the owner's rows only, counted alone, paged without another's.
    let query = TaskQuery {
        requested_page_size: Some(2),
        ..Default::default()
    };
    let (pages, total) = every_page(store, Some(&tenant), query.clone()).await;
    assert_eq!(
        (pages.len(), total),
        (2, 4),
        "every owner's four tasks, two pages"
    );
    let page = store.list_tasks(alice, &query).await.unwrap();
    assert_eq!((ids(&page), page.total_size), (vec![mine.id.clone()], 1));
    assert!(page.next_page_token.is_none());
    let mut seen = Vec::new();
    let mut token = None;
    loop {
        let query = TaskQuery {
            page_token: token.clone(),
            ..query.clone()
        };
        let page = store.list_tasks(bob, &query).await.unwrap();
        assert_eq!(page.total_size, 3);
        assert!(
            page.tasks.iter().all(|t| t.id.contains("bob-")),
            "{:?}",
            ids(&page)
        );
        seen.extend(ids(&page));
        match page.next_page_token {
            Some(next) => token = Some(next),
            None => break,
        }
    }
    assert_eq!(seen.len(), 3);
    let nobody = store
        .list_tasks(every.owner("carol"), &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!((nobody.tasks.len(), nobody.total_size), (0, 0));
}

pub async fn push_configs_are_scoped_by_owner(f: &Fixture) {
    let store = &*f.configs;
    let tenant = f.tenant("owned-configs");
    let every = Scope::tenant(Some(&tenant));
    let (alice, bob) = (every.owner("alice"), every.owner("bob"));
    let task_id = f.id("task");
    let config = |id: &str, url: &str| TaskPushNotificationConfig {
        id: Some(id.to_owned()),
        url: url.to_owned(),
        token: Some("secret".into()),
        ..Default::default()
    };
    store
        .set_push_config(alice, &task_id, config("a", "https://a.invalid/"))
        .await
        .unwrap();
    store
        .set_push_config(bob, &task_id, config("b", "https://b.invalid/"))
        .await
        .unwrap();

    assert!(store
        .get_push_config(bob, &task_id, "a")
        .await
        .unwrap()
        .is_none());
    assert!(store
        .get_push_config(alice, &task_id, "a")
        .await
        .unwrap()
        .is_some());
    let listed = |page: a2a_agent::store::PushConfigPage| {
        page.configs
            .into_iter()
            .map(|c| c.id.unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        listed(
            store
                .list_push_configs(bob, &task_id, None, None)
                .await
                .unwrap()
        ),
        ["b"]
    );
    assert_eq!(
        listed(
            store
                .list_push_configs(every, &task_id, None, None)
                .await
                .unwrap()
        ),
        ["a", "b"]
    );
    // Bob can neither delete nor overwrite alice's config.
    assert!(!store.delete_push_config(bob, &task_id, "a").await.unwrap());
    store
        .set_push_config(bob, &task_id, config("a", "https://evil.invalid/"))
        .await
        .unwrap();
    let kept = store
        .get_push_config(alice, &task_id, "a")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kept.url, "https://a.invalid/");
    assert!(store
        .delete_push_config(alice, &task_id, "a")
        .await
        .unwrap());
    assert!(store
        .get_push_config(every, &task_id, "a")
        .await
        .unwrap()
        .is_none());
}

pub async fn no_tenant_and_the_empty_tenant_are_the_same(f: &Fixture) {
    // The default tenant may hold other tests' tasks (a shared database): ids only.
    let store = &*f.tasks;
    let id = f.id("default");
    store
        .create_task(Scope::tenant(None), &task(&id))
        .await
        .unwrap();
    assert_eq!(
        store
            .get_task(Scope::tenant(Some("")), &id)
            .await
            .unwrap()
            .unwrap()
            .version,
        1
    );
    assert!(matches!(
        store.create_task(Scope::tenant(Some("")), &task(&id)).await,
        Err(StoreError::Conflict { .. })
    ));
    assert_eq!(
        store
            .update_task(Scope::tenant(Some("")), &task(&id), 1)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .get_task(Scope::tenant(None), &id)
            .await
            .unwrap()
            .unwrap()
            .version,
        2
    );
    assert!(store
        .get_task(Scope::tenant(Some(&f.tenant("a"))), &id)
        .await
        .unwrap()
        .is_none());
}

pub async fn list_filters_by_context_state_and_status_time(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    let rows = [
        ("1", "c1", TaskState::Working, Some("2024-01-01T00:00:00Z")),
        (
            "2",
            "c1",
            TaskState::Completed,
            Some("2024-01-02T00:00:00Z"),
        ),
        ("3", "c2", TaskState::Working, Some("2024-01-03T00:00:00Z")),
        // The same instant as 2024-01-02T00:00:00Z, written with an offset.
        (
            "4",
            "c2",
            TaskState::Working,
            Some("2024-01-02T01:00:00+01:00"),
        ),
        ("5", "c1", TaskState::Working, None),
        ("6", "c1", TaskState::Working, Some("not a timestamp")),
        (
            "7",
            "c2",
            TaskState::InputRequired,
            Some("2023-12-31T23:59:59.999999999Z"),
        ),
    ];
    for (n, ctx, state, ts) in &rows {
        store
            .create_task(
                Scope::tenant(t),
                &task_with(&f.id(n), ctx, state.clone(), *ts),
            )
            .await
            .unwrap();
    }
    let select = |query: TaskQuery| async move {
        let (pages, total) = every_page(store, t, query).await;
        let mut got: Vec<String> = pages.concat();
        got.sort();
        assert_eq!(
            got.len() as u64,
            total,
            "total_size counts the filtered set"
        );
        got
    };
    let want = |names: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|n| f.id(n)).collect();
        v.sort();
        v
    };
    let after = |s: &str| Some(Timestamp::new(s).parse().unwrap());

    assert_eq!(
        select(TaskQuery::default()).await,
        want(&["1", "2", "3", "4", "5", "6", "7"])
    );
    let by_context = TaskQuery {
        context_id: Some("c1".into()),
        ..Default::default()
    };
    assert_eq!(select(by_context).await, want(&["1", "2", "5", "6"]));
    let by_state = TaskQuery {
        state: Some(TaskState::Working),
        ..Default::default()
    };
    assert_eq!(select(by_state).await, want(&["1", "3", "4", "5", "6"]));
    // At or after: the boundary is included; instants compare, not strings; tasks without a
    // timestamp (or with one that does not parse) never match.
    let since = TaskQuery {
        status_timestamp_after: after("2024-01-02T00:00:00Z"),
        ..Default::default()
    };
    assert_eq!(select(since).await, want(&["2", "3", "4"]));
    let since_nanos = TaskQuery {
        status_timestamp_after: after("2023-12-31T23:59:59.999999999Z"),
        ..Default::default()
    };
    assert_eq!(select(since_nanos).await, want(&["1", "2", "3", "4", "7"]));
    let all_three = TaskQuery {
        context_id: Some("c2".into()),
        state: Some(TaskState::Working),
        status_timestamp_after: after("2024-01-02T00:00:00.000000001Z"),
        ..Default::default()
    };
    assert_eq!(select(all_three).await, want(&["3"]));
    let nothing = TaskQuery {
        context_id: Some("c3".into()),
        ..Default::default()
    };
    assert_eq!(select(nothing).await, want(&[]));
}

pub async fn list_orders_by_last_update_newest_first_ties_by_id(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    for (n, ts) in [
        ("old", Some("2020-01-01T00:00:00Z")),
        ("tie-a", Some("2022-01-01T00:00:00Z")),
        ("tie-c", Some("2022-01-01T00:00:00Z")),
        ("tie-b", Some("2022-01-01T00:00:00.000Z")),
        ("new", Some("2023-06-01T00:00:00.000000001Z")),
        ("undated", None),
    ] {
        store
            .create_task(
                Scope::tenant(t),
                &task_with(&f.id(n), "c", TaskState::Working, ts),
            )
            .await
            .unwrap();
    }
    let order = |page: TaskPage| -> Vec<String> {
        ids(&page)
            .into_iter()
            .map(|id| id[f.ns.len() + 1..].to_owned())
            .collect()
    };
    // A task without a status timestamp sorts by when it was written: now, the newest.
    let page = store
        .list_tasks(Scope::tenant(t), &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!(
        order(page),
        ["undated", "new", "tie-c", "tie-b", "tie-a", "old"]
    );
    // An update moves a task by its new status time.
    let moved = task_with(
        &f.id("old"),
        "c",
        TaskState::Working,
        Some("2030-01-01T00:00:00Z"),
    );
    store
        .update_task(Scope::tenant(t), &moved, 1)
        .await
        .unwrap();
    let page = store
        .list_tasks(Scope::tenant(t), &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!(
        order(page),
        ["old", "undated", "new", "tie-c", "tie-b", "tie-a"]
    );
}

pub async fn list_pages_cover_every_task_once_with_total_size(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    // 23 in context "p" (some sharing a timestamp, some without), 4 elsewhere.
    let mut expected = Vec::new();
    for i in 0..27 {
        let ts = match i % 3 {
            0 => None,
            1 => Some(format!("2024-01-01T00:00:{:02}Z", i / 2)),
            _ => Some("2024-01-01T00:00:00Z".to_owned()),
        };
        let ctx = if i < 23 { "p" } else { "q" };
        let id = f.id(&format!("{i:02}"));
        store
            .create_task(
                Scope::tenant(t),
                &task_with(&id, ctx, TaskState::Working, ts.as_deref()),
            )
            .await
            .unwrap();
        if i < 23 {
            expected.push(id);
        }
    }
    let query = TaskQuery {
        context_id: Some("p".into()),
        requested_page_size: Some(5),
        ..Default::default()
    };
    let (pages, total) = every_page(store, t, query.clone()).await;
    assert_eq!(total, 23);
    assert_eq!(
        pages.iter().map(Vec::len).collect::<Vec<_>>(),
        [5, 5, 5, 5, 3]
    );
    let flat: Vec<String> = pages.concat();
    let unique: BTreeSet<&String> = flat.iter().collect();
    assert_eq!(unique.len(), flat.len(), "a task on two pages: {pages:?}");
    expected.sort();
    let mut got = flat.clone();
    got.sort();
    assert_eq!(got, expected, "a task missing from every page");
    // The pages, joined, are the one-page list.
    let whole = store
        .list_tasks(
            Scope::tenant(t),
            &TaskQuery {
                requested_page_size: Some(100),
                ..query.clone()
            },
        )
        .await
        .unwrap();
    assert_eq!(ids(&whole), flat);
    assert_eq!(whole.next_page_token, None);
    // A page size that divides the set exactly ends without an empty page.
    let (pages, _) = every_page(
        store,
        t,
        TaskQuery {
            requested_page_size: Some(23),
            ..query
        },
    )
    .await;
    assert_eq!(pages.len(), 1);
}

pub async fn list_page_size_defaults_to_50_and_is_clamped_to_100(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    for i in 0..(MAX_PAGE_SIZE + 5) {
        store
            .create_task(Scope::tenant(t), &task(&f.id(&format!("{i:03}"))))
            .await
            .unwrap();
    }
    for (asked, used) in [
        (None, DEFAULT_PAGE_SIZE),
        (Some(0), DEFAULT_PAGE_SIZE),
        (Some(1), 1),
        (Some(MAX_PAGE_SIZE), MAX_PAGE_SIZE),
        (Some(MAX_PAGE_SIZE + 1), MAX_PAGE_SIZE),
        (Some(u32::MAX), MAX_PAGE_SIZE),
    ] {
        let query = TaskQuery {
            requested_page_size: asked,
            ..Default::default()
        };
        let page = store.list_tasks(Scope::tenant(t), &query).await.unwrap();
        assert_eq!(page.page_size, used, "asked {asked:?}");
        assert_eq!(page.tasks.len(), used as usize, "asked {asked:?}");
        assert_eq!(page.total_size, u64::from(MAX_PAGE_SIZE + 5));
        assert!(page.next_page_token.is_some());
    }
}

pub async fn list_rejects_a_malformed_page_token(f: &Fixture) {
    let store = &*f.tasks;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    for i in 0..3 {
        store
            .create_task(Scope::tenant(t), &task(&f.id(&i.to_string())))
            .await
            .unwrap();
    }
    let first = store
        .list_tasks(
            Scope::tenant(t),
            &TaskQuery {
                requested_page_size: Some(1),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let good = first.next_page_token.clone().unwrap();
    // A config list's token is no task list's token.
    let config_id = f.id("c");
    for i in 0..2 {
        f.configs
            .set_push_config(
                Scope::tenant(t),
                &f.id("x"),
                TaskPushNotificationConfig {
                    id: Some(format!("{config_id}{i}")),
                    url: "https://x.invalid/".into(),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
    }
    let config_token = f
        .configs
        .list_push_configs(Scope::tenant(t), &f.id("x"), Some(1), None)
        .await
        .unwrap()
        .next_page_token
        .unwrap();
    for bad in [
        "garbage".to_owned(),
        "zz".to_owned(),
        good[..good.len() - 1].to_owned(),
        good.to_uppercase(),
        format!("{good}0"),
        config_token,
    ] {
        let query = TaskQuery {
            page_token: Some(bad.clone()),
            ..Default::default()
        };
        match store.list_tasks(Scope::tenant(t), &query).await {
            Err(e @ StoreError::InvalidPageToken) => {
                assert!(e.to_string().starts_with("invalid page token"), "{e}")
            }
            other => panic!("token {bad:?}: expected InvalidPageToken, got {other:?}"),
        }
    }
    // An empty token is the first page.
    let query = TaskQuery {
        page_token: Some(String::new()),
        requested_page_size: Some(1),
        ..Default::default()
    };
    assert_eq!(
        ids(&store.list_tasks(Scope::tenant(t), &query).await.unwrap()),
        ids(&first)
    );
}

pub async fn list_of_a_tenant_without_tasks_is_empty(f: &Fixture) {
    let tenant = f.tenant("empty");
    let page = f
        .tasks
        .list_tasks(Scope::tenant(Some(&tenant)), &TaskQuery::default())
        .await
        .unwrap();
    assert_eq!(
        page,
        TaskPage {
            tasks: vec![],
            next_page_token: None,
            page_size: DEFAULT_PAGE_SIZE,
            total_size: 0
        }
    );
}

// ---------------------------------------------------------------------------------------------
// PushConfigStore

pub async fn push_configs_keep_the_version_they_were_set_in(f: &Fixture) {
    let (tasks, configs) = (&*f.tasks, &*f.configs);
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let id = f.id("versions");
    let first = status_event(&id, TaskState::Submitted);
    tasks
        .create_task_with(scope, &task(&id), logging(&first))
        .await
        .unwrap();
    let set = |name: &'static str, protocol| {
        let url = format!("https://hook.invalid/{name}");
        let id = id.clone();
        async move {
            configs
                .set_push_config_from(scope, &id, config(Some(name), &url), protocol)
                .await
                .unwrap()
        }
    };
    let old = set("c1", ProtocolVersion::V0_3).await;
    assert_eq!(
        old.id.as_deref(),
        Some("c1"),
        "stored as set_push_config stores it"
    );
    configs
        .set_push_config(scope, &id, config(Some("c2"), "https://hook.invalid/c2"))
        .await
        .unwrap();
    let targets = |limit| configs.push_targets(scope, &id, limit);
    let found: Vec<_> = targets(10)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.config.id.unwrap(), t.config.url, t.protocol))
        .collect();
    assert_eq!(
        found,
        [
            (
                "c1".into(),
                "https://hook.invalid/c1".into(),
                ProtocolVersion::V0_3
            ),
            (
                "c2".into(),
                "https://hook.invalid/c2".into(),
                ProtocolVersion::V1_0
            ),
        ]
    );
    assert_eq!(targets(1).await.unwrap().len(), 1, "at most the limit");
    // Set again: the version of the last call that set it.
    set("c1", ProtocolVersion::V1_0).await;
    set("c2", ProtocolVersion::V0_3).await;
    let versions: Vec<_> = targets(10)
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.protocol)
        .collect();
    assert_eq!(versions, [ProtocolVersion::V1_0, ProtocolVersion::V0_3]);
    // Another owner's scope sees none of them.
    let stranger = configs
        .push_targets(scope.owner("stranger"), &id, 10)
        .await
        .unwrap();
    assert!(stranger.is_empty(), "{stranger:?}");
    // A claimed config says its version too.
    if configs.outbox().is_some() {
        let t = task_with(&id, "ctx", TaskState::Working, None);
        let event = status_event(&id, TaskState::Working);
        tasks
            .update_task_with(scope, &t, 1, notifying(&event))
            .await
            .unwrap();
        let which = Deliveries::Task {
            tenant: Some(&tenant),
            task_id: &id,
        };
        let ttl = Duration::from_secs(30);
        let mut claimed = configs
            .claim_deliveries("r1", ttl, which, 10)
            .await
            .unwrap();
        claimed.sort_by(|a, b| a.config_id.cmp(&b.config_id));
        let versions: Vec<_> = claimed.iter().map(|d| d.protocol).collect();
        assert_eq!(versions, [ProtocolVersion::V1_0, ProtocolVersion::V0_3]);
    }
}

fn config(id: Option<&str>, url: &str) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig {
        id: id.map(str::to_owned),
        url: url.to_owned(),
        token: Some("secret".into()),
        authentication: Some(AuthenticationInfo {
            scheme: "Bearer".into(),
            credentials: Some("cred".into()),
        }),
        ..Default::default()
    }
}

pub async fn push_config_without_id_gets_a_fresh_uuid(f: &Fixture) {
    let store = &*f.configs;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let task_id = f.id("t");
    let mut seen = BTreeSet::new();
    for id in [None, Some(""), None] {
        let stored = store
            .set_push_config(scope, &task_id, config(id, "https://a.invalid/"))
            .await
            .unwrap();
        let id = stored.id.clone().unwrap();
        let uuid = uuid::Uuid::parse_str(&id).unwrap();
        assert_eq!(uuid.get_version_num(), 4, "{id}");
        assert!(seen.insert(id.clone()), "id {id} given twice");
        assert_eq!(
            store.get_push_config(scope, &task_id, &id).await.unwrap(),
            Some(stored)
        );
    }
    let page = store
        .list_push_configs(scope, &task_id, None, None)
        .await
        .unwrap();
    assert_eq!(page.configs.len(), 3);
}

pub async fn push_config_set_with_an_existing_id_replaces_it(f: &Fixture) {
    let store = &*f.configs;
    let tenant = f.tenant("a");
    let scope = Scope::tenant(Some(&tenant));
    let task_id = f.id("t");
    store
        .set_push_config(scope, &task_id, config(Some("c1"), "https://old.invalid/"))
        .await
        .unwrap();
    let mut newer = config(Some("c1"), "https://new.invalid/");
    newer.token = None;
    let stored = store.set_push_config(scope, &task_id, newer).await.unwrap();
    assert_eq!(stored.url, "https://new.invalid/");
    assert_eq!(stored.token, None);
    let got = store
        .get_push_config(scope, &task_id, "c1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got, stored);
    let page = store
        .list_push_configs(scope, &task_id, None, None)
        .await
        .unwrap();
    assert_eq!(page.configs, vec![stored]);
}

pub async fn push_config_is_stored_under_the_task_and_tenant_it_was_set_for(f: &Fixture) {
    let store = &*f.configs;
    let tenant = f.tenant("a");
    let task_id = f.id("t");
    let mut c = config(Some("c1"), "https://a.invalid/");
    c.task_id = Some("some-other-task".into());
    c.tenant = Some("some-other-tenant".into());
    let stored = store
        .set_push_config(Scope::tenant(Some(&tenant)), &task_id, c.clone())
        .await
        .unwrap();
    assert_eq!(stored.task_id.as_deref(), Some(task_id.as_str()));
    assert_eq!(stored.tenant.as_deref(), Some(tenant.as_str()));
    assert_eq!((&stored.url, &stored.token), (&c.url, &c.token));
    assert_eq!(stored.authentication, c.authentication);
    assert!(store
        .get_push_config(
            Scope::tenant(Some("some-other-tenant")),
            "some-other-task",
            "c1"
        )
        .await
        .unwrap()
        .is_none());
    // The default tenant is written as no tenant.
    let default_task = f.id("default-task");
    let stored = store
        .set_push_config(Scope::tenant(Some("")), &default_task, c)
        .await
        .unwrap();
    assert_eq!(stored.tenant, None);
    assert_eq!(
        store
            .get_push_config(Scope::tenant(None), &default_task, "c1")
            .await
            .unwrap(),
        Some(stored)
    );
    assert!(store
        .delete_push_config(Scope::tenant(None), &default_task, "c1")
        .await
        .unwrap());
}

pub async fn push_configs_are_scoped_by_tenant_and_task(f: &Fixture) {
    let store = &*f.configs;
    let (a, b) = (f.tenant("a"), f.tenant("b"));
    let scope_b = Scope::tenant(Some(&b));
    let scope_a = Scope::tenant(Some(&a));
    let (t1, t2) = (f.id("t1"), f.id("t2"));
    store
        .set_push_config(scope_a, &t1, config(Some("c"), "https://a1.invalid/"))
        .await
        .unwrap();
    assert!(store
        .get_push_config(scope_b, &t1, "c")
        .await
        .unwrap()
        .is_none());
    assert!(store
        .get_push_config(scope_a, &t2, "c")
        .await
        .unwrap()
        .is_none());
    assert!(store
        .get_push_config(Scope::tenant(None), &t1, "c")
        .await
        .unwrap()
        .is_none());
    assert!(store
        .list_push_configs(scope_b, &t1, None, None)
        .await
        .unwrap()
        .configs
        .is_empty());
    assert!(store
        .list_push_configs(scope_a, &t2, None, None)
        .await
        .unwrap()
        .configs
        .is_empty());
    assert!(!store.delete_push_config(scope_b, &t1, "c").await.unwrap());
    assert!(!store.delete_push_config(scope_a, &t2, "c").await.unwrap());
    // The same config id elsewhere is another config.
    store
        .set_push_config(scope_b, &t1, config(Some("c"), "https://b1.invalid/"))
        .await
        .unwrap();
    store
        .set_push_config(scope_a, &t2, config(Some("c"), "https://a2.invalid/"))
        .await
        .unwrap();
    let url = |tenant: &str, task: &str| {
        let (tenant, task) = (tenant.to_owned(), task.to_owned());
        async move {
            store
                .get_push_config(Scope::tenant(Some(&tenant)), &task, "c")
                .await
                .unwrap()
                .unwrap()
                .url
        }
    };
    assert_eq!(url(&a, &t1).await, "https://a1.invalid/");
    assert_eq!(url(&b, &t1).await, "https://b1.invalid/");
    assert_eq!(url(&a, &t2).await, "https://a2.invalid/");
}

pub async fn push_config_list_pages_by_id(f: &Fixture) {
    let store = &*f.configs;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    let task_id = f.id("t");
    let names = ["g", "b", "e", "a", "d", "c", "f"];
    for n in names {
        store
            .set_push_config(
                Scope::tenant(t),
                &task_id,
                config(Some(n), &format!("https://{n}.invalid/")),
            )
            .await
            .unwrap();
    }
    // Another task's configs are not listed.
    store
        .set_push_config(
            Scope::tenant(t),
            &f.id("other"),
            config(Some("0"), "https://0.invalid/"),
        )
        .await
        .unwrap();
    let mut pages = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let page = store
            .list_push_configs(Scope::tenant(t), &task_id, Some(3), token.as_deref())
            .await
            .unwrap();
        pages.push(
            page.configs
                .iter()
                .map(|c| c.id.clone().unwrap())
                .collect::<Vec<_>>()
                .join(""),
        );
        match page.next_page_token {
            Some(next) => token = Some(next),
            None => break,
        }
        assert!(pages.len() < 10, "paging does not end");
    }
    assert_eq!(pages, ["abc", "def", "g"]);
    // Defaults and clamps as a task list does.
    let page = store
        .list_push_configs(Scope::tenant(t), &task_id, Some(0), None)
        .await
        .unwrap();
    assert_eq!((page.configs.len(), page.next_page_token), (7, None));
    let page = store
        .list_push_configs(Scope::tenant(t), &task_id, Some(1_000), Some(""))
        .await
        .unwrap();
    assert_eq!(page.configs.len(), 7);
    // A task list's token, or garbage, is refused.
    let task_token = {
        for i in 0..2 {
            f.tasks
                .create_task(Scope::tenant(t), &task(&f.id(&format!("tt{i}"))))
                .await
                .unwrap();
        }
        let q = TaskQuery {
            requested_page_size: Some(1),
            ..Default::default()
        };
        f.tasks
            .list_tasks(Scope::tenant(t), &q)
            .await
            .unwrap()
            .next_page_token
            .unwrap()
    };
    for bad in [task_token.as_str(), "nope", "0"] {
        assert!(
            matches!(
                store
                    .list_push_configs(Scope::tenant(t), &task_id, Some(3), Some(bad))
                    .await,
                Err(StoreError::InvalidPageToken)
            ),
            "{bad}"
        );
    }
}

pub async fn push_config_delete_says_whether_there_was_one(f: &Fixture) {
    let store = &*f.configs;
    let tenant = f.tenant("a");
    let t = Some(tenant.as_str());
    let task_id = f.id("t");
    store
        .set_push_config(
            Scope::tenant(t),
            &task_id,
            config(Some("keep"), "https://k.invalid/"),
        )
        .await
        .unwrap();
    store
        .set_push_config(
            Scope::tenant(t),
            &task_id,
            config(Some("drop"), "https://d.invalid/"),
        )
        .await
        .unwrap();
    assert!(store
        .delete_push_config(Scope::tenant(t), &task_id, "drop")
        .await
        .unwrap());
    assert!(!store
        .delete_push_config(Scope::tenant(t), &task_id, "drop")
        .await
        .unwrap());
    assert!(!store
        .delete_push_config(Scope::tenant(t), &task_id, "never")
        .await
        .unwrap());
    assert!(store
        .get_push_config(Scope::tenant(t), &task_id, "drop")
        .await
        .unwrap()
        .is_none());
    let left = store
        .list_push_configs(Scope::tenant(t), &task_id, None, None)
        .await
        .unwrap();
    assert_eq!(
        left.configs
            .iter()
            .map(|c| c.id.as_deref().unwrap())
            .collect::<Vec<_>>(),
        ["keep"]
    );
    assert!(store
        .delete_push_config(Scope::tenant(t), &task_id, "keep")
        .await
        .unwrap());
    assert!(store
        .list_push_configs(Scope::tenant(t), &task_id, None, None)
        .await
        .unwrap()
        .configs
        .is_empty());
}

// ---------------------------------------------------------------------------------------------
// Concurrency

/// How many writers of [`append_concurrently`] retry at once.
///
/// Every writer's first attempt races all the others; a writer that conflicts then takes a
/// retry lane and retries until it succeeds, racing the other lanes. Unbounded immediate
/// retries would make 1,000 writers cost about 500,000 reads of an ever longer task, and a
/// randomized backoff spends most of its time asleep; lanes keep a 4-way race going for the
/// whole run at the store's full speed.
pub const RETRY_LANES: usize = 4;

static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What [`append_concurrently`] measured.
#[derive(Debug)]
pub struct AppendReport {
    pub elapsed: Duration,
    pub conflicts: u64,
}

/// `writers` tasks, all spawned at once, each appending one message to the history of one task
/// by read-modify-write, retrying on `Conflict` (in one of [`RETRY_LANES`]). Writer `i` uses
/// `stores[i % stores.len()]` (several stores on one database: replicas). Checks that the task
/// ends with every message exactly once and version `writers + 1`, within `limit`.
pub async fn append_concurrently(
    stores: &[Arc<dyn TaskStore>],
    tenant: &str,
    task_id: &str,
    writers: usize,
    limit: Duration,
) -> AppendReport {
    // One workload at a time per test binary: two at once on a small machine would measure
    // each other.
    let _alone = HEAVY.lock().await;
    stores[0]
        .create_task(Scope::tenant(Some(tenant)), &task(task_id))
        .await
        .unwrap();
    let conflicts = Arc::new(AtomicU64::new(0));
    let lanes = Arc::new(tokio::sync::Semaphore::new(RETRY_LANES));
    let started = Instant::now();
    let handles: Vec<_> = (0..writers)
        .map(|i| {
            let store = stores[i % stores.len()].clone();
            let (tenant, task_id) = (tenant.to_owned(), task_id.to_owned());
            let (conflicts, lanes) = (conflicts.clone(), lanes.clone());
            tokio::spawn(async move {
                let scope = Scope::tenant(Some(&tenant));
                let mut lane = None;
                loop {
                    let current = store.get_task(scope, &task_id).await.unwrap().unwrap();
                    let mut next = current.task;
                    next.history.push(message(&format!("m-{i}")));
                    // Let the other writers read the same version before this one writes.
                    tokio::task::yield_now().await;
                    match store.update_task(scope, &next, current.version).await {
                        Ok(_) => return,
                        Err(StoreError::Conflict { .. }) => {
                            conflicts.fetch_add(1, Ordering::Relaxed);
                            if lane.is_none() {
                                lane = Some(lanes.clone().acquire_owned().await.unwrap());
                            }
                        }
                        Err(e) => panic!("writer {i}: {e}"),
                    }
                }
            })
        })
        .collect();
    let all = async {
        for h in handles {
            h.await.unwrap();
        }
    };
    tokio::time::timeout(limit, all)
        .await
        .unwrap_or_else(|_| panic!("{writers} appends did not finish within {limit:?}"));
    let elapsed = started.elapsed();

    let stored = stores[0]
        .get_task(Scope::tenant(Some(tenant)), task_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.task.history.len(), writers, "an append was lost");
    let got: BTreeSet<String> = stored
        .task
        .history
        .iter()
        .map(|m| m.message_id.clone())
        .collect();
    let want: BTreeSet<String> = (0..writers).map(|i| format!("m-{i}")).collect();
    assert_eq!(got, want, "an append was lost or made twice");
    assert_eq!(stored.version, writers as u64 + 1);
    let conflicts = conflicts.load(Ordering::Relaxed);
    assert!(
        conflicts > 0,
        "no writer ever conflicted: the test did not race"
    );
    let report = AppendReport { elapsed, conflicts };
    // The test's name: `#[tokio::test]` runs its body on the test's own thread.
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    println!("{test}: {writers} concurrent appends: {report:?}");
    report
}
