//! The arbiter's ruling sheet: a ruling, as the API answers it (`pb::Ruling`, so the page, the
//! CLI and any client show the same thing), laid out for a person in Chinese, English or both,
//! moves numbered by round, with a board diagram of every cycle move.
//!
//! `html` writes the printable HTML (`qili judge --format html`, the consult page); the pieces
//! here (move texts, target texts, the diagram of a move) serve the CLI's text tables too.

mod html;
mod paperwork;
pub mod terms;
pub mod words;

pub use html::{
    SCRIPT, STYLE, analysis_document, analysis_fragment, ruling_document, ruling_fragment,
};
pub use paperwork::Paperwork;
pub use words::{Heading, Lang, heading};

use crate::attacks::attackers;
use crate::diagram::{ArrowKind, Diagram, MarkKind};
use crate::notation::{Notation, write_move};
use crate::position::Position;
use crate::record::dispute::{Dispute, iccs_move, round_of};
use crate::rules::{MoveKind, Ruleset};
use crate::service::pb;
use crate::square::Square;

/// A short word for a diagram label: Chinese unless the sheet is English only.
fn short(lang: Lang, zh: &str, en: &str) -> String {
    if lang == Lang::En {
        en.to_string()
    } else {
        zh.to_string()
    }
}

/// The move's kind with its idle kinds: `捉`, `闲+兑` (`chase`, `idle + exchange offer`).
pub fn kind_text(lang: Lang, m: &pb::MoveReport) -> String {
    let mut out = words::kind(lang, terms::kind(m.kind));
    for k in m.idle_kinds.iter().filter_map(|k| terms::idle_kind(*k)) {
        out.push_str(" + ");
        out.push_str(&words::idle_kind(lang, k));
    }
    out
}

/// A piece of the API on its square (`黑７路马`, `black horse g7`); the square alone if the piece is
/// not named.
fn piece_text(lang: Lang, piece: Option<&pb::Piece>, square: &str) -> String {
    match (terms::piece(piece), square.parse::<Square>()) {
        (Some(p), Ok(sq)) => words::piece_at(lang, p, sq),
        _ => square.to_string(),
    }
}

/// An attacked piece: `黑７路马 无根 +5 捉` / `black horse g7 unprotected +5 chased`.
pub fn target_text(lang: Lang, t: &pb::Target) -> String {
    let who = piece_text(lang, t.piece.as_ref(), &t.square);
    let mut out = who;
    if let Some(p) = terms::protection(t.protection) {
        out.push(' ');
        out.push_str(&words::protection(lang, p));
    }
    if t.gain != 0 {
        out.push_str(&format!(" {:+}", t.gain));
    }
    if t.counted {
        out.push(' ');
        out.push_str(&heading(lang, Heading::Chased));
    }
    out
}

/// The mating line of a mate threat in Chinese notation (`炮二进七 将5进1 …`), if it has one.
pub fn mate_line_text(m: &pb::MoveReport) -> Option<String> {
    m.mate_line
        .as_ref()
        .filter(|l| !l.chinese.is_empty())
        .map(|l| l.chinese.join(" "))
}

/// The move as the score sheet names it (`第32回合 红 兵八平九`).
pub fn move_text(lang: Lang, m: &pb::MoveReport) -> String {
    words::move_at(lang, m.round, terms::color(m.color), &m.chinese, &m.iccs)
}

/// The cycle in a sentence per language (where it starts, how long, how often the final position
/// occurs); nothing without a cycle.
pub fn cycle_lines(r: &pb::Ruling, lang: Lang) -> Vec<String> {
    match r.moves.first() {
        Some(first) if r.cycle_length > 0 => words::cycle_summary(
            lang,
            (
                first.round,
                terms::color(first.color),
                &first.chinese,
                &first.iccs,
            ),
            r.cycle_length as usize,
            r.repetitions,
        ),
        _ => Vec::new(),
    }
}

