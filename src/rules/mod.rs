//! The rulings (棋例): cycle, move kinds, protection, patterns and verdicts. This module reads no
//! text: [`rule`] takes a position and legal moves ([`crate::request`] reads them from text).
//!
//! ```
//! use qili::rules::{Options, Verdict, rule};
//! use qili::{Move, Position, Square};
//! // Red's rook checks on rank 9 and rank 8 while black's king steps up and down:
//! // unilateral perpetual check loses (24.1).
//! let start = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w").unwrap();
//! let moves: Vec<Move> = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9"
//!     .split(' ')
//!     .map(|m| Move::new(m[..2].parse().unwrap(), m[2..].parse::<Square>().unwrap()))
//!     .collect();
//! let ruling = rule(&start, &moves, &Options::default());
//! assert_eq!(ruling.verdict, Verdict::RedLoses);
//! ```

pub mod article;
mod chase;
mod classify;
mod cycle;
mod kinds;
mod options;
pub mod profile;
mod protection;
mod report;
mod ruleset;
pub mod tactics;
mod verdict;
pub mod words;

pub use article::{ArticleId, ArticleText};
pub use cycle::{Cycle, find_cycle, positions};
pub use kinds::{IdleKind, MoveKind, Pattern, Protection, Verdict};
pub use options::{BySide, Options, RULING_NODES, SearchLimits, Texts};
pub use profile::{ClaimantChecks, GameRules, NaturalLimitRule, PROFILES, Profile};
pub use protection::legal_captures;
pub use report::{
    Defender, LineMove, Means, MoveReport, Ruling, RulingSearch, SearchReport, SideReport, Target,
    Why,
};
pub use ruleset::{Ruleset, UnknownRuleset};
pub use tactics::context::Context;
pub use tactics::gain::{Frame, Gain, GainLimits, Query, gain, line_material};
pub use tactics::graph::{AttackGraph, Edge, GraphView, PieceNode, Relation};
pub use tactics::mate::{Budget, mate_by_checks, mate_line};
pub use tactics::value::{Arithmetic, Material};
pub use verdict::{Decision, SideSummary, decide};

use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;
use chase::Switches;
use classify::{Played, classify};

/// Rules on `moves` (all legal) played from `start`, in named stages: find the cycle, classify
/// each move, summarise each side (with the profile's second look at mutual attacks), decide,
/// cite, and write the texts. One [`Context`] holds what the stages' searches share.
pub fn rule(start: &Position, moves: &[Move], options: &Options) -> Ruling {
    let Some(cycle) = find_cycle(start, moves) else {
        return no_repetition(options);
    };
    let game = Game {
        positions: positions(start, moves),
        moves,
        cycle,
    };
    let mut cx = Context::new(options.limits.ruling_nodes);
    let reports = classify_cycle(&mut cx, &game, options, BySide::default());
    let look = second_look(&mut cx, &game, options, &reports);
    conclude(cx, &game, reports, look, options)
}

/// A ruling stopped between two of its steps (see [`rule_within`]), to be finished with the
/// whole account of positions by [`Suspended::finish`].
pub struct Suspended {
    positions: Vec<Position>,
    cycle: Cycle,
    /// The searches' context as it was after the last step that fit.
    cx: Context,
    /// The cycle's moves classified so far, in order.
    reports: Vec<MoveReport>,
}

impl std::fmt::Debug for Suspended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Suspended")
            .field("cycle", &self.cycle)
            .field("classified", &self.reports.len())
            .field("spent", &self.cx.spent())
            .finish_non_exhaustive()
    }
}

/// [`rule`] with the searches' account cut to a prefix of `prefix` positions of the whole one
/// (`options.limits.ruling_nodes`), taken one step at a time (a move of the cycle, then the
/// second look at mutual attacks). The searches draw from the account one position at a time
/// and never look at what is left, so a step that ends with positions left found what it would
/// have found with the whole account. A step that spends the prefix is undone (the accounts and
/// the answers that change what the searches count are put back as they were before it) and
/// the ruling stops there: [`Suspended::finish`] goes on from that step
/// with the whole account, and gives `rule`'s ruling, its search counts included. So the steps
/// that fit are made once, and at most `prefix` positions are searched twice. A move of the
/// cycle is started only while at most `open` positions are spent (`open >= prefix`: always);
/// else the ruling stops before it, with nothing to undo.
pub fn rule_within(
    start: &Position,
    moves: &[Move],
    options: &Options,
    prefix: u64,
    open: u64,
) -> Result<Ruling, Box<Suspended>> {
    if prefix >= options.limits.ruling_nodes {
        return Ok(rule(start, moves, options));
    }
    let Some(cycle) = find_cycle(start, moves) else {
        return Ok(no_repetition(options));
    };
    let game = Game {
        positions: positions(start, moves),
        moves,
        cycle,
    };
    let mut cx = Context::new(prefix);
    let mut reports = Vec::with_capacity(cycle.length);
    for i in cycle.start..moves.len() {
        if cx.spent() > open {
            return Err(Suspended::at(game, cx, reports));
        }
        let mark = cx.mark();
        let report = classify_move(&mut cx, &game, i, options, Switches::default());
        if cx.exhausted() {
            cx.back_to(mark);
            return Err(Suspended::at(game, cx, reports));
        }
        reports.push(report);
    }
    let mark = cx.mark();
    let look = second_look(&mut cx, &game, options, &reports);
    if cx.exhausted() {
        cx.back_to(mark);
        return Err(Suspended::at(game, cx, reports));
    }
    Ok(conclude(cx, &game, reports, look, options))
}

