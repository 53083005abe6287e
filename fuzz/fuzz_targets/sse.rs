//! The SSE stream decoder: any bytes, split into chunks anywhere (the first byte picks the chunk
//! sizes), give exactly the items that feeding them whole gives.
#![no_main]
use a2a_types::v1::{StreamDecoder, StreamResponse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, body)) = data.split_first() else {
        return;
    };
    let mut whole = Decoder::new().stream::<StreamResponse>();
    let mut expected = whole.feed(body);
    let expected_end = whole.finish();

    let mut chunked = Decoder::new().stream::<StreamResponse>();
    let mut items = Vec::new();
    let mut rest = body;
    let mut step = seed as usize;
    while !rest.is_empty() {
        step = (step * 31 + 7) % 97;
        let n = (step % 13 + 1).min(rest.len());
        items.extend(chunked.feed(&rest[..n]));
        rest = &rest[n..];
    }
    assert_eq!(
        items,
        std::mem::take(&mut expected),
        "chunking changed the items"
    );
    assert_eq!(chunked.finish(), expected_end, "chunking changed the end");
});
