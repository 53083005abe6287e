//! The ProtoJSON idioms of the published v1 schema, recognised in one schema at a time: inlined
//! enums, int32 and 64-bit integer `anyOf`s, snake_case alias patterns, base64 `bytes` and
//! zero-value `default`s, and the number types the model lacks (unsigned 32-bit integers, floats).

use serde_json::{Map, Value};

/// The `pattern` the published schema gives `bytes` fields (standard base64).
pub(super) const BASE64_PATTERN: &str = "^[A-Za-z0-9+/]*={0,2}$";

/// The `pattern` of the numeric-string branch of an int32 `anyOf`.
pub(super) const INT_STRING_PATTERN: &str = "^-?[0-9]+$";

/// The `pattern` of the numeric-string branch of an unsigned integer's `anyOf` (no sign).
pub(super) const UINT_STRING_PATTERN: &str = "^[0-9]+$";

/// `context_id` for the key `^(context_id)$`.
pub(super) fn alias_of_pattern(key: &str) -> Option<&str> {
    let inner = key.strip_prefix("^(")?.strip_suffix(")$")?;
    let ok = !inner.is_empty()
        && inner
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    ok.then_some(inner)
}

/// `{"type": "integer", "minimum": -2^31, "maximum": 2^31 - 1}` and nothing else.
pub(super) fn is_int32_range(branch: &Map<String, Value>) -> bool {
    branch.len() == 3
        && branch.get("type").and_then(Value::as_str) == Some("integer")
        && branch.get("minimum").and_then(Value::as_i64) == Some(i32::MIN.into())
        && branch.get("maximum").and_then(Value::as_i64) == Some(i32::MAX.into())
}

/// `{"type": "string", <key>: ...}` and nothing else: the value of `key`.
pub(super) fn string_branch<'a>(branch: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    (branch.len() == 2 && branch.get("type").and_then(Value::as_str) == Some("string"))
        .then(|| branch.get(key))
        .flatten()
}

/// An inlined ProtoJSON enum, as the `anyOf` spells it.
#[derive(Debug, PartialEq)]
pub(super) struct InlinedEnum {
    /// The zero value (`TASK_STATE_UNSPECIFIED`), from the `pattern` branch, or (where the field
    /// has presence, and zero is a value like any other) the first of the `enum`.
    pub(super) zero: String,
    /// The other values, in the order written.
    pub(super) rest: Vec<String>,
}

/// The inlined ProtoJSON enum an `anyOf` is, if it is one: `[{"type": "string", "pattern":
/// "^ZERO$"}, {"type": "string", "enum": [...]}, int32 range]` for a field without presence (the
/// zero value is absence), or `[{"type": "string", "enum": [ZERO, ...]}, int32 range]` for one
/// with presence, a list item or a map value (bufbuild's protoc-gen-jsonschema lists the names in
/// declaration order, and a proto3 enum declares its zero value first).
pub(super) fn inlined_enum(any: &Value) -> Option<InlinedEnum> {
    let branches = any.as_array().filter(|b| (2..=3).contains(&b.len()))?;
    let (mut zero, mut rest, mut int) = (None, None, false);
    for branch in branches {
        let branch = branch.as_object()?;
        if let Some(pattern) = string_branch(branch, "pattern") {
            let name = pattern.as_str()?.strip_prefix('^')?.strip_suffix('$')?;
            let is_value = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            if !is_value || zero.replace(name.to_string()).is_some() {
                return None;
            }
        } else if let Some(values) = string_branch(branch, "enum") {
            let values = values
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()?;
            if rest.replace(values).is_some() {
                return None;
            }
        } else if is_int32_range(branch) && !int {
            int = true;
        } else {
            return None;
        }
    }
    if !int {
        return None;
    }
    match (zero, rest) {
        (Some(zero), rest) => Some(InlinedEnum {
            zero,
            rest: rest.unwrap_or_default(),
        }),
        (None, Some(mut all)) if !all.is_empty() => {
            let zero = all.remove(0);
            Some(InlinedEnum { zero, rest: all })
        }
        (None, _) => None,
    }
}

/// A ProtoJSON int32: a number in range, or a string of digits.
pub(super) fn is_int32(any: &Value) -> bool {
    let Some([a, b]) = any.as_array().map(Vec::as_slice) else {
        return false;
    };
    let digits = |v: &Value| {
        v.as_object()
            .and_then(|o| string_branch(o, "pattern"))
            .and_then(Value::as_str)
            == Some(INT_STRING_PATTERN)
    };
    let range = |v: &Value| v.as_object().is_some_and(is_int32_range);
    (range(a) && digits(b)) || (digits(a) && range(b))
}

