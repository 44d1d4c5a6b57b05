//! Game records in every format qili reads: XQF and DhtmlXQ fixtures made from the real PGN
//! games of tests/data/pgn (the generator is here; `QILI_BLESS=1 cargo test --release --test it
//! records` writes them anew), hand-checked golden files (tests/data/*/README.md), round trips,
//! format detection, each reader's errors, and UCCI position strings in a ruling request.

use qili::record::xqf::{self, Keys, Options, XqfError};
use qili::record::{self, Format, Game, RecordError, dhtmlxq, ucci};
use qili::request::Request;
use qili::rules::{self, Verdict};
use qili::{Notation, Position, parse_move};
use std::path::{Path, PathBuf};

fn data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The PGN games the fixtures are made from, by file stem.
fn pgn_games() -> Vec<(String, Game)> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data("pgn"))
        .expect("tests/data/pgn")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 21, "the records of shared/data/pgn");
    names
        .iter()
        .map(|p| {
            let stem = p.file_stem().expect("stem").to_string_lossy().into_owned();
            let game =
                qili::record::pgn::read_game(&read(p)).unwrap_or_else(|e| panic!("{stem}: {e}"));
            (stem, game)
        })
        .collect()
}

/// How the `i`-th fixture is written: every version 10–18 in turn, with keys, masks and comments
/// that differ from file to file.
fn xqf_options(i: usize, game: &Game) -> Options {
    let i8 = i as u8;
    Options {
        version: 10 + (i % 9) as u8,
        keys: Keys {
            mask: [0xFF, 0x7F, 0xEF, 0xB6][i % 4],
            or: [i8.wrapping_mul(7), 0, i8.wrapping_mul(3), 0x11 * (i8 % 3)],
            xy: i8.wrapping_mul(37).wrapping_add(11),
            xyf: i8.wrapping_mul(91).wrapping_add(5),
            xyt: i8.wrapping_mul(53).wrapping_add(200),
        },
        comments: vec![
            (0, game.tag("Event").unwrap_or("对局").to_string()),
            (1, "第一着".to_string()),
            (game.moves.len(), "终局".to_string()),
        ],
    }
}

/// The fixtures the generator makes from the PGN games: (path, bytes).
fn fixtures() -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, (stem, game)) in pgn_games().into_iter().enumerate() {
        let bytes =
            xqf::write(&game, &xqf_options(i, &game)).unwrap_or_else(|e| panic!("{stem}: {e}"));
        out.push((data("xqf").join(format!("{stem}.xqf")), bytes));
        let text = dhtmlxq::write(&game);
        // Every third one in GBK with CRLF, as Chinese sites serve it.
        let bytes = if i % 3 == 0 {
            let crlf = text.replace('\n', "\r\n");
            encoding_rs::GBK.encode(&crlf).0.into_owned()
        } else {
            text.into_bytes()
        };
        out.push((data("dhtmlxq").join(format!("{stem}.txt")), bytes));
    }
    // The README's XQF example: the perpetual check of the golden DhtmlXQ file, encrypted.
    let dispute = record::read_game(&read(&data("dhtmlxq").join("perpetual-check.txt")))
        .expect("the golden file reads");
    let options = Options {
        version: 18,
        ..Options::default()
    };
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/samples/perpetual-check.xqf");
    out.push((example, xqf::write(&dispute, &options).expect("writes")));
    out
}

#[test]
fn the_fixtures_are_what_the_generator_makes() {
    let bless = std::env::var_os("QILI_BLESS").is_some();
    let mut stale = Vec::new();
    for (path, bytes) in fixtures() {
        if bless {
            std::fs::write(&path, &bytes).expect("write fixture");
        } else if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "fixtures differ from the generator (QILI_BLESS=1 cargo test --release --test it records \
         writes them): {stale:?}"
    );
}

