//! Property tests (issue 6 item 5): random legal games and random repetition cycles, from the opening
//! and from corpus positions, under every rule profile. A ruling never panics, every move's
//! mate-threat search stays within its `SearchLimits`, and the ruling obeys the colour-swap symmetry
//! (verdict's colours and the sides' labels swap) and the left-right mirror (nothing changes).
//!
//! The inputs are lists of `Index` choices among the legal moves of each position, so proptest
//! shrinks a failure towards the first legal moves; the failing FEN and moves are in the message.

use proptest::prelude::*;
use proptest::sample::Index;
use qili::corpus;
use qili::rules::{self, Options, Ruleset, Ruling, SearchLimits};
use qili::{Move, Notation, Position, write_move};
use std::path::Path;
use std::sync::OnceLock;

/// The opening and every position along every corpus case (start included), deduplicated.
fn seeds() -> &'static [Position] {
    static SEEDS: OnceLock<Vec<Position>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut out = vec![Position::start()];
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
        // An unreadable corpus is reported by tests/corpus.rs; the opening is enough here.
        for case in corpus::load(&dir).unwrap_or_default() {
            let Ok((start, moves)) = case.request().parse() else {
                continue;
            };
            out.extend(rules::positions(&start, &moves));
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|p| seen.insert(p.hash()));
        out
    })
}

/// `pos` after up to `picks.len()` random legal moves (fewer if a side has none).
fn random_walk(mut pos: Position, picks: &[Index]) -> (Position, Vec<Move>) {
    let mut moves = Vec::new();
    for pick in picks {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[pick.index(legal.len())];
        pos.play_unchecked(m);
        moves.push(m);
    }
    (pos, moves)
}

/// The moves of the side to move that capture nothing, starting the list at `pick`; with
/// `prefer`, those it scores highest come first (the order is otherwise kept).
fn quiet_moves(pos: &Position, pick: Index, prefer: Option<&dyn Fn(Move) -> u8>) -> Vec<Move> {
    let mut quiet: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| pos.piece_at(m.to).is_none())
        .collect();
    if !quiet.is_empty() {
        let k = pick.index(quiet.len());
        quiet.rotate_left(k);
    }
    if let Some(score) = prefer {
        quiet.sort_by_key(|&m| std::cmp::Reverse(score(m)));
    }
    quiet
}

/// Whether `m` played in `pos` gives check (0 or 1).
fn gives_check(pos: &Position, m: Move) -> u8 {
    u8::from(pos.play(m).is_ok_and(|p| p.is_check()))
}

/// Plays `moves` from `start` if every one is legal and captures nothing; the final position.
fn play_quiet(start: &Position, moves: &[Move]) -> Option<Position> {
    let mut pos = *start;
    for &m in moves {
        if pos.piece_at(m.to).is_some() {
            return None;
        }
        pos = pos.play(m).ok()?;
    }
    Some(pos)
}

fn back(m: Move) -> Move {
    Move::new(m.to, m.from)
}

/// Most candidate cycles tried for one input, so a crowded position cannot stall the test.
const MAX_TRIES: usize = 400;

/// A cycle from `pos` (`checks_first` per side: the side to move, then the other): each side shuttles one piece out and back (`[a, x, a', x']`), or with
/// `two_pairs` two pieces out and both back (`[a, x, b, y, a', x', b', y']`); played `rounds` times,
/// so the start position occurs `rounds + 1` times. `None` if no such cycle is found.
fn cycle(
    pos: &Position,
    picks: &[Index; 4],
    checks_first: (bool, bool),
    two_pairs: bool,
    rounds: usize,
) -> Option<Vec<Move>> {
    let mut tries = 0;
    // With `checks_first`, a side prefers moves that check, and the other side prefers replies
    // after which the way back checks again (a perpetual check).
    let a_checks = |m: Move| gives_check(pos, m);
    for a in quiet_moves(pos, picks[0], checks_first.0.then_some(&a_checks)) {
        let p1 = pos.play(a).ok()?;
        let back_checks = |x: Move| p1.play(x).map_or(0, |p2| gives_check(&p2, back(a)));
        let p1_checks = |m: Move| gives_check(&p1, m);
        let x_order: Option<&dyn Fn(Move) -> u8> = if checks_first.0 {
            Some(&back_checks)
        } else if checks_first.1 {
            Some(&p1_checks)
        } else {
            None
        };
        for x in quiet_moves(&p1, picks[1], x_order) {
            let p2 = p1.play(x).ok()?;
            let cycles: Vec<Vec<Move>> = if two_pairs {
                let mut found = Vec::new();
                'outer: for b in quiet_moves(&p2, picks[2], None) {
                    if b.from == a.to {
                        continue;
                    }
                    let Ok(p3) = p2.play(b) else { continue };
                    for y in quiet_moves(&p3, picks[3], None) {
                        if y.from == x.to {
                            continue;
                        }
                        found.push(vec![a, x, b, y, back(a), back(x), back(b), back(y)]);
                        if found.len() >= 4 {
                            break 'outer;
                        }
                    }
                }
                found
            } else {
                vec![vec![a, x, back(a), back(x)]]
            };
            for one in cycles {
                tries += 1;
                if tries > MAX_TRIES {
                    return None;
                }
                let all: Vec<Move> = one
                    .iter()
                    .cycle()
                    .take(one.len() * rounds)
                    .copied()
                    .collect();
                if let Some(end) = play_quiet(pos, &all)
                    && end.hash() == pos.hash()
                {
                    return Some(all);
                }
            }
        }
    }
    None
}

