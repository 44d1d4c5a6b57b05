//! Chinese when Chinese is asked (issue 24.6): every error a user sees says itself in Chinese when
//! zh is asked (`--lang zh`, the page's language, the API's `language`) and in English otherwise,
//! from the same typed error; and the Chinese texts cite the books' chapter 7 as it numbers itself.

use super::common::{QILI, Server, TempDir, channel, english_line};
use super::desk::Http;
use qili::lang::{Lang, Words};
use qili::notation::{NotationErrorKind, parse_move};
use qili::request::{Request, RequestError};
use qili::service::pb;
use qili::service::pb::qili_client::QiliClient;
use qili::{Position, Square};
use std::process::Command;

/// Asserts that an error reply's message starts with `prefix`.
fn says_first(e: &serde_json::Value, prefix: &str) {
    let message = e["message"].as_str().unwrap_or_default();
    assert!(message.starts_with(prefix), "{e}");
}

/// Asserts that an error reply's message contains `part`.
fn says(e: &serde_json::Value, part: &str) {
    let message = e["message"].as_str().unwrap_or_default();
    assert!(message.contains(part), "{e}");
}

/// Whether `s` has a CJK ideograph in it.
fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c))
}

/// The request error of `fen` and `moves`.
fn request_error(fen: &str, moves: &[&str]) -> RequestError {
    Request {
        fen: fen.to_string(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        ..Request::default()
    }
    .parse()
    .unwrap_err()
}

#[test]
fn each_error_type_says_itself_in_both_languages_from_the_same_data() {
    // FEN: a field count, a piece where it can never stand, the kings facing.
    let fen = Position::from_fen("4k4/9/9 w").unwrap_err();
    assert_eq!(
        fen.words(Lang::En),
        "FEN board has 3 ranks; expected 10 separated by '/'"
    );
    assert_eq!(fen.words(Lang::Zh), "FEN的棋盘有3行；应为10行，以“/”分隔");
    assert_eq!(fen.to_string(), fen.words(Lang::En));
    let advisor = Position::from_fen("3k5/9/9/9/9/9/9/9/3A5/4K4 w").unwrap_err();
    assert_eq!(
        advisor.words(Lang::Zh),
        "红六路仕(d1)：仕（士）只在九宫斜线的五个点上"
    );
    let facing = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    assert!(facing.words(Lang::Zh).contains("五路"), "{facing:?}");

    // Moves: each kind of reason, squares in Chinese notation (the file as the side counts it).
    let start = Position::start();
    let zh = |text: &str| parse_move(&start, text, None).unwrap_err().words(Lang::Zh);
    assert_eq!(
        zh("R5+1"),
        "无法读取着法\"R5+1\"（自动识别为WXF）：五路没有红车"
    );
    assert_eq!(
        zh("马二进五"),
        "无法读取着法\"马二进五\"（自动识别为中文记谱）：没有相符的合法着法：红二路马(h0)进不到五路"
    );
    assert!(zh("h10e10").contains("横线超过9"));
    assert!(zh("ZZ.5").contains("不是棋子"));
    let e = parse_move(&start, "h7e7", None).unwrap_err();
    assert!(matches!(e.kind, NotationErrorKind::WrongSide { .. }));
    assert_eq!(
        e.words(Lang::Zh),
        "无法读取着法\"h7e7\"（自动识别为ICCS）：该红方走，这却是黑方的着法（h7e7）"
    );
    assert_eq!(
        e.words(Lang::En),
        "cannot read move \"h7e7\" (notation auto-detected as ICCS): it is red's turn, but this is a black move (h7e7)"
    );
    let blocked = parse_move(&start, "a0a5", None).unwrap_err();
    assert_eq!(
        blocked.kind.words(Lang::Zh),
        "没有相符的合法着法：红九路车(a0)不能走到九路(a5)"
    );

    // A request names the field and the move's index in either language.
    let e = request_error("", &["h2e2", "h9g7", "R5+1"]);
    assert_eq!(e.field(), "moves");
    assert_eq!(e.ply(), Some(2));
    assert!(
        e.words(Lang::Zh)
            .starts_with("moves[2] \"R5+1\"：无法读取着法")
    );
    assert!(
        e.words(Lang::En)
            .starts_with("moves[2] \"R5+1\": cannot read move")
    );
    let e = request_error("position startpos moves h2e2 h2e3", &[]);
    assert!(
        e.words(Lang::Zh).ends_with("（fen中UCCI局面串的着法）"),
        "{e}"
    );

    // A position's illegal move; an unknown profile; a game option out of range.
    let illegal = start.play(qili::Move::new(sq("a0"), sq("a5"))).unwrap_err();
    assert_eq!(illegal.words(Lang::Zh), "红九路车(a0)不能走到九路(a5)");
    let unknown = "foo".parse::<qili::rules::Ruleset>().unwrap_err();
    assert!(unknown.words(Lang::Zh).starts_with("未知的规则\"foo\""));
    let option = qili::referee::GameOptions::new(99, 0).unwrap_err();
    assert!(
        option
            .words(Lang::Zh)
            .starts_with("game.rule_at：99超出范围")
    );
    assert!(
        option
            .to_string()
            .starts_with("game.rule_at: 99 is out of range")
    );
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// `qili ARGS`: exit 2 and the message on stderr: one line with `--lang zh` or `en`, else
/// (both languages) two, the Chinese then the English.
fn cli_error(args: &[&str]) -> String {
    let out = Command::new(QILI).args(args).output().expect("run qili");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let one = args
        .windows(2)
        .any(|w| w[0] == "--lang" && (w[1] == "zh" || w[1] == "en"));
    assert_eq!(err.lines().count(), if one { 1 } else { 2 }, "{err}");
    err
}

#[test]
fn the_cli_says_errors_in_chinese_with_lang_zh_and_in_english_otherwise() {
    for (args, zh, en) in [
        (
            vec!["judge", "--fen", "4k4/9/9 w", "--moves", "h2e2"],
            "qili: fen: FEN的棋盘有3行",
            "qili: fen: FEN board has 3 ranks",
        ),
        (
            vec!["judge", "--moves", "h2e2 h9g7 R5+1"],
            "qili: moves[2] \"R5+1\"：无法读取着法\"R5+1\"（自动识别为WXF）：五路没有红车",
            "qili: moves[2] \"R5+1\": cannot read move \"R5+1\" (notation auto-detected as WXF): there is no red rook on file 5 (e)",
        ),
        (
            vec!["judge", "--moves", "h2e2", "--ruleset", "foo"],
            "qili: --ruleset: 未知的规则\"foo\"",
            "qili: --ruleset: unknown ruleset \"foo\"",
        ),
        (
            vec!["analyze", "--move", "a0a5"],
            "qili: move \"a0a5\"：无法读取着法",
            "qili: move \"a0a5\": cannot read move",
        ),
        (
            vec!["watch", "--rule-at", "99"],
            "qili: --rule-at: 99超出范围",
            "qili: --rule-at: 99 is out of range",
        ),
    ] {
        let mut with = args.clone();
        with.extend(["--lang", "zh"]);
        let said = cli_error(&with);
        assert!(said.starts_with(zh), "{said}");
        let mut with = args.clone();
        with.extend(["--lang", "en"]);
        let said = cli_error(&with);
        assert!(said.starts_with(en), "{said}");
        assert!(!has_chinese(&said), "{said}");
        // Both languages, the default: the Chinese line, then the English.
        for lang in [None, Some("both")] {
            let mut with = args.clone();
            if let Some(l) = lang {
                with.extend(["--lang", l]);
            }
            let said = cli_error(&with);
            assert!(said.starts_with(zh), "{lang:?}: {said}");
            assert!(english_line(&said).starts_with(en), "{lang:?}: {said}");
        }
    }
}

#[tokio::test]
async fn the_api_and_the_page_say_errors_in_the_language_asked() {
    let server = Server::start();
    let http = Http::new(&server);
    let bad_move = |language: &str| serde_json::json!({"moves": ["h2e2", "h9g7", "R5+1"], "language": language});
    // The JSON API: the field and ply as ever, the message in the request's language.
    let e = http
        .post("/v1/adjudicate", &bad_move("LANGUAGE_ZH"))
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "moves");
    assert_eq!(e["ply"], 2);
    assert_eq!(
        e["message"],
        "moves[2] \"R5+1\"：无法读取着法\"R5+1\"（自动识别为WXF）：五路没有红车"
    );
    for language in ["LANGUAGE_EN", "LANGUAGE_BOTH"] {
        let e = http
            .post("/v1/adjudicate", &bad_move(language))
            .await
            .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "moves");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.starts_with("moves[2] \"R5+1\": cannot read move"),
            "{message}"
        );
    }
    let e = http
        .post(
            "/v1/adjudicate",
            &serde_json::json!({"fen": "4k4/9/9 w", "ruleset": "foo", "language": "LANGUAGE_ZH"}),
        )
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "ruleset");
    says_first(&e, "ruleset: 未知的规则");
    let e = http
        .post(
            "/v1/analyze",
            &serde_json::json!({"move": "a0a5", "language": "LANGUAGE_ZH"}),
        )
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "move");
    says(&e, "红九路车(a0)");

    // The page's sheet call: its language decides.
    for (lang, said) in [
        ("zh", "fen: FEN的棋盘有3行；应为10行，以“/”分隔"),
        (
            "en",
            "fen: FEN board has 3 ranks; expected 10 separated by '/'",
        ),
    ] {
        let e = http
            .post(
                "/desk/ruling",
                &serde_json::json!({"fen": "4k4/9/9 w", "moves": "h2e2", "lang": lang}),
            )
            .await
            .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "fen");
        assert_eq!(e["message"], said);
    }

    // gRPC: the status message, and a live game's error in Watch's status.
    let mut client = QiliClient::new(channel(&server.url()).await);
    let status = client
        .adjudicate(pb::AdjudicateRequest {
            fen: "4k4/9/9 w".into(),
            language: pb::Language::Zh.into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert_eq!(status.message(), "fen: FEN的棋盘有3行；应为10行，以“/”分隔");
    let status = client
        .status(pb::AdjudicateRequest {
            moves: ["h2e2", "h2e2"].into_iter().collect(),
            language: pb::Language::Zh.into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        status.message().starts_with("moves[1] \"h2e2\"："),
        "{}",
        status.message()
    );
    assert!(has_chinese(status.message()));
}

/// A rook that keeps attacking the cannon it attacked before, to and fro, under `options`.
fn rook_keeps_attacking(options: qili::rules::Options) -> Request {
    Request {
        fen: "4k4/9/2c6/9/9/9/9/9/2R6/5K3 w".into(),
        moves: "c1c2 e9d9 c2c1 d9e9 c1c2 e9d9 c2c1 d9e9"
            .split(' ')
            .map(String::from)
            .collect(),
        options,
        ..Request::default()
    }
}

#[test]
fn chinese_explanations_cite_chapter_7_as_the_book_numbers_it() {
    // From-chase-to-chase (从捉到捉) is item 6 of the 1999 book's chapter 7, 棋例细则.
    let ruling = qili::request::adjudicate(&rook_keeps_attacking(Default::default())).unwrap();
    let zh = qili::rules::words::explanation(&ruling, Lang::Zh);
    assert!(zh.contains("棋例细则第6条"), "{zh}");
    assert!(!zh.contains("item"), "{zh}");
    let en = qili::rules::words::explanation(&ruling, Lang::En);
    assert!(en.contains("item 6"), "{en}");
}

#[test]
fn a_threat_already_there_cites_its_own_book() {
    // The rook keeps attacking the cannon it attacked before: 从捉到捉 in every profile, each
    // citing its own article (the AXF and 2011 rulings once cited the 1999 item).
    use qili::rules::{Options, Ruleset, Why};
    for (ruleset, cited) in [
        (Ruleset::Cxa1999, "item 6"),
        (Ruleset::Cxa2011, "2011 24.3"),
        (Ruleset::Axf, "AXF appendix"),
    ] {
        let options = Options {
            ruleset,
            ..Options::default()
        };
        let ruling = qili::request::adjudicate(&rook_keeps_attacking(options)).unwrap();
        let mut said = 0;
        for t in ruling.moves.iter().flat_map(|m| &m.targets) {
            if let Why::NotNew(a) = t.why {
                let en = qili::rules::words::reason(t, Lang::En);
                assert_eq!(
                    en,
                    format!("it could already be won before this move (从捉到捉, {cited})"),
                    "{ruleset}"
                );
                assert_eq!(a.edition, ruling.ruleset, "{ruleset}");
                said += 1;
            }
        }
        assert_eq!(said, 2, "{ruleset}: the rook's two moves");
    }
}

/// Two games: one with players and a result, one with one player.
const TWO_GAMES: &str = "[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n1. 炮二平五 1-0\n\n[Red \"丙\"]\n1. 炮二平五 *\n";

/// The record error of `bytes` in both languages: (zh, en).
fn record_error(bytes: &[u8]) -> (String, String) {
    let e = qili::record::read_game(bytes).unwrap_err();
    assert_eq!(e.to_string(), e.words(Lang::En));
    (e.words(Lang::Zh), e.words(Lang::En))
}

#[test]
fn record_errors_say_themselves_in_both_languages() {
    let pgn = "[Event \"x\"]\n1. 炮二平五 马８进７ 2. 马二进五 *\n";
    assert_eq!(
        record_error(pgn.as_bytes()),
        (
            "PGN：第1局第2行：第2回合红方着法\"马二进五\"（从0数起第2着）：没有相符的合法着法：红二路马(h0)进不到五路".into(),
            "PGN: game 1, line 2: move 2 (red, ply 2 counting from 0) \"马二进五\": no legal move matches: the red horse on h0 cannot reach file 5 (e) going forward (进)".into()
        )
    );
    let (zh, en) = record_error(b"[Event \"x\n1. h2e2 *\n");
    assert_eq!(zh, "PGN：第1局第1行：标签有误：[Event]的值缺少后引号“\"”");
    assert_eq!(
        en,
        "PGN: game 1, line 1: bad tag: the value of [Event] has no closing '\"'"
    );
    let (zh, _) = record_error(b"1. h2e2 { never closed\n");
    assert_eq!(zh, "PGN：第1局第1行：此处以“{”开始的注释没有结束");

    let (zh, en) = record_error(b"position startpos moves h2e2 h2e3");
    assert!(zh.starts_with("UCCI局面串：从0数起第1着\"h2e3\"："), "{zh}");
    assert!(
        en.starts_with("UCCI position: move 1 (counting from 0) \"h2e3\": "),
        "{en}"
    );
    let (zh, en) = record_error(b"position fen");
    assert_eq!(zh, "UCCI局面串：“fen”之后没有FEN");
    assert_eq!(en, "UCCI position: \"fen\" is not followed by a FEN");

    // DhtmlXQ: a move onto its own piece (red's rook a0 to its horse's b0), a point off the board.
    let dhtml = |list: &str| {
        format!("[DhtmlXQ][DhtmlXQ_movelist]{list}[/DhtmlXQ_movelist][/DhtmlXQ]").into_bytes()
    };
    let (zh, en) = record_error(&dhtml("0919"));
    assert_eq!(
        zh,
        "DhtmlXQ：第1个DhtmlXQ块：从0数起第0着\"0919\"：a0b0：红九路车(a0)不能走到八路(b0)"
    );
    assert_eq!(
        en,
        "DhtmlXQ: block 1: move 0 (counting from 0) \"0919\": a0b0: the rook on a0 cannot move to b0"
    );
    let (zh, _) = record_error(&dhtml("7747 9999"));
    assert!(
        zh.ends_with("从0数起第1着\"9999\"：有一点在棋盘外（纵线为0–8）"),
        "{zh}"
    );

    // XQF: cut short in its header.
    assert_eq!(
        record_error(b"XQ\x0a\0\0"),
        (
            "XQF：文件在第5字节处结束，1024字节的文件头（始于第0字节）不完整".into(),
            "XQF: the file ends at byte 5 inside the 1024-byte header (byte 0)".into()
        )
    );
    // A format qili does not read; an empty record.
    let (zh, en) = record_error(b"PK\x03\x04\x14\0");
    assert!(
        zh.starts_with("这看来是ZIP压缩包，qili不读这种格式"),
        "{zh}"
    );
    assert!(
        en.starts_with("this looks like a ZIP archive, which qili does not read"),
        "{en}"
    );
    assert_eq!(
        record_error(b" \n"),
        ("棋谱为空".into(), "the record is empty".into())
    );
}

#[test]
fn dispute_errors_and_titles_say_themselves_in_both_languages() {
    use qili::record::dispute::{At, Dispute, Title};
    let dispute = |game, at| Dispute::from_record("two.pgn", TWO_GAMES.as_bytes(), game, at);
    let e = dispute(None, None).unwrap_err();
    assert_eq!(
        e.words(Lang::Zh),
        "棋谱中有2局；请用--game N选一局：1. 甲 – 乙，红胜，共1着；2. 丙，共1着"
    );
    assert_eq!(
        e.to_string(),
        "the record holds 2 games; choose one with --game N: 1. 甲 – 乙, 1-0, 1 plies; 2. 丙, 1 plies"
    );
    let e = dispute(Some(5), None).unwrap_err();
    assert_eq!(e.words(Lang::Zh), "第5局：棋谱中只有2局，从1编号");
    assert_eq!(
        e.to_string(),
        "game 5: the record holds 2 game(s), numbered from 1"
    );
    let e = dispute(Some(2), Some("3b".parse().unwrap())).unwrap_err();
    assert_eq!(e.words(Lang::Zh), "第3回合黑方：本局共1着，止于第1回合");
    assert_eq!(
        e.to_string(),
        "round 3 (black): the game has 1 moves (plies), ending in round 1"
    );
    let e = dispute(Some(1), Some(At::Ply(7))).unwrap_err();
    assert_eq!(e.words(Lang::Zh), "从0数起第7着：本局共1着，止于第1回合");
    let e = "x".parse::<At>().unwrap_err();
    assert!(
        e.words(Lang::Zh).starts_with("\"x\"不是棋局中的时刻："),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("\"x\" is not a moment of the game: ")
    );

    // A record's title: the result in words in Chinese.
    let first = dispute(Some(1), None).unwrap();
    let title = &first.source.as_ref().unwrap().title;
    assert_eq!(title.words(Lang::Zh), "甲 – 乙，红胜");
    assert_eq!(title.words(Lang::En), "甲 – 乙, 1-0");
    assert!(Title::default().is_empty());
}

#[test]
fn the_cli_says_record_and_argument_errors_in_chinese_with_lang_zh() {
    let dir = TempDir::new("zh-records");
    let two = dir.0.join("two.pgn");
    std::fs::write(&two, TWO_GAMES).unwrap();
    let zip = dir.0.join("a.pgn");
    std::fs::write(&zip, b"PK\x03\x04\x14\0").unwrap();
    let missing = dir.0.join("missing.pgn");
    let (two, zip, missing) = (
        two.to_str().unwrap(),
        zip.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    for (args, zh, en) in [
        (
            vec!["judge", "--record", two],
            format!("qili: --record {two}：棋谱中有2局；请用--game N选一局：1. 甲 – 乙，红胜"),
            format!(
                "qili: --record {two}: the record holds 2 games; choose one with --game N: 1. 甲 – 乙, 1-0"
            ),
        ),
        (
            vec!["judge", "--record", two, "--game", "5"],
            "qili: --game：第5局：棋谱中只有2局".into(),
            "qili: --game: game 5: the record holds 2 game(s)".into(),
        ),
        (
            vec!["judge", "--record", two, "--game", "x"],
            "qili: --game：\"x\"不是棋局编号".into(),
            "qili: --game: \"x\" is not a game number".into(),
        ),
        (
            vec!["judge", "--record", two, "--game", "2", "--at", "3b"],
            "qili: --at：第3回合黑方：本局共1着".into(),
            "qili: --at: round 3 (black): the game has 1 moves".into(),
        ),
        (
            vec!["judge", "--record", two, "--at", "x"],
            "qili: --at：\"x\"不是棋局中的时刻".into(),
            "qili: --at: \"x\" is not a moment of the game".into(),
        ),
        (
            vec!["judge", "--record", missing],
            format!("qili: --record {missing}：找不到该文件或目录"),
            format!("qili: --record {missing}: No such file or directory"),
        ),
        (
            vec!["judge", "--record", "Cargo.toml/x.pgn"],
            "qili: --record Cargo.toml/x.pgn：路径中有一段不是目录".into(),
            "qili: --record Cargo.toml/x.pgn: Not a directory".into(),
        ),
        (
            vec!["scan", "--record", zip],
            format!("qili: --record {zip}：这看来是ZIP压缩包"),
            format!("qili: --record {zip}: this looks like a ZIP archive"),
        ),
        (
            vec!["scan", "--record", two, "--game", "3"],
            "qili: --game：第3局：棋谱中只有2局".into(),
            "qili: --game: game 3: the record holds 2 game(s)".into(),
        ),
        (
            vec!["watch", "--record", two],
            format!("qili: --record {two}：棋谱中有2局"),
            format!("qili: --record {two}: the record holds 2 games"),
        ),
    ] {
        let mut with = args.clone();
        with.extend(["--lang", "zh"]);
        let said = cli_error(&with);
        assert!(said.starts_with(&zh), "{said}");
        for lang in [None, Some("en"), Some("both")] {
            let mut with = args.clone();
            if let Some(l) = lang {
                with.extend(["--lang", l]);
            }
            let said = cli_error(&with);
            let said = if lang == Some("en") {
                said.as_str()
            } else {
                assert!(said.starts_with(&zh), "{lang:?}: {said}");
                english_line(&said)
            };
            assert!(said.starts_with(&en), "{lang:?}: {said}");
        }
    }
}

#[tokio::test]
async fn the_page_lists_and_refuses_records_in_its_language() {
    use base64::Engine;
    let server = Server::start();
    let http = Http::new(&server);
    let encode = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let two = encode(TWO_GAMES.as_bytes());
    // The game list: titles with the result in words in Chinese.
    for (lang, title) in [
        ("zh", "甲 – 乙，红胜"),
        ("en", "甲 – 乙, 1-0"),
        ("both", "甲 – 乙, 1-0"),
    ] {
        let answer = http
            .post(
                "/desk/record",
                &serde_json::json!({"record": two, "lang": lang}),
            )
            .await
            .json();
        assert_eq!(answer["games"][0]["title"], title, "{lang}: {answer}");
        assert_eq!(answer["games"][1]["title"], "丙");
    }
    // A record that cannot be read, in the page's language.
    let zip = encode(b"PK\x03\x04\x14\0");
    for (lang, said) in [
        ("zh", "record：这看来是ZIP压缩包，qili不读这种格式"),
        (
            "en",
            "record: this looks like a ZIP archive, which qili does not read",
        ),
    ] {
        let e = http
            .post(
                "/desk/record",
                &serde_json::json!({"record": zip, "lang": lang}),
            )
            .await
            .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "record");
        let message = e["message"].as_str().unwrap();
        assert!(message.starts_with(said), "{lang}: {message}");
    }
    // The sheet's call on a record: no game chosen, a moment past the end.
    for (lang, at, field, said) in [
        (
            "zh",
            "",
            "game",
            "game：棋谱中有2局；请用--game N选一局：1. 甲 – 乙，红胜，共1着",
        ),
        (
            "en",
            "",
            "game",
            "game: the record holds 2 games; choose one with --game N: 1. 甲 – 乙, 1-0, 1 plies",
        ),
        ("zh", "x", "at", "at：\"x\"不是棋局中的时刻"),
        ("en", "x", "at", "at: \"x\" is not a moment of the game"),
    ] {
        let e = http
            .post(
                "/desk/ruling",
                &serde_json::json!({"record": two, "lang": lang, "at": at}),
            )
            .await
            .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", field);
        let message = e["message"].as_str().unwrap();
        assert!(message.starts_with(said), "{lang}: {message}");
    }
}

#[tokio::test]
async fn the_http_layer_says_its_own_errors_in_the_language_asked() {
    use tonic::codegen::http::Method;
    let server = Server::start();
    let http = Http::new(&server);
    // No page or call there; the wrong method: Accept-Language decides.
    let zh = [("accept-language", "zh-CN,zh;q=0.9,en;q=0.8")];
    let e = http
        .send_with(Method::GET, "/nowhere", &zh, Vec::new())
        .await
        .assert_error(404, "ERROR_CODE_NOT_FOUND", "");
    says_first(&e, "没有这个页面或调用：\"/nowhere\"");
    let e = http
        .send_with(
            Method::GET,
            "/nowhere",
            &[("accept-language", "en,zh;q=0.5")],
            Vec::new(),
        )
        .await
        .assert_error(404, "ERROR_CODE_NOT_FOUND", "");
    says_first(&e, "no such page or call: \"/nowhere\"");
    let e = http
        .get("/v1/adjudicate")
        .await
        .assert_error(405, "ERROR_CODE_UNIMPLEMENTED", "");
    says(&e, "not allowed here");
    // A body that is not JSON; a field of the wrong type, in the body's language.
    let e = http
        .send_with(
            Method::POST,
            "/v1/adjudicate",
            &[("content-type", "application/json"), zh[0]],
            b"{".to_vec(),
        )
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "");
    says_first(&e, "request：不是一个JSON值：");
    let e = http
        .post(
            "/v1/adjudicate",
            &serde_json::json!({"moves": 7, "language": "LANGUAGE_ZH"}),
        )
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "moves");
    says_first(&e, "moves：无法读取（");
    let e = http
        .post("/v1/adjudicate", &serde_json::json!({"moves": 7}))
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "moves");
    says_first(&e, "moves: invalid type");
    // The page's own fields.
    let e = http
        .post(
            "/desk/ruling",
            &serde_json::json!({"moves": "h2e2", "at": "3", "lang": "zh"}),
        )
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "at");
    says_first(&e, "at：只用于棋谱");
    let e = http
        .post(
            "/desk/record",
            &serde_json::json!({"record": "not base64!", "lang": "zh"}),
        )
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "record");
    says_first(&e, "record：不是base64");
    let e = http
        .get("/v1/board.svg?move=h2e2&notation=xx&lang=zh")
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "notation");
    says_first(&e, "notation：未知的记谱法\"xx\"");
}

