//! The articles a ruling cites and the arbiter's explanation, in Chinese and English.

use super::kinds::Verdict;
use super::report::{Article, MoveReport, SideReport};
use super::ruleset::Ruleset;
use crate::color::Color;

/// The text of an article by id, in Chinese and English.
pub fn article(id: &str) -> Article {
    let (zh, en) = match id {
        "4.1.7" => (
            "犯禁而不变着者判负",
            "a side that breaks a prohibition and will not change loses",
        ),
        "24.1" => (
            "一方长将立即判负",
            "one side's perpetual check loses at once",
        ),
        "24.2" => (
            "双方均为允许着法或禁止着法，不变作和",
            "both sides allowed or both forbidden: draw",
        ),
        "24.3" => (
            "一方禁止、一方允许，犯禁方必须立即变着，若再重复一次循环即判负",
            "one forbidden, one allowed: the forbidden side must change at once, and loses if the cycle comes round once more",
        ),
        "25.2" => (
            "长将、长杀、长捉、一将一杀、一将一捉、一杀一捉为禁止着法；闲着、数将一闲等为允许着法",
            "perpetual check, mate threat, chase and their mixtures are forbidden; idle moves and attacks with an idle move are allowed",
        ),
        "26.1" => (
            "不允许单方面长将",
            "unilateral perpetual check is never allowed",
        ),
        "26.2" => ("双方均为允许着法，不变作和", "both sides allowed: draw"),
        "26.3" => (
            "双方均为禁止着法（不包括一方长将），不变作和",
            "both sides forbidden (one-sided perpetual check aside): draw",
        ),
        "26.4" => (
            "一方禁止、一方允许，应由前者变着，不变判负",
            "forbidden against allowed: the forbidden side changes or loses",
        ),
        "27.1" => (
            "帅（将）本身叫吃按闲处理",
            "the king attacking by itself is idle",
        ),
        "27.2" => (
            "兵（卒）本身捉子按闲处理；相互长打时按捉处理",
            "a pawn attacking by itself is idle; in mutual perpetual attack it counts as a chase",
        ),
        "27.3" => (
            "占据防守要点，附带捉士相按闲处理",
            "holding a defensive key point: incidental attacks on advisors and elephants are idle",
        ),
        "27.4" => (
            "走子兼具多种作用，从重称呼和裁处",
            "a move with several effects is judged by the heaviest",
        ),
        "28.1" => (
            "走子直接攻击对方帅（将），称为将",
            "a move that attacks the enemy king is a check",
        ),
        "28.2" => (
            "走子企图在下一着照将或连续照将将死对方，称为杀",
            "a move that threatens mate next move by a check or a series of checks is a mate threat",
        ),
        "28.3" => (
            "走子后下一着能吃掉对方无根子（含连续照将、连续交换），称为捉",
            "a move after which the mover could next move win an unprotected piece (also by a series of checks or exchanges) is a chase",
        ),
        "29.1" => (
            "捉子形式：直接吃子、连续照将吃子、完整交换得子",
            "a chase wins material directly, after a series of checks, or after a complete exchange",
        ),
        "2011 24.3" => (
            "走子后，所走之子或因此走动而显露之子下一着能吃子或得子，称为捉",
            "a move after which the moved piece, or one it uncovered, could next move capture or win material is a chase",
        ),
        "2011 24.13" => (
            "长将、长杀、长捉、一将一杀、一将一捉、一杀一捉等单方面循环攻击为禁止着法",
            "one side's cyclic attacks (perpetual check, mate threat, chase and their mixtures) are forbidden",
        ),
        "2011 26.1.2" => (
            "应将时帅（将）本身捉子或造成杀势按闲处理",
            "a chase or mate threat made by the king itself while answering a check is idle",
        ),
        "2011 26.1" => (
            "帅（将）、兵（卒）本身长捉按闲处理",
            "the king and pawns may chase by themselves: idle",
        ),
        "2011 26.2" => (
            "占据守和要点，附带捉士相按闲处理",
            "holding the key drawing point: incidental attacks on advisors and elephants are idle",
        ),
        "2011 26.5" => (
            "作根之子或被牵制之子捉子，交换后须不失子方为捉",
            "a chase by a protector or a pinned piece counts only if the exchange that follows is even or better",
        ),
        "2011 26.7" => (
            "兵（卒）走动借他子闪击或双击得子，按闲处理",
            "a pawn move that wins only through another piece's discovered or forking attack is idle",
        ),
        "2011 26.9" => (
            "同兵种邀兑，接受后不致被将死或失子者，按闲处理",
            "a same-type exchange offer that the opponent can accept without loss is idle",
        ),
        "AXF 7" => (
            "被捉之子须为无根子，或被马炮攻击的车；同兵种互吃属兑子",
            "a chase counts against an unprotected piece, or a rook attacked by a horse or cannon; same-type pieces that can take each other offer an exchange",
        ),
        "item 6" => ("从捉到捉按闲处理", "from chase to chase is idle"),
        "item 7" => (
            "吃子后立即被将死者，按闲处理",
            "a capture that gets the mover mated at once is no chase",
        ),
        "item 8" => (
            "双方均为禁止着法（不包括单方面长将），不变作和",
            "both forbidden (except one-sided perpetual check): draw",
        ),
        "item 11" => (
            "发生互打时，兵（卒）叫吃子均按捉处理",
            "when both sides attack, a pawn's attacks count as chases",
        ),
        "2011 23.5.1" => (
            "单方长将立即判负",
            "unilateral perpetual check loses at once",
        ),
        "2011 25.2" => ("双方均为允许着法，作和", "both sides allowed: draw"),
        "2011 25.3" => (
            "一方禁止、一方允许，禁止方必须变着",
            "forbidden against allowed: the forbidden side must change",
        ),
        "2011 26.8" => (
            "双方均为禁止着法：主要禁例对次要禁例，主要方变着；其余作和",
            "both forbidden: a primary forbidden pattern against a secondary one must change; otherwise draw",
        ),
        "AXF 1" => (
            "犯规方不变着判负",
            "a side that must change and does not loses",
        ),
        "AXF 2" => (
            "双方同为长将或同为长捉，作和",
            "both sides checking, or both chasing: draw",
        ),
        "AXF 3" => (
            "长将须变着；长将对长捉，长将方变着",
            "perpetual check must change; check against chase: the checker changes",
        ),
        "AXF 4" => (
            "长捉同一子须变着",
            "perpetual chase of the same piece must change",
        ),
        "AXF 5" => (
            "其余着法（一将一捉、长杀、一将一闲等）均允许，不变作和",
            "everything else (one check one chase, mate threats, check and idle …) is allowed: draw",
        ),
        "AXF 8" => (
            "被炮牵制的车沿牵制线走动，其本身的攻击不算捉",
            "a rook pinned along a line by a cannon is not chasing when it moves along that line: its own attacks are not chases",
        ),
        "AXF 6" => (
            "一子轮捉两子或多子，允许；二子或多子轮捉一子（帅、兵除外），禁止",
            "one piece chasing several pieces in turn is allowed; several pieces taking turns on one piece are not (unless a king or pawn)",
        ),
        _ => ("", ""),
    };
    let (edition, number) = edition_and_number(id);
    Article {
        id: id.to_string(),
        edition,
        number: number.to_string(),
        zh: zh.to_string(),
        en: en.to_string(),
    }
}

