//! `#[derive(AgentError)]`: the rows it declares, the wire form of each variant, decoding back
//! (fields, `Option` fields left out, nested structs, broken data; by code, and by reason as the
//! HTTP+JSON binding names errors), and the whole loop through the agent's encoder and the
//! client's decoders.

use a2a_types::rt::custom::{from_reason, FIELDS_TYPE_PREFIX};
use a2a_types::rt::ErrorRow;
use a2a_types::rt::RequestId;
use a2a_types::v1::{
    encode_error, encode_event, method, A2aError, CallError, Decoder, StreamResponse, Task,
};
use a2a_types::AgentError;
use serde_json::{json, Value};

/// A billing agent's own errors.
#[derive(Debug, PartialEq, Clone, AgentError)]
pub enum BillingError {
    /// The account used up its quota
    /// for the period.
    #[a2a(code = -32050, message = "quota exceeded", grpc = "RESOURCE_EXHAUSTED", http = 429)]
    QuotaExceeded { retry_after_secs: u32 },
    #[a2a(code = 42)]
    PlanExpired,
    #[a2a(grpc = "NOT_FOUND", reason = "INVOICE_NOT_FOUND")]
    #[a2a(code = 7)]
    InvoiceMissing {
        invoice_id: String,
        r#type: Option<String>,
        period: Period,
    },
    #[a2a(code = -32099, http = 503, grpc = "UNAVAILABLE", message = "try later")]
    HTTPGatewayDown {},
    #[a2a(code = -32769)]
    BelowReserved,
}

/// A nested field: travels in its own serde form.
#[derive(Debug, PartialEq, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Period {
    start_day: u32,
    end_day: Option<u32>,
}

/// Only unit variants, at the ends of the `i64` range.
#[derive(Debug, PartialEq, AgentError)]
enum Extremes {
    #[a2a(code = -9223372036854775808)]
    Lowest,
    #[a2a(code = 9223372036854775807i64)]
    Highest,
}

/// No variants at all.
#[derive(Debug, AgentError)]
enum Nothing {}

fn quota() -> BillingError {
    BillingError::QuotaExceeded {
        retry_after_secs: 30,
    }
}

fn invoice() -> BillingError {
    BillingError::InvoiceMissing {
        invoice_id: "inv-7".into(),
        r#type: Some("monthly".into()),
        period: Period {
            start_day: 1,
            end_day: Some(30),
        },
    }
}

fn every_billing_error() -> Vec<BillingError> {
    vec![
        quota(),
        BillingError::PlanExpired,
        invoice(),
        BillingError::HTTPGatewayDown {},
        BillingError::BelowReserved,
    ]
}

fn row(
    name: &'static str,
    code: i64,
    grpc: &'static str,
    http: u16,
    message: &'static str,
    reason: &'static str,
    doc: &'static str,
) -> ErrorRow {
    ErrorRow {
        name,
        spec_name: name,
        code,
        grpc,
        http,
        message,
        reason: Some(reason),
        standard: false,
        doc,
    }
}

#[test]
fn rows_take_the_attributes_and_the_defaults() {
    assert_eq!(BillingError::DOMAIN, "BillingError");
    assert_eq!(
        BillingError::ROWS,
        [
            row(
                "QuotaExceeded",
                -32050,
                "RESOURCE_EXHAUSTED",
                429,
                "quota exceeded",
                "QUOTA_EXCEEDED",
                "The account used up its quota for the period.",
            ),
            row(
                "PlanExpired",
                42,
                "UNKNOWN",
                500,
                "Plan expired",
                "PLAN_EXPIRED",
                "Plan expired",
            ),
            // `http` defaults to the status of the `grpc` code.
            row(
                "InvoiceMissing",
                7,
                "NOT_FOUND",
                404,
                "Invoice missing",
                "INVOICE_NOT_FOUND",
                "Invoice missing",
            ),
            row(
                "HTTPGatewayDown",
                -32099,
                "UNAVAILABLE",
                503,
                "try later",
                "HTTP_GATEWAY_DOWN",
                "try later",
            ),
            row(
                "BelowReserved",
                -32769,
                "UNKNOWN",
                500,
                "Below reserved",
                "BELOW_RESERVED",
                "Below reserved",
            ),
        ]
    );
    assert_eq!(Nothing::ROWS, []);
    assert_eq!(Nothing::DOMAIN, "Nothing");
}