/// What `a` and `b` must share: start, moves and the tags `tags`.
fn assert_same(name: &str, a: &Game, b: &Game, tags: &[&str]) {
    assert_eq!(a.start, b.start, "{name}: start");
    assert_eq!(a.start.turn(), b.start.turn(), "{name}: side to move");
    assert_eq!(a.moves, b.moves, "{name}: moves");
    // An empty PGN tag and no tag are the same to the other formats.
    let tag = |g: &'_ Game, t: &str| g.tag(t).filter(|v| !v.is_empty()).map(str::to_string);
    for t in tags {
        assert_eq!(tag(a, t), tag(b, t), "{name}: tag {t}");
    }
}

/// The tags XQF has a field for (and the PGN games fill in, within its lengths).
const XQF_TAGS: [&str; 6] = ["Event", "Date", "Site", "Red", "Black", "Result"];
const DHTMLXQ_TAGS: [&str; 11] = [
    "Event",
    "Date",
    "Site",
    "Round",
    "Red",
    "Black",
    "RedTeam",
    "BlackTeam",
    "Opening",
    "ECCO",
    "Result",
];

#[test]
fn every_xqf_fixture_reads_as_its_pgn_game() {
    let mut versions = std::collections::BTreeSet::new();
    for (i, (stem, game)) in pgn_games().into_iter().enumerate() {
        let bytes = read(&data("xqf").join(format!("{stem}.xqf")));
        versions.insert(bytes[2]);
        assert_eq!(record::format(&bytes), Ok(Format::Xqf), "{stem}");
        let back = record::read_game(&bytes).unwrap_or_else(|e| panic!("{stem}.xqf: {e}"));
        assert_same(&format!("{stem}.xqf"), &back, &game, &XQF_TAGS);
        assert_eq!(back.result, game.result, "{stem}");
        assert!(game.moves.len() >= 20, "{stem}: a real game");
        assert_eq!(bytes[2], xqf_options(i, &game).version);
    }
    assert_eq!(versions.len(), 9, "every version 10–18: {versions:?}");
}

#[test]
fn every_dhtmlxq_fixture_reads_as_its_pgn_game() {
    for (stem, game) in pgn_games() {
        let bytes = read(&data("dhtmlxq").join(format!("{stem}.txt")));
        assert_eq!(record::format(&bytes), Ok(Format::DhtmlXq), "{stem}");
        let back = record::read_game(&bytes).unwrap_or_else(|e| panic!("{stem}.txt: {e}"));
        assert_same(&format!("{stem}.txt"), &back, &game, &DHTMLXQ_TAGS);
    }
}

#[test]
fn xqf_round_trips_in_every_version_and_into_pgn() {
    for (i, (stem, game)) in pgn_games().into_iter().enumerate() {
        let first = xqf::read(&read(&data("xqf").join(format!("{stem}.xqf")))).expect("reads");
        for version in 10..=18 {
            let options = Options {
                version,
                ..xqf_options(i + version as usize, &game)
            };
            let bytes = xqf::write(&first, &options).expect("writes");
            let again = xqf::read(&bytes).expect("reads back");
            assert_same(&format!("{stem} v{version}"), &again, &first, &XQF_TAGS);
            assert_eq!(again.tags, first.tags, "{stem} v{version}");
        }
        for n in Notation::ALL {
            let pgn = qili::record::pgn::write_game(&first, n);
            let back = record::read_game(pgn.as_bytes()).expect("PGN reads back");
            assert_same(&format!("{stem} as PGN ({n})"), &back, &first, &XQF_TAGS);
        }
    }
}

#[test]
fn dhtmlxq_and_ucci_round_trip() {
    for (stem, game) in pgn_games() {
        let text = dhtmlxq::write(&game);
        let back = &dhtmlxq::read_games(&text).expect("reads back")[0];
        assert_same(&stem, back, &game, &DHTMLXQ_TAGS);
        assert_eq!(dhtmlxq::write(back), text, "{stem}: written the same twice");

        let line = ucci::write(&game);
        assert_eq!(record::format(line.as_bytes()), Ok(Format::Ucci));
        let back = ucci::read(&line).expect("reads back");
        assert_same(&stem, &back, &game, &[]);
        assert_eq!(ucci::write(&back), line);
    }
}

