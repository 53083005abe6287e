//! `--public-url`: the card names the URL a balancer in front of the agent is reached at, not
//! the address the agent listens on; a URL that is not http(s) is refused before anything starts.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

#[tokio::test]
async fn the_card_names_the_public_url() {
    let port = common::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tck-agent"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--public-url", "http://balancer.invalid:8080/"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tck-agent binary starts");
    let client = common::connect(port, Duration::from_secs(20)).await;
    let _ = child.kill();
    let _ = child.wait();
    let client = client.unwrap();
    let urls: Vec<&str> = client.card()["supportedInterfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["url"].as_str().unwrap())
        .collect();
    assert!(!urls.is_empty());
    for url in urls {
        // gRPC's is the target a gRPC client dials: the same authority, no scheme.
        assert!(
            url.starts_with("http://balancer.invalid:8080") || url == "balancer.invalid:8080",
            "{url}"
        );
    }
}

#[test]
fn a_public_url_that_is_not_http_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_tck-agent"))
        .args(["--listen", "127.0.0.1:0", "--public-url", "ftp://balancer"])
        .output()
        .expect("the tck-agent binary runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--public-url `ftp://balancer` is not an http(s) URL"),
        "{stderr}"
    );
}