#[test]
fn code_row_and_message_follow_the_variant() {
    let codes: Vec<i64> = every_billing_error().iter().map(|e| e.code()).collect();
    assert_eq!(codes, [-32050, 42, 7, -32099, -32769]);
    for (error, row) in every_billing_error().iter().zip(BillingError::ROWS) {
        assert_eq!(error.row(), row);
        assert_eq!(error.message(), row.message);
    }
    assert_eq!(Extremes::Lowest.code(), i64::MIN);
    assert_eq!(Extremes::Highest.code(), i64::MAX);
}

#[test]
fn data_is_the_error_info_then_the_fields_object() {
    assert_eq!(
        quota().data(),
        json!([
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "QUOTA_EXCEEDED",
             "domain": "BillingError", "metadata": {}},
            {"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": 30}
        ])
    );
    assert_eq!(
        BillingError::PlanExpired.data(),
        json!([
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "PLAN_EXPIRED",
             "domain": "BillingError", "metadata": {}}
        ])
    );
    assert_eq!(
        invoice().data(),
        json!([
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INVOICE_NOT_FOUND",
             "domain": "BillingError", "metadata": {}},
            {"@type": "type.a2a-codegen/BillingError.InvoiceMissing", "invoiceId": "inv-7",
             "type": "monthly", "period": {"startDay": 1, "endDay": 30}}
        ])
    );
    // A variant with empty braces has no fields object.
    assert_eq!(BillingError::HTTPGatewayDown {}.fields_detail(), None);
    assert_eq!(BillingError::PlanExpired.fields_detail(), None);
    // The derive writes the runtime's prefix.
    let detail = quota().fields_detail().unwrap();
    assert_eq!(
        detail.type_url(),
        format!("{FIELDS_TYPE_PREFIX}BillingError.QuotaExceeded")
    );
}

#[test]
fn every_variant_round_trips_through_code_and_data() {
    for error in every_billing_error() {
        let data = error.data();
        assert_eq!(
            BillingError::from_code_and_data(error.code(), Some(&data)),
            Some(error.clone()),
            "{data}"
        );
    }
    for error in [Extremes::Lowest, Extremes::Highest] {
        assert_eq!(
            Extremes::from_code_and_data(error.code(), Some(&error.data())),
            Some(error)
        );
    }
    // Variants without fields need no data at all.
    assert_eq!(
        BillingError::from_code_and_data(42, None),
        Some(BillingError::PlanExpired)
    );
    assert_eq!(
        BillingError::from_code_and_data(-32099, Some(&json!("anything"))),
        Some(BillingError::HTTPGatewayDown {})
    );
}

#[test]
fn option_fields_may_be_left_out() {
    let data = json!([
        {"@type": "type.a2a-codegen/BillingError.InvoiceMissing", "invoiceId": "inv-7",
         "period": {"startDay": 3}}
    ]);
    assert_eq!(
        BillingError::from_code_and_data(7, Some(&data)),
        Some(BillingError::InvoiceMissing {
            invoice_id: "inv-7".into(),
            r#type: None,
            period: Period {
                start_day: 3,
                end_day: None,
            },
        })
    );
}

