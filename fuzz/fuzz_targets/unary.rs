//! The unary reply decoder of both modules, for every method: any bytes give a result, a typed
//! error or a malformed reason, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let v1 = a2a_types::v1::MethodName::ALL;
    let _ = a2a_types::v1::Reply::decode(v1[selector as usize % v1.len()], body, &a2a_types::v1::Decoder::new());
    let v0_3 = a2a_types::v0_3::MethodName::ALL;
    let _ = a2a_types::v0_3::Reply::decode(v0_3[selector as usize % v0_3.len()], body, &a2a_types::v0_3::Decoder::new());
});
