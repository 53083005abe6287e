//! The parts of a generated module's API that are the same for every table: the methods of the
//! error enum that do not look at its rows, the client's decoding functions and the server's
//! encoding functions, stamped by one macro call each.
//!
//! Why macros and not only generic functions: these are inherent methods and free functions in
//! the *generated* module (`A2aError::error_info`, `decode_reply`, `encode_result`), so a user
//! calls them with no trait import and finds them in that module's rustdoc. Their bodies are
//! one-line calls into the generic runtime ([`crate::table`], [`crate::client`],
//! [`crate::jsonrpc`], [`crate::rest`]); the macros only spare every generated module from
//! spelling out the same signatures and docs. Generated code reaches them through
//! `__private`.

/// The table-independent API of a generated error enum `$error`, which implements
/// [`ErrorTable`](crate::table::ErrorTable) from its rows: inherent methods, `Display`, `Error`,
/// serde, the `CallError`, `Decoder` and `StreamDecoder` aliases, and the `__derive` module that `#[derive(AgentError)]` expansions reach. Expects `ERROR_TABLE` and
/// `is_code_taken` beside it.
#[doc(hidden)]
#[macro_export]
macro_rules! error_api {
    ($error:ident) => {
        impl $error {
            /// The typed error for a code, with the table's default message when `message` is
            /// `None` (the catch-all `Other` for a code no row names).
            pub fn from_code(
                code: i64,
                message: ::core::option::Option<::std::string::String>,
                data: ::core::option::Option<::serde_json::Value>,
            ) -> Self {
                <Self as $crate::table::ErrorTable>::from_code(code, message, data)
            }

            /// The typed error for a received error object.
            pub fn from_raw(raw: $crate::jsonrpc::client::RawError) -> Self {
                <Self as $crate::table::ErrorTable>::from_raw(raw)
            }

            /// The JSON-RPC error code.
            pub fn code(&self) -> i64 {
                <Self as $crate::table::ErrorTable>::code(self)
            }

            /// The message (the agent's, or the default).
            pub fn message(&self) -> &str {
                <Self as $crate::table::ErrorTable>::message(self)
            }

            /// The `data` member, when the agent sent one.
            pub fn data(&self) -> ::core::option::Option<&::serde_json::Value> {
                <Self as $crate::table::ErrorTable>::data(self)
            }

            /// The error object of an agent's own error (see `a2a_runtime::custom::AgentError`):
            /// its code, its row's message and its `data`. Codes of custom errors never collide
            /// with the table, so this is the catch-all `Other`.
            pub fn from_custom<E: $crate::custom::AgentError>(error: &E) -> Self {
                Self::from_code(
                    error.code(),
                    ::core::option::Option::Some(::std::string::String::from(error.message())),
                    ::core::option::Option::Some(error.data()),
                )
            }

            /// This error as the agent's own error type `E`: `Some` when it is a code no row
            /// names, that code is one of `E`'s, and the `data` carries the variant's fields.
            pub fn to_custom<E: $crate::custom::AgentError>(&self) -> ::core::option::Option<E> {
                match self.row() {
                    ::core::option::Option::None => E::from_code_and_data(self.code(), self.data()),
                    ::core::option::Option::Some(_) => ::core::option::Option::None,
                }
            }

            /// This error with this message (the variant and its `data` kept).
            pub fn with_message(
                self,
                message: impl ::core::convert::Into<::std::string::String>,
            ) -> Self {
                let data = <Self as $crate::table::ErrorTable>::data(&self).cloned();
                Self::from_code(
                    self.code(),
                    ::core::option::Option::Some(message.into()),
                    data,
                )
            }

            /// This error with its ErrorInfo's `metadata` set (`[("taskId", "t-1")]`): the row's
            /// ErrorInfo is added when `data` has none; other details are kept.
            pub fn with_info<K, V>(
                self,
                metadata: impl ::core::iter::IntoIterator<Item = (K, V)>,
            ) -> Self
            where
                K: ::core::convert::Into<::std::string::String>,
                V: ::core::convert::Into<::std::string::String>,
            {
                $crate::table::with_info(self, metadata)
            }

            /// This error with its `data` replaced.
            pub fn with_data(mut self, value: ::core::option::Option<::serde_json::Value>) -> Self {
                *<Self as $crate::table::ErrorTable>::data_mut(&mut self) = value;
                self
            }

            /// This error with `data` set to the v1 array of `@type` objects (A2A v1 §9.5).
            ///
            /// (Not a doctest: this module may be generated into any crate, under any path.)
            ///
            /// ```text
            /// let e = A2aError::from_code(-32001, None, None);
            /// let info = e.error_info([("taskId", "t-1")]).unwrap();
            /// let e = e.with_details([info]); // as A2aError::task_not_found().with_info([("taskId", "t-1")])
            /// assert_eq!(e.details()[0].reason(), Some("TASK_NOT_FOUND"));
            /// ```
            pub fn with_details(
                self,
                details: impl ::core::iter::IntoIterator<Item = $crate::ErrorDetail>,
            ) -> Self {
                self.with_data(::core::option::Option::Some(
                    $crate::ErrorDetail::list_to_data(details),
                ))
            }

            /// The `@type` objects of a v1 `data` array, in order; empty when `data` is anything
            /// else.
            pub fn details(&self) -> ::std::vec::Vec<$crate::ErrorDetail> {
                $crate::ErrorDetail::list_from(self.data())
            }

            /// The `google.rpc.ErrorInfo` A2A v1 prescribes for this error: the table's reason in
            /// the `a2a-protocol.org` domain, with `metadata`. `None` when the row has no reason
            /// (the standard JSON-RPC errors, and the catch-all `Other`).
            pub fn error_info<K, V>(
                &self,
                metadata: impl ::core::iter::IntoIterator<Item = (K, V)>,
            ) -> ::core::option::Option<$crate::ErrorDetail>
            where
                K: ::core::convert::Into<::std::string::String>,
                V: ::core::convert::Into<::std::string::String>,
            {
                $crate::table::error_info(self, metadata)
            }

            /// The error answering a request the runtime could not serve: the table's default
            /// message, then what was wrong; the fault's details as `data`.
            pub fn from_fault(fault: &$crate::server::Fault) -> Self {
                <Self as $crate::table::ErrorTable>::from_fault(fault)
            }

            /// The table row of this error; `None` for the catch-all `Other`.
            pub fn row(&self) -> ::core::option::Option<&'static $crate::ErrorRow> {
                <Self as $crate::table::ErrorTable>::row(self)
            }

            /// The variant's name (`"TaskNotFound"`, or `"Other"`).
            pub fn name(&self) -> &'static str {
                self.row().map_or("Other", |row| row.name)
            }

            /// The gRPC status code name from the table (`UNKNOWN` for a code no row names).
            pub fn grpc_status(&self) -> &'static str {
                self.row()
                    .map_or($crate::table::UNLISTED_GRPC, |row| row.grpc)
            }

            /// The HTTP status from the table (500 for a code no row names).
            pub fn http_status(&self) -> u16 {
                self.row()
                    .map_or($crate::table::UNLISTED_HTTP, |row| row.http)
            }
        }

        impl ::core::fmt::Display for $error {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::table::fmt_error(self, f)
            }
        }

        impl ::std::error::Error for $error {}

        /// Writes the JSON-RPC error object: `code`, `message`, and `data` when present.
        impl ::serde::Serialize for $error {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::table::serialize_error(self, serializer)
            }
        }

        /// Reads a JSON-RPC error object leniently: extra members ignored, a missing or
        /// non-string `message` replaced by the table's default.
        impl<'de> ::serde::Deserialize<'de> for $error {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                <$crate::jsonrpc::client::RawError as ::serde::Deserialize>::deserialize(
                    deserializer,
                )
                .map(Self::from_raw)
            }
        }

        /// Why a call failed: the agent answered with an error (a standard one, or one of the
        /// agent's own errors `E`), or the reply broke the contract: `a2a_runtime`'s
        /// `client::CallError` over this module's error enum.
        ///
        /// `E` defaults to `NoCustomErrors`, which has no values: then `Custom` cannot occur and
        /// a `match` need not name it.
        pub type CallError<E = $crate::custom::NoCustomErrors> =
            $crate::client::CallError<$error, E>;

        /// How replies decode (`a2a_runtime`'s `client::Decoder` over this module's error enum):
        /// the one entry point for unary replies and streams over either binding.
        /// `Decoder::new()` reads JSON-RPC bodies; `.binding(..)`, `.limits(..)` and
        /// `.custom_errors::<E>()` change that; `.decode::<T>(body)`, `.decode_http::<T>(&reply)`
        /// and `.stream::<T>()` decode.
        pub type Decoder<E = $crate::custom::NoCustomErrors> = $crate::client::Decoder<$error, E>;

        /// Decodes one streamed reply incrementally (`a2a_runtime`'s `client::StreamDecoder`
        /// over this module's error enum), made by `Decoder::stream`.
        pub type StreamDecoder<T, E = $crate::custom::NoCustomErrors> =
            $crate::client::StreamDecoder<T, $error, E>;

        /// What `#[derive(AgentError)]` expansions reach through this module's path.
        #[doc(hidden)]
        #[allow(unused_imports)] // used only by expansions, and only when the module is reachable
        pub mod __derive {
            pub use super::{is_code_taken, ERROR_TABLE};
            pub use ::serde_json::Value;
            pub use $crate::__private::{field, field_value, find_fields, TakenMessage};
            pub use $crate::{AgentError, ErrorDetail, ErrorRow};
        }
    };
}