/// The request text of `moves` from `start` in `notation` (each written in its own position).
fn texts(start: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = *start;
    moves
        .iter()
        .map(|&m| {
            let t = write_move(&pos, m, notation);
            pos.play_unchecked(m);
            t
        })
        .collect()
}

fn describe(start: &Position, moves: &[Move], ruleset: Ruleset) -> String {
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    format!(
        "ruleset {ruleset} fen {:?} moves {:?}",
        start.fen(),
        moves.join(" ")
    )
}

/// Every move's search report stays within `limits`.
fn check_bounds(ruling: &Ruling, limits: &SearchLimits, what: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(ruling.search.max_nodes, limits.ruling_nodes, "{}", what);
    prop_assert!(
        ruling.search.nodes <= limits.ruling_nodes,
        "{what}: the ruling's searches visited {} positions, bound {}",
        ruling.search.nodes,
        limits.ruling_nodes
    );
    for m in &ruling.moves {
        let s = &m.mate_search;
        prop_assert_eq!(s.max_plies, limits.mate_plies, "{} ply {}", what, m.ply);
        prop_assert_eq!(s.max_nodes, limits.mate_nodes, "{} ply {}", what, m.ply);
        // `nodes` adds up the two searches a mate threat needs (after the move, and before it
        // to see whether the threat is new), each bounded by `max_nodes` (SearchReport docs).
        prop_assert!(
            s.nodes <= 2 * s.max_nodes,
            "{what} ply {}: {} nodes visited, limit {} per search",
            m.ply,
            s.nodes,
            s.max_nodes
        );
    }
    Ok(())
}

/// Whether a search of the ruling was cut by its bound: what it found then depends on the order
/// moves were tried in, which a colour swap or a mirror changes, so the symmetries are only
/// required without it.
fn exhausted(r: &Ruling) -> bool {
    r.search.budget_exhausted
        || r.moves
            .iter()
            .any(|m| m.mate_search.budget_exhausted || m.gain_search.budget_exhausted)
}

fn kinds(r: &Ruling) -> Vec<rules::MoveKind> {
    r.moves.iter().map(|m| m.kind).collect()
}

/// Rules on `moves` from `start` and its two transforms; checks the bounds and the symmetries.
fn check_ruling(
    start: &Position,
    moves: &[Move],
    options: &Options,
) -> Result<Ruling, TestCaseError> {
    let what = describe(start, moves, options.ruleset);
    let base = rules::rule(start, moves, options);
    check_bounds(&base, &options.limits, &what)?;

    let swapped_moves: Vec<Move> = moves.iter().map(|m| m.flip_ranks()).collect();
    let swapped_options = Options {
        told_to_change: options.told_to_change.swapped(),
        defensive_key_point: options.defensive_key_point.swapped(),
        ..*options
    };
    let swapped = rules::rule(&start.flip_colors(), &swapped_moves, &swapped_options);
    check_bounds(&swapped, &options.limits, &what)?;

    let mirrored_moves: Vec<Move> = moves.iter().map(|m| m.mirror_files()).collect();
    let mirrored = rules::rule(&start.mirror_files(), &mirrored_moves, options);
    check_bounds(&mirrored, &options.limits, &what)?;

    if !exhausted(&base) && !exhausted(&swapped) {
        prop_assert_eq!(
            swapped.verdict,
            base.verdict.flip_colors(),
            "colour swap: {}",
            what
        );
        prop_assert_eq!(
            swapped.red.pattern,
            base.black.pattern,
            "colour swap: {}",
            what
        );
        prop_assert_eq!(
            swapped.black.pattern,
            base.red.pattern,
            "colour swap: {}",
            what
        );
        prop_assert_eq!(kinds(&swapped), kinds(&base), "colour swap: {}", what);
    }
    if !exhausted(&base) && !exhausted(&mirrored) {
        prop_assert_eq!(mirrored.verdict, base.verdict, "mirror: {}", what);
        prop_assert_eq!(mirrored.red.pattern, base.red.pattern, "mirror: {}", what);
        prop_assert_eq!(
            mirrored.black.pattern,
            base.black.pattern,
            "mirror: {}",
            what
        );
        prop_assert_eq!(kinds(&mirrored), kinds(&base), "mirror: {}", what);
    }
    Ok(base)
}

