//! The axum server (feature `server`): being written.
