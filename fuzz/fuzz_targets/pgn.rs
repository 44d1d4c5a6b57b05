//! Any bytes as a PGN record (UTF-8, GBK, garbage). A game that reads is written in each notation
//! and read back with the same start and moves; `read_games` agrees with `read_game` on the first.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::Notation;
use qili::record::pgn::{read_game, read_games, write_game};

fuzz_target!(|data: &[u8]| {
    let first = read_game(data);
    match &first {
        Err(e) => {
            let _ = (e.to_string(), e.ply());
        }
        Ok(game) => {
            assert_eq!(game.moves.len(), game.texts.len());
            assert_eq!(game.positions().len(), game.moves.len() + 1);
            for n in Notation::ALL {
                let text = write_game(game, n);
                let back = read_game(text.as_bytes())
                    .unwrap_or_else(|e| panic!("written in {n}:\n{text}\nnot read back: {e}"));
                assert_eq!(
                    back.start.fen(),
                    game.start.fen(),
                    "written in {n}:\n{text}"
                );
                assert_eq!(back.moves, game.moves, "written in {n}:\n{text}");
            }
        }
    }
    if let Ok(games) = read_games(data) {
        let game = first
            .as_ref()
            .expect("read_games read a game that read_game did not");
        assert_eq!(games[0].moves, game.moves);
        assert_eq!(games[0].start.fen(), game.start.fen());
    }
});
