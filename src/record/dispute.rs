//! A dispute as an arbiter brings it: a game record (one game of it, cut at the disputed moment) or
//! a start position and moves; and the score sheet's round numbers of its moves.
//!
//! ```
//! use qili::record::dispute::{At, round_of};
//! use qili::{Color, Position};
//! // The third move of a game is red's move of round 2.
//! assert_eq!(round_of(&Position::start(), 2), (2, Color::Red));
//! let at: At = "32b".parse().unwrap();
//! assert_eq!(at, At::Round(32, Some(Color::Black)));
//! ```

use super::{Game, GameReader, RecordError};
use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use std::str::FromStr;

/// The round (回合) of the move at index `ply` of a game from `start`, and the side that plays it:
/// the start's full-move number, up by one after each black move.
pub fn round_of(start: &Position, ply: usize) -> (u32, Color) {
    let black_first = start.turn() == Color::Black;
    let color = if ply.is_multiple_of(2) {
        start.turn()
    } else {
        !start.turn()
    };
    let first = u32::from(start.fullmoves().max(1));
    let round = first + u32::try_from((ply + usize::from(black_first)) / 2).unwrap_or(u32::MAX);
    (round, color)
}

/// Where to rule in a record: after a round, after one side's move of a round, or after a ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// After the last move of round N, or after the given side's move of it (`32`, `32r`, `32b`).
    Round(u32, Option<Color>),
    /// After the move with this index (0-based, as `ply` in the JSON ruling): `ply:63`.
    Ply(usize),
}

/// Why `--at` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a moment of the game: write a round (32), a side's move of a round (32r, 32b), or a ply (ply:63)"
)]
pub struct ParseAtError(pub String);

impl FromStr for At {
    type Err = ParseAtError;
    fn from_str(s: &str) -> Result<At, ParseAtError> {
        let bad = || ParseAtError(s.to_string());
        let t = s.trim();
        if let Some(n) = t.strip_prefix("ply:") {
            return n.trim().parse().map(At::Ply).map_err(|_| bad());
        }
        let (digits, side) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            None => (t, None),
            Some((i, _)) => {
                let side = match &t[i..] {
                    "r" | "red" | "红" | "w" => Color::Red,
                    "b" | "black" | "黑" => Color::Black,
                    _ => return Err(bad()),
                };
                (&t[..i], Some(side))
            }
        };
        match digits.parse() {
            Ok(n) if n > 0 => Ok(At::Round(n, side)),
            _ => Err(bad()),
        }
    }
}

/// What is ruled on: the start position, the moves up to the disputed moment, and the record they
/// came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispute {
    /// The start position.
    pub start: Position,
    /// The moves ruled on; the ruling is on the position after the last.
    pub moves: Vec<Move>,
    /// The record, when the dispute was taken from one.
    pub source: Option<Source>,
}

/// The record a dispute was taken from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The record's name (its file name).
    pub name: String,
    /// The game's number in the record, from 1.
    pub game: usize,
    /// How many games the record holds.
    pub games: usize,
    /// The game's title (see [`title`]).
    pub title: String,
    /// How many moves the whole game has (the dispute may stop earlier).
    pub plies: usize,
    /// The game's tags (event, round, players, …), for a ruling sheet's paperwork.
    pub tags: Vec<(String, String)>,
}

impl Dispute {
    /// The dispute in game `game` (from 1; may be left out if the record holds one game) of the
    /// record `bytes` called `name`, cut `at` a moment (default: the game's last move).
    pub fn from_record(
        name: &str,
        bytes: &[u8],
        game: Option<usize>,
        at: Option<At>,
    ) -> Result<Dispute, DisputeError> {
        Dispute::from_reader(name, bytes, game, at)
    }

