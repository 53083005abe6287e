//! Limits on what the decoders accept: the size of a body (or of one streamed event) and how
//! deeply its JSON nests. A body over a limit is refused before it is parsed, with a reason, the
//! same way any other malformed body is.
//!
//! The defaults: 16 MiB per body or event, and a depth of 128 (serde_json's own limit, which
//! every decode has anyway, so the default costs no extra pass over the bytes). A lower depth
//! makes the decoder scan the body once before parsing it.

/// The largest body (or streamed event) the decoders take by default, in bytes.
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The deepest nesting of arrays and objects any decode allows: serde_json's own limit.
pub const MAX_DEPTH: usize = 128;

/// Limits on a body's size and nesting depth.
///
/// ```
/// use a2a_runtime::limits::Limits;
///
/// let limits = Limits::default().with_max_body_bytes(1024).with_max_depth(8);
/// assert!(limits.check(br#"{"result":{"a":[1,2,3]}}"#).is_ok());
/// assert_eq!(
///     limits.check(br#"[[[[[[[[[1]]]]]]]]]"#).unwrap_err(),
///     "the body nests deeper than the limit of 8"
/// );
/// assert_eq!(
///     limits.check(&[b' '; 2000]).unwrap_err(),
///     "the body is 2000 bytes, over the limit of 1024"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    max_body_bytes: usize,
    max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

impl Limits {
    /// 16 MiB, depth 128.
    pub const DEFAULT: Limits = Limits {
        max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        max_depth: MAX_DEPTH,
    };

    /// These limits with a body (or event) of at most `bytes` bytes.
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// These limits with arrays and objects nested at most `depth` deep (`[[1]]` is 2 deep).
    /// Values above [`MAX_DEPTH`] are lowered to it: serde_json never goes deeper.
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth.min(MAX_DEPTH);
        self
    }

    /// The largest body accepted, in bytes.
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_bytes
    }

    /// The deepest nesting accepted.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Checks a body against the limits; the error is the reason, in the words of the
    /// decoders' other reasons ("the body ...").
    pub fn check(&self, body: &[u8]) -> Result<(), String> {
        if body.len() > self.max_body_bytes {
            return Err(format!(
                "the body is {} bytes, over the limit of {}",
                body.len(),
                self.max_body_bytes
            ));
        }
        // At serde_json's own limit the parse itself enforces the depth; only a lower limit
        // needs the scan.
        if self.max_depth < MAX_DEPTH && nests_deeper_than(body, self.max_depth) {
            return Err(format!(
                "the body nests deeper than the limit of {}",
                self.max_depth
            ));
        }
        Ok(())
    }
}

/// Whether the JSON text nests arrays and objects deeper than `max`. Brackets inside strings do
/// not count. Not a validator: on text that is not JSON the answer only has to be safe, and the
/// parse that follows reports the real problem.
fn nests_deeper_than(body: &[u8], max: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in body {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_in_strings_do_not_count() {
        assert!(!nests_deeper_than(br#"{"a":"[[[[{{{{"}"#, 1));
        assert!(!nests_deeper_than(br#"{"a":"\"[[[["}"#, 1));
        assert!(!nests_deeper_than(br#"{"a":"\\"}"#, 1));
        assert!(nests_deeper_than(br#"{"a":"\\",[1]}"#, 1));
        assert!(nests_deeper_than(br#"{"a":{"b":[]}}"#, 2));
        assert!(!nests_deeper_than(br#"{"a":{"b":[]}}"#, 3));
        assert!(
            !nests_deeper_than(b"]]]]{", 1),
            "unbalanced text is the parser's problem"
        );
    }

    #[test]
    fn depth_is_capped_at_serde_jsons_limit() {
        assert_eq!(
            Limits::default().with_max_depth(1000).max_depth(),
            MAX_DEPTH
        );
        assert_eq!(Limits::default().with_max_depth(3).max_depth(), 3);
    }

    #[test]
    fn the_default_limits_take_an_ordinary_body_without_scanning() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        // Depth 200 passes the check (the parse refuses it with its own reason).
        assert!(Limits::DEFAULT.check(deep.as_bytes()).is_ok());
        assert!(Limits::DEFAULT
            .with_max_depth(127)
            .check(deep.as_bytes())
            .is_err());
    }
}
