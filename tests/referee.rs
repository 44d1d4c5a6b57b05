//! The referee of live games (`qili::referee`): each way a game ends under each profile, the
//! warning and the forbidden moves of a repetition, the game options' bounds, and over the corpus
//! and the real games: the same ruling as `adjudicate`, the forbidden moves where the cycle would
//! close a third time, and no false alarm.

use qili::corpus::{self, Case};
use qili::referee::{EndKind, GameOptions, GameOptionsError, Referee, Status};
use qili::rules::{self, Options, Ruleset, Verdict};
use qili::{Color, Move, Position};
use std::path::Path;

fn game(fen: &str, ruleset: Ruleset, options: GameOptions) -> Referee {
    let start = Position::from_fen(fen).expect("a legal FEN");
    let rules = Options {
        ruleset,
        ..Options::default()
    };
    Referee::new(start, rules, options)
}

/// Plays `moves` (ICCS, separated by spaces) and returns every status.
fn play(referee: &mut Referee, moves: &str) -> Vec<Status> {
    moves
        .split_whitespace()
        .map(|m| referee.play_text(m, None).expect("a legal move"))
        .collect()
}

fn article_ids(status: &Status) -> Vec<String> {
    let end = status.end.as_ref().expect("the game has ended");
    end.articles.iter().map(|a| a.id()).collect()
}

/// Red's rook chases black's unprotected cannon between the a- and b-files; black runs.
const CHASE: (&str, &str) = (
    "4k4/9/1c7/9/9/9/R8/9/9/3K5 w",
    "a3b3 b7a7 b3a3 a7b7 a3b3 b7a7 b3a3 a7b7",
);

/// Red's rook checks on ranks 9 and 8; black's king steps up and down.
const CHECKS: (&str, &str) = (
    "4k4/R8/9/9/9/9/9/9/9/3K5 w",
    "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
);

#[test]
fn checkmate_ends_the_game_and_the_mated_side_loses() {
    for (ruleset, article) in [
        (Ruleset::Cxa1999, "4.1.1"),
        (Ruleset::Cxa2011, "4.1.1"),
        (Ruleset::Axf, "AXF 1"),
    ] {
        // The b-rook checks along rank 9; the a-rook holds rank 8; red's king holds the d-file.
        let mut g = game(
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
            ruleset,
            GameOptions::default(),
        );
        let before = play(&mut g, "b0b8");
        assert!(before[0].end.is_none(), "{ruleset}: not mate yet");
        let mut g = game(
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
            ruleset,
            GameOptions::default(),
        );
        let s = &play(&mut g, "b0b9")[0];
        assert!(s.in_check);
        let end = s.end.as_ref().expect("checkmate");
        assert_eq!(end.kind, EndKind::Checkmate, "{ruleset}");
        assert_eq!(end.winner, Some(Color::Red));
        assert_eq!(end.ply, Some(0));
        assert_eq!(article_ids(s), [article]);
    }
}

#[test]
fn stalemate_loses_for_the_side_with_no_move_under_every_profile() {
    for (ruleset, article) in [
        (Ruleset::Cxa1999, "4.1.3"),
        (Ruleset::Cxa2011, "4.1.3"),
        (Ruleset::Axf, "AXF 2"),
    ] {
        // After g0f0 black's king may go nowhere and is not in check (困毙).
        let mut g = game(
            "4k4/R8/9/9/9/9/9/9/9/3K2R2 w",
            ruleset,
            GameOptions::default(),
        );
        let s = &play(&mut g, "g0f0")[0];
        assert!(!s.in_check);
        let end = s.end.as_ref().expect("stalemate");
        assert_eq!(end.kind, EndKind::Stalemate, "{ruleset}");
        assert_eq!(end.winner, Some(Color::Red));
        assert_eq!(article_ids(s), [article]);
        // A game opened at that position has ended before any move.
        let g = game(
            "4k4/R8/9/9/9/9/9/9/9/3K1R3 b",
            ruleset,
            GameOptions::default(),
        );
        let end = g.status().end.expect("stalemated at the start");
        assert_eq!((end.kind, end.ply), (EndKind::Stalemate, None));
    }
}

