//! Legal moves against an independent generator, game ends, checks, make/unmake and hashing,
//! symmetry, and the attack queries.
//!
//! `tests/data/movegen.jsonl` holds positions met in random games with their legal moves as listed
//! by Fairy-Stockfish (pyffish), written by `scripts/perft_reference.py --dump`.

use qili::attacks::{attackers, targets};
use qili::movegen;
use qili::{Board, Color, Move, MoveList, Outcome, Piece, Position, Role, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn position(fen: &str) -> Position {
    Position::from_fen_lenient(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted(moves: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn reference() -> Vec<(String, Vec<String>)> {
    let text = include_str!("data/movegen.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let fen = v["fen"].as_str().expect("a fen").to_string();
            let moves = v["moves"]
                .as_array()
                .expect("a move list")
                .iter()
                .map(|m| m.as_str().expect("a move").to_string())
                .collect();
            (fen, moves)
        })
        .collect()
}

#[test]
fn legal_moves_match_fairy_stockfish() {
    let cases = reference();
    assert!(cases.len() >= 300, "only {} positions", cases.len());
    for (fen, want) in &cases {
        let pos = position(fen);
        assert_eq!(&sorted(&pos.legal_moves()), want, "{fen}");
        assert_eq!(pos.count_legal_moves(), want.len(), "{fen}");

        // The slower paths agree: pseudo-legal moves filtered one by one, per-piece lists, and the
        // legality check of single moves.
        let us = pos.turn();
        let king = pos.king(us);
        let mut pseudo = MoveList::new();
        movegen::pseudo_legal(pos.board(), us, &mut pseudo);
        let mut filtered = pseudo.clone();
        movegen::retain_legal(pos.board(), us, king, &mut filtered);
        assert_eq!(&sorted(&filtered), want, "{fen}: retain_legal");
        let mut per_piece = MoveList::new();
        for (from, _) in pos.board().pieces_of(us) {
            per_piece.extend(pos.legal_moves_from(from));
        }
        assert_eq!(&sorted(&per_piece), want, "{fen}: legal_moves_from");
        for m in &pseudo {
            let legal = want.contains(&m.to_string());
            assert_eq!(pos.is_legal(*m), legal, "{fen}: {m}");
            assert_eq!(
                movegen::keeps_king_safe(pos.board(), us, king, *m),
                legal,
                "{fen}: {m}"
            );
        }
        assert_eq!(pos.has_legal_move(), !want.is_empty(), "{fen}");
    }
}

#[test]
fn illegal_moves_say_why() {
    use qili::IllegalMove;
    let pos = Position::start();
    let m = |s: &str| Move::new(sq(&s[..2]), sq(&s[2..]));
    assert!(matches!(
        pos.check_legal(m("e5e4")),
        Err(IllegalMove::NoPiece { .. })
    ));
    // A black piece is not red's to move.
    assert!(matches!(
        pos.check_legal(m("a9a8")),
        Err(IllegalMove::NoPiece { .. })
    ));
    assert!(matches!(
        pos.check_legal(m("b0b2")),
        Err(IllegalMove::NotAMove { .. })
    ));
    // The horse on e3 is pinned by the rook on e8.
    let pinned = position("3k5/4r4/9/9/9/9/4N4/9/4KRN1c/9 w - - 0 1");
    assert_eq!(
        pinned.check_legal(m("e3d5")),
        Err(IllegalMove::KingLeftAttacked {
            mv: m("e3d5"),
            turn: Color::Red
        })
    );
    assert!(pinned.play(m("e3d5")).is_err());
    assert!(pinned.legal_moves_from(sq("e3")).is_empty());
    assert!(pinned.legal_moves_from(sq("e8")).is_empty(), "not red's");
}

#[test]
fn game_ends() {
    let mate = position("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(mate.is_check());
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Checkmate { winner: Color::Red })
    );
    assert!(mate.is_checkmate() && !mate.is_stalemate());

    let stalemate = position("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!stalemate.is_check());
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::Stalemate { winner: Color::Red })
    );
    assert!(stalemate.is_stalemate() && !stalemate.is_checkmate());

    // Double check by pawn and horse, the advisors boxing the king in.
    let smothered = position("3aka3/4P1N2/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(smothered.is_checkmate());

    // Red mated: the same pictures with colours swapped.
    let flipped = mate.flip_colors();
    assert_eq!(
        flipped.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(Position::start().outcome(), None);
}

#[test]
fn checks() {
    let cases = [
        // Rook on the file.
        ("3k5/9/9/9/4r4/9/9/9/9/4K4 w", true),
        // Cannon with one screen, and with two.
        ("3k5/9/4c4/9/9/9/4R4/9/9/4K4 w", true),
        ("3k5/9/4c4/9/9/4R4/4R4/9/9/4K4 w", false),
        // Cannon with no screen.
        ("3k5/9/4c4/9/9/9/9/9/9/4K4 w", false),
        // Horse with a free leg, and with the leg blocked.
        ("3k5/9/9/9/9/9/9/9/6n2/4K4 w", true),
        ("3k5/9/9/9/9/9/9/9/5Rn2/4K4 w", false),
        // Pawn beside the king, and behind it (pawns never move back).
        ("3k5/9/9/9/9/9/9/9/3pK4/9 w", true),
        ("3k5/9/9/9/9/9/9/9/4K4/4p4 w", false),
        // Black in check from a red pawn in front.
        ("9/3k5/3P5/9/9/9/9/9/9/4K4 b", true),
    ];
    for (fen, check) in cases {
        let pos = position(fen);
        assert_eq!(pos.is_check(), check, "{fen}");
        assert_eq!(pos.in_check(pos.turn()), check, "{fen}");
        assert!(!pos.in_check(!pos.turn()), "{fen}");
    }
}

/// A small deterministic generator for random games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn make_unmake_restores_position_and_hash() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let starts: Vec<Position> = reference()
        .iter()
        .step_by(25)
        .map(|(fen, _)| position(fen))
        .chain([Position::start()])
        .collect();
    for start in starts {
        for _ in 0..4 {
            let mut pos = start;
            let mut history = Vec::new();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let before = pos;
                let undo = pos.play_unchecked(m);
                history.push((before, m, undo));
                // The incremental hash equals one computed from scratch.
                let fresh = position(&pos.fen());
                assert_eq!(pos.hash(), fresh.hash(), "{}", pos.fen());
                assert_eq!(pos, fresh);
                assert_eq!(pos.board(), fresh.board());
                assert_eq!(pos.king(Color::Red), fresh.king(Color::Red));
                assert_eq!(pos.king(Color::Black), fresh.king(Color::Black));
                assert!(pos.play(m).is_err(), "{m} cannot be played twice");
            }
            while let Some((before, m, undo)) = history.pop() {
                pos.undo(m, undo);
                assert_eq!(pos, before);
                assert_eq!(pos.hash(), before.hash());
                assert_eq!(pos.fen(), before.fen());
                assert_eq!(pos.board(), before.board());
            }
        }
    }
}

/// The checking moves found from the points checks come from, compared with every legal move
/// played and tested, over random games from the reference positions, with the turn also passed
/// (so the side that just moved looks for checks, as the mate-threat search does).
#[test]
fn check_generator_finds_every_check() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut seen = 0;
    let starts: Vec<Position> = reference()
        .iter()
        .step_by(5)
        .map(|(fen, _)| position(fen))
        .chain([Position::start()])
        .collect();
    for start in starts {
        let mut pos = start;
        for _ in 0..60 {
            for p in [Some(pos), pos.with_turn_passed()].into_iter().flatten() {
                let brute = checks_played_out(&p);
                assert_eq!(checks_generated(&p), brute, "{}", p.fen());
                seen += brute.len();
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]).expect("legal");
        }
    }
    assert!(seen > 500, "only {seen} checks met");
}

