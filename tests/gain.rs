//! The net-gain search at the edge of its plies: a target won on the last move the plies allow
//! is won, one move later it is not, and the null-window probe says what the full search says;
//! a capture on the last ply that the other side could take back is taken back (the horizon).

use qili::Position;
use qili::rules::tactics::gain::{GainLimits, Query, gain, gains};
use qili::rules::{Context, Ruleset};

fn position(fen: &str) -> Position {
    Position::from_fen_lenient(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn query(plies: u8) -> Query {
    Query::new(
        Ruleset::Cxa2011.profile().material,
        GainLimits {
            plies,
            ..GainLimits::default()
        },
    )
}

/// Red wins the unprotected horse on i9 only by checking first (车a9 将, 将e8 forced) and taking
/// it along the opened rank: the capture is the third ply.
const CHECK_THEN_TAKE: &str = "4k3n/9/9/9/9/9/9/9/R8/3K5 w";

#[test]
fn a_target_taken_on_the_last_ply_it_can_be_is_won() {
    let pos = position(CHECK_THEN_TAKE);
    let target = "i9".parse().expect("a point");
    for plies in [3, 4, 5, 10] {
        let mut cx = Context::new(u64::MAX);
        let q = query(plies).targeting(target);
        let g = gain(&mut cx, &pos, &q);
        let line: Vec<String> = g.line.iter().map(|m| m.to_string()).collect();
        assert!(g.gains(), "{plies} plies: {g:?}");
        assert_eq!(line[..3], ["a1a9", "e9e8", "a9i9"], "{plies} plies");
        assert!(gains(&mut cx, &pos, &q).gains, "{plies} plies: the probe");
    }
}

#[test]
fn a_target_out_of_the_plies_reach_is_not_won() {
    let pos = position(CHECK_THEN_TAKE);
    let target = "i9".parse().expect("a point");
    for plies in [1, 2] {
        let mut cx = Context::new(u64::MAX);
        let q = query(plies).targeting(target);
        assert!(!gain(&mut cx, &pos, &q).gains(), "{plies} plies");
        assert!(!gains(&mut cx, &pos, &q).gains, "{plies} plies: the probe");
    }
}

/// Red's rook takes the unprotected horse a9; black's rook answers by taking the red cannon c2,
/// where the red horse b0 takes it back. Black stands pat rather: red nets the horse.
const TAKEN_BACK: &str = "n8/5k3/2r6/9/R8/9/9/2C6/9/1N1K5 w";

/// The same without the red horse: black's rook takes the cannon for nothing, and red nets
/// nothing.
const NOT_TAKEN_BACK: &str = "n8/5k3/2r6/9/R8/9/9/2C6/9/3K5 w";

#[test]
fn a_line_does_not_end_on_a_capture_that_can_be_taken_back() {
    // With 2 plies black's capture is the line's last move: the exchange on c2 is completed
    // beyond the plies (the search's horizon, docs/rules.md §4).
    for plies in [2, 4, 10] {
        let mut cx = Context::new(u64::MAX);
        let g = gain(&mut cx, &position(TAKEN_BACK), &query(plies));
        assert_eq!(g.value, 10, "{plies} plies: {g:?}");
        assert_eq!(
            g.line.first().map(|m| m.to_string()).as_deref(),
            Some("a5a9")
        );
        let g = gain(&mut cx, &position(NOT_TAKEN_BACK), &query(plies));
        assert_eq!(g.value, 0, "{plies} plies: {g:?}");
    }
}

/// Red's horse c5 forks by 马七进六 (c5d7, check): the black cannons b8 and f8 each save
/// themselves by blocking the leg d8, not both; the king's steps save neither.
const FORK: &str = "4k1b2/1c3c3/6N2/9/2N6/9/9/4B4/9/3AKA3 w";

#[test]
fn a_fork_by_check_wins_each_piece_the_opponent_may_give_up() {
    let pos = position(FORK);
    for target in ["b8", "f8"] {
        let mut cx = Context::new(u64::MAX);
        let q = query(10).targeting(target.parse().expect("a point"));
        let g = gain(&mut cx, &pos, &q);
        let line: Vec<String> = g.line.iter().map(|m| m.to_string()).collect();
        assert!(g.gains(), "{target}: {g:?}");
        assert_eq!(line.first().map(String::as_str), Some("c5d7"), "{target}");
        assert_eq!(line.last().map(|m| &m[2..]), Some(target), "{target}");
        assert!(gains(&mut cx, &pos, &q).gains, "{target}: the probe");
    }
}
