//! Why the macro refuses a code on its own knowledge: the JSON-RPC reserved block and the standard
//! errors, from `a2a-facts` (the codes of the A2A table are checked by the const assertion of the
//! expansion instead).

use a2a_facts::jsonrpc;

/// Why a code cannot be declared, or `None` when the macro sees nothing wrong with it.
pub fn reserved_reason(code: i64) -> Option<String> {
    if let Some(name) = jsonrpc::standard_message(code) {
        return Some(format!(
            "code {code} is the standard JSON-RPC error \"{name}\""
        ));
    }
    if jsonrpc::RESERVED.contains(&code) {
        return Some(format!(
            "code {code} is inside the JSON-RPC reserved block {}",
            jsonrpc::RESERVED_TEXT
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_block_and_standard_codes() {
        assert!(reserved_reason(-32768).is_some());
        assert!(reserved_reason(-32100).is_some());
        assert!(reserved_reason(-32099).is_none());
        assert!(reserved_reason(-32000).is_none());
        assert!(reserved_reason(-32769).is_none());
        assert!(reserved_reason(42).is_none());
        assert_eq!(
            reserved_reason(-32601).unwrap(),
            "code -32601 is the standard JSON-RPC error \"Method not found\""
        );
        assert_eq!(
            reserved_reason(-32100).unwrap(),
            "code -32100 is inside the JSON-RPC reserved block -32768..=-32100"
        );
    }
}