/// Discovered checks, which the generator counts without playing them out, against every legal
/// move played and tested, in positions made for each way a check is uncovered.
#[test]
fn check_generator_finds_discovered_checks() {
    let cases = [
        // A horse between a rook and the king: every horse move checks.
        ("4k4/9/9/4N4/9/9/4R4/9/9/3K5 w", 8),
        // A pawn and a horse as a cannon's two screens: either leaving checks.
        ("4k4/9/9/4P4/9/4N4/9/4C4/9/3K5 w", 10),
        // A rook on a horse's leg: every rook move off it checks.
        ("4k4/2NR5/9/9/9/9/9/9/9/3K5 w", 13),
        // A cannon first on the file goes back behind a pawn (taking): the pawn is its screen.
        ("4k4/9/9/9/4C4/9/4P4/9/4r4/3K5 w", 1),
        // A cannon lands as the screen of another; the other, moving up the file, does not check.
        ("4k4/9/9/C8/9/9/4C4/9/9/3K5 w", 1),
        // The uncovering horse is pinned to its own king by a rook: none of its moves is legal.
        ("4k4/9/9/9/9/9/9/3KN3r/9/4R4 w", 0),
    ];
    for (fen, n) in cases {
        let p = position(fen);
        let brute = checks_played_out(&p);
        assert_eq!(checks_generated(&p), brute, "{fen}");
        assert_eq!(brute.len(), n, "{fen}: {brute:?}");
    }
}