    /// [`Dispute::from_record`] from a reader, read game by game: only the chosen game is read
    /// (the others are passed over, to count them), so a record of any size is read in the memory
    /// of one game; the games other than the chosen one need not be readable.
    pub fn from_reader<R: std::io::Read>(
        name: &str,
        source: R,
        game: Option<usize>,
        at: Option<At>,
    ) -> Result<Dispute, DisputeError> {
        let mut games = GameReader::new(source)?;
        let (number, chosen) = match game {
            Some(number) => {
                for passed in 0..number.saturating_sub(1) {
                    match games.pass() {
                        Some(read) => read?,
                        None => {
                            return Err(DisputeError::NoSuchGame {
                                number,
                                count: passed,
                            });
                        }
                    }
                }
                match games.next() {
                    Some(chosen) => (number, chosen?),
                    None => {
                        return Err(DisputeError::NoSuchGame {
                            number,
                            count: number.saturating_sub(1),
                        });
                    }
                }
            }
            None => {
                let first = games.next().ok_or(RecordError::Empty)??;
                match games.next() {
                    None => (1, first),
                    Some(second) => return Err(choose(first, second, games)),
                }
            }
        };
        let mut count = number;
        while let Some(read) = games.pass() {
            read?;
            count += 1;
        }
        let keep = match at {
            Some(at) => moves_until(&chosen.start, &chosen.moves, at)?,
            None => chosen.moves.len(),
        };
        Ok(Dispute {
            start: chosen.start,
            moves: chosen.moves[..keep].to_vec(),
            source: Some(Source {
                name: name.to_string(),
                game: number,
                games: count,
                title: title(&chosen),
                plies: chosen.moves.len(),
                tags: chosen.tags,
            }),
        })
    }

    /// The start and the position after each move (`moves.len() + 1` of them).
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &m in &self.moves {
            pos.play_unchecked(m);
            out.push(pos);
        }
        out
    }

    /// The moves in ICCS, as a request carries them.
    pub fn iccs(&self) -> Vec<String> {
        self.moves.iter().map(ToString::to_string).collect()
    }
}

/// The move an ICCS text (`h2e2`) names, if it is one.
pub fn iccs_move(text: &str) -> Option<Move> {
    let from: Square = text.get(..2)?.parse().ok()?;
    let to: Square = text.get(2..)?.parse().ok()?;
    Some(Move::new(from, to))
}

/// Why a dispute could not be taken from a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DisputeError {
    /// The record cannot be read.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// The record holds several games and none was chosen.
    #[error("the record holds {count} games; choose one with --game N: {listing}")]
    ChooseGame {
        /// How many games.
        count: usize,
        /// The first few games' numbers and titles (at most 8, the message under 1 KiB).
        listing: String,
    },
    /// The game number is not in the record.
    #[error("game {number}: the record holds {count} game(s), numbered from 1")]
    NoSuchGame {
        /// The number asked for.
        number: usize,
        /// How many games there are.
        count: usize,
    },
    /// The moment is not in the game.
    #[error("{what}: the game has {plies} moves (plies), ending in round {last_round}")]
    NotInGame {
        /// The moment asked for, as written.
        what: String,
        /// Moves in the game.
        plies: usize,
        /// The round of its last move.
        last_round: u32,
    },
}

/// A one-line title of a game: players, event, date and result, as far as its tags give them
/// (empty when it has none of them).
pub fn title(game: &Game) -> String {
    let tag = |name: &str| game.tag(name).map(str::trim).filter(|v| !v.is_empty());
    let mut parts = Vec::new();
    match (tag("Red"), tag("Black")) {
        (Some(r), Some(b)) => parts.push(format!("{r} – {b}")),
        (Some(one), None) | (None, Some(one)) => parts.push(one.to_string()),
        (None, None) => {}
    }
    for name in ["Event", "Date"] {
        if let Some(v) = tag(name) {
            parts.push(v.to_string());
        }
    }
    if let Some(r) = game
        .result
        .as_deref()
        .filter(|r| !r.is_empty() && *r != "*")
    {
        parts.push(r.to_string());
    }
    parts.join(", ")
}

/// [`title`] with the number of moves, for a list of games.
fn listed(game: &Game) -> String {
    let t = title(game);
    let plies = format!("{} plies", game.moves.len());
    if t.is_empty() {
        plies
    } else {
        format!("{t}, {plies}")
    }
}

/// How many games a [`DisputeError::ChooseGame`] lists, and how many characters of each title:
/// the message stays under 1 KiB however many games the record holds.
const LISTED: usize = 8;
const LISTED_TITLE: usize = 60;