/// The game of XQStudio's XQF 1.0 description, as its text gives it.
const SAMPLE_MOVES: &str = "兵七进一 马８进７ 兵三进一 炮２平３ 相七进五 马２进１ 马八进七 车１平２ \
                            车九平八 车２进４ 炮八平九 车２平８ 炮二进五 炮３平８ 马二进三 车９平８";

fn sample_game() -> Game {
    let mut game = Game::new(Position::start());
    let mut pos = game.start;
    for text in SAMPLE_MOVES.split_whitespace() {
        let m = parse_move(&pos, text, Some(Notation::Chinese)).expect("a move of the sample");
        pos.play_unchecked(m);
        game.moves.push(m);
        game.texts.push(text.to_string());
    }
    for (tag, value) in [
        ("Title", "仙人指路对起马局"),
        ("Event", "\"中立杯\"象棋电视快棋赛"),
        ("Date", "1997年11月16日"),
        ("Site", "北京"),
        ("Red", "柳大华"),
        ("Black", "吕  钦"),
        ("Annotator", "刘殿中"),
        ("Author", "过河象"),
        ("Result", "0-1"),
    ] {
        game.tags.push((tag.to_string(), value.to_string()));
    }
    game.result = Some("0-1".to_string());
    game
}

#[test]
fn the_xqstudio_sample_reads_and_is_written_byte_for_byte() {
    let golden = read(&data("xqf").join("xqstudio-1.0-sample.xqf"));
    let game = xqf::read(&golden).expect("the sample reads");
    let expected = sample_game();
    assert_eq!(game.moves, expected.moves);
    assert_eq!(game.start, Position::start());
    assert_eq!(game.tags, expected.tags);
    assert_eq!(game.result.as_deref(), Some("0-1"));
    assert_eq!(game.texts[0], "c3c4");
    // The writer makes the same 1160 bytes from the game.
    let written = xqf::write(&expected, &Options::default()).expect("writes");
    assert_eq!(written, golden);
}

#[test]
fn an_xqf_variation_and_comments_are_skipped() {
    let bytes = read(&data("xqf").join("xqstudio-1.0-variation.xqf"));
    let game = xqf::read(&bytes).expect("reads");
    assert_eq!(game.moves, sample_game().moves, "the main line only");
}

#[test]
fn the_golden_dhtmlxq_records_read() {
    let sample = sample_game();
    for name in ["dpxq-sample.txt", "forum-page-gbk.html"] {
        let bytes = read(&data("dhtmlxq").join(name));
        assert_eq!(record::format(&bytes), Ok(Format::DhtmlXq), "{name}");
        let game = record::read_game(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.moves, sample.moves, "{name}");
        assert_eq!(game.tag("Red"), Some("柳大华"), "{name}");
        assert_eq!(game.tag("Black"), Some("吕钦"), "{name}");
        assert_eq!(game.tag("Title"), Some("仙人指路对起马局"), "{name}");
        assert_eq!(game.tag("Site"), Some("北京"), "{name}");
        assert_eq!(game.result.as_deref(), Some("0-1"), "{name}");
    }
    // Two blocks: both read, each a game.
    let page = read(&data("dhtmlxq").join("forum-page-gbk.html"));
    let games = record::read_games(&page).expect("both blocks");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].moves.len(), 8);
}

