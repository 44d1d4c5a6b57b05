//! Every sentence a ruling says, in Chinese and English, written in this one place: the reasons
//! of the targets, the moves' notes, the explanation and the articles' texts. The engine records
//! typed values (a target's [`Why`], a move's kind and targets, the verdict, [`ArticleId`]s);
//! these functions turn them into text, one language at a time.
//!
//! ```
//! use qili::rules::words::{self, Lang};
//! use qili::rules::profile::cxa1999;
//! assert_eq!(
//!     words::article_text(cxa1999::A24_1, Lang::En),
//!     "one side's perpetual check loses at once"
//! );
//! ```

use super::article::ArticleId;
use super::kinds::{MoveKind, Protection, Verdict};
use super::options::Texts;
use super::report::{Means, MoveReport, Ruling, SideReport, Target, Why};
use crate::color::Color;
use crate::square::Square;
use std::fmt::Write as _;

pub use crate::lang::Lang;

/// What an article says, in `lang`.
pub fn article_text(a: ArticleId, lang: Lang) -> &'static str {
    let text = a.text();
    lang.pick(text.zh, text.en)
}

/// Why the attacked piece `t` does or does not make the move a chase, in `lang`.
pub fn reason(t: &Target, lang: Lang) -> String {
    // Most reasons fit: no regrowing on the way.
    let mut s = String::with_capacity(96);
    say_reason(&mut s, t, lang);
    s
}

/// Appends [`reason`] to `s`: the texts are written into one string, without the intermediate
/// ones of `format!` and `join` (the service says them on every full reply).
fn say_reason(s: &mut String, t: &Target, lang: Lang) {
    let piece = t.piece;
    let fixed = match (&t.why, lang) {
        (Why::Attacked, Lang::En) => {
            s.push_str(piece.color.name());
            s.push(' ');
            s.push_str(piece.role.name());
            s.push_str(" on ");
            push_square(s, t.square);
            s.push_str(": ");
            s.push_str(t.protection.name());
            return;
        }
        (Why::Attacked, Lang::Zh) => {
            s.push_str(piece.color.chinese());
            s.push(piece.chinese());
            s.push('：');
            s.push_str(t.protection.chinese());
            return;
        }
        (Why::WinsNothing, _) => lang.pick("吃子不能得子", "capturing it wins nothing"),
        (Why::LineLoses, _) => lang.pick(
            "吃子后对方还击，得不偿失",
            "the exchange on its point wins, but the line that follows does not",
        ),
        (Why::NotNew(_), Lang::Zh) => "走子前已可得此子（从捉到捉）",
        // The profile's own article: an AXF or 2011 ruling citing the 1999 item misleads.
        (Why::NotNew(a), Lang::En) => {
            s.push_str("it could already be won before this move (从捉到捉, ");
            s.push_str(&a.id());
            s.push(')');
            return;
        }
        (Why::KeyPoint { asserted: true, .. }, _) => lang.pick(
            "占据防守要点，附带捉士相按闲处理",
            "the mover holds a defensive key point; attacks on advisors and elephants are idle",
        ),
        (Why::KeyPoint { asserted: false, .. }, _) => lang.pick(
            "单一攻子占据守和要点（局面显见），附带捉士相按闲处理",
            "the mover's only attacking piece holds the key drawing point (plain from the position): attacks on advisors and elephants are idle",
        ),
        (Why::PinnedRook { cannon, .. }, Lang::En) => {
            s.push_str("the rook is pinned by the cannon on ");
            push_square(s, *cannon);
            s.push_str(
                " and moves along this line: its own attacks are not a chase (AXF)",
            );
            return;
        }
        (Why::PinnedRook { cannon, .. }, Lang::Zh) => {
            s.push_str("车被");
            push_square(s, *cannon);
            s.push_str("炮牵制，沿牵制线走动，其本身的攻击不算捉（亚洲规则）");
            return;
        }
        (Why::KingAnsweringCheck(_), _) => lang.pick(
            "帅（将）应将时产生的捉，按闲处理",
            "made by the king answering a check: idle (2011 26.1.2)",
        ),
        (Why::CheckLeftIt(_), _) => lang.pick(
            "应将时另有应法同样可得此子，捉由对方将军造成，不算新捉",
            "another answer to the same check would leave it just as winnable: the check made the threat, not this answer (2011 26.1.2)",
        ),
        (Why::Protected(_), _) => lang.pick(
            "有根子，不是捉的对象（仅车被马、炮攻击时不论有根无根）",
            "it has a real root: not a chase target (only a rook attacked by a horse or a cannon is, protected or not)",
        ),
        (Why::TakesBack(_), _) => lang.pick(
            "同兵种可以互吃，属兑子，不算捉",
            "of the same kind as its attacker and able to take it back: an exchange offer, not a chase",
        ),
        (Why::FreeAttacker(_), _) => lang.pick(
            "仅受帅（将）或兵（卒）攻击，允许长捉",
            "attacked only by the king or pawns, which may chase freely",
        ),
        (Why::Chase(_), Lang::En) => return chase_en(s, t),
        (Why::Chase(_), Lang::Zh) => return chase_zh(s, t),
    };
    s.push_str(fixed);
}

