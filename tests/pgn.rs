//! The game-record reader and writer, on the real GBK records in tests/data/pgn.

use qili::notation::{Notation, NotationErrorKind, parse_move};
use qili::record::Game;
use qili::record::pgn::{PgnErrorKind, read_game, read_games, write_game};
use qili::{Color, Move, Position, Square};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn")
}

/// Every record, by file name, as the raw (GBK) bytes.
fn records() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(data_dir())
        .expect("tests/data/pgn exists")
        .map(|e| {
            let path = e.expect("directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("readable record"))
        })
        .filter(|(name, _)| name.ends_with(".pgn"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 21, "the 21 records of shared/data/pgn");
    files
}

fn record(name: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(name)).expect("record exists")
}

fn gbk_to_utf8(bytes: &[u8]) -> String {
    let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    assert!(!had_errors);
    text.into_owned()
}

fn mv(s: &str) -> Move {
    let sq = |t: &str| t.parse::<Square>().unwrap();
    Move::new(sq(&s[0..2]), sq(&s[2..4]))
}

#[test]
fn the_records_are_gbk_with_crlf() {
    for (name, bytes) in records() {
        assert!(std::str::from_utf8(&bytes).is_err(), "{name} is GBK");
        assert!(bytes.windows(2).any(|w| w == b"\r\n"), "{name} has CRLF");
    }
}

#[test]
fn every_record_reads_fully() {
    for (name, bytes) in records() {
        let game = read_game(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(game.moves.len() >= 20, "{name}: {} moves", game.moves.len());
        assert_eq!(game.moves.len(), game.texts.len(), "{name}");
        // The result token agrees with the Result tag.
        assert_eq!(game.result.as_deref(), game.tag("Result"), "{name}");
        assert!(matches!(
            game.result.as_deref(),
            Some("1-0" | "0-1" | "1/2-1/2")
        ));
        assert_eq!(game.tag("game"), Some("Chinese Chess"), "{name}");
        // Every recorded text reads to the recorded move in its position.
        let positions = game.positions();
        assert_eq!(positions.len(), game.moves.len() + 1, "{name}");
        for (i, text) in game.texts.iter().enumerate() {
            assert_eq!(
                parse_move(&positions[i], text, Some(Notation::Chinese)),
                Ok(game.moves[i]),
                "{name} ply {i}"
            );
        }
    }
}

#[test]
fn known_games() {
    let g = read_game(&record("ccgc-01.pgn")).unwrap();
    assert_eq!(g.moves.len(), 26); // 13 full moves, then 0-1
    assert_eq!(g.texts[0], "炮八平五");
    assert_eq!(g.moves[0], mv("b2e2"));
    assert_eq!(g.texts[1], "马２进３");
    assert_eq!(g.moves[1], mv("b9c7"));
    assert_eq!(g.result.as_deref(), Some("0-1"));
    assert_eq!(g.tag("ECCO"), Some("C48"));
    assert_eq!(g.tag("Red"), Some("宝岛一号"));
    assert_eq!(g.start, Position::start());

    // 31. 马四进五 1/2-1/2: the game ends on red's move.
    let g = read_game(&record("ccgc-02.pgn")).unwrap();
    assert_eq!(g.moves.len(), 61);
    assert_eq!(g.texts.last().map(String::as_str), Some("马四进五"));
    assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
}

#[test]
fn handicap_game_with_fen_and_comments() {
    let g = read_game(&record("sample-handicap-comments.pgn")).unwrap();
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1";
    assert_eq!(g.tag("FEN"), Some(fen));
    assert_eq!(g.start, Position::from_fen(fen).unwrap());
    assert_eq!(g.tag("Red"), Some("许银川"));
    assert_eq!(g.tag("Black"), Some("聂卫平"));
    // 38 red moves, 37 black ones; black's replies after comments come on their own numbered lines.
    assert_eq!(g.moves.len(), 75);
    assert_eq!(g.texts[4], "炮二平五");
    assert_eq!(g.texts[5], "马８进７");
    assert_eq!(g.texts[13], "炮２进７");
    assert_eq!(g.texts[44], "前马退二");
    assert_eq!(g.texts[74], "车五平七");
    assert_eq!(g.result.as_deref(), Some("1-0"));
    let last = *g.positions().last().unwrap();
    assert_eq!(last.turn(), Color::Black);
}

#[test]
fn gbk_and_utf8_give_the_same_game() {
    for (name, bytes) in records() {
        let from_gbk = read_game(&bytes).unwrap();
        let utf8 = gbk_to_utf8(&bytes);
        assert_eq!(read_game(utf8.as_bytes()).unwrap(), from_gbk, "{name}");
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), utf8.as_bytes()].concat();
        assert_eq!(read_game(&with_bom).unwrap(), from_gbk, "{name} with BOM");
        let lf = utf8.replace("\r\n", "\n");
        assert_eq!(
            read_game(lf.as_bytes()).unwrap(),
            from_gbk,
            "{name} with LF"
        );
    }
}

