//! Facts that more than one stage needs: kept here, so that no stage reaches into another
//! (validation checks names and codes, emission and the diff use the same values). The protocol's
//! own facts (JSON-RPC ranges, gRPC statuses, case rules) live in `a2a-facts`, shared with the
//! derive and the runtime; this module names the generator's.

/// The name of the member the generator adds to a struct for unknown members (with
/// `preserve_unknown_fields`); no schema property may take it.
pub(crate) const UNKNOWN_FIELDS: &str = "unknown_fields";

/// The member added beside it when the protobuf codec is generated too: the unknown protobuf
/// fields, as bytes (`protobuf::UnknownFields`); reserved with it.
pub(crate) const UNKNOWN_PROTOBUF_FIELDS: &str = "unknown_protobuf_fields";

/// The JSON-RPC reserved block (JSON-RPC 2.0 §5.1): no custom code may live here (the shared
/// protocol facts of `a2a-facts`; gRPC statuses are there too, as `a2a_facts::grpc`).
pub(crate) use a2a_facts::jsonrpc::RESERVED;
