//! Trust (feature `trust`): signed agent cards (spec §8.4) and received push notifications.
//!
//! - [`jcs`]: the JSON Canonicalization Scheme (RFC 8785) of a value or of raw JSON bytes.
//! - [`card_payload`]: a card's canonical form, what its signatures cover (spec §8.4.1):
//!   `signatures` removed and protobuf presence applied ([`CardForm::Spec`]), or a2a-sdk 1.3.0's
//!   form ([`CardForm::CleanEmpty`]).
//! - [`Verifier`]: checks a card's signatures with keys the caller's [`KeyResolver`] gives (by
//!   `kid`; `jku` is a hint, never fetched), an allow-list of [`Algorithm`]s, and says which
//!   signature verified ([`Verified`]) or why none did ([`VerifyError`]).
//! - [`Signer`]: signs a card with a [`SigningKey`], returning the signature to add.
//! - [`webhook`]: receiving push notifications: the token and `Authorization` checked in
//!   constant time, the body decoded as a `StreamResponse`; with `server`, an axum route.
//!
//! A card is verified over the card **as received** (its raw JSON, members this version does not
//! know included), never over a card re-encoded from typed values: a typed round trip loses the
//! members a newer agent signed, and its signature would never verify.
//!
//! Keys: [`VerifyingKey`] from a JWK, an SPKI (DER or PEM) or a shared secret; [`SigningKey`]
//! from PKCS#8 (DER or PEM), SEC 1 or PKCS#1 PEM, a shared secret, or generated. The crypto is
//! aws-lc-rs's, the crate reqwest's rustls builds on.

pub mod jcs;
pub mod webhook;

mod card;
mod keys;
mod sign;
mod verify;
pub(crate) use verify::header_key;

#[doc(hidden)]
pub use card::presence_table;
pub use card::{card_form, card_payload, CardForm};
pub use keys::{Algorithm, KeyError, KeyKind, SigningKey, VerifyingKey};
pub use sign::{SignError, Signer};
pub use verify::{
    KeyResolver, KeySet, SignatureError, SignatureFailure, Verified, Verifier, VerifyError,
};