/// The rule book an article id belongs to and its number inside it: `2011 26.5` is the 2011
/// edition's 26.5, `AXF 8` the Asian rules' 8, anything else (`26.4`, `item 7`) the 1999 edition's.
pub fn edition_and_number(id: &str) -> (Ruleset, &str) {
    if let Some(n) = id.strip_prefix("2011 ") {
        (Ruleset::Cxa2011, n)
    } else if let Some(n) = id.strip_prefix("AXF ") {
        (Ruleset::Axf, n)
    } else {
        (Ruleset::Cxa1999, id)
    }
}

/// The static id of a known article, for citing it.
pub fn known_article(id: &str) -> Option<&'static str> {
    KNOWN.iter().copied().find(|k| *k == id)
}

const KNOWN: [&str; 19] = [
    "28.3",
    "29.1",
    "27.1",
    "27.2",
    "27.3",
    "item 6",
    "item 7",
    "2011 24.3",
    "2011 26.1",
    "2011 26.1.2",
    "2011 26.2",
    "2011 26.5",
    "2011 26.7",
    "2011 26.9",
    "AXF 7",
    "AXF 8",
    "28.1",
    "28.2",
    "4.1.7",
];

/// The verdict in Chinese.
pub fn verdict_zh(v: Verdict) -> &'static str {
    match v {
        Verdict::Draw => "双方不变作和",
        Verdict::RedLoses => "红方判负",
        Verdict::BlackLoses => "黑方判负",
        Verdict::RedMustChange => "红方必须变着，不变判负",
        Verdict::BlackMustChange => "黑方必须变着，不变判负",
        Verdict::NoRepetition => "局面未重复，无需裁决",
    }
}