#[test]
fn the_natural_limit_is_claimable_after_sixty_rounds_without_a_capture() {
    for (ruleset, articles) in [
        (Ruleset::Cxa1999, vec!["4.2.4", "23.3"]),
        (Ruleset::Cxa2011, vec!["4.2.4", "23.3"]),
        (Ruleset::Axf, vec!["AXF 4"]),
    ] {
        // 118 plies without a capture before the start: two more reach 60 rounds.
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 70";
        let mut g = game(fen, ruleset, GameOptions::default());
        let s = play(&mut g, "a0a1 e9e8");
        assert!(s[0].end.is_none(), "{ruleset}: 119 plies");
        assert_eq!(s[0].natural_limit.plies, 119);
        let last = &s[1];
        assert_eq!(
            (last.natural_limit.limit, last.natural_limit.rounds),
            (60, 60)
        );
        assert!(last.natural_limit.claimable.red && last.natural_limit.claimable.black);
        let end = last.end.as_ref().expect("the limit");
        assert_eq!((end.kind, end.winner), (EndKind::NaturalLimit, None));
        assert_eq!(article_ids(last), articles, "{ruleset}");
        // An event's lower limit, and a capture that starts the count again.
        let lowered = GameOptions::new(0, 2).expect("in range");
        let mut g = game("4k4/9/9/9/9/9/9/r8/9/R2K5 w - - 0 1", ruleset, lowered);
        let s = play(&mut g, "a0b0 e9e8 b0a0 e8e9 a0a2 e9e8 a2a1");
        assert!(s[2].end.is_none());
        assert!(s[3].natural_limit.claimable.red, "{ruleset}: 4 plies");
        assert_eq!(s[4].natural_limit.plies, 0, "a capture restarts the count");
        assert_eq!(s[6].natural_limit.plies, 2);
        // The end stays the first one reached.
        assert_eq!(s[6].end.as_ref().map(|e| e.ply), Some(Some(3)));
    }
}

#[test]
fn a_side_told_to_change_that_repeats_the_forbidden_move_loses() {
    for (ruleset, articles) in [
        (Ruleset::Cxa1999, vec!["4.1.7", "24.3"]),
        (Ruleset::Cxa2011, vec!["4.1.7", "2011 23.5.2"]),
        (Ruleset::Axf, vec!["AXF 3"]),
    ] {
        let mut g = game(CHASE.0, ruleset, GameOptions::default());
        let s = play(&mut g, CHASE.1);
        // Twice: the warning, with the forecast; no forbidden move yet.
        let warned = &s[3];
        assert_eq!(warned.repetitions, 2);
        let notice = warned.notice.as_ref().expect("a notice at two occurrences");
        assert_eq!(notice.forecast, Verdict::RedMustChange, "{ruleset}");
        assert!(notice.red.forbidden && !notice.black.forbidden);
        assert!(warned.ruling.is_none() && warned.forbidden.is_empty());
        // Black's last move brings the start back a third time: the ruling, and red is told.
        let ruled = &s[7];
        assert_eq!(ruled.repetitions, 3);
        let ruling = ruled.ruling.as_ref().expect("the ruling at three");
        assert_eq!(ruling.verdict, Verdict::RedMustChange);
        assert!(ruled.told_to_change.red && !ruled.told_to_change.black);
        assert!(ruled.end.is_none());
        assert_eq!(ruled.banmoves, "banmoves a3b3");
        assert!(ruled.forbidden[0].loses);
        // Red chases again: it loses.
        let lost = &play(&mut g, "a3b3")[0];
        let end = lost.end.as_ref().expect("red loses");
        assert_eq!(
            (end.kind, end.winner, end.ply),
            (EndKind::RepetitionLoss, Some(Color::Black), Some(8))
        );
        assert_eq!(article_ids(lost), articles, "{ruleset}");
        // The ruling itself is Adjudicate's on the game so far.
        let request = qili::request::Request {
            fen: CHASE.0.into(),
            moves: format!("{} a3b3", CHASE.1)
                .split(' ')
                .map(String::from)
                .collect(),
            notation: None,
            options: *g.options(),
        };
        assert_eq!(
            lost.ruling.as_ref(),
            Some(&qili::request::adjudicate(&request).unwrap())
        );
    }
}