/// Appends the ICCS name of `sq` (`h2`, as its `Display` writes it) without the formatting
/// machinery: a reason may name several.
fn push_square(s: &mut String, sq: Square) {
    s.push(char::from(b'a' + sq.file()));
    s.push(char::from(b'0' + sq.rank()));
}

/// Appends the items of `items` to `s`, `sep` between them.
fn join_into<'a>(s: &mut String, items: impl IntoIterator<Item = &'a str>, sep: &str) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(item);
    }
}

fn chase_en(s: &mut String, t: &Target) {
    let how = match (t.means, t.protection) {
        (Means::Checks, _) => "by a series of checks",
        (_, Protection::Unprotected) => "it is unprotected",
        (_, Protection::FalseRoot) => "its protector cannot really recapture (false root)",
        (_, Protection::InsufficientRoot) => {
            "the complete exchange wins material (insufficient root)"
        }
        _ => "the line that follows wins material",
    };
    s.push_str("new threat to win the ");
    s.push_str(t.piece.color.name());
    s.push(' ');
    s.push_str(t.piece.role.name());
    s.push_str(" on ");
    push_square(s, t.square);
    s.push_str(": ");
    s.push_str(how);
    // The balance is shown when the line comes out ahead; a chase of an unprotected piece may
    // stand although the answer costs more (2011 26.5, 1999 item 4).
    let line = t.line.iter().map(|m| m.iccs.as_str());
    match t.line.len() {
        0 | 1 => {}
        _ if t.gain > 0 => {
            s.push_str(" (");
            join_into(s, line, " ");
            let _ = write!(s, ", nets {})", t.gain);
        }
        _ => {
            s.push_str(" (line ");
            join_into(s, line, " ");
            s.push(')');
        }
    }
    if t.joint {
        s.push_str("; a joint chase by ");
        for (i, sq) in t.participants.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            push_square(s, *sq);
        }
    }
}

fn chase_zh(s: &mut String, t: &Target) {
    s.push('捉');
    s.push_str(t.protection.chinese());
    s.push(t.piece.chinese());
    if t.line.len() > 1 {
        s.push('（');
        join_into(s, t.line.iter().map(|m| m.chinese.as_str()), "，");
        if t.gain > 0 {
            let _ = write!(s, "，净得{}", t.gain);
        }
        s.push('）');
    }
    if t.joint {
        // The chasing pieces' points as the chasing side numbers its files.
        s.push_str("，联合捉子（");
        for (i, &sq) in t.participants.iter().enumerate() {
            if i > 0 {
                s.push('、');
            }
            s.push_str(&crate::lang::point_zh(!t.piece.color, sq));
        }
        s.push('）');
    }
}

/// An arbiter's note on the move `m`: its side, its notation and what it is, in `lang`.
pub fn note(m: &MoveReport, lang: Lang) -> String {
    let reasons: Vec<String> = m.targets.iter().map(|t| reason(t, lang)).collect();
    note_quoting(m, lang, &reasons)
}

/// The note on `m` in `lang`, quoting `reasons`, its targets' reasons in that language.
fn note_quoting(m: &MoveReport, lang: Lang, reasons: &[String]) -> String {
    let mut s = String::with_capacity(64);
    say_note(&mut s, m, lang, reasons.iter().map(String::as_str));
    s
}