/// The verdict in English.
pub fn verdict_en(v: Verdict) -> &'static str {
    match v {
        Verdict::Draw => "draw: neither side need change",
        Verdict::RedLoses => "red loses",
        Verdict::BlackLoses => "black loses",
        Verdict::RedMustChange => "red must change, and loses if it does not",
        Verdict::BlackMustChange => "black must change, and loses if it does not",
        Verdict::NoRepetition => "no repetition: nothing to rule",
    }
}

/// The whole explanation in Chinese and English.
pub fn explain(
    verdict: Verdict,
    cycle: Option<(usize, usize, u32)>,
    moves: &[MoveReport],
    sides: [&SideReport; 2],
    articles: &[Article],
) -> (String, String) {
    let Some((start, length, reps)) = cycle else {
        return (
            format!("{}。", verdict_zh(verdict)),
            format!("{}.", capitalise(verdict_en(verdict))),
        );
    };
    // Rounds as on the score sheet: the first move of the cycle names where it starts.
    let (mut zh, mut en) = match moves.first() {
        Some(m) => (
            format!(
                "循环自第{}回合{}方{}起，每{}着一循环，终局局面共出现{}次。",
                m.round,
                m.color.chinese(),
                m.chinese,
                length,
                reps
            ),
            format!(
                "The cycle starts with round {}, {} {} ({}), and is {} plies long; the final position occurs {} times. ",
                m.round,
                m.color.name(),
                m.chinese,
                m.iccs,
                length,
                reps
            ),
        ),
        None => (
            format!(
                "循环自第{}着起，每{}着一循环，终局局面共出现{}次。",
                start + 1,
                length,
                reps
            ),
            format!(
                "The cycle starts at move {} and is {} plies long; the final position occurs {} times. ",
                start + 1,
                length,
                reps
            ),
        ),
    };
    if reps < 3 {
        // 1999 24; 2011 23.1: the books rule at the third occurrence.
        zh.push_str("终局局面只出现了两次，规则在第三次出现时才裁决，以下为预判。");
        en.push_str("The final position has occurred only twice; the rule books rule at the third occurrence, so this is a forecast. ");
    }
    for side in sides {
        let c: Color = side.color;
        let mine: Vec<&MoveReport> = moves.iter().filter(|m| m.color == c).collect();
        let notes_zh: Vec<&str> = mine.iter().map(|m| m.note_zh.as_str()).collect();
        let notes_en: Vec<&str> = mine.iter().map(|m| m.note_en.as_str()).collect();
        let allowed_zh = if side.forbidden {
            "禁止着法"
        } else {
            "允许着法"
        };
        let allowed_en = if side.forbidden {
            "forbidden"
        } else {
            "allowed"
        };
        zh.push_str(&format!(
            "{}方：{}，为{}（{}）。",
            c.chinese(),
            notes_zh.join("，"),
            side.pattern.chinese(),
            allowed_zh
        ));
        en.push_str(&format!(
            "{}: {}; pattern {} ({}). ",
            capitalise(c.name()),
            notes_en.join("; "),
            side.pattern.english(),
            allowed_en
        ));
    }
    let ids: Vec<&str> = articles.iter().map(|a| a.id.as_str()).collect();
    zh.push_str(&format!(
        "裁决：{}（依据{}）。",
        verdict_zh(verdict),
        ids.join("、")
    ));
    en.push_str(&format!(
        "Ruling: {} (articles {}).",
        verdict_en(verdict),
        ids.join(", ")
    ));
    (zh, en)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