impl Suspended {
    /// `game`'s ruling stopped with `cx` and the `reports` of the steps that fit.
    fn at(game: Game<'_>, cx: Context, reports: Vec<MoveReport>) -> Box<Suspended> {
        Box::new(Suspended {
            positions: game.positions,
            cycle: game.cycle,
            cx,
            reports,
        })
    }

    /// The ruling, from the step it stopped at, with the whole account of positions: `rule`'s
    /// for the same `moves` and `options` as [`rule_within`] was given.
    pub fn finish(self, moves: &[Move], options: &Options) -> Ruling {
        let Suspended {
            positions,
            cycle,
            mut cx,
            mut reports,
        } = self;
        cx.reopen(options.limits.ruling_nodes);
        let game = Game {
            positions,
            moves,
            cycle,
        };
        for i in cycle.start + reports.len()..moves.len() {
            let report = classify_move(&mut cx, &game, i, options, Switches::default());
            reports.push(report);
        }
        let look = second_look(&mut cx, &game, options, &reports);
        conclude(cx, &game, reports, look, options)
    }
}

/// Stage 3's outcome: each side's summary and, when the second look judged a side again, the
/// reports it made and the articles it cites.
struct SecondLook {
    sides: BySide<SideSummary>,
    /// The cycle's reports as the second look judged them again; `None`: as they were.
    reports: Option<Vec<MoveReport>>,
    cited: Vec<ArticleId>,
}

/// From the second look to the end: the search counts read off `cx`, then [`write_ruling`].
fn conclude(
    cx: Context,
    game: &Game<'_>,
    reports: Vec<MoveReport>,
    look: SecondLook,
    options: &Options,
) -> Ruling {
    let search = RulingSearch {
        nodes: cx.spent(),
        max_nodes: options.limits.ruling_nodes,
        budget_exhausted: cx.exhausted(),
    };
    drop(cx);
    let reports = look.reports.unwrap_or(reports);
    write_ruling(game, reports, &look.sides, &look.cited, search, options)
}

/// Stages 4 and 5: decide, cite and write the texts.
fn write_ruling(
    game: &Game<'_>,
    reports: Vec<MoveReport>,
    sides: &BySide<SideSummary>,
    mutual: &[ArticleId],
    search: RulingSearch,
    options: &Options,
) -> Ruling {
    let profile = options.ruleset.profile();
    let cycle = game.cycle;
    let decision = decide(profile, sides.red, sides.black, options.told_to_change);
    let articles = cite(profile, &reports, sides, mutual, &decision);
    let side_report = |c: Color| SideReport {
        color: c,
        pattern: sides.get(c).pattern,
        forbidden: sides.get(c).forbidden,
        told_to_change: options.told_to_change.get(c),
    };
    let mut ruling = Ruling {
        verdict: decision.verdict,
        ruleset: options.ruleset,
        repetitions: cycle.repetitions,
        cycle_start: cycle.start,
        cycle_length: cycle.length,
        red: side_report(Color::Red),
        black: side_report(Color::Black),
        moves: reports,
        articles,
        explanation_zh: String::new(),
        explanation_en: String::new(),
        search,
    };
    words::write(&mut ruling, options.texts);
    ruling
}

/// The moves of a dispute, every position of the sequence (the start, then the one after each
/// move) and the cycle.
struct Game<'a> {
    positions: Vec<Position>,
    moves: &'a [Move],
    cycle: Cycle,
}

