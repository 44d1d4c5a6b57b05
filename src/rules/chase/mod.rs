//! 捉 (chase): whether a move creates a new net gain, on which enemy pieces, by which line and
//! with which of the mover's pieces (docs/gain.md §2–§3), and the profiles' exceptions to it.
//!
//! A move chases the enemy piece T when, with the mover to move again (A), T is won in a net
//! gain, and T was not winnable net with the mover to move in the position before the move (B).
//! The two positions are netted differently: in B every answer of the opponent counts, in A only
//! what the line itself exposes (see [`Frame`]).
//!
//! This file is the judge: it sets up the two questions (A's and B's), tries every enemy piece
//! and gives each its verdict under the profile. Its parts, one concern each: how a piece is won
//! (`won`: the Chinese net-gain test), whether the threat is new (`newness`), which of the
//! mover's pieces take part (`participants`), same-type offers (`offers`), the opponent's
//! standing threats (`standing`) and the kings' and pawns' free captures (`free`). A profile
//! whose chase is judged on the target's point (AXF) has its own judge
//! (`profile::axf::chases`), which makes no net-gain search.

mod free;
mod newness;
mod offers;
mod participants;
mod standing;
mod won;

pub use offers::Offer;

use super::kinds::Protection;
use super::options::Options;
use super::profile::{ChaseTest, Offers, Profile, ProtectorChase};
use super::protection::{Assessment, assess};
use super::report::{LineMove, Means, Target, Why};
use super::tactics::context::Context;
use super::tactics::gain::{Forbid, Frame, GainLimits, Query, line_material};
use super::tactics::value::{Arithmetic, Material};
use crate::attacks::targets;
use crate::color::Color;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;
use arrayvec::ArrayVec;
use free::free_captures;
use newness::Newness;
use offers::same_type_pairs;
use standing::{common_threats, standing_after};
use won::{Won, net_gain_wins};

/// Per-side switches that the verdict may turn on for a second pass.
#[derive(Copy, Clone, Debug, Default)]
pub struct Switches {
    /// Count a pawn's attacks as chases (1999 27.2 second sentence, item 11: 相互长打).
    pub pawns_chase: bool,
}

/// A move in its context: the positions the chase test compares.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The position before the move, the mover to move (B).
    pub before: Position,
    /// When the mover was in check in B: the position before the opponent's checking move with
    /// the mover to move, and that move (an attack the check only suspended is not new).
    pub suspended: Option<(Position, Move)>,
    /// The move.
    pub m: Move,
    /// The position after the move, the opponent to move.
    pub after: Position,
    /// The position after the move with the mover to move again (A).
    pub again: Position,
    /// The piece moved.
    pub moved: Piece,
}

/// What the chase test found for a move.
#[derive(Clone, Debug, Default)]
pub struct Chases {
    /// Every enemy piece the mover could capture or win in A, judged; the chased ones counted.
    pub targets: Vec<Target>,
    /// The same-type pairs that can take each other in A.
    pub offers: Vec<Offer>,
}

/// The chase judgement of the move in `scene`, by the profile's chase test.
pub fn chases(cx: &mut Context, scene: &Scene, options: &Options, switches: Switches) -> Chases {
    match options.ruleset.profile().chase_test {
        ChaseTest::NetGain(protector) => {
            Judge::new(scene, options, switches, protector, cx).run(cx)
        }
        ChaseTest::OnPoint => super::profile::axf::chases(cx, scene, options),
    }
}

/// How `Judge::wins` judges a piece: whether the position has a gain at all (else the targeted
/// search is skipped), and whether the 26.5 / item 4 acceptance applies (the move being judged).
#[derive(Copy, Clone)]
struct Judged {
    any_gain: bool,
    lenient: bool,
}

struct Judge<'a> {
    scene: &'a Scene,
    options: &'a Options,
    profile: &'static Profile,
    /// How a capture that loses only what the capturer's departure exposes counts.
    protector: ProtectorChase,
    limits: GainLimits,
    /// The query for A.
    qa: Query,
    /// The query for B.
    qb: Query,
    offers: Vec<Offer>,
}

