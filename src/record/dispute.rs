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
use crate::lang::{Lang, Words, side_zh};
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
pub struct ParseAtError(pub String);

impl Words for ParseAtError {
    fn words(&self, lang: Lang) -> String {
        let text = &self.0;
        match lang {
            Lang::En => format!(
                "{text:?} is not a moment of the game: write a round (32), a side's move of a round (32r, 32b), or a ply (ply:63)"
            ),
            Lang::Zh => format!(
                "{text:?}不是棋局中的时刻：请写回合（32）、某方在某回合的着法（32r、32b，或32红、32黑）或着数（ply:63，从0数起）"
            ),
        }
    }
}

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
    /// The game's title (see [`Title`]).
    pub title: Title,
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
                title: Title::of(&chosen),
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
    Record(#[from] RecordError),
    /// The record holds several games and none was chosen.
    ChooseGame {
        /// How many games.
        count: usize,
        /// The first few games (at most 8, each title cut to 60 characters: the message stays
        /// under 1 KiB); `None` for one that cannot be read.
        listing: Vec<Option<Listed>>,
    },
    /// The game number is not in the record.
    NoSuchGame {
        /// The number asked for.
        number: usize,
        /// How many games there are.
        count: usize,
    },
    /// The moment is not in the game.
    NotInGame {
        /// The moment asked for.
        what: Moment,
        /// Moves in the game.
        plies: usize,
        /// The round of its last move.
        last_round: u32,
    },
}

/// A moment a game does not reach, as [`DisputeError::NotInGame`] names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Moment {
    /// After the move with this index (0-based).
    Ply(usize),
    /// Round N, or one side's move of it.
    Round(u32, Option<Color>),
}

impl Words for Moment {
    fn words(&self, lang: Lang) -> String {
        match (*self, lang) {
            (Moment::Ply(p), Lang::En) => format!("ply {p}"),
            (Moment::Ply(p), Lang::Zh) => format!("从0数起第{p}着"),
            (Moment::Round(n, None), Lang::En) => format!("round {n}"),
            (Moment::Round(n, None), Lang::Zh) => format!("第{n}回合"),
            (Moment::Round(n, Some(c)), Lang::En) => format!("round {n} ({})", c.name()),
            (Moment::Round(n, Some(c)), Lang::Zh) => format!("第{n}回合{}", side_zh(c)),
        }
    }
}

impl Words for DisputeError {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (DisputeError::Record(e), _) => e.words(lang),
            (DisputeError::ChooseGame { count, listing }, Lang::En) => format!(
                "the record holds {count} games; choose one with --game N: {}",
                listed_games(listing, *count, lang)
            ),
            (DisputeError::ChooseGame { count, listing }, Lang::Zh) => format!(
                "棋谱中有{count}局；请用--game N选一局：{}",
                listed_games(listing, *count, lang)
            ),
            (DisputeError::NoSuchGame { number, count }, Lang::En) => {
                format!("game {number}: the record holds {count} game(s), numbered from 1")
            }
            (DisputeError::NoSuchGame { number, count }, Lang::Zh) => {
                format!("第{number}局：棋谱中只有{count}局，从1编号")
            }
            (
                DisputeError::NotInGame {
                    what,
                    plies,
                    last_round,
                },
                Lang::En,
            ) => format!(
                "{}: the game has {plies} moves (plies), ending in round {last_round}",
                what.words(lang)
            ),
            (
                DisputeError::NotInGame {
                    what,
                    plies,
                    last_round,
                },
                Lang::Zh,
            ) => format!(
                "{}：本局共{plies}着，止于第{last_round}回合",
                what.words(lang)
            ),
        }
    }
}

crate::lang::english_display!(ParseAtError, DisputeError);

