//! The conformance suite and the concurrency test on `MemoryStore`, and its cap on tasks.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::{MemoryStore, PushConfigStore, Scope, StoreError, TaskQuery, TaskStore};
use a2a_types::rt::Timestamp;
use a2a_types::v1::{Task, TaskPushNotificationConfig, TaskState, TaskStatus};
use common::Fixture;

async fn fixture() -> Option<Fixture> {
    Some(Fixture::new(MemoryStore::new()))
}

conformance_tests!(fixture);

/// The suite again on a store with a cap it never reaches: the eviction order kept on every
/// write changes nothing else.
mod capped {
    use super::common;
    use super::*;

    async fn fixture() -> Option<Fixture> {
        Some(Fixture::new(MemoryStore::with_max_tasks(1_000_000)))
    }

    crate::conformance_tests!(fixture);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_appends_lose_no_update() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::new());
    common::append_concurrently(&[store], "t", "appends", 1_000, Duration::from_secs(60)).await;
}

// ---------------------------------------------------------------------------------------------
// The cap

/// A task in `state`, last updated at second `second` of 2024.
fn task(id: &str, state: TaskState, second: u32) -> Task {
    Task {
        id: id.to_owned(),
        context_id: Some("ctx".to_owned()),
        status: TaskStatus {
            state,
            message: None,
            timestamp: Some(Timestamp::new(format!("2024-01-01T00:00:{second:02}Z"))),
        },
        ..Default::default()
    }
}

fn config(id: &str) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig {
        id: Some(id.to_owned()),
        url: "https://hooks.invalid/".to_owned(),
        ..Default::default()
    }
}

/// The ids of every task the scope lists, newest first, and the list's `total_size`.
async fn listed(store: &MemoryStore, scope: Scope<'_>) -> (Vec<String>, u64) {
    let query = TaskQuery {
        requested_page_size: Some(100),
        ..Default::default()
    };
    let page = store.list_tasks(scope, &query).await.unwrap();
    assert!(page.next_page_token.is_none());
    let ids = page.tasks.into_iter().map(|t| t.id).collect();
    (ids, page.total_size)
}

#[tokio::test]
async fn at_the_cap_the_terminal_task_updated_longest_ago_is_evicted_first() {
    let store = MemoryStore::with_max_tasks(4);
    let s = Scope::default();
    // "submitted" is the oldest, but not terminal; "done-late" was created first but completed
    // last, so it goes after "failed" and "canceled".
    store
        .create_task(s, &task("done-late", TaskState::Working, 1))
        .await
        .unwrap();
    store
        .create_task(s, &task("submitted", TaskState::Submitted, 0))
        .await
        .unwrap();
    store
        .create_task(s, &task("failed", TaskState::Failed, 2))
        .await
        .unwrap();
    store
        .create_task(s, &task("canceled", TaskState::Canceled, 3))
        .await
        .unwrap();
    store
        .update_task(s, &task("done-late", TaskState::Completed, 9), 1)
        .await
        .unwrap();

    let mut expected_gone = Vec::new();
    for (new, evicted) in [("n1", "failed"), ("n2", "canceled"), ("n3", "done-late")] {
        store
            .create_task(s, &task(new, TaskState::Working, 30))
            .await
            .unwrap();
        expected_gone.push(evicted);
        for gone in &expected_gone {
            assert!(
                store.get_task(s, gone).await.unwrap().is_none(),
                "{gone} is still there after {new}"
            );
        }
        assert_eq!(listed(&store, s).await.1, 4);
    }
    // Only tasks that are not terminal are left, the oldest of them included.
    let (mut ids, _) = listed(&store, s).await;
    ids.sort();
    assert_eq!(ids, ["n1", "n2", "n3", "submitted"]);
    // An evicted id is free again.
    store
        .update_task(s, &task("n1", TaskState::Rejected, 31), 1)
        .await
        .unwrap();
    store
        .create_task(s, &task("failed", TaskState::Working, 32))
        .await
        .unwrap();
    assert_eq!(
        store.get_task(s, "failed").await.unwrap().unwrap().version,
        1
    );
    assert!(store.get_task(s, "n1").await.unwrap().is_none());
}