/// Appends the note on `m` in `lang`, quoting `reasons`, its targets' reasons in that language.
fn say_note<'a>(
    s: &mut String,
    m: &MoveReport,
    lang: Lang,
    reasons: impl Iterator<Item = &'a str>,
) {
    match lang {
        Lang::Zh => {
            s.push_str(m.color.chinese());
            s.push_str(&m.chinese);
            s.push('（');
        }
        Lang::En => {
            s.push_str(m.color.name());
            s.push(' ');
            s.push_str(&m.iccs);
            s.push_str(" (");
            s.push_str(&m.chinese);
            s.push_str("): ");
        }
    }
    let counted = m
        .targets
        .iter()
        .zip(reasons)
        .filter(|(t, _)| t.counted)
        .map(|(_, r)| r);
    match (m.kind, lang) {
        (MoveKind::Check, _) => s.push_str(lang.pick("将", "check")),
        (MoveKind::MateThreat, _) if m.mate_line.is_empty() => s.push_str(lang.pick(
            "杀（下一着可连续照将将死对方）",
            "mate threat (could mate next move by a series of checks)",
        )),
        (MoveKind::MateThreat, Lang::Zh) => {
            s.push_str("杀：");
            join_into(s, m.mate_line.iter().map(|x| x.chinese.as_str()), "，");
        }
        (MoveKind::MateThreat, Lang::En) => {
            s.push_str("mate threat: ");
            join_into(s, m.mate_line.iter().map(|x| x.iccs.as_str()), " ");
        }
        (MoveKind::Chase, Lang::Zh) => join_into(s, counted, "、"),
        (MoveKind::Chase, Lang::En) => {
            s.push_str("chase: ");
            join_into(s, counted, "; ");
        }
        (MoveKind::Idle, _) if m.idle_kinds.is_empty() => s.push_str(lang.pick("闲", "idle")),
        (MoveKind::Idle, Lang::Zh) => {
            s.push_str("闲（");
            for k in &m.idle_kinds {
                s.push_str(k.chinese());
            }
            s.push('）');
        }
        (MoveKind::Idle, Lang::En) => {
            s.push_str("idle (");
            join_into(s, m.idle_kinds.iter().map(|k| k.name()), ", ");
            s.push(')');
        }
    }
    if lang == Lang::Zh {
        s.push('）');
    }
}

/// The verdict, in `lang`.
pub fn verdict(v: Verdict, lang: Lang) -> &'static str {
    let (zh, en) = match v {
        Verdict::Draw => ("双方不变作和", "draw: neither side need change"),
        Verdict::RedLoses => ("红方判负", "red loses"),
        Verdict::BlackLoses => ("黑方判负", "black loses"),
        Verdict::RedMustChange => (
            "红方必须变着，不变判负",
            "red must change, and loses if it does not",
        ),
        Verdict::BlackMustChange => (
            "黑方必须变着，不变判负",
            "black must change, and loses if it does not",
        ),
        Verdict::NoRepetition => ("局面未重复，无需裁决", "no repetition: nothing to rule"),
    };
    lang.pick(zh, en)
}

/// The whole explanation of `r`, in `lang`: where the cycle starts, each side's moves (their
/// notes) and pattern, the verdict and its articles, and whether the searches were cut short.
pub fn explanation(r: &Ruling, lang: Lang) -> String {
    sentences(r, lang).explanation
}

/// Every sentence of a ruling in one language, each said once: the notes quote the reasons and
/// the explanation quotes the notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentences {
    /// Each move's sentences, in the ruling's order.
    pub moves: Vec<MoveSentences>,
    /// The explanation ([`explanation`]).
    pub explanation: String,
}

/// The sentences of one move in one language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSentences {
    /// Its targets' reasons ([`reason`]), in the move's order.
    pub reasons: Vec<String>,
    /// Its note ([`note`]).
    pub note: String,
}

/// Every sentence of a ruling in one language, written end to end into strings kept from one
/// ruling to the next ([`Said::say`]): the same texts as [`sentences`] without a string each
/// (the service writes them into its replies).
#[derive(Clone, Debug, Default)]
pub struct Said {
    /// The reasons, end to end.
    reasons: String,
    /// Where each reason ends in `reasons`, moves in order and each move's targets in order.
    reason_ends: Vec<usize>,
    /// Index in `reason_ends` of each move's first reason.
    first_reason: Vec<usize>,
    /// The notes, end to end.
    notes: String,
    /// Where each move's note ends in `notes`.
    note_ends: Vec<usize>,
    /// The explanation.
    explanation: String,
}

