//! 捉 (chase): whether a move creates a new net gain, on which enemy pieces, by which line and
//! with which of the mover's pieces (docs/gain.md §2–§3), and the profiles' exceptions to it.
//!
//! A move chases the enemy piece T when, with the mover to move again (A), T is won in a net
//! gain, and T was not winnable net with the mover to move in the position before the move (B).
//! The two positions are netted differently: in B every answer of the opponent counts, in A only
//! what the line itself exposes (see [`Frame`]).

use super::kinds::Protection;
use super::options::Options;
use super::profile::{ChaseTest, FreePieces, Offers, Profile, ProtectorChase};
use super::protection::{Assessment, assess, legal_captures};
use super::report::{Defender, LineMove, Means, Target, Why};
use super::tactics::context::Context;
use super::tactics::gain::{Forbid, Frame, Gain, GainLimits, MATE, Query, line_material};
use super::tactics::graph::AttackGraph;
use super::tactics::value::{Arithmetic, Material};
use crate::attacks::{attackers, targets};
use crate::color::Color;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;
use arrayvec::ArrayVec;

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

/// A pair of pieces of one kind, the mover's and the opponent's, that can take each other after
/// the move (兑, 2011 26.9–26.10).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The mover's piece.
    pub mine: Square,
    /// The opponent's piece offered the trade.
    pub theirs: Square,
    /// The opponent can accept (take first) without being mated or losing material.
    pub accepted: bool,
    /// The opponent's piece has a real root in A.
    pub protected: bool,
}

/// Whether the side to move of `pos` gains under `q`, with the winning line if so: a null-window
/// search first, the full one only when it gains (and then only above zero); counted in the
/// move's account.
fn winning(cx: &mut Context, pos: &Position, q: &Query) -> Option<Gain> {
    if !cx.gains_in_move(pos, q) {
        return None;
    }
    Some(cx.gain_in_move(pos, q, 0)).filter(Gain::gains)
}

/// One search under `q`, counted in the move's account.
pub(crate) fn search(cx: &mut Context, pos: &Position, q: &Query) -> Gain {
    cx.gain_in_move(pos, q, -MATE - 1)
}

/// What the chase test found for a move.
#[derive(Clone, Debug, Default)]
pub struct Chases {
    /// Every enemy piece the mover could capture or win in A, judged; the chased ones counted.
    pub targets: Vec<Target>,
    /// The same-type pairs that can take each other in A.
    pub offers: Vec<Offer>,
}

/// A line that wins a piece, and the search's value for it (half units, `MATE`-sized for a
/// forced mate).
pub(crate) struct Won {
    line: Vec<Move>,
    value: i32,
}

impl From<Gain> for Won {
    fn from(g: Gain) -> Won {
        Won {
            line: g.line.to_vec(),
            value: g.value,
        }
    }
}

/// A search value with every forced mate counted alike: how soon a line mates says nothing of
/// whether it wins more.
fn settled(value: i32) -> i32 {
    if value > MATE / 2 { MATE } else { value }
}

/// The chase judgement of the move in `scene`.
pub fn chases(cx: &mut Context, scene: &Scene, options: &Options, switches: Switches) -> Chases {
    let judge = Judge::new(scene, options, switches, cx);
    judge.run(cx)
}

/// How `Judge::wins` judges a piece: whether the position has a gain at all (else the targeted
/// search is skipped), and whether the 26.5 / item 4 acceptance applies (the move being judged).
#[derive(Copy, Clone)]
struct Judged {
    any_gain: bool,
    lenient: bool,
}

impl Judged {
    /// The position before the move: searched in full, strictly.
    const BEFORE: Judged = Judged {
        any_gain: true,
        lenient: false,
    };
}

struct Judge<'a> {
    scene: &'a Scene,
    options: &'a Options,
    profile: &'static Profile,
    limits: GainLimits,
    /// The query for A.
    qa: Query,
    /// The query for B.
    qb: Query,
    offers: Vec<Offer>,
    graph: AttackGraph,
}

