//! The words a ruling sheet prints itself, in Chinese, in English, or both: headings, labels, the
//! names of verdicts, patterns, kinds and protections, moves by round, the cycle summary.

use crate::color::Color;
use crate::piece::Piece;
use crate::record::dispute::Title;
use crate::referee::ForbiddenMove;
use crate::rules::{ArticleId, IdleKind, MoveKind, Pattern, Protection, Ruleset, Verdict};
use crate::square::Square;

/// The language(s) of a sheet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    /// Chinese only.
    Zh,
    /// English only.
    En,
    /// Chinese and English.
    #[default]
    Both,
}

impl Lang {
    /// Whether Chinese is printed.
    pub fn zh(self) -> bool {
        self != Lang::En
    }

    /// Whether English is printed.
    pub fn en(self) -> bool {
        self != Lang::Zh
    }

    /// A short label: `zh`, `en`, or both side by side.
    pub fn label(self, zh: &str, en: &str) -> String {
        match self {
            Lang::Zh => zh.to_string(),
            Lang::En => en.to_string(),
            Lang::Both => format!("{zh} {en}"),
        }
    }

    /// A sentence in each language printed, Chinese first.
    pub fn lines(self, zh: String, en: String) -> Vec<String> {
        match self {
            Lang::Zh => vec![zh],
            Lang::En => vec![en],
            Lang::Both => vec![zh, en],
        }
    }

    /// Each language printed, Chinese first, as the library's texts name them.
    pub fn each(self) -> impl Iterator<Item = crate::rules::words::Lang> {
        crate::rules::words::Lang::BOTH
            .into_iter()
            .filter(move |l| match l {
                crate::rules::words::Lang::Zh => self.zh(),
                crate::rules::words::Lang::En => self.en(),
            })
    }

    /// The language of a text said once: Chinese for a Chinese sheet, else English.
    pub fn once(self) -> crate::lang::Lang {
        match self {
            Lang::Zh => crate::lang::Lang::Zh,
            Lang::En | Lang::Both => crate::lang::Lang::En,
        }
    }

    /// The BCP 47 tag of the language (`zh-Hans`, `en`; `zh-Hans` for both, which reads Chinese first).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            _ => "zh-Hans",
        }
    }
}

/// The colon between a label and its value: `：` in Chinese, `: ` otherwise.
pub fn colon(lang: Lang) -> &'static str {
    if lang == Lang::Zh { "：" } else { ": " }
}

/// A piece's file in its own side's numbering, as Chinese notation counts it: red's 一–九 from
/// red's right (file i is 一), black's １–９ from black's right (file a is １).
pub fn own_file_zh(color: Color, square: Square) -> char {
    crate::lang::file_zh(color, square.file())
}

/// A piece on its point: `黑７路马` in Chinese (its file as Chinese notation numbers it), `black
/// horse g7` in English, `黑７路马(g7)` for both.
pub fn piece_at(lang: Lang, piece: Piece, square: Square) -> String {
    let zh = || {
        format!(
            "{}{}路{}",
            piece.color.chinese(),
            own_file_zh(piece.color, square),
            piece.chinese()
        )
    };
    match lang {
        Lang::Zh => zh(),
        Lang::En => format!("{} {} {square}", piece.color.name(), piece.role.name()),
        Lang::Both => format!("{}({square})", zh()),
    }
}

/// An article as each language cites it: `棋例细则第6条` in Chinese, `item 6` in English (the id
/// people cite, `2011 26.5`), both when they differ: `棋例细则第6条 (item 6)`.
pub fn article(lang: Lang, a: ArticleId) -> String {
    let (zh, id) = (a.cite_zh(), a.id());
    match lang {
        Lang::Zh => zh,
        Lang::En => id,
        Lang::Both if zh == id => zh,
        Lang::Both => format!("{zh} ({id})"),
    }
}

/// 红方 / red.
pub fn side(lang: Lang, c: Color) -> String {
    match c {
        Color::Red => lang.label("红方", "red"),
        Color::Black => lang.label("黑方", "black"),
    }
}

