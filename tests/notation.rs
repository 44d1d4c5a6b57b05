//! Move notations: the examples of notation.md, tandem pieces, every error kind, and round trips.

use qili::notation::{
    BlackDigits, ChineseStyle, Notation, NotationErrorKind, Script, detect, parse_move,
    write_chinese, write_move,
};
use qili::{Color, Move, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

fn mv(s: &str) -> Move {
    let sq = |t: &str| t.parse::<Square>().unwrap();
    Move::new(sq(&s[0..2]), sq(&s[2..4]))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// Reads `text` both with the notation named and auto-detected; both must give `expected`.
fn check(p: &Position, text: &str, n: Notation, expected: &str) {
    let got = parse_move(p, text, Some(n)).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(got, mv(expected), "{text} as {n}");
    let auto = parse_move(p, text, None).unwrap_or_else(|e| panic!("{text} (auto): {e}"));
    assert_eq!(auto, mv(expected), "{text} auto-detected");
}

fn kind(p: &Position, text: &str, n: Option<Notation>) -> NotationErrorKind {
    match parse_move(p, text, n) {
        Ok(m) => panic!("{text:?} should be rejected but reads as {m}"),
        Err(e) => {
            assert_eq!(e.text, text);
            assert!(!e.to_string().is_empty());
            e.kind
        }
    }
}

/// Every way the crate writes a move, with the notation that reads it back.
type Writer = (&'static str, fn(&Position, Move) -> String, Notation);

const WRITERS: [Writer; 5] = [
    (
        "iccs",
        |p, m| write_move(p, m, Notation::Iccs),
        Notation::Iccs,
    ),
    ("wxf", |p, m| write_move(p, m, Notation::Wxf), Notation::Wxf),
    (
        "chinese",
        |p, m| write_chinese(p, m, ChineseStyle::SIMPLIFIED),
        Notation::Chinese,
    ),
    (
        "traditional",
        |p, m| write_chinese(p, m, ChineseStyle::TRADITIONAL),
        Notation::Chinese,
    ),
    (
        "ascii black",
        |p, m| write_chinese(p, m, ChineseStyle::ASCII_BLACK),
        Notation::Chinese,
    ),
];

/// Writes `m` every way and reads it back, named and auto-detected.
fn round_trip(p: &Position, m: Move) {
    for (name, write, n) in WRITERS {
        let text = write(p, m);
        for notation in [Some(n), None] {
            match parse_move(p, &text, notation) {
                Ok(back) => assert_eq!(back, m, "{name} {text:?} in {}", p.fen()),
                Err(e) => panic!(
                    "{name}: {m} written {text:?} does not read back in {}: {e}",
                    p.fen()
                ),
            }
        }
    }
}

fn round_trip_all(p: &Position) -> usize {
    let moves = p.legal_moves();
    for &m in &moves {
        round_trip(p, m);
    }
    moves.len()
}

#[test]
fn notation_names() {
    for n in Notation::ALL {
        assert_eq!(n.to_string().parse::<Notation>(), Ok(n));
    }
    assert_eq!("WXF".parse::<Notation>(), Ok(Notation::Wxf));
    assert_eq!("Chinese".parse::<Notation>(), Ok(Notation::Chinese));
    assert!("auto".parse::<Notation>().is_err());
    assert!("".parse::<Notation>().is_err());
}

#[test]
fn detects_notation() {
    assert_eq!(detect("h2e2"), Some(Notation::Iccs));
    assert_eq!(detect("H2-E2"), Some(Notation::Iccs));
    assert_eq!(detect(" h2-e2 "), Some(Notation::Iccs));
    assert_eq!(detect("C2.5"), Some(Notation::Wxf));
    assert_eq!(detect("h2+3"), Some(Notation::Wxf));
    assert_eq!(detect("3+.4"), Some(Notation::Wxf));
    assert_eq!(detect("炮二平五"), Some(Notation::Chinese));
    assert_eq!(detect("马８进７"), Some(Notation::Chinese));
    assert_eq!(detect("   "), None);
}

#[test]
fn iccs_forms() {
    let p = Position::start();
    for text in ["h2e2", "H2-E2", "h2-e2", "H2E2", "h2e2!", "Ｈ２－Ｅ２"] {
        check(&p, text, Notation::Iccs, "h2e2");
    }
    // Ranks count 0–9 from red: h3e3 is not the cannon move of a 1–10 engine.
    assert!(matches!(
        kind(&p, "h3e3", Some(Notation::Iccs)),
        NotationErrorKind::NoPiece(_)
    ));
    match kind(&p, "h10e10", Some(Notation::Iccs)) {
        NotationErrorKind::Syntax(s) => {
            assert_eq!(s, qili::notation::Syntax::IccsRankAbove9);
            assert!(s.to_string().contains("0–9"), "{s}");
        }
        k => panic!("{k:?}"),
    }
    assert!(matches!(
        kind(&p, "C2.5", Some(Notation::Iccs)),
        NotationErrorKind::Syntax(_)
    ));
}

#[test]
fn wxf_examples() {
    let p = Position::start();
    for (text, iccs) in [
        ("C2.5", "h2e2"),
        ("C2=5", "h2e2"),
        ("C25", "h2e2"),
        ("c2.5", "h2e2"),
        ("C2.5!?", "h2e2"),
        ("H8+7", "b0c2"),
        ("N8+7", "b0c2"),
        ("h2+3", "h0g2"),
        ("R1+1", "i0i1"),
        ("R9+2", "a0a2"),
        ("E3+5", "g0e2"),
        ("B7+5", "c0e2"),
        ("A4+5", "f0e1"),
        ("A6+5", "d0e1"),
        ("K5+1", "e0e1"),
        ("P7+1", "c3c4"),
        ("P5+1", "e3e4"),
        ("C8+4", "b2b6"),
        ("C2+7", "h2h9"),
        ("H8+7+", "b0c2"),
    ] {
        check(&p, text, Notation::Wxf, iccs);
    }
    // Black counts files from its own right, which is red's left.
    let b = p.play(mv("h2e2")).unwrap();
    for (text, iccs) in [
        ("H8+7", "h9g7"),
        ("H2+3", "b9c7"),
        ("C8.5", "h7e7"),
        ("C2.5", "b7e7"),
        ("P3+1", "c6c5"),
        ("R9+1", "i9i8"),
    ] {
        check(&b, text, Notation::Wxf, iccs);
    }
    assert_eq!(write_move(&p, mv("h2e2"), Notation::Wxf), "C2.5");
    assert_eq!(write_move(&p, mv("h0g2"), Notation::Wxf), "H2+3");
    assert_eq!(write_move(&b, mv("h9g7"), Notation::Wxf), "H8+7");
    assert_eq!(write_move(&b, mv("e6e5"), Notation::Wxf), "P5+1");
}

#[test]
fn chinese_examples() {
    let p = Position::start();
    for (text, iccs) in [
        ("炮二平五", "h2e2"),
        ("砲二平五", "h2e2"),
        ("包二平五", "h2e2"),
        ("炮2平5", "h2e2"),
        ("炮２平５", "h2e2"),
        ("炮贰平伍", "h2e2"),
        ("炮二平五!", "h2e2"),
        ("马八进七", "b0c2"),
        ("馬八進七", "b0c2"),
        ("傌二進三", "h0g2"),
        ("车一进一", "i0i1"),
        ("俥一進一", "i0i1"),
        ("車九进二", "a0a2"),
        ("相三进五", "g0e2"),
        ("象七进五", "c0e2"),
        ("仕四进五", "f0e1"),
        ("士六进五", "d0e1"),
        ("帅五进一", "e0e1"),
        ("帥五進一", "e0e1"),
        ("将五进一", "e0e1"),
        ("兵七进一", "c3c4"),
        ("卒三进一", "g3g4"),
    ] {
        check(&p, text, Notation::Chinese, iccs);
    }
    let b = p.play(mv("h2e2")).unwrap();
    for (text, iccs) in [
        ("马８进７", "h9g7"),
        ("马8进7", "h9g7"),
        ("马八进七", "h9g7"),
        ("馬８進７", "h9g7"),
        ("炮８平５", "h7e7"),
        ("砲8平5", "h7e7"),
        ("卒３进１", "c6c5"),
        ("将５进１", "e9e8"),
        ("象３进５", "c9e7"),
        ("士４进５", "d9e8"),
    ] {
        check(&b, text, Notation::Chinese, iccs);
    }
    assert_eq!(write_move(&p, mv("h2e2"), Notation::Chinese), "炮二平五");
    assert_eq!(write_move(&b, mv("h9g7"), Notation::Chinese), "马８进７");
    let ascii = ChineseStyle {
        script: Script::Simplified,
        black_digits: BlackDigits::Ascii,
    };
    assert_eq!(write_chinese(&b, mv("h9g7"), ascii), "马8进7");
    let chinese_digits = ChineseStyle {
        black_digits: BlackDigits::Chinese,
        ..ChineseStyle::default()
    };
    assert_eq!(write_chinese(&b, mv("h9g7"), chinese_digits), "马八进七");
    assert_eq!(
        write_chinese(&b, mv("h9g7"), ChineseStyle::TRADITIONAL),
        "馬８進７"
    );
    assert_eq!(
        write_chinese(&b, mv("e9e8"), ChineseStyle::TRADITIONAL),
        "將５進１"
    );
    assert_eq!(
        write_chinese(&p, mv("e0e1"), ChineseStyle::TRADITIONAL),
        "帥五進一"
    );
}

/// Two red rooks on file h (red's file 2).
const TWO_ROOKS: &str = "4k4/9/9/9/9/9/9/7R1/9/3K3R1 w - - 0 1";

#[test]
fn two_rooks_on_a_file() {
    let p = pos(TWO_ROOKS);
    for (text, iccs) in [
        ("R+.5", "h2e2"),
        ("+R.5", "h2e2"),
        ("r+=5", "h2e2"),
        ("R-+1", "h0h1"),
        ("-R+1", "h0h1"),
        ("R+-1", "h2h1"),
        ("R2-1", "h2h1"), // only the front rook can go back
    ] {
        check(&p, text, Notation::Wxf, iccs);
    }
    for (text, iccs) in [
        ("前车平五", "h2e2"),
        ("前車平五", "h2e2"),
        ("车前平五", "h2e2"),
        ("后车进一", "h0h1"),
        ("後俥進一", "h0h1"),
        ("前车退一", "h2h1"),
    ] {
        check(&p, text, Notation::Chinese, iccs);
    }
    assert_eq!(write_move(&p, mv("h2e2"), Notation::Wxf), "R+.5");
    assert_eq!(write_move(&p, mv("h0h1"), Notation::Wxf), "R-+1");
    assert_eq!(write_move(&p, mv("h2e2"), Notation::Chinese), "前车平五");
    assert_eq!(write_move(&p, mv("h0h1"), Notation::Chinese), "后车进一");
    assert_eq!(
        write_chinese(&p, mv("h0h1"), ChineseStyle::TRADITIONAL),
        "後車進一"
    );
    // A plain file holding both rooks names two legal moves.
    match kind(&p, "R2.5", None) {
        NotationErrorKind::Ambiguous(moves) => {
            assert_eq!(moves.len(), 2);
            assert!(moves.contains(&mv("h2e2")) && moves.contains(&mv("h0e0")));
        }
        k => panic!("{k:?}"),
    }
    assert!(matches!(
        kind(&p, "车二平五", None),
        NotationErrorKind::Ambiguous(_)
    ));
    assert_eq!(round_trip_all(&p), p.legal_moves().len());
    round_trip_all(&p.flip_colors());
    round_trip_all(&p.mirror_files());
}

/// Three crossed red soldiers on file c (red's file 7).
const THREE_PAWNS: &str = "4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";

#[test]
fn three_pawns_on_a_file() {
    let p = pos(THREE_PAWNS);
    for (text, iccs) in [
        ("P+.6", "c7d7"),
        ("P++1", "c7c8"),
        ("P7.8", "c6b6"), // the middle one keeps normal notation
        ("P-.6", "c5d5"),
        ("+P.6", "c7d7"),
    ] {
        check(&p, text, Notation::Wxf, iccs);
    }
    for (text, iccs) in [
        ("前兵平六", "c7d7"),
        ("中兵平八", "c6b6"),
        ("后兵平六", "c5d5"),
        ("一兵平六", "c7d7"),
        ("三兵平六", "c5d5"),
        ("前七平六", "c7d7"),
        ("中七平八", "c6b6"),
        ("前兵七平六", "c7d7"),
    ] {
        check(&p, text, Notation::Chinese, iccs);
    }
    for (iccs, wxf, chinese) in [
        ("c7d7", "P+.6", "前兵平六"),
        ("c6b6", "P7.8", "中兵平八"),
        ("c5d5", "P-.6", "后兵平六"),
    ] {
        assert_eq!(write_move(&p, mv(iccs), Notation::Wxf), wxf);
        assert_eq!(write_move(&p, mv(iccs), Notation::Chinese), chinese);
    }
    // A plain file among three crossed soldiers: several can go there.
    assert!(matches!(
        kind(&p, "兵七平六", None),
        NotationErrorKind::Ambiguous(_)
    ));
    // 中 among two, ++ among three: no such soldier.
    assert!(matches!(
        kind(&p, "++.6", None),
        NotationErrorKind::NoPiece(_)
    ));
    assert!(matches!(
        kind(&p, "四兵平六", None),
        NotationErrorKind::NoPiece(_)
    ));
    round_trip_all(&p);
    round_trip_all(&p.flip_colors());
    round_trip_all(&p.mirror_files());
}

/// Five red soldiers on file c, c5 to c9.
const FIVE_PAWNS: &str = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";

#[test]
fn five_pawns_on_a_file() {
    let p = pos(FIVE_PAWNS);
    for (iccs, wxf, chinese) in [
        ("c9d9", "++.6", "一兵平六"),
        ("c8d8", "P+.6", "二兵平六"),
        ("c7d7", "P7.6", "三兵平六"),
        ("c6b6", "P-.8", "四兵平八"),
        ("c5d5", "--.6", "五兵平六"),
    ] {
        assert_eq!(write_move(&p, mv(iccs), Notation::Wxf), wxf);
        assert_eq!(write_move(&p, mv(iccs), Notation::Chinese), chinese);
        check(&p, wxf, Notation::Wxf, iccs);
        check(&p, chinese, Notation::Chinese, iccs);
    }
    // Front, middle and rear on the one file are plain.
    check(&p, "前兵平六", Notation::Chinese, "c9d9");
    check(&p, "中兵平六", Notation::Chinese, "c7d7");
    check(&p, "后兵平六", Notation::Chinese, "c5d5");
    check(&p, "Pc.6", Notation::Wxf, "c7d7"); // xqbase's a–e for 一…五
    round_trip_all(&p);
    round_trip_all(&p.mirror_files());

    // The same for black: black's front is towards red, files from black's right.
    let b = p.flip_colors();
    assert_eq!(b.turn(), Color::Black);
    assert_eq!(write_move(&b, mv("c0d0"), Notation::Wxf), "++.4");
    assert_eq!(write_move(&b, mv("c0d0"), Notation::Chinese), "一卒平４");
    assert_eq!(write_move(&b, mv("c4b4"), Notation::Chinese), "五卒平２");
    check(&b, "--.2", Notation::Wxf, "c4b4");
    check(&b, "二卒平4", Notation::Chinese, "c1d1");
    round_trip_all(&b);
}

/// Four red soldiers on file c, c5 to c8.
const FOUR_PAWNS: &str = "4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";

#[test]
fn four_pawns_on_a_file() {
    let p = pos(FOUR_PAWNS);
    for (iccs, wxf) in [
        ("c8d8", "++.6"),
        ("c7d7", "P+.6"),
        ("c6d6", "P-.6"),
        ("c5d5", "--.6"),
    ] {
        assert_eq!(write_move(&p, mv(iccs), Notation::Wxf), wxf);
        check(&p, wxf, Notation::Wxf, iccs);
    }
    assert!(matches!(
        kind(&p, "中兵平六", None),
        NotationErrorKind::NoPiece(_)
    ));
    round_trip_all(&p);
    round_trip_all(&p.flip_colors());
}

/// Soldiers on two files: three on g (red's file 3), two on c (red's file 7).
const TWO_FILES: &str = "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";

#[test]
fn pawns_on_two_files() {
    let p = pos(TWO_FILES);
    for (iccs, wxf, chinese) in [
        ("g7f7", "3+.4", "一兵平四"),
        ("g6f6", "33.4", "二兵平四"),
        ("g5f5", "3-.4", "三兵平四"),
        ("c6b6", "7+.8", "四兵平八"),
        ("c5b5", "7-.8", "五兵平八"),
    ] {
        assert_eq!(write_move(&p, mv(iccs), Notation::Wxf), wxf);
        assert_eq!(write_move(&p, mv(iccs), Notation::Chinese), chinese);
        check(&p, wxf, Notation::Wxf, iccs);
        check(&p, chinese, Notation::Chinese, iccs);
    }
    check(&p, "前三平四", Notation::Chinese, "g7f7");
    check(&p, "中三平四", Notation::Chinese, "g6f6");
    check(&p, "后七平八", Notation::Chinese, "c5b5");
    check(&p, "前兵三平四", Notation::Chinese, "g7f7");
    check(&p, "P3.4", Notation::Wxf, "g6f6"); // the middle of three
    // 前兵 could be the front soldier of either file: ambiguous, not guessed.
    for text in ["前兵平四", "P+.4", "后兵进一"] {
        match kind(&p, text, None) {
            NotationErrorKind::AmbiguousPiece(squares) => {
                assert_eq!(squares.len(), 2, "{text}");
            }
            k => panic!("{text}: {k:?}"),
        }
    }
    assert!(matches!(
        kind(&p, "33+1", None),
        NotationErrorKind::NoMatch(_)
    ));
    assert!(matches!(
        kind(&p, "77.8", None),
        NotationErrorKind::NoPiece(_)
    ));
    assert!(matches!(
        kind(&p, "34.4", None),
        NotationErrorKind::Syntax(_)
    ));
    round_trip_all(&p);
    round_trip_all(&p.flip_colors());
    round_trip_all(&p.mirror_files());

    // Two soldiers on each of two files.
    let q = pos("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(write_move(&q, mv("g6f6"), Notation::Chinese), "一兵平四");
    assert_eq!(write_move(&q, mv("c5b5"), Notation::Chinese), "四兵平八");
    assert_eq!(write_move(&q, mv("g5f5"), Notation::Wxf), "3-.4");
    round_trip_all(&q);
    round_trip_all(&q.flip_colors());
}

#[test]
fn advisors_and_elephants_need_no_tandem_marks() {
    // Red advisors d0 and d2, elephants c0 and c4: direction tells which one moves.
    let p = pos("3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1");
    check(&p, "A6+5", Notation::Wxf, "d0e1");
    check(&p, "A6-5", Notation::Wxf, "d2e1");
    check(&p, "E7+5", Notation::Wxf, "c0e2");
    check(&p, "E7-5", Notation::Wxf, "c4e2");
    check(&p, "仕六退五", Notation::Chinese, "d2e1");
    check(&p, "相七退九", Notation::Chinese, "c4a2");
    assert_eq!(write_move(&p, mv("d2e1"), Notation::Wxf), "A6-5");
    assert_eq!(write_move(&p, mv("c4e2"), Notation::Chinese), "相七退五");
    round_trip_all(&p);
    round_trip_all(&p.flip_colors());
}

/// The tandem examples of notation.md, each in a position where it is legal.
#[test]
fn notation_md_tandem_examples() {
    let rooks = pos(TWO_ROOKS);
    check(&rooks, "R+.3", Notation::Wxf, "h2g2");
    check(&rooks, "前车进一", Notation::Chinese, "h2h3");
    // Red cannons on b5 and b2 (red's file 8).
    let cannons = pos("4k4/9/9/9/1C7/9/9/1C7/9/3K5 w - - 0 1");
    check(&cannons, "C--1", Notation::Wxf, "b2b1");
    check(&cannons, "C+-2", Notation::Wxf, "b5b3");
    check(&cannons, "+C-2", Notation::Wxf, "b5b3");
    check(&cannons, "后炮平五", Notation::Chinese, "b2e2");
    // Red horses on h4 and h2 (red's file 2).
    let horses = pos("4k4/9/9/9/9/7N1/9/7N1/9/3K5 w - - 0 1");
    check(&horses, "H++1", Notation::Wxf, "h4i6");
    assert_eq!(write_move(&horses, mv("h4i6"), Notation::Wxf), "H++1");
    // Three soldiers on red's file 3 (g): P+.4, P3.4, P-.4.
    let three = pos("4k4/9/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    for (wxf, iccs) in [("P+.4", "g7f7"), ("P3.4", "g6f6"), ("P-.4", "g5f5")] {
        check(&three, wxf, Notation::Wxf, iccs);
        assert_eq!(write_move(&three, mv(iccs), Notation::Wxf), wxf);
    }
    // Four: ++.4, P+.4, P-.4, --.4.
    let four = pos("4k4/6P2/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    for (wxf, iccs) in [
        ("++.4", "g8f8"),
        ("P+.4", "g7f7"),
        ("P-.4", "g6f6"),
        ("--.4", "g5f5"),
    ] {
        check(&four, wxf, Notation::Wxf, iccs);
        assert_eq!(write_move(&four, mv(iccs), Notation::Wxf), wxf);
    }
    // Two files with several: 3+.4, 33.4, 3-.4, 7+.6, 7-.6.
    let two = pos(TWO_FILES);
    for (wxf, iccs) in [
        ("3+.4", "g7f7"),
        ("33.4", "g6f6"),
        ("3-.4", "g5f5"),
        ("7+.6", "c6d6"),
        ("7-.6", "c5d5"),
    ] {
        check(&two, wxf, Notation::Wxf, iccs);
        assert_eq!(write_move(&two, mv(iccs), Notation::Wxf), wxf);
    }
}

#[test]
fn syntax_errors() {
    let p = Position::start();
    for (text, n) in [
        ("", None),
        ("   ", Some(Notation::Wxf)),
        ("C2x5", None),
        ("C2.0", None),
        ("Z2.5", None),
        ("C2.55", None),
        ("C0.5", None),
        ("h2", None),
        ("h2e2e2", Some(Notation::Iccs)),
        ("炮二平", None),
        ("炮十平五", None),
        ("炮二平五五", None),
        ("炮二到五", None),
        ("六车进一", None),
        ("C2.5", Some(Notation::Chinese)),
        ("炮二平五", Some(Notation::Wxf)),
    ] {
        match kind(&p, text, n) {
            NotationErrorKind::Syntax(reason) => {
                assert!(!reason.to_string().is_empty());
            }
            k => panic!("{text:?}: {k:?}"),
        }
    }
}

#[test]
fn no_piece_and_no_match() {
    let p = Position::start();
    for text in ["R5+1", "车五进一", "H5+3", "P2+1", "前车进一", "h3e3"] {
        match kind(&p, text, None) {
            NotationErrorKind::NoPiece(what) => assert!(!what.to_string().is_empty()),
            k => panic!("{text}: {k:?}"),
        }
    }
    for text in [
        "C2+9",     // off the board
        "H2.3",     // horses do not move sideways
        "H2+4",     // the elephant on g0 hobbles the horse
        "马二进五", // a horse cannot reach a file three away
        "R1+3",     // own soldier on i3
        "A4+6",     // outside the palace diagonals
        "K5.4",     // the advisor stands on f0
    ] {
        match kind(&p, text, None) {
            NotationErrorKind::NoMatch(why) => assert!(!why.is_empty(), "{text}"),
            k => panic!("{text}: {k:?}"),
        }
    }
    assert!(matches!(
        kind(&p, "h2h8", None),
        NotationErrorKind::NoMatch(_)
    ));
}

#[test]
fn wrong_side() {
    let p = Position::start();
    match kind(&p, "h7e7", None) {
        NotationErrorKind::WrongSide { turn, mv: m } => {
            assert_eq!(turn, Color::Red);
            assert_eq!(m, mv("h7e7"));
        }
        k => panic!("{k:?}"),
    }
    // After 炮二平五 it is black's turn; red's central cannon cannot be moved.
    let b = p.play(mv("h2e2")).unwrap();
    for text in ["C5.4", "炮五平四", "e2f2"] {
        match kind(&b, text, None) {
            NotationErrorKind::WrongSide { turn, mv: m } => {
                assert_eq!(turn, Color::Black, "{text}");
                assert_eq!(m, mv("e2f2"), "{text}");
            }
            k => panic!("{text}: {k:?}"),
        }
    }
}

#[test]
fn king_left_attacked() {
    // The red rook on e4 is pinned by the black rook on e8.
    let p = pos("3k5/4r4/9/9/9/4R4/9/9/9/4K4 w - - 0 1");
    for text in ["e4d4", "R5.6", "车五平六", "R5.9"] {
        match kind(&p, text, None) {
            NotationErrorKind::KingLeftAttacked { mv: m, turn } => {
                assert_eq!(m.from, sq("e4"), "{text}");
                assert_eq!(turn, Color::Red);
            }
            k => panic!("{text}: {k:?}"),
        }
    }
    check(&p, "R5+1", Notation::Wxf, "e4e5");
    // Flying general: the red king may not step onto the black king's open file.
    let q = pos("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert!(matches!(
        kind(&q, "K5.6", None),
        NotationErrorKind::KingLeftAttacked { .. }
    ));
    assert!(matches!(
        kind(&q, "帅五平六", None),
        NotationErrorKind::KingLeftAttacked { .. }
    ));
}

#[test]
fn garbage_never_panics() {
    let positions = [
        Position::start(),
        pos(FIVE_PAWNS),
        pos(TWO_FILES).flip_colors(),
    ];
    let pieces = [
        "", "C", "R", "P", "+", "-", "=", ".", "3", "9", "0", "a", "e", "车", "兵", "前", "中",
        "后", "一", "五", "１", "进", "平", "退", "!", "#", "h", "2", "-", "十", "\u{3000}",
    ];
    let mut texts = Vec::new();
    for a in pieces {
        for b in pieces {
            for c in ["", "+", ".", "进", "平", "1", "-"] {
                texts.push(format!("{a}{b}{c}1"));
                texts.push(format!("{a}{b}{c}"));
            }
        }
    }
    for p in &positions {
        for t in &texts {
            for n in [
                None,
                Some(Notation::Iccs),
                Some(Notation::Wxf),
                Some(Notation::Chinese),
            ] {
                if let Ok(m) = parse_move(p, t, n) {
                    assert!(p.is_legal(m), "{t:?} gave an illegal move {m}");
                }
            }
        }
    }
}

#[test]
fn every_legal_move_round_trips_from_the_start() {
    let p = Position::start();
    assert_eq!(round_trip_all(&p), 44);
    round_trip_all(&p.play(mv("h2e2")).unwrap());
}

#[test]
fn writing_an_empty_origin_falls_back_to_iccs() {
    let p = Position::start();
    assert_eq!(write_move(&p, mv("e4e5"), Notation::Wxf), "e4e5");
    assert_eq!(write_move(&p, mv("e4e5"), Notation::Chinese), "e4e5");
}

/// Every position of every recorded game: the played move and every other legal move are written
/// in each notation and read back.
#[test]
fn recorded_games_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/pgn exists")
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 21);
    let (mut positions, mut moves) = (0, 0);
    for path in files {
        let bytes = std::fs::read(&path).expect("readable record");
        let game = qili::record::pgn::read_game(&bytes).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let mut p = game.start;
        for (&m, text) in game.moves.iter().zip(&game.texts) {
            assert_eq!(parse_move(&p, text, None), Ok(m), "{path:?} {text}");
            round_trip(&p, m);
            moves += round_trip_all(&p);
            positions += 1;
            p = p.play(m).unwrap();
        }
    }
    assert!(positions > 1500, "{positions} positions");
    assert!(moves > 40_000, "{moves} moves");
}

mod random_games {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 64,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        /// Random legal games: every legal move of every position reads back in every notation.
        #[test]
        fn all_moves_round_trip(choices in proptest::collection::vec(any::<u16>(), 1..80)) {
            let mut p = Position::start();
            for c in choices {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                round_trip_all(&p);
                p = p.play(moves[c as usize % moves.len()]).unwrap();
            }
        }

        /// Random positions crowded with soldiers, rooks, horses and cannons (tandems on one or
        /// several files): every legal move reads back in every notation.
        #[test]
        fn crowded_positions_round_trip(
            kings in (0u8..3, 0u8..3),
            // Files b–f only, so that soldiers stack up.
            pawns in proptest::collection::vec((any::<bool>(), 1u8..6, 3u8..10), 4..16),
            pieces in proptest::collection::vec((any::<bool>(), 0usize..3, 0u8..90), 0..8),
            black in any::<bool>(),
        ) {
            let mut grid = [['.'; 9]; 10];
            grid[0][3 + kings.0 as usize] = 'K';
            grid[9][3 + kings.1 as usize] = 'k';
            let mut counts = std::collections::HashMap::new();
            for (red, file, r) in pawns {
                // Ranks 3–9 from the pawn's own side; uncrossed only on files a, c, e, g, i.
                if r < 5 && file % 2 == 1 {
                    continue;
                }
                let rank = if red { r } else { 9 - r } as usize;
                let c = if red { 'P' } else { 'p' };
                let n = counts.entry(c).or_insert(0);
                if grid[rank][file as usize] == '.' && *n < 5 {
                    *n += 1;
                    grid[rank][file as usize] = c;
                }
            }
            for (red, kind, index) in pieces {
                let c = ['R', 'N', 'C'][kind];
                let c = if red { c } else { c.to_ascii_lowercase() };
                let (rank, file) = (index as usize / 9, index as usize % 9);
                let n = counts.entry(c).or_insert(0);
                if grid[rank][file] == '.' && *n < 2 {
                    *n += 1;
                    grid[rank][file] = c;
                }
            }
            let board: Vec<String> = (0..10)
                .rev()
                .map(|r| grid[r].iter().map(|&c| if c == '.' { '1' } else { c }).collect())
                .collect();
            let fen = format!("{} {}", board.join("/"), if black { 'b' } else { 'w' });
            if let Ok(p) = Position::from_fen(&fen) {
                round_trip_all(&p);
            }
        }
    }
}
