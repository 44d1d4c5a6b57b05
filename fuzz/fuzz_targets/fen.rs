//! FEN text, strict and lenient. An accepted FEN writes back to a FEN that reads as the same
//! position; every legal move played from it gives a position that round-trips too, and undoing
//! it restores the position and its hash.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let strict = Position::from_fen(text);
    let lenient = Position::from_fen_lenient(text);
    if let Err(e) = &strict {
        let _ = e.to_string();
    }
    if let Ok(p) = &strict {
        let l = lenient
            .as_ref()
            .expect("a strict FEN is also a lenient one");
        assert_eq!(p.fen(), l.fen());
    }
    let Ok(p) = lenient else {
        return;
    };
    let read = if strict.is_ok() {
        Position::from_fen
    } else {
        Position::from_fen_lenient
    };
    let fen = p.fen();
    let again = read(&fen).unwrap_or_else(|e| panic!("{fen:?} written for {text:?}: {e}"));
    assert_eq!(again.fen(), fen);
    assert_eq!(again.hash(), p.hash(), "{fen}");

    let moves = p.legal_moves();
    assert_eq!(moves.len(), p.count_legal_moves());
    assert_eq!(moves.is_empty(), !p.has_legal_move());
    let _ = p.outcome();
    for &m in &moves {
        let after = p.play(m).unwrap_or_else(|e| panic!("{m} in {fen}: {e}"));
        let after_fen = after.fen();
        // Only a strict position is sure to stay readable after a move: a leniently placed advisor
        // or elephant may step next to the enemy king, or the king next to it (fuzz/README.md).
        if strict.is_ok() {
            let reread =
                read(&after_fen).unwrap_or_else(|e| panic!("{after_fen:?} after {m}: {e}"));
            assert_eq!(reread.fen(), after_fen);
            assert_eq!(reread.hash(), after.hash(), "{after_fen}");
        }
        let mut q = p;
        let undo = q.play_unchecked(m);
        q.undo(m, undo);
        assert_eq!(q.fen(), fen);
        assert_eq!(q.hash(), p.hash());
    }
});
