//! Any bytes as a record of unknown format. Detection and reading never panic; what reads in a
//! format reads as that format's error or games; `read_game` is the first of `read_games`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qili::record;

fuzz_target!(|data: &[u8]| {
    let format = record::format(data);
    let all = record::read_games(data);
    let first = record::read_game(data);
    if let Err(e) = &all {
        let _ = e.to_string();
    }
    match (&format, &all, &first) {
        (Err(e), Err(a), Err(f)) => {
            assert_eq!(e, a);
            assert_eq!(e, f);
        }
        (Ok(fmt), Ok(games), Ok(game)) => {
            assert!(!games.is_empty());
            assert_eq!(games[0].moves, game.moves, "{fmt}");
            assert_eq!(games[0].start, game.start, "{fmt}");
        }
        (Ok(fmt), Err(e), _) => assert_eq!(e.format(), Some(*fmt), "{e}"),
        // Only the first game is read by read_game, so a later bad one fails read_games alone;
        // the other way round cannot be.
        (Ok(_), Ok(_), Err(e)) => panic!("read_games reads what read_game does not: {e}"),
        (f, a, g) => panic!(
            "detection and reading disagree: {f:?} {:?} {:?}",
            a.is_ok(),
            g.is_ok()
        ),
    }
});
