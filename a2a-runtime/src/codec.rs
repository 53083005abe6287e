//! The decoding machinery every generated object, oneof and open enum shares, so that generated
//! code says only what differs from one type to the next (its member names, its slots, how it is
//! built) and not the serde boilerplate around it.
//!
//! Generated code calls these; they are public for that reason and stable with the generator of
//! the same version. Everything here is generic and monomorphised into the caller, so a generated
//! `Deserialize` runs the same instructions as one written out in full: one pass over the input, no
//! intermediate `serde_json::Value` (the tagged-union path of [`read_tagged`] aside, which must
//! see the tag before it knows the variant).
//!
//! What a generated object's `Deserialize` looks like with them:
//!
//! ```
//! use a2a_runtime::__private::{self as codec, Key, Members, Object};
//! use serde::de::MapAccess;
//!
//! #[derive(Debug, Default, PartialEq)]
//! struct Artifact { artifact_id: String, name: Option<String> }
//!
//! impl<'de> Object<'de> for Artifact {
//!     const NAME: &'static str = "Artifact";
//!     fn visit_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
//!         const MEMBERS: Members = Members::new(&["artifactId", "artifact_id", "name"], false);
//!         let (mut id, mut name) = (None, None);
//!         while let Some(key) = map.next_key_seed(MEMBERS)? {
//!             match key {
//!                 Key::Known(0 | 1) => id = map.next_value::<Option<String>>()?,
//!                 Key::Known(2) => name = map.next_value()?,
//!                 _ => codec::skip(&mut map)?,
//!             }
//!         }
//!         Ok(Artifact { artifact_id: id.unwrap_or_default(), name })
//!     }
//! }
//!
//! impl<'de> serde::Deserialize<'de> for Artifact {
//!     fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
//!         codec::object(d)
//!     }
//! }
//!
//! let a: Artifact = serde_json::from_str(r#"{"artifact_id": "a-1", "extra": [1]}"#).unwrap();
//! assert_eq!(a, Artifact { artifact_id: "a-1".into(), name: None });
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, Error, IgnoredAny, MapAccess, Unexpected, Visitor};
use serde::ser::Serializer;
use serde::Deserialize as _;
use serde_json::{Map, Value};

use crate::wire::oneof::{pick_by_shape, Shape, UnknownMember};

// ----- objects ------------------------------------------------------------------------------------

/// What a member name read off the wire names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// The member at this index of the type's [`Members`] table (a JSON name or its alias).
    Known(usize),
    /// A name the type does not know, kept because the type needs it (a oneof remembers the first
    /// such name; with unknown-field preservation every one is kept).
    Unknown(String),
    /// A name the type does not know and does not need: its value is skipped.
    Ignored,
}

/// A type's member names, in a fixed order the generated code matches on by index: the seed that
/// reads one member name into a [`Key`].
///
/// A linear scan, as the `match` on strings that `#[derive(Deserialize)]` writes compiles to.
#[derive(Clone, Copy, Debug)]
pub struct Members {
    names: &'static [&'static str],
    keep_unknown: bool,
}

impl Members {
    /// The names, and whether a name not among them is kept ([`Key::Unknown`]) or dropped
    /// ([`Key::Ignored`]).
    pub const fn new(names: &'static [&'static str], keep_unknown: bool) -> Self {
        Members {
            names,
            keep_unknown,
        }
    }

    fn key(&self, name: &str) -> Key {
        match self.names.iter().position(|n| *n == name) {
            Some(i) => Key::Known(i),
            None if self.keep_unknown => Key::Unknown(name.to_owned()),
            None => Key::Ignored,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Members {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for Members {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: Error>(self, name: &str) -> Result<Key, E> {
        Ok(self.key(name))
    }

    fn visit_string<E: Error>(self, name: String) -> Result<Key, E> {
        Ok(match self.names.iter().position(|n| *n == name) {
            Some(i) => Key::Known(i),
            None if self.keep_unknown => Key::Unknown(name),
            None => Key::Ignored,
        })
    }
}

/// A type decoded from a JSON object by a generated `visit_map`; [`object`] supplies the rest of
/// the `Deserialize` impl.
pub trait Object<'de>: Sized + Default {
    /// The type's name, for "`NAME` as a JSON object" in decode errors.
    const NAME: &'static str;
    /// A message with no members at all (`google.protobuf.Empty`): it also reads from `null`
    /// (the official SDK's v1 server answers a delete with `"result": null`).
    const VOID: bool = false;

    /// Reads the object's members (the generated part).
    fn visit_map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// The `Deserialize` of an [`Object`].
pub fn object<'de, T: Object<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    if T::VOID {
        deserializer.deserialize_any(ObjectVisitor(PhantomData))
    } else {
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Object<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} as a JSON object", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::visit_map(map)
    }

    fn visit_unit<E: Error>(self) -> Result<T, E> {
        if T::VOID {
            Ok(T::default())
        } else {
            Err(E::invalid_type(Unexpected::Unit, &self))
        }
    }
}

