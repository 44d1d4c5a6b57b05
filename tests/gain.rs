//! The net-gain search at the edge of its plies: a target won on the last move the plies allow
//! is won, one move later it is not, and the null-window probe says what the full search says.

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