/// Stage 2: classifies the cycle move at index `i` of the moves.
fn classify_move(
    cx: &mut Context,
    game: &Game<'_>,
    i: usize,
    options: &Options,
    switches: Switches,
) -> MoveReport {
    let played = Played {
        before: &game.positions[i],
        previous: i
            .checked_sub(1)
            .map(|j| (&game.positions[j], game.moves[j])),
    };
    classify(cx, played, game.moves[i], i, options, switches)
}

/// Stage 2: classifies every move of the cycle, each side's with its switches.
fn classify_cycle(
    cx: &mut Context,
    game: &Game<'_>,
    options: &Options,
    switches: BySide<Switches>,
) -> Vec<MoveReport> {
    (game.cycle.start..game.moves.len())
        .map(|i| classify_move(cx, game, i, options, switches.get(game.positions[i].turn())))
        .collect()
}

/// Stage 3: each side's pattern, whether it is forbidden and whether it is primary (2011 26.8).
fn summarise(profile: &Profile, game: &Game<'_>, reports: &[MoveReport]) -> BySide<SideSummary> {
    let start = game.cycle.start;
    let chased = chased_pieces(&game.positions[start], &game.moves[start..], reports);
    let of = |c: Color| {
        let mine: Vec<&MoveReport> = reports.iter().filter(|m| m.color == c).collect();
        let mine_chased: Vec<&Vec<u8>> = reports
            .iter()
            .zip(&chased)
            .filter(|(m, _)| m.color == c && m.kind == MoveKind::Chase)
            .map(|(_, ids)| ids)
            .collect();
        // AXF: a perpetual chase must be aimed at one and the same piece every time.
        let same_piece = mine_chased.first().is_some_and(|first| {
            first
                .iter()
                .any(|id| mine_chased.iter().all(|ids| ids.contains(id)))
        });
        verdict::summarise(profile, &mine, same_piece)
    };
    BySide {
        red: of(Color::Red),
        black: of(Color::Black),
    }
}

/// Stage 3, the profile's second look (1999 27.2 / item 11): when the other side attacks
/// perpetually, a pawn's attacks are chases, so a side whose pattern is allowed against a
/// forbidden one is judged again with its pawns' attacks counted, and keeps that judgement if it
/// makes its pattern forbidden. Each side is first summarised from `reports`, which stay as
/// they are (a second look cut short is made again from them).
fn second_look(
    cx: &mut Context,
    game: &Game<'_>,
    options: &Options,
    reports: &[MoveReport],
) -> SecondLook {
    let profile = options.ruleset.profile();
    let mut look = SecondLook {
        sides: summarise(profile, game, reports),
        reports: None,
        cited: Vec::new(),
    };
    let Some(articles) = profile.pawns_chase_in_mutual_attack else {
        return look;
    };
    let mut switches = BySide::<Switches>::default();
    for c in Color::ALL {
        if look.sides.get(c).forbidden || !look.sides.get(!c).forbidden {
            continue;
        }
        let mut again = switches;
        match c {
            Color::Red => again.red.pawns_chase = true,
            Color::Black => again.black.pawns_chase = true,
        }
        // Only `c`'s moves change with its switches.
        let rejudged: Vec<MoveReport> = look
            .reports
            .as_deref()
            .unwrap_or(reports)
            .iter()
            .map(|r| {
                if r.color == c {
                    classify_move(cx, game, r.ply, options, again.get(c))
                } else {
                    r.clone()
                }
            })
            .collect();
        let resides = summarise(profile, game, &rejudged);
        if resides.get(c).forbidden {
            switches = again;
            look.reports = Some(rejudged);
            look.sides = resides;
            look.cited.extend_from_slice(articles);
        }
    }
    look
}

/// Stage 5: the articles the ruling cites, each once, in the order applied: which patterns are
/// forbidden, the terms that named the moves (checks and mate threats, 1999), whatever decided
/// each attacked piece, the second look's, the same-piece rule's (AXF), and the verdict's.
fn cite(
    profile: &Profile,
    reports: &[MoveReport],
    sides: &BySide<SideSummary>,
    mutual: &[ArticleId],
    decision: &Decision,
) -> Vec<ArticleId> {
    let cites = &profile.citations;
    let mut ids: Vec<ArticleId> = Vec::new();
    ids.extend(cites.patterns);
    for r in reports {
        match r.kind {
            MoveKind::Check => ids.extend(cites.check),
            MoveKind::MateThreat => ids.extend(cites.mate_threat),
            _ => {}
        }
        ids.extend(r.targets.iter().filter_map(|t| t.why.article()));
    }
    ids.extend_from_slice(mutual);
    if let Some(a) = profile.same_piece
        && Color::ALL
            .into_iter()
            .any(|c| sides.get(c).pattern == Pattern::PerpetualChase && !sides.get(c).forbidden)
    {
        ids.push(a);
    }
    ids.extend(decision.articles.iter().copied());
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(*id));
    ids
}

