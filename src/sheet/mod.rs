//! The arbiter's ruling sheet: a library ruling ([`Ruling`]) or analysis ([`Analysis`]) laid out
//! for a person in Chinese, English or both, moves numbered by round, with a board diagram of every
//! cycle move. Its sentences (reasons, explanation, articles) come from [`rules::words`] in the
//! languages shown, so a ruling made with [`Texts::NONE`](crate::rules::Texts::NONE) prints whole.
//!
//! `html` writes the printable HTML (`qili judge --format html`, the consult page); the pieces
//! here (move texts, target texts, the diagram of a move) serve the CLI's text tables too.

mod html;
mod paperwork;
pub mod words;

pub use html::{
    SCRIPT, STYLE, analysis_document, analysis_fragment, ruling_document, ruling_fragment,
};
pub use paperwork::Paperwork;
pub use words::{Heading, Lang, heading};

use crate::attacks::attackers;
use crate::diagram::{ArrowKind, Diagram, MarkKind};
use crate::notation::{Notation, write_move};
use crate::piece::Piece;
use crate::position::Position;
use crate::record::dispute::{Dispute, iccs_move, round_of};
use crate::rules::{
    self, Analysis, MoveKind, MoveReport, PieceNode, Relation, Ruleset, Ruling, Target,
};
use crate::square::Square;

/// Which of a ruling sheet's cycle diagrams are drawn: the steps from `from` (step 0 is the
/// cycle's start, step i its i-th move), at most `most` of them; the table of moves lists every
/// move whatever the window. A window past the end is moved back to draw the last `most` steps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Diagrams {
    /// The first step drawn.
    pub from: usize,
    /// The most steps drawn.
    pub most: usize,
}

impl Diagrams {
    /// Every diagram (`qili judge --format html`).
    pub const ALL: Diagrams = Diagrams {
        from: 0,
        most: usize::MAX,
    };

    /// The steps drawn of a sheet with `steps` steps: `first..end`.
    fn window(self, steps: usize) -> std::ops::Range<usize> {
        let most = self.most.max(1);
        let from = self.from.min(steps.saturating_sub(most));
        from..steps.min(from.saturating_add(most))
    }
}

/// A short word for a diagram label: Chinese unless the sheet is English only.
fn short(lang: Lang, zh: &str, en: &str) -> String {
    if lang == Lang::En {
        en.to_string()
    } else {
        zh.to_string()
    }
}

/// The move's kind with its idle kinds: `捉`, `闲+兑` (`chase`, `idle + exchange offer`).
pub fn kind_text(lang: Lang, m: &MoveReport) -> String {
    let mut out = words::kind(lang, m.kind);
    for k in &m.idle_kinds {
        out.push_str(" + ");
        out.push_str(&words::idle_kind(lang, *k));
    }
    out
}

/// An attacked piece: `黑７路马 无根 +5 捉` / `black horse g7 unprotected +5 chased`.
pub fn target_text(lang: Lang, t: &Target) -> String {
    let mut out = words::piece_at(lang, t.piece, t.square);
    out.push(' ');
    out.push_str(&words::protection(lang, t.protection));
    if t.gain != 0 {
        out.push_str(&format!(" {:+}", t.gain));
    }
    if t.counted {
        out.push(' ');
        out.push_str(&heading(lang, Heading::Chased));
    }
    out
}

/// Why the attacked piece counts or not, in each language shown (the library's
/// [`rules::words::reason`]).
pub fn reasons(lang: Lang, t: &Target) -> Vec<String> {
    lang.each().map(|l| rules::words::reason(t, l)).collect()
}