#[tokio::test]
async fn a_store_full_of_tasks_that_are_not_terminal_refuses_a_create() {
    let store = MemoryStore::with_max_tasks(2);
    let s = Scope::default();
    store
        .create_task(s, &task("a", TaskState::Working, 0))
        .await
        .unwrap();
    store
        .create_task(s, &task("b", TaskState::InputRequired, 1))
        .await
        .unwrap();

    let err = store
        .create_task(s, &task("c", TaskState::Submitted, 2))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Full { max_tasks: 2 }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with("the task store is full: it holds 2 tasks")
            && message.contains("none of them is terminal")
            && message.contains("raise the cap"),
        "{message}"
    );
    // Nothing was written, nothing evicted.
    assert!(store.get_task(s, "c").await.unwrap().is_none());
    assert_eq!(listed(&store, s).await, (vec!["b".into(), "a".into()], 2));
    // A create of an id that exists is a conflict first, full or not.
    assert!(matches!(
        store
            .create_task(s, &task("a", TaskState::Working, 3))
            .await,
        Err(StoreError::Conflict { .. })
    ));
    // Updates still work at the cap; once a task ends, it makes room.
    store
        .update_task(s, &task("a", TaskState::Completed, 4), 1)
        .await
        .unwrap();
    store
        .create_task(s, &task("c", TaskState::Submitted, 5))
        .await
        .unwrap();
    assert!(store.get_task(s, "a").await.unwrap().is_none());
}

#[tokio::test]
async fn an_evicted_task_takes_its_push_configs_with_it() {
    let store = MemoryStore::with_max_tasks(2);
    let (s, alice) = (Scope::default(), Scope::default().owner("alice"));
    store
        .create_task(s, &task("old", TaskState::Completed, 0))
        .await
        .unwrap();
    store
        .create_task(s, &task("kept", TaskState::Completed, 1))
        .await
        .unwrap();
    for (scope, task_id, id) in [(s, "old", "c1"), (alice, "old", "c2"), (s, "kept", "c3")] {
        store
            .set_push_config(scope, task_id, config(id))
            .await
            .unwrap();
    }

    store
        .create_task(s, &task("new", TaskState::Working, 2))
        .await
        .unwrap();
    // Every config of the evicted task, whoever set it, and only those.
    let old = store.list_push_configs(s, "old", None, None).await.unwrap();
    assert!(old.configs.is_empty(), "{:?}", old.configs);
    assert!(store
        .get_push_config(alice, "old", "c2")
        .await
        .unwrap()
        .is_none());
    let kept = store
        .list_push_configs(s, "kept", None, None)
        .await
        .unwrap();
    assert_eq!(kept.configs.len(), 1);
}

#[tokio::test]
async fn the_cap_counts_every_tenant_and_owner_and_evicts_across_them() {
    let store = MemoryStore::with_max_tasks(3);
    let acme = Scope::tenant(Some("acme"));
    let globex = Scope::tenant(Some("globex")).owner("bob");
    store
        .create_task(acme.owner("alice"), &task("a", TaskState::Completed, 0))
        .await
        .unwrap();
    store
        .create_task(globex, &task("b", TaskState::Failed, 1))
        .await
        .unwrap();
    store
        .create_task(acme, &task("c", TaskState::Working, 2))
        .await
        .unwrap();

    // Another tenant's and another owner's terminal task makes room: the cap is the store's.
    store
        .create_task(globex, &task("d", TaskState::Working, 3))
        .await
        .unwrap();
    assert!(store.get_task(acme, "a").await.unwrap().is_none());
    assert_eq!(listed(&store, acme.owner("alice")).await, (vec![], 0));
    assert_eq!(listed(&store, acme).await, (vec!["c".into()], 1));
    store
        .create_task(acme, &task("e", TaskState::Working, 4))
        .await
        .unwrap();
    assert_eq!(listed(&store, globex).await, (vec!["d".into()], 1));
    assert!(matches!(
        store
            .create_task(Scope::default(), &task("f", TaskState::Working, 5))
            .await,
        Err(StoreError::Full { max_tasks: 3 })
    ));
}

#[tokio::test]
async fn a_cap_of_zero_refuses_every_create() {
    let store = MemoryStore::with_max_tasks(0);
    assert!(matches!(
        store
            .create_task(Scope::default(), &task("a", TaskState::Completed, 0))
            .await,
        Err(StoreError::Full { max_tasks: 0 })
    ));
}