/// A one-line title of a game: players, event, date and result, as far as its tags give them
/// (empty when it has none of them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Title {
    /// `red – black`, or the one player named.
    pub players: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// The date.
    pub date: Option<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`), if the game has one.
    pub result: Option<String>,
}

impl Title {
    /// The title of `game`.
    pub fn of(game: &Game) -> Title {
        let tag = |name: &str| {
            game.tag(name)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        let players = match (tag("Red"), tag("Black")) {
            (Some(r), Some(b)) => Some(format!("{r} – {b}")),
            (Some(one), None) | (None, Some(one)) => Some(one),
            (None, None) => None,
        };
        Title {
            players,
            event: tag("Event"),
            date: tag("Date"),
            result: game
                .result
                .as_deref()
                .filter(|r| !r.is_empty() && *r != "*")
                .map(str::to_string),
        }
    }

    /// Whether the tags give nothing to title the game with.
    pub fn is_empty(&self) -> bool {
        self.words(Lang::En).is_empty()
    }
}

impl Words for Title {
    /// The parts joined by commas; in Chinese the result in words (红胜, 黑胜, 和棋).
    fn words(&self, lang: Lang) -> String {
        let result = self.result.as_deref().map(|r| match (lang, r) {
            (Lang::Zh, "1-0") => "红胜",
            (Lang::Zh, "0-1") => "黑胜",
            (Lang::Zh, "1/2-1/2") => "和棋",
            _ => r,
        });
        let parts: Vec<&str> = [
            self.players.as_deref(),
            self.event.as_deref(),
            self.date.as_deref(),
            result,
        ]
        .into_iter()
        .flatten()
        .collect();
        parts.join(lang.pick("，", ", "))
    }
}

/// The English title of `game` (see [`Title`]).
pub fn title(game: &Game) -> String {
    Title::of(game).words(Lang::En)
}

/// A game as a listing names it: its title and its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The game's title.
    pub title: Title,
    /// Its moves (plies).
    pub plies: usize,
}

impl Listed {
    fn of(game: &Game) -> Listed {
        Listed {
            title: Title::of(game),
            plies: game.moves.len(),
        }
    }
}

impl Words for Listed {
    /// The title and the length: `A – B, 1-0, 40 plies` / `A – B，红胜，共40着`.
    fn words(&self, lang: Lang) -> String {
        let title = self.title.words(lang);
        let plies = self.plies;
        match (title.is_empty(), lang) {
            (true, Lang::En) => format!("{plies} plies"),
            (true, Lang::Zh) => format!("共{plies}着"),
            (false, Lang::En) => format!("{title}, {plies} plies"),
            (false, Lang::Zh) => format!("{title}，共{plies}着"),
        }
    }
}

/// How many games a [`DisputeError::ChooseGame`] lists, and how many characters of each title:
/// the message stays under 1 KiB however many games the record holds.
const LISTED: usize = 8;
const LISTED_TITLE: usize = 60;

/// The listing of a [`DisputeError::ChooseGame`] in `lang`: the first games' titles (from game
/// 1), of `count` games in all.
fn listed_games(listing: &[Option<Listed>], count: usize, lang: Lang) -> String {
    let mut parts: Vec<String> = listing
        .iter()
        .take(LISTED)
        .enumerate()
        .map(|(i, game)| {
            let title = match game {
                Some(game) => game.words(lang),
                None => lang.pick("无法读取", "cannot be read").to_string(),
            };
            let short: String = title.chars().take(LISTED_TITLE).collect();
            let cut = if short.len() < title.len() { "…" } else { "" };
            format!("{}. {short}{cut}", i + 1)
        })
        .collect();
    if count > parts.len() {
        parts.push(match lang {
            Lang::En => format!("… (qili scan lists all {count})"),
            Lang::Zh => format!("…（qili scan可列出全部{count}局）"),
        });
    }
    parts.join(lang.pick("；", "; "))
}

/// The error of a record with several games and none chosen, the first two already read: the
/// first few are listed, the rest only counted.
fn choose<R: std::io::Read>(
    first: Game,
    second: Result<Game, RecordError>,
    mut rest: GameReader<R>,
) -> DisputeError {
    let listed = |game: &Result<Game, RecordError>| game.as_ref().ok().map(Listed::of);
    let mut listing = vec![Some(Listed::of(&first)), listed(&second)];
    while listing.len() < LISTED {
        match rest.next() {
            Some(game) => listing.push(listed(&game)),
            None => break,
        }
    }
    let mut count = listing.len();
    while rest.pass().is_some() {
        count += 1;
    }
    DisputeError::ChooseGame { count, listing }
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
            listing: games
                .iter()
                .take(LISTED)
                .map(|g| Some(Listed::of(g)))
                .collect(),
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
    let missing = |what: Moment| DisputeError::NotInGame {
        what,
        plies: moves.len(),
        last_round,
    };
    match at {
        At::Ply(p) if p < moves.len() => Ok(p + 1),
        At::Ply(p) => Err(missing(Moment::Ply(p))),
        At::Round(n, side) => {
            let last = (0..moves.len()).rev().find(|&p| {
                let (round, color) = round_of(start, p);
                round == n && side.is_none_or(|s| s == color)
            });
            last.map(|p| p + 1)
                .ok_or_else(|| missing(Moment::Round(n, side)))
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
