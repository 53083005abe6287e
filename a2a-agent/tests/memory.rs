//! The conformance suite and the concurrency test on `MemoryStore`.

mod common;

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::{MemoryStore, TaskStore};
use common::Fixture;

async fn fixture() -> Option<Fixture> {
    Some(Fixture::new(MemoryStore::new()))
}

conformance_tests!(fixture);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_appends_lose_no_update() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::new());
    common::append_concurrently(&[store], "t", "appends", 1_000, Duration::from_secs(60)).await;
}
