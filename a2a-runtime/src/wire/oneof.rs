//! What generated oneofs and tagged unions share: the member (or tag) a reader does not know.
//!
//! Every generated oneof enum (`PartContent`, `StreamResponse`, `SecurityScheme`, ...) and every
//! tagged union (v0.3's `Part`, `StreamEvent`, ...) has one extra variant, `Unknown(UnknownMember)`,
//! so that a later spec's new kind of part, event or security scheme never sinks the object around
//! it (the official SDK, built on protobuf, keeps the object and leaves the oneof unset):
//!
//! - a member name this version does not know (v1), or a `kind` value it does not know (v0.3),
//!   decodes to `Unknown` with [`UnknownMember::name`] set to that name;
//! - an object with no member of the oneof at all decodes to `Unknown` with no name (protobuf's
//!   "oneof not set"); it is also the `Default` of every oneof enum;
//! - with unknown-field preservation on (`--preserve-unknown-fields`), [`UnknownMember::value`]
//!   holds the member's value (for a tagged union: the whole object), and encoding writes it back
//!   unchanged; without it the value is dropped and encoding writes no member.
//!
//! Two *known* members at once stay a decode error: that reply contradicts itself.
//!
//! ```
//! use a2a_runtime::UnknownMember;
//!
//! // What a generated `PartContent::Unknown` holds for `{"hologram": {...}, "mediaType": ...}`
//! // (the rest of the part is kept in the part's own fields):
//! let unknown = UnknownMember::new("hologram", None);
//! assert_eq!(unknown.name(), Some("hologram"));
//! assert_eq!(unknown.value(), None); // kept only with unknown-field preservation
//! // ... and for an object with no member of the oneof at all: the enum's `Default`.
//! assert!(UnknownMember::default().is_unset());
//! ```
//!
//! In a generated module (here `a2a_types::v1`), matching stays one arm per kind:
//!
//! ```text
//! match &part.content {
//!     PartContent::Text(text) => ...,
//!     PartContent::Unknown(unknown) => log::info!("a part of kind {:?}", unknown.name()),
//!     _ => ...,
//! }
//! ```

use serde::ser::SerializeMap;
use serde_json::{Map, Value};

/// A oneof member or union variant this version of the schema does not know, or none at all.
///
/// It appears where a oneof or a tagged union meets a member this version does not know; it
/// re-encodes as it came when unknown members are preserved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnknownMember {
    name: Option<String>,
    value: Option<Value>,
}

impl UnknownMember {
    /// A member with this name and, when it is to be written back, its value.
    pub fn new(name: impl Into<String>, value: Option<Value>) -> Self {
        UnknownMember {
            name: Some(name.into()),
            value,
        }
    }

    /// The member's JSON name (for a tagged union, the tag's value), or `None` when the object had
    /// no member of the oneof at all (or no tag).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The member's value as it arrived, kept only when the generator preserves unknown fields.
    /// For a tagged union it is the whole object, the tag included.
    pub fn value(&self) -> Option<&Value> {
        self.value.as_ref()
    }

    /// Whether the object had no member of the oneof at all.
    pub fn is_unset(&self) -> bool {
        self.name.is_none()
    }

    /// Writes the member back as `name: value`, when both are known (generated serializers call
    /// this; it writes nothing otherwise).
    #[doc(hidden)]
    pub fn serialize_member<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match (&self.name, &self.value) {
            (Some(name), Some(value)) => map.serialize_entry(name, value),
            _ => Ok(()),
        }
    }

    /// The unknown member of an object whose oneof had no known member: the first member the
    /// visitor did not know (`first`, in wire order), taken out of `preserved` (the object's
    /// unknown members, when they are kept) so that it is written back once.
    #[doc(hidden)]
    pub fn from_first(first: Option<String>, preserved: Option<&mut Map<String, Value>>) -> Self {
        let Some(name) = first else {
            return UnknownMember::default();
        };
        let value = preserved.and_then(|map| map.remove(&name));
        UnknownMember {
            name: Some(name),
            value,
        }
    }

    /// Writes an unknown variant of a tagged union: the object as it arrived when it was kept,
    /// else an object holding only the tag (`{"kind": "name"}`), or `{}` when there was no tag.
    #[doc(hidden)]
    pub fn serialize_tagged<S: serde::Serializer>(
        &self,
        tag: &str,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        if let Some(value) = &self.value {
            return serde::Serialize::serialize(value, serializer);
        }
        let mut map = serializer.serialize_map(None)?;
        if let Some(name) = &self.name {
            map.serialize_entry(tag, name)?;
        }
        map.end()
    }
}

