//! `mint_jwt JWKS_FILE`: makes an ES256 key, writes its public JWK Set (kid `bench`) to
//! JWKS_FILE and prints a JWT it signed (`sub` `bench`, an hour to live) on stdout: what
//! `bench/auth-bench.sh` gives `tck-agent --auth-jwks` and serve_load's `--auth`.

use a2a_types::rt::auth::sign_jwt;
use a2a_types::rt::trust::{Algorithm, SigningKey};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: mint_jwt JWKS_FILE");
        return ExitCode::from(2);
    };
    let key = SigningKey::generate(Algorithm::ES256).expect("an ES256 key");
    let jwks = serde_json::json!({"keys": [key.public_jwk("bench")]});
    if let Err(e) = std::fs::write(&path, jwks.to_string()) {
        eprintln!("mint_jwt: cannot write {path}: {e}");
        return ExitCode::FAILURE;
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let claims = serde_json::json!({"sub": "bench", "iat": now, "exp": now + 3600});
    println!(
        "{}",
        sign_jwt(&claims, &key, "bench").expect("a signed token")
    );
    ExitCode::SUCCESS
}