/// For each cycle move, the pieces its counted targets are, as identities that follow the pieces
/// through the cycle (numbered by their squares at the cycle's start).
fn chased_pieces(start: &Position, moves: &[Move], reports: &[MoveReport]) -> Vec<Vec<u8>> {
    let mut ids: [Option<u8>; 90] = [None; 90];
    for (sq, _) in start.board().pieces() {
        ids[sq.index()] = Some(sq.index() as u8);
    }
    let mut out = Vec::with_capacity(moves.len());
    for (m, r) in moves.iter().zip(reports) {
        ids[m.to.index()] = ids[m.from.index()];
        ids[m.from.index()] = None;
        out.push(
            r.targets
                .iter()
                .filter(|t| t.counted)
                .filter_map(|t| ids[t.square.index()])
                .collect(),
        );
    }
    out
}

fn no_repetition(options: &Options) -> Ruling {
    let side = |color| SideReport {
        color,
        pattern: Pattern::Idle,
        forbidden: false,
        told_to_change: options.told_to_change.get(color),
    };
    let mut ruling = Ruling {
        verdict: Verdict::NoRepetition,
        ruleset: options.ruleset,
        repetitions: 1,
        cycle_start: 0,
        cycle_length: 0,
        red: side(Color::Red),
        black: side(Color::Black),
        moves: Vec::new(),
        articles: Vec::new(),
        search: RulingSearch {
            max_nodes: options.limits.ruling_nodes,
            ..RulingSearch::default()
        },
        explanation_zh: String::new(),
        explanation_en: String::new(),
    };
    words::write(&mut ruling, options.texts);
    ruling
}

/// The arbiter's "why" for one position: the attack/defence graph, every attacked piece with its
/// protection, and, when a move is given, that move judged.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Analysis {
    /// The position analysed: the one given, or the one after the move (serialised as its FEN).
    #[serde(rename = "fen", serialize_with = "fen_of")]
    pub position: Position,
    /// The attack/defence graph of the position analysed.
    pub graph: GraphView,
    /// Every piece attacked by the other side (both colours), judged as if its attacker were to move.
    pub attacked: Vec<Target>,
    /// The move, judged against `position`, if one was given.
    pub mv: Option<MoveReport>,
}

fn fen_of<S: serde::Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.fen())
}

/// Analyses `position`, or, if `mv` is given, the position after it, judging the move too.
/// A move that is not legal in `position` is ignored (callers validate it first).
pub fn analyze(position: &Position, mv: Option<Move>, options: &Options) -> Analysis {
    let mut cx = Context::new(options.limits.ruling_nodes);
    let mv = mv.filter(|m| position.is_legal(*m));
    let mut report = mv.map(|m| {
        let played = Played {
            before: position,
            previous: None,
        };
        classify(&mut cx, played, m, 0, options, Switches::default())
    });
    if let Some(r) = &mut report {
        words::write_move(r, options.texts);
    }
    let pos = match mv {
        Some(m) => {
            let mut p = *position;
            p.play_unchecked(m);
            p
        }
        None => *position,
    };
    let graph = AttackGraph::build(pos.board());
    let mut attacked = Vec::new();
    for side in Color::ALL {
        // The attacker to move; skip if that would leave its opponent in check (it gave check).
        let as_mover = if pos.turn() == side {
            Some(pos)
        } else {
            pos.with_turn_passed()
        };
        let Some(p) = as_mover else { continue };
        for (sq, piece) in p.board().pieces_of(!side) {
            if !Material::is_material(piece, sq) {
                continue;
            }
            if let Some(a) = protection::assess(
                &mut cx,
                &p,
                sq,
                options.ruleset.profile().material,
                options.limits.gain,
            ) {
                attacked.push(Target {
                    square: sq,
                    piece,
                    attackers: a.attackers(),
                    defenders: a.defenders.clone(),
                    protection: a.protection,
                    gain: if a.gains() {
                        a.material.report_value()
                    } else {
                        0
                    },
                    means: Means::Capture,
                    new: false,
                    joint: false,
                    line: LineMove::line(&p, &[a.best]),
                    participants: vec![a.best.from],
                    counted: false,
                    reason: String::new(),
                    reason_zh: String::new(),
                    article: None,
                    why: Why::Attacked,
                });
                if let Some(t) = attacked.last_mut() {
                    words::write_reason(t, options.texts);
                }
            }
        }
    }
    Analysis {
        position: pos,
        graph: graph.view(),
        attacked,
        mv: report,
    }
}
