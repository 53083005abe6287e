//! The transport layer, behind cargo features: the axum server (`server`, feature `server`)
//! that serves a generated service over JSON-RPC and HTTP+JSON, and the reqwest client
//! (`client`, feature `client`) that calls an agent from its card. Both call the codec layer
//! (the generated decoders and encoders); neither re-implements it.

#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "server")]
pub mod server;
