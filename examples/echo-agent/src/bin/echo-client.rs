//! `echo-client [URL] [TEXT]`: calls the echo agent at URL (default `http://127.0.0.1:3000`)
//! with a2a-runtime's client: reads its card, sends TEXT (default "hello") once as a message and
//! once as a stream, and prints what comes back, the agent's own errors by name.

use a2a_runtime::client::Client;
use echo_agent::a2a::{
    method, CallError, EchoError, Message, Part, PartContent, Protocol, Role, SendMessageRequest,
};
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .unwrap_or_else(|| "http://127.0.0.1:3000".to_string());
    let text = args.next().unwrap_or_else(|| "hello".to_string());
    let client = match Client::<Protocol>::connect(&url).await {
        Ok(client) => client,
        Err(e) => {
            eprintln!("echo-client: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "calling {} over {}",
        client.interface().url,
        client.binding().name()
    );
    let params = SendMessageRequest {
        message: Message {
            message_id: "m-1".to_string(),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text(text),
                ..Default::default()
            }],
            ..Default::default()
        },
        ..Default::default()
    };
    match client
        .call_with::<method::SendMessage, EchoError>(&params)
        .await
    {
        Ok(reply) => println!("reply: {reply:?}"),
        Err(CallError::Custom { error, message }) => {
            println!("the agent refused: {error:?} ({message})")
        }
        Err(e) => {
            eprintln!("echo-client: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut events = client.stream_with::<method::SendStreamingMessage, EchoError>(&params);
    while let Some(event) = events.next().await {
        match event {
            Ok(event) => println!("event: {event:?}"),
            Err(e) => {
                println!("stream ended with: {e}");
                break;
            }
        }
    }
    ExitCode::SUCCESS
}