impl Said {
    /// Writes the sentences of `r` in `lang`, in place of the ones held.
    pub fn say(&mut self, r: &Ruling, lang: Lang) {
        self.clear();
        for m in &r.moves {
            let first = self.reason_ends.len();
            self.first_reason.push(first);
            for t in &m.targets {
                say_reason(&mut self.reasons, t, lang);
                self.reason_ends.push(self.reasons.len());
            }
            let (text, ends) = (&self.reasons, &self.reason_ends);
            let quoted = (first..ends.len()).map(|i| piece(text, ends, i));
            say_note(&mut self.notes, m, lang, quoted);
            self.note_ends.push(self.notes.len());
        }
        let notes: Vec<&str> = (0..r.moves.len())
            .map(|i| piece(&self.notes, &self.note_ends, i))
            .collect();
        say_explanation(&mut self.explanation, r, lang, &notes);
    }

    /// Holds no sentence (the texts of a language not wanted), keeping the room.
    pub fn clear(&mut self) {
        self.reasons.clear();
        self.reason_ends.clear();
        self.first_reason.clear();
        self.notes.clear();
        self.note_ends.clear();
        self.explanation.clear();
    }

    /// Gives back room beyond `bytes` of text, so that one long ruling does not keep it.
    pub fn shrink_to(&mut self, bytes: usize) {
        for text in [&mut self.reasons, &mut self.notes, &mut self.explanation] {
            if text.capacity() > bytes {
                text.shrink_to(bytes);
            }
        }
    }

    /// The reason of target `target` of move `mv` ("" when not said).
    pub fn reason(&self, mv: usize, target: usize) -> &str {
        self.first_reason.get(mv).map_or("", |first| {
            piece(&self.reasons, &self.reason_ends, first + target)
        })
    }

    /// The note of move `mv` ("" when not said).
    pub fn note(&self, mv: usize) -> &str {
        piece(&self.notes, &self.note_ends, mv)
    }

    /// The explanation ("" when not said).
    pub fn explanation(&self) -> &str {
        &self.explanation
    }
}

/// The `i`-th of the texts written end to end into `text`, each ending where `ends` says.
fn piece<'a>(text: &'a str, ends: &[usize], i: usize) -> &'a str {
    let start = if i == 0 {
        0
    } else {
        ends.get(i - 1).copied().unwrap_or(0)
    };
    ends.get(i)
        .and_then(|&end| text.get(start..end))
        .unwrap_or("")
}

/// The sentences of `r` in `lang`.
pub fn sentences(r: &Ruling, lang: Lang) -> Sentences {
    let moves: Vec<MoveSentences> = r.moves.iter().map(|m| move_sentences(m, lang)).collect();
    let notes: Vec<&str> = moves.iter().map(|m| m.note.as_str()).collect();
    Sentences {
        explanation: explanation_quoting(r, lang, &notes),
        moves,
    }
}

/// The sentences of the move `m` in `lang`: its targets' reasons and its note quoting them.
pub fn move_sentences(m: &MoveReport, lang: Lang) -> MoveSentences {
    let reasons: Vec<String> = m.targets.iter().map(|t| reason(t, lang)).collect();
    MoveSentences {
        note: note_quoting(m, lang, &reasons),
        reasons,
    }
}

/// The explanation of `r` in `lang`, quoting `notes`, the notes of its moves in that language.
fn explanation_quoting(r: &Ruling, lang: Lang, notes: &[&str]) -> String {
    let quoted: usize = notes.iter().map(|n| n.len() + 3).sum();
    let mut s = String::with_capacity(quoted + 256);
    say_explanation(&mut s, r, lang, notes);
    s
}