/// A ProtoJSON 64-bit integer as the published schema's generator (bufbuild
/// `protoc-gen-jsonschema`) writes it: an `anyOf` of an integer branch and a string-of-digits
/// branch, in either order. `"int64"` for `[{"type": "integer"}, {"type": "string", "pattern":
/// "^-?[0-9]+$"}]`, `"uint64"` for `[{"type": "integer", "minimum": 0}, {"type": "string",
/// "pattern": "^[0-9]+$"}]`; the integer branch may also carry the type's own `maximum` (and, for
/// int64, `minimum`) and a matching `format`. `None` for anything else (an int32 is
/// [`is_int32`]).
pub(super) fn wide_integer(any: &Value) -> Option<&'static str> {
    let [a, b] = any.as_array().map(Vec::as_slice)? else {
        return None;
    };
    let (a, b) = (a.as_object()?, b.as_object()?);
    let (int, text) = if a.get("type").and_then(Value::as_str) == Some("integer") {
        (a, b)
    } else {
        (b, a)
    };
    if int.get("type").and_then(Value::as_str) != Some("integer")
        || int
            .keys()
            .any(|k| !matches!(k.as_str(), "type" | "minimum" | "maximum" | "format"))
    {
        return None;
    }
    let pattern = string_branch(text, "pattern")?.as_str()?;
    let (format, min, max): (&'static str, Option<i128>, i128) = match pattern {
        INT_STRING_PATTERN => ("int64", None, i64::MAX.into()),
        UINT_STRING_PATTERN => ("uint64", Some(0), u64::MAX.into()),
        _ => return None,
    };
    let bound = |key: &str| -> Option<Option<i128>> {
        match int.get(key) {
            None => Some(None),
            Some(v) => v
                .as_i64()
                .map(i128::from)
                .or_else(|| v.as_u64().map(i128::from))
                .map(Some),
        }
    };
    let minimum = bound("minimum")?;
    let min_ok = match (format, minimum) {
        ("int64", None) => true,
        ("int64", Some(m)) => m == i128::from(i64::MIN),
        (_, m) => m == min,
    };
    let max_ok = bound("maximum")?.is_none_or(|m| m == max);
    let format_ok = int.get("format").is_none_or(|f| f.as_str() == Some(format));
    (min_ok && max_ok && format_ok).then_some(format)
}

/// A number type the model lacks (or, for int64 and uint64, one [`wide_integer`] reads first), as bufbuild's protoc-gen-jsonschema spells it (an `anyOf` of a
/// JSON number and the strings ProtoJSON also reads): the protobuf type's name.
///
/// - int64: `[{"type": "integer"}, {"type": "string", "pattern": "^-?[0-9]+$"}]`
/// - uint64: `[{"type": "integer", "minimum": 0}, {"type": "string", "pattern": "^[0-9]+$"}]`
/// - uint32: the same with `"maximum": 4294967295`
/// - float / double: `[{"type": "number", ...}, {"type": "string", "enum": ["Infinity",
///   "-Infinity", "NaN"]}, {"type": "string"}]` (a float's number has the float32 range)
pub(super) fn wide_number(any: &Value) -> Option<&'static str> {
    let branches = any.as_array()?;
    let objects: Vec<&Map<String, Value>> = branches
        .iter()
        .map(Value::as_object)
        .collect::<Option<_>>()?;
    let ty = |b: &Map<String, Value>| b.get("type").and_then(Value::as_str).map(str::to_owned);
    let has = |b: &Map<String, Value>, key: &str| b.get(key).is_some();
    match objects.as_slice() {
        [number, digits] if ty(number).as_deref() == Some("integer") => {
            let pattern = string_branch(digits, "pattern").and_then(Value::as_str)?;
            let minimum = number.get("minimum").and_then(Value::as_i64);
            let maximum = number.get("maximum").and_then(Value::as_u64);
            let bounds = number.len() - 1;
            match (pattern, minimum, maximum, bounds) {
                (INT_STRING_PATTERN, None, None, 0) => Some("int64"),
                (UINT_STRING_PATTERN, Some(0), None, 1) => Some("uint64"),
                (UINT_STRING_PATTERN, Some(0), Some(m), 2) if m == u64::from(u32::MAX) => {
                    Some("uint32")
                }
                _ => None,
            }
        }
        [number, extremes, any_string]
            if ty(number).as_deref() == Some("number")
                && string_branch(extremes, "enum").is_some()
                && any_string.len() == 1
                && ty(any_string).as_deref() == Some("string") =>
        {
            Some(if has(number, "maximum") {
                "float"
            } else {
                "double"
            })
        }
        _ => None,
    }
}

/// Whether `value` is the ProtoJSON zero value of a schema of type `ty`.
pub(super) fn is_zero(ty: Option<&str>, value: &Value) -> bool {
    match ty {
        Some("string") => value.as_str() == Some(""),
        Some("boolean") => value.as_bool() == Some(false),
        Some("integer") | Some("number") => value.as_f64() == Some(0.0),
        _ => false,
    }
}