#[test]
fn missing_or_garbled_fields_give_none() {
    let info = json!({"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                      "reason": "QUOTA_EXCEEDED", "domain": "BillingError", "metadata": {}});
    for data in [
        None,
        Some(json!(null)),
        Some(json!({"retryAfterSecs": 30})),
        Some(json!([info])),
        // The fields object of another variant.
        Some(
            json!([{"@type": "type.a2a-codegen/BillingError.InvoiceMissing", "retryAfterSecs": 30}]),
        ),
        // The member is missing, of the wrong type, or out of range.
        Some(json!([{"@type": "type.a2a-codegen/BillingError.QuotaExceeded"}])),
        Some(
            json!([{"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": "30"}]),
        ),
        Some(
            json!([{"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": -1}]),
        ),
        // The Rust name is not the member name.
        Some(
            json!([{"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retry_after_secs": 30}]),
        ),
    ] {
        assert_eq!(
            BillingError::from_code_and_data(-32050, data.as_ref()),
            None,
            "{data:?}"
        );
    }
    // A nested struct that does not decode.
    let data = json!([{"@type": "type.a2a-codegen/BillingError.InvoiceMissing",
                       "invoiceId": "i", "period": {"endDay": 3}}]);
    assert_eq!(BillingError::from_code_and_data(7, Some(&data)), None);
    // Codes the type does not declare.
    for code in [0, -32001, -32603, 43] {
        assert_eq!(
            BillingError::from_code_and_data(code, Some(&quota().data())),
            None
        );
    }
    assert!(Nothing::from_code_and_data(0, None).is_none());
}

/// Over HTTP+JSON an error is named by its ErrorInfo's reason (the Status's `code` is the HTTP
/// status): `from_reason` finds the row by reason, declared or default, and rebuilds the variant
/// from the details, fields included.
#[test]
fn every_variant_comes_back_from_its_reason_and_details() {
    for error in every_billing_error() {
        let details = error.data();
        let reason = details[0]["reason"].as_str().unwrap().to_string();
        assert_eq!(Some(reason.as_str()), error.row().reason);
        assert_eq!(
            from_reason::<BillingError>(&reason, "BillingError", &details),
            Some(error.clone()),
            "{details}"
        );
        // Another type's domain is not ours; no domain leaves the reason to decide.
        assert_eq!(
            from_reason::<BillingError>(&reason, "a2a-protocol.org", &details),
            None
        );
        assert_eq!(
            from_reason::<BillingError>(&reason, "", &details),
            Some(error.clone())
        );
    }
    // The declared reason replaces the name's: `INVOICE_MISSING` names nothing.
    assert_eq!(
        from_reason::<BillingError>("INVOICE_MISSING", "BillingError", &invoice().data()),
        None
    );
    // A reason of the type whose details lack the fields object stays undecoded.
    let bare = json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                       "reason": "QUOTA_EXCEEDED", "domain": "BillingError"}]);
    assert_eq!(
        from_reason::<BillingError>("QUOTA_EXCEEDED", "BillingError", &bare),
        None
    );
    assert_eq!(
        from_reason::<BillingError>("PLAN_EXPIRED", "BillingError", &json!([])),
        Some(BillingError::PlanExpired)
    );
    assert_eq!(
        from_reason::<BillingError>("TASK_NOT_FOUND", "BillingError", &json!([])),
        None
    );
}

/// The v0.3 table's rows have no reason, so a reason v1 takes is free against v0.3.
#[derive(Debug, PartialEq, AgentError)]
#[a2a(crate = "::a2a_types::v0_3")]
enum AgainstV03 {
    #[a2a(code = -32050)]
    TaskNotFound,
    #[a2a(code = -32051, reason = "UNSUPPORTED_OPERATION")]
    Unsupported,
}

#[test]
fn reasons_are_checked_against_the_crate_modules_table() {
    assert_eq!(
        AgainstV03::ROWS
            .iter()
            .map(|r| r.reason)
            .collect::<Vec<_>>(),
        [Some("TASK_NOT_FOUND"), Some("UNSUPPORTED_OPERATION")]
    );
    use a2a_types::rt::custom::is_reason_taken;
    assert!(is_reason_taken(
        &a2a_types::v1::ERROR_TABLE,
        "TASK_NOT_FOUND"
    ));
    assert!(!is_reason_taken(
        &a2a_types::v0_3::ERROR_TABLE,
        "TASK_NOT_FOUND"
    ));
    use a2a_types::rt::custom::TakenMessage;
    for row in a2a_types::v1::ERROR_TABLE.iter() {
        let reason = row.reason.unwrap_or("-");
        assert_eq!(
            is_reason_taken(&a2a_types::v1::ERROR_TABLE, reason),
            row.reason.is_some(),
            "{}",
            row.name
        );
        // The message of the derive's const check names the row.
        if row.reason.is_some() {
            let message = TakenMessage::for_reason(&a2a_types::v1::ERROR_TABLE, reason, "advice")
                .map(|m| m.as_str().to_string());
            assert_eq!(
                message.as_deref(),
                Some(&*format!(
                    "reason `{reason}` is taken by the standard error `{}` (A2A); advice",
                    row.name
                ))
            );
        }
    }
}

