//! Any UTF-8 text as DhtmlXQ. Reading never panics; every game that reads is written and reads
//! back with the same start and moves; `read_game` reads the first of `read_games`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::record::dhtmlxq;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let first = dhtmlxq::read_game(text);
    let Ok(games) = dhtmlxq::read_games(text) else {
        return;
    };
    let first = first.expect("read_games read what read_game did not");
    assert_eq!(first.moves, games[0].moves);
    for game in &games {
        assert_eq!(game.moves.len(), game.texts.len());
        let written = dhtmlxq::write(game);
        let back = dhtmlxq::read_games(&written)
            .unwrap_or_else(|e| panic!("written:\n{written}\nnot read back: {e}"));
        assert_eq!(back.len(), 1, "{written}");
        // The side to move is not written; with no moves the reader works it out again.
        if !game.moves.is_empty() {
            assert_eq!(back[0].start, game.start, "{written}");
        }
        assert_eq!(back[0].moves, game.moves, "{written}");
    }
});