#[test]
fn the_servers_limits_say_themselves_in_both_languages() {
    use qili::service::{Failure, Limit};
    // A full queue cannot be made to happen on cue: its words, code and HTTP kind from the type.
    let full = Failure::saturated(8);
    assert_eq!(
        full.message,
        "the server is saturated: 8 calls are already waiting (qili serve --max-queue); retry later"
    );
    let zh = full.clone().said(Lang::Zh);
    assert_eq!(
        zh.message,
        "服务器满负荷：已有8个调用在等待（qili serve --max-queue）；请稍后重试"
    );
    assert_eq!(zh.code, tonic::Code::ResourceExhausted);
    assert!(zh.is_saturated());
    assert_eq!(zh.said(Lang::En), full);
    let late = Failure::deadline(12);
    assert_eq!(
        late.message,
        "no ruling within the deadline (12 ms elapsed)"
    );
    assert_eq!(
        late.said(Lang::Zh).message,
        "未能在时限内作出裁决（已用12毫秒）"
    );
    let game = Failure::limit(Limit::GameFull {
        ply: 4,
        text: "h2e2".into(),
        max_moves: 4,
    });
    assert_eq!((game.field, game.ply), (Some("moves"), Some(4)));
    assert_eq!(
        game.message,
        "moves[4] \"h2e2\": the game has reached the limit of 4 moves (qili serve --max-moves)"
    );
    assert_eq!(
        game.said(Lang::Zh).message,
        "moves[4] \"h2e2\"：本局已达4着的上限（qili serve --max-moves）"
    );
    // Other failures are said where they are made: `said` leaves them alone.
    let bad = Failure::invalid("fen", "fen: bad".into());
    assert_eq!(bad.clone().said(Lang::Zh), bad);
}

