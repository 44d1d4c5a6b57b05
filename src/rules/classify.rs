//! What a move is (SPEC §3): 将 check, 杀 mate threat, 捉 chase or 闲 idle, with the chase's
//! targets, their protection and gain, and the idle kinds 兑/献/拦/跟.

use super::exchange::{evaluate_capture, legal_captures};
use super::graph::{AttackGraph, Relation};
use super::kinds::{IdleKind, MoveKind, Protection};
use super::protection::{Assessment, assess, winnable};
use super::report::{Means, MoveReport, SearchReport, Target};
use super::request::Options;
use super::ruleset::Ruleset;
use super::search::{Budget, checking_moves, mate_by_checks};
use super::tactics::{best_direct, gain_by_checks};
use super::value::Material;
use crate::color::Color;
use crate::movegen::pseudo_legal;
use crate::moves::{Move, MoveList};
use crate::notation::{Notation, write_move};
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// Per-side switches that the verdict may turn on for a second pass.
#[derive(Copy, Clone, Debug, Default)]
pub struct Switches {
    /// Count a pawn's attacks as chases (1999 27.2 second sentence, item 11: 相互长打).
    pub pawns_chase: bool,
}

/// Classifies the legal move `m` played in `before` (at index `ply` of the request).
pub fn classify(
    before: &Position,
    m: Move,
    ply: usize,
    options: &Options,
    switches: Switches,
) -> MoveReport {
    let ruleset = options.ruleset;
    let mover = before.turn();
    let mut after = *before;
    after.play_unchecked(m);
    let chinese = write_move(before, m, Notation::Chinese);
    let iccs = m.to_string();
    let mut report = MoveReport {
        ply,
        round: u32::from(before.fullmoves()),
        color: mover,
        iccs,
        chinese,
        kind: MoveKind::Idle,
        idle_kinds: Vec::new(),
        targets: Vec::new(),
        mate_search: SearchReport {
            max_plies: options.limits.mate_plies,
            max_nodes: options.limits.mate_nodes,
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

    // 杀: a forced mate by checks now, that did not exist before the move.
    let mut budget = Budget::new(options.limits.mate_nodes);
    let threat = mate_by_checks(&again, options.limits.mate_plies, &mut budget).is_some();
    let threat_new = threat && {
        let mut before_budget = Budget::new(options.limits.mate_nodes);
        let old = mate_by_checks(before, options.limits.mate_plies, &mut before_budget).is_some();
        budget.nodes += before_budget.nodes;
        budget.exhausted |= before_budget.exhausted;
        !old
    };
    report.mate_search.nodes = budget.nodes;
    report.mate_search.budget_exhausted = budget.exhausted;
    if threat_new {
        let line = super::search::mate_line(&again, options.limits.mate_plies, &mut budget);
        report.mate_line = super::report::LineMove::line(&again, &line);
    }

    // 捉: every enemy piece the mover could now capture.
    let graph = AttackGraph::build(again.board());
    let mut chase = false;
    for (sq, piece) in again.board().pieces_of(!mover) {
        if !Material::is_material(piece, sq) {
            continue;
        }
        let Some(a) = assess(&again, &graph, sq, ruleset) else {
            continue;
        };
        let target = judge_target(
            before, &after, m, &again, &graph, &a, piece, options, switches,
        );
        chase |= target.counted;
        report.targets.push(target);
    }
    if !chase && let Some(mut t) = chase_by_checks(before, &again, options) {
        let moved = after.piece_at(m.to).map(|p| p.role);
        if ruleset == Ruleset::Cxa2011 && moved == Some(Role::Pawn) {
            t.counted = false;
            t.reason = "a pawn move that wins material only through other pieces' checks is idle (2011 26.7)".into();
            t.reason_zh = "兵（卒）走动后借他子连续照将得子，按闲处理（2011 26.7）".into();
            t.article = Some("2011 26.7".into());
        } else if options.defensive_key_point.get(mover)
            && matches!(t.piece.role, Role::Advisor | Role::Elephant)
        {
            t.counted = false;
            t.reason = "the mover holds a defensive key point; attacks on advisors and elephants are idle (27.3)".into();
            t.reason_zh = "占据防守要点，附带捉士相按闲处理（27.3）".into();
            t.article = Some("27.3".into());
        }
        chase = t.counted;
        report.targets.push(t);
    }

    report.kind = if threat_new {
        MoveKind::MateThreat
    } else if chase {
        MoveKind::Chase
    } else {
        MoveKind::Idle
    };
    report.idle_kinds = idle_kinds(before, &after, m, &report.targets, ruleset);
    report
}

/// Decides whether one attacked piece makes the move a chase, and says why.
#[allow(clippy::too_many_arguments)]
fn judge_target(
    before: &Position,
    after: &Position,
    m: Move,
    again: &Position,
    graph: &AttackGraph,
    a: &Assessment,
    piece: Piece,
    options: &Options,
    switches: Switches,
) -> Target {
    let ruleset = options.ruleset;
    let mover = again.turn();
    let sq = a.square;
    let old = winnable(before, sq, ruleset).is_some()
        || (before.is_check() && suspended(before, sq, ruleset));
    let new = a.gains && !old;
    let gains = |x: &super::exchange::Exchange| !x.mated_after && x.result.is_gain(ruleset);
    let capturer = |x: &super::exchange::Exchange| again.piece_at(x.capture.from).map(|p| p.role);
    // Winning captures by pieces whose attacks count as chases under the profile.
    let counting: Vec<_> = a
        .captures
        .iter()
        .filter(|x| gains(x))
        // 27.1/27.2 (2011 26.1): the king's and pawns' own attacks are idle; when another piece's
        // move lets them capture (借帅之力, an unpinned pawn) the move is a chase.
        // Under AXF kings and pawns may chase freely.
        .filter(|x| match capturer(x) {
            Some(Role::King) => ruleset != Ruleset::Axf && x.capture.from != m.to,
            Some(Role::Pawn) => {
                ruleset != Ruleset::Axf && (switches.pawns_chase || x.capture.from != m.to)
            }
            _ => true,
        })
        .collect();
    let chinese = ruleset != Ruleset::Axf;
    let (counted, en, zh, article): (bool, String, String, Option<&'static str>) = if !a.gains {
        if a.captures.iter().all(|x| x.mated_after) {
            (
                false,
                "capturing it would let the opponent mate at once (29.4, item 7)".into(),
                "吃子后立即被将死（29.4、细则7）".into(),
                chinese.then_some("item 7"),
            )
        } else {
            (
                false,
                "the exchange on its square wins nothing".into(),
                "兑换后不得子".into(),
                None,
            )
        }
    } else if old {
        (
            false,
            "it could already be won before this move (从捉到捉, item 6)".into(),
            "走子前已可得此子（从捉到捉，细则6）".into(),
            chinese.then_some("item 6"),
        )
    } else if counting.is_empty() {
        let by_king = a
            .captures
            .iter()
            .any(|x| gains(x) && capturer(x) == Some(Role::King));
        if by_king {
            (
                false,
                "only the king attacks it; the king's attacks alone are idle (27.1)".into(),
                "帅（将）本身叫吃，按闲处理（27.1）".into(),
                Some(if ruleset == Ruleset::Cxa2011 {
                    "2011 26.1"
                } else {
                    "27.1"
                }),
            )
        } else {
            (
                false,
                "only a pawn attacks it; a pawn's attacks alone are idle (27.2)".into(),
                "兵（卒）本身捉子，按闲处理（27.2）".into(),
                Some(if ruleset == Ruleset::Cxa2011 {
                    "2011 26.1"
                } else {
                    "27.2"
                }),
            )
        }
    } else if options.defensive_key_point.get(mover)
        && matches!(piece.role, Role::Advisor | Role::Elephant)
    {
        (
            false,
            "the mover holds a defensive key point; attacks on advisors and elephants are idle (27.3)".into(),
            "占据防守要点，附带捉士相按闲处理（27.3）".into(),
            Some(if ruleset == Ruleset::Cxa2011 { "2011 26.2" } else { "27.3" }),
        )
    } else if let Some(reason) =
        profile_exception(before, after, m, again, graph, a, piece, &counting, ruleset)
    {
        (false, reason.0, reason.1, Some(reason.2))
    } else {
        let article = match ruleset {
            Ruleset::Cxa1999 => "28.3",
            Ruleset::Cxa2011 => "2011 24.3",
            Ruleset::Axf => "AXF 7",
        };
        (
            true,
            chase_reason_en(a, piece),
            chase_reason_zh(a, piece),
            Some(article),
        )
    };
    Target {
        new,
        counted,
        article: article.map(String::from),
        ..a.target(again, piece, (en, zh))
    }
}

/// When the mover was in check before its move, an attack it could not carry out only because of
/// the check still existed: the piece was already en prise, so answering the check does not chase it
/// anew. Judged with the first capture played regardless of the check.
fn suspended(before: &Position, sq: crate::square::Square, ruleset: Ruleset) -> bool {
    crate::attacks::attackers(before.board(), sq, before.turn())
        .into_iter()
        .any(|from| {
            let x = evaluate_capture(before, Move::new(from, sq));
            !x.mated_after && x.result.is_gain(ruleset)
        })
}

fn chase_reason_en(a: &Assessment, piece: Piece) -> String {
    let what = match a.protection {
        Protection::Unprotected => "it is unprotected",
        Protection::FalseRoot => "its protector cannot legally recapture (false root)",
        Protection::InsufficientRoot => "the complete exchange wins material (insufficient root)",
        Protection::Protected | Protection::HiddenRoot => "the exchange wins material",
    };
    format!(
        "new threat to win the {} {}: {what}",
        piece.color.name(),
        piece.role.name()
    )
}

fn chase_reason_zh(a: &Assessment, piece: Piece) -> String {
    format!("捉{}{}", a.protection.chinese(), piece.chinese())
}

/// Exceptions of the 2011 rules (26.5, 26.7, 26.9) and of AXF (`axf_exception`, AXF 8). `None`:
/// the target counts.
#[allow(clippy::too_many_arguments)]
fn profile_exception(
    before: &Position,
    after: &Position,
    m: Move,
    again: &Position,
    graph: &AttackGraph,
    a: &Assessment,
    piece: Piece,
    counting: &[&super::exchange::Exchange],
    ruleset: Ruleset,
) -> Option<(String, String, &'static str)> {
    if ruleset == Ruleset::Axf {
        return axf_exception(after, again, piece, counting).or_else(|| {
            // AXF 8: a rook pinned by a cannon and moving along the pin line is not chasing. Only
            // its own attacks are exempt: a capture by another piece that the move makes
            // effective (a cannon whose screen the rook became) is still a chase.
            let cannon = rook_pinned_by_cannon(before, m)?;
            counting
                .iter()
                .filter(|x| axf_counts(after, again, piece, x))
                .all(|x| x.capture.from == m.to)
                .then(|| pinned_rook_reason(cannon))
        });
    }
    if ruleset != Ruleset::Cxa2011 {
        return None;
    }
    let moved = after.piece_at(m.to)?;
    // 26.7: a pawn move that wins only through another piece's discovered attack is idle.
    if moved.role == Role::Pawn && counting.iter().all(|x| x.capture.from != m.to) {
        return Some((
            "a pawn move that wins material only through another piece's attack is idle (2011 26.7)".into(),
            "兵（卒）走动后借他子得子，按闲处理（2011 26.7）".into(),
            "2011 26.7",
        ));
    }
    // 26.9: a same-type piece that can take back offers an exchange, unless taking costs material.
    let same_type: Vec<_> = counting
        .iter()
        .filter(|x| again.piece_at(x.capture.from).map(|p| p.role) == Some(piece.role))
        .collect();
    if same_type.len() == counting.len() {
        let offers = same_type.iter().all(|x| {
            let back = Move::new(a.square, x.capture.from);
            after.is_legal(back) && {
                let acc = evaluate_capture(after, back);
                !acc.mated_after && acc.result.score() >= 0
            }
        });
        if offers {
            return Some((
                "a piece of the same kind that can take back: an exchange offer, idle (2011 26.9)"
                    .into(),
                "同兵种可互吃，邀兑按闲处理（2011 26.9）".into(),
                "2011 26.9",
            ));
        }
    }
    // 26.5: a chase by a protector counts only if the exchange that follows is even or better.
    if counting
        .iter()
        .all(|x| protects_attacked(again, graph, x.capture.from))
    {
        let net_ok = counting.iter().any(|x| {
            let mut p = *again;
            p.play_unchecked(x.capture);
            let mut budget = Budget::new(2_000);
            let reply = best_direct(&p, ruleset, &mut budget).material;
            (x.result - reply).score() >= 0
        });
        if !net_ok {
            return Some((
                "the chasing piece is a protector and the exchange that follows loses (2011 26.5)"
                    .into(),
                "作根之子捉子，交换后失子，按闲处理（2011 26.5）".into(),
                "2011 26.5",
            ));
        }
    }
    None
}

/// AXF: only unprotected pieces are chased, and rooks attacked by horses or cannons whatever their
/// protection; a piece of the same kind is chased only if it is unprotected and cannot take back.
fn axf_exception(
    after: &Position,
    again: &Position,
    piece: Piece,
    counting: &[&super::exchange::Exchange],
) -> Option<(String, String, &'static str)> {
    if counting.iter().any(|x| axf_counts(after, again, piece, x)) {
        None
    } else if counting
        .iter()
        .all(|x| again.piece_at(x.capture.from).map(|p| p.role) == Some(piece.role))
    {
        Some((
            "a piece of the same kind that can take back, or is protected: an exchange offer, not a chase (AXF)".into(),
            "同兵种可互吃或有根，属兑子，不算捉（亚洲规则）".into(),
            "AXF 7",
        ))
    } else {
        Some((
            "it is protected; under AXF only unprotected pieces, and rooks attacked by horses or cannons, are chased".into(),
            "有根子；亚洲规则只有无根子及被马炮攻击的车算被捉".into(),
            "AXF 7",
        ))
    }
}

/// AXF: whether the capture `x` of `piece` makes it a chase target: it is unprotected after the
/// capture, or a rook attacked by a horse or a cannon; a piece of the same kind only if it is
/// unprotected and cannot take back.
fn axf_counts(
    after: &Position,
    again: &Position,
    piece: Piece,
    x: &super::exchange::Exchange,
) -> bool {
    let Some(role) = again.piece_at(x.capture.from).map(|p| p.role) else {
        return false;
    };
    // Protection is judged after the capture: a defender that cannot legally take back is none.
    let unprotected = !x.real_recapture;
    if role == piece.role {
        let back = Move::new(x.capture.to, x.capture.from);
        unprotected && !after.is_legal(back)
    } else {
        unprotected || (piece.role == Role::Rook && matches!(role, Role::Horse | Role::Cannon))
    }
}

/// AXF: "a rook pinned along a line by a cannon is not chasing when it moves along that line". The
/// piece moved by `m` in `before` is a rook, and on the file or rank of the move it is one of
/// exactly two pieces standing between an enemy cannon and a piece of its own side: its king
/// (absolute pin, taking the rook off the line would let the cannon check) or any other own piece
/// (relative pin, the cannon could then capture it). The order is cannon – screen – rook – own
/// piece or cannon – rook – screen – own piece; the screen may be of either side. A rook move stays
/// on that line exactly when it keeps to the file or rank, and then it still stands between them.
/// Returns the cannon's point.
fn rook_pinned_by_cannon(before: &Position, m: Move) -> Option<Square> {
    let rook = before.piece_at(m.from)?;
    if rook.role != Role::Rook {
        return None;
    }
    let (df, dr) = if m.from.file() == m.to.file() {
        (0, 1)
    } else if m.from.rank() == m.to.rank() {
        (1, 0)
    } else {
        return None;
    };
    // The first two pieces on each side of the rook along the line.
    let near = |df: i32, dr: i32| {
        let mut out = [None; 2];
        let mut n = 0;
        let mut sq = m.from;
        while n < 2 {
            let Some(next) = sq.offset(df, dr) else { break };
            sq = next;
            if let Some(p) = before.piece_at(sq) {
                out[n] = Some((sq, p));
                n += 1;
            }
        }
        out
    };
    let enemy_cannon = |x: Option<(Square, Piece)>| {
        x.filter(|(_, p)| p.color != rook.color && p.role == Role::Cannon)
            .map(|(sq, _)| sq)
    };
    let own = |x: Option<(Square, Piece)>| x.is_some_and(|(_, p)| p.color == rook.color);
    let (up, down) = (near(df, dr), near(-df, -dr));
    [(up, down), (down, up)]
        .into_iter()
        .find_map(|(towards, away)| {
            // cannon – screen – rook – own piece
            let screened =
                enemy_cannon(towards[1]).filter(|_| towards[0].is_some() && own(away[0]));
            // cannon – rook – screen – own piece
            screened
                .or_else(|| enemy_cannon(towards[0]).filter(|_| away[0].is_some() && own(away[1])))
        })
}

/// The reason given on a target that only the pinned rook itself attacks after its move along its
/// pin line (AXF 8).
fn pinned_rook_reason(cannon: Square) -> (String, String, &'static str) {
    (
        format!(
            "the rook is pinned by the cannon on {cannon} and moves along this line: its own attacks are not a chase (AXF)"
        ),
        format!("车被{cannon}炮牵制，沿牵制线走动，其本身的攻击不算捉（亚洲规则）"),
        "AXF 8",
    )
}

/// Whether the piece on `sq` protects an own piece that the enemy attacks.
fn protects_attacked(pos: &Position, graph: &AttackGraph, sq: crate::square::Square) -> bool {
    graph.edges().iter().any(|e| {
        e.from == sq
            && e.relation == Relation::Defends
            && !graph.into_square(e.to, Relation::Attacks).is_empty()
            && pos.piece_at(e.to).is_some()
    })
}

/// A gain by a series of checks that the move made possible.
fn chase_by_checks(before: &Position, again: &Position, options: &Options) -> Option<Target> {
    let ruleset = options.ruleset;
    let plies = options.limits.check_gain_plies;
    if checking_moves(again).is_empty() {
        return None;
    }
    let mut budget = Budget::new(options.limits.check_gain_nodes);
    let direct_now = best_direct(again, ruleset, &mut budget).material;
    let line = gain_by_checks(again, plies, ruleset, &mut budget)?;
    if !line.material.is_gain(ruleset) || line.material.score() <= direct_now.score() {
        return None;
    }
    let mut budget_before = Budget::new(options.limits.check_gain_nodes);
    let direct_before = best_direct(before, ruleset, &mut budget_before).material;
    if let Some(old) = gain_by_checks(before, plies, ruleset, &mut budget_before)
        && old.material.is_gain(ruleset)
        && old.material.score() > direct_before.score()
    {
        return None;
    }
    let (square, piece) = line.won?;
    Some(Target {
        square,
        piece,
        attackers: Vec::new(),
        defenders: Vec::new(),
        protection: Protection::Unprotected,
        gain: line.material.report_value(),
        means: Means::Checks,
        new: true,
        joint: false,
        line: super::report::LineMove::line(again, line.first.as_slice()),
        participants: line.first.map(|m| m.from).into_iter().collect(),
        counted: true,
        reason: format!(
            "new threat to win the {} {} by a series of checks (29.1)",
            piece.color.name(),
            piece.role.name()
        ),
        reason_zh: format!("可连续照将得{}（29.1）", piece.chinese()),
        article: Some(
            if options.ruleset == Ruleset::Cxa2011 {
                "2011 24.3"
            } else {
                "29.1"
            }
            .to_string(),
        ),
    })
}

/// The idle kinds the move shows (兑/献/拦/跟), for the arbiter.
fn idle_kinds(
    before: &Position,
    after: &Position,
    m: Move,
    targets: &[Target],
    ruleset: Ruleset,
) -> Vec<IdleKind> {
    let mut kinds = Vec::new();
    let Some(moved) = after.piece_at(m.to) else {
        return kinds;
    };
    let value = Material::of(moved, m.to);
    // Enemy captures of the moved piece (the opponent is to move in `after`).
    let taken: Vec<_> = legal_captures(after, m.to)
        .into_iter()
        .map(|c| (c, evaluate_capture(after, c)))
        .collect();
    // 兑: an enemy piece of equal value that the moved piece attacks and that attacks it back,
    // neither side gaining.
    let exchange = taken.iter().any(|(c, x)| {
        after
            .piece_at(c.from)
            .is_some_and(|p| Material::of(p, c.from) == value)
            && !x.result.is_gain(ruleset)
            && targets
                .iter()
                .any(|t| t.square == c.from && t.attackers.contains(&m.to) && t.gain <= 0)
    });
    if exchange {
        kinds.push(IdleKind::Exchange);
    }
    // 献: the moved piece can be taken for a gain by the opponent, who is not mated for it.
    if value != Material::ZERO
        && taken
            .iter()
            .any(|(_, x)| !x.mated_after && x.result.is_gain(ruleset))
    {
        kinds.push(IdleKind::Sacrifice);
    }
    // 跟: it attacks protected enemy pieces without gain.
    if targets
        .iter()
        .any(|t| t.attackers.contains(&m.to) && !t.counted && t.gain <= 0)
    {
        kinds.push(IdleKind::Follow);
    }
    // 拦: it closes an enemy line, leg or eye, and attacks nothing.
    if targets.is_empty() && blocks(before, after, m) {
        kinds.push(IdleKind::Block);
    }
    kinds
}

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

/// Short notes on a move for the explanation, in Chinese and English.
pub fn annotate(report: &mut MoveReport) {
    let side_zh = report.color.chinese();
    let side_en = report.color.name();
    let counted: Vec<&Target> = report.targets.iter().filter(|t| t.counted).collect();
    let (zh, en) = match report.kind {
        MoveKind::Check => ("将".to_string(), "check".to_string()),
        MoveKind::MateThreat => (
            "杀（下一着可连续照将将死对方）".to_string(),
            "mate threat (could mate next move by a series of checks)".to_string(),
        ),
        MoveKind::Chase => (
            counted
                .iter()
                .map(|t| t.reason_zh.clone())
                .collect::<Vec<_>>()
                .join("、"),
            format!(
                "chase: {}",
                counted
                    .iter()
                    .map(|t| format!(
                        "{} on {} ({})",
                        t.piece.role.name(),
                        t.square,
                        t.protection.name()
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        MoveKind::Idle => {
            let kinds_zh: String = report.idle_kinds.iter().map(|k| k.chinese()).collect();
            let kinds_en: Vec<&str> = report.idle_kinds.iter().map(|k| k.name()).collect();
            if kinds_zh.is_empty() {
                ("闲".to_string(), "idle".to_string())
            } else {
                (
                    format!("闲（{kinds_zh}）"),
                    format!("idle ({})", kinds_en.join(", ")),
                )
            }
        }
    };
    report.note_zh = format!("{side_zh}{}（{zh}）", report.chinese);
    report.note_en = format!("{side_en} {} ({}): {en}", report.iccs, report.chinese);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(fen: &str, from: &str, to: &str) -> Option<String> {
        let pos: Position = fen.parse().expect("valid test FEN");
        let m = Move::new(from.parse().expect("square"), to.parse().expect("square"));
        rook_pinned_by_cannon(&pos, m).map(|s| s.to_string())
    }

    #[test]
    fn rook_pinned_by_a_cannon_moving_along_the_line() {
        // Cannon d9 – rook d5 – advisor d2 – king d1.
        let fen = "3ck4/9/9/9/C2R5/C5n2/9/3A5/3K5/9 w";
        assert_eq!(pin(fen, "d5", "d4").as_deref(), Some("d9"));
        assert_eq!(pin(fen, "d5", "d7").as_deref(), Some("d9"));
        // Cannon d9 – horse d7 – rook d5 – king d1: the screen may stand between cannon and rook.
        assert_eq!(
            pin("3ck4/9/3n5/9/3R5/9/9/9/3K5/9 w", "d5", "d4").as_deref(),
            Some("d9")
        );
    }

    #[test]
    fn rook_pinned_to_another_own_piece() {
        // Relative pin: cannon d9 – pawn d7 – rook d5 – horse d2, the king on e0.
        let fen = "3c1k3/9/3P5/9/3R5/6c2/9/3N5/9/4K4 w";
        assert_eq!(pin(fen, "d5", "d4").as_deref(), Some("d9"));
        assert_eq!(pin(fen, "d5", "d6").as_deref(), Some("d9"));
        // Leaving the file is not moving along the pin line.
        assert_eq!(pin(fen, "d5", "e5"), None);
        // Along a rank: cannon a5 – rook c5 – black pawn e5 – horse g5.
        let fen = "3k5/9/9/9/c1R1p1N2/9/9/9/9/4K4 w";
        assert_eq!(pin(fen, "c5", "b5").as_deref(), Some("a5"));
        assert_eq!(pin(fen, "c5", "d5").as_deref(), Some("a5"));
    }

    #[test]
    fn rook_not_pinned_by_a_cannon() {
        // No second piece between cannon and king: the rook is the cannon's screen, not pinned.
        assert_eq!(pin("3ck4/9/9/9/3R5/9/9/9/3K5/9 w", "d5", "d4"), None);
        // Three pieces between: taking the rook off leaves two screens.
        assert_eq!(pin("3ck4/3n5/3n5/9/3R5/9/9/3A5/3K5/9 w", "d5", "d4"), None);
        // A rook on the line, not a cannon.
        assert_eq!(pin("3rk4/9/9/9/3R5/9/9/3A5/3K5/9 w", "d5", "d4"), None);
        // The same rook moving along the rank is not moving along the pin line.
        assert_eq!(pin("3ck4/9/9/9/C2R5/C5n2/9/3A5/3K5/9 w", "d5", "e5"), None);
        // The piece behind is the enemy's: nothing of the rook's side is exposed.
        assert_eq!(pin("3c1k3/9/3P5/9/3R5/9/9/3n5/9/4K4 w", "d5", "d4"), None);
        // Cannon d9 – pawn d7 – rook d5 – black pawn d3 – horse d2: three pieces before the horse.
        assert_eq!(pin("3c1k3/9/3P5/9/3R5/9/3p5/3N5/9/4K4 w", "d5", "d4"), None);
        // A red cannon is no pin of a red rook.
        assert_eq!(pin("3C1k3/9/3P5/9/3R5/9/9/3N5/9/4K4 w", "d5", "d4"), None);
    }
}