/// One variant of a tagged union, for choosing a variant by shape when the tag is missing.
#[doc(hidden)]
pub struct Shape {
    /// The tag value that would name the variant.
    pub tag: &'static str,
    /// The members the variant requires (besides the tag), each with the names it is accepted
    /// under (the JSON name, then the snake_case alias).
    pub required: &'static [&'static [&'static str]],
}

/// Picks the variant of a tagged union whose required members are all present in `object`, for an
/// object without its tag (what the official SDK's v0.3 layer does: the members say what it is).
///
/// A variant fits when every member it requires is present (not `null`). Of the variants that fit,
/// the one that requires the most members wins (a variant that requires nothing fits any object,
/// so it is chosen only when nothing more specific fits, as pydantic's smart unions prefer the
/// member that matched most fields). No fit, or a tie for the most, is an error naming the
/// candidates.
#[doc(hidden)]
pub fn pick_by_shape(
    type_name: &str,
    tag: &str,
    shapes: &[Shape],
    object: &Map<String, Value>,
) -> Result<usize, String> {
    let present = |names: &&[&str]| {
        names
            .iter()
            .any(|name| object.get(*name).is_some_and(|v| !v.is_null()))
    };
    let mut fits: Vec<usize> = shapes
        .iter()
        .enumerate()
        .filter(|(_, shape)| shape.required.iter().all(present))
        .map(|(i, _)| i)
        .collect();
    let most = fits.iter().map(|i| shapes[*i].required.len()).max();
    fits.retain(|i| Some(shapes[*i].required.len()) == most);
    let describe = |i: &usize| {
        let shape = &shapes[*i];
        let needs: Vec<String> = shape
            .required
            .iter()
            .map(|names| format!("`{}`", names[0]))
            .collect();
        if needs.is_empty() {
            format!("{} (needs nothing)", shape.tag)
        } else {
            format!("{} (needs {})", shape.tag, needs.join(", "))
        }
    };
    match fits.as_slice() {
        [one] => Ok(*one),
        [] => {
            let all: Vec<String> = (0..shapes.len()).map(|i| describe(&i)).collect();
            Err(format!(
                "{type_name}: no `{tag}`, and the members fit no variant: {}",
                all.join(", ")
            ))
        }
        several => {
            let all: Vec<String> = several.iter().map(describe).collect();
            Err(format!(
                "{type_name}: no `{tag}`, and the members fit several variants: {}",
                all.join(", ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SHAPES: &[Shape] = &[
        Shape {
            tag: "text",
            required: &[&["text"]],
        },
        Shape {
            tag: "file",
            required: &[&["file"]],
        },
        Shape {
            tag: "task",
            required: &[&["id"], &["contextId", "context_id"]],
        },
        Shape {
            tag: "anything",
            required: &[],
        },
    ];

    fn pick(value: Value) -> Result<usize, String> {
        let Value::Object(object) = value else {
            unreachable!()
        };
        pick_by_shape("Thing", "kind", SHAPES, &object)
    }

    #[test]
    fn the_one_variant_whose_required_members_are_present_is_picked() {
        assert_eq!(pick(json!({"text": "hi", "metadata": {}})), Ok(0));
        assert_eq!(pick(json!({"file": {}})), Ok(1));
        assert_eq!(pick(json!({"id": "t", "context_id": "c"})), Ok(2));
    }

    #[test]
    fn a_variant_that_requires_nothing_wins_only_when_nothing_more_specific_fits() {
        assert_eq!(pick(json!({"id": "t"})), Ok(3));
        assert_eq!(pick(json!({"text": null})), Ok(3));
        assert_eq!(pick(json!({"text": "a"})), Ok(0));
    }

    #[test]
    fn no_fit_or_a_tie_is_an_error_naming_the_candidates() {
        assert_eq!(
            pick_by_shape("Thing", "kind", &SHAPES[..3], &Map::new()).unwrap_err(),
            "Thing: no `kind`, and the members fit no variant: text (needs `text`), \
             file (needs `file`), task (needs `id`, `contextId`)"
        );
        assert_eq!(
            pick(json!({"text": "a", "file": {}})).unwrap_err(),
            "Thing: no `kind`, and the members fit several variants: text (needs `text`), \
             file (needs `file`)"
        );
    }

    #[test]
    fn the_first_unknown_member_is_taken_out_of_the_preserved_ones() {
        let mut kept = Map::new();
        kept.insert("hologram".into(), json!({"frames": 3}));
        kept.insert("other".into(), json!(1));
        let u = UnknownMember::from_first(Some("hologram".into()), Some(&mut kept));
        assert_eq!(u.name(), Some("hologram"));
        assert_eq!(u.value(), Some(&json!({"frames": 3})));
        assert_eq!(kept.len(), 1);
        assert!(UnknownMember::from_first(None, None).is_unset());
    }
}