#[tokio::test]
async fn the_servers_deadline_and_move_limit_are_said_in_the_language_asked() {
    use tonic::codegen::http::Method;
    // Every call is past its deadline at once; more than 4 moves is too many.
    let server = Server::start_with(&["--deadline-ms", "0", "--max-moves", "4"]);
    let http = Http::new(&server);
    let one = |language: &str| serde_json::json!({"moves": ["h2e2"], "language": language});
    for path in ["/v1/adjudicate", "/v1/status"] {
        let e = http.post(path, &one("LANGUAGE_ZH")).await.assert_error(
            504,
            "ERROR_CODE_DEADLINE_EXCEEDED",
            "",
        );
        says_first(&e, "未能在时限内作出裁决（已用");
        let e = http.post(path, &one("LANGUAGE_BOTH")).await.assert_error(
            504,
            "ERROR_CODE_DEADLINE_EXCEEDED",
            "",
        );
        says_first(&e, "no ruling within the deadline (");
    }
    let e = http
        .post(
            "/v1/analyze",
            &serde_json::json!({"move": "h2e2", "language": "LANGUAGE_ZH"}),
        )
        .await
        .assert_error(504, "ERROR_CODE_DEADLINE_EXCEEDED", "");
    says_first(&e, "未能在时限内作出裁决");
    // A body that names no language: Accept-Language decides; one that does, wins over it.
    let zh = ("accept-language", "zh-CN,zh;q=0.9");
    let json = ("content-type", "application/json");
    for (body, said) in [
        (r#"{"moves": ["h2e2"]}"#, "未能在时限内作出裁决"),
        (
            r#"{"moves": ["h2e2"], "language": "LANGUAGE_EN"}"#,
            "no ruling within the deadline",
        ),
    ] {
        let e = http
            .send_with(Method::POST, "/v1/adjudicate", &[json, zh], body.into())
            .await
            .assert_error(504, "ERROR_CODE_DEADLINE_EXCEEDED", "");
        says_first(&e, said);
    }
    // Too many moves: 413 on `moves`, before the deadline.
    let five = |language: &str| serde_json::json!({"moves": ["h2e2", "h9g7", "e2h2", "g7h9", "h2e2"], "language": language});
    let e = http
        .post("/v1/adjudicate", &five("LANGUAGE_ZH"))
        .await
        .assert_error(413, "ERROR_CODE_RESOURCE_EXHAUSTED", "moves");
    assert_eq!(
        e["message"],
        "moves：共5着，超过上限4着（qili serve --max-moves）"
    );
    let e = http
        .post("/v1/adjudicate", &five("LANGUAGE_EN"))
        .await
        .assert_error(413, "ERROR_CODE_RESOURCE_EXHAUSTED", "moves");
    assert_eq!(
        e["message"],
        "moves: 5 moves, more than the limit of 4 (qili serve --max-moves)"
    );
    // The page's calls: its language.
    let e = http
        .post(
            "/desk/ruling",
            &serde_json::json!({"moves": "h2e2", "lang": "zh"}),
        )
        .await
        .assert_error(504, "ERROR_CODE_DEADLINE_EXCEEDED", "");
    says_first(&e, "未能在时限内作出裁决");

    // gRPC: the status message in the request's language, the code unchanged.
    let mut client = QiliClient::new(channel(&server.url()).await);
    for (language, said) in [
        (pb::Language::Zh, "未能在时限内作出裁决（已用"),
        (pb::Language::En, "no ruling within the deadline ("),
    ] {
        let status = client
            .adjudicate(pb::AdjudicateRequest {
                moves: ["h2e2"].into_iter().collect(),
                language: language.into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
        assert!(status.message().starts_with(said), "{}", status.message());
    }
    let status = client
        .status(pb::AdjudicateRequest {
            moves: ["h2e2", "h9g7", "e2h2", "g7h9", "h2e2"]
                .into_iter()
                .collect(),
            language: pb::Language::Zh.into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
    assert!(has_chinese(status.message()), "{}", status.message());
}

#[test]
fn case_file_errors_say_themselves_in_both_languages() {
    use qili::corpus::parse_line;
    let zh = |line: &str| parse_line(line).unwrap_err().words(Lang::Zh);
    let en = |line: &str| parse_line(line).unwrap_err().to_string();
    let typo =
        r#"{"id":"x","moves":[],"told_to_change":{"rde":true},"expected":{"verdict":"draw"}}"#;
    assert_eq!(
        en(typo),
        "told_to_change: unknown field `rde`, expected `red` or `black` (column 44)"
    );
    assert_eq!(
        zh(typo),
        "told_to_change：未知的键`rde`，应为`red`、`black`之一（第44列）"
    );
    let missing = r#"{"id":"x","moves":[],"expected":{}}"#;
    assert_eq!(zh(missing), "expected：缺少键`verdict`（第34列）");
    let verdict = r#"{"id":"x","moves":[],"expected":{"verdict":"win"}}"#;
    assert!(
        en(verdict).starts_with(r#"expected.verdict: unknown verdict "win" (one of draw, "#),
        "{}",
        en(verdict)
    );
    assert!(
        zh(verdict).starts_with(r#"expected.verdict：未知的裁决"win"（应为draw、"#),
        "{}",
        zh(verdict)
    );
    let label = r#"{"id":"x","moves":[],"expected":{"verdict":"draw","moves":["捉","hop"]}}"#;
    assert!(zh(label).starts_with(r#"expected.moves[1]：未知的着法类型"hop"（"#));
    let ruleset = r#"{"id":"x","ruleset":"foo","moves":[],"expected":{"verdict":"draw"}}"#;
    assert!(zh(ruleset).starts_with(r#"ruleset：未知的规则"foo"；"#));
    // A value refused, then a good line: the next error is serde's own again.
    let wrong_type = r#"{"id":"x","moves":7,"expected":{"verdict":"draw"}}"#;
    assert_eq!(
        zh(wrong_type),
        "moves：值的类型不对（invalid type: integer `7`, expected a sequence）（第19列）"
    );
    assert_eq!(
        zh(r#"{"id":"","moves":[],"expected":{"verdict":"draw"}}"#),
        "id为空"
    );
    assert!(zh("nonsense").starts_with("不是有效的JSON（"));
}

/// `qili cases ARGS` in `dir`: exit code, stdout, stderr.
fn cases_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(QILI)
        .arg("cases")
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run qili");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn qili_cases_reports_and_refuses_in_the_language_asked() {
    let dir = TempDir::new("zh-cases");
    let chase = r#""fen":"4k4/9/6n2/6p2/7P1/9/9/7C1/9/3K5 w","moves":["h2g2","g7h9","g2h2","h9g7","h2g2","g7h9","g2h2","h9g7"]"#;
    let lines = [
        format!(
            r#"{{"id":"chase",{chase},"expected":{{"verdict":"draw","red":"长将","repetitions":2}}}}"#
        ),
        r#"{"id":"bad-fen","fen":"4k4/9/9 w","moves":["h2e2"],"expected":{"verdict":"draw"}}"#
            .to_string(),
        r#"{"id":"fine","moves":["h2e2"],"expected":{"verdict":"no_repetition"}}"#.to_string(),
    ];
    std::fs::write(dir.0.join("c.jsonl"), lines.join("\n")).unwrap();
    let (code, out, err) = cases_in(&dir.0, &["c.jsonl", "--lang", "zh"]);
    assert_eq!((code, err.as_str()), (Some(1), ""));
    assert_eq!(
        out,
        "未通过 chase (c.jsonl:1)：应为 verdict=draw red=长将 repetitions=2；实为 verdict=red_must_change red=长捉 black=闲\n  \
         repetitions：应为2，实为3\n\
         出错 bad-fen (c.jsonl:2)：应为 verdict=draw；无法运行：fen: FEN的棋盘有3行；应为10行，以“/”分隔\n\
         通过1个，未通过1个，无法运行1个\n"
    );
    // English by default, as CI reads it; both: each line in Chinese, then in English.
    let (_, english, _) = cases_in(&dir.0, &["c.jsonl"]);
    assert_eq!(english, cases_in(&dir.0, &["c.jsonl", "--lang", "en"]).1);
    assert!(english.starts_with("FAIL chase (c.jsonl:1): expected verdict=draw red=perpetual_check repetitions=2; actual verdict=red_must_change red=perpetual_chase black=idle\n  repetitions: expected 2, got 3\n"), "{english}");
    assert!(
        english.ends_with("\n1 passed, 1 failed, 1 errors\n"),
        "{english}"
    );
    let (_, both, _) = cases_in(&dir.0, &["c.jsonl", "--lang", "both"]);
    assert!(
        both.ends_with("通过1个，未通过1个，无法运行1个\n1 passed, 1 failed, 1 errors\n"),
        "{both}"
    );
    assert!(both.starts_with("未通过 chase"), "{both}");

    // A file that cannot be read, an empty selection: the error in the language asked.
    std::fs::write(dir.0.join("bad.jsonl"), r#"{"id":"x","rulset":"axf"}"#).unwrap();
    let (code, _, err) = cases_in(&dir.0, &["bad.jsonl", "--lang", "zh"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("qili: bad.jsonl:1：未知的键`rulset`，应为`id`、"),
        "{err}"
    );
    let (_, _, err) = cases_in(&dir.0, &["missing.jsonl", "--lang", "zh"]);
    assert_eq!(err, "qili: missing.jsonl：找不到该文件或目录\n");
    let (_, _, err) = cases_in(&dir.0, &["missing.jsonl", "--lang", "both"]);
    assert_eq!(
        err,
        "qili: missing.jsonl：找不到该文件或目录\nqili: missing.jsonl: No such file or directory (os error 2)\n"
    );
    // Writing the JUnit report: a full disk is said as one (not as a file that cannot be read).
    let (code, _, err) = cases_in(&dir.0, &["c.jsonl", "--junit", "/dev/full", "--lang", "zh"]);
    assert_eq!(code, Some(2));
    assert_eq!(err, "qili: --junit /dev/full：磁盘已满\n");
    let (_, _, err) = cases_in(&dir.0, &["c.jsonl", "--filter", "zz", "--lang", "zh"]);
    assert!(
        err.starts_with("qili: --filter \"zz\"：c.jsonl的3个案例中没有id含有它的"),
        "{err}"
    );
}

#[test]
fn qili_serve_says_its_start_up_errors_in_the_language_asked() {
    let run = |args: &[&str]| {
        let out = Command::new(QILI)
            .arg("serve")
            .args(args)
            .output()
            .expect("run qili serve");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--allow-origin", "club.example", "--lang", "zh"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("qili: --allow-origin：`club.example`不是来源"),
        "{err}"
    );
    let (_, err) = run(&["--allow-origin", "club.example"]);
    assert!(
        err.starts_with("qili: --allow-origin: `club.example` is not an origin"),
        "{err}"
    );
    let (_, err) = run(&["--log-level", "loud", "--lang", "both"]);
    assert!(
        err.starts_with("qili: --log-level：`loud`不是级别"),
        "{err}"
    );
    assert!(
        english_line(&err).starts_with("qili: --log-level: `loud` is not a level"),
        "{err}"
    );
    // A port taken: exit 1; the error line after the log's (which stays English).
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("its address").to_string();
    let (code, err) = run(&["--addr", &addr, "--lang", "zh"]);
    assert_eq!(code, Some(1), "{err}");
    let said = format!("qili: 无法在{addr}上监听：端口已被占用（另一个进程在监听它）");
    assert!(err.lines().any(|l| l == said), "{err}");
    assert!(err.contains("server failed"), "the log is English: {err}");
    let (_, err) = run(&["--addr", &addr]);
    assert!(
        err.lines()
            .any(|l| l.starts_with(&format!("qili: cannot listen on {addr}: "))),
        "{err}"
    );
    assert!(!has_chinese(&err), "{err}");
}

/// `qili ARGS`: the exit code, standard output and standard error.
fn run_qili<A: AsRef<std::ffi::OsStr>>(args: &[A]) -> (Option<i32>, String, String) {
    let out = Command::new(QILI).args(args).output().expect("run qili");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn clap_usage_errors_are_said_in_the_commands_language() {
    // --lang zh: clap's error in Chinese only, laid out as clap lays it out; exit 2 as clap's.
    for (args, said) in [
        (
            vec!["judge", "--frob", "--lang", "zh"],
            "错误：未知的参数“--frob”\n\n用法：qili judge [OPTIONS]\n\n更多信息请用“--help”。\n",
        ),
        (
            vec!["judge", "--lang=zh", "--fen"],
            "错误：“--fen <FEN>”需要一个值，但没有给出\n\n更多信息请用“--help”。\n",
        ),
        (
            vec![
                "judge", "--moves", "h2e2", "--format", "xml", "--lang", "zh",
            ],
            "错误：“--format <FORMAT>”的值“xml”无效\n  [可选的值：text、json、html]\n\n  \
             提示：有相似的值：“html”\n\n更多信息请用“--help”。\n",
        ),
        (
            vec!["watch", "--rule-at", "abc", "--lang", "zh"],
            "错误：“--rule-at <RULE_AT>”的值“abc”无效：不是整数（有非数字的字符）\n\n\
             更多信息请用“--help”。\n",
        ),
        (
            vec!["judge", "--mvoes", "h2e2", "--lang", "zh"],
            "错误：未知的参数“--mvoes”\n\n  提示：有相似的参数：“--moves”\n\n\
             用法：qili judge --moves <MOVES>\n\n更多信息请用“--help”。\n",
        ),
        (
            vec!["judge", "--fen", "x", "--record", "y", "--lang", "zh"],
            "错误：参数“--fen <FEN>”不能与“--record <FILE>”同时使用\n\n\
             用法：qili judge --fen <FEN> --lang <LANG>\n\n更多信息请用“--help”。\n",
        ),
        (
            vec!["scan", "--lang", "zh"],
            "错误：缺少以下必需的参数：\n  --record <FILE|DIR>\n\n\
             用法：qili scan --record <FILE|DIR> --lang <LANG>\n\n更多信息请用“--help”。\n",
        ),
    ] {
        let (code, _, err) = run_qili(&args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(err, said, "{args:?}");
        // --lang en: clap's English alone.
        // The same command line in language `to`.
        let in_lang = |to: &str| -> Vec<String> {
            args.iter()
                .map(|a| match *a {
                    "zh" => to.to_string(),
                    "--lang=zh" => format!("--lang={to}"),
                    a => a.to_string(),
                })
                .collect()
        };
        let english = in_lang("en");
        let (code, _, en) = run_qili(&english);
        assert_eq!(code, Some(2), "{english:?}");
        assert!(en.starts_with("error: "), "{en}");
        assert!(!has_chinese(&en), "{en}");
        // Both languages: the Chinese message and its tips, then clap's English as it is; so
        // too by default (judge, scan and watch default to both).
        let (message, _) = said.split_once("\n\n更多").expect("the help line");
        let message = message.split("\n\n用法").next().unwrap_or(message);
        let both = in_lang("both");
        let (code, _, err) = run_qili(&both);
        assert_eq!(code, Some(2), "{both:?}");
        assert_eq!(err, format!("{message}\n{en}"), "{both:?}");
        let default: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| !["--lang", "zh", "--lang=zh"].contains(a))
            .collect();
        let (_, _, err) = run_qili(&default);
        assert!(err.starts_with(&format!("{message}\nerror: ")), "{err}");
    }
    // The commands whose language is English by default keep clap's English byte for byte.
    for args in [
        vec!["cases", "--frob"],
        vec!["serve", "--max-queue", "x"],
        vec!["perft", "--fen"],
        vec!["frob"],
    ] {
        let (code, _, err) = run_qili(&args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(!has_chinese(&err), "{err}");
    }
    let (_, _, err) = run_qili(&["cases", "--lang", "zh", "--junit"]);
    assert!(err.starts_with("错误：“--junit <FILE>”需要一个值"), "{err}");
    // Help and version are clap's, whatever the language.
    let (code, help, _) = run_qili(&["judge", "--lang", "zh", "--help"]);
    assert_eq!(code, Some(0));
    assert!(help.contains("Usage: qili judge"), "{help}");
    let (code, version, _) = run_qili(&["--version"]);
    assert_eq!(code, Some(0));
    assert!(version.starts_with("qili "), "{version}");
}
