//! The protobuf decoder of every message a gRPC peer sends or answers (the first byte picks the
//! message): any bytes are a value or a typed `DecodeError`, never a panic; a value re-encodes to
//! bytes that decode again and whose own re-encoding is the same bytes (decoding drops unknown
//! fields, so the fixpoint is on the second encoding).
#![no_main]
use a2a_types::rt::protobuf::Message;
use a2a_types::v1 as m;
use libfuzzer_sys::fuzz_target;

fn check<T: Message + std::fmt::Debug>(data: &[u8]) {
    let Ok(value) = T::decode(data) else { return };
    let once = value.encode_to_vec();
    assert_eq!(once.len(), value.encoded_len(), "encoded_len disagrees with the bytes");
    let back = T::decode(&once).expect("a re-encoded message decodes");
    assert_eq!(back.encode_to_vec(), once, "re-encoding is not stable: {back:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else { return };
    match pick % 19 {
        0 => check::<m::SendMessageRequest>(data),
        1 => check::<m::GetTaskRequest>(data),
        2 => check::<m::ListTasksRequest>(data),
        3 => check::<m::CancelTaskRequest>(data),
        4 => check::<m::SubscribeToTaskRequest>(data),
        5 => check::<m::TaskPushNotificationConfig>(data),
        6 => check::<m::GetTaskPushNotificationConfigRequest>(data),
        7 => check::<m::ListTaskPushNotificationConfigsRequest>(data),
        8 => check::<m::DeleteTaskPushNotificationConfigRequest>(data),
        9 => check::<m::GetExtendedAgentCardRequest>(data),
        10 => check::<m::SendMessageResponse>(data),
        11 => check::<m::StreamResponse>(data),
        12 => check::<m::Task>(data),
        13 => check::<m::ListTasksResponse>(data),
        14 => check::<m::ListTaskPushNotificationConfigsResponse>(data),
        15 => check::<m::AgentCard>(data),
        16 => check::<m::Empty>(data),
        17 => check::<m::Message>(data),
        _ => check::<m::SecurityScheme>(data),
    }
});