fn ruleset() -> impl Strategy<Value = Ruleset> {
    prop::sample::select(Ruleset::ALL.to_vec())
}

/// Search limits from tiny to the defaults, so the bound is checked where it bites.
fn limits() -> impl Strategy<Value = SearchLimits> {
    prop_oneof![
        3 => Just(SearchLimits::default()),
        1 => (1u32..=9, 1u64..=2_000).prop_map(|(mate_plies, mate_nodes)| SearchLimits {
            mate_plies,
            mate_nodes,
            ..SearchLimits::default()
        }),
        1 => (1u64..=20_000).prop_map(|ruling_nodes| SearchLimits {
            ruling_nodes,
            ..SearchLimits::default()
        }),
    ]
}

fn options(ruleset: Ruleset, limits: SearchLimits, told: (bool, bool)) -> Options {
    Options {
        ruleset,
        limits,
        told_to_change: rules::BySide {
            red: told.0,
            black: told.1,
        },
        ..Options::default()
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Failures are reported with their FEN and moves; no files are written into the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(512))]

    /// Random legal games from the opening or a corpus position: the ruling is bounded and
    /// symmetric, and the same moves written in WXF or Chinese notation get the same ruling.
    #[test]
    fn random_games(
        seed in any::<Index>(),
        picks in prop::collection::vec(any::<Index>(), 0..60),
        ruleset in ruleset(),
        limits in limits(),
        notation in prop::sample::select(vec![Notation::Iccs, Notation::Wxf, Notation::Chinese]),
    ) {
        let seeds = seeds();
        let start = seeds[seed.index(seeds.len())];
        let (_, moves) = random_walk(start, &picks);
        let options = options(ruleset, limits, (false, false));
        let ruling = check_ruling(&start, &moves, &options)?;

        let request = qili::request::Request {
            fen: start.fen(),
            moves: texts(&start, &moves, notation).into(),
            notation: None,
            options,
        };
        let read = qili::request::adjudicate(&request);
        prop_assert!(
            read.is_ok(),
            "{notation} texts {:?} not read back: {:?} ({})",
            request.moves,
            read.err(),
            describe(&start, &moves, ruleset)
        );
        prop_assert_eq!(read.ok(), Some(ruling), "{} via {}", describe(&start, &moves, ruleset), notation);
    }

    /// Random cycles: from a position along a random game, each side shuttles a piece (or two)
    /// out and back, once or twice round.
    #[test]
    fn random_cycles(
        seed in any::<Index>(),
        walk in prop::collection::vec(any::<Index>(), 0..4),
        picks in any::<[Index; 4]>(),
        checks_first in any::<(bool, bool)>(),
        two_pairs in any::<bool>(),
        rounds in 1usize..=2,
        told in any::<(bool, bool)>(),
        ruleset in ruleset(),
        limits in limits(),
    ) {
        let seeds = seeds();
        let (pos, _) = random_walk(seeds[seed.index(seeds.len())], &walk);
        let Some(moves) = cycle(&pos, &picks, checks_first, two_pairs, rounds) else {
            // A blocked position (or none found within the tries): nothing to rule on.
            return Ok(());
        };
        let options = options(ruleset, limits, told);
        let ruling = check_ruling(&pos, &moves, &options)?;
        let what = describe(&pos, &moves, ruleset);
        prop_assert_ne!(ruling.verdict, rules::Verdict::NoRepetition, "{}", what);
        prop_assert_eq!(ruling.repetitions as usize, rounds + 1, "{}", what);
    }
}

