//! What a move is (docs/spec.md §3): 将 check, 杀 mate threat, 捉 chase or 闲 idle, with the chase's
//! targets, their protection, line and participants, and the idle kinds 兑/献/拦/跟.

use super::chase::{Chases, Scene, Switches, chases};
use super::kinds::{IdleKind, MoveKind};
use super::options::Options;
use super::profile::Profile;
use super::protection::{exchange_wins, legal_captures};
use super::report::{LineMove, MoveReport, SearchReport, Target, Why};
use super::tactics::context::Context;
use super::tactics::mate::{
    Budget, checking_moves, mate_avoiding, mate_by_checks, mate_line, mate_line_from, mates_first,
};
use super::tactics::value::Material;
use crate::color::Color;
use crate::movegen::pseudo_legal;
use crate::moves::{Move, MoveList};
use crate::notation::{Notation, write_move};
use crate::piece::Role;
use crate::position::Position;

/// A move as played: the position before it and, when there was one, the opponent's move that
/// led to that position (with the position before it).
#[derive(Copy, Clone, Debug)]
pub struct Played<'a> {
    /// The position the move is played in.
    pub before: &'a Position,
    /// The opponent's previous move and the position it was played in.
    pub previous: Option<(&'a Position, Move)>,
}

/// Classifies the legal move `m` played in `played.before` (at index `ply` of the request).
pub fn classify(
    cx: &mut Context,
    played: Played<'_>,
    m: Move,
    ply: usize,
    options: &Options,
    switches: Switches,
) -> MoveReport {
    let before = played.before;
    let profile = options.ruleset.profile();
    let mover = before.turn();
    let mut after = *before;
    after.play_unchecked(m);
    let mut report = MoveReport {
        ply,
        round: u32::from(before.fullmoves()),
        color: mover,
        iccs: m.to_string(),
        chinese: write_move(before, m, Notation::Chinese),
        kind: MoveKind::Idle,
        idle_kinds: Vec::new(),
        targets: Vec::new(),
        mate_search: SearchReport {
            max_plies: options.limits.mate_plies,
            max_nodes: options.limits.mate_nodes,
            ..SearchReport::default()
        },
        gain_search: SearchReport {
            max_plies: u32::from(options.limits.gain.plies),
            max_nodes: options.limits.move_nodes,
            ..SearchReport::default()
        },
        mate_line: Vec::new(),
        note_zh: String::new(),
        note_en: String::new(),
    };
    if after.is_check() {
        report.kind = MoveKind::Check;
        return report;
    }
    // "If the mover could move again": the same position with the mover to move.
    let Some(again) = after.with_turn_passed() else {
        return report;
    };
    let Some(moved) = after.piece_at(m.to) else {
        return report;
    };
    let scene = Scene {
        before: *before,
        suspended: played
            .previous
            .filter(|_| before.is_check())
            .and_then(|(p, pm)| p.with_turn_passed().map(|q| (q, pm))),
        m,
        after,
        again,
        moved,
    };
    cx.open_move(options.limits.move_nodes);
    let Chases {
        mut targets,
        offers,
    } = chases(cx, &scene, options, switches);
    let work = cx.move_account();
    report.gain_search.nodes = work.nodes;
    report.gain_search.budget_exhausted = work.exhausted;

    // 2011 26.1.2: a chase or mate threat made by the king answering a check is idle.
    let king_answers = profile
        .king_answering_check
        .filter(|_| before.is_check() && moved.role == Role::King);
    if let Some(article) = king_answers {
        for t in targets.iter_mut().filter(|t| t.counted) {
            t.counted = false;
            t.why = Why::KingAnsweringCheck(article);
        }
    }
    let chase = targets.iter().any(|t| t.counted);

    // 杀: a forced mate by checks now that did not exist before the move. One resting on taking a
    // piece of the same kind where it stands is the trade's business, not a mate threat (2011
    // 26.9): an offer the opponent can accept is 兑, one it cannot is a chase.
    // Where a chase outranks a mate threat (AXF), a move that chases is a chase whatever it
    // threatens: no mate search is made for it. Under 2011 24.18, an answer to a check threatens
    // only the mates it made (`answer_mate`).
    let forbid = offers.iter().fold(0, |m, o| m | o.theirs.mask());
    let mut budget = Budget::new(options.limits.mate_nodes);
    let threat = if king_answers.is_none() && (profile.mate_threat_outranks_chase || !chase) {
        mate_avoiding(cx, &again, options.limits.mate_plies, &mut budget, forbid)
    } else {
        None
    };
    let mut threat_new = threat.filter(|_| {
        let mut b = Budget::new(options.limits.mate_nodes);
        let old = mate_by_checks(cx, before, options.limits.mate_plies, &mut b).is_some();
        budget.nodes += b.nodes;
        budget.exhausted |= b.exhausted;
        !old
    });
    if let Some(first) = threat_new
        && profile.self_inflicted_check
        && before.is_check()
    {
        let mut b = Budget::new(options.limits.mate_nodes);
        threat_new = answer_mate(cx, &scene, first, forbid, options.limits.mate_plies, &mut b);
        budget.nodes += b.nodes;
        budget.exhausted |= b.exhausted;
    }
    report.mate_search.nodes = budget.nodes;
    report.mate_search.budget_exhausted = budget.exhausted;

    // The heaviest effect names the move (27.4); AXF forbids no mate threat, so a move that
    // threatens mate and chases is judged as a chase there.
    report.kind = match (threat_new.is_some(), chase) {
        (true, true) if !profile.mate_threat_outranks_chase => MoveKind::Chase,
        (true, _) => MoveKind::MateThreat,
        (false, true) => MoveKind::Chase,
        (false, false) => MoveKind::Idle,
    };
    if report.kind == MoveKind::MateThreat
        && let Some(first) = threat_new
    {
        let mut b = Budget::new(options.limits.mate_nodes);
        let line = if Some(first) == threat {
            mate_line(cx, &again, options.limits.mate_plies, &mut b)
        } else {
            mate_line_from(cx, &again, first, options.limits.mate_plies, &mut b)
        };
        report.mate_line = LineMove::line(&again, &line);
    }
    report.idle_kinds = idle_kinds(cx, &scene, &targets, &offers, profile, options);
    report.targets = std::mem::take(&mut targets);
    report
}