/// Appends the explanation of `r` in `lang`, quoting `notes`, the notes of its moves.
fn say_explanation(s: &mut String, r: &Ruling, lang: Lang, notes: &[&str]) {
    if r.verdict == Verdict::NoRepetition {
        match lang {
            Lang::Zh => s.push_str(verdict(r.verdict, lang)),
            Lang::En => s.push_str(&capitalise(verdict(r.verdict, lang))),
        }
        s.push_str(lang.pick("。", "."));
        return;
    }
    cycle(s, r, lang);
    if r.repetitions < 3 {
        // 1999 24; 2011 23.1: the books rule at the third occurrence.
        s.push_str(lang.pick(
            "终局局面只出现了两次，规则在第三次出现时才裁决，以下为预判。",
            "The final position has occurred only twice; the rule books rule at the third occurrence, so this is a forecast. ",
        ));
    }
    for side in [&r.red, &r.black] {
        side_text(s, r, side, lang, notes);
    }
    // Chinese cites the books as they write themselves (`棋例细则第6条`, not `item 6`).
    s.push_str(lang.pick("裁决：", "Ruling: "));
    s.push_str(verdict(r.verdict, lang));
    s.push_str(lang.pick("（依据", " (articles "));
    for (i, a) in r.articles.iter().enumerate() {
        if i > 0 {
            s.push_str(lang.pick("、", ", "));
        }
        // Only the language's form of the citation is built.
        match lang {
            Lang::Zh => s.push_str(&a.cite_zh()),
            Lang::En => s.push_str(&a.id()),
        }
    }
    s.push_str(lang.pick("）。", ")."));
    if r.search.budget_exhausted {
        let n = r.search.max_nodes;
        let _ = match lang {
            Lang::Zh => write!(
                s,
                "本裁决的搜索达到了上限（{n}个局面），其后的搜索被截断，捉与杀可能少判。"
            ),
            Lang::En => write!(
                s,
                " The ruling's searches reached their bound ({n} positions) and the ones after it were cut short: chases and mate threats may be understated."
            ),
        };
    }
}

/// Appends where the cycle starts and how long it is, by the score sheet's rounds.
fn cycle(s: &mut String, r: &Ruling, lang: Lang) {
    let (length, reps) = (r.cycle_length, r.repetitions);
    let _ = match (r.moves.first(), lang) {
        (Some(m), Lang::Zh) => write!(
            s,
            "循环自第{}回合{}方{}起，每{}着一循环，终局局面共出现{}次。",
            m.round,
            m.color.chinese(),
            m.chinese,
            length,
            reps
        ),
        (Some(m), Lang::En) => write!(
            s,
            "The cycle starts with round {}, {} {} ({}), and is {} plies long; the final position occurs {} times. ",
            m.round,
            m.color.name(),
            m.chinese,
            m.iccs,
            length,
            reps
        ),
        (None, Lang::Zh) => write!(
            s,
            "循环自第{}着起，每{}着一循环，终局局面共出现{}次。",
            r.cycle_start + 1,
            length,
            reps
        ),
        (None, Lang::En) => write!(
            s,
            "The cycle starts at move {} and is {} plies long; the final position occurs {} times. ",
            r.cycle_start + 1,
            length,
            reps
        ),
    };
}