/// The listing of a [`DisputeError::ChooseGame`]: the first games' titles (from game 1), of
/// `count` games in all.
fn listing(titles: impl Iterator<Item = String>, count: usize) -> String {
    let mut parts: Vec<String> = titles
        .take(LISTED)
        .enumerate()
        .map(|(i, title)| {
            let short: String = title.chars().take(LISTED_TITLE).collect();
            let cut = if short.len() < title.len() { "…" } else { "" };
            format!("{}. {short}{cut}", i + 1)
        })
        .collect();
    if count > parts.len() {
        parts.push(format!("… (qili scan lists all {count})"));
    }
    parts.join("; ")
}

/// The error of a record with several games and none chosen, the first two already read: the
/// first few are listed, the rest only counted.
fn choose<R: std::io::Read>(
    first: Game,
    second: Result<Game, RecordError>,
    mut rest: GameReader<R>,
) -> DisputeError {
    let title = |game: &Result<Game, RecordError>| match game {
        Ok(game) => listed(game),
        Err(_) => "cannot be read".to_string(),
    };
    let mut titles = vec![listed(&first), title(&second)];
    while titles.len() < LISTED {
        match rest.next() {
            Some(game) => titles.push(title(&game)),
            None => break,
        }
    }
    let mut count = titles.len();
    while rest.pass().is_some() {
        count += 1;
    }
    DisputeError::ChooseGame {
        count,
        listing: listing(titles.into_iter(), count),
    }
}

/// The game numbered `number` (from 1); with no number, the only game, or an error listing the
/// first few.
pub fn choose_game(games: &[Game], number: Option<usize>) -> Result<(usize, &Game), DisputeError> {
    match number {
        Some(n) => n
            .checked_sub(1)
            .and_then(|i| games.get(i))
            .map(|g| (n, g))
            .ok_or(DisputeError::NoSuchGame {
                number: n,
                count: games.len(),
            }),
        None if games.len() == 1 => Ok((1, &games[0])),
        None => Err(DisputeError::ChooseGame {
            count: games.len(),
            listing: listing(games.iter().map(listed), games.len()),
        }),
    }
}

/// How many of `moves` (played from `start`) to rule on to stop `at` the given moment.
pub fn moves_until(start: &Position, moves: &[Move], at: At) -> Result<usize, DisputeError> {
    let last_round = moves
        .len()
        .checked_sub(1)
        .map_or(u32::from(start.fullmoves().max(1)), |p| {
            round_of(start, p).0
        });
    let missing = |what: String| DisputeError::NotInGame {
        what,
        plies: moves.len(),
        last_round,
    };
    match at {
        At::Ply(p) if p < moves.len() => Ok(p + 1),
        At::Ply(p) => Err(missing(format!("ply {p}"))),
        At::Round(n, side) => {
            let last = (0..moves.len()).rev().find(|&p| {
                let (round, color) = round_of(start, p);
                round == n && side.is_none_or(|s| s == color)
            });
            last.map(|p| p + 1).ok_or_else(|| {
                missing(match side {
                    None => format!("round {n}"),
                    Some(c) => format!("round {n} ({})", c.name()),
                })
            })
        }
    }
}

/// A run of repeated positions in a game: consecutive moves each of which brings back a position
/// seen before, from the first (the position occurs twice) to the move that breaks the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// Index of the first move of the run (its position occurs for the second time).
    pub first: usize,
    /// Index of the last move of the run.
    pub last: usize,
    /// Index of the first move of the run whose position occurs for the third time, if any:
    /// where the rule books rule.
    pub threefold: Option<usize>,
    /// Most occurrences of one position in the run.
    pub most: u32,
    /// Index of the move ruled after: `threefold`, else `first` (a forecast at two occurrences).
    pub ruled_at: usize,
}

