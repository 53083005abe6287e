//! A task survives the agent's restart on the SQLite store: the agent process is killed between
//! the message that leaves a task waiting for input and the one that completes it.

mod common;

use a2a_types::rt::client::Client;
use a2a_types::v1::{
    method, GetTaskRequest, Message, Part, PartContent, Protocol, Role, SendMessageRequest,
    SendMessageResponse, TaskState,
};
use common::free_port;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Agent(Child);

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn start(port: u16, db: &std::path::Path) -> (Agent, Client<Protocol>) {
    let child = Command::new(env!("CARGO_BIN_EXE_tck-agent"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--store", &format!("sqlite:{}", db.display())])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tck-agent binary starts");
    let agent = Agent(child);
    let client = common::connect(port, Duration::from_secs(20))
        .await
        .unwrap();
    (agent, client)
}

fn message(id: &str, task_id: Option<String>) -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            message_id: id.into(),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text("hi".into()),
                ..Default::default()
            }],
            task_id,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[tokio::test]
async fn a_waiting_task_is_continued_after_the_agent_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.sqlite");
    let port = free_port();
    let (agent, client) = start(port, &db).await;
    let task = match client
        .call::<method::SendMessage>(&message("tck-input-required-1", None))
        .await
        .unwrap()
    {
        SendMessageResponse::Task(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(task.status.state, TaskState::InputRequired);
    drop(agent); // killed: no shutdown of its own

    let (_agent, client) = start(port, &db).await;
    let got = client
        .call::<method::GetTask>(&GetTaskRequest {
            id: task.id.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(got, task);
    let done = match client
        .call::<method::SendMessage>(&message("tck-complete-task-2", Some(task.id.clone())))
        .await
        .unwrap()
    {
        SendMessageResponse::Task(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(done.status.state, TaskState::Completed);
    let ids: Vec<&str> = done.history.iter().map(|m| m.message_id.as_str()).collect();
    assert_eq!(ids[0], "tck-input-required-1");
    assert!(ids.contains(&"tck-complete-task-2"), "{ids:?}");
}