/// The legal moves of `p` that check, found by playing every one.
fn checks_played_out(p: &Position) -> Vec<String> {
    let mut brute: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| p.play(**m).is_ok_and(|q| q.is_check()))
        .map(|m| m.to_string())
        .collect();
    brute.sort();
    brute
}

/// The checking moves of `p` from the check generator.
fn checks_generated(p: &Position) -> Vec<String> {
    let us = p.turn();
    let mut found = MoveList::new();
    movegen::checks(p.board(), us, p.king(us), p.king(!us), &mut found);
    sorted(&found)
}

/// Evasions that look safe and are not: the generator's legal moves out of a check against
/// every pseudo-legal move played and tested, where a rook checks with a cannon behind it (taking
/// the rook makes the taker the cannon's screen) and where the screen of a checking cannon takes
/// it with a second cannon behind.
#[test]
fn evasions_that_leave_a_cannon_check() {
    let cases = [
        ("3k5/4c4/9/9/R3r4/9/9/9/9/4K4 w", "a5e5"),
        ("3k5/4c4/4c4/9/9/9/9/4R4/9/4K4 w", "e2e7"),
    ];
    for (fen, trap) in cases {
        let p = position(fen);
        assert!(p.is_check(), "{fen}");
        let mut pseudo = MoveList::new();
        movegen::pseudo_legal(p.board(), p.turn(), &mut pseudo);
        let brute: MoveList = pseudo
            .iter()
            .copied()
            .filter(|m| p.play(*m).is_ok())
            .collect();
        assert_eq!(sorted(&p.legal_moves()), sorted(&brute), "{fen}");
        assert!(!sorted(&brute).contains(&trap.to_string()), "{fen}: {trap}");
        assert!(sorted(&pseudo).contains(&trap.to_string()), "{fen}: {trap}");
    }
}

/// The capture generator (the net-gain search's moves out of check) gives exactly the legal moves
/// onto an enemy piece other than the king, over random games from the reference positions.
#[test]
fn capture_generator_finds_every_capture() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen = 0;
    for (fen, _) in reference().iter().step_by(5) {
        let mut pos = position(fen);
        for _ in 0..60 {
            let moves = pos.legal_moves();
            let brute: MoveList = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some_and(|v| v.role != Role::King))
                .collect();
            assert_eq!(
                sorted(&pos.legal_captures()),
                sorted(&brute),
                "{}",
                pos.fen()
            );
            seen += brute.len();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]).expect("legal");
        }
    }
    assert!(seen > 500, "only {seen} captures met");
}

/// The enemy pieces that check the side to move.
fn checkers(pos: &Position) -> Vec<Square> {
    let king = pos.king(pos.turn());
    attackers(pos.board(), king, !pos.turn()).to_vec()
}

