//! Regressions found by the fuzz targets in `fuzz/` (see fuzz/README.md): each test replays the
//! input that failed, reduced, and checks what the target asserted.

use qili::Position;

/// fuzz target `fen`: undoing a black move at full-move 65535 (where the counter saturates)
/// left full-move 65534, so `play_unchecked` + `undo` did not restore the position.
#[test]
fn undo_restores_a_saturated_fullmove_counter() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 65535 65535";
    let p = Position::from_fen(fen).expect("valid FEN");
    for m in p.legal_moves() {
        let mut q = p;
        let undo = q.play_unchecked(m);
        q.undo(m, undo);
        assert_eq!(q.fen(), fen, "after {m} and its undo");
        assert_eq!(q.hash(), p.hash());
    }
}

/// fuzz target `fen`: a leniently read advisor or elephant standing where it could take the enemy
/// king was accepted, but check detection ignores those pieces, so the king could be left
/// attacked and then taken (`d9e8` took black's king). Such a piece is now rejected as unreachable.
#[test]
fn lenient_advisor_or_elephant_attacking_the_enemy_king_is_rejected() {
    for (fen, square) in [
        ("3A1h3/4k4/R8/9/9/9/9/9/9/5K3 w", "d9"), // red advisor next to black's king
        ("3k2B2/N1e6/5E3/9/9/9/9/9/9/5K3 w", "f7"), // red elephant: f7 takes d9
        ("4k4/9/9/9/9/9/9/9/4a4/3K5 b", "e1"),    // black advisor next to red's king
    ] {
        match Position::from_fen_lenient(fen) {
            Err(qili::FenError::Unreachable { square: s, .. }) => {
                assert_eq!(s.to_string(), square, "{fen}")
            }
            other => panic!("{fen}: {other:?}"),
        }
    }
    // Misplaced advisors and elephants that cannot reach the enemy king are still read.
    for fen in [
        "4k4/9/9/9/9/4A4/9/9/9/3K5 w",
        "3k5/9/9/9/4B4/9/9/9/9/4K4 b",
        "4k4/4A4/9/9/9/9/9/9/9/4K4 w",
    ] {
        let p = Position::from_fen_lenient(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for m in p.legal_moves() {
            let after = p.play(m).expect("legal");
            assert!(
                Position::from_fen_lenient(&after.fen()).is_ok(),
                "{fen} then {m}"
            );
        }
    }
}

/// fuzz target `pgn`: a `[Result]` tag that is not a result (`2/2-1/2`, `0-0`) was written as the
/// token ending the move text, and reading the written record took it for a move. It is now kept
/// among the tags only, and the move text ends with `*`.
#[test]
fn a_result_tag_that_is_not_a_result_is_not_written_as_a_move() {
    use qili::Notation;
    use qili::record::pgn::{read_game, write_game};
    for tag in ["2/2-1/2", "0-0", " 1-0x", "?"] {
        let record = format!("[Result \"{tag}\"]\n1. h2e2 h9g7\n");
        let game = read_game(record.as_bytes()).expect("readable record");
        assert_eq!(game.result.as_deref(), Some(tag.trim()));
        for n in Notation::ALL {
            let text = write_game(&game, n);
            let back = read_game(text.as_bytes())
                .unwrap_or_else(|e| panic!("{tag:?} written in {n}:\n{text}\nnot read back: {e}"));
            assert_eq!(back.moves, game.moves, "{text}");
            assert_eq!(back.tag("Result"), Some(tag), "{text}");
            assert!(text.ends_with("*\n"), "{text}");
        }
    }
    // A real result is still written as the closing token.
    let game = read_game(b"[Result \"1-0\"]\n1. h2e2 h9g7\n").expect("readable record");
    assert!(write_game(&game, Notation::Wxf).ends_with("1-0\n"));
}

/// fuzz target `xqf`: an XQF string is GBK, but two GBK bytes can also be valid UTF-8 (`C7 A0`
/// is 菭 in GBK, Ǡ in UTF-8), and strings were decoded as UTF-8 when they could be. They are
/// read as GBK now, as XQStudio writes them.
#[test]
fn xqf_strings_are_gbk_even_when_they_are_valid_utf8() {
    use qili::record::xqf;
    let game = qili::record::ucci::read("startpos").expect("startpos");
    let mut bytes = xqf::write(&game, &xqf::Options::default()).expect("writes");
    bytes[0x120..0x124].copy_from_slice(&[3, b'A', 0xC7, 0xA0]); // site: "A菭"
    let back = xqf::read(&bytes).expect("reads");
    assert_eq!(back.tag("Site"), Some("A菭"));
}

/// fuzz target `xqf`: a start with black to move and no moves lost its side when written as
/// version 10, which did not write the side to move (0x32); it is written in every version now.
#[test]
fn xqf_version_10_keeps_black_to_move() {
    use qili::record::xqf;
    let game = qili::record::ucci::read("fen 4k4/9/9/9/9/9/9/9/r8/3K5 b").expect("the FEN reads");
    for version in [10, 11, 18] {
        let options = xqf::Options {
            version,
            ..xqf::Options::default()
        };
        let back = xqf::read(&xqf::write(&game, &options).expect("writes")).expect("reads");
        assert_eq!(back.start.turn(), qili::Color::Black, "version {version}");
    }
}