/// The types generated into a module of the user's own (here: re-exported), named by `crate`.
mod my {
    pub use ::a2a_types::v1::*;
}

#[derive(Debug, PartialEq, AgentError)]
#[a2a(crate = "my")]
enum ThroughMyModule {
    #[a2a(code = -32010)]
    Busy { seconds: u8 },
}

#[test]
fn the_crate_attribute_points_at_another_module() {
    let error = ThroughMyModule::Busy { seconds: 5 };
    assert_eq!(
        ThroughMyModule::from_code_and_data(-32010, Some(&error.data())),
        Some(error)
    );
}

fn error_body(error: &A2aError) -> Vec<u8> {
    encode_error(&RequestId::from(1), error)
}

#[test]
fn a_custom_error_comes_back_typed_through_the_wire() {
    let body = error_body(&A2aError::from_custom(&quota()));
    let wire: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(wire["error"]["code"], -32050);
    assert_eq!(wire["error"]["message"], "quota exceeded");
    assert_eq!(wire["error"]["data"], quota().data());

    assert_eq!(
        Decoder::new()
            .custom_errors::<BillingError>()
            .decode::<Task>(&body),
        Err(CallError::Custom {
            error: quota(),
            message: "quota exceeded".into()
        })
    );
    for error in every_billing_error() {
        let body = error_body(&A2aError::from_custom(&error));
        match Decoder::new()
            .custom_errors::<BillingError>()
            .decode::<Task>(&body)
        {
            Err(CallError::Custom {
                error: back,
                message,
            }) => {
                assert_eq!(back, error);
                assert_eq!(message, error.message());
            }
            other => panic!("{error:?}: {other:?}"),
        }
    }
    // Without the type, the same body is the catch-all with everything intact.
    match Decoder::new().decode::<Task>(&body) {
        Err(CallError::Agent(A2aError::Other {
            code,
            message,
            data,
        })) => {
            assert_eq!((code, message.as_str()), (-32050, "quota exceeded"));
            assert_eq!(data, Some(quota().data()));
            let other = A2aError::Other {
                code,
                message,
                data,
            };
            assert_eq!(other.to_custom::<BillingError>(), Some(quota()));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn standard_unknown_and_undecodable_codes_stay_agent_errors() {
    let not_found = A2aError::from_code(-32001, None, None);
    match Decoder::new()
        .custom_errors::<BillingError>()
        .decode::<Task>(&error_body(&not_found))
    {
        Err(CallError::Agent(A2aError::TaskNotFound { .. })) => {}
        other => panic!("{other:?}"),
    }
    let unknown = A2aError::from_code(43, Some("no such thing".into()), None);
    match Decoder::new()
        .custom_errors::<BillingError>()
        .decode::<Task>(&error_body(&unknown))
    {
        Err(CallError::Agent(A2aError::Other { code: 43, .. })) => {}
        other => panic!("{other:?}"),
    }
    // One of the type's codes without its fields object.
    let bare = A2aError::from_code(-32050, None, None);
    match Decoder::new()
        .custom_errors::<BillingError>()
        .decode::<Task>(&error_body(&bare))
    {
        Err(CallError::Agent(A2aError::Other { code: -32050, .. })) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_stream_event_carries_the_custom_error() {
    let id = RequestId::from(1);
    let error = A2aError::from_custom(&invoice());
    let event = encode_event::<method::SendStreamingMessage>(&id, Err(&error)).to_bytes();
    let mut decoder = Decoder::new()
        .custom_errors::<BillingError>()
        .stream::<StreamResponse>();
    let items = decoder.feed(&event);
    assert_eq!(
        items,
        [Err(CallError::Custom {
            error: invoice(),
            message: "Invoice missing".into()
        })]
    );
    assert!(decoder.finish().is_ok());
}

/// The message of the const check the derive emits per code: it names the row of the table
/// that takes the code, in both modules, and is `None` for a free code.
#[test]
fn the_code_check_names_the_row_that_takes_the_code() {
    use a2a_types::rt::custom::TakenMessage;
    use a2a_types::{v0_3, v1};
    let advice = "pick another";
    let message = |table: &[ErrorRow], taken: bool, code: i64| {
        TakenMessage::new(table, taken, code, advice).map(|m| m.as_str().to_string())
    };
    for (table, taken) in [
        (&v1::ERROR_TABLE[..], v1::is_code_taken as fn(i64) -> bool),
        (&v0_3::ERROR_TABLE[..], v0_3::is_code_taken),
    ] {
        for row in table {
            let family = if row.standard { "JSON-RPC" } else { "A2A" };
            assert_eq!(
                message(table, taken(row.code), row.code).as_deref(),
                Some(&*format!(
                    "code {} is taken by the standard error `{}` ({family}); {advice}",
                    row.code, row.name
                ))
            );
        }
        for free in [-32099, -32050, -32010, -32000, 0, 42, i64::MAX, i64::MIN] {
            assert_eq!(message(table, taken(free), free), None, "{free}");
        }
        assert_eq!(
            message(table, taken(-32500), -32500).as_deref(),
            Some("code -32500 is inside the JSON-RPC reserved block -32768..=-32100; pick another")
        );
    }
    // Evaluated at compile time, as in the derive's expansion.
    const TAKEN: Option<TakenMessage> =
        TakenMessage::new(&v1::ERROR_TABLE, v1::is_code_taken(-32001), -32001, "x");
    assert!(TAKEN.is_some_and(|m| m.as_str().contains("`TaskNotFound` (A2A)")));
    assert_eq!(
        message(&v1::ERROR_TABLE, true, i64::MIN).as_deref(),
        Some("code -9223372036854775808 is inside the JSON-RPC reserved block -32768..=-32100; pick another")
    );
}

/// Two agents may give one code different meanings: an error whose ErrorInfo names another
/// domain stays `A2aError::Other`, even with the code and the fields object of one of ours; with
/// no ErrorInfo at all, the code decides.
#[test]
fn an_error_info_of_another_domain_is_not_read_as_ours() {
    let other = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32050, "message": "their quota", "data": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "QUOTA_EXCEEDED", "domain": "MyErr"},
            {"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": 30}
        ]}}))
    .unwrap();
    match Decoder::new()
        .custom_errors::<BillingError>()
        .decode::<Task>(&other)
    {
        Err(CallError::Agent(A2aError::Other { code, message, .. })) => {
            assert_eq!((code, message.as_str()), (-32050, "their quota"));
        }
        other => panic!("{other:?}"),
    }
    let ours = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32050, "message": "quota", "data": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "QUOTA_EXCEEDED", "domain": "BillingError"},
            {"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": 30}
        ]}}))
    .unwrap();
    assert!(matches!(
        Decoder::new()
            .custom_errors::<BillingError>()
            .decode::<Task>(&ours),
        Err(CallError::Custom {
            error: BillingError::QuotaExceeded {
                retry_after_secs: 30
            },
            ..
        })
    ));
    let bare = br#"{"jsonrpc":"2.0","id":1,"error":{"code":42,"message":"expired"}}"#;
    assert!(matches!(
        Decoder::new()
            .custom_errors::<BillingError>()
            .decode::<Task>(bare),
        Err(CallError::Custom {
            error: BillingError::PlanExpired,
            ..
        })
    ));
}
