//! Metamorphic tests (issue 3 item 9): swapping colours (board flipped top to bottom) swaps the
//! verdict's colours and the sides' labels; mirroring left to right changes nothing. Checked on every
//! corpus case and on generated cycles.

use qili::corpus::{self, Case};
use qili::rules::{self, BySide, Options, Ruling};
use qili::{Move, Position};
use std::path::Path;

fn flip_move(text: &str, f: fn(Move) -> Move) -> String {
    let from = text[..2].parse().expect("ICCS square");
    let to = text[2..].parse().expect("ICCS square");
    f(Move::new(from, to)).to_string()
}

fn rule(start: &Position, moves: &[Move], options: &Options) -> Ruling {
    rules::rule(start, moves, options)
}

/// Whether every search of the ruling finished within its bounds. A search cut short by its
/// budget answers with what it has seen, which depends on the order moves are tried in, so only
/// complete rulings are expected to be symmetric (docs/rules.md §4).
fn complete(r: &Ruling) -> bool {
    r.moves
        .iter()
        .all(|m| !m.mate_search.budget_exhausted && !m.gain_search.budget_exhausted)
}

/// Checks the symmetries; false (nothing checked) if a search of one of the rulings ran out.
fn check_symmetry(name: &str, start: &Position, moves: &[Move], options: &Options) -> bool {
    let base = rule(start, moves, options);
    let flipped_moves: Vec<Move> = moves.iter().map(|m| m.flip_ranks()).collect();
    let flipped_options = Options {
        told_to_change: options.told_to_change.swapped(),
        defensive_key_point: options.defensive_key_point.swapped(),
        ..*options
    };
    let flipped = rule(&start.flip_colors(), &flipped_moves, &flipped_options);
    let mirrored_moves: Vec<Move> = moves.iter().map(|m| m.mirror_files()).collect();
    let mirrored = rule(&start.mirror_files(), &mirrored_moves, options);
    if !(complete(&base) && complete(&flipped) && complete(&mirrored)) {
        return false;
    }
    assert_eq!(
        flipped.verdict,
        base.verdict.flip_colors(),
        "{name}: colour swap gives {:?}, expected {:?}",
        flipped.verdict,
        base.verdict.flip_colors()
    );
    assert_eq!(
        flipped.red.pattern, base.black.pattern,
        "{name}: red label after swap"
    );
    assert_eq!(
        flipped.black.pattern, base.red.pattern,
        "{name}: black label after swap"
    );
    let kinds = |r: &Ruling| r.moves.iter().map(|m| m.kind).collect::<Vec<_>>();
    assert_eq!(
        kinds(&flipped),
        kinds(&base),
        "{name}: move kinds after swap"
    );

    assert_eq!(
        mirrored.verdict, base.verdict,
        "{name}: mirror changes the verdict"
    );
    assert_eq!(
        mirrored.red.pattern, base.red.pattern,
        "{name}: mirror changes red's label"
    );
    assert_eq!(
        mirrored.black.pattern, base.black.pattern,
        "{name}: mirror changes black's label"
    );
    assert_eq!(
        kinds(&mirrored),
        kinds(&base),
        "{name}: mirror changes move kinds"
    );
    true
}

/// The case's start and moves; `None` for a case that does not parse (tests/corpus.rs reports it).
fn case_moves(case: &Case) -> Option<(Position, Vec<Move>)> {
    let (start, moves) = case.request().parse().ok()?;
    // Round-trip the ICCS texts through the flip helpers once, so they are exercised too.
    for m in &moves {
        let text = m.to_string();
        assert_eq!(
            flip_move(&flip_move(&text, Move::flip_ranks), Move::flip_ranks),
            text
        );
    }
    Some((start, moves))
}

#[test]
fn every_corpus_case_is_symmetric() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = corpus::load(&dir).expect("corpus loads");
    assert!(!cases.is_empty());
    for case in &cases {
        let Some((start, moves)) = case_moves(case) else {
            continue;
        };
        let options = case.request().options;
        assert!(
            check_symmetry(&case.id, &start, &moves, &options),
            "{}: a search ran out of budget",
            case.id
        );
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A reversible move of the side to move: not a capture, and the way back is legal afterwards.
fn reversible(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| pos.piece_at(m.to).is_none())
        .collect();
    for _ in 0..moves.len() {
        let m = moves[rng.below(moves.len())];
        let Ok(after) = pos.play(m) else { continue };
        // The opponent moves in between; the way back is checked once its move is known.
        if after.piece_at(m.to).is_some() {
            return Some(m);
        }
    }
    None
}

/// Random cycles: from positions along random games, each side shuttles one piece out and back.
#[test]
fn generated_cycles_are_symmetric() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut made = 0;
    let mut cut = 0;
    let mut attempts = 0;
    while made < 40 && attempts < 2_000 {
        attempts += 1;
        let mut pos = Position::start();
        let plies = 10 + rng.below(40);
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if !ok {
            continue;
        }
        let Some(a) = reversible(&pos, &mut rng) else {
            continue;
        };
        let p1 = pos.play(a).expect("legal");
        let Some(x) = reversible(&p1, &mut rng) else {
            continue;
        };
        let p2 = p1.play(x).expect("legal");
        let a_back = Move::new(a.to, a.from);
        let Ok(p3) = p2.play(a_back) else { continue };
        let x_back = Move::new(x.to, x.from);
        if p3.play(x_back).is_err() {
            continue;
        }
        let cycle = [a, x, a_back, x_back];
        let moves: Vec<Move> = cycle.iter().chain(cycle.iter()).copied().collect();
        // Twice round must be legal all the way (the first pass was checked above).
        let mut check = pos;
        if moves.iter().any(|m| match check.play(*m) {
            Ok(next) => {
                check = next;
                false
            }
            Err(_) => true,
        }) {
            continue;
        }
        let mut all = true;
        for ruleset in qili::rules::Ruleset::ALL {
            let options = Options {
                ruleset,
                told_to_change: BySide::default(),
                ..Options::default()
            };
            all &= check_symmetry(
                &format!(
                    "generated {} {ruleset} moves {}",
                    pos.fen(),
                    cycle.map(|m| m.to_string()).join(" ")
                ),
                &pos,
                &moves,
                &options,
            );
        }
        if all {
            made += 1;
        } else {
            cut += 1;
        }
    }
    // Positions whose searches run out are rare; they must not crowd out the checked ones.
    assert!(
        cut <= made / 4,
        "{cut} cycles cut short against {made} complete"
    );
    assert!(
        made >= 40,
        "only {made} cycles generated in {attempts} attempts"
    );
}