/// Skips the value of a member the type does not read.
#[inline]
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// The one value a `const` member (v0.3's `kind`) may have.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    /// A string.
    Str(&'static str),
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number with a fraction.
    Num(f64),
}

impl Const {
    fn matches(self, value: &Value) -> bool {
        match self {
            Const::Str(s) => value.as_str() == Some(s),
            Const::Bool(b) => value.as_bool() == Some(b),
            Const::Int(n) => value.as_i64() == Some(n),
            Const::Num(n) => value.as_f64() == Some(n),
        }
    }

    fn to_value(self) -> Value {
        match self {
            Const::Str(s) => Value::from(s),
            Const::Bool(b) => Value::from(b),
            Const::Int(n) => Value::from(n),
            Const::Num(n) => Value::from(n),
        }
    }
}

/// Reads a `const` member's value and checks it: `null` counts as absent (as for every member);
/// any value other than `expected` is an error "`{type_name}`: `{member}` must be ..., found ...".
pub fn const_member<'de, A: MapAccess<'de>>(
    map: &mut A,
    type_name: &str,
    member: &str,
    expected: Const,
) -> Result<(), A::Error> {
    let value: Value = map.next_value()?;
    if value.is_null() || expected.matches(&value) {
        return Ok(());
    }
    Err(A::Error::custom(format_args!(
        "{type_name}: `{member}` must be {}, found {value}",
        expected.to_value()
    )))
}

// ----- oneofs -------------------------------------------------------------------------------------

/// Sets a oneof slot: a second *different* known member is an error ("`{conflict}`, found `a` and
/// `b`", where `conflict` names the type and its members); the same member twice, last wins.
/// `member_name` is the oneof enum's own `member_name`.
pub fn set_oneof<T, E: Error>(
    slot: &mut Option<T>,
    new: T,
    member_name: fn(&T) -> Option<&str>,
    conflict: &str,
) -> Result<(), E> {
    if let Some(old) = slot.as_ref() {
        let (was, now) = (member_name(old), member_name(&new));
        if was != now {
            return Err(E::custom(format_args!(
                "{conflict}, found `{}` and `{}`",
                was.unwrap_or_default(),
                now.unwrap_or_default()
            )));
        }
    }
    *slot = Some(new);
    Ok(())
}

/// What [`read_tagged`] found: the variant the tag (or the shape) names, with the object to decode
/// it from, or an unknown tag.
pub enum Tagged {
    /// The variant at this index of the union's tag values, and the object.
    Known(usize, Map<String, Value>),
    /// A tag that names no variant.
    Unknown(UnknownMember),
}

/// A tagged union's layout, for [`read_tagged`].
pub struct Union {
    /// The union's name, for errors.
    pub name: &'static str,
    /// The tag member's JSON name (`kind`).
    pub tag: &'static str,
    /// Its snake_case alias, when it differs.
    pub tag_alias: Option<&'static str>,
    /// Every variant's tag value and required members, in variant order.
    pub shapes: &'static [Shape],
    /// Whether an unknown variant keeps the whole object (unknown-field preservation).
    pub keep_unknown: bool,
}

