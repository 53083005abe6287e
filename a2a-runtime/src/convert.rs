//! Conversions between protocol versions: what the code `a2a-codegen` generates between two
//! modules (`a2a_types::v0_3` and `a2a_types::v1`) calls, and how a caller runs it.
//!
//! Every generated pair of types implements [`Convert`] both ways, and `TryFrom` on top of it:
//!
//! - `TryFrom` ([`strict`]) fails with a [`ConvertError`] as soon as a value cannot be carried
//!   by the other version (a 1.0 text part's `filename`, a 1.0 `ROLE_UNSPECIFIED`, a 0.3 file
//!   whose `bytes` are not base64). The error names the member, by its JSON path in the input.
//! - [`lossy`] carries on where the value has no place in the other version (leaving it out,
//!   or writing the version's default), and lists each such [`Loss`]; what cannot be converted at
//!   all (bad base64, a number out of range) is still an error. A server answering an older
//!   client with what a newer store holds uses this, as a2a-sdk's compat layer does.
//!
//! ```
//! use a2a_runtime::convert::{Convert, ConvertError, Cx};
//!
//! // Two versions of one type, and the conversion a generator would write.
//! struct Old { n: i64 }
//! struct New { n: i32 }
//! impl Convert<New> for Old {
//!     fn convert(self, cx: &mut Cx) -> Result<New, ConvertError> {
//!         Ok(New { n: cx.at("n", |cx| cx.narrow(self.n))? })
//!     }
//! }
//! let error = a2a_runtime::convert::strict::<Old, New>(Old { n: 1 << 40 }).err().unwrap();
//! assert_eq!(error.to_string(), "n: 1099511627776 is out of range for a 32-bit integer");
//! assert_eq!(a2a_runtime::convert::strict::<Old, New>(Old { n: 7 }).unwrap().n, 7);
//! ```

use crate::service::{EventStream, ServiceError};
use crate::table::ErrorTable;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// A conversion between two versions' types, with its context (where in the input it is, and
/// whether values the target cannot carry end it or are listed and left out).
pub trait Convert<T>: Sized {
    /// Converts `self`.
    fn convert(self, cx: &mut Cx) -> Result<T, ConvertError>;
}

/// Converts `value`, failing on anything the target version cannot carry.
pub fn strict<A: Convert<B>, B>(value: A) -> Result<B, ConvertError> {
    value.convert(&mut Cx::new(false))
}

/// Converts `value`, leaving out what the target version cannot carry and listing it.
pub fn lossy<A: Convert<B>, B>(value: A) -> Result<(B, Vec<Loss>), ConvertError> {
    let mut cx = Cx::new(true);
    let converted = value.convert(&mut cx)?;
    Ok((converted, cx.losses))
}

/// Why a value could not be converted: where (a JSON path in the input, `message.parts[1].file`)
/// and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    path: String,
    reason: Cow<'static, str>,
}

impl ConvertError {
    /// The JSON path of the member in the input (empty for the value itself).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why it could not be converted.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The same error below `prefix` (`params`): how a server names the member of a request.
    pub fn within(mut self, prefix: &str) -> Self {
        self.path = match self.path.is_empty() {
            true => prefix.to_owned(),
            false if self.path.starts_with('[') => format!("{prefix}{}", self.path),
            false => format!("{prefix}.{}", self.path),
        };
        self
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.is_empty() {
            true => f.write_str(&self.reason),
            false => write!(f, "{}: {}", self.path, self.reason),
        }
    }
}

impl std::error::Error for ConvertError {}

impl From<std::convert::Infallible> for ConvertError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// A value [`lossy`] left out: where, and why the target has no place for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// The JSON path of the member in the input.
    pub path: String,
    /// Why the target version cannot carry it.
    pub reason: Cow<'static, str>,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

/// One step of a path: a member or an index.
#[derive(Clone, Debug)]
enum Step {
    Member(Cow<'static, str>),
    Index(usize),
}

/// The state of one conversion: where it is, whether it is [`lossy`], and what it left out.
#[derive(Debug)]
pub struct Cx {
    lossy: bool,
    path: Vec<Step>,
    losses: Vec<Loss>,
}

impl Cx {
    /// A context at the root of the input; `lossy` says whether [`Cx::lose`] lists or fails.
    pub fn new(lossy: bool) -> Self {
        Cx {
            lossy,
            path: Vec::new(),
            losses: Vec::new(),
        }
    }

    /// What a lossy conversion left out so far.
    pub fn losses(&self) -> &[Loss] {
        &self.losses
    }

