//! Any UTF-8 text as a UCCI position string, alone and in a ruling request's `fen`. Reading
//! never panics; a game that reads writes back to a string that reads the same; as a request's
//! `fen` it parses to the same start and moves, and an error names `fen` or a move within them.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::record::ucci;
use qili::request::Request;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let read = ucci::read(text);
    if let Ok(game) = &read {
        let written = ucci::write(game);
        let back = ucci::read(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(back.start, game.start, "{written}");
        assert_eq!(back.moves, game.moves, "{written}");
    }
    if !ucci::is_position_string(text) {
        return;
    }
    let request = Request {
        fen: text.to_string(),
        ..Request::default()
    };
    match (request.parse(), &read) {
        (Ok((start, moves)), Ok(game)) => {
            assert_eq!(start, game.start);
            assert_eq!(moves, game.moves);
        }
        (Err(e), _) => {
            let _ = e.to_string();
            if let Some(ply) = e.ply() {
                assert!(ply < text.split_whitespace().count());
            } else {
                assert_eq!(e.field(), "fen");
            }
        }
        (Ok(_), Err(e)) => panic!("the request reads but the string does not: {e}"),
    }
});