#[test]
fn set_up_starts_and_black_to_move_read_from_dhtmlxq_and_rule() {
    for (name, verdict) in [
        ("perpetual-check.txt", Verdict::RedLoses),
        ("black-first.txt", Verdict::BlackLoses),
    ] {
        let bytes = read(&data("dhtmlxq").join(name));
        let game = record::read_game(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ruling = rules::rule(&game.start, &game.moves, &rules::Options::default());
        assert_eq!(ruling.verdict, verdict, "{name}");
        // XQF carries the same start and side to move.
        for version in [10, 11, 12, 18] {
            let options = Options {
                version,
                ..Options::default()
            };
            let back = xqf::read(&xqf::write(&game, &options).expect("writes")).expect("reads");
            assert_same(&format!("{name} v{version}"), &back, &game, &[]);
        }
    }
    let black = record::read_game(&read(&data("dhtmlxq").join("black-first.txt"))).unwrap();
    assert_eq!(black.start.turn(), qili::Color::Black);
}

#[test]
fn the_golden_ucci_strings_read_and_rule() {
    let text = read(&data("ucci").join("positions.txt"));
    assert_eq!(record::format(&text), Ok(Format::Ucci));
    let games = record::read_games(&text).expect("every line reads");
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].moves.len(), 4);
    assert_eq!(games[0].start, Position::start());
    let ruled: Vec<Verdict> = games[1..]
        .iter()
        .map(|g| rules::rule(&g.start, &g.moves, &rules::Options::default()).verdict)
        .collect();
    assert_eq!(
        ruled,
        [Verdict::RedLoses, Verdict::RedLoses, Verdict::NoRepetition]
    );
}