#[test]
fn a_side_that_closes_the_cycle_a_third_time_itself_is_told_and_loses_the_next_time() {
    // The same chase with black to move first: red's own move brings the start back.
    let mut g = game(
        "4k4/9/1c7/9/9/9/1R7/9/9/3K5 b",
        Ruleset::Cxa1999,
        GameOptions::default(),
    );
    let s = play(&mut g, "b7a7 b3a3 a7b7 a3b3 b7a7 b3a3 a7b7");
    let before = &s[6];
    assert_eq!(before.to_move, Color::Red);
    assert_eq!(before.banmoves, "banmoves a3b3");
    let f = &before.forbidden[0];
    assert_eq!(
        (
            f.verdict,
            f.loses,
            f.repetitions,
            f.cycle_start,
            f.cycle_length
        ),
        (Verdict::RedMustChange, false, 3, 4, 4)
    );
    assert_eq!(f.chinese, "车九平八");
    let s = play(&mut g, "a3b3 b7a7 b3a3");
    assert_eq!(
        s[0].ruling.as_ref().map(|r| r.verdict),
        Some(Verdict::RedMustChange)
    );
    assert!(s[0].told_to_change.red && s[0].end.is_none());
    // Black's move closes the cycle again: red has not repeated yet.
    assert!(s[1].end.is_none());
    assert!(s[1].forbidden.iter().all(|f| f.loses));
    let end = s[2].end.as_ref().expect("red repeated after being told");
    assert_eq!(
        (end.kind, end.winner),
        (EndKind::RepetitionLoss, Some(Color::Black))
    );
}

#[test]
fn perpetual_check_loses_at_the_third_occurrence_under_the_chinese_rules() {
    let mut g = game(CHECKS.0, Ruleset::Cxa1999, GameOptions::default());
    let s = play(&mut g, CHECKS.1);
    let end = s[7].end.as_ref().expect("red loses at once (24.1)");
    assert_eq!(
        (end.kind, end.winner),
        (EndKind::RepetitionLoss, Some(Color::Black))
    );
    assert!(article_ids(&s[7]).contains(&"24.1".to_string()));
    // Under the Asian rules the checker must change first.
    let mut g = game(CHECKS.0, Ruleset::Axf, GameOptions::default());
    let s = play(&mut g, CHECKS.1);
    assert!(s[7].end.is_none());
    assert_eq!(
        s[7].ruling.as_ref().map(|r| r.verdict),
        Some(Verdict::RedMustChange)
    );
}

#[test]
fn a_cycle_with_nothing_forbidden_is_a_draw_at_the_ruling_count() {
    let mut g = game(
        "4k4/9/9/9/9/9/9/9/9/3K5 w",
        Ruleset::Cxa1999,
        GameOptions::default(),
    );
    let s = play(&mut g, "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9");
    assert!(s[6].end.is_none());
    let end = s[7].end.as_ref().expect("a draw");
    assert_eq!((end.kind, end.winner), (EndKind::RepetitionDraw, None));
    assert_eq!(article_ids(&s[7]), ["4.2.3", "23.2"]);
    assert!(s.iter().all(|x| x.forbidden.is_empty()));
}

#[test]
fn game_options_are_bounded_and_a_lower_ruling_count_rules_earlier() {
    assert_eq!(GameOptions::new(0, 0), Ok(GameOptions::default()));
    for (rule_at, limit, field) in [
        (1, 0, "game.rule_at"),
        (11, 0, "game.rule_at"),
        (0, 1001, "game.natural_limit"),
    ] {
        let e: GameOptionsError = GameOptions::new(rule_at, limit).unwrap_err();
        assert_eq!(e.field(), field);
        assert!(e.to_string().starts_with(field), "{e}");
    }
    let early = GameOptions::new(2, 0).unwrap();
    let mut g = game(CHASE.0, Ruleset::Cxa1999, early);
    let s = play(&mut g, CHASE.1);
    assert!(s[3].notice.is_none());
    assert_eq!(
        s[3].ruling.as_ref().map(|r| (r.verdict, r.repetitions)),
        Some((Verdict::RedMustChange, 2))
    );
}