/// 自毙 (2011 24.18, 26.3): of the mates by checks the answer to a check leaves in
/// `scene.again` (the first found begins with `first`), the first move of one the answer made,
/// if any. A mate beginning with a check `c` is the check's doing (24.18: "the check is the
/// checker's own doing") when `c` already mated before the check (the check only suspended
/// it), or when another legal answer to the same check leaves `c` mating as well, unless the
/// answer makes that mate on its own: played before the check, it lets `c` mate there
/// (26.3: a reply that creates a new mate threat is still 杀, whatever another answer leaves).
/// With no other answer (the only answer), only the last test can show the mate to be the
/// answer's. A search cut short by `budget` keeps `first` (no newer answer than before).
/// Bound: the mate searches of this test share `budget`, one mate budget.
fn answer_mate(
    cx: &mut Context,
    scene: &Scene,
    first: Move,
    forbid: u128,
    plies: u32,
    budget: &mut Budget,
) -> Option<Move> {
    let (before, again, m) = (&scene.before, &scene.again, scene.m);
    // The other answers, each with the mover to move again (one that checks leaves no such
    // position: it is judged as a check, not as an answer).
    let others: Vec<Position> = before
        .legal_moves()
        .into_iter()
        .filter(|&a| a != m)
        .filter_map(|a| {
            let mut p = *before;
            p.play_unchecked(a);
            p.with_turn_passed()
        })
        .collect();
    // Before the check with the mover to move, and the same with the answer played there.
    let unchecked = scene.suspended.map(|(p, _)| p);
    let replayed = unchecked.filter(|p| p.is_legal(m)).and_then(|p| {
        let mut q = p;
        q.play_unchecked(m);
        q.with_turn_passed()
    });
    // The checks before `first` mate nowhere: the search that found `first` tried them.
    let checks = checking_moves(again);
    let from_first = checks.iter().copied().skip_while(|&c| c != first);
    for c in from_first {
        let mates = |cx: &mut Context, p: &Position, budget: &mut Budget| {
            p.piece_at(c.from) == again.piece_at(c.from)
                && mates_first(cx, p, c, plies, budget, forbid)
        };
        let new = mates(cx, again, budget)
            && !unchecked.is_some_and(|p| mates(cx, &p, budget))
            && (replayed.is_some_and(|p| mates(cx, &p, budget))
                || (!others.is_empty() && !others.iter().any(|p| mates(cx, p, budget))));
        if budget.exhausted {
            return Some(first);
        }
        if new {
            return Some(c);
        }
    }
    None
}