impl<'a> Judge<'a> {
    fn new(scene: &'a Scene, options: &'a Options, switches: Switches, cx: &mut Context) -> Self {
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
        let standing_a = standing(cx, &scene.after, Some(scene.m.to), material, limits);
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
                    // does not count; an unprotected one may still be won by another piece
                    // (26.10). Under AXF only the pair's own attack is the offer: any other
                    // attacker still chases (docs/profiles/axf.md).
                    let _ = forbid.try_push(Forbid {
                        victim: o.theirs,
                        by: (!protected_barred_for_all || !o.protected).then_some(o.mine),
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
            forbid,
            ..Query::new(material, limits)
        };
        Judge {
            scene,
            options,
            profile,
            limits,
            qa,
            qb,
            offers,
            graph: AttackGraph::build(scene.again.board()),
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
            let assessed = assess(cx, a, &self.graph, sq, self.profile.material, self.limits);
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
        t.new = self.is_new(sq, value, cx);
        t.participants = self.participants(sq, &line, &t.defenders, cx);
        t.joint = t.participants.len() >= 2;
        t.why = self.verdict(&t, piece);
        t.counted = matches!(t.why, Why::Chase(_));
        Some(t)
    }

    /// The line by which the side to move of `pos` wins the piece on `sq` under `q`, if it can,
    /// by the profile's chase test. The line comes with the search's value for it, which counts
    /// a forced mate at its end.
    fn wins(
        &self,
        pos: &Position,
        sq: Square,
        q: &Query,
        assessed: Option<&Assessment>,
        judged: Judged,
        cx: &mut Context,
    ) -> Option<Won> {
        match self.profile.chase_test {
            ChaseTest::NetGain(protector) => {
                net_gain_wins(pos, sq, q, assessed, judged, protector, cx)
            }
            ChaseTest::OnPoint => {
                super::profile::axf::wins(pos, sq, q, assessed?, &self.scene.after, cx)
            }
        }
    }

    /// Whether the gain on the piece on `sq`, worth `a_value` in A, is new: the piece could not
    /// be won in B, nor, when the mover was in check there, before the opponent's checking move
    /// (从捉到捉, item 6; an attack suspended by a check). A gain in B reached through checks has
    /// no fixed target until played, so it is compared by value: A's line must win more
    /// (docs/gain.md §2). Values are the searches', so a line ending in mate outweighs any material
    /// (the material along it says nothing of the mate).
    fn is_new(&self, sq: Square, a_value: i32, cx: &mut Context) -> bool {
        let old = |pos: &Position, sq: Square, cx: &mut Context| {
            if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
                return false;
            }
            let graph = AttackGraph::build(pos.board());
            let x = assess(cx, pos, &graph, sq, self.profile.material, self.limits);
            match self.wins(pos, sq, &self.qb, x.as_ref(), Judged::BEFORE, cx) {
                None => false,
                Some(b) => {
                    // Won without a series of checks: the same threat. Only through checks:
                    // compared by value.
                    let plain = Query {
                        checkless: true,
                        ..self.qb.targeting(sq)
                    };
                    cx.gains_in_move(pos, &plain) || settled(b.value) >= settled(a_value)
                }
            }
        };
        if old(&self.scene.before, sq, cx) {
            return false;
        }
        if let Some((earlier, check)) = &self.scene.suspended {
            let sq = if check.to == sq { check.from } else { sq };
            return !old(earlier, sq, cx);
        }
        true
    }

    /// The mover's pieces that take part in winning the piece on `sq` (联合捉, 2011 24.17): its
    /// capturer; if no attacker wins it alone, every attacker the gain needs (more attackers
    /// than roots); and pieces that pin or block one of its defenders (making a root false). A
    /// piece that only moves out of a line, lends its body as a screen or blocks a line by
    /// standing there does not make a chase joint (2011 figures 10, 26, 28). An attacker's part
    /// is judged with the others' attacks taken away and their bodies left standing; the
    /// opponent only recaptures.
    fn participants(
        &self,
        sq: Square,
        line: &[Move],
        defenders: &[Defender],
        cx: &mut Context,
    ) -> Vec<Square> {
        let a = &self.scene.again;
        let mover = a.turn();
        let own = Query {
            recaptures_only: true,
            ..self.qa.targeting(sq)
        };
        let wins = |pos: Option<Position>, cx: &mut Context| {
            pos.is_some_and(|p| cx.gains_in_move(&p, &own))
        };
        let mut attackers: Vec<Square> = attackers(a.board(), sq, mover).into_iter().collect();
        let capturer = capturer_of(a, line, sq);
        match capturer {
            Some(c) => {
                attackers.retain(|x| *x != c);
                attackers.insert(0, c);
            }
            None if attackers.is_empty() => return Vec::new(),
            None => {}
        }
        let all_but =
            |p: Square| -> Vec<Square> { attackers.iter().copied().filter(|x| *x != p).collect() };
        // One attacker alone, the others' attacks taken away?
        let alone = attackers
            .iter()
            .copied()
            .find(|&p| wins(inert(a, &all_but(p), sq), cx));
        let (base, mut out) = match alone {
            Some(p) => (inert(a, &all_but(p), sq).unwrap_or(*a), vec![p]),
            None => {
                let needed = attackers
                    .iter()
                    .copied()
                    .filter(|&p| !wins(inert(a, &[p], sq), cx))
                    .collect();
                (*a, needed)
            }
        };
        // Pieces that pin or block a defender: the gain needs them where they stand.
        for (p, piece) in base.board().pieces_of(mover) {
            if piece.role == Role::King || out.contains(&p) || attackers.contains(&p) {
                continue;
            }
            let by_defender = defenders
                .iter()
                .any(|d| on_line(p, d.square) || near(p, d.square) || between(p, d.square, sq));
            if !by_defender {
                continue;
            }
            let mut board = *base.board();
            board.set(p, None);
            if !wins(Position::from_parts(board, mover, 0, 1), cx) {
                out.push(p);
            }
        }
        out.sort();
        out
    }

    /// Whether a new gain on `t` counts under the profile (`Why::Chase`), and why.
    fn verdict(&self, t: &Target, piece: Piece) -> Why {
        let profile = self.profile;
        let mover = self.scene.again.turn();
        if !t.new {
            return Why::NotNew(profile.chase_articles.not_new);
        }
        if matches!(piece.role, Role::Advisor | Role::Elephant) && self.key_point(mover) {
            return Why::KeyPoint {
                asserted: self.options.defensive_key_point.get(mover),
                article: profile.key_point.article,
            };
        }
        if let Some(article) = profile.pinned_rook
            && let Some(cannon) =
                super::profile::axf::rook_pinned_by_cannon(&self.scene.before, self.scene.m)
            && t.line
                .first()
                .is_some_and(|m| m.iccs.starts_with(&self.scene.m.to.to_string()))
        {
            return Why::PinnedRook { cannon, article };
        }
        Why::Chase(if t.means == Means::Checks {
            profile.chase_articles.by_checks
        } else {
            profile.chase_articles.chase
        })
    }

    /// Whether the mover's side is taken to hold a defensive key point: asserted by the request,
    /// or, under 2011, plain from the position (its single attacking piece against several).
    fn key_point(&self, mover: Color) -> bool {
        if self.options.defensive_key_point.get(mover) {
            return true;
        }
        if !self.profile.key_point.plain_from_position {
            return false;
        }
        let a = &self.scene.again;
        let attacking = |c: Color| {
            a.board()
                .pieces_of(c)
                .filter(|(sq, p)| {
                    matches!(p.role, Role::Rook | Role::Horse | Role::Cannon)
                        || (p.role == Role::Pawn && !sq.on_own_half(c))
                })
                .count()
        };
        attacking(mover) == 1 && attacking(!mover) >= 2
    }
}

/// The Chinese chase test: the line by which the side to move of `pos` wins the piece on `sq`
/// under `q`: a net gain that takes the piece, or, when `lenient` (the chase being judged, in
/// A), a capture that wins the piece on its point and loses at most what the capturer's
/// departure exposes (2011 26.5: the whole even or better; 1999 item 4: whatever the whole),
/// the best of the captures that qualify.
fn net_gain_wins(
    pos: &Position,
    sq: Square,
    q: &Query,
    assessed: Option<&Assessment>,
    judged: Judged,
    protector: ProtectorChase,
    cx: &mut Context,
) -> Option<Won> {
    let Judged { any_gain, lenient } = judged;
    if any_gain && let Some(g) = winning(cx, pos, &q.targeting(sq)) {
        return Some(Won::from(g));
    }
    let x = assessed?;
    // Won on its own point: no real root, or the exchange there wins.
    let on_point = x.gains()
        || matches!(
            x.protection,
            Protection::Unprotected | Protection::FalseRoot
        );
    if !(lenient && on_point) {
        return None;
    }
    let mut best = Best::new(pos);
    for &(c, _) in &x.captures {
        if excluded(q, sq, c) {
            continue;
        }
        let g = search(cx, pos, &q.starting(c));
        if g.gains() {
            best.keep(g);
            continue;
        }
        // The loss comes from what the capturer's departure exposes (a root it gave, a line it
        // opened): 2011 26.5 counts the chase if the whole is even, 1999 item 4 whatever the
        // whole.
        let mut p = *pos;
        p.play_unchecked(c);
        let exposed = g
            .line
            .get(1)
            .is_some_and(|r| r.to != c.to && p.piece_at(r.to).is_some());
        if exposed && (protector == ProtectorChase::Counts || g.value >= 0) {
            best.keep(g);
        }
    }
    best.line()
}

/// The best of the winning lines offered to it: every capture is tried and the best line kept,
/// since which of two captures comes first goes by the points' order, and a mirrored board must
/// be ruled alike. Better is a higher search value (every mate alike), then more material.
pub(crate) struct Best<'p> {
    pos: &'p Position,
    best: Option<Won>,
}

