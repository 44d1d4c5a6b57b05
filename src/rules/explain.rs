//! The articles a ruling cites and the arbiter's explanation, in Chinese and English.

use super::article::ArticleId;
use super::kinds::Verdict;
use super::report::{Article, MoveReport, SideReport};
use crate::color::Color;

/// An article cited in a ruling: its id as people cite it, its book and number, its texts.
pub fn article(a: ArticleId) -> Article {
    let text = a.text();
    Article {
        id: a.id(),
        edition: a.edition,
        number: a.number.to_string(),
        zh: text.zh.to_string(),
        en: text.en.to_string(),
    }
}

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