/// The idle kinds the move shows (兑/献/拦/跟), for the arbiter.
fn idle_kinds(
    cx: &mut Context,
    scene: &Scene,
    targets: &[Target],
    offers: &[super::chase::Offer],
    profile: &Profile,
    options: &Options,
) -> Vec<IdleKind> {
    let mut kinds = Vec::new();
    let (before, after, m) = (&scene.before, &scene.after, scene.m);
    let limits = options.limits.gain;
    let value = Material::of(scene.moved, m.to);
    // 兑: a pair of one kind (2011 26.9) or of equal value (24.4) that can take each other, the
    // move having made or changed it, and the opponent able to accept without loss.
    let touches = |sq| {
        crate::attacks::targets(after.board(), m.to).contains(&sq)
            || crate::attacks::attackers(after.board(), sq, scene.moved.color).contains(&m.to)
    };
    let offered = offers.iter().any(|o| {
        o.accepted
            && (o.mine == m.to
                || touches(o.mine)
                || touches(o.theirs)
                || !mutual(before, o.mine, o.theirs))
    });
    let equal_trade = legal_captures(after, m.to).into_iter().any(|c| {
        after
            .piece_at(c.from)
            .is_some_and(|p| Material::of(p, c.from) == value && value != Material::ZERO)
            && !exchange_wins(cx, after, c, profile.material, limits)
            && targets
                .iter()
                .any(|t| t.square == c.from && t.attackers.contains(&m.to) && !t.counted)
    });
    if offered || equal_trade {
        kinds.push(IdleKind::Exchange);
    }
    // 献: the moved piece can be taken for a gain, and the taker is not mated for it.
    if value != Material::ZERO
        && legal_captures(after, m.to)
            .into_iter()
            .any(|c| exchange_wins(cx, after, c, profile.material, limits))
    {
        kinds.push(IdleKind::Sacrifice);
    }
    // 跟: it attacks protected enemy pieces without gain.
    let attacks_without_gain = targets
        .iter()
        .any(|t| t.attackers.contains(&m.to) && !t.counted && t.gain <= 0);
    if attacks_without_gain {
        kinds.push(IdleKind::Follow);
    }
    // 拦: it closes an enemy line, leg or eye, and wins nothing by its own attacks.
    let wins_by_itself = targets
        .iter()
        .any(|t| t.attackers.contains(&m.to) && t.counted);
    if !wins_by_itself && blocks(before, after, m) {
        kinds.push(IdleKind::Block);
    }
    kinds
}

/// Whether the pieces on `a` and `b` of `pos` can take each other (each side to move in turn).
fn mutual(pos: &Position, a: Square, b: Square) -> bool {
    let (Some(pa), Some(pb)) = (pos.piece_at(a), pos.piece_at(b)) else {
        return false;
    };
    pa.color != pb.color
        && crate::attacks::targets(pos.board(), a).contains(&b)
        && crate::attacks::targets(pos.board(), b).contains(&a)
}

use crate::square::Square;

/// Whether the moved piece takes points away from enemy pieces by standing in their way.
fn blocks(before: &Position, after: &Position, m: Move) -> bool {
    let them: Color = !before.turn();
    // The board without the moved piece, so only its standing on `m.to` differs.
    let mut open = *after.board();
    open.set(m.to, None);
    let count = |board: &crate::board::Board| {
        let mut moves = MoveList::new();
        pseudo_legal(board, them, &mut moves);
        moves.iter().filter(|mv| mv.to != m.to).count()
    };
    count(after.board()) < count(&open)
}