/// Reads a tagged union's object and picks its variant: by the tag when there is one (a tag that
/// names no variant is [`Tagged::Unknown`]), else by shape (the one variant whose required members are present).
///
/// The tag may come after the variant's other members, so the object is buffered as a
/// `serde_json::Map` and the variant decoded from it once the tag is known.
pub fn read_tagged<'de, D: Deserializer<'de>>(
    deserializer: D,
    union: &Union,
) -> Result<Tagged, D::Error> {
    let object = match Value::deserialize(deserializer)? {
        Value::Object(object) => object,
        other => {
            let found = match other {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                _ => "an array",
            };
            return Err(D::Error::custom(format_args!(
                "{}: expected a JSON object, found {found}",
                union.name
            )));
        }
    };
    let tag = object
        .get(union.tag)
        .or_else(|| union.tag_alias.and_then(|alias| object.get(alias)));
    let index = match tag {
        Some(Value::String(name)) => {
            match union.shapes.iter().position(|s| s.tag == name.as_str()) {
                Some(i) => i,
                None => {
                    let name = name.clone();
                    let value = union.keep_unknown.then_some(Value::Object(object));
                    return Ok(Tagged::Unknown(UnknownMember::new(name, value)));
                }
            }
        }
        None | Some(Value::Null) => {
            pick_by_shape(union.name, union.tag, union.shapes, &object).map_err(D::Error::custom)?
        }
        Some(other) => {
            return Err(D::Error::custom(format_args!(
                "{}: `{}` must be a string, found {other}",
                union.name, union.tag
            )))
        }
    };
    Ok(Tagged::Known(index, object))
}

/// Decodes a tagged union's variant from the object [`read_tagged`] buffered.
pub fn variant<T: serde::de::DeserializeOwned, E: Error>(
    object: Map<String, Value>,
) -> Result<T, E> {
    serde_json::from_value(Value::Object(object)).map_err(E::custom)
}

// ----- open enums ---------------------------------------------------------------------------------

/// A generated open enum: names and ProtoJSON numbers in, `Unrecognized` for the rest.
pub trait OpenEnum: Sized {
    /// "a `TaskState` name or number", for decode errors.
    const EXPECTING: &'static str;
    /// The value with this number (`Unrecognized` for an unknown one).
    fn from_number(number: i64) -> Self;
    /// The value with this name, if the schema names it.
    fn from_known_name(name: &str) -> Option<Self>;
    /// A value the schema does not name, as it arrived.
    fn unrecognized(raw: String) -> Self;
    /// The wire name (for an unrecognized value, as it arrived).
    fn as_str(&self) -> &str;
    /// Whether the value is one the schema does not name.
    fn is_unrecognized(&self) -> bool;
}

/// The `Deserialize` of an [`OpenEnum`]: a name or a ProtoJSON number.
pub fn open_enum<'de, T: OpenEnum, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_any(EnumVisitor(PhantomData))
}

struct EnumVisitor<T>(PhantomData<T>);

impl<T: OpenEnum> Visitor<'_> for EnumVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<T, E> {
        Ok(T::from_known_name(v).unwrap_or_else(|| T::unrecognized(v.to_owned())))
    }

    fn visit_string<E: Error>(self, v: String) -> Result<T, E> {
        Ok(T::from_known_name(&v).unwrap_or_else(|| T::unrecognized(v)))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<T, E> {
        Ok(T::from_number(v))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<T, E> {
        match i64::try_from(v) {
            Ok(n) => Ok(T::from_number(n)),
            Err(_) => Err(E::invalid_value(Unexpected::Unsigned(v), &self)),
        }
    }
}

/// The `Serialize` of an [`OpenEnum`]: its name, or, for an unrecognized value that arrived as a
/// number, that number.
///
/// A name that only looks like a number (the string "1", "-0" or "01", from an odd peer) stays a
/// string: as a number it would read back as another value.
pub fn serialize_open_enum<T: OpenEnum, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if value.is_unrecognized() {
        let raw = value.as_str();
        let canonical = raw
            .parse::<i64>()
            .ok()
            .filter(|n| T::from_number(*n).is_unrecognized() && n.to_string() == raw);
        if let Some(n) = canonical {
            return serializer.serialize_i64(n);
        }
    }
    serializer.serialize_str(value.as_str())
}

/// Whether a decoded field is unset, the way protobuf sees it: equal to its type's default (`""`,
/// `[]`, `0`, `false`, an enum's `*_UNSPECIFIED` value, a message with nothing set, `None`). A
/// required field the request left out, sent as `null` or sent empty decodes to exactly that, so
/// this is the check behind `RawRequest::require`, made on the params already decoded.
///
/// ```
/// use a2a_runtime::__private::is_unset;
///
/// assert!(is_unset(&String::new()) && is_unset(&Vec::<u8>::new()) && is_unset(&0_i32));
/// assert!(!is_unset(&"t-1".to_string()));
/// ```
pub fn is_unset<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
