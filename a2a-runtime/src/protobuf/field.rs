//! The decoding side's field functions, which generated `merge_field` calls once it has
//! matched a field number. A value written with a wire type that does not fit the field's kind
//! is skipped as an unknown field, as protobuf's own parsers do: never an error.

use std::collections::BTreeMap;

use super::error::DecodeError;
use super::reader::{Reader, WireType};
use super::ProtoField;

/// The message name map entries report in error paths (never the outermost step, so it is not
/// displayed; the map field names them).
const MAP_ENTRY: &str = "MapEntry";

/// Merges one value of field `number` (key just read, with wire type `wire`) into `v`: a
/// message merges into what is there, any other kind replaces it (the last value wins).
///
/// # Errors
///
/// Those of [`ProtoField::merge_value`] and [`Reader::skip`].
#[inline]
pub fn merge<V: ProtoField>(
    number: u32,
    wire: WireType,
    v: &mut V,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    if wire == V::WIRE {
        v.merge_value(r)
    } else {
        r.skip(number, wire)
    }
}

/// [`merge`] that says whether it read a value: `true` when `wire` fits the kind and a value
/// was merged into `v`, `false` when the field was skipped instead. For a oneof member not set
/// yet: the member is set (to `v`, a fresh default merged into) only when a value was read.
///
/// # Errors
///
/// Those of [`ProtoField::merge_value`] and [`Reader::skip`].
#[inline]
pub fn merge_fresh<V: ProtoField>(
    number: u32,
    wire: WireType,
    v: &mut V,
    r: &mut Reader<'_>,
) -> Result<bool, DecodeError> {
    if wire == V::WIRE {
        v.merge_value(r)?;
        Ok(true)
    } else {
        r.skip(number, wire)?;
        Ok(false)
    }
}

/// [`merge`] for an explicit-presence field: sets `v` to the kind's default first when it is
/// `None` (and the wire type fits).
///
/// # Errors
///
/// Those of [`ProtoField::merge_value`] and [`Reader::skip`].
#[inline]
pub fn merge_option<V: ProtoField>(
    number: u32,
    wire: WireType,
    v: &mut Option<V>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    if wire == V::WIRE {
        v.get_or_insert_with(V::fresh).merge_value(r)
    } else {
        r.skip(number, wire)
    }
}

/// Appends what one key of repeated field `number` carries to `v`: one value, or, for a kind
/// that packs ([`ProtoField::PACKED`]), a packed run of values (wire type LEN). Packed and
/// unpacked runs may be mixed; each appends.
///
/// # Errors
///
/// Those of [`ProtoField::merge_value`] and [`Reader::skip`]; [`Truncated`](super::DecodeErrorKind::Truncated)
/// for a packed run that ends inside a value.
pub fn merge_repeated<V: ProtoField>(
    number: u32,
    wire: WireType,
    v: &mut Vec<V>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    if wire == V::WIRE {
        let mut value = V::fresh();
        value.merge_value(r)?;
        v.push(value);
        Ok(())
    } else if V::PACKED && wire == WireType::Len {
        let bytes = r.read_len_delimited()?;
        // Fixed-width values: the count is known.
        match V::WIRE {
            WireType::I64 => v.reserve(bytes.len() / 8),
            WireType::I32 => v.reserve(bytes.len() / 4),
            _ => {}
        }
        let mut packed = r.sub(bytes);
        while !packed.is_empty() {
            let mut value = V::default();
            value.merge_value(&mut packed)?;
            v.push(value);
        }
        Ok(())
    } else {
        r.skip(number, wire)
    }
}

/// Reads one map entry (its key already read with wire type LEN): the key (field 1) and the
/// value (field 2), each the kind's default when missing, the last one winning when repeated.
/// Other fields in the entry are skipped. Errors get the entry's step (`.key(1)` or
/// `.value(2)`) in their path.
pub(crate) fn read_entry<V: ProtoField>(r: &mut Reader<'_>) -> Result<(String, V), DecodeError> {
    let mut entry = r.nested()?;
    let mut key = String::new();
    let mut value = V::default();
    while !entry.is_empty() {
        let (number, wire) = entry.read_key()?;
        // An end-group key is an error through `skip`, like any other wire type that fits no
        // field here.
        let result = match number {
            1 => merge(1, wire, &mut key, &mut entry),
            2 => merge(2, wire, &mut value, &mut entry),
            _ => entry.skip(number, wire),
        };
        result.map_err(|e| {
            let name = match number {
                1 => Some("key"),
                2 => Some("value"),
                _ => None,
            };
            e.within(MAP_ENTRY, number, name)
        })?;
    }
    Ok((key, value))
}

/// Inserts one entry of map field `number` (key just read, with wire type `wire`) into `v`. An
/// entry with its key or value missing gets the kind's default for it; when a key comes twice
/// the last entry wins (it replaces, it does not merge). A wire type other than LEN is skipped.
///
/// # Errors
///
/// Those of the key's and the value's [`ProtoField::merge_value`], of [`Reader::nested`] and
/// of [`Reader::skip`].
pub fn merge_map<V: ProtoField>(
    number: u32,
    wire: WireType,
    v: &mut BTreeMap<String, V>,
    r: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    if wire != WireType::Len {
        return r.skip(number, wire);
    }
    let (key, value) = read_entry(r)?;
    v.insert(key, value);
    Ok(())
}