/// 红 / red, short, for table cells.
pub fn side_short(lang: Lang, c: Color) -> String {
    lang.label(c.chinese(), c.name())
}

/// What the verdict means.
pub fn verdict(lang: Lang, v: Verdict) -> String {
    let (zh, en) = match v {
        Verdict::Draw => ("不变作和", "draw if neither side changes"),
        Verdict::RedLoses => ("红方判负", "red loses"),
        Verdict::BlackLoses => ("黑方判负", "black loses"),
        Verdict::RedMustChange => ("红方必须变着，不变判负", "red must change, or loses"),
        Verdict::BlackMustChange => ("黑方必须变着，不变判负", "black must change, or loses"),
        Verdict::NoRepetition => ("局面未重复，无需裁决", "no repetition: nothing to rule"),
    };
    lang.label(zh, en)
}

/// 长捉 / perpetual chase.
pub fn pattern(lang: Lang, p: Pattern) -> String {
    lang.label(p.chinese(), p.english())
}

/// 捉 / chase.
pub fn kind(lang: Lang, k: MoveKind) -> String {
    let en = match k {
        MoveKind::Idle => "idle",
        MoveKind::Chase => "chase",
        MoveKind::MateThreat => "mate threat",
        MoveKind::Check => "check",
    };
    lang.label(k.chinese(), en)
}

/// 兑 / exchange offer.
pub fn idle_kind(lang: Lang, k: IdleKind) -> String {
    let en = match k {
        IdleKind::Exchange => "exchange offer",
        IdleKind::Sacrifice => "sacrifice",
        IdleKind::Block => "block",
        IdleKind::Follow => "follow",
    };
    lang.label(k.chinese(), en)
}

/// 无根 / unprotected.
pub fn protection(lang: Lang, p: Protection) -> String {
    let en = match p {
        Protection::Protected => "protected",
        Protection::Unprotected => "unprotected",
        Protection::FalseRoot => "false protection",
        Protection::InsufficientRoot => "insufficient protection",
        Protection::HiddenRoot => "hidden protection",
    };
    lang.label(p.chinese(), en)
}

/// 禁止 / forbidden, or 允许 / allowed.
pub fn allowed(lang: Lang, forbidden: bool) -> String {
    if forbidden {
        lang.label("禁止", "forbidden")
    } else {
        lang.label("允许", "allowed")
    }
}

/// The profile's rule book in words, in Chinese and in English (the page's profile menu says the
/// same).
pub fn ruleset_words(r: Ruleset) -> (&'static str, &'static str) {
    match r {
        Ruleset::Cxa1999 => (
            "中国象棋协会1999年规则",
            "Chinese Xiangqi Association rules, 1999",
        ),
        Ruleset::Cxa2011 => (
            "中国象棋协会2011年规则",
            "Chinese Xiangqi Association rules, 2011",
        ),
        Ruleset::Axf => ("亚洲象棋联合会规则", "Asian Xiangqi Federation rules"),
    }
}

/// The profile with its rule book.
pub fn ruleset(lang: Lang, r: Ruleset) -> String {
    let (zh, en) = ruleset_words(r);
    match lang {
        Lang::Zh => format!("{}（{zh}）", r.name()),
        _ => format!("{} ({})", r.name(), lang.label(zh, en)),
    }
}

/// A move as the score sheet names it: `第32回合 红 兵八平九` / `round 32, red 兵八平九 (h3i3)`.
pub fn move_at(lang: Lang, round: u32, c: Color, chinese: &str, iccs: &str) -> String {
    let zh = format!("第{round}回合 {} {chinese}", c.chinese());
    let en = format!("round {round}, {} {chinese} ({iccs})", c.name());
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
        Lang::Both => format!("{zh} ({iccs})"),
    }
}

/// A game's title with its length: `…，共66着` / `…, 66 plies`.
pub fn game_title(lang: Lang, title: &Title, plies: usize) -> String {
    let title = crate::lang::Words::words(title, lang.once());
    let length = lang.label(&format!("共{plies}着"), &format!("{plies} plies"));
    match (title.is_empty(), lang) {
        (true, _) => length,
        (false, Lang::Zh) => format!("{title}，{length}"),
        (false, _) => format!("{title}, {length}"),
    }
}

