//! The gRPC client's reader of an error's details (`grpc-status-details-bin`, a binary
//! `google.rpc.Status`: `ErrorInfo`, `BadRequest` and `RetryInfo` read field by field, any other
//! detail by its type URL) over arbitrary bytes: it must not panic, and what it read must write
//! back (the server's writer) to bytes it reads the same again, once the details with no binary
//! form here (kept by type URL alone, which the writer leaves out) have gone in the first pass.

#![no_main]

use a2a_types::rt::__private::{grpc_status, grpc_status_details};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let first = grpc_status_details(data);
    let mut bytes = Vec::new();
    grpc_status(3, "invalid", &first, &mut bytes);
    let second = grpc_status_details(&bytes);
    let mut again = Vec::new();
    grpc_status(3, "invalid", &second, &mut again);
    assert_eq!(grpc_status_details(&again), second);
    assert_eq!(again, bytes);
});
