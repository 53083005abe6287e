//! The request decoder of both modules: any bytes are a typed request or a rejection, never a
//! panic; a request that decodes re-encodes to a body that decodes again and whose own
//! re-encoding is the same bytes (decoding may drop what this version does not know, such as an
//! unknown oneof member's value, so the fixpoint is on the wire).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(incoming) = a2a_types::v1::decode_request(data) {
        let again = incoming.request.encode(&incoming.response_id());
        let back = a2a_types::v1::decode_request(&again).expect("a re-encoded request decodes");
        assert_eq!(back.request.encode(&back.response_id()), again, "re-encoding is not stable");
    }
    if let Ok(incoming) = a2a_types::v0_3::decode_request(data) {
        let again = incoming.request.encode(&incoming.response_id());
        let back = a2a_types::v0_3::decode_request(&again).expect("a re-encoded request decodes");
        assert_eq!(back.request.encode(&back.response_id()), again, "re-encoding is not stable");
    }
});
