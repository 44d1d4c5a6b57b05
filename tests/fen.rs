//! Reading and writing FEN: accepted forms, round trips, and every rejection with its details.

use proptest::prelude::*;
use qili::{Color, FenError, Position, START_FEN, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(p) => panic!("{fen:?} was accepted as {}", p.fen()),
        Err(e) => e,
    }
}

#[test]
fn start_position_round_trips() {
    let pos = Position::from_fen(START_FEN).expect("start FEN");
    assert_eq!(pos.fen(), START_FEN);
    assert_eq!(pos, Position::start());
    assert_eq!(START_FEN.parse::<Position>(), Ok(pos));
}

#[test]
fn every_reference_position_round_trips() {
    for line in include_str!("data/movegen.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = v["fen"].as_str().expect("fen");
        let pos = Position::from_fen_lenient(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(), fen);
        assert_eq!(Position::from_fen_lenient(&pos.fen()), Ok(pos));
    }
}

#[test]
fn two_field_and_six_field_forms() {
    let short = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b").expect("2 fields");
    assert_eq!(short.turn(), Color::Black);
    assert_eq!((short.halfmoves(), short.fullmoves()), (0, 1));
    assert_eq!(short.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    let long = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 17 42").expect("6 fields");
    assert_eq!((long.halfmoves(), long.fullmoves()), (17, 42));
    assert_eq!(long.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 b - - 17 42");
    assert_eq!(long, short, "counters do not make a different position");
    // Partial tails take the defaults for what is missing; extra spaces do not matter.
    let mid = Position::from_fen("  3k5/9/9/9/9/9/9/9/9/4K4   w  -  -  5 ").expect("5 fields");
    assert_eq!((mid.halfmoves(), mid.fullmoves()), (5, 1));
}

#[test]
fn letters_and_side_spellings() {
    let wxf = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
    let pos = Position::from_fen(wxf).expect("E and H");
    assert_eq!(pos, Position::start());
    assert_eq!(pos.fen(), START_FEN, "written with B and N");
    let red = START_FEN.replacen(" w ", " r ", 1);
    assert_eq!(Position::from_fen(&red).map(|p| p.turn()), Ok(Color::Red));
    let black = "3k5/9/9/9/9/9/9/9/9/4K4 b";
    assert_eq!(
        Position::from_fen(black).map(|p| p.turn()),
        Ok(Color::Black)
    );
}

#[test]
fn empty_and_field_count() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err(" \t\n"), FenError::Empty);
    // The side to move is required: guessing it could silently flip a ruling.
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/4K4"), FenError::FieldCount(1));
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra"),
        FenError::FieldCount(7)
    );
}

#[test]
fn rank_count_and_width() {
    assert_eq!(err("3k5/9/9/9/9/9/9/9/4K4 w"), FenError::RankCount(9));
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/9/4K4 w"), FenError::RankCount(11));
    assert_eq!(
        err("3k4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::RankWidth { rank: 9, width: 8 }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K5 w"),
        FenError::RankWidth { rank: 0, width: 10 }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4R w"),
        FenError::RankWidth { rank: 0, width: 10 }
    );
    assert_eq!(
        err("3k5/9/9/9//9/9/9/9/4K4 w"),
        FenError::RankWidth { rank: 5, width: 0 }
    );
}

#[test]
fn bad_characters() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K3X w"),
        FenError::BadChar { rank: 0, ch: 'X' }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/0/9/4K4 w"),
        FenError::BadChar { rank: 2, ch: '0' }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4帅4 w"),
        FenError::BadChar { rank: 0, ch: '帅' }
    );
    assert_eq!(
        err("3k5/4q4/9/9/9/9/9/9/9/4K4 w"),
        FenError::BadChar { rank: 8, ch: 'q' }
    );
}

