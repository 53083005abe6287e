//! Protocol and naming facts that more than one stage needs: kept here, so that no stage reaches
//! into another (lowering fills in HTTP statuses, validation checks names and codes, emission and
//! the diff use the same values).

/// gRPC status code names (`google.rpc.Code`), each with the HTTP status `google.rpc.Code`
/// documents for it (the default HTTP status of a custom error row that names only its gRPC code).
pub(crate) const GRPC_CODES: &[(&str, u16)] = &[
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

/// The HTTP status `google.rpc.Code` gives a gRPC status name, if it is one.
pub(crate) fn http_of_grpc(name: &str) -> Option<u16> {
    GRPC_CODES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, http)| *http)
}

/// The name of the member the generator adds to a struct for unknown members (with
/// `preserve_unknown_fields`); no schema property may take it.
pub(crate) const UNKNOWN_FIELDS: &str = "unknown_fields";

/// The JSON-RPC reserved block (JSON-RPC 2.0 §5.1): no custom code may live here.
pub(crate) const RESERVED: std::ops::RangeInclusive<i64> = -32768..=-32100;