/// Appends one side's moves (their notes, `notes` being every move's) and pattern.
fn side_text(s: &mut String, r: &Ruling, side: &SideReport, lang: Lang, notes: &[&str]) {
    let c: Color = side.color;
    let notes = r
        .moves
        .iter()
        .zip(notes)
        .filter(|(m, _)| m.color == c)
        .map(|(_, n)| *n);
    match lang {
        Lang::Zh => {
            s.push_str(c.chinese());
            s.push_str("方：");
            join_into(s, notes, "，");
            s.push_str("，为");
            s.push_str(side.pattern.chinese());
            s.push_str(if side.forbidden {
                "（禁止着法）。"
            } else {
                "（允许着法）。"
            });
        }
        Lang::En => {
            s.push_str(&capitalise(c.name()));
            s.push_str(": ");
            join_into(s, notes, "; ");
            s.push_str("; pattern ");
            s.push_str(side.pattern.english());
            s.push_str(if side.forbidden {
                " (forbidden). "
            } else {
                " (allowed). "
            });
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Writes the target's reason in the languages `texts` asks for.
pub fn write_reason(t: &mut Target, texts: Texts) {
    if texts.zh {
        t.reason_zh = reason(t, Lang::Zh);
    }
    if texts.en {
        t.reason = reason(t, Lang::En);
    }
}

/// Writes the texts `texts` asks for into `r`, each in the languages asked (the others are left
/// empty): every target's reason, each move's note, the explanation. Every target's article
/// (its [`Why`]'s) is written whatever the texts.
pub fn write(r: &mut Ruling, texts: Texts) {
    for m in &mut r.moves {
        for t in &mut m.targets {
            t.article = t.why.article();
        }
    }
    for (lang, wanted) in [(Lang::Zh, texts.zh), (Lang::En, texts.en)] {
        if !wanted {
            continue;
        }
        let said = sentences(r, lang);
        for (m, s) in r.moves.iter_mut().zip(said.moves) {
            put(m, s, lang, texts);
        }
        if texts.explanation {
            *lang.pick(&mut r.explanation_zh, &mut r.explanation_en) = said.explanation;
        }
    }
}

/// Writes the texts `texts` asks for into the move `m`: its targets' reasons and its note, in
/// the languages asked; its targets' articles whatever the texts.
pub fn write_move(m: &mut MoveReport, texts: Texts) {
    for t in &mut m.targets {
        t.article = t.why.article();
    }
    for (lang, wanted) in [(Lang::Zh, texts.zh), (Lang::En, texts.en)] {
        if wanted {
            let said = move_sentences(m, lang);
            put(m, said, lang, texts);
        }
    }
}

/// Puts the move's sentences `said` in `lang` into it: the reasons, and the note if `texts` asks.
fn put(m: &mut MoveReport, said: MoveSentences, lang: Lang, texts: Texts) {
    for (t, reason) in m.targets.iter_mut().zip(said.reasons) {
        *lang.pick(&mut t.reason_zh, &mut t.reason) = reason;
    }
    if texts.notes {
        *lang.pick(&mut m.note_zh, &mut m.note_en) = said.note;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::position::Position;
    use crate::rules::{Options, rule};

    /// Red's rook follows black's unprotected cannon between the a- and b-files (README).
    fn chase(texts: Texts) -> Ruling {
        let start: Position = "4k4/9/1c7/9/9/9/R8/9/9/3K5 w".parse().expect("FEN");
        let moves: Vec<Move> = "a3b3 b7a7 b3a3 a7b7 a3b3 b7a7 b3a3 a7b7"
            .split(' ')
            .map(|m| {
                Move::new(
                    m[..2].parse().expect("square"),
                    m[2..].parse().expect("square"),
                )
            })
            .collect();
        rule(
            &start,
            &moves,
            &Options {
                texts,
                ..Options::default()
            },
        )
    }

    #[test]
    fn only_the_texts_asked_for_are_written() {
        let all = chase(Texts::ALL);
        assert!(all.explanation_zh.contains("长捉") && all.explanation_en.contains("chase"));
        for notes in [false, true] {
            for explanation in [false, true] {
                for (zh, en) in [(false, false), (true, false), (false, true), (true, true)] {
                    let texts = Texts {
                        notes,
                        explanation,
                        zh,
                        en,
                    };
                    let r = chase(texts);
                    let keep = |on: bool, s: &str| if on { s.to_string() } else { String::new() };
                    assert_eq!(
                        r.explanation_zh,
                        keep(explanation && zh, &all.explanation_zh)
                    );
                    assert_eq!(
                        r.explanation_en,
                        keep(explanation && en, &all.explanation_en)
                    );
                    for (m, a) in r.moves.iter().zip(&all.moves) {
                        assert_eq!(m.note_zh, keep(notes && zh, &a.note_zh), "{texts:?}");
                        assert_eq!(m.note_en, keep(notes && en, &a.note_en), "{texts:?}");
                        // Reasons in the languages asked; articles always.
                        for (t, at) in m.targets.iter().zip(&a.targets) {
                            assert_eq!(t.reason_zh, keep(zh, &at.reason_zh), "{texts:?}");
                            assert_eq!(t.reason, keep(en, &at.reason), "{texts:?}");
                            assert_eq!(t.article, at.article);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_explanation_quotes_each_note() {
        let r = chase(Texts::ALL);
        for lang in Lang::BOTH {
            let text = explanation(&r, lang);
            assert_eq!(text, *lang.pick(&r.explanation_zh, &r.explanation_en));
            for m in &r.moves {
                assert!(text.contains(&note(m, lang)));
            }
        }
        let chased = &r.moves[0].targets[0];
        assert_eq!(
            chased.why,
            Why::Chase(crate::rules::profile::cxa1999::A28_3)
        );
        assert_eq!(
            reason(chased, Lang::En),
            "new threat to win the black cannon on b7: it is unprotected"
        );
        assert_eq!(reason(chased, Lang::Zh), "捉无根炮");
    }
}
