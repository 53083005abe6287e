//! `TaskQuery::from_request`: what a ListTasks request selects, and which requests are refused.

use a2a_agent::store::{TaskQuery, MAX_PAGE_SIZE};
use a2a_types::rt::Timestamp;
use a2a_types::v1::{ListTasksRequest, TaskState};

fn query(request: ListTasksRequest) -> TaskQuery {
    TaskQuery::from_request(&request).unwrap()
}

/// A query of every task, read without artifacts (`includeArtifacts` is false unless sent).
fn no_filter() -> TaskQuery {
    TaskQuery {
        omit_artifacts: true,
        ..TaskQuery::default()
    }
}

#[test]
fn a_request_without_filters_selects_everything_at_the_default_page_size() {
    let q = query(ListTasksRequest::default());
    assert_eq!(q, no_filter());
    assert_eq!(q.page_size(), 50);
}

#[test]
fn filters_are_carried_over() {
    let q = query(ListTasksRequest {
        tenant: Some("acme".into()),
        context_id: Some("ctx".into()),
        status: Some(TaskState::InputRequired),
        page_size: Some(7),
        page_token: Some("abcd".into()),
        history_length: Some(3),
        status_timestamp_after: Some(Timestamp::new("2024-01-01T01:00:00+01:00")),
        include_artifacts: Some(true),
    });
    assert_eq!(q.context_id.as_deref(), Some("ctx"));
    assert_eq!(q.state, Some(TaskState::InputRequired));
    assert_eq!(q.requested_page_size, Some(7));
    assert_eq!(q.page_size(), 7);
    assert_eq!(q.page_token.as_deref(), Some("abcd"));
    assert_eq!((q.history_length, q.omit_artifacts), (Some(3), false));
    let t = q.status_timestamp_after.unwrap();
    assert_eq!((t.seconds, t.nanos), (1_704_067_200, 0));
}

#[test]
fn protojson_defaults_mean_no_filter() {
    let q = query(ListTasksRequest {
        context_id: Some(String::new()),
        status: Some(TaskState::Unspecified),
        page_size: Some(0),
        page_token: Some(String::new()),
        ..Default::default()
    });
    assert_eq!(q, no_filter());
}

#[test]
fn page_size_above_the_maximum_is_clamped() {
    for n in [101, 1_000, i32::MAX] {
        let q = query(ListTasksRequest {
            page_size: Some(n),
            ..Default::default()
        });
        assert_eq!(q.page_size(), MAX_PAGE_SIZE, "{n}");
    }
}

#[test]
fn negative_page_size_is_refused_naming_the_field() {
    for n in [-1, i32::MIN] {
        let err = TaskQuery::from_request(&ListTasksRequest {
            page_size: Some(n),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(err.field(), "pageSize");
        assert_eq!(
            err.to_string(),
            format!("`pageSize` is {n}: it must not be negative")
        );
    }
}

#[test]
fn unrecognized_state_is_refused_naming_the_field() {
    let err = TaskQuery::from_request(&ListTasksRequest {
        status: Some(TaskState::Unrecognized("TASK_STATE_RUNNING".into())),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(err.field(), "status");
    assert_eq!(
        err.reason(),
        "is `TASK_STATE_RUNNING`: not a task state of A2A v1"
    );
}

#[test]
fn unparseable_status_timestamp_is_refused_naming_the_field() {
    let err = TaskQuery::from_request(&ListTasksRequest {
        status_timestamp_after: Some(Timestamp::new("yesterday")),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(err.field(), "statusTimestampAfter");
    assert!(
        err.to_string().starts_with(
            "`statusTimestampAfter` is not a timestamp: invalid RFC 3339 timestamp `yesterday`"
        ),
        "{err}"
    );
}

#[test]
fn history_length_and_include_artifacts_say_what_is_read_not_what_is_selected() {
    // The handler checks historyLength: a negative one passes here, read as none.
    let q = query(ListTasksRequest {
        history_length: Some(-5),
        include_artifacts: Some(false),
        ..Default::default()
    });
    assert_eq!(q, no_filter());
    let q = query(ListTasksRequest {
        history_length: Some(0),
        ..Default::default()
    });
    assert_eq!((q.history_length, q.omit_artifacts), (Some(0), true));
}