/// The table-independent client API of a generated module: `decode_reply` over its `method`
/// types, `Display` for its `MethodName`, and `Reply::type_name`. Expects `MethodName` and
/// `Reply` beside it, and `Decoder` and `CallError` in the parent module (as a generated module
/// lays them out).
#[doc(hidden)]
#[macro_export]
macro_rules! client_api {
    () => {
        impl ::core::fmt::Display for MethodName {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Decodes the JSON-RPC reply body of method `M` (one event's body, for a streaming
        /// method): `decode_reply::<method::GetTask>(body)` gives a `Task`. The one-line form of
        /// `Decoder::new().decode::<M::Result>(body)`; the `Decoder` has the options (binding,
        /// limits, the agent's own errors) and the streams.
        pub fn decode_reply<M>(body: &[u8]) -> ::core::result::Result<M::Result, super::CallError>
        where
            M: $crate::Method,
            M::Result: ::serde::de::DeserializeOwned,
        {
            super::Decoder::new().decode::<M::Result>(body)
        }

        impl Reply {
            /// The name of the result's type (`"Task"`).
            pub fn type_name(&self) -> &'static str {
                self.method().result_type()
            }
        }
    };
}

/// The table-independent server API of a generated module: the `IncomingRequest` and
/// `RejectedRequest` aliases, `decode_request`, `encode_result`, `encode_error`, `encode_event`
/// and `Reply::encode`. Expects `decode_request_limited` beside it, and its `Request`, error enum
/// and `Reply` at the paths given.
#[doc(hidden)]
#[macro_export]
macro_rules! server_api {
    (request = $request:ty, error = $error:ty, reply = $reply:ty) => {
        /// A decoded request with its id (`a2a_runtime`'s `server::IncomingRequest` over this
        /// module's `Request`): `id`, `request`, `response_id()`, `is_notification()`.
        pub type IncomingRequest = $crate::jsonrpc::server::IncomingRequest<$request>;

        /// A request that cannot be served: the id to answer with and the error to answer
        /// (`a2a_runtime`'s `server::RejectedRequest` over this module's error enum). Its
        /// `response()` is the whole response body, or nothing for a notification.
        pub type RejectedRequest = $crate::jsonrpc::server::RejectedRequest<$error>;

        /// Decodes a JSON-RPC request body into the typed call, or the rejection to answer
        /// with: -32700 when it is not JSON, -32600 when it is not a request object, -32601 for
        /// a method the table does not have, -32602 when the params do not decode or lack what
        /// the method cannot run without (the `requires` of the method table: absent, null or
        /// empty). Unknown members are ignored at every depth. Never panics, whatever the bytes.
        #[allow(clippy::result_large_err)]
        pub fn decode_request(
            body: &[u8],
        ) -> ::core::result::Result<IncomingRequest, RejectedRequest> {
            decode_request_limited(body, &$crate::limits::Limits::DEFAULT)
        }

        /// The success response body for method `M`: `encode_result::<method::GetTask>(&id, &task)`.
        /// Send it with `200 OK` and `Content-Type: application/json`, as every JSON-RPC response.
        pub fn encode_result<M>(id: &$crate::RequestId, result: &M::Result) -> ::std::vec::Vec<u8>
        where
            M: $crate::Method,
            M::Result: ::serde::Serialize,
        {
            $crate::jsonrpc::server::encode_result(id, result)
        }

        /// The error response body, with the error's `data` (its details) when it has one. Sent
        /// with `200 OK` too: a JSON-RPC error is in the body, not in the HTTP status.
        pub fn encode_error(id: &$crate::RequestId, error: &$error) -> ::std::vec::Vec<u8> {
            $crate::jsonrpc::server::encode_error(id, error)
        }

        /// One SSE event of the stream answering streaming method `M`: a result or an error, as
        /// a JSON-RPC response in the event's data (`to_bytes()` frames it; axum's `Event` takes
        /// `.data` as it is). Write the events in order; close the stream to end it.
        pub fn encode_event<M>(
            id: &$crate::RequestId,
            item: ::core::result::Result<&M::Result, &$error>,
        ) -> $crate::sse::ServerEvent
        where
            M: $crate::Method,
            M::Result: ::serde::Serialize,
        {
            $crate::jsonrpc::server::encode_event(id, item)
        }

        impl $reply {
            /// The success response body carrying this result.
            pub fn encode(&self, id: &$crate::RequestId) -> ::std::vec::Vec<u8> {
                $crate::jsonrpc::server::encode_result(id, self)
            }
        }
    };
}

/// The HTTP+JSON binding's API of a generated module whose methods have HTTP rules: the call
/// encoder over either binding (`encode_call`, in the module's protocol `version`), the
/// server's responses (`encode_rest_result`, `encode_rest_error`, `encode_rest_custom_error`,
/// `encode_rest_event`) and the `RestRejection` alias, over the error enum at `$error`.
#[doc(hidden)]
#[macro_export]
macro_rules! rest_api {
    (error = $error:ty, version = $version:expr) => {
        /// A REST request that cannot be served: its HTTP status and the error to answer with
        /// (`a2a_runtime`'s `rest::server::RestRejection` over this module's error enum);
        /// `response()` is the response to send.
        pub type RestRejection = $crate::rest::server::RestRejection<$error>;

        /// The HTTP request calling method `M` over `binding` (from the agent card: see
        /// `a2a_runtime::version::pick_interface`): verb, path below the interface's URL (empty
        /// for JSON-RPC), headers (`Content-Type`, `Accept`, `A2A-Version`) and body. Decode the
        /// reply with `Decoder::new().binding(binding)`.
        pub fn encode_call<M>(
            binding: $crate::Binding,
            id: &$crate::RequestId,
            params: &M::Params,
        ) -> ::core::result::Result<$crate::client::HttpRequest, $crate::client::RouteError>
        where
            M: $crate::rest::RestMethod,
            M::Params: ::serde::Serialize,
        {
            $crate::client::encode_call::<M>(binding, $version, id, params)
        }

        /// The REST success response for method `M`: the bare result, HTTP 200.
        pub fn encode_rest_result<M>(result: &M::Result) -> $crate::rest::server::RestResponse
        where
            M: $crate::Method,
            M::Result: ::serde::Serialize,
        {
            $crate::rest::server::encode_rest_result(result)
        }

        /// The REST error response: the table's HTTP status and a `google.rpc.Status` whose
        /// details start with the ErrorInfo naming the error by its reason.
        pub fn encode_rest_error(error: &$error) -> $crate::rest::server::RestResponse {
            $crate::rest::server::encode_rest_error(error)
        }

        /// The REST error response for one of the agent's own errors: its row's HTTP status, and
        /// its ErrorInfo (reason, and the type's name as domain) and fields as details;
        /// `message` replaces the row's default.
        pub fn encode_rest_custom_error<E: $crate::custom::AgentError>(
            error: &E,
            message: ::core::option::Option<&str>,
        ) -> $crate::rest::server::RestResponse {
            $crate::rest::server::encode_rest_custom_error(error, message)
        }

        /// One SSE event of the stream answering streaming method `M` over REST: the bare
        /// result, or an event named `error` carrying the Status (`to_bytes()` frames it).
        pub fn encode_rest_event<M>(
            item: ::core::result::Result<&M::Result, &$error>,
        ) -> $crate::sse::ServerEvent
        where
            M: $crate::Method,
            M::Result: ::serde::Serialize,
        {
            $crate::rest::server::encode_rest_event(item)
        }
    };
}

/// The table-independent service API of a generated module: the `ServiceError`, `EventStream`
/// and `RequestContext` names over its error enum, and `A2aServer<S>`, the service as a transport
/// takes it (its `Dispatch` impl is generated beside it, since it lists the methods). Expects
/// `A2aService` beside it.
#[doc(hidden)]
#[macro_export]
macro_rules! service_api {
    (error = $error:ty) => {
        /// A method's error (`a2a_runtime`'s `service::ServiceError` over this module's error
        /// enum): a standard error (`From` the enum, so `?` works) or one of the agent's own
        /// (`ServiceError::custom(&e)` for a `#[derive(AgentError)]` value).
        pub type ServiceError = $crate::service::ServiceError<$error>;

        /// A streaming method's reply (`a2a_runtime`'s `service::EventStream`): a boxed `Stream`
        /// of events or errors, in order. `a2a_runtime::service::events` makes one from a list;
        /// any `Stream` of `Result<T, ServiceError>` that is `Send` boxes into one.
        pub type EventStream<T> = $crate::service::EventStream<T, $error>;

        pub use $crate::service::RequestContext;

        /// An [`A2aService`] as a transport serves it (`a2a_runtime::server`): holds the
        /// service in an `Arc`, so clones share it.
        pub struct A2aServer<S>(::std::sync::Arc<S>);

        impl<S> A2aServer<S> {
            /// Serves `service`.
            pub fn new(service: S) -> Self {
                A2aServer(::std::sync::Arc::new(service))
            }

            /// Serves a service that is already shared.
            pub fn from_arc(service: ::std::sync::Arc<S>) -> Self {
                A2aServer(service)
            }

            /// The service.
            pub fn service(&self) -> &::std::sync::Arc<S> {
                &self.0
            }
        }

        impl<S> ::core::clone::Clone for A2aServer<S> {
            fn clone(&self) -> Self {
                A2aServer(::std::sync::Arc::clone(&self.0))
            }
        }

        impl<S> ::core::fmt::Debug for A2aServer<S> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str("A2aServer")
            }
        }
    };
}