impl<'a> Judge<'a> {
    fn new(
        scene: &'a Scene,
        options: &'a Options,
        switches: Switches,
        protector: ProtectorChase,
        cx: &mut Context,
    ) -> Self {
        let profile = options.ruleset.profile();
        let material = profile.material;
        let mut limits = options.limits.gain;
        // Whether a gain by a series of checks counts (AXF: a chase is a threat to capture next
        // move; 2011 26.7: a pawn move that wins only through another piece's discovered or
        // forking check is idle).
        let by_checks = if scene.moved.role == Role::Pawn {
            profile.pawn_move_gains_by_checks
        } else {
            profile.gains_by_checks
        };
        if !by_checks {
            limits.checks = 0;
        }
        let standing_a = standing_after(cx, scene, profile.standing_threats, material, limits);
        let qb = Query {
            frame: common_threats(cx, scene, &standing_a, material, limits),
            ..Query::new(material, limits)
        };
        let mut forbid = ArrayVec::new();
        let offers = match profile.offers {
            // 1999 item 5: an exchange offer that also chases is a chase.
            Offers::Chase => Vec::new(),
            Offers::Exchange {
                protected_barred_for_all,
            } => {
                let offers = same_type_pairs(scene, material, limits, cx);
                for o in offers.iter().filter(|o| o.accepted) {
                    // The trade is an offer (兑): a threat resting on taking the offered piece
                    // does not count; an unprotected one may still be won by another piece, and
                    // so may a protected one that the other pieces win without the offering
                    // one (26.10: 兑兼捉). Under AXF only the pair's own attack is the offer: any
                    // other attacker still chases (docs/profiles/axf.md).
                    let for_all = protected_barred_for_all
                        && o.protected
                        && !won_without(cx, &scene.again, o, material, limits);
                    let _ = forbid.try_push(Forbid {
                        victim: o.theirs,
                        by: (!for_all).then_some(o.mine),
                    });
                }
                offers
            }
        };
        let qa = Query {
            frame: Frame::Standing {
                standing: standing_a,
                old_mates: true,
            },
            free: free_captures(scene, profile, switches),
            // 2011 26.7: a pawn's capture through another piece's check, anywhere in the line.
            free_after_check: profile.free_captures.pawn_after_check && !switches.pawns_chase,
            forbid,
            ..Query::new(material, limits)
        };
        Judge {
            scene,
            options,
            profile,
            protector,
            limits,
            qa,
            qb,
            offers,
        }
    }

    fn run(self, cx: &mut Context) -> Chases {
        let a = &self.scene.again;
        let mover = a.turn();
        let any_gain = cx.gains_in_move(a, &self.qa);
        let mut out = Vec::new();
        for (sq, piece) in a.board().pieces_of(!mover) {
            if !Material::is_material(piece, sq) {
                continue;
            }
            // Every piece is tried when there is a gain at all, so that of two equal lines the
            // one the search happens to find first decides nothing.
            let assessed = assess(cx, a, sq, self.profile.material, self.limits);
            if assessed.is_none() && !any_gain {
                continue;
            }
            if let Some(t) = self.target(sq, piece, assessed.as_ref(), any_gain, cx) {
                out.push(t);
            }
        }
        Chases {
            targets: out,
            offers: self.offers,
        }
    }

    /// Judges the enemy piece on `sq` of A: `None` if it is neither attacked nor won.
    fn target(
        &self,
        sq: Square,
        piece: Piece,
        assessed: Option<&Assessment>,
        any_gain: bool,
        cx: &mut Context,
    ) -> Option<Target> {
        let a = &self.scene.again;
        let won = self.wins(
            a,
            sq,
            &self.qa,
            assessed,
            Judged {
                any_gain,
                lenient: true,
            },
            cx,
        );
        if won.is_none() && assessed.is_none() {
            return None;
        }
        let mut t = base_target(a, sq, piece, assessed);
        let Some(Won { line, value }) = won else {
            t.why = if assessed.is_some_and(|x| x.gains()) {
                Why::LineLoses
            } else {
                Why::WinsNothing
            };
            return Some(t);
        };
        t.gain = line_material(a, &line).report_value();
        t.means = if line.first().is_some_and(|m| m.to == sq) {
            Means::Capture
        } else {
            Means::Checks
        };
        t.line = LineMove::line(a, &line);
        let newness = self.newness(sq, value, &line, cx);
        t.new = newness == Newness::New;
        t.participants = self.participants(sq, &line, &t.defenders, cx);
        t.joint = t.participants.len() >= 2;
        t.why = self.verdict(&t, piece, newness);
        t.counted = matches!(t.why, Why::Chase(_));
        Some(t)
    }