#[test]
fn a_status_serialises_in_the_case_files_spelling() {
    let mut g = game(CHASE.0, Ruleset::Cxa1999, GameOptions::default());
    let s = play(&mut g, CHASE.1).pop().unwrap();
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["ruling"]["verdict"], "red_must_change");
    assert_eq!(json["ruling"]["red"]["pattern"], "perpetual_chase");
    assert_eq!(json["forbidden"][0]["pattern"], "perpetual_chase");
    assert_eq!(json["to_move"], "red");
    assert_eq!(json["last_move"]["iccs"], "a7b7");
    assert_eq!(json["last_move"]["chinese"], "炮１平２");
    assert_eq!(json["last_move"]["ply"], 7);
    assert_eq!(json["natural_limit"]["limit"], 60);
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = corpus::load(&dir).expect("the corpus loads");
    assert!(cases.len() > 200);
    cases
}

/// The case's game, move by move through the referee.
fn replay(case: &Case) -> (Referee, Vec<Status>) {
    let request = case.request();
    let (start, moves) = request.parse().expect("a legal case");
    let mut referee = Referee::new(start, request.options, GameOptions::default());
    let statuses = moves
        .iter()
        .map(|&m| referee.play(m).expect("legal"))
        .collect();
    (referee, statuses)
}

#[test]
fn every_case_replayed_move_by_move_ends_with_adjudicates_ruling() {
    let mut differ = Vec::new();
    for case in cases() {
        let (referee, statuses) = replay(&case);
        let ruling = qili::request::adjudicate(&case.request()).expect("the case rules");
        let last = statuses.last().expect("moves");
        let same = if ruling.repetitions >= 3 {
            last.ruling.as_ref() == Some(&ruling)
        } else if ruling.repetitions < 2 {
            last.ruling.is_none() && last.notice.is_none()
        } else {
            // At two occurrences the warning carries the same ruling's verdict and cycle.
            last.notice.as_ref().is_some_and(|n| {
                (n.forecast, n.cycle_start, n.cycle_length)
                    == (ruling.verdict, ruling.cycle_start, ruling.cycle_length)
            })
        };
        if !same {
            differ.push(case.id.clone());
        }
        // Opening the whole game at once gives the last move's status.
        let opened = Referee::open(&case.request(), GameOptions::default()).unwrap();
        assert_eq!(&opened.status(), last, "{}", case.id);
        assert_eq!(referee.moves().len(), case.moves.len());
    }
    assert!(
        differ.is_empty(),
        "the referee's ruling differs: {differ:?}"
    );
}

/// Plays on from the case's end round its cycle until `side` would close it a third time.
#[test]
fn in_every_must_change_case_the_repeating_move_is_forbidden_and_no_move_of_the_other_side() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases() {
        let x = match case.expected.verdict {
            Verdict::RedMustChange => Color::Red,
            Verdict::BlackMustChange => Color::Black,
            _ => continue,
        };
        let request = case.request();
        let (start, moves) = request.parse().unwrap();
        let ruling = rules::rule(&start, &moves, &request.options);
        let cycle = moves[ruling.cycle_start..].to_vec();
        let mut referee = Referee::new(start, request.options, GameOptions::default());
        let mut seen: Vec<Position> = vec![start];
        let mut status = referee.status();
        let mut found = false;
        let extended = moves.iter().chain(cycle.iter()).chain(cycle.iter());
        for &m in extended {
            let mover = referee.position().turn();
            let mut after = *referee.position();
            after.play_unchecked(m);
            let occurs = 1 + seen.iter().filter(|p| **p == after).count();
            let listed = status.forbidden.iter().any(|f| f.iccs == m.to_string());
            if mover == x && occurs == 3 {
                if !listed {
                    failures.push(format!("{}: {m} not forbidden", case.id));
                }
                found = true;
                break;
            }
            if mover != x && listed {
                failures.push(format!("{}: the other side's {m} forbidden", case.id));
            }
            status = referee.play(m).unwrap();
            seen.push(after);
        }
        if !found {
            failures.push(format!(
                "{}: no move of {x} closes the cycle a third time",
                case.id
            ));
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} must-change cases");
    assert!(failures.is_empty(), "{failures:#?}");
}

