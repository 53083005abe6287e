//! The conformance suite and the concurrency test on `SqliteStore`, on real files in a
//! temporary directory; and what a file keeps across opens.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::{PushConfigStore, Scope, SqliteStore, StoreError, TaskQuery, TaskStore};
use a2a_types::v1::TaskPushNotificationConfig;
use common::Fixture;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::ConnectOptions;

async fn fixture() -> Option<Fixture> {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("store.db"))
        .await
        .unwrap();
    let mut fixture = Fixture::new(store);
    fixture._guard = Some(Box::new(dir));
    Some(fixture)
}

conformance_tests!(fixture);

/// `(version, description, applied_at)` of every recorded migration, read with a connection of
/// the test's own.
async fn migrations_recorded(path: &std::path::Path) -> Vec<(i64, String, String)> {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .connect()
        .await
        .unwrap();
    sqlx::query_as(
        "SELECT version, description, applied_at FROM a2a_schema_version ORDER BY version",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_creates_the_file_and_records_the_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    assert!(!path.exists());
    let store = SqliteStore::open(&path).await.unwrap();
    assert!(path.exists());
    assert_eq!(
        store.schema_version().await.unwrap(),
        SqliteStore::SCHEMA_VERSION
    );
    store.close().await;
    let recorded = migrations_recorded(&path).await;
    assert_eq!(recorded.len(), SqliteStore::SCHEMA_VERSION as usize);
    assert_eq!(recorded[0].0, 1);
    assert_eq!(recorded[0].1, "tasks and push configs");
    a2a_types::rt::Timestamp::new(recorded[0].2.clone())
        .parse()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_of_an_existing_file_applies_no_migration_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("again.db");
    SqliteStore::open(&path).await.unwrap().close().await;
    let before = migrations_recorded(&path).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    // Migration 1 is a plain CREATE TABLE: applied twice, this open would fail.
    let store = SqliteStore::open(&path).await.unwrap();
    assert_eq!(
        store.schema_version().await.unwrap(),
        SqliteStore::SCHEMA_VERSION
    );
    store.close().await;
    assert_eq!(migrations_recorded(&path).await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopened_file_keeps_tasks_and_configs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("keep.db");
    let task = common::task("kept");
    {
        let store = SqliteStore::open(&path).await.unwrap();
        store
            .create_task(Scope::tenant(Some("acme")), &task)
            .await
            .unwrap();
        let mut next = task.clone();
        next.history.push(common::message("m"));
        store
            .update_task(Scope::tenant(Some("acme")), &next, 1)
            .await
            .unwrap();
        let config = TaskPushNotificationConfig {
            id: Some("c".into()),
            url: "https://hook.invalid/".into(),
            ..Default::default()
        };
        store
            .set_push_config(Scope::tenant(Some("acme")), "kept", config)
            .await
            .unwrap();
        // Dropped without close: what was committed is in the file.
    }
    let store = SqliteStore::open(&path).await.unwrap();
    let stored = store
        .get_task(Scope::tenant(Some("acme")), "kept")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.version, 2);
    assert_eq!(stored.task.history.len(), 1);
    let config = store
        .get_push_config(Scope::tenant(Some("acme")), "kept", "c")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(config.url, "https://hook.invalid/");
    assert_eq!(
        store.schema_version().await.unwrap(),
        SqliteStore::SCHEMA_VERSION
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_with_a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("newer.db");
    SqliteStore::open(&path).await.unwrap().close().await;
    let mut conn = SqliteConnectOptions::new()
        .filename(&path)
        .connect()
        .await
        .unwrap();
    sqlx::query("INSERT INTO a2a_schema_version VALUES (99, 'from the future', '')")
        .execute(&mut conn)
        .await
        .unwrap();
    drop(conn);
    let err = SqliteStore::open(&path).await.unwrap_err();
    assert!(matches!(err, StoreError::Backend(_)), "{err:?}");
    assert!(
        err.to_string().contains(&format!(
            "schema version 99, newer than the {}",
            SqliteStore::SCHEMA_VERSION
        )),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_of_a_path_in_a_missing_directory_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("x.db");
    let err = SqliteStore::open(&path).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("store backend failed: SQLite: open `"),
        "{text}"
    );
    assert!(text.contains("no-such-dir"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_appends_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn TaskStore> =
        Arc::new(SqliteStore::open(dir.path().join("race.db")).await.unwrap());
    common::append_concurrently(&[store], "t", "appends", 1_000, Duration::from_secs(180)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_on_one_file_lose_no_update() {
    // Two opens of one file, as two processes on one host would have.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.db");
    let a: Arc<dyn TaskStore> = Arc::new(SqliteStore::open(&path).await.unwrap());
    let b: Arc<dyn TaskStore> = Arc::new(SqliteStore::open(&path).await.unwrap());
    common::append_concurrently(&[a, b], "t", "appends", 300, Duration::from_secs(120)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_of_schema_1_gains_owners_and_its_rows_are_the_anonymous_callers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    {
        // The file as a2a-agent with schema 1 left it: the tables, one task, one config.
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
        for statement in [
            "CREATE TABLE a2a_schema_version (version BIGINT PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)",
            "INSERT INTO a2a_schema_version VALUES (1, 'tasks and push configs', '2026-12-01T00:00:00Z')",
            "CREATE TABLE a2a_tasks (tenant TEXT NOT NULL, id TEXT NOT NULL, context_id TEXT, state TEXT NOT NULL, status_s INTEGER, status_n INTEGER, sort_s INTEGER NOT NULL, sort_n INTEGER NOT NULL, version INTEGER NOT NULL, task TEXT NOT NULL, PRIMARY KEY (tenant, id))",
            "INSERT INTO a2a_tasks VALUES ('', 'old', NULL, 'TASK_STATE_WORKING', NULL, NULL, 1, 0, 3, '{\"id\":\"old\",\"contextId\":\"\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}')",
            "INSERT INTO a2a_tasks VALUES ('', 'talked', NULL, 'TASK_STATE_INPUT_REQUIRED', NULL, NULL, 1, 0, 5, '{\"id\":\"talked\",\"status\":{\"state\":\"TASK_STATE_INPUT_REQUIRED\"},\"artifacts\":[{\"artifactId\":\"r\",\"parts\":[{\"text\":\"r1\"}]},{\"artifactId\":\"s\",\"parts\":[{\"text\":\"s1 \\u0000\"}]}],\"history\":[{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]},{\"messageId\":\"m2\",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":\"é \\u0000\"}]}]}')",
            "CREATE TABLE a2a_push_configs (tenant TEXT NOT NULL, task_id TEXT NOT NULL, id TEXT NOT NULL, config TEXT NOT NULL, PRIMARY KEY (tenant, task_id, id))",
            "INSERT INTO a2a_push_configs VALUES ('', 'old', 'c', '{\"id\":\"c\",\"taskId\":\"old\",\"url\":\"https://hook.invalid/\"}')",
        ] {
            sqlx::query(statement).execute(&pool).await.unwrap();
        }
        pool.close().await;
    }
    let store = SqliteStore::open(&path).await.unwrap();
    assert_eq!(
        store.schema_version().await.unwrap(),
        SqliteStore::SCHEMA_VERSION
    );
    let anonymous = Scope::tenant(None).owner("");
    let stored = store.get_task(anonymous, "old").await.unwrap().unwrap();
    assert_eq!((stored.version, stored.owner.as_str()), (3, ""));
    assert!(store
        .get_task(Scope::tenant(None).owner("alice"), "old")
        .await
        .unwrap()
        .is_none());
    assert!(store
        .get_push_config(anonymous, "old", "c")
        .await
        .unwrap()
        .is_some());
    assert!(store
        .get_push_config(Scope::tenant(None).owner("alice"), "old", "c")
        .await
        .unwrap()
        .is_none());
    // A history kept in the task's JSON before schema 7 moved to rows of its own, in order.
    let talked = store.get_task(anonymous, "talked").await.unwrap().unwrap();
    let texts: Vec<_> = talked
        .task
        .history
        .iter()
        .map(|m| (m.message_id.as_str(), format!("{:?}", m.parts[0].content)))
        .collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert_eq!((texts[0].0, texts[1].0), ("m1", "m2"));
    assert!(texts[1].1.contains("é \\0"), "{texts:?}");
    let recent = store.get_task_recent(anonymous, "talked", 1).await.unwrap();
    assert_eq!(recent.unwrap().task.history[0].message_id, "m2");
    // Its artifacts, kept in its JSON before schema 9, moved to rows of their own, in order.
    let artifacts: Vec<_> = talked
        .task
        .artifacts
        .iter()
        .map(|a| (a.artifact_id.as_str(), format!("{:?}", a.parts[0].content)))
        .collect();
    assert_eq!(artifacts.len(), 2, "{artifacts:?}");
    assert_eq!((artifacts[0].0, artifacts[1].0), ("r", "s"));
    assert!(artifacts[1].1.contains("s1 \\0"), "{artifacts:?}");
    // The tasks stored before schema 8 were counted when it came: a list's total_size is
    // their number, and goes on from there.
    let total = |scope| {
        let store = &store;
        async move {
            store
                .list_tasks(scope, &TaskQuery::default())
                .await
                .unwrap()
                .total_size
        }
    };
    assert_eq!(
        (total(anonymous).await, total(Scope::tenant(None)).await),
        (2, 2)
    );
    store
        .create_task(anonymous, &common::task("new"))
        .await
        .unwrap();
    assert!(store.delete_task(anonymous, "old").await.unwrap());
    assert_eq!(total(Scope::tenant(None).owner("alice")).await, 0);
    assert_eq!(total(anonymous).await, 2);
    drop(store);
    let pool =
        sqlx::SqlitePool::connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path))
            .await
            .unwrap();
    let (json, len): (String, i64) =
        sqlx::query_as("SELECT task, history_len FROM a2a_tasks WHERE id = 'talked'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(
        !json.contains("history") && !json.contains("artifacts"),
        "{json}"
    );
    assert_eq!(len, 2);
}