/// The generators that take one look around the king (the net-gain search's captures or
/// evasions, its positions' status, the mate search's replies tried as they come, the checker
/// taken first) give what the plain ones give, over random games from the reference positions.
#[test]
fn one_look_generators_agree_with_the_plain_ones() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut seen, mut checked) = (0, 0);
    for (fen, _) in reference().iter().step_by(3) {
        let mut pos = position(fen);
        for _ in 0..60 {
            let (us, king) = (pos.turn(), pos.king(pos.turn()));
            let moves = pos.legal_moves();
            let mut found = MoveList::new();
            let (in_check, any) = movegen::captures_or_evasions(pos.board(), us, king, &mut found);
            let expected = if pos.is_check() {
                moves.clone()
            } else {
                pos.legal_captures()
            };
            assert_eq!(
                (in_check, any),
                (pos.is_check(), pos.has_legal_move()),
                "{}",
                pos.fen()
            );
            assert_eq!(sorted(&found), sorted(&expected), "{}", pos.fen());
            assert_eq!(movegen::status(pos.board(), us, king), (in_check, any));
            let mut visited = MoveList::new();
            assert!(!movegen::find_legal(pos.board(), us, king, |m| {
                visited.push(m);
                false
            }));
            assert_eq!(sorted(&visited), sorted(&moves), "{}", pos.fen());
            // The defence's order: every legal move once, the captures of a checker first.
            let checkers: Vec<Square> = checkers(&pos);
            let mut defences = MoveList::new();
            assert!(!movegen::find_evasion(pos.board(), us, king, |m| {
                defences.push(m);
                false
            }));
            assert_eq!(sorted(&defences), sorted(&moves), "{}", pos.fen());
            let takes = defences.iter().filter(|m| checkers.contains(&m.to)).count();
            assert!(
                defences[..takes].iter().all(|m| checkers.contains(&m.to)),
                "{}: {defences:?}",
                pos.fen()
            );
            // Stopping at the first move visits exactly one, when there is one.
            let mut first = 0;
            let stopped = movegen::find_legal(pos.board(), us, king, |_| {
                first += 1;
                true
            });
            assert_eq!(
                (stopped, first),
                (!moves.is_empty(), usize::from(!moves.is_empty()))
            );
            seen += 1;
            checked += usize::from(in_check);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]).expect("legal");
        }
    }
    assert!(
        seen > 500 && checked > 10,
        "only {seen} positions, {checked} in check"
    );
}

#[test]
fn play_counts_moves_and_captures() {
    let pos = Position::start();
    let m = |s: &str| Move::new(sq(&s[..2]), sq(&s[2..]));
    let a = pos.play(m("h2e2")).expect("legal");
    assert_eq!(
        (a.turn(), a.halfmoves(), a.fullmoves()),
        (Color::Black, 1, 1)
    );
    let b = a.play(m("h9g7")).expect("legal");
    assert_eq!((b.halfmoves(), b.fullmoves()), (2, 2));
    let c = b.play(m("e2e6")).expect("cannon takes the pawn");
    assert_eq!(c.halfmoves(), 0);
    assert_eq!(
        c.piece_at(sq("e6")),
        Some(Piece::new(Color::Red, Role::Cannon))
    );
    assert!(!c.is_check(), "no screen between e6 and e9");
    assert_ne!(a.hash(), pos.hash());
}

#[test]
fn passing_the_turn() {
    let pos = Position::start();
    let passed = pos.with_turn_passed().expect("nobody in check");
    assert_eq!(passed.turn(), Color::Black);
    assert_ne!(passed.hash(), pos.hash());
    // A side in check cannot be handed the move's other side.
    let check = position("3k5/9/9/9/4r4/9/9/9/9/4K4 w");
    assert!(check.with_turn_passed().is_none());
}

#[test]
fn symmetry_keeps_the_legal_moves() {
    for (fen, want) in reference().iter().step_by(7) {
        let pos = position(fen);
        let flipped = pos.flip_colors();
        let mirrored = pos.mirror_files();
        assert_eq!(flipped.count_legal_moves(), want.len(), "{fen}");
        assert_eq!(mirrored.count_legal_moves(), want.len(), "{fen}");
        let mut a: Vec<Move> = pos.legal_moves().iter().map(|m| m.flip_ranks()).collect();
        let mut b: Vec<Move> = flipped.legal_moves().to_vec();
        a.sort_by_key(|m| (m.from, m.to));
        b.sort_by_key(|m| (m.from, m.to));
        assert_eq!(a, b, "{fen}");
        let mut a: Vec<Move> = pos.legal_moves().iter().map(|m| m.mirror_files()).collect();
        let mut b: Vec<Move> = mirrored.legal_moves().to_vec();
        a.sort_by_key(|m| (m.from, m.to));
        b.sort_by_key(|m| (m.from, m.to));
        assert_eq!(a, b, "{fen}");
        assert_eq!(flipped.flip_colors(), pos);
        assert_eq!(mirrored.mirror_files(), pos);
    }
}

