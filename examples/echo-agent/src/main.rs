//! `echo-agent [REQUEST.json]`: answers one JSON-RPC request (from the file, or stdin) the way
//! the agent would over HTTP, printing the content type and the body.
//!
//! `echo-agent --demo "some text"` plays both sides instead: it sends the text as a
//! `SendMessage` call, lets the agent answer, and decodes the answer with the generated client
//! decoder, the agent's own errors included.

use a2a_runtime::AgentError as _;
use echo_agent::a2a::{
    decode_reply_with, method, CallError, EchoError, Message, Part, PartContent, Request, Role,
    SendMessageRequest, SendMessageResponse,
};
use echo_agent::handle;
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, text] if flag == "--demo" => demo(text),
        [] => serve(std::io::stdin().lock()),
        [path] => match std::fs::File::open(path) {
            Ok(file) => serve(file),
            Err(e) => {
                eprintln!("echo-agent: cannot read {path}: {e}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: echo-agent [REQUEST.json] | echo-agent --demo TEXT");
            ExitCode::from(2)
        }
    }
}

fn serve(mut input: impl Read) -> ExitCode {
    let mut body = Vec::new();
    if let Err(e) = input.read_to_end(&mut body) {
        eprintln!("echo-agent: cannot read the request: {e}");
        return ExitCode::from(2);
    }
    let response = handle(&body);
    println!("content-type: {}", response.content_type);
    println!("{}", String::from_utf8_lossy(&response.body));
    ExitCode::SUCCESS
}

fn demo(text: &str) -> ExitCode {
    let call = Request::SendMessage(SendMessageRequest {
        message: Message {
            message_id: "demo-1".to_string(),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text(text.to_string()),
                metadata: None,
                filename: None,
                media_type: None,
            }],
            ..Default::default()
        },
        ..Default::default()
    });
    let response = handle(&call.encode(&1.into()));
    match decode_reply_with::<method::SendMessage, EchoError>(&response.body) {
        Ok(SendMessageResponse::Message(reply)) => {
            for part in reply.parts {
                if let PartContent::Text(text) = part.content {
                    println!("{text}");
                }
            }
            ExitCode::SUCCESS
        }
        Ok(other) => {
            eprintln!("unexpected reply: {other:?}");
            ExitCode::FAILURE
        }
        Err(CallError::Custom { error, message }) => {
            eprintln!("the agent refused with {}: {message}", error.row().name);
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("call failed: {e}");
            ExitCode::FAILURE
        }
    }
}