/// The round alone: `第32回合` / `round 32`.
pub fn round(lang: Lang, round: u32) -> String {
    lang.label(&format!("第{round}回合"), &format!("round {round}"))
}

/// The cycle in a sentence per language: where it starts, how long it is, how often the final
/// position occurs.
pub fn cycle_summary(
    lang: Lang,
    first: (u32, Color, &str, &str),
    plies: usize,
    repetitions: u32,
) -> Vec<String> {
    let (round, c, chinese, iccs) = first;
    lang.lines(
        format!(
            "循环自第{round}回合{}方{chinese}起，每{plies}着一循环；终局局面共出现{repetitions}次。",
            c.chinese()
        ),
        format!(
            "The cycle starts with round {round}, {} {chinese} ({iccs}), and is {plies} plies long; the final position occurs {repetitions} times.",
            c.name()
        ),
    )
}

/// The plain warning for a ruling at two occurrences.
pub fn two_occurrences(lang: Lang) -> Vec<String> {
    lang.lines(
        "注意：终局局面只出现了两次。规则在同一局面第三次出现时才裁决，以上为预判。".to_string(),
        "Note: the final position has occurred only twice. The rule books rule when it occurs a third time; this is a forecast.".to_string(),
    )
}

/// Headings and labels of the sheet, by key.
pub fn heading(lang: Lang, key: Heading) -> String {
    let (zh, en) = match key {
        Heading::Title => ("棋例裁决", "Repetition ruling"),
        Heading::Analysis => ("局面分析", "Position analysis"),
        Heading::Record => ("对局", "Game"),
        Heading::Ruleset => ("规则", "Rules"),
        Heading::RuledAt => ("裁决时刻", "Ruled after"),
        Heading::Verdict => ("裁决", "Verdict"),
        Heading::Cycle => ("循环", "Cycle"),
        Heading::Moves => ("循环着法", "Moves of the cycle"),
        Heading::Sides => ("双方", "Sides"),
        Heading::Articles => ("依据条文", "Articles applied"),
        Heading::Explanation => ("说明", "Explanation"),
        Heading::Round => ("回合", "round"),
        Heading::Side => ("方", "side"),
        Heading::Move => ("着法", "move"),
        Heading::Kind => ("性质", "kind"),
        Heading::Targets => ("目标", "targets"),
        Heading::Pattern => ("着法性质", "pattern"),
        Heading::Status => ("判定", "status"),
        Heading::Told => ("已被要求变着", "told to change"),
        Heading::MateLine => ("杀着", "mating line"),
        Heading::Start => ("循环开始局面", "position at the start of the cycle"),
        Heading::Final => ("终局局面", "final position"),
        Heading::Previous => ("上一着", "previous"),
        Heading::Next => ("下一着", "next"),
        Heading::Piece => ("棋子", "piece"),
        Heading::Square => ("位置", "square"),
        Heading::Attackers => ("攻击者", "attackers"),
        Heading::Defenders => ("保护者", "defenders"),
        Heading::Protection => ("根", "protection"),
        Heading::Gain => ("得子", "gain"),
        Heading::Attacked => ("受攻击的棋子", "Attacked pieces"),
        Heading::MoveTargets => ("该着的目标", "Targets of the move"),
        Heading::Graph => ("攻防关系", "Attacks and defences"),
        Heading::Attacks => ("攻击", "attacks"),
        Heading::Defends => ("保护", "defends"),
        Heading::ToMove => ("走棋方", "to move"),
        Heading::Position => ("局面", "position"),
        Heading::None => ("无", "none"),
        Heading::Chased => ("捉", "chased"),
        Heading::Legend => ("（红）为红子 [黑]为黑子", "(red) pieces, [black] pieces"),
        Heading::Event => ("赛事", "Event"),
        Heading::MatchRound => ("轮次", "Round"),
        Heading::Board => ("台次", "Board"),
        Heading::RedPlayer => ("红方", "Red"),
        Heading::BlackPlayer => ("黑方", "Black"),
        Heading::RulingTime => ("裁决时间", "Time of ruling"),
        Heading::Arbiter => ("裁判员", "Arbiter"),
        Heading::Signature => ("签名", "Signature"),
    };
    lang.label(zh, en)
}