#[test]
fn several_games_in_one_file() {
    let all = records();
    let joined: Vec<u8> = all.iter().flat_map(|(_, b)| b.iter().copied()).collect();
    let games = read_games(&joined).unwrap();
    assert_eq!(games.len(), all.len());
    for ((name, bytes), game) in all.iter().zip(&games) {
        assert_eq!(&read_game(bytes).unwrap(), game, "{name}");
    }
    // read_game takes the first and ignores the rest.
    assert_eq!(read_game(&joined).unwrap(), games[0]);
}

#[test]
fn malformed_record_names_the_ply() {
    let text = gbk_to_utf8(&record("ccgc-01.pgn"));
    // Line 17 is "  4. 兵三进一 卒３进１": spoil red's fourth move (ply 6).
    let bad = text.replacen("兵三进一", "兵X进一", 1);
    for bytes in [
        bad.as_bytes().to_vec(),
        encoding_rs::GBK.encode(&bad).0.into_owned(),
    ] {
        let err = read_game(&bytes).unwrap_err();
        assert_eq!(err.line, 17);
        assert_eq!(err.ply(), Some(6));
        match &err.kind {
            PgnErrorKind::Move {
                ply,
                move_number,
                side,
                text,
                source,
            } => {
                assert_eq!((*ply, *move_number, *side), (6, 4, Color::Red));
                assert_eq!(text, "兵X进一");
                assert!(matches!(source.kind, NotationErrorKind::Syntax(_)));
            }
            k => panic!("{k:?}"),
        }
        let message = err.to_string();
        assert!(
            message.contains("move 4") && message.contains("兵X进一"),
            "{message}"
        );
    }

    // A well-formed but impossible move: black's cannon cannot go forward nine.
    let record = "[Game \"Chinese Chess\"]\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n3. 车一平二 炮２进９\n4. 兵七进一 *\n";
    let err = read_game(record.as_bytes()).unwrap_err();
    assert_eq!(err.line, 4);
    match err.kind {
        PgnErrorKind::Move {
            ply,
            move_number,
            side,
            source,
            ..
        } => {
            assert_eq!((ply, move_number, side), (5, 3, Color::Black));
            assert!(matches!(source.kind, NotationErrorKind::NoMatch(_)));
        }
        k => panic!("{k:?}"),
    }

    // A skipped move shows up as the other side's move.
    let err = read_game("1. 炮二平五 炮五平四".as_bytes()).unwrap_err();
    match err.kind {
        PgnErrorKind::Move { ply, source, .. } => {
            assert_eq!(ply, 1);
            assert!(matches!(source.kind, NotationErrorKind::WrongSide { .. }));
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn comments_variations_and_numbers() {
    let record = "\u{feff}[Game \"Chinese Chess\"]\r\n\
        [event \"test\"]\r\n\
        [result \"1-0\"]\r\n\
        {opening comment (with parentheses) and [brackets]}\r\n\
        1. 炮二平五 {central cannon} (1. 相三进五 (1. 兵七进一 卒７进１) 马８进７ {a } ) 马８进７ $1\r\n\
        ; a line comment 2. 车一进一\r\n\
        2.马二进三\r\n\
        2...车９平８ (2... 车９进１ {nested comment} )\r\n\
        3.\r\n\
        车一平二 !\r\n\
        3.          马２进３\r\n\
        1-0 ====== advertisement 炮二平五 (unclosed\r\n\
        http://www.example.net/\r\n";
    let g = read_game(record.as_bytes()).unwrap();
    assert_eq!(
        g.texts,
        [
            "炮二平五",
            "马８进７",
            "马二进三",
            "车９平８",
            "车一平二",
            "马２进３"
        ]
    );
    assert_eq!(g.result.as_deref(), Some("1-0"));
    assert_eq!(g.tag("Event"), Some("test"));
    assert_eq!(g.tag("EVENT"), Some("test"));
}

#[test]
fn iccs_and_wxf_records() {
    let iccs = "[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. h0g2 i9h9 3. 炮八平六 *";
    let g = read_game(iccs.as_bytes()).unwrap();
    assert_eq!(
        g.moves,
        [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9"), mv("b2d2")]
    );
    assert_eq!(g.result.as_deref(), Some("*"));

    let wxf = "[Format \"WXF\"]\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 C8+4 1/2-1/2";
    let g = read_game(wxf.as_bytes()).unwrap();
    assert_eq!(g.moves.len(), 6);
    assert_eq!(g.moves[5], mv("h7h3"));

    // WXF soldiers on two files: `33.4` is a move, not move 33.
    let fen = "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
    let record = format!("[FEN \"{fen}\"]\n[Format \"WXF\"]\n1. 33.4 K5.6 2. 3+.4 *");
    let g = read_game(record.as_bytes()).unwrap();
    assert_eq!(g.moves, [mv("g6f6"), mv("e9f9"), mv("g7f7")]);
}

#[test]
fn write_then_read_gives_the_same_game() {
    for (name, bytes) in records() {
        let game = read_game(&bytes).unwrap();
        for n in Notation::ALL {
            let text = write_game(&game, n);
            let back = read_game(text.as_bytes()).unwrap_or_else(|e| panic!("{name} {n}: {e}"));
            assert_eq!(back.start, game.start, "{name} {n}");
            assert_eq!(back.moves, game.moves, "{name} {n}");
            assert_eq!(back.result, game.result, "{name} {n}");
            assert_eq!(back.tag("Red"), game.tag("Red"), "{name} {n}");
            if n == Notation::Chinese {
                assert_eq!(back.texts, game.texts, "{name}: Chinese texts are the same");
            }
        }
    }
    let g = read_game(&record("sample-handicap-comments.pgn")).unwrap();
    let wxf = write_game(&g, Notation::Wxf);
    assert!(wxf.contains("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1\"]"));
    assert!(wxf.contains("[Format \"WXF\"]"));
    assert!(wxf.contains("  1. C8.5 C8.5\n"), "{wxf}");
    let iccs = write_game(&g, Notation::Iccs);
    assert!(iccs.contains("  1. B2-E2 H7-E7\n"), "{iccs}");
}

#[test]
fn black_to_move_first() {
    let start: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"
        .parse()
        .unwrap();
    let game = Game {
        tags: vec![("Event".into(), "quote \" and \\ backslash".into())],
        start,
        moves: vec![mv("h9g7"), mv("h0g2"), mv("i9h9")],
        texts: vec![],
        result: None,
    };
    let text = write_game(&game, Notation::Chinese);
    assert!(
        text.contains("  1. ... 马８进７\n  2. 马二进三 车９平８\n*\n"),
        "{text}"
    );
    let back = read_game(text.as_bytes()).unwrap();
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.start, start);
    assert_eq!(back.tag("Event"), Some("quote \" and \\ backslash"));
    assert_eq!(back.result.as_deref(), Some("*"));
}

#[test]
fn record_errors() {
    let kind = |text: &str| read_game(text.as_bytes()).unwrap_err();
    assert!(matches!(kind("").kind, PgnErrorKind::NoGame));
    assert!(matches!(kind(" \r\n \n").kind, PgnErrorKind::NoGame));
    assert!(matches!(
        read_games(b"").unwrap_err().kind,
        PgnErrorKind::NoGame
    ));
    let e = kind("[Event \"x\"]\n1. 炮二平五 {never closed\n马８进７");
    assert_eq!((e.line, e.kind), (2, PgnErrorKind::UnclosedComment));
    let e = kind("1. 炮二平五\n(1. 兵七进一 (卒７进１)\n马８进７");
    assert_eq!((e.line, e.kind), (2, PgnErrorKind::UnclosedVariation));
    let e = kind("1. 炮二平五 ) 马８进７");
    assert_eq!(e.kind, PgnErrorKind::StrayParen);
    let e = kind("[Event \"x\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. 帅五平四 *");
    assert!(matches!(e.kind, PgnErrorKind::BadFen { .. }), "{e}");
    assert_eq!(e.line, 2);
    let e = kind("[Event \"unterminated]\n1. 炮二平五");
    assert!(matches!(e.kind, PgnErrorKind::BadTag(_)), "{e}");
    let e = kind("[Event \"x\"\n1. 炮二平五");
    assert!(matches!(e.kind, PgnErrorKind::BadTag(_)), "{e}");
    // Garbage never panics.
    for text in [
        "[", "]", "{", "(", "1.", "1-", "[\"\"]", "1. 炮", "\u{3000}", "[A B]",
    ] {
        let _ = read_games(text.as_bytes());
        let _ = read_game(text.as_bytes());
    }
    let _ = read_game(&[0xff, 0xfe, 0x80, 0x81, b'[']);
}
