//! The reqwest client (feature `client`): being written.
