//! What the tests of tck-agent's process share: a free port, and a client once the agent on it
//! listens.

#![allow(dead_code)] // each test binary uses part of this module

use a2a_types::rt::client::Client;
use a2a_types::v1::Protocol;
use std::time::{Duration, Instant};

/// A port on 127.0.0.1 that nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A client of the agent on `port`, once it answers (trying every 50 ms for up to `wait`); the
/// last error when it never did.
pub async fn connect(port: u16, wait: Duration) -> Result<Client<Protocol>, String> {
    let deadline = Instant::now() + wait;
    loop {
        match Client::<Protocol>::connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(client) => return Ok(client),
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(e) => return Err(format!("the agent on {port} did not come up: {e}")),
        }
    }
}