/// The mating line of a mate threat in Chinese notation (`炮二进七 将5进1 …`), if it has one.
pub fn mate_line_text(m: &MoveReport) -> Option<String> {
    (!m.mate_line.is_empty()).then(|| {
        m.mate_line
            .iter()
            .map(|l| l.chinese.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// The move as the score sheet names it (`第32回合 红 兵八平九`).
pub fn move_text(lang: Lang, m: &MoveReport) -> String {
    words::move_at(lang, m.round, m.color, &m.chinese, &m.iccs)
}

/// The cycle in a sentence per language (where it starts, how long, how often the final position
/// occurs); nothing without a cycle.
pub fn cycle_lines(r: &Ruling, lang: Lang) -> Vec<String> {
    match r.moves.first() {
        Some(first) if r.cycle_length > 0 => words::cycle_summary(
            lang,
            (first.round, first.color, &first.chinese, &first.iccs),
            r.cycle_length,
            r.repetitions,
        ),
        _ => Vec::new(),
    }
}

/// The explanation of a ruling, a paragraph per language shown, each with its language's tag
/// (`zh-Hans`, `en`); none without a text.
pub fn explanation(r: &Ruling, lang: Lang) -> Vec<(rules::words::Lang, String)> {
    lang.each()
        .map(|l| (l, rules::words::explanation(r, l)))
        .collect()
}

/// The facts that head a sheet, label and value: the record and game, the profile, and the move
/// ruled after (by round, with its ply).
pub fn facts(ruleset: Ruleset, d: &Dispute, lang: Lang) -> Vec<(Heading, String)> {
    let mut out = Vec::new();
    if let Some(s) = &d.source {
        let game = lang.label(
            &format!("第{}局（共{}局）", s.game, s.games),
            &format!("game {} of {}", s.game, s.games),
        );
        out.push((
            Heading::Record,
            format!(
                "{} · {game} — {}",
                s.name,
                words::game_title(lang, &s.title, s.plies)
            ),
        ));
    }
    out.push((Heading::Ruleset, words::ruleset(lang, ruleset)));
    if let Some(p) = d.moves.len().checked_sub(1) {
        let mut before = d.start;
        for m in &d.moves[..p] {
            before.play_unchecked(*m);
        }
        let (round, color) = round_of(&d.start, p);
        let chinese = write_move(&before, d.moves[p], Notation::Chinese);
        let mut at = words::move_at(lang, round, color, &chinese, &d.moves[p].to_string());
        // The ply is for programs (`--at ply:N`, the JSON); a Chinese sheet keeps to rounds.
        if lang.en() {
            at.push_str(&format!(" · ply {p}"));
        }
        if let Some(s) = d.source.as_ref().filter(|s| s.plies > d.moves.len()) {
            at.push_str(&lang.label(
                &format!("（全局共{}着）", s.plies),
                &format!(" (the game goes on to {} plies)", s.plies),
            ));
        }
        out.push((Heading::RuledAt, at));
    }
    out
}

/// The diagram of a judged move: the position after it, the move, arrows for its check, its chases
/// and the first move of its mating line, and each attacked piece marked with its protection.
pub fn move_diagram(after: &Position, m: &MoveReport, lang: Lang) -> Diagram {
    let mut d =
        Diagram::new(after).title(&format!("{} — {}", move_text(lang, m), kind_text(lang, m)));
    if let Some(mv) = iccs_move(&m.iccs) {
        d = d.last_move(mv);
    }
    if m.kind == MoveKind::Check {
        let checked = after.turn();
        let king = after.king(checked);
        for from in attackers(after.board(), king, !checked) {
            d = d.arrow(from, king, ArrowKind::Check);
        }
        d = d.mark(king, MarkKind::Checked, &short(lang, "将", "check"));
    }
    d = target_marks(d, &m.targets, lang, true);
    if m.kind == MoveKind::MateThreat
        && let Some(first) = m.mate_line.first().and_then(|l| iccs_move(&l.iccs))
    {
        d = d.arrow(first.from, first.to, ArrowKind::MateThreat);
    }
    d
}

/// Marks every target with its protection; with `arrows`, draws each counted one's chase arrows.
fn target_marks(mut d: Diagram, targets: &[Target], lang: Lang, arrows: bool) -> Diagram {
    for t in targets {
        let label = words::protection(if lang == Lang::En { lang } else { Lang::Zh }, t.protection);
        let kind = if t.counted {
            MarkKind::Chased
        } else {
            MarkKind::Attacked
        };
        if arrows && t.counted {
            for from in &t.attackers {
                d = d.arrow(*from, t.square, ArrowKind::Chase);
            }
        }
        d = d.mark(t.square, kind, &label);
    }
    d
}

/// The diagram of an analysis: the position analysed, the move if one was given (with its check
/// and chase arrows), and every attacked piece marked with its protection and its attacks drawn.
pub fn analysis_diagram(a: &Analysis, lang: Lang) -> Diagram {
    let mut d = match &a.mv {
        Some(m) => move_diagram(&a.position, m, lang),
        None => Diagram::new(&a.position).title(&heading(lang, Heading::Analysis)),
    };
    for t in &a.attacked {
        for from in &t.attackers {
            d = d.arrow(*from, t.square, ArrowKind::Attack);
        }
    }
    target_marks(d, &a.attacked, lang, false)
}

/// One row of a table of attacked pieces, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetRow {
    /// The piece on its square (`黑７路马`, `black horse g7`).
    pub piece: String,
    /// The attackers' squares.
    pub attackers: String,
    /// The defenders, each with its square; hidden (暗) and unable (假) ones flagged.
    pub defenders: String,
    /// The protection (有根/无根/假根/少根/暗根).
    pub protection: String,
    /// What capturing gains, and whether it counts as a chase.
    pub gain: String,
}

/// The piece of `pieces` on `square`.
fn piece_on(pieces: &[PieceNode], square: Square) -> Option<Piece> {
    pieces.iter().find(|n| n.square == square).map(|n| n.piece)
}

/// A square named by the piece of `pieces` on it, as Chinese notation does; the square alone if
/// none stands there.
fn named_square(lang: Lang, pieces: &[PieceNode], square: Square) -> String {
    piece_on(pieces, square)
        .map_or_else(|| square.to_string(), |p| words::piece_at(lang, p, square))
}

/// The row of an attacked piece; a Chinese sheet names the attackers by the pieces of `pieces` that
/// stand on their squares, as Chinese notation does.
pub fn target_row(t: &Target, lang: Lang, pieces: &[PieceNode]) -> TargetRow {
    let defenders: Vec<String> = t
        .defenders
        .iter()
        .map(|d| {
            let mut s = words::piece_at(lang, d.piece, d.square);
            if d.hidden {
                s.push_str(&format!(" ({})", short(lang, "暗", "hidden")));
            }
            if !d.real {
                s.push_str(&format!(" ({})", short(lang, "假", "cannot recapture")));
            }
            s
        })
        .collect();
    let none = heading(lang, Heading::None);
    let mut gain = format!("{:+}", t.gain);
    if t.counted {
        gain.push(' ');
        gain.push_str(&heading(lang, Heading::Chased));
    }
    TargetRow {
        piece: words::piece_at(lang, t.piece, t.square),
        attackers: if t.attackers.is_empty() {
            none.clone()
        } else if lang == Lang::Zh {
            t.attackers
                .iter()
                .map(|sq| named_square(lang, pieces, *sq))
                .collect::<Vec<_>>()
                .join("、")
        } else {
            t.attackers
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        },
        defenders: if defenders.is_empty() {
            none
        } else {
            defenders.join(", ")
        },
        protection: words::protection(lang, t.protection),
        gain,
    }
}

/// One piece of the attack/defence graph and its edges, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphRow {
    /// The piece's side.
    pub color: crate::color::Color,
    /// The piece (`车`, or `rook` in English).
    pub piece: String,
    /// Its square.
    pub square: String,
    /// The enemy pieces it attacks (squares; hidden ones flagged).
    pub attacks: String,
    /// Its own pieces it defends (squares; hidden ones flagged).
    pub defends: String,
}

/// The graph of an analysis, a row per piece that attacks or defends something.
pub fn graph_rows(a: &Analysis, lang: Lang) -> Vec<GraphRow> {
    let hidden = short(lang, "暗", "hidden");
    let pieces = &a.graph.pieces;
    let list = |from: Square, relation: Relation| -> String {
        a.graph
            .edges
            .iter()
            .filter(|e| e.from == from && e.relation == relation)
            .map(|e| {
                // A Chinese sheet names the pieces as Chinese notation does; the others by square.
                let to = if lang == Lang::Zh {
                    named_square(lang, pieces, e.to)
                } else {
                    e.to.to_string()
                };
                if e.hidden {
                    format!("{to} ({hidden})")
                } else {
                    to
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    pieces
        .iter()
        .filter_map(|n| {
            let p = n.piece;
            let attacks = list(n.square, Relation::Attacks);
            let defends = list(n.square, Relation::Defends);
            if attacks.is_empty() && defends.is_empty() {
                return None;
            }
            Some(GraphRow {
                color: p.color,
                piece: match lang {
                    Lang::En => format!("{} {}", p.color.name(), p.role.name()),
                    Lang::Zh => words::piece_at(lang, p, n.square),
                    Lang::Both => format!("{}{}", p.color.chinese(), p.chinese()),
                },
                square: n.square.to_string(),
                attacks,
                defends,
            })
        })
        .collect()
}