/// A board from (square, FEN letter) pairs; the attack queries need no kings.
fn board(pieces: &[(&str, char)]) -> Board {
    let mut b = Board::empty();
    for (s, c) in pieces {
        b.set(sq(s), Piece::from_char(*c));
    }
    b
}

fn names(list: &[Square]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn attackers_and_targets_of_rooks_and_cannons() {
    // Rook behind rook: only the front one reaches a5; the back one protects it.
    let b = board(&[("a0", 'R'), ("a1", 'R'), ("a5", 'p')]);
    assert_eq!(names(&attackers(&b, sq("a5"), Color::Red)), ["a1"]);
    assert_eq!(names(&targets(&b, sq("a0"))), ["a1"]);
    assert_eq!(names(&targets(&b, sq("a1"))), ["a0", "a5"]);
    assert!(attackers(&b, sq("a5"), Color::Black).is_empty());

    // Cannon: needs exactly one screen, of either colour.
    let b = board(&[
        ("b2", 'C'),
        ("b5", 'p'),
        ("b8", 'n'),
        ("b9", 'r'),
        ("e2", 'P'),
    ]);
    assert_eq!(names(&attackers(&b, sq("b8"), Color::Red)), ["b2"]);
    assert!(attackers(&b, sq("b5"), Color::Red).is_empty(), "no screen");
    assert!(
        attackers(&b, sq("b9"), Color::Red).is_empty(),
        "two screens"
    );
    assert_eq!(names(&targets(&b, sq("b2"))), ["b8"]);
    // Along the rank the pawn on e2 has no screen before it.
    let b2 = board(&[("b2", 'C'), ("c2", 'N'), ("e2", 'P'), ("h2", 'r')]);
    assert_eq!(names(&targets(&b2, sq("b2"))), ["e2"]);
    assert_eq!(names(&attackers(&b2, sq("e2"), Color::Red)), ["b2"]);
    // The rook on h2 reaches e2 directly.
    assert_eq!(names(&attackers(&b2, sq("e2"), Color::Black)), ["h2"]);
}

#[test]
fn attackers_and_targets_of_horses() {
    let b = board(&[
        ("c2", 'N'),
        ("c3", 'P'),
        ("d4", 'p'),
        ("e3", 'r'),
        ("a1", 'b'),
    ]);
    // Leg c3 blocked: no jump to b4 or d4; e3 via d2 and a1 via b2 are open.
    assert!(attackers(&b, sq("d4"), Color::Red).is_empty());
    assert_eq!(names(&targets(&b, sq("c2"))), ["a1", "e3"]);
    assert_eq!(names(&attackers(&b, sq("e3"), Color::Red)), ["c2"]);
    let b = board(&[("c2", 'N'), ("d2", 'P'), ("e3", 'r')]);
    assert!(
        attackers(&b, sq("e3"), Color::Red).is_empty(),
        "leg d2 blocked"
    );
}

#[test]
fn attackers_and_targets_of_pawns() {
    // Before the river a pawn only goes forward.
    let b = board(&[("e3", 'P'), ("e4", 'p'), ("d3", 'p'), ("f3", 'p')]);
    assert_eq!(names(&targets(&b, sq("e3"))), ["e4"]);
    assert!(attackers(&b, sq("d3"), Color::Red).is_empty());
    assert_eq!(names(&attackers(&b, sq("e4"), Color::Red)), ["e3"]);
    // After it, sideways too, never back.
    let b = board(&[
        ("e6", 'P'),
        ("d6", 'p'),
        ("f6", 'p'),
        ("e7", 'p'),
        ("e5", 'p'),
    ]);
    assert_eq!(names(&targets(&b, sq("e6"))), ["d6", "e7", "f6"]);
    assert!(attackers(&b, sq("e5"), Color::Red).is_empty());
    // A black pawn across the river (rank 4 and below) moves down and sideways.
    let b = board(&[("e4", 'p'), ("d4", 'P'), ("e3", 'P'), ("e5", 'P')]);
    assert_eq!(names(&targets(&b, sq("e4"))), ["d4", "e3"]);
    assert_eq!(names(&attackers(&b, sq("d4"), Color::Black)), ["e4"]);
}

#[test]
fn attackers_and_targets_of_kings_advisors_elephants() {
    // The king steps inside its palace only.
    let b = board(&[("e1", 'K'), ("e2", 'p'), ("d1", 'p'), ("e3", 'p')]);
    assert_eq!(names(&targets(&b, sq("e1"))), ["d1", "e2"]);
    assert!(attackers(&b, sq("e3"), Color::Red).is_empty());
    assert_eq!(names(&attackers(&b, sq("d1"), Color::Red)), ["e1"]);
    // Advisor in the palace; elephant with a free eye on its own side.
    let b = board(&[
        ("e1", 'A'),
        ("d2", 'p'),
        ("e2", 'B'),
        ("c4", 'p'),
        ("g0", 'p'),
    ]);
    assert_eq!(names(&targets(&b, sq("e1"))), ["d2"]);
    assert_eq!(names(&targets(&b, sq("e2"))), ["c4", "g0"]);
    assert_eq!(names(&attackers(&b, sq("d2"), Color::Red)), ["e1"]);
    let b = board(&[("e2", 'B'), ("d3", 'P'), ("c4", 'p')]);
    assert!(
        attackers(&b, sq("c4"), Color::Red).is_empty(),
        "eye d3 blocked"
    );
    // An elephant never attacks across the river.
    let b = board(&[("e4", 'B'), ("c6", 'p')]);
    assert!(attackers(&b, sq("c6"), Color::Red).is_empty());
}

#[test]
fn the_flying_general() {
    let b = board(&[("e0", 'K'), ("e9", 'k')]);
    assert_eq!(names(&targets(&b, sq("e0"))), ["e9"]);
    assert_eq!(names(&attackers(&b, sq("e9"), Color::Red)), ["e0"]);
    assert_eq!(names(&attackers(&b, sq("e0"), Color::Black)), ["e9"]);
    assert!(qili::attacks::king_attacked(&b, sq("e0"), Color::Red));
    // A piece between stops it.
    let b = board(&[("e0", 'K'), ("e4", 'N'), ("e9", 'k')]);
    assert!(targets(&b, sq("e0")).is_empty());
    assert!(attackers(&b, sq("e9"), Color::Red).is_empty());
    assert!(!qili::attacks::king_attacked(&b, sq("e0"), Color::Red));
    // A king does not fly at other pieces.
    let b = board(&[("e0", 'K'), ("e7", 'r')]);
    assert!(targets(&b, sq("e0")).is_empty());
    assert!(!attackers(&b, sq("e7"), Color::Red).contains(&sq("e0")));
}

#[test]
fn board_masks_follow_the_pieces() {
    let pos = Position::start();
    let b = pos.board();
    assert_eq!(b.occupied().count_ones(), 32);
    assert_eq!(b.color_mask(Color::Red).count_ones(), 16);
    assert_eq!(b.pieces_mask(Color::Black, Role::Pawn).count_ones(), 5);
    assert_eq!(b.role_mask(Role::Cannon).count_ones(), 4);
    assert_eq!(b.count(Color::Red, Role::Horse), 2);
    assert_eq!(b.king(Color::Black), Some(sq("e9")));
    assert_eq!(b.pieces().count(), 32);
    let mut b = *b;
    b.set(sq("e0"), None);
    assert_eq!(b.king(Color::Red), None);
    assert_eq!(b.occupied().count_ones(), 31);
    b.set(sq("a0"), Some(Piece::new(Color::Black, Role::King)));
    assert_eq!(b.count(Color::Red, Role::Rook), 1);
    assert_eq!(b.count(Color::Black, Role::King), 2);
    assert_eq!(b.color_mask(Color::Black).count_ones(), 17);
}
