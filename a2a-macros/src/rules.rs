//! What the macro knows of JSON-RPC and gRPC without reading the specification: the reserved code
//! block, the standard errors, the gRPC status names and their usual HTTP statuses.

/// The JSON-RPC 2.0 reserved block of error codes ("reserved for pre-defined errors").
pub const RESERVED: std::ops::RangeInclusive<i64> = -32768..=-32100;

/// The five standard JSON-RPC 2.0 errors, all inside [`RESERVED`].
const STANDARD: &[(i64, &str)] = &[
    (-32700, "Parse error"),
    (-32600, "Invalid Request"),
    (-32601, "Method not found"),
    (-32602, "Invalid params"),
    (-32603, "Internal error"),
];

/// Why a code cannot be declared by the macro's own knowledge (the A2A table's codes are checked
/// by the const assertion of the expansion instead).
pub fn reserved_reason(code: i64) -> Option<String> {
    if let Some((_, name)) = STANDARD.iter().find(|(c, _)| *c == code) {
        return Some(format!(
            "code {code} is the standard JSON-RPC error \"{name}\""
        ));
    }
    if RESERVED.contains(&code) {
        return Some(format!(
            "code {code} is inside the JSON-RPC reserved block -32768..=-32100"
        ));
    }
    None
}

/// The gRPC status code names (`google.rpc.Code`) with the HTTP status `google.rpc.Code`
/// documents for each.
pub const GRPC: &[(&str, u16)] = &[
    ("OK", 200),
    ("CANCELLED", 499),
    ("UNKNOWN", 500),
    ("INVALID_ARGUMENT", 400),
    ("DEADLINE_EXCEEDED", 504),
    ("NOT_FOUND", 404),
    ("ALREADY_EXISTS", 409),
    ("PERMISSION_DENIED", 403),
    ("RESOURCE_EXHAUSTED", 429),
    ("FAILED_PRECONDITION", 400),
    ("ABORTED", 409),
    ("OUT_OF_RANGE", 400),
    ("UNIMPLEMENTED", 501),
    ("INTERNAL", 500),
    ("UNAVAILABLE", 503),
    ("DATA_LOSS", 500),
    ("UNAUTHENTICATED", 401),
];

/// The HTTP status that goes with a gRPC status name, if it is one.
pub fn http_of_grpc(name: &str) -> Option<u16> {
    GRPC.iter().find(|(n, _)| *n == name).map(|(_, http)| *http)
}

/// The gRPC names as a list for a diagnostic.
pub fn grpc_list() -> String {
    GRPC.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_block_and_standard_codes() {
        assert!(reserved_reason(-32768).is_some());
        assert!(reserved_reason(-32100).is_some());
        assert!(reserved_reason(-32099).is_none());
        assert!(reserved_reason(-32000).is_none());
        assert!(reserved_reason(-32769).is_none());
        assert!(reserved_reason(42).is_none());
        for (code, _) in STANDARD {
            assert!(RESERVED.contains(code));
            assert!(reserved_reason(*code).unwrap().contains("standard"));
        }
    }

    #[test]
    fn seventeen_grpc_codes() {
        assert_eq!(GRPC.len(), 17);
        assert_eq!(http_of_grpc("UNKNOWN"), Some(500));
        assert_eq!(http_of_grpc("RESOURCE_EXHAUSTED"), Some(429));
        assert_eq!(http_of_grpc("nope"), None);
    }
}
