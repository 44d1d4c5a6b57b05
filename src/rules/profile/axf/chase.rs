//! The Asian rules' chase (捉), judged on the target's own point (docs/gain.md §5;
//! docs/profiles/axf.md): a capture the mover could make next counts when its target is one of
//! the rules' chase targets and the exchange on the target's point wins; the move chases the
//! target when no capture of it passed the same test before the move. What a capture loses
//! elsewhere, a series of checks and combinations across points play no part: no net-gain
//! search is made, only the exchange on one point (the point-restricted query) and the bounded
//! mate search behind false roots.

use super::pins::{Line, confinement, rook_held_by_horse, rook_pinned_by_cannon};
use super::{A15, A17, A18, A19, A23, A24, A25, A27, A28, A29, A35};
use crate::attacks::attackers;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::rules::article::ArticleId;
use crate::rules::chase::{Chases, Offer, Scene};
use crate::rules::kinds::Protection;
use crate::rules::options::Options;
use crate::rules::profile::Profile;
use crate::rules::protection::{exchange, legal_captures};
use crate::rules::report::{Defender, LineMove, Target, Why};
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::{GainLimits, line_material};
use crate::rules::tactics::mate::mate_by_checks;
use crate::rules::tactics::value::{Arithmetic, Material};
use crate::square::Square;

/// The chase judgement of the move in `scene` under the Asian rules: every enemy piece the
/// mover could capture in A, judged on its point, and the same-type pairs that can take each
/// other (rule 24).
pub(crate) fn chases(cx: &mut Context, scene: &Scene, options: &Options) -> Chases {
    let profile = options.ruleset.profile();
    let judge = OnPoint {
        material: profile.material,
        limits: options.limits.gain,
    };
    let a = &scene.again;
    // Rule 27: the moved rook's own captures, when it moved along the line a cannon confines it
    // to, are not chases.
    let confined = profile.pinned_rook.and_then(|article| {
        rook_pinned_by_cannon(&scene.before, scene.m).map(|cannon| (scene.m.to, cannon, article))
    });
    let mut targets = Vec::new();
    for (sq, piece) in a.board().pieces_of(!a.turn()) {
        if !Material::is_material(piece, sq) {
            continue;
        }
        let captures = legal_captures(a, sq);
        if captures.is_empty() {
            continue;
        }
        targets.push(judge.target(cx, scene, profile, sq, piece, &captures, confined));
    }
    Chases {
        targets,
        offers: judge.offers(cx, scene),
    }
}

/// What one capture of an enemy piece makes of it, in the order the reasons are told when no
/// capture makes it a target (the first that applies).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Capture {
    /// A chase target won on its point, by the rule cited; `always` when the rule makes it one
    /// whatever its protection (so it may be taken back).
    Target {
        /// The rule.
        article: ArticleId,
        /// A target whatever its protection.
        always: bool,
    },
    /// The moved rook's own capture along the line the cannon on this point confines it to
    /// (rule 27).
    Confined(Square),
    /// Of the same kind as the capturer and able to take it back: an exchange offer (rule 24).
    TakesBack,
    /// It has a real root, and no rule makes it a target whatever its protection (rules 17, 35).
    Protected(ArticleId),
    /// The exchange on its point does not win (the capture lets the opponent mate).
    Loses,
    /// A king's or a pawn's capture: they chase freely (rules 28, 29).
    Free(ArticleId),
}

impl Capture {
    /// Its place in that order.
    fn rank(self) -> u8 {
        match self {
            Capture::Target { .. } => 0,
            Capture::Confined(_) => 1,
            Capture::TakesBack => 2,
            Capture::Protected(_) => 3,
            Capture::Loses => 4,
            Capture::Free(_) => 5,
        }
    }
}

/// An enemy piece attacked: the position (the mover to move), the same with the opponent to
/// move (may the piece take back?), its point and how many captures of it the mover has.
#[derive(Copy, Clone)]
struct Spot<'a> {
    pos: &'a Position,
    opp: Option<&'a Position>,
    sq: Square,
    captures: usize,
}