#[test]
fn formats_qili_does_not_read_are_named() {
    let named = |bytes: &[u8]| match record::read_game(bytes) {
        Err(RecordError::Unsupported(what)) => what.en,
        other => panic!("{:?}: {other:?}", String::from_utf8_lossy(bytes)),
    };
    assert_eq!(
        named(b"CCBridge Record\0\0\0"),
        "a CBR record (象棋桥 CCBridge)"
    );
    assert_eq!(
        named(b"CCBridgeLibrary\0"),
        "a CBL library (象棋桥 CCBridge)"
    );
    assert_eq!(named(b"PK\x03\x04\x14\0\0\0"), "a ZIP archive");
    assert_eq!(named(b"%PDF-1.4\n"), "a PDF document");
    assert_eq!(named(b"\x89PNG\r\n\x1a\n"), "a PNG image");
    assert_eq!(
        named(b"<html><body>no record</body></html>"),
        "an HTML page with no [DhtmlXQ] record in it"
    );
    assert_eq!(
        named("<?xml version=\"1.0\"?><ChineseChessRecord><Head/></ChineseChessRecord>".as_bytes()),
        "a CBF record (象棋桥 CCBridge XML)"
    );
    assert_eq!(
        named(br#"{"id":"x","moves":[],"expected":{"verdict":"draw"}}"#),
        "a qili case (run it with qili cases)"
    );
    assert_eq!(
        named(b"\0\x01\x02\x03binary"),
        "binary data in an unknown format"
    );
    let message = record::read_game(b"PK\x03\x04").unwrap_err().to_string();
    assert_eq!(
        message,
        "this looks like a ZIP archive, which qili does not read (it reads PGN, XQF, \
         DhtmlXQ/UBB and UCCI position strings)"
    );
    assert_eq!(record::read_game(b" \n\t"), Err(RecordError::Empty));
}

#[test]
fn a_broken_record_names_its_format_and_what_is_wrong() {
    let sample = read(&data("xqf").join("xqstudio-1.0-sample.xqf"));
    let error = |bytes: &[u8]| record::read_game(bytes).unwrap_err();

    // XQF: short header, cut moves, a newer version, damaged keys, an illegal move record.
    let e = error(&sample[..600]);
    assert_eq!(e.format(), Some(Format::Xqf));
    assert!(
        e.to_string()
            .starts_with("XQF: the file ends at byte 600 inside the 1024-byte header"),
        "{e}"
    );
    let e = error(&sample[..0x40C]);
    assert!(e.to_string().contains("inside a comment length"), "{e}");
    let mut newer = sample.clone();
    newer[2] = 19;
    assert_eq!(error(&newer), RecordError::Xqf(XqfError::Version(19)));
    let mut keys = xqf::write(
        &sample_game(),
        &Options {
            version: 18,
            ..Options::default()
        },
    )
    .unwrap();
    keys[13] ^= 1;
    assert!(matches!(error(&keys), RecordError::Xqf(XqfError::Keys(_))));
    let mut illegal = sample.clone();
    illegal[0x408] = 40 + 24; // move 1 from e0: the king cannot go to c4
    let e = error(&illegal);
    assert!(
        e.to_string()
            .starts_with("XQF: move 0 (counting from 0, record at byte 1032): e0c4: "),
        "{e}"
    );
    let mut same = sample.clone();
    same[0x11] = same[0x10]; // the horse on the rook's point, i0
    let e = error(&same);
    assert_eq!(
        e.to_string(),
        "XQF: pieces 1 and 2 (from 1) of the start are both on i0"
    );

    // DhtmlXQ: a short binit, a movelist not in fours, an illegal move.
    let e = error(b"[DhtmlXQ][DhtmlXQ_binit]0919[/DhtmlXQ_binit][/DhtmlXQ]");
    assert!(
        e.to_string()
            .starts_with("DhtmlXQ: block 1: [DhtmlXQ_binit] is \"0919\"; expected 64 digits"),
        "{e}"
    );
    let e = error(b"[DhtmlXQ_movelist]77471[/DhtmlXQ_movelist]");
    assert!(e.to_string().contains("expected four digits a move"), "{e}");
    let e = error(b"[DhtmlXQ_movelist]77477040[/DhtmlXQ_movelist]");
    assert!(
        e.to_string()
            .starts_with("DhtmlXQ: block 1: move 1 (counting from 0) \"7040\": h9e9: "),
        "{e}"
    );

    // UCCI: a FEN that is not valid, a word where moves belong, an illegal move.
    let e = error(b"position fen 4k4/9 w moves");
    assert!(
        e.to_string()
            .starts_with("UCCI position: FEN \"4k4/9 w\": "),
        "{e}"
    );
    let e = error(b"position startpos h2e2");
    assert_eq!(
        e.to_string(),
        "UCCI position: \"h2e2\" after the position: expected \"moves\" and the moves"
    );
    let e = error(b"startpos moves h2e2 h9e9");
    assert!(
        e.to_string()
            .starts_with("UCCI position: move 1 (counting from 0) \"h9e9\": "),
        "{e}"
    );

    // PGN, the format anything else is read as.
    let e = error("1. 炮二平五 马８进８ *".as_bytes());
    assert_eq!(e.format(), Some(Format::Pgn));
    assert!(
        e.to_string().starts_with("PGN: game 1, line 1: move 1"),
        "{e}"
    );
}

fn request(fen: &str, moves: &[&str]) -> Request {
    Request {
        fen: fen.to_string(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        ..Request::default()
    }
}

#[test]
fn a_ucci_position_string_stands_in_the_fen_field() {
    let (start, moves) = request("startpos", &[]).parse().expect("startpos");
    assert_eq!((start, moves.len()), (Position::start(), 0));
    let (start, moves) = request("position startpos moves h2e2", &["h9g7"])
        .parse()
        .expect("a position string's moves come first");
    assert_eq!(start, Position::start());
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(texts, ["h2e2", "h9g7"]);

    // Perpetual check, the cycle split between the string and the moves field.
    let fen = "position fen 4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1 moves a8a9 e9e8 a9a8 e8e9";
    let ruling =
        qili::request::adjudicate(&request(fen, &["a8a9", "e9e8", "a9a8", "e8e9"])).expect("rules");
    assert_eq!(ruling.verdict, Verdict::RedLoses);
    assert_eq!(ruling.cycle_start, 4, "plies count the string's moves");

    // Errors name the field and the move's index in the whole list.
    let e = request("position startpos moves h2e2 h9h1", &[])
        .parse()
        .unwrap_err();
    assert_eq!(e.field(), "moves");
    assert_eq!(e.ply(), Some(1));
    assert!(
        e.to_string()
            .ends_with("(a move of the UCCI position string in fen)"),
        "{e}"
    );
    let e = request("position startpos moves h2e2", &["h9g7", "h0h9"])
        .parse()
        .unwrap_err();
    assert_eq!(e.ply(), Some(2));
    assert!(e.to_string().starts_with("moves[2] \"h0h9\": "), "{e}");
    let e = request("position fen 4k4 w", &[]).parse().unwrap_err();
    assert_eq!(e.field(), "fen");
    assert!(
        e.to_string().starts_with("fen: FEN board has 1 ranks"),
        "{e}"
    );
    let e = request("position midgame", &[]).parse().unwrap_err();
    assert_eq!(
        e.to_string(),
        "fen: UCCI position string: \"midgame\" after \"position\": expected startpos or fen"
    );
}

#[test]
fn a_pgn_that_opens_with_a_comment_is_not_taken_for_json() {
    let pgn = "{一局棋} 1. 炮二平五 马８进７ *".as_bytes();
    assert_eq!(record::format(pgn), Ok(Format::Pgn));
    assert_eq!(record::read_game(pgn).expect("reads").moves.len(), 2);
    assert!(matches!(
        record::read_game(b"{\"a\": 1}\n"),
        Err(RecordError::Unsupported(what)) if what.en == "JSON"
    ));
}

/// The real records of tests/data/pgn as they are (GBK, CRLF): (name, bytes).
fn pgn_records() -> Vec<(String, Vec<u8>)> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data("pgn"))
        .expect("tests/data/pgn")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| (p.display().to_string(), read(p)))
        .collect()
}