    /// Runs `f` with the path one member deeper.
    pub fn at<T>(
        &mut self,
        member: &'static str,
        f: impl FnOnce(&mut Self) -> Result<T, ConvertError>,
    ) -> Result<T, ConvertError> {
        self.path.push(Step::Member(Cow::Borrowed(member)));
        let out = f(self);
        self.path.pop();
        out
    }

    fn path_text(&self, last: Option<&str>) -> String {
        let mut out = String::new();
        let steps = self.path.iter().map(|s| match s {
            Step::Member(m) => Step::Member(m.clone()),
            Step::Index(i) => Step::Index(*i),
        });
        let last = last
            .filter(|m| !m.is_empty())
            .map(|m| Step::Member(Cow::Owned(m.to_owned())));
        for step in steps.chain(last) {
            match step {
                Step::Member(m) if out.is_empty() => out.push_str(&m),
                Step::Member(m) => {
                    out.push('.');
                    out.push_str(&m);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    /// An error at the current path.
    pub fn error(&self, reason: impl Into<Cow<'static, str>>) -> ConvertError {
        ConvertError {
            path: self.path_text(None),
            reason: reason.into(),
        }
    }

    /// `member` holds a value the target cannot carry: an error when strict; listed (and the
    /// caller leaves it out) when lossy. An empty `member` is the value at the current path.
    pub fn lose(
        &mut self,
        member: &'static str,
        reason: impl Into<Cow<'static, str>>,
    ) -> Result<(), ConvertError> {
        let (path, reason) = (self.path_text(Some(member)), reason.into());
        match self.lossy {
            true => {
                self.losses.push(Loss { path, reason });
                Ok(())
            }
            false => Err(ConvertError { path, reason }),
        }
    }

    /// [`Cx::lose`] when `value` is set (not its type's default): for a member only the input's
    /// version has.
    pub fn not_carried<T: PartialEq + Default>(
        &mut self,
        member: &'static str,
        value: &T,
        reason: &'static str,
    ) -> Result<(), ConvertError> {
        match *value == T::default() {
            true => Ok(()),
            false => self.lose(member, reason),
        }
    }

    /// A member the target requires and the input left out: its default when lossy (what
    /// a2a-sdk's compat layer writes, the proto default), an error when strict.
    pub fn required<T: Default>(
        &mut self,
        member: &'static str,
        value: Option<T>,
    ) -> Result<T, ConvertError> {
        match value {
            Some(v) => Ok(v),
            None => {
                self.lose(member, "absent, and the other version requires it")?;
                Ok(T::default())
            }
        }
    }

    /// Converts each item, its index in the path.
    pub fn each<A, B>(
        &mut self,
        items: Vec<A>,
        mut f: impl FnMut(A, &mut Self) -> Result<B, ConvertError>,
    ) -> Result<Vec<B>, ConvertError> {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            self.path.push(Step::Index(i));
            let converted = f(item, self);
            self.path.pop();
            out.push(converted?);
        }
        Ok(out)
    }

    /// Converts each value of a map, its key in the path.
    pub fn values<A, B>(
        &mut self,
        map: BTreeMap<String, A>,
        mut f: impl FnMut(A, &mut Self) -> Result<B, ConvertError>,
    ) -> Result<BTreeMap<String, B>, ConvertError> {
        let mut out = BTreeMap::new();
        for (key, value) in map {
            self.path.push(Step::Member(Cow::Owned(key.clone())));
            let converted = f(value, self);
            self.path.pop();
            out.insert(key, converted?);
        }
        Ok(out)
    }

    /// A 64-bit integer where the target has 32 bits: an error when out of range (no lossy
    /// conversion makes up another number).
    pub fn narrow(&self, value: i64) -> Result<i32, ConvertError> {
        i32::try_from(value)
            .map_err(|_| self.error(format!("{value} is out of range for a 32-bit integer")))
    }

    /// Base64 text (a 0.3 file's `bytes`) as bytes: an error when it is not base64.
    pub fn base64(&self, text: &str) -> Result<crate::Bytes, ConvertError> {
        crate::wire::bytes::decode_text(text)
            .map(crate::Bytes)
            .map_err(|detail| self.error(format!("invalid base64: {detail}")))
    }
}

/// A 0.3 security requirement (scheme names to scopes), as a type of this crate: the generated
/// conversion to 1.0's `SecurityRequirement` is implemented on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Security(pub BTreeMap<String, Vec<String>>);

/// A call's params in the served version, converted strictly: what it cannot express is the
/// caller's invalid params (-32602), the message naming the member (`params.message.parts[0]`).
pub fn params<P: Convert<Q>, Q, B: ErrorTable>(params: P) -> Result<Q, ServiceError<B>> {
    strict(params).map_err(|e| {
        ServiceError::Standard(B::from_code(
            crate::jsonrpc::codes::INVALID_PARAMS,
            Some(e.within("params").to_string()),
            None,
        ))
    })
}

/// A method's reply in the caller's version: converted lossily (what that version cannot carry is
/// left out); an error keeps its code, message and data. What cannot be converted at all is an
/// internal error naming the member.
pub fn reply<T: Convert<R>, R, A: ErrorTable, B: ErrorTable>(
    reply: Result<T, ServiceError<A>>,
) -> Result<R, ServiceError<B>> {
    match reply {
        Ok(value) => lossy(value)
            .map(|(converted, _)| converted)
            .map_err(|e| ServiceError::internal(format!("the reply cannot be converted: {e}"))),
        Err(e) => Err(e.recode()),
    }
}

/// A streaming method's reply in the caller's version: each event as [`reply`] converts it.
pub fn events<T, R, A, B>(
    reply: Result<EventStream<T, A>, ServiceError<A>>,
) -> Result<EventStream<R, B>, ServiceError<B>>
where
    T: Convert<R> + 'static,
    R: Send + 'static,
    A: ErrorTable + 'static,
    B: ErrorTable + Send + 'static,
{
    match reply {
        Ok(stream) => Ok(Box::pin(Events {
            inner: stream,
            out: std::marker::PhantomData,
        })),
        Err(e) => Err(e.recode()),
    }
}

/// The stream behind [`events`] (both fields `Unpin`: the inner stream is boxed).
struct Events<T, R, A, B> {
    inner: EventStream<T, A>,
    out: std::marker::PhantomData<fn() -> (R, B)>,
}

impl<T, R, A, B> futures_core::Stream for Events<T, R, A, B>
where
    T: Convert<R>,
    A: ErrorTable,
    B: ErrorTable,
{
    type Item = Result<R, ServiceError<B>>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.inner
            .as_mut()
            .poll_next(cx)
            .map(|item| item.map(|r| reply(r)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// Bytes as standard padded base64 text (how 0.3 carries a file's `bytes`).
pub fn to_base64(bytes: &[u8]) -> String {
    crate::wire::bytes::encode_text(bytes)
}

/// A free-form object as any JSON value (a 0.3 data part's `data` in 1.0).
pub fn object_to_value(map: serde_json::Map<String, serde_json::Value>) -> serde_json::Value {
    serde_json::Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_members_and_indexes() {
        let mut cx = Cx::new(false);
        let e = cx
            .at("message", |cx| {
                cx.at("parts", |cx| {
                    cx.each(vec![1, 2], |n, cx| match n {
                        2 => Err(cx.error("bad")),
                        n => Ok(n),
                    })
                })
            })
            .unwrap_err();
        assert_eq!(e.to_string(), "message.parts[1]: bad");
        assert_eq!(e.within("params").path(), "params.message.parts[1]");
        assert_eq!(cx.error("x").within("params").to_string(), "params: x");
    }

    #[test]
    fn lossy_lists_what_strict_refuses() {
        let mut strict = Cx::new(false);
        let e = strict
            .at("part", |cx| {
                cx.not_carried("filename", &Some(1), "no place")
            })
            .unwrap_err();
        assert_eq!(e.to_string(), "part.filename: no place");
        let mut lossy = Cx::new(true);
        lossy
            .at("part", |cx| {
                cx.not_carried("filename", &Some(1), "no place")
            })
            .unwrap();
        lossy.not_carried("unset", &None::<u8>, "never").unwrap();
        assert_eq!(lossy.losses()[0].to_string(), "part.filename: no place");
        assert_eq!(lossy.losses().len(), 1);
        assert_eq!(lossy.required::<String>("contextId", None).unwrap(), "");
        assert!(Cx::new(false)
            .required::<String>("contextId", None)
            .is_err());
    }

    #[test]
    fn narrows_and_reads_base64() {
        let cx = Cx::new(true);
        assert_eq!(cx.narrow(-5).unwrap(), -5);
        assert!(cx.narrow(i64::MAX).is_err());
        assert_eq!(&*cx.base64("aGk=").unwrap(), b"hi");
        assert_eq!(&*cx.base64("aGk").unwrap(), b"hi");
        assert!(cx
            .base64("*")
            .unwrap_err()
            .reason()
            .starts_with("invalid base64"));
        assert_eq!(to_base64(b"hi"), "aGk=");
    }
}