/// Every run of repeated positions in `moves` played from `start` (all legal), in order.
pub fn repetitions(start: &Position, moves: &[Move]) -> Vec<Repetition> {
    let all = crate::rules::positions(start, moves);
    let mut seen: std::collections::HashMap<u64, Vec<usize>> = std::collections::HashMap::new();
    let mut out = Vec::new();
    let mut run: Option<Repetition> = None;
    for (i, pos) in all.iter().enumerate() {
        let earlier = seen.entry(pos.hash()).or_default();
        let count = 1 + earlier.iter().filter(|&&j| all[j] == *pos).count() as u32;
        earlier.push(i);
        let Some(ply) = i.checked_sub(1) else {
            continue;
        };
        if count < 2 {
            out.extend(run.take());
            continue;
        }
        let r = run.get_or_insert(Repetition {
            first: ply,
            last: ply,
            threefold: None,
            most: count,
            ruled_at: ply,
        });
        r.last = ply;
        r.most = r.most.max(count);
        if count >= 3 && r.threefold.is_none() {
            r.threefold = Some(ply);
            r.ruled_at = ply;
        }
    }
    out.extend(run);
    out
}

/// Splits a typed list of moves at spaces and commas, dropping move numbers (`1.`, `12...`).
pub fn split_moves(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '，')
        .filter(|t| !t.is_empty())
        .filter(|t| !is_move_number(t))
        .map(str::to_string)
        .collect()
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_count_from_the_fen_and_the_side_to_move() {
        let start = Position::start();
        assert_eq!(round_of(&start, 0), (1, Color::Red));
        assert_eq!(round_of(&start, 1), (1, Color::Black));
        assert_eq!(round_of(&start, 63), (32, Color::Black));
        let black = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 12").expect("fen");
        assert_eq!(round_of(&black, 0), (12, Color::Black));
        assert_eq!(round_of(&black, 1), (13, Color::Red));
    }

    #[test]
    fn moments_read_and_cut() {
        assert_eq!("32".parse(), Ok(At::Round(32, None)));
        assert_eq!("32r".parse(), Ok(At::Round(32, Some(Color::Red))));
        assert_eq!("ply:63".parse(), Ok(At::Ply(63)));
        for bad in ["", "0", "x", "32x", "ply:", "-1", "ply:-2"] {
            assert!(bad.parse::<At>().is_err(), "{bad:?}");
        }
        let start = Position::start();
        let moves = vec![Move::new(crate::Square::new(0, 0), crate::Square::new(0, 1)); 7];
        assert_eq!(moves_until(&start, &moves, At::Round(2, None)), Ok(4));
        assert_eq!(
            moves_until(&start, &moves, At::Round(2, Some(Color::Red))),
            Ok(3)
        );
        assert_eq!(moves_until(&start, &moves, At::Round(4, None)), Ok(7));
        assert_eq!(moves_until(&start, &moves, At::Ply(0)), Ok(1));
        let err = moves_until(&start, &moves, At::Round(5, None)).expect_err("past the end");
        assert_eq!(
            err.to_string(),
            "round 5: the game has 7 moves (plies), ending in round 4"
        );
    }

    #[test]
    fn runs_of_repeated_positions() {
        let start = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w").expect("fen");
        let shuttle = "a8a9 e9e8 a9a8 e8e9";
        let text = format!("{shuttle} {shuttle} {shuttle} a8b8");
        let moves: Vec<Move> = split_moves(&text)
            .iter()
            .map(|t| iccs_move(t).expect("ICCS"))
            .collect();
        let runs = repetitions(&start, &moves);
        assert_eq!(
            runs,
            [Repetition {
                first: 3,
                last: 11,
                threefold: Some(7),
                most: 4,
                ruled_at: 7
            }]
        );
        let twice = &moves[..6];
        let runs = repetitions(&start, twice);
        assert_eq!(runs.len(), 1);
        assert_eq!(
            (runs[0].threefold, runs[0].ruled_at, runs[0].most),
            (None, 3, 2)
        );
        assert!(repetitions(&start, &moves[..3]).is_empty());
    }

    #[test]
    fn move_lists() {
        assert_eq!(split_moves("h2e2 h9g7,  b0c2"), ["h2e2", "h9g7", "b0c2"]);
        assert_eq!(
            split_moves("1. h2e2 h9g7 2. b0c2"),
            ["h2e2", "h9g7", "b0c2"]
        );
        assert_eq!(split_moves("炮二平五，马８进７"), ["炮二平五", "马８进７"]);
    }
}