/// Failures the properties found, shrunk, kept so that they stay fixed.
#[test]
fn found_asymmetries_stay_fixed() {
    let found = [
        // cxa1999, ply 4 (车五进二): the advisor on e8 was already winnable in B by a line ending in
        // mate; the material along that line read as a gain in one colour and a loss in the
        // other, so the move was idle in one and a chase in the other. Newness now compares the
        // searches' values, a mate outweighing any material.
        (
            Ruleset::Cxa1999,
            "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
            "e3e1 c6c5 i3i0 h9h1 e1e3 c5c6 i0i3 h1h9",
        ),
        // cxa1999, ply 0 (马７进８ and its mirror): two black cannons can take the red advisor on
        // d0 and net the same; which one the protection was judged by went by the points' order,
        // and after one of them the advisor's protectors are false, after the other real. The
        // capturer now takes the capture that leaves the weakest root.
        (
            Ruleset::Cxa1999,
            "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/6N2/P1P5P/2N1C4/3RA4/1cBAK1cr1 b - - 3 2",
            "c7b5 d1a1 b5c7 a1d1",
        ),
        // cxa2011, ply 3 (车四平二 and its colour swap): the rook offers itself to both black
        // rooks (on the rank and on the file) and threatens mate by taking the one on the file.
        // A mate resting on taking an offered piece is no mate threat (26.9), but only the
        // first offer in the board's order was kept from the mate search, so the threat counted
        // in one colour and not the other. Every offered piece is now kept from it.
        (
            Ruleset::Cxa2011,
            "2bak2r1/4aP3/4b4/4C4/4P4/2r4R1/4R4/B8/1p7/c3K4 b - - 1 2",
            "a0a1 h4e4 a1a0 e4h4",
        ),
        // cxa1999, ply 0 (马二进三): a panic. Telling which attackers take part in winning the
        // advisor on f9, the rook on f8 was replaced by an inert body, an advisor, which in
        // black's palace could step onto the black king: the mate search took the king and
        // then moved a king that was gone. A body now never attacks the enemy king, and the
        // check generator never lands on it.
        (
            Ruleset::Cxa1999,
            "2b1ka1c1/4aR3/4b4/pc5Np/2p1n4/2P1C4/P5PrP/2N1BC3/9/3AKAB2 w - - 1 4",
            "h6g8 h3h0 g8h6 h0h3",
        ),
        // cxa1999, ply 1 (炮５平１ and its mirror): the horse takes the falsely rooted advisor on
        // f0, and red's two best answers are worth the same: the advisor e1 takes the horse back,
        // or takes the cannon on d0. Whether the loss came from what the capture exposed (item 4)
        // was read off the line the search showed, which went by the points' order: 捉 in one,
        // 闲 in the other. Of equal answers the one elsewhere is now shown.
        (
            Ruleset::Cxa1999,
            "5aR2/3ka4/4c4/4R4/9/2P3p2/P1r6/4B4/4A2n1/2BcKA3 w - - 2 2",
            "e6e4 e7a7 e4e6 a7e7",
        ),
        // axf, ply 3 (炮２平１ and its mirror): both black cannons can take the red advisor on d0
        // (over the king, over the elephant), for different nets; the first capture in the
        // order of the attack scan that gained was taken as the threat, so the threat's worth,
        // and with it whether it was new, went by the side of the board. Every capture is now
        // searched and the best line kept.
        (
            Ruleset::Axf,
            "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/9/P1P5P/2N1C2N1/3RA4/1cBAK1cr1 w - - 2 2",
            "h6h3 a9b9 e2d2 b0a0 h3h6 b9a9 d2e2 a0b0",
        ),
        // cxa1999, ply 3 (车４进５ and its colour swap): the rook wins the protected horse f3 by
        // Rxf3, Nxf3, then a capture that checks (the cannon b0) and the advisor: in the other
        // colour the search found the same moves with the checking capture first, a series of
        // checks, whose newness is judged by value, so the chase counted in one colour only.
        // A line worth as much that takes the piece first is now preferred.
        (
            Ruleset::Cxa1999,
            "4k4/3r5/1r7/9/9/9/1C3N3/3N5/4A4/3K5 w - - 1 2",
            "e1f0 b7b4 b3b0 d8d3 f0e1 b4b7 b0b3 d3d8",
        ),
        // cxa1999, ply 1 (车９平６ and its colour swap): the rook answers the check by blocking
        // on f3, and both black rooks can take the red rook f2 for the same net; the line shown
        // began with the other rook's capture in one colour and with the answering rook's in
        // the other, and a threat is the answering piece's own (judged on B alone) by the
        // line's first capture. Of equal lines the moved piece's own capture is now shown.
        (
            Ruleset::Cxa1999,
            "5k3/9/3c5/4p4/9/4N4/8r/NR6r/9/3AKA3 w - - 4 3",
            "b2f2 i3f3 f2b2 f3i3",
        ),
        // cxa2011, ply 1 (仕六进五 and its colour swap): the advisor blocks the rook's check, and
        // the rook d2 can take the cannon d7, opening the checking rook's rank onto the horse a2;
        // the checking rook can take that horse or the horse e4, which hung before the capture,
        // for the same net. The search showed the one it met first, the exposed horse in one
        // colour (the 26.5 acceptance: 捉) and the hanging one in the other (闲). Of equal
        // answers elsewhere one that takes what the departure exposed is now read.
        (
            Ruleset::Cxa2011,
            "4k4/8r/3c5/4p4/9/4N4/9/N2R4r/9/3AKA3 b - - 0 1",
            "i2e2 d0e1 e2i2 e1d0",
        ),
        // cxa2011, ply 1 (后车退７ and its colour swap): the rook blocks the rook's check on c9
        // and can win the unprotected checking rook by a check of its own (车平４, then takes on
        // a9) or, for the same, after the other rook checks to and fro first. The search showed
        // the moved rook's line in one colour (the answering piece's own threat, judged on B
        // alone: 捉) and the other rook's in the other (a threat the check only suspended: 闲).
        // Of lines through checks worth the same, one starting with the moved piece's check is
        // now shown (24.3).
        (
            Ruleset::Cxa2011,
            "4k4/4a4/9/9/9/9/9/2r6/R1r6/3K5 w - - 5 4",
            "a1a9 c2c9 a9a1 c9c2",
        ),
        // cxa2011, ply 7 (车一平五 and its mirror): the rook returns to attack the unprotected
        // pawn e2 while the pawn h2 can take the horse h1 (the cannon d1 retakes over e1, the
        // rook h9 takes back). Whether that counter-threat was already there before the move
        // was read off the one line black's best gain happened to show, which took the horse
        // in the mirror and something else here: 闲 here, 捉 in the mirror. Each point is now
        // asked on its own: does a gain of black's take that piece.
        (
            Ruleset::Cxa2011,
            "1Pbak2r1/4a4/4b4/2p6/9/4R4/2P6/4p2p1/3CC2N1/5K3 b - - 1 1",
            "h9f9 h1f2 e2d2 e4i4 f9h9 f2h1 d2e2 i4e4",
        ),
        // cxa1999, ply 3 (车七退五 and its colour swap): the rook's retreat lets it win the horse
        // d9 by checks in a line that ends in mate, where before it could only take the horse
        // c9 on its file for a horse's worth. Newness asked B for a gain above the mate's
        // value less one and read the search's answer as a value; below the floor it is only a
        // bound, which in one colour lay just under the mate's value and read as a mate: the
        // horse was old there and new in the other. Now the answer is asked as "at least".
        (
            Ruleset::Cxa1999,
            "2nnk4/9/9/3P1R3/9/9/9/9/2R6/3K5 b - - 3 2",
            "c9b7 c1c6 b7c9 c6c1",
        ),
        // cxa1999, ply 6 (炮六退三 and its colour swap): in B red's rook steps off the file to
        // check through the cannon e3 and forks the rook h9 and the pawn h2; every answer of
        // black's is as bad, and the pawn falls after some of them (for 3, or 23 with the
        // rook). B's fork followed the first such answer in move order, worth 23 here (the
        // pawn, +11 in A, old: 闲) and 3 in the swap (new: 捉). A fork is now worth the least
        // of the answers that give the target up, and of the checks the best.
        (
            Ruleset::Cxa1999,
            "1Pbak2r1/4a4/4b4/2p6/9/4R4/2P1C4/2p4p1/3C3N1/5K3 w - - 0 1",
            "e4e6 h9h4 d1d4 e8d7 e6e4 h4h9 d4d1 d7e8",
        ),
    ];
    for (ruleset, fen, line) in found {
        let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut pos = start;
        let mut moves = Vec::new();
        for text in line.split_whitespace() {
            let m = qili::parse_move(&pos, text, Some(Notation::Iccs))
                .unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
            pos = pos.play(m).unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
            moves.push(m);
        }
        let options = options(ruleset, SearchLimits::default(), (false, false));
        if let Err(e) = check_ruling(&start, &moves, &options) {
            panic!("{e}");
        }
    }
}
