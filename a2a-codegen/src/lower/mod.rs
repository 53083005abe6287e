//! Stage 2, lowering, by input: JSON Schema to the model's types ([`schema`]), the TOML tables
//! to its errors and methods ([`tables`]). A proto is lowered by `crate::proto`, whose rpcs take
//! the method table's rows through [`tables`].
//!
//! Each is a small, strict reader: every keyword or column is either understood or reported with
//! its JSON pointer or TOML row, so nothing in the input is silently dropped.

mod schema;
mod tables;

pub use schema::lower_schema;
#[cfg(feature = "proto")]
pub(crate) use tables::{also_served_rules, http_rules};
pub use tables::{lower_custom_errors, lower_errors, lower_methods};
