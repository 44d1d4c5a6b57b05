//! A whole ruling request: options from the first byte, then the FEN line and the moves (see
//! `qili_fuzz::request_from_bytes`). Adjudication never panics, and a ruling stays within the
//! request's moves and the search bounds (`SearchLimits`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(request) = qili_fuzz::request_from_bytes(data) {
        qili_fuzz::check_request(&request);
    }
});