#[test]
fn too_many_pieces_of_a_kind() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/R1R1R4/4K4 w"),
        FenError::TooMany {
            color: Color::Red,
            role: "rook",
            count: 3,
            max: 2
        }
    );
    assert_eq!(
        err("3k5/9/9/9/ppp1ppp2/9/9/9/9/4K4 w"),
        FenError::TooMany {
            color: Color::Black,
            role: "pawn",
            count: 6,
            max: 5
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/3K5/4K4 w"),
        FenError::TooMany {
            color: Color::Red,
            role: "king",
            count: 2,
            max: 1
        }
    );
}

/// Checks the details of an `Unreachable`, strictly rejected but (for all but kings) leniently read.
fn unreachable(fen: &str, color: Color, role: &str, square: &str, reason: &str) {
    match err(fen) {
        FenError::Unreachable {
            color: c,
            role: r,
            square: s,
            reason: why,
        } => {
            assert_eq!((c, r, s, why), (color, role, sq(square), reason), "{fen}");
        }
        other => panic!("{fen}: expected Unreachable, got {other:?}"),
    }
    assert_eq!(
        Position::from_fen_lenient(fen).is_ok(),
        role != "king",
        "{fen} leniently"
    );
}

#[test]
fn pieces_where_they_can_never_be() {
    let advisor = "an advisor stays on the five points of its palace's diagonals";
    let elephant = "an elephant stays on its seven points on its own side of the river";
    let king = "a king stays in its palace";
    let behind = "a pawn never stands behind its starting rank";
    let files = "a pawn that has not crossed the river stays on its starting files";
    // The advisor on e0 that Pikafish refuses.
    unreachable(
        "5k3/9/9/9/9/9/9/9/9/3KA4 w",
        Color::Red,
        "advisor",
        "e0",
        advisor,
    );
    unreachable(
        "5k3/9/9/9/9/9/9/9/9/3K4A w",
        Color::Red,
        "advisor",
        "i0",
        advisor,
    );
    unreachable(
        "3ka4/9/9/9/9/9/9/9/9/4K4 w",
        Color::Black,
        "advisor",
        "e9",
        advisor,
    );
    unreachable(
        "3k5/9/9/9/9/9/4B4/9/9/4K4 w",
        Color::Red,
        "elephant",
        "e3",
        elephant,
    );
    // Across the river.
    unreachable(
        "3k5/9/9/2B6/9/9/9/9/9/4K4 w",
        Color::Red,
        "elephant",
        "c6",
        elephant,
    );
    unreachable(
        "3k5/9/9/9/9/2b6/9/9/9/4K4 w",
        Color::Black,
        "elephant",
        "c4",
        elephant,
    );
    unreachable("3k5/9/9/9/9/9/9/9/9/2K6 w", Color::Red, "king", "c0", king);
    unreachable(
        "9/2k6/9/9/9/9/9/9/9/4K4 w",
        Color::Black,
        "king",
        "c8",
        king,
    );
    unreachable(
        "3k5/9/9/9/9/9/9/P8/9/4K4 w",
        Color::Red,
        "pawn",
        "a2",
        behind,
    );
    unreachable(
        "3k5/9/4p4/9/9/9/9/9/9/4K4 w",
        Color::Black,
        "pawn",
        "e7",
        behind,
    );
    unreachable(
        "3k5/9/9/9/9/1P7/9/9/9/4K4 w",
        Color::Red,
        "pawn",
        "b4",
        files,
    );
    unreachable(
        "3k5/9/9/9/1p7/9/9/9/9/4K4 w",
        Color::Black,
        "pawn",
        "b5",
        files,
    );
    // Crossed pawns go anywhere ahead of the river.
    assert!(Position::from_fen("3k5/9/9/9/1P7/9/9/9/9/4K4 w").is_ok());
    assert!(Position::from_fen("3k5/9/9/9/9/1p7/9/9/9/4K4 w").is_ok());
}