    /// The line by which the side to move of `pos` wins the piece on `sq` under `q`, if it can,
    /// by the net-gain test. The line comes with the search's value for it, which counts a
    /// forced mate at its end.
    fn wins(
        &self,
        pos: &Position,
        sq: Square,
        q: &Query,
        assessed: Option<&Assessment>,
        judged: Judged,
        cx: &mut Context,
    ) -> Option<Won> {
        net_gain_wins(
            pos,
            (sq, self.scene.m.to),
            q,
            assessed,
            judged,
            (self.protector, self.profile.standing_threats),
            cx,
        )
    }

    /// Whether a new gain on `t` counts under the profile (`Why::Chase`), and why.
    fn verdict(&self, t: &Target, piece: Piece, newness: Newness) -> Why {
        let profile = self.profile;
        let mover = self.scene.again.turn();
        match (newness, profile.king_answering_check) {
            (Newness::New, _) => {}
            (Newness::LeftByTheCheck, Some(article)) => return Why::CheckLeftIt(article),
            _ => return Why::NotNew(profile.chase_articles.not_new),
        }
        if let Some(key_point) = profile.key_point
            && matches!(piece.role, Role::Advisor | Role::Elephant)
            && self.key_point(mover, key_point.plain_from_position)
        {
            return Why::KeyPoint {
                asserted: self.options.defensive_key_point.get(mover),
                article: key_point.article,
            };
        }
        Why::Chase(if t.means == Means::Checks {
            profile.chase_articles.by_checks
        } else {
            profile.chase_articles.chase
        })
    }

    /// Whether the mover's side is taken to hold a defensive key point: asserted by the request,
    /// or, under 2011, plain from the position: its single attacking piece, against several,
    /// holds one of the opponent's attacking pieces where it stands (attacks it: 跟), so that its
    /// hits on advisors and elephants are incidental to the point it keeps (2011 26.2).
    fn key_point(&self, mover: Color, plain_from_position: bool) -> bool {
        if self.options.defensive_key_point.get(mover) {
            return true;
        }
        if !plain_from_position {
            return false;
        }
        let a = &self.scene.again;
        let board = a.board();
        let attacking = |c: Color| {
            board
                .pieces_of(c)
                .filter(move |&(sq, p)| is_attacking_piece(p, sq))
                .map(|(sq, _)| sq)
        };
        let mut ours = attacking(mover);
        let (Some(lone), None) = (ours.next(), ours.next()) else {
            return false;
        };
        let held = targets(board, lone);
        attacking(!mover).count() >= 2 && attacking(!mover).any(|sq| held.contains(&sq))
    }
}

/// Whether the side to move of `pos` wins the opponent's piece of the offer `o` on its point
/// with its other pieces, the offering piece standing still (2011 26.10, second sentence: pieces
/// added to a rook-and-horse or rook-and-cannon offer so that it also chases, 兑兼捉).
fn won_without(
    cx: &mut Context,
    pos: &Position,
    o: &Offer,
    material: Arithmetic,
    limits: GainLimits,
) -> bool {
    let q = Query {
        square: Some(o.theirs),
        frozen: Some(o.mine),
        ..Query::new(material, limits)
    };
    cx.gains_in_move(pos, &q)
}

/// Whether `piece` on `sq` is an attacking piece (攻击子, 2011 26.2): a rook, horse or cannon, or a
/// pawn across the river.
fn is_attacking_piece(piece: Piece, sq: Square) -> bool {
    matches!(piece.role, Role::Rook | Role::Horse | Role::Cannon)
        || (piece.role == Role::Pawn && !sq.on_own_half(piece.color))
}

/// The report skeleton of the enemy piece on `sq` of `pos`, not (yet) chased.
fn base_target(pos: &Position, sq: Square, piece: Piece, x: Option<&Assessment>) -> Target {
    Target::attacked(
        sq,
        piece,
        x.map(Assessment::attackers).unwrap_or_default(),
        x.map(|x| x.defenders.clone()).unwrap_or_default(),
        x.map_or(Protection::Unprotected, |x| x.protection),
        x.map(|x| LineMove::line(pos, &[x.best]))
            .unwrap_or_default(),
    )
}
