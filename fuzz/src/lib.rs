//! Shared pieces of the fuzz targets: the fixed positions move texts are read against, the
//! decoding of a ruling request from bytes, and the checks made on every answer.

use qili::notation::{BlackDigits, ChineseStyle, NotationErrorKind, Script, write_chinese};
use qili::request::Request;
use qili::rules::{BySide, Options, Ruleset, Ruling};
use qili::{Notation, Position, parse_move, write_move};
use std::sync::OnceLock;

/// Positions the notation targets read move texts against: the opening, tandem pieces (two rooks
/// or cannons on a file, three and five soldiers on a file, soldiers on two files), crossed
/// soldiers, and middlegames from the corpus. Each is also used with colours flipped.
pub const FENS: &[&str] = &[
    qili::START_FEN,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
    "3k5/9/9/9/9/4R4/9/4R4/9/4K4 w",
    "3k5/9/9/2P6/2P3P2/2P3P2/9/9/9/4K4 w",
    "4k4/2P6/2P6/2P6/2P6/2P6/9/9/9/3K5 w",
    "2bak4/4a4/4b4/9/9/2B6/4N4/4N1C2/4A1C2/3AK1B2 w",
    "4k4/4a4/9/9/9/9/3R3n1/r5N2/4K4/3A1A3 b",
    "2nn1k3/9/9/3P5/9/9/9/9/2RR5/3K5 w",
    "5k3/9/9/3nn4/9/9/9/9/4K4/3RR4 w",
    "3k5/9/2r6/2P5R/9/9/9/2NN5/9/5K3 b",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
    "4ka3/4a4/4b4/4P1P2/2P1P4/9/9/9/4A4/3AK4 w",
    "3k5/4P4/3P1P3/9/9/9/9/9/9/4K4 w",
    "3k5/9/9/9/9/9/9/9/4A4/3AK4 b",
];

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FENS.iter()
            .flat_map(|fen| {
                let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                [p, p.flip_colors()]
            })
            .collect()
    })
}

/// The fixed position chosen by `selector`.
pub fn position(selector: u8) -> Position {
    let all = positions();
    all[usize::from(selector) % all.len()]
}

/// Every Chinese writing style.
pub fn chinese_styles() -> impl Iterator<Item = ChineseStyle> {
    [Script::Simplified, Script::Traditional]
        .into_iter()
        .flat_map(|script| {
            [
                BlackDigits::FullWidth,
                BlackDigits::Ascii,
                BlackDigits::Chinese,
            ]
            .into_iter()
            .map(move |black_digits| ChineseStyle {
                script,
                black_digits,
            })
        })
}

/// Checks that the legal move `m` of `pos` is written in every notation (and every Chinese style)
/// as a text that reads back as `m`, both in that notation and auto-detected.
pub fn assert_round_trip(pos: &Position, m: qili::Move) {
    assert!(pos.is_legal(m), "{m} is not legal in {}", pos.fen());
    for n in Notation::ALL {
        let text = write_move(pos, m, n);
        assert_eq!(
            parse_move(pos, &text, Some(n)),
            Ok(m),
            "{m} written in {n} as {text:?} in {}",
            pos.fen()
        );
        assert_eq!(
            parse_move(pos, &text, None),
            Ok(m),
            "{m} written in {n} as {text:?}, auto-detected, in {}",
            pos.fen()
        );
    }
    for style in chinese_styles() {
        let text = write_chinese(pos, m, style);
        assert_eq!(
            parse_move(pos, &text, Some(Notation::Chinese)),
            Ok(m),
            "{m} written in {style:?} as {text:?} in {}",
            pos.fen()
        );
    }
}

/// The body of the three notation targets: the first byte picks a position, the rest is the move
/// text. A text that reads must name a legal move that round-trips; an error must be coherent.
pub fn check_notation(notation: Notation, data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let pos = position(selector);
    for n in [Some(notation), None] {
        match parse_move(&pos, text, n) {
            Ok(m) => assert_round_trip(&pos, m),
            Err(e) => {
                let _ = e.to_string();
                if let NotationErrorKind::WrongSide { mv, .. } = e.kind {
                    let other = pos
                        .with_turn_passed()
                        .expect("WrongSide needs a passed turn");
                    assert!(
                        other.is_legal(mv),
                        "WrongSide {mv} not legal for the other side"
                    );
                }
            }
        }
    }
}

/// Most moves a request may have (the service's default limit).
pub const MAX_MOVES: usize = qili::service::DEFAULT_MAX_MOVES;

/// A ruling request from bytes: byte 0 holds the options (bits 0–1 the ruleset, 2–3 told to
/// change, 4–5 defensive key point, 6–7 the notation: auto, ICCS, WXF, Chinese); the rest, read as
/// UTF-8 (lossily), is the FEN on its first line and the moves, separated by blanks, after it.
pub fn request_from_bytes(data: &[u8]) -> Option<Request> {
    let (&flags, rest) = data.split_first()?;
    let text = String::from_utf8_lossy(rest);
    let (fen, moves) = text.split_once('\n').unwrap_or((&text, ""));
    let bit = |n: u8| flags & (1 << n) != 0;
    Some(Request {
        fen: fen.to_string(),
        moves: moves
            .split_whitespace()
            .take(MAX_MOVES)
            .map(str::to_string)
            .collect(),
        notation: match flags >> 6 {
            0 => None,
            1 => Some(Notation::Iccs),
            2 => Some(Notation::Wxf),
            _ => Some(Notation::Chinese),
        },
        options: Options {
            ruleset: Ruleset::ALL[usize::from(flags & 3) % Ruleset::ALL.len()],
            told_to_change: BySide {
                red: bit(2),
                black: bit(3),
            },
            defensive_key_point: BySide {
                red: bit(4),
                black: bit(5),
            },
            ..Options::default()
        },
    })
}

