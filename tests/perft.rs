//! Perft counts: the published references and positions chosen to stress pins, screens and checks.
//!
//! Every count here was computed independently with Fairy-Stockfish (pyffish) by
//! `scripts/perft_reference.py`; rerun it after changing a position.

use qili::{FenError, Position, perft};

/// Name, FEN, counts for depths 1, 2, ….
const CASES: &[(&str, &str, &[u64])] = &[
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        &[44, 1920, 79666, 3290240],
    ),
    (
        "midgame",
        "rnbakabr1/9/9/p1p1n3p/6p2/2P6/Pc2P1PcP/1CN3N2/9/R1BAKABR1 w - - 0 7",
        &[29, 1271, 38825],
    ),
    (
        "cannon_screens",
        "3k5/1r7/9/9/1p2c4/9/4P4/1C7/4R4/5K3 w - - 0 1",
        &[26, 632, 15754],
    ),
    (
        "crossed_soldiers",
        "P3k4/3P5/4P4/9/9/9/2r6/6p2/9/3K5 w - - 0 1",
        &[9, 128, 1002, 15190],
    ),
    // Horse e3 pinned by the rook on e8; rook f1 and horse g1 both screens of the cannon on i1.
    (
        "rook_and_cannon_pins",
        "3k5/4r4/9/9/9/9/4N4/9/4KRN1c/9 w - - 0 1",
        &[2, 54, 1112, 28243],
    ),
    // No screen between king e0 and cannon e6: interposing on e1–e5 would make one.
    (
        "interposed_screen",
        "4k4/9/9/4c4/9/9/9/R1N6/1C7/4K4 w - - 0 1",
        &[35, 355, 12122, 143523],
    ),
    // Rook f1 stands on the leg of horse g1 aimed at e0; pawn d8 holds the leg of horse d7 aimed
    // at e9 (discovered checks), and d8–e8 gives a double check.
    (
        "horse_legs",
        "4k4/3Pa4/3N5/9/9/9/9/9/5Rn2/4K4 w - - 0 1",
        &[13, 54, 1225, 7125],
    ),
    // Cannon e4 alone between the kings must stay on the file.
    (
        "flying_general",
        "4k4/9/7n1/9/9/4C4/2p6/1R7/9/4K4 w - - 0 1",
        &[27, 307, 8221, 84749],
    ),
    // Rook e5 and horse g1 both give check; d0 would face the other king.
    (
        "double_check",
        "3k5/9/9/9/4r4/9/9/7C1/R5n2/4K4 w - - 0 1",
        &[1, 25, 717, 15687],
    ),
    // Cannon e3 and horse e5 both screen the cannon on e8; cannon f1 pinned by the rook on i1.
    (
        "cannon_pins_on_lines",
        "5k3/4c4/9/9/4N4/9/4C4/9/4KC2r/9 w - - 0 1",
        &[8, 188, 3800, 92726],
    ),
    // Cannon e7 checks through rook e3: move the screen away, add a second screen, or capture.
    (
        "cannon_check",
        "3k5/9/4c4/9/9/9/4R4/2N6/9/4K4 w - - 0 1",
        &[11, 160, 3780, 56931],
    ),
    // Pawn e8 and horse g8 check together; cannon e5 lets the king take on e8.
    (
        "pawn_and_horse_check",
        "3aka3/4P1N2/9/9/4c4/9/9/9/9/4K4 b - - 0 1",
        &[1, 9, 100, 675],
    ),
    ("checkmate", "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", &[0, 0]),
    ("stalemate", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", &[0, 0]),
    (
        "double_check_mate",
        "3aka3/4P1N2/9/9/9/9/9/9/9/4K4 b - - 0 1",
        &[0, 0],
    ),
];

fn position(fen: &str) -> Position {
    match Position::from_fen_lenient(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

#[test]
fn perft_counts_match_the_reference() {
    for (name, fen, counts) in CASES {
        let pos = position(fen);
        assert_eq!(perft(&pos, 0), 1, "{name}");
        for (i, &want) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&pos, depth), want, "{name} depth {depth}");
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    for (name, fen, counts) in CASES {
        let pos = position(fen);
        let split = qili::perft::divide(&pos, 2);
        assert_eq!(split.len() as u64, counts[0], "{name}");
        assert_eq!(
            split.iter().map(|(_, n)| n).sum::<u64>(),
            counts[1],
            "{name}"
        );
    }
    assert!(qili::perft::divide(&Position::start(), 0).is_empty());
}

#[test]
fn mirrored_and_colour_flipped_positions_have_the_same_counts() {
    for (name, fen, counts) in CASES {
        let pos = position(fen);
        let depth = counts.len().min(3);
        let want = counts[depth - 1];
        assert_eq!(
            perft(&pos.mirror_files(), depth as u32),
            want,
            "{name} mirrored"
        );
        assert_eq!(
            perft(&pos.flip_colors(), depth as u32),
            want,
            "{name} flipped"
        );
    }
}

#[test]
fn strict_reading_rejects_the_uncrossed_pawn_off_its_files() {
    let fen = "3k5/1r7/9/9/1p2c4/9/4P4/1C7/4R4/5K3 w - - 0 1";
    match Position::from_fen(fen) {
        Err(FenError::Unreachable {
            color,
            role,
            square,
            ..
        }) => {
            assert_eq!(color, qili::Color::Black);
            assert_eq!(role, "pawn");
            assert_eq!(square.to_string(), "b5");
        }
        other => panic!("expected an unreachable black pawn, got {other:?}"),
    }
    assert!(Position::from_fen_lenient(fen).is_ok());
    // Every other position here is reachable and reads strictly too.
    for (name, fen, _) in CASES.iter().filter(|(n, _, _)| *n != "cannon_screens") {
        assert!(Position::from_fen(fen).is_ok(), "{name}");
    }
}

#[test]
fn perft_five_from_the_start() {
    // Fast in release (well under a second); slow in a debug build, so only there is it skipped.
    if cfg!(debug_assertions) {
        return;
    }
    assert_eq!(perft(&Position::start(), 5), 133_312_995);
}