/// The exchange on one point: the arithmetic and the bounds of its searches.
#[derive(Copy, Clone)]
struct OnPoint {
    material: Arithmetic,
    limits: GainLimits,
}

impl OnPoint {
    /// The enemy piece on `sq` of A, which the mover can capture with `captures`, judged.
    #[allow(clippy::too_many_arguments)]
    fn target(
        self,
        cx: &mut Context,
        scene: &Scene,
        profile: &Profile,
        sq: Square,
        piece: Piece,
        captures: &[Move],
        confined: Option<(Square, Square, ArticleId)>,
    ) -> Target {
        let a = &scene.again;
        let pinned = confined.map(|(rook, cannon, _)| (rook, cannon));
        let spot = Spot {
            pos: a,
            opp: Some(&scene.after),
            sq,
            captures: captures.len(),
        };
        let mut roots: Vec<(Move, Vec<Defender>)> = Vec::new();
        let judged: Vec<(Move, Capture)> = captures
            .iter()
            .map(|&c| {
                let (verdict, guards) = self.capture(cx, spot, c, pinned);
                roots.extend(guards.map(|g| (c, g)));
                (c, verdict)
            })
            .collect();
        // The capture shown: the cheapest capturer that makes it a target (the captures come
        // cheapest first), else the cheapest capturer.
        let best = judged
            .iter()
            .find(|(_, v)| matches!(v, Capture::Target { .. }))
            .copied();
        let shown = best.map_or(captures[0], |(c, _)| c);
        let guards = match roots.into_iter().find(|(c, _)| *c == shown) {
            Some((_, guards)) => guards,
            None => self.guards(cx, a, shown),
        };
        let protection = if guards.is_empty() {
            Protection::Unprotected
        } else if guards.iter().all(|d| !d.real) {
            Protection::FalseRoot
        } else {
            Protection::Protected
        };
        let mut t = Target::attacked(
            sq,
            piece,
            captures.iter().map(|c| c.from).collect(),
            guards,
            protection,
            LineMove::line(a, &[shown]),
        );
        let Some((c, Capture::Target { article, always })) = best else {
            let reason = judged.iter().map(|(_, v)| *v).min_by_key(|v| v.rank());
            t.why = match (reason, confined) {
                (Some(Capture::Confined(cannon)), Some((_, _, article))) => {
                    Why::PinnedRook { cannon, article }
                }
                (Some(Capture::TakesBack), _) => Why::TakesBack(A24),
                (Some(Capture::Protected(article)), _) => Why::Protected(article),
                (Some(Capture::Free(article)), _) => Why::FreeAttacker(article),
                _ => Why::WinsNothing,
            };
            return t;
        };
        // The exchange on the point; a piece that is a target only without a root is won
        // outright (a recapture the capture itself opens is no root, `unrooted`).
        let line = if always {
            exchange(cx, a, c, self.material, self.limits).line.to_vec()
        } else {
            vec![c]
        };
        t.gain = line_material(a, &line).report_value();
        t.line = LineMove::line(a, &line);
        t.participants = vec![c.from];
        // The answering piece's own threat is judged on B alone; a threat the answer uncovers is
        // also compared with the position before the opponent's check (docs/gain.md §5).
        let by_moved = judged
            .iter()
            .any(|(c, v)| matches!(v, Capture::Target { .. }) && c.from == scene.m.to);
        t.new = !self.threatened(cx, &scene.before, sq)
            && (by_moved
                || scene.suspended.as_ref().is_none_or(|(earlier, check)| {
                    let sq = if check.to == sq { check.from } else { sq };
                    !self.threatened(cx, earlier, sq)
                }));
        // A king's or a pawn's own captures are free (rules 28, 29); another piece's capture that
        // their move makes new is that piece's chase, so they chase "with another piece" freely
        // only while it takes part in some of the moves, not in every one (diagrams 68, 70
        // against 71-75).
        t.why = if t.new {
            Why::Chase(article)
        } else {
            Why::NotNew(profile.chase_articles.not_new)
        };
        t.counted = matches!(t.why, Why::Chase(_));
        t
    }