/// Rules on `request` and checks the answer: an error names its field, a ruling stays within the
/// request's moves and the search bounds of its options.
pub fn check_request(request: &Request) -> Option<Ruling> {
    match qili::request::adjudicate(request) {
        Err(e) => {
            let _ = e.to_string();
            if let Some(ply) = e.ply() {
                assert!(ply < request.moves.len(), "error at ply {ply}: {e}");
            }
            None
        }
        Ok(r) => {
            check_ruling(request, &r);
            Some(r)
        }
    }
}

fn check_ruling(request: &Request, r: &Ruling) {
    let n = request.moves.len();
    assert!(
        r.cycle_start + r.cycle_length <= n,
        "cycle {}+{} beyond {n} moves",
        r.cycle_start,
        r.cycle_length
    );
    let limits = request.options.limits;
    for m in &r.moves {
        assert!(m.ply < n, "report of ply {} of {n}", m.ply);
        // Two searches at most per move (after it, and before it for comparison).
        assert!(
            m.mate_search.nodes <= 2 * limits.mate_nodes,
            "ply {}: {} nodes searched, limit {}",
            m.ply,
            m.mate_search.nodes,
            limits.mate_nodes
        );
        assert!(m.mate_search.max_plies <= limits.mate_plies);
    }
    let _ = (&r.explanation_zh, &r.explanation_en);
}

/// The elements the ruling sheet writes (its HTML and the SVG of its diagrams).
const ELEMENTS: &[&str] = &[
    "article",
    "b",
    "body",
    "br",
    "circle",
    "dd",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "g",
    "h1",
    "h2",
    "head",
    "header",
    "html",
    "li",
    "line",
    "marker",
    "meta",
    "p",
    "polygon",
    "polyline",
    "rect",
    "script",
    "section",
    "small",
    "span",
    "style",
    "svg",
    "table",
    "tbody",
    "td",
    "text",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
];

/// A short piece of `s` for a failure's message.
fn near(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Every `&` in `s` starts an entity (`&lt;`, `&#39;`).
fn assert_entities(s: &str) {
    for (i, _) in s.match_indices('&') {
        let tail = &s[i + 1..];
        let end = tail.find(';').unwrap_or(tail.len()).min(12);
        let entity = &tail[..end];
        let named = !entity.is_empty() && entity.bytes().all(|b| b.is_ascii_alphabetic());
        let numbered = entity
            .strip_prefix('#')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        assert!(
            (named || numbered) && tail[end..].starts_with(';'),
            "a bare & at {:?}",
            near(&s[i..])
        );
    }
}

/// Asserts that `html` is only the markup the sheet writes, whatever text it carries: every tag is
/// one of the sheet's elements, every attribute is plainly named, never an event handler, its value
/// quoted with no `<`, `>` or `"` in it and no `javascript:` URL; text has no raw `<` or `>` and
/// every `&` starts an entity; `<style>` and `<script>` hold exactly the sheet's own. Markup from a
/// record that escaped escaping breaks one of these.
pub fn assert_clean_html(html: &str) {
    let mut rest = html.strip_prefix("<!doctype html>").unwrap_or(html);
    loop {
        let lt = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..lt];
        assert!(!text.contains('>'), "a raw > in text: {:?}", near(text));
        assert_entities(text);
        if lt == rest.len() {
            return;
        }
        rest = &rest[lt + 1..];
        if let Some(after) = rest.strip_prefix('/') {
            let end = after.find('>').expect("an end tag closes");
            let name = &after[..end];
            assert!(ELEMENTS.contains(&name), "end tag </{}>", near(name));
            rest = &after[end + 1..];
            continue;
        }
        let name_end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        assert!(ELEMENTS.contains(&name), "tag <{}", near(rest));
        rest = &rest[name_end..];
        loop {
            rest = rest.trim_start_matches([' ', '\n']);
            if let Some(after) = rest.strip_prefix("/>").or_else(|| rest.strip_prefix('>')) {
                rest = after;
                break;
            }
            let attr_end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | ':' | '_')))
                .unwrap_or(rest.len());
            let attr = &rest[..attr_end];
            assert!(!attr.is_empty(), "in <{name}>: {:?}", near(rest));
            assert!(
                !attr.to_ascii_lowercase().starts_with("on"),
                "an event handler in <{name}>: {attr}"
            );
            rest = &rest[attr_end..];
            if let Some(after) = rest.strip_prefix("=\"") {
                let close = after.find('"').expect("an attribute value closes");
                let value = &after[..close];
                assert!(
                    !value.contains(['<', '>']),
                    "<{name} {attr}=\"{}\"",
                    near(value)
                );
                assert!(
                    !value
                        .trim_start()
                        .to_ascii_lowercase()
                        .starts_with("javascript:"),
                    "<{name} {attr}=\"{}\"",
                    near(value)
                );
                assert_entities(value);
                rest = &after[close + 1..];
            }
        }
        if name == "style" || name == "script" {
            let close = format!("</{name}>");
            let end = rest.find(&close).expect("a style or script closes");
            let own = if name == "style" {
                qili::sheet::STYLE
            } else {
                qili::sheet::SCRIPT
            };
            assert!(&rest[..end] == own, "<{name}> is not the sheet's own");
            rest = &rest[end + close.len()..];
        }
    }
}
