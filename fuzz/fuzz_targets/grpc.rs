//! The gRPC binding's entry points over arbitrary bytes: the server's request decoder
//! (`service::Protocol::GRPC`: an rpc's params message, then the method table's `requires`) and
//! the client's result decoder (`ProtocolModule::GRPC_CLIENT`), for every rpc of `v1`, the rpc
//! picked by the first byte. Either must give a value or a typed error, never panic (the
//! messages' re-encoding is the `protobuf` target's).

#![no_main]

use a2a_types::rt::limits::Limits;
use a2a_types::rt::service::Protocol as _;
use a2a_types::rt::version::ProtocolModule as _;
use a2a_types::v1::{MethodName, Protocol};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let method = MethodName::ALL[usize::from(pick) % MethodName::ALL.len()];
    let limits = Limits::DEFAULT;
    let server = Protocol::GRPC.expect("v1 is generated with its protobuf codec");
    // Some: every rpc of the table is known to its own decoder.
    assert!((server.decode)(method.as_str(), body, &limits).is_some());
    let client = Protocol::GRPC_CLIENT.expect("v1 is generated with its protobuf codec");
    assert!((client.decode)(method.as_str(), body, &limits).is_some());
    // An rpc name the table has not got is `None`, not a panic.
    assert!((server.decode)("NoSuchRpc", body, &limits).is_none());
});