    /// Whether a capture of the enemy piece on `sq` of `pos` (the mover to move) passes the test
    /// there: the threat already stood (rule 25's screens and the appendix's root taken away
    /// make a new one; a piece left where it was attacked does not).
    fn threatened(self, cx: &mut Context, pos: &Position, sq: Square) -> bool {
        if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
            return false;
        }
        let opp = pos.with_turn_passed();
        let captures = legal_captures(pos, sq);
        let spot = Spot {
            pos,
            opp: opp.as_ref(),
            sq,
            captures: captures.len(),
        };
        captures
            .into_iter()
            .any(|c| matches!(self.capture(cx, spot, c, None).0, Capture::Target { .. }))
    }

    /// What the capture `c` of the enemy piece at `spot` makes of it, with the piece's roots
    /// when they had to be found. `pinned` is the moved rook and the cannon that confines it
    /// (rule 27).
    fn capture(
        self,
        cx: &mut Context,
        spot: Spot<'_>,
        c: Move,
        pinned: Option<(Square, Square)>,
    ) -> (Capture, Option<Vec<Defender>>) {
        let Spot { pos, opp, sq, .. } = spot;
        let (Some(by), Some(victim)) = (pos.piece_at(c.from), pos.piece_at(sq)) else {
            return (Capture::Loses, None);
        };
        match by.role {
            Role::King => return (Capture::Free(A28), None),
            Role::Pawn => return (Capture::Free(A29), None),
            _ => {}
        }
        if let Some((rook, cannon)) = pinned
            && rook == c.from
        {
            return (Capture::Confined(cannon), None);
        }
        let same = by.role == victim.role;
        if same && opp.is_some_and(|o| takes_back(o, sq, c.from)) {
            return (Capture::TakesBack, None);
        }
        let held = victim.role == Role::Rook && rook_held_by_horse(pos, sq);
        // Rules 15 and 19: a rook attacked by a horse or a cannon, or held by a horse (by
        // whatever piece, a rook included: held, it cannot take back), is a target whatever
        // its protection; any other piece only without a real root.
        let always = match (by.role, victim.role) {
            (Role::Horse | Role::Cannon, Role::Rook) => Some(A15),
            _ if held => Some(A19),
            _ => None,
        };
        let roots = always.is_none().then(|| self.guards(cx, pos, c));
        if roots.as_ref().is_some_and(|g| g.iter().any(|d| d.real)) {
            let article = if spot.captures > 1 { A35 } else { A17 };
            return (Capture::Protected(article), roots);
        }
        // On its point the capture then wins (an unprotected piece for nothing, a rook for at
        // most a horse or a cannon), unless it lets the opponent force mate.
        if self.mated_after(cx, pos, c) {
            return (Capture::Loses, roots);
        }
        let target = Capture::Target {
            article: always.unwrap_or_else(|| match (by.role, victim.role) {
                _ if same && confinement(pos, sq).is_some() => A27,
                _ if same => A24,
                (Role::Rook, Role::Cannon) => A18,
                (Role::Rook, Role::Horse) => A23,
                _ => A25,
            }),
            always: always.is_some(),
        };
        (target, roots)
    }

    /// Whether, after the capture `c` in `pos`, the opponent forces mate by checks (within the
    /// bounds of the searches' mate tests): then the capture wins nothing.
    fn mated_after(self, cx: &mut Context, pos: &Position, c: Move) -> bool {
        let mut after = *pos;
        after.play_unchecked(c);
        self.mates(cx, &after)
    }

    /// Whether the piece that `c` captures has no real root (see [`OnPoint::guards`]).
    fn unrooted(self, cx: &mut Context, pos: &Position, c: Move) -> bool {
        self.guards(cx, pos, c).iter().all(|d| !d.real)
    }

    /// The roots of the piece that `c` captures. A root is a piece that stands guard over the
    /// point as the board is, the capturer still at its own point; it is real when it can take
    /// back legally after the capture without letting the capturer force a mate it did not
    /// have without it (else a false root, 假根). So a recapture the capture itself opens (along
    /// the line through the capturer's point, by a horse whose leg it frees, by a cannon whose
    /// second screen it takes away) is no root, and a protector the capture pins or whose
    /// screen it was is a false one (docs/profiles/axf.md: the book calls such a piece
    /// unprotected).
    fn guards(self, cx: &mut Context, pos: &Position, c: Move) -> Vec<Defender> {
        let sq = c.to;
        let Some(victim) = pos.piece_at(sq) else {
            return Vec::new();
        };
        // The board with the capturer's point still taken and the capturer on the point.
        let mut standing = *pos.board();
        standing.set(sq, pos.piece_at(c.from));
        let guards = attackers(&standing, sq, victim.color);
        if guards.is_empty() {
            return Vec::new();
        }
        let mut after = *pos;
        after.play_unchecked(c);
        let legal = legal_captures(&after, sq);
        // A mate the capturer has anyway, recapture or not, does not make a recapture false.
        let standing_mate = guards.iter().any(|g| legal.iter().any(|r| r.from == *g))
            && after.with_turn_passed().is_some_and(|p| self.mates(cx, &p));
        guards
            .iter()
            .filter_map(|&g| {
                let piece = pos.piece_at(g)?;
                let real = legal.iter().any(|r| r.from == g)
                    && (standing_mate || {
                        let mut again = after;
                        again.play_unchecked(Move::new(g, sq));
                        !self.mates(cx, &again)
                    });
                Some(Defender {
                    square: g,
                    piece,
                    hidden: false,
                    real,
                })
            })
            .collect()
    }

    /// Whether the side to move of `pos` forces mate by checks within the mate tests' bounds,
    /// counted in the move's account.
    fn mates(self, cx: &mut Context, pos: &Position) -> bool {
        let mut b = cx.move_budget(self.limits.mate_nodes);
        let mated = mate_by_checks(cx, pos, self.limits.mate_plies, &mut b).is_some();
        cx.count_in_move(&b);
        mated
    }

    /// The same-type pairs that can take each other in A (rule 24): whether the opponent can
    /// accept on the point without loss, and whether its piece has a real root.
    fn offers(self, cx: &mut Context, scene: &Scene) -> Vec<Offer> {
        let (a, after) = (&scene.again, &scene.after);
        let mut out = Vec::new();
        for (theirs, o) in a.board().pieces_of(!a.turn()) {
            if !Material::is_material(o, theirs) || o.role == Role::Pawn {
                continue;
            }
            for take in legal_captures(a, theirs) {
                if a.piece_at(take.from).is_none_or(|p| p.role != o.role) {
                    continue;
                }
                let back = Move::new(theirs, take.from);
                if !after.is_legal(back) {
                    continue;
                }
                let g = exchange(cx, after, back, self.material, self.limits);
                out.push(Offer {
                    mine: take.from,
                    theirs,
                    accepted: g.value >= 0 && !g.mates(),
                    protected: !self.unrooted(cx, a, take),
                });
            }
        }
        out
    }
}

/// Whether the piece on `sq` of `opp` (its side to move) can take back the piece of its own kind
/// on `from`: legally, and, for a rook confined to a line by a cannon, without leaving the line
/// (rule 27: an attack by a rook on a confined rook is no offer).
fn takes_back(opp: &Position, sq: Square, from: Square) -> bool {
    let back = Move::new(sq, from);
    if !opp.is_legal(back) {
        return false;
    }
    match confinement(opp, sq) {
        Some((line, _)) => Line::of(back) == Some(line),
        None => true,
    }
}