fn real_games() -> Vec<(String, qili::record::Game)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        for g in qili::record::read_games(&bytes).unwrap() {
            out.push((path.display().to_string(), g));
        }
    }
    out
}

#[test]
fn the_real_games_count_repetitions_as_a_whole_board_comparison_does() {
    let games = real_games();
    assert!(games.len() >= 20);
    for (name, g) in &games {
        let mut referee = Referee::new(g.start, Options::default(), GameOptions::default());
        let mut seen = vec![g.start];
        for (i, &m) in g.moves.iter().enumerate() {
            let s = referee.play(m).unwrap();
            let pos = *referee.position();
            let count = 1 + seen.iter().filter(|p| **p == pos).count() as u32;
            seen.push(pos);
            assert_eq!(s.repetitions, count, "{name} ply {i}");
            assert_eq!(s.notice.is_some(), count == 2, "{name} ply {i}");
            assert_eq!(s.ruling.is_some(), count >= 3, "{name} ply {i}");
        }
    }
}

#[test]
fn a_quiet_move_makes_no_ruling_and_the_others_are_few() {
    let (mut quiet, mut all) = (0, 0);
    let mut check = |start: Position, moves: &[Move], options: Options, name: &str| {
        let mut referee = Referee::new(start, options, GameOptions::default());
        for (i, &m) in moves.iter().enumerate() {
            let predicted = referee.is_quiet(m);
            let s = referee.play(m).unwrap();
            if predicted {
                assert!(
                    s.notice.is_none() && s.ruling.is_none() && s.forbidden.is_empty(),
                    "{name} ply {i}: a quiet move ruled"
                );
                quiet += 1;
            }
            all += 1;
        }
    };
    for (name, g) in real_games() {
        check(g.start, &g.moves, Options::default(), &name);
    }
    for case in cases() {
        let request = case.request();
        let (start, moves) = request.parse().unwrap();
        check(start, &moves, request.options, &case.id);
    }
    // Real games are almost all quiet; the cases are repetitions.
    assert!(quiet * 10 > all * 5, "{quiet} quiet moves of {all}");
}

#[test]
fn a_real_game_without_repetition_raises_no_alarm() {
    let games = real_games();
    let (name, g) = games
        .iter()
        .find(|(name, _)| name.ends_with("ccgc-01.pgn"))
        .expect("ccgc-01.pgn");
    let mut referee = Referee::new(g.start, Options::default(), GameOptions::default());
    let last = g.moves.len() - 1;
    for (i, &m) in g.moves.iter().enumerate() {
        let s = referee.play(m).unwrap();
        assert_eq!(s.repetitions, 1, "{name} ply {i}");
        assert!(
            s.notice.is_none() && s.ruling.is_none() && s.forbidden.is_empty(),
            "{name} ply {i}"
        );
        assert!(s.banmoves.is_empty());
        assert!(!s.told_to_change.red && !s.told_to_change.black);
        if i < last {
            assert!(s.end.is_none(), "{name} ended at ply {i}: {:?}", s.end);
        }
    }
}

#[test]
fn an_illegal_move_names_its_ply_and_leaves_the_game_as_it_was() {
    let mut g = game(CHASE.0, Ruleset::Cxa1999, GameOptions::default());
    play(&mut g, "a3b3 b7a7");
    let before = g.status();
    let e = g.play_text("a7a2", None).unwrap_err();
    assert_eq!((e.field(), e.ply()), ("moves", Some(2)));
    assert!(e.to_string().starts_with("moves[2] \"a7a2\""), "{e}");
    assert_eq!(g.status(), before);
    let m = Move::new("b3".parse().unwrap(), "c4".parse().unwrap());
    assert!(g.play(m).is_err());
    assert_eq!(g.moves().len(), 2);
}