/// The keys of [`heading`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Heading {
    Title,
    Analysis,
    Record,
    Ruleset,
    RuledAt,
    Verdict,
    Cycle,
    Moves,
    Sides,
    Articles,
    Explanation,
    Round,
    Side,
    Move,
    Kind,
    Targets,
    Pattern,
    Status,
    Told,
    MateLine,
    Start,
    Final,
    Previous,
    Next,
    Piece,
    Square,
    Attackers,
    Defenders,
    Protection,
    Gain,
    Attacked,
    MoveTargets,
    Graph,
    Attacks,
    Defends,
    ToMove,
    Position,
    None,
    Chased,
    Legend,
    Event,
    MatchRound,
    Board,
    RedPlayer,
    BlackPlayer,
    RulingTime,
    Arbiter,
    Signature,
}

/// `红方禁着：车九平八（a3b3，判负）` / `red may not play: 车九平八 (a3b3, loses)`: the moves the
/// side to move may no longer play; `None` when nothing is forbidden.
pub fn forbidden_moves(lang: Lang, to_move: Color, list: &[ForbiddenMove]) -> Option<String> {
    if list.is_empty() {
        return None;
    }
    let moves: Vec<String> = list
        .iter()
        .map(|f| {
            let (zh, en) = if f.loses {
                ("，判负", ", loses")
            } else {
                ("", "")
            };
            match lang {
                Lang::Zh => format!("{}（{}{zh}）", f.chinese, f.iccs),
                _ => format!("{} ({}{en})", f.chinese, f.iccs),
            }
        })
        .collect();
    Some(format!(
        "{}{}{}",
        lang.label(
            &format!("{}禁着", side(Lang::Zh, to_move)),
            &format!("{} may not play", side(Lang::En, to_move)),
        ),
        colon(lang),
        moves.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Role;

    #[test]
    fn pieces_and_articles_in_chinese_as_the_books_write_them() {
        let horse = Piece::new(Color::Black, Role::Horse);
        let g7 = "g7".parse::<Square>().expect("square");
        assert_eq!(piece_at(Lang::Zh, horse, g7), "黑７路马");
        assert_eq!(piece_at(Lang::En, horse, g7), "black horse g7");
        assert_eq!(piece_at(Lang::Both, horse, g7), "黑７路马(g7)");
        let cannon = Piece::new(Color::Red, Role::Cannon);
        let h2 = "h2".parse::<Square>().expect("square");
        assert_eq!(piece_at(Lang::Zh, cannon, h2), "红二路炮");
        let item6 = ArticleId::new(Ruleset::Cxa1999, "item 6");
        assert_eq!(article(Lang::Zh, item6), "棋例细则第6条");
        assert_eq!(article(Lang::Both, item6), "棋例细则第6条 (item 6)");
        let a25 = ArticleId::new(Ruleset::Cxa1999, "25.2");
        assert_eq!(article(Lang::Both, a25), "25.2");
        assert_eq!(article(Lang::En, item6), "item 6");
        let a2011 = ArticleId::new(Ruleset::Cxa2011, "26.5");
        assert_eq!(article(Lang::Zh, a2011), "2011年规则26.5");
        assert_eq!(article(Lang::Both, a2011), "2011年规则26.5 (2011 26.5)");
        let axf = ArticleId::new(Ruleset::Axf, "27");
        assert_eq!(article(Lang::Zh, axf), "亚洲规则第27条");
        let appendix = ArticleId::new(Ruleset::Axf, "appendix");
        assert_eq!(article(Lang::Zh, appendix), "亚洲规则附例");
    }
}
