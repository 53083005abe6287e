//! Trust (feature `trust`): signed agent cards (spec §8.4) and received push notifications.
//!
//! - [`jcs`]: the JSON Canonicalization Scheme (RFC 8785) of a value or of raw JSON bytes.
//! - [`card_payload`]: a card's canonical form, what its signatures cover (spec §8.4.1):
//!   `signatures` removed and protobuf presence applied ([`CardForm::Spec`]), or a2a-sdk 1.3.0's
//!   form ([`CardForm::CleanEmpty`]).
//!
//! A card is verified over the card **as received** (its raw JSON, members this version does not
//! know included), never over a card re-encoded from typed values: a typed round trip loses the
//! members a newer agent signed, and its signature would never verify.

pub mod jcs;

mod card;

#[doc(hidden)]
pub use card::presence_table;
pub use card::{card_form, card_payload, CardForm};