impl<'p> Best<'p> {
    /// None yet, for lines from `pos`.
    pub(crate) fn new(pos: &'p Position) -> Best<'p> {
        Best { pos, best: None }
    }

    /// Keeps `g` if it is better than the best so far.
    pub(crate) fn keep(&mut self, g: Gain) {
        let gain = |line: &[Move]| line_material(self.pos, line).report_value();
        let better = self
            .best
            .as_ref()
            .is_none_or(|b| (settled(g.value), gain(&g.line)) > (settled(b.value), gain(&b.line)));
        if better {
            self.best = Some(Won::from(g));
        }
    }

    /// The best line kept, if any.
    pub(crate) fn line(self) -> Option<Won> {
        self.best
    }
}

/// Whether `q` leaves out the capture `c` of the piece on `sq`: the piece is offered (兑) and
/// barred to this capturer, or the capture is a king's or pawn's free one.
pub(crate) fn excluded(q: &Query, sq: Square, c: Move) -> bool {
    q.forbid
        .iter()
        .any(|f| f.victim == sq && f.by.is_none_or(|b| b == c.from))
        || q.free.contains(&c)
}

/// The report skeleton of the enemy piece on `sq` of `pos`, not (yet) chased.
fn base_target(pos: &Position, sq: Square, piece: Piece, x: Option<&Assessment>) -> Target {
    Target {
        square: sq,
        piece,
        attackers: x.map(Assessment::attackers).unwrap_or_default(),
        defenders: x.map(|x| x.defenders.clone()).unwrap_or_default(),
        protection: x.map_or(Protection::Unprotected, |x| x.protection),
        gain: 0,
        means: Means::Capture,
        new: false,
        joint: false,
        line: x
            .map(|x| LineMove::line(pos, &[x.best]))
            .unwrap_or_default(),
        participants: Vec::new(),
        counted: false,
        reason: String::new(),
        reason_zh: String::new(),
        article: None,
        why: Why::WinsNothing,
    }
}

/// `pos` with the mover's pieces on `gone` made inert for the point `sq`: each replaced by a
/// body of its side that attacks nothing there (an advisor off its palace, else a pawn), so it
/// still blocks lines, screens cannons and holds legs; `None` if no such body fits. A body never
/// attacks the enemy king: an advisor put in the enemy's palace would take it, a move no legal
/// position has and no search expects.
fn inert(pos: &Position, gone: &[Square], sq: Square) -> Option<Position> {
    let mover = pos.turn();
    let king = pos.king(!mover);
    let mut board = *pos.board();
    for &g in gone {
        let body = [Role::Advisor, Role::Pawn].into_iter().find_map(|role| {
            let mut b = board;
            b.set(g, Some(Piece { color: mover, role }));
            let reach = targets(&b, g);
            (!reach.contains(&sq) && !reach.contains(&king)).then_some(b)
        });
        board = body?;
    }
    Position::from_parts(board, mover, 0, 1)
}

/// Where the piece that captures the one on `sq` along `line` stands at the line's start.
fn capturer_of(pos: &Position, line: &[Move], sq: Square) -> Option<Square> {
    let mover = pos.turn();
    let mut p = *pos;
    let mut target = sq;
    // Where each of the mover's pieces of the start now stands: (start, now).
    let mut track: Vec<(Square, Square)> =
        pos.board().pieces_of(mover).map(|(s, _)| (s, s)).collect();
    for &m in line {
        if p.turn() == mover {
            if m.to == target {
                return track
                    .iter()
                    .find(|(_, now)| *now == m.from)
                    .map(|(s, _)| *s);
            }
            for t in &mut track {
                if t.1 == m.from {
                    t.1 = m.to;
                }
            }
        } else {
            track.retain(|(_, now)| *now != m.to);
            if m.from == target {
                target = m.to;
            }
        }
        p.play_unchecked(m);
    }
    None
}

/// Whether two points share a file or a rank.
fn on_line(a: Square, b: Square) -> bool {
    a.file() == b.file() || a.rank() == b.rank()
}

/// Whether `a` is next to `b` (a horse's leg or an elephant's eye).
fn near(a: Square, b: Square) -> bool {
    (i32::from(a.file()) - i32::from(b.file())).abs() <= 1
        && (i32::from(a.rank()) - i32::from(b.rank())).abs() <= 1
}

/// Whether `p` stands between `a` and `b` on their file or rank.
fn between(p: Square, a: Square, b: Square) -> bool {
    let within = |x: u8, y: u8, z: u8| x.min(z) < y && y < x.max(z);
    (a.file() == b.file() && p.file() == a.file() && within(a.rank(), p.rank(), b.rank()))
        || (a.rank() == b.rank() && p.rank() == a.rank() && within(a.file(), p.file(), b.file()))
}

/// The frame of B: every answer of the opponent counts except the threats it has both before and
/// after the move, which the move did nothing to (else a move elsewhere would seem to make new
/// every gain such a threat spoils in B).
fn common_threats(
    cx: &mut Context,
    scene: &Scene,
    standing_a: &[Move],
    material: Arithmetic,
    limits: GainLimits,
) -> Frame {
    let Some(b_opp) = scene.before.with_turn_passed() else {
        return Frame::Before;
    };
    let common: ArrayVec<Move, 48> = standing(cx, &b_opp, None, material, limits)
        .into_iter()
        .filter(|m| standing_a.iter().any(|a| a.to == m.to))
        .collect();
    let mut mates = |p: &Position| {
        let mut b = super::tactics::mate::Budget::new(limits.mate_nodes);
        super::tactics::mate::mate_by_checks(cx, p, limits.mate_plies, &mut b).is_some()
    };
    let old_mates = mates(&b_opp) && mates(&scene.after);
    if common.is_empty() && !old_mates {
        return Frame::Before;
    }
    Frame::Standing {
        standing: common,
        old_mates,
    }
}

/// The opponent's captures in `after` (it is to move) that win on their point, and every
/// capture of the piece that just moved to `moved`.
fn standing(
    cx: &mut Context,
    after: &Position,
    moved: Option<Square>,
    material: Arithmetic,
    limits: GainLimits,
) -> ArrayVec<Move, 48> {
    let mut out = ArrayVec::new();
    for (sq, piece) in after.board().pieces_of(!after.turn()) {
        if piece.role == Role::King {
            continue;
        }
        for c in legal_captures(after, sq) {
            let counts = Some(sq) == moved
                || super::protection::exchange_wins(cx, after, c, material, limits);
            if counts && out.try_push(c).is_err() {
                return out;
            }
        }
    }
    out
}

/// The mover's captures in A that win nothing by themselves: the king's and pawns' own threats,
/// as the profile's `free_captures` says (1999 27.1–27.2: the moved king or pawn; 2011 26.1: any
/// king or pawn, unless the moved piece attacks the same piece, the pawn's capture uncovers a
/// check (26.7) or, made possible by another piece's move, takes a rook (26.6)). AXF: none here;
/// its own chase test leaves kings and pawns out.
fn free_captures(scene: &Scene, profile: &Profile, switches: Switches) -> ArrayVec<Move, 8> {
    let rule = profile.free_captures;
    let a = &scene.again;
    let mut out = ArrayVec::new();
    let moved_attacks = |sq: Square| targets(a.board(), scene.m.to).contains(&sq);
    for (from, piece) in a.board().pieces_of(a.turn()) {
        let free_kind = match piece.role {
            Role::King => true,
            Role::Pawn => !switches.pawns_chase,
            _ => false,
        };
        if !free_kind {
            continue;
        }
        let applies = match rule.pieces {
            FreePieces::None => false,
            FreePieces::Moved => from == scene.m.to,
            FreePieces::Any => true,
        };
        if !applies {
            continue;
        }
        for m in a.legal_moves_from(from) {
            let Some(victim) = a.piece_at(m.to) else {
                continue;
            };
            if victim.color == a.turn() {
                continue;
            }
            if rule.unless_moved_piece_attacks && from != scene.m.to && moved_attacks(m.to) {
                continue;
            }
            // A pawn's capture that uncovers a check (26.7), or, made possible by another piece's
            // move, gives the pawn for a rook (26.6), is no longer the pawn's free threat; the
            // moved pawn's own threat on a rook stays free (figure 14).
            if piece.role == Role::Pawn
                && ((rule.unless_pawn_checks && gives_check(a, m))
                    || (rule.unless_pawn_takes_rook
                        && victim.role == Role::Rook
                        && from != scene.m.to))
            {
                continue;
            }
            let _ = out.try_push(m);
        }
    }
    out
}

fn gives_check(pos: &Position, m: Move) -> bool {
    let mut p = *pos;
    p.play_unchecked(m);
    p.is_check()
}

/// The pairs of one kind that can take each other in A (the mover's piece takes in A, the
/// opponent's in `after`), with the acceptance test of 2011 26.9: the opponent takes first and
/// the mover answers; accepted when the opponent is then neither mated nor down material.
fn same_type_pairs(
    scene: &Scene,
    material: Arithmetic,
    limits: GainLimits,
    cx: &mut Context,
) -> Vec<Offer> {
    let a = &scene.again;
    let after = &scene.after;
    let mover = a.turn();
    let mut out = Vec::new();
    let graph = AttackGraph::build(a.board());
    for (theirs, o) in a.board().pieces_of(!mover) {
        if !Material::is_material(o, theirs) || o.role == Role::Pawn {
            continue;
        }
        for take in legal_captures(a, theirs) {
            let Some(mine) = a.piece_at(take.from) else {
                continue;
            };
            if mine.role != o.role {
                continue;
            }
            let back = Move::new(theirs, take.from);
            if !after.is_legal(back) {
                continue;
            }
            let g = search(cx, after, &Query::new(material, limits).starting(back));
            let accepted = g.value >= 0 && !g.mates();
            let protected = assess(cx, a, &graph, theirs, material, limits)
                .is_some_and(|x| x.defenders.iter().any(|d: &Defender| d.real));
            out.push(Offer {
                mine: take.from,
                theirs,
                accepted,
                protected,
            });
        }
    }
    out
}
