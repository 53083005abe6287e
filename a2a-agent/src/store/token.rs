//! Page tokens: the position after a page's last item, written as lowercase hex of a short text
//! (`t1:<seconds>:<nanos>:<id>` for tasks, `c1:<id>` for configs).
//!
//! Tokens are opaque to clients but not secret, nor signed: a crafted token only moves where a
//! list of the caller's own tenant starts, which the caller can do with the filters anyway. The
//! version prefix lets a later format be told apart; every store of this crate writes and reads
//! the same tokens, so a client may page across replicas.

use super::{SortKey, StoreError};

const TASK_PREFIX: &str = "t1:";
const CONFIG_PREFIX: &str = "c1:";

/// The token of the task list page that starts after `last`.
pub(crate) fn task_token(last: &SortKey) -> String {
    hex(&format!(
        "{TASK_PREFIX}{}:{}:{}",
        last.seconds, last.nanos, last.id
    ))
}

/// The position a task list token names.
pub(crate) fn parse_task_token(token: &str) -> Result<SortKey, StoreError> {
    let text = unhex(token).ok_or(StoreError::InvalidPageToken)?;
    let rest = text
        .strip_prefix(TASK_PREFIX)
        .ok_or(StoreError::InvalidPageToken)?;
    let mut fields = rest.splitn(3, ':');
    let (Some(seconds), Some(nanos), Some(id)) = (fields.next(), fields.next(), fields.next())
    else {
        return Err(StoreError::InvalidPageToken);
    };
    let seconds = seconds
        .parse::<i64>()
        .map_err(|_| StoreError::InvalidPageToken)?;
    let nanos = nanos
        .parse::<u32>()
        .ok()
        .filter(|n| *n < 1_000_000_000)
        .ok_or(StoreError::InvalidPageToken)?;
    Ok(SortKey {
        seconds,
        nanos,
        id: id.to_owned(),
    })
}

/// The token of the config list page that starts after the config `last_id`.
pub(crate) fn config_token(last_id: &str) -> String {
    hex(&format!("{CONFIG_PREFIX}{last_id}"))
}

/// The config id a config list token names.
pub(crate) fn parse_config_token(token: &str) -> Result<String, StoreError> {
    let text = unhex(token).ok_or(StoreError::InvalidPageToken)?;
    text.strip_prefix(CONFIG_PREFIX)
        .map(str::to_owned)
        .ok_or(StoreError::InvalidPageToken)
}

fn hex(text: &str) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(text.len() * 2);
    for b in text.bytes() {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

/// The text a token of [`hex`] holds, or `None` when it is not lowercase hex of UTF-8.
fn unhex(token: &str) -> Option<String> {
    fn digit(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        }
    }
    let bytes = token.as_bytes();
    if bytes.is_empty() || bytes.len() % 2 != 0 {
        return None;
    }
    let raw = bytes
        .chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(raw).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seconds: i64, nanos: u32, id: &str) -> SortKey {
        SortKey {
            seconds,
            nanos,
            id: id.to_owned(),
        }
    }

    #[test]
    fn task_tokens_round_trip_ids_with_colons_and_unicode() {
        for k in [
            key(0, 0, "t"),
            key(-62_135_596_800, 999_999_999, "a:b:c"),
            key(1_700_000_000, 5, "tâche-é"),
            key(1, 2, ""),
        ] {
            assert_eq!(parse_task_token(&task_token(&k)).unwrap(), k);
        }
    }

    #[test]
    fn config_tokens_round_trip() {
        assert_eq!(parse_config_token(&config_token("c:1")).unwrap(), "c:1");
    }

    #[test]
    fn malformed_tokens_are_invalid_page_tokens() {
        let task = task_token(&key(1, 2, "x"));
        for bad in [
            "",
            "zz",
            "abc",
            "ABCD",
            &task[..task.len() - 1],
            &hex("t1:1:2"),
            &hex("t1:x:2:id"),
            &hex("t1:1:1000000000:id"),
            &hex("t2:1:2:id"),
            &config_token("id"),
        ] {
            assert!(
                matches!(parse_task_token(bad), Err(StoreError::InvalidPageToken)),
                "{bad:?}"
            );
        }
        assert!(matches!(
            parse_config_token(&task),
            Err(StoreError::InvalidPageToken)
        ));
        // Not UTF-8 once decoded.
        assert!(matches!(
            parse_config_token("ff"),
            Err(StoreError::InvalidPageToken)
        ));
    }
}
