//! The JSON API's path without the transport: any bytes as the body of `POST /v1/adjudicate`,
//! read as the JSON API reads a body (`service::decode_json`), converted as the handler does, ruled
//! on (with the `request` target's checks) and answered as the JSON API writes a ruling.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::lang::Lang;
use qili::service::{Failure, convert, decode_json, pb};

/// An error answer names what is at fault and says why, in at most 1 KiB.
fn check_error(e: &pb::Error) {
    assert_eq!(e.code, pb::ErrorCode::InvalidArgument as i32, "{e:?}");
    assert!(!e.message.is_empty());
    assert!(
        e.message.len() <= 1024 + '…'.len_utf8(),
        "{}",
        e.message.len()
    );
    if !e.field.is_empty() {
        assert!(e.message.starts_with(&e.field), "{e:?}");
    }
    if e.ply.is_some() {
        assert!(!e.field.is_empty(), "{e:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let r = match decode_json::<pb::AdjudicateRequest>(data) {
        Ok(r) => r,
        Err(e) => return check_error(&e),
    };
    if r.moves.len() > qili_fuzz::MAX_MOVES {
        return; // the handler refuses these before converting
    }
    let (request, request_id, wanted) = match convert::into_request(r) {
        Ok(taken) => taken,
        Err(f) => return check_error(&f.to_pb()),
    };
    match qili_fuzz::check_request(&request) {
        Some(ruling) => {
            let reply = convert::reply(ruling, request_id, wanted);
            let json = serde_json::to_vec(&reply).expect("a ruling writes as JSON");
            let back: pb::Ruling = serde_json::from_slice(&json).expect("the answer reads back");
            assert_eq!(back, reply, "{}", String::from_utf8_lossy(&json));
        }
        None => {
            let e = qili::request::adjudicate(&request).expect_err("adjudicate is deterministic");
            // The same error in either language: the same field and ply.
            let (zh, en) = (
                Failure::request(&e, Lang::Zh),
                Failure::request(&e, Lang::En),
            );
            assert_eq!((zh.field, zh.ply), (en.field, en.ply));
            check_error(&zh.to_pb());
            check_error(&en.to_pb());
        }
    }
});
