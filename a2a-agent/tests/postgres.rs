//! The conformance suite and the concurrency tests on `PostgresStore`, against the database at
//! `A2A_TEST_POSTGRES_URL` (start one with `a2a-agent/tests/start-postgres.sh`). Without it the
//! tests print a skip line and pass, except under `CI`, where they fail.
//!
//! Every test works in tenants of its own (a fresh UUID), so they share the database, run in
//! parallel, and can run again on the same database.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::{PostgresStore, TaskStore};
use common::Fixture;

fn url() -> Option<String> {
    common::postgres_url()
}

async fn fixture() -> Option<Fixture> {
    let url = url()?;
    Some(Fixture::new(PostgresStore::connect(&url).await.unwrap()))
}

conformance_tests!(fixture);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_records_the_schema_version_once() {
    let Some(url) = url() else { return };
    let a = PostgresStore::connect(&url).await.unwrap();
    let b = PostgresStore::connect(&url).await.unwrap();
    assert_eq!(
        a.schema_version().await.unwrap(),
        PostgresStore::SCHEMA_VERSION
    );
    assert_eq!(
        b.schema_version().await.unwrap(),
        PostgresStore::SCHEMA_VERSION
    );
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT version, description FROM a2a_schema_version ORDER BY version")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(
        rows,
        [
            (1, "tasks and push configs".to_owned()),
            (2, "owners of tasks and push configs".to_owned()),
            (3, "task event logs and execution leases".to_owned()),
            (4, "push outbox".to_owned()),
            (5, "an index of ended tasks".to_owned()),
            (6, "task histories a row per message".to_owned()),
            (7, "kept counts of tasks".to_owned()),
            (8, "task artifacts a row per chunk".to_owned()),
            (9, "the A2A version push configs were set in".to_owned()),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_connecting_at_once_migrate_once() {
    let Some(url) = url() else { return };
    // Several first connects racing (on a migrated database they all find the schema done;
    // on a new one the advisory lock makes them take turns): none fails.
    let connects: Vec<_> = (0..4)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { PostgresStore::connect(&url).await.map(|_| ()) })
        })
        .collect();
    for c in connects {
        c.await.unwrap().unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_appends_lose_no_update() {
    let Some(url) = url() else { return };
    let store: Arc<dyn TaskStore> = Arc::new(PostgresStore::connect(&url).await.unwrap());
    let tenant = uuid::Uuid::new_v4().to_string();
    common::append_concurrently(
        &[store],
        &tenant,
        "appends",
        1_000,
        Duration::from_secs(180),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pools_like_two_replicas_lose_no_update() {
    let Some(url) = url() else { return };
    let a: Arc<dyn TaskStore> = Arc::new(PostgresStore::connect(&url).await.unwrap());
    let b: Arc<dyn TaskStore> = Arc::new(PostgresStore::connect(&url).await.unwrap());
    let tenant = uuid::Uuid::new_v4().to_string();
    common::append_concurrently(&[a, b], &tenant, "appends", 1_000, Duration::from_secs(180)).await;
}
