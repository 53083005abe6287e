//! The RFC 8785 canonicalizer on any bytes (`a2a_runtime::trust::jcs`): a canonical form or a
//! typed error, never a panic; a canonical form is a fixpoint (canonicalizing it again gives the
//! same bytes); what serde_json reads, ours reads too, unless it repeats a name or nests too deep.
#![no_main]
use a2a_runtime::trust::jcs::{self, JcsError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match jcs::canonicalize_json(data) {
        Ok(canonical) => {
            assert_eq!(jcs::canonicalize_json(&canonical).as_ref(), Ok(&canonical));
            assert!(serde_json::from_slice::<serde_json::Value>(&canonical).is_ok());
        }
        Err(JcsError::Syntax { .. }) => {
            // serde_json takes a leading BOM-free body only when it is JSON: it must refuse too.
            assert!(serde_json::from_slice::<serde_json::Value>(data).is_err());
        }
        Err(_) => {}
    }
});