#[test]
fn a_record_read_game_by_game_reads_on_past_a_bad_game() {
    // A comment before the first game, a comment holding a tag-like line, a bad second game
    // (its error names the file's line), and a third game read as usual.
    let text = "{ downloaded }\n[Game \"1\"]\n1. 炮二平五 {\n[not a tag]\n} 马８进７ *\n\
                [Game \"2\"]\n1. 炮二进九 *\n[Game \"3\"]\n1. 马二进三 *\n";
    let games: Vec<_> = record::GameReader::new(text.as_bytes())
        .expect("PGN")
        .collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].as_ref().expect("game 1").moves.len(), 2);
    let err = games[1].as_ref().expect_err("game 2").to_string();
    assert!(err.starts_with("PGN: game 2, line 7: "), "{err}");
    assert_eq!(games[2].as_ref().expect("game 3").tag("Game"), Some("3"));
    // Read whole, the record fails on its bad game as before.
    assert!(record::read_games(text.as_bytes()).is_err());
    // Passing over games does not read them; the count is the same.
    let mut reader = record::GameReader::new(text.as_bytes()).expect("PGN");
    let mut passed = 0;
    while let Some(step) = reader.pass() {
        step.expect("nothing to read wrong");
        passed += 1;
    }
    assert_eq!(passed, 3);
}

#[test]
fn a_record_read_game_by_game_is_the_record_read_whole() {
    // Every real record, in UTF-8, GBK and UTF-16, and all of them in one file.
    let mut all = Vec::new();
    for (name, bytes) in pgn_records() {
        let whole = record::read_games(&bytes).expect(&name);
        let streamed: Vec<_> = record::GameReader::new(&bytes[..])
            .expect(&name)
            .collect::<Result<_, _>>()
            .expect(&name);
        assert_eq!(whole, streamed, "{name}");
        let text = encoding_rs::GB18030.decode(&bytes).0.into_owned();
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let from_utf16: Vec<_> = record::GameReader::new(&utf16[..])
            .expect(&name)
            .collect::<Result<_, _>>()
            .expect(&name);
        assert_eq!(
            from_utf16.iter().map(|g| &g.moves).collect::<Vec<_>>(),
            whole.iter().map(|g| &g.moves).collect::<Vec<_>>(),
            "{name} in UTF-16"
        );
        all.extend_from_slice(&bytes);
        all.extend_from_slice(b"\r\n");
    }
    let games: Vec<_> = record::GameReader::new(&all[..])
        .expect("all")
        .collect::<Result<_, _>>()
        .expect("all");
    assert_eq!(games.len(), pgn_records().len());
}
