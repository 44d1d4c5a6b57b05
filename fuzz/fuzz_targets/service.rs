//! The service's path without the transport: protobuf bytes decoded as an `AdjudicateRequest`
//! (first byte even) or an `AnalyzeRequest` (odd), converted as the handlers do, ruled on or
//! analysed, and the answer converted back to its message.
#![no_main]
use libfuzzer_sys::fuzz_target;
use prost::Message;
use qili::Position;
use qili::request::RequestError;
use qili::rules::{self, BySide, Options};
use qili::service::{Failure, convert, pb};

fn adjudicate(bytes: &[u8]) {
    let Ok(r) = pb::AdjudicateRequest::decode(bytes) else {
        return;
    };
    if r.moves.len() > qili_fuzz::MAX_MOVES {
        return; // the handler refuses these before converting
    }
    let Ok((request, request_id, wanted)) = convert::into_request(r) else {
        return;
    };
    match qili_fuzz::check_request(&request) {
        Some(ruling) => {
            let out = convert::reply(ruling, request_id, wanted);
            let _ = out.encode_to_vec();
        }
        None => {
            let e = qili::request::adjudicate(&request).expect_err("adjudicate is deterministic");
            let _ = Failure::from(e).to_status();
        }
    }
}

fn analyze(bytes: &[u8]) {
    let Ok(r) = pb::AnalyzeRequest::decode(bytes) else {
        return;
    };
    let (Ok(ruleset), Ok(notation), Ok(language)) = (
        convert::ruleset(&r.ruleset, qili::lang::Lang::En),
        convert::notation(r.notation),
        convert::language(r.language),
    ) else {
        return;
    };
    let options = Options {
        ruleset,
        defensive_key_point: BySide {
            red: r.defensive_key_point.as_ref().is_some_and(|b| b.red),
            black: r.defensive_key_point.as_ref().is_some_and(|b| b.black),
        },
        ..Options::default()
    };
    let position = if r.fen.trim().is_empty() {
        Position::start()
    } else {
        match Position::from_fen(&r.fen) {
            Ok(p) => p,
            Err(e) => {
                let _ = Failure::from(RequestError::from(e)).to_status();
                return;
            }
        }
    };
    let mv = if r.r#move.trim().is_empty() {
        None
    } else {
        match qili::request::parse_moves(&position, &[r.r#move.as_str()], notation) {
            Ok(moves) => moves.first().copied(),
            Err(e) => {
                let _ = e.to_string();
                return;
            }
        }
    };
    if let Some(m) = mv {
        position.play(m).expect("a parsed move is legal");
    }
    let a = rules::analyze(&position, mv, &options);
    let out = convert::analysis(a, r.request_id, language);
    let _ = out.encode_to_vec();
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    if selector & 1 == 0 {
        adjudicate(rest);
    } else {
        analyze(rest);
    }
});