/// The facts that head a sheet, label and value: the record and game, the profile, and the move
/// ruled after (by round, with its ply).
pub fn facts(ruleset: &str, d: &Dispute, lang: Lang) -> Vec<(Heading, String)> {
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
    let ruleset = ruleset
        .parse::<Ruleset>()
        .map_or_else(|_| ruleset.to_string(), |r| words::ruleset(lang, r));
    out.push((Heading::Ruleset, ruleset));
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
pub fn move_diagram(after: &Position, m: &pb::MoveReport, lang: Lang) -> Diagram {
    let mut d =
        Diagram::new(after).title(&format!("{} — {}", move_text(lang, m), kind_text(lang, m)));
    if let Some(mv) = iccs_move(&m.iccs) {
        d = d.last_move(mv);
    }
    let kind = terms::kind(m.kind);
    if kind == MoveKind::Check {
        let checked = after.turn();
        let king = after.king(checked);
        for from in attackers(after.board(), king, !checked) {
            d = d.arrow(from, king, ArrowKind::Check);
        }
        d = d.mark(king, MarkKind::Checked, &short(lang, "将", "check"));
    }
    d = target_marks(d, &m.targets, lang, true);
    if kind == MoveKind::MateThreat
        && let Some(first) = m
            .mate_line
            .as_ref()
            .and_then(|l| l.iccs.first())
            .and_then(|t| iccs_move(t))
    {
        d = d.arrow(first.from, first.to, ArrowKind::MateThreat);
    }
    d
}

/// Marks every target with its protection; with `arrows`, draws each counted one's chase arrows.
fn target_marks(mut d: Diagram, targets: &[pb::Target], lang: Lang, arrows: bool) -> Diagram {
    for t in targets {
        let Ok(square) = t.square.parse::<Square>() else {
            continue;
        };
        let label = terms::protection(t.protection).map_or(String::new(), |p| {
            words::protection(if lang == Lang::En { lang } else { Lang::Zh }, p)
        });
        let kind = if t.counted {
            MarkKind::Chased
        } else {
            MarkKind::Attacked
        };
        if arrows && t.counted {
            for from in t.attackers.iter().filter_map(|a| a.parse::<Square>().ok()) {
                d = d.arrow(from, square, ArrowKind::Chase);
            }
        }
        d = d.mark(square, kind, &label);
    }
    d
}

/// The diagram of an analysis: the position analysed, the move if one was given (with its check
/// and chase arrows), and every attacked piece marked with its protection and its attacks drawn.
pub fn analysis_diagram(a: &pb::AnalyzeResponse, after: &Position, lang: Lang) -> Diagram {
    let mut d = match &a.r#move {
        Some(m) => move_diagram(after, m, lang),
        None => Diagram::new(after).title(&heading(lang, Heading::Analysis)),
    };
    for t in &a.attacked {
        let Ok(square) = t.square.parse::<Square>() else {
            continue;
        };
        for from in t.attackers.iter().filter_map(|s| s.parse::<Square>().ok()) {
            d = d.arrow(from, square, ArrowKind::Attack);
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

/// The row of an attacked piece; a Chinese sheet names the attackers by the pieces of `pieces` that
/// stand on their squares, as Chinese notation does.
pub fn target_row(t: &pb::Target, lang: Lang, pieces: &[pb::PieceNode]) -> TargetRow {
    let named = |p: Option<&pb::Piece>, square: &str| piece_text(lang, p, square);
    let defenders: Vec<String> = t
        .defenders
        .iter()
        .map(|d| {
            let mut s = named(d.piece.as_ref(), &d.square);
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
        piece: named(t.piece.as_ref(), &t.square),
        attackers: if t.attackers.is_empty() {
            none.clone()
        } else if lang == Lang::Zh {
            t.attackers
                .iter()
                .map(|sq| {
                    let on = pieces.iter().find(|n| &n.square == sq);
                    piece_text(lang, on.and_then(|n| n.piece.as_ref()), sq)
                })
                .collect::<Vec<_>>()
                .join("、")
        } else {
            t.attackers.join(" ")
        },
        defenders: if defenders.is_empty() {
            none
        } else {
            defenders.join(", ")
        },
        protection: terms::protection(t.protection)
            .map_or(String::new(), |p| words::protection(lang, p)),
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
pub fn graph_rows(a: &pb::AnalyzeResponse, lang: Lang) -> Vec<GraphRow> {
    let hidden = short(lang, "暗", "hidden");
    let list = |from: &str, relation: pb::Relation| -> String {
        a.edges
            .iter()
            .filter(|e| e.from == from && e.relation == relation as i32)
            .map(|e| {
                // A Chinese sheet names the pieces as Chinese notation does; the others by square.
                let to = if lang == Lang::Zh {
                    let piece = a.pieces.iter().find(|n| n.square == e.to);
                    piece_text(lang, piece.and_then(|n| n.piece.as_ref()), &e.to)
                } else {
                    e.to.clone()
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
    a.pieces
        .iter()
        .filter_map(|n| {
            let p = terms::piece(n.piece.as_ref())?;
            let attacks = list(&n.square, pb::Relation::Attacks);
            let defends = list(&n.square, pb::Relation::Defends);
            if attacks.is_empty() && defends.is_empty() {
                return None;
            }
            Some(GraphRow {
                color: p.color,
                piece: match lang {
                    Lang::En => format!("{} {}", p.color.name(), p.role.name()),
                    Lang::Zh => piece_text(lang, n.piece.as_ref(), &n.square),
                    Lang::Both => format!("{}{}", p.color.chinese(), p.chinese()),
                },
                square: n.square.clone(),
                attacks,
                defends,
            })
        })
        .collect()
}
