// The expansion names everything by absolute path: user items called like std's, core's or the
// runtime's do not get in its way, and field names that are constants or keywords are fine.
#![allow(non_camel_case_types, non_upper_case_globals, dead_code)]

use a2a_types::AgentError;

mod core {}
mod std {}
struct Option;
struct Some;
struct None;
struct i64;
struct str;
struct ErrorRow;
struct ErrorDetail;
struct Value;
fn field() {}
fn field_value() {}
fn find_fields() {}
const seconds: u8 = 3;

macro_rules! declare {
    ($code:expr) => {
        #[derive(Debug, AgentError)]
        pub enum FromAMacro {
            #[a2a(code = $code)]
            Declared {
                seconds: u8,
                r#type: ::std::string::String,
            },
        }
    };
}

declare!(-32050);

fn main() {}