#[test]
fn kings_missing_or_facing() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/9 w"),
        FenError::MissingKing(Color::Red)
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::MissingKing(Color::Black)
    );
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::KingsFacing('e'));
    assert_eq!(err("9/3k5/9/9/9/9/9/9/3K5/9 b"), FenError::KingsFacing('d'));
    // A piece between them is enough.
    assert!(Position::from_fen("4k4/9/9/9/4p4/9/9/9/9/4K4 w").is_ok());
}

#[test]
fn side_not_to_move_in_check() {
    // Black's king is attacked by the red rook while red is to move.
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
        FenError::OppositeCheck(Color::Black)
    );
    assert_eq!(
        err("3k5/9/9/9/4r4/9/9/9/9/4K4 b"),
        FenError::OppositeCheck(Color::Red)
    );
    // The side to move may be in check.
    assert!(Position::from_fen("3k5/9/9/9/4r4/9/9/9/9/4K4 w").is_ok());
}

#[test]
fn bad_side_and_placeholders() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 x"),
        FenError::BadTurn("x".into())
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 white"),
        FenError::BadTurn("white".into())
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w KQ - 0 1"),
        FenError::BadPlaceholder {
            field: 3,
            value: "KQ".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - e3 0 1"),
        FenError::BadPlaceholder {
            field: 4,
            value: "e3".into()
        }
    );
}

#[test]
fn bad_counters() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1"),
        FenError::BadCounter {
            field: 5,
            name: "halfmoves",
            value: "x".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 -1"),
        FenError::BadCounter {
            field: 6,
            name: "fullmoves",
            value: "-1".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 70000 1"),
        FenError::BadCounter {
            field: 5,
            name: "halfmoves",
            value: "70000".into()
        }
    );
}

#[test]
fn errors_read_well() {
    let e = err("5k3/9/9/9/9/9/9/9/9/3KA4 w");
    assert_eq!(
        e.to_string(),
        "red advisor on e0: an advisor stays on the five points of its palace's diagonals"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 w").to_string(),
        "the kings face each other on file e with nothing between them"
    );
}

const VALID: &[&str] = &[
    START_FEN,
    "rnbakabr1/9/9/p1p1n3p/6p2/2P6/Pc2P1PcP/1CN3N2/9/R1BAKABR1 w - - 0 7",
    "P3k4/3P5/4P4/9/9/9/2r6/6p2/9/3K5 w - - 0 1",
    "3aka3/4P1N2/9/9/4c4/9/9/9/9/4K4 b - - 0 1",
];

/// Whatever parses must write a FEN that parses back to the same position, and be playable.
fn check_no_panic(text: &str) {
    for pos in [Position::from_fen(text), Position::from_fen_lenient(text)]
        .into_iter()
        .flatten()
    {
        let again = Position::from_fen_lenient(&pos.fen());
        assert_eq!(again, Ok(pos), "{text:?}");
        let _ = pos.legal_moves();
        let _ = pos.outcome();
        let _ = qili::perft(&pos, 2);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,120}") {
        check_no_panic(&s);
    }

    #[test]
    fn fen_alphabet_strings_never_panic(s in "[rnbakcpRNBAKCPehEH1-9/ wbr0-]{0,100}") {
        check_no_panic(&s);
    }

    #[test]
    fn mutated_fens_never_panic(
        which in 0..VALID.len(),
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), 0u8..3, prop::sample::select(
                "rnbakcpRNBAKCPEH0123456789/ -wbx\u{5e05}".chars().collect::<Vec<_>>()
            )),
            1..6,
        ),
    ) {
        let mut chars: Vec<char> = VALID[which].chars().collect();
        for (at, kind, c) in edits {
            let i = at.index(chars.len() + 1);
            match kind {
                0 if i < chars.len() => chars[i] = c,
                1 if i < chars.len() => { chars.remove(i); }
                _ => chars.insert(i, c),
            }
        }
        let text: String = chars.into_iter().collect();
        check_no_panic(&text);
    }
}
