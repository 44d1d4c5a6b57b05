//! A game in progress, refereed move by move (裁判): after every move, whether the game is over,
//! whether a repetition is forming, and which moves the side to move may no longer play.
//!
//! The referee rules with the ruling engine itself: a cycle that reaches the count at which the
//! books rule (three occurrences by default) is ruled by [`rules::rule`], exactly as
//! `rules::adjudicate` rules the game so far, and a move is forbidden when the cycle it would close
//! is ruled against its side by the same call. A move that reaches no earlier position costs no
//! ruling: positions are hashed incrementally and counted among those since the last irreversible
//! move, and forbidden moves are looked for only when a position one occurrence short of the
//! ruling count exists with the right side to move (docs/rules.md, "Live games").
//!
//! ```
//! use qili::referee::{GameOptions, Referee};
//! use qili::rules::{Options, Verdict};
//! use qili::{Color, Position};
//!
//! // Red's rook chases black's unprotected cannon between the a- and b-files.
//! let start = Position::from_fen("4k4/9/1c7/9/9/9/R8/9/9/3K5 w").unwrap();
//! let mut game = Referee::new(start, Options::default(), GameOptions::default());
//! for text in ["a3b3", "b7a7", "b3a3", "a7b7", "a3b3", "b7a7", "b3a3"] {
//!     game.play_text(text, None).unwrap();
//! }
//! // Black's move brings the start position back a third time: the books rule now.
//! let status = game.play_text("a7b7", None).unwrap();
//! assert_eq!(status.ruling.unwrap().verdict, Verdict::RedMustChange);
//! assert!(status.told_to_change.red);
//! // Red, told to change, may not chase again: that move would lose.
//! assert_eq!(status.banmoves, "banmoves a3b3");
//! assert!(status.forbidden[0].loses);
//! let status = game.play_text("a3b3", None).unwrap();
//! assert_eq!(status.end.unwrap().winner, Some(Color::Black));
//! ```

mod limit;
mod status;
mod stretch;

pub use status::{EndKind, ForbiddenMove, GameEnd, NaturalLimit, Notice, PlayedMove, Status};

use crate::color::Color;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::notation::{Notation, parse_move, write_move};
use crate::position::{IllegalMove, Position};
use crate::request::{Request, RequestError};
use crate::rules::{self, ArticleId, BySide, Options, Ruleset, Ruling, Texts, Verdict};
use crate::zobrist;
use limit::Clock;
use stretch::{Stretch, irreversible};

/// The count of occurrences at which the books rule (1999 art. 24; 2011 art. 23.1).
pub const RULE_AT: u32 = 3;
/// The highest ruling count a game may set.
pub const RULE_AT_MAX: u32 = 10;
/// The highest natural move limit a game may set, in rounds.
pub const NATURAL_LIMIT_MAX: u32 = 1000;

/// The options of a game in progress.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// The occurrence of a position at which the books rule (2 to [`RULE_AT_MAX`]; default 3).
    pub rule_at: u32,
    /// The natural move limit in rounds without a capture; `None`: the profile's default.
    pub natural_limit: Option<u32>,
}

impl Default for GameOptions {
    fn default() -> GameOptions {
        GameOptions {
            rule_at: RULE_AT,
            natural_limit: None,
        }
    }
}

/// A game option out of its bounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameOptionsError {
    /// The ruling count is neither 0 (the default) nor from 2 to [`RULE_AT_MAX`].
    RuleAt(u32),
    /// The natural limit is above [`NATURAL_LIMIT_MAX`].
    NaturalLimit(u32),
}

impl crate::lang::Words for GameOptionsError {
    fn words(&self, lang: crate::lang::Lang) -> String {
        match self {
            GameOptionsError::RuleAt(n) => lang.pick(
                format!("game.rule_at：{n}超出范围：0（规则的次数，3）或2至10次同一局面"),
                format!(
                    "game.rule_at: {n} is out of range: 0 (the books' count, 3) or 2 to 10 occurrences of a position"
                ),
            ),
            GameOptionsError::NaturalLimit(n) => lang.pick(
                format!("game.natural_limit：{n}回合超出范围：0（规则的限着，60）或1至1000"),
                format!(
                    "game.natural_limit: {n} rounds is out of range: 0 (the profile's limit, 60) or 1 to 1000"
                ),
            ),
        }
    }
}

crate::lang::english_display!(GameOptionsError);

impl GameOptionsError {
    /// The request field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            GameOptionsError::RuleAt(_) => "game.rule_at",
            GameOptionsError::NaturalLimit(_) => "game.natural_limit",
        }
    }
}

impl GameOptions {
    /// The options from the API's numbers, where 0 means the default.
    pub fn new(rule_at: u32, natural_limit: u32) -> Result<GameOptions, GameOptionsError> {
        let rule_at = match rule_at {
            0 => RULE_AT,
            n if (2..=RULE_AT_MAX).contains(&n) => n,
            n => return Err(GameOptionsError::RuleAt(n)),
        };
        let natural_limit = match natural_limit {
            0 => None,
            n if n <= NATURAL_LIMIT_MAX => Some(n),
            n => return Err(GameOptionsError::NaturalLimit(n)),
        };
        Ok(GameOptions {
            rule_at,
            natural_limit,
        })
    }

    /// The natural move limit in rounds under `ruleset` (its profile's, unless set).
    pub fn natural_limit_of(&self, ruleset: Ruleset) -> u32 {
        self.natural_limit
            .unwrap_or(ruleset.profile().game.natural_limit.rounds)
    }
}

/// A game in progress: its start, its moves, and what the rules make of them so far.
#[derive(Clone, Debug)]
pub struct Referee {
    start: Position,
    moves: Vec<Move>,
    pos: Position,
    /// The position the last move was played in.
    last_before: Option<Position>,
    /// The position before the last irreversible move (the stretch's first position came out of
    /// it), from which rulings replay the game: the cycle's first move then has its previous one.
    before_stretch: Option<Position>,
    options: Options,
    game: GameOptions,
    stretch: Stretch,
    /// How often the current position has occurred in the stretch.
    count: u32,
    clock: Clock,
    /// Sides told to change by a ruling of this game since the last irreversible move.
    told: BySide<bool>,
    in_check: bool,
    no_move: bool,
    end: Option<GameEnd>,
}

fn set(sides: &mut BySide<bool>, color: Color, value: bool) {
    match color {
        Color::Red => sides.red = value,
        Color::Black => sides.black = value,
    }
}

/// The verdict that `color` must change.
fn must_change(color: Color) -> Verdict {
    match color {
        Color::Red => Verdict::RedMustChange,
        Color::Black => Verdict::BlackMustChange,
    }
}

/// The verdict that `color` loses.
fn loses(color: Color) -> Verdict {
    match color {
        Color::Red => Verdict::RedLoses,
        Color::Black => Verdict::BlackLoses,
    }
}

/// The articles of a game end of `kind` under `ruleset` (its profile's `game` rules).
fn end_articles(kind: EndKind, ruleset: Ruleset) -> Vec<ArticleId> {
    let game = &ruleset.profile().game;
    let ids = match kind {
        EndKind::Checkmate => game.checkmate,
        EndKind::Stalemate => game.stalemate,
        EndKind::RepetitionLoss => game.told_repeats,
        EndKind::RepetitionDraw => game.repetition_draw,
        EndKind::NaturalLimit => game.natural_limit.articles,
    };
    ids.to_vec()
}

/// The side to move after `moves` (legal, played from `start`) and the moves it may no longer
/// play there ([`Referee::forbidden_moves`], default game options): what a ruling's reader is told
/// beside it (`qili judge`, the ruling sheet).
pub fn forbidden_after(
    start: Position,
    moves: &[Move],
    options: Options,
) -> Result<(Color, Vec<ForbiddenMove>), IllegalMove> {
    let mut referee = Referee::new(start, options, GameOptions::default());
    for &m in moves {
        referee.replay(m)?;
    }
    Ok((referee.position().turn(), referee.forbidden_moves()))
}

impl Referee {
    /// A game from `start`, ruled under `options` (the profile, the sides the arbiter already
    /// told to change, the key points, the search bounds, the texts of rulings).
    pub fn new(start: Position, options: Options, game: GameOptions) -> Referee {
        let capacity = 64;
        let stretch = Stretch::new(start, 0, game.rule_at.saturating_sub(1), capacity);
        let (in_check, any) =
            movegen::status(start.board(), start.turn(), start.king(start.turn()));
        let mut referee = Referee {
            start,
            moves: Vec::with_capacity(capacity),
            pos: start,
            last_before: None,
            before_stretch: None,
            options,
            game,
            stretch,
            count: 1,
            clock: Clock::new(start.halfmoves(), capacity),
            told: BySide::default(),
            in_check,
            no_move: !any,
            end: None,
        };
        referee.end = referee.end_after(None, None);
        referee
    }

    /// The game a request describes: its start (FEN or UCCI position string), its moves played
    /// in order (each checked), and its options.
    pub fn open(request: &Request, game: GameOptions) -> Result<Referee, RequestError> {
        let (start, moves) = request.parse()?;
        let mut referee = Referee::new(start, request.options, game);
        for m in moves {
            referee.advance(m, None);
        }
        Ok(referee)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game is ruled.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game's options.
    pub fn game_options(&self) -> &GameOptions {
        &self.game
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<&GameEnd> {
        self.end.as_ref()
    }

    /// Plays `m` and says how the game stands, or why `m` is not legal (the game is then
    /// unchanged).
    pub fn play(&mut self, m: Move) -> Result<Status, IllegalMove> {
        self.pos.check_legal(m)?;
        Ok(self.play_legal(m))
    }

    /// Reads `text` (in `notation`, or detected) against the current position and plays it; a
    /// move that cannot be read or played is an error naming its index in the game.
    pub fn play_text(
        &mut self,
        text: &str,
        notation: Option<Notation>,
    ) -> Result<Status, RequestError> {
        let m = self.read(text, notation)?;
        Ok(self.play_legal(m))
    }

    /// Reads `text` (in `notation`, or detected) as a legal move of the current position; an
    /// error names its index in the game.
    pub fn read(&self, text: &str, notation: Option<Notation>) -> Result<Move, RequestError> {
        parse_move(&self.pos, text, notation).map_err(|reason| RequestError::Move {
            ply: self.moves.len(),
            text: text.to_string(),
            reason,
            in_fen: false,
        })
    }

    /// Plays `m`, which [`read`](Self::read) returned for the current position (parse_move only
    /// returns legal moves), and says how the game stands.
    pub(crate) fn play_legal(&mut self, m: Move) -> Status {
        let before = self.pos;
        let ruling = self.advance(m, Some(self.options.texts));
        self.build(Some(self.played(before, m)), ruling)
    }

    /// Whether playing the legal `m` costs no ruling: it reaches no position seen since the last
    /// irreversible move (so no warning and no ruling), and the side to move after it has no
    /// position one occurrence short of the ruling count to come back to (so no forbidden-move
    /// ruling). A caller can then compute the status where it stands instead of handing it to
    /// where rulings run; a ruling costs up to the search bound (`SearchLimits::ruling_nodes`).
    pub fn is_quiet(&self, m: Move) -> bool {
        if irreversible(&self.pos, m) {
            return true;
        }
        let Some(piece) = self.pos.piece_at(m.from) else {
            return false;
        };
        let after = self.pos.hash()
            ^ zobrist::piece_key(piece, m.from)
            ^ zobrist::piece_key(piece, m.to)
            ^ zobrist::BLACK_TO_MOVE;
        !self.stretch.contains(after) && !self.stretch.any_hot(self.pos.turn())
    }

    /// Plays `m` without building a status (catching up with moves already played).
    pub fn replay(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.pos.check_legal(m)?;
        self.advance(m, None);
        Ok(())
    }

    /// How the game stands now.
    pub fn status(&self) -> Status {
        let last = self
            .last_before
            .zip(self.moves.last().copied())
            .map(|(before, m)| self.played(before, m));
        let ruling =
            (self.count >= self.game.rule_at).then(|| self.rule_cycle(None, self.options.texts));
        self.build(last, ruling)
    }

    fn played(&self, before: Position, m: Move) -> PlayedMove {
        PlayedMove {
            ply: self.moves.len() - 1,
            round: u32::from(before.fullmoves()),
            color: before.turn(),
            mv: m,
            before,
        }
    }

    /// Plays the legal `m` and updates the counts, the telling and the end; the ruling of the
    /// new position when it reaches the ruling count, with `texts` (none when `None`: it is then
    /// only used for the end and the telling, and not returned).
    fn advance(&mut self, m: Move, texts: Option<Texts>) -> Option<Ruling> {
        let before = self.pos;
        let mover = before.turn();
        let capture = before.piece_at(m.to).is_some();
        let fresh = irreversible(&before, m);
        self.pos.play_unchecked(m);
        self.moves.push(m);
        self.last_before = Some(before);
        if fresh {
            self.before_stretch = Some(before);
            self.stretch.restart(self.pos, self.moves.len());
            self.told = BySide::default();
            self.count = 1;
        } else {
            self.count = self.stretch.push(&self.pos, &self.moves);
        }
        let turn = self.pos.turn();
        let (in_check, any) = movegen::status(self.pos.board(), turn, self.pos.king(turn));
        self.in_check = in_check;
        self.no_move = !any;
        self.clock.tick(mover, capture, in_check);
        let ruling = (self.count >= self.game.rule_at)
            .then(|| self.rule_cycle(None, texts.unwrap_or(Texts::NONE)));
        if self.end.is_none() {
            self.end = self.end_after(Some(self.moves.len() - 1), ruling.as_ref());
        }
        // The arbiter tells a side that must change; it loses if it closes such a cycle again.
        if let Some(r) = &ruling {
            for c in Color::ALL {
                if r.verdict == must_change(c) {
                    set(&mut self.told, c, true);
                }
            }
        }
        ruling.filter(|_| texts.is_some())
    }

    /// The end the game reaches at the current position, if any: no legal move (checkmate or
    /// stalemate), a repetition ruled a loss or a draw, or the natural limit.
    fn end_after(&self, ply: Option<usize>, ruling: Option<&Ruling>) -> Option<GameEnd> {
        let ruleset = self.options.ruleset;
        let to_move = self.pos.turn();
        let end = |kind: EndKind, winner: Option<Color>| GameEnd {
            kind,
            winner,
            ply,
            articles: end_articles(kind, ruleset),
        };
        if self.no_move {
            let kind = if self.in_check {
                EndKind::Checkmate
            } else {
                EndKind::Stalemate
            };
            return Some(end(kind, Some(!to_move)));
        }
        if let Some(r) = ruling {
            for c in Color::ALL {
                if r.verdict == loses(c) {
                    // Perpetual check (24.1), or a side the caller said was told already.
                    return Some(GameEnd {
                        kind: EndKind::RepetitionLoss,
                        winner: Some(!c),
                        ply,
                        articles: r.articles.clone(),
                    });
                }
            }
            // The mover, told to change, closed a cycle ruled against it again (4.1.7, 24.3).
            let mover = !to_move;
            if ply.is_some() && r.verdict == must_change(mover) && self.told.get(mover) {
                return Some(end(EndKind::RepetitionLoss, Some(to_move)));
            }
            if r.verdict == Verdict::Draw {
                return Some(end(EndKind::RepetitionDraw, None));
            }
        }
        let limit = self.clock.report(ruleset, self.natural_limit());
        if limit.claimable.red || limit.claimable.black {
            return Some(end(EndKind::NaturalLimit, None));
        }
        None
    }

    fn natural_limit(&self) -> u32 {
        self.game.natural_limit_of(self.options.ruleset)
    }

    /// The ruling on the game so far (and `extra` played after it), replaying only from before
    /// the last irreversible move: the same ruling as on the whole game, plies shifted back.
    fn rule_cycle(&self, extra: Option<Move>, texts: Texts) -> Ruling {
        let (start, offset) = match self.before_stretch {
            Some(p) => (p, self.stretch.first() - 1),
            None => (self.start, 0),
        };
        let options = Options {
            texts,
            ..self.options
        };
        let mut ruling = match extra {
            None => rules::rule(&start, &self.moves[offset..], &options),
            Some(m) => {
                let mut moves = Vec::with_capacity(self.moves.len() - offset + 1);
                moves.extend_from_slice(&self.moves[offset..]);
                moves.push(m);
                rules::rule(&start, &moves, &options)
            }
        };
        if offset > 0 && ruling.verdict != Verdict::NoRepetition {
            ruling.cycle_start += offset;
            for r in &mut ruling.moves {
                r.ply += offset;
            }
        }
        ruling
    }

    /// The status of the current position, with the last move and the ruling already made.
    fn build(&self, last_move: Option<PlayedMove>, ruling: Option<Ruling>) -> Status {
        let notice = (self.count >= 2 && self.count < self.game.rule_at).then(|| {
            let r = self.rule_cycle(None, Texts::NONE);
            Notice {
                repetitions: self.count,
                forecast: r.verdict,
                cycle_start: r.cycle_start,
                cycle_length: r.cycle_length,
                red: r.red,
                black: r.black,
            }
        });
        let forbidden = self.forbidden_moves();
        let banmoves = if forbidden.is_empty() {
            String::new()
        } else {
            let mut s = String::from("banmoves");
            for f in &forbidden {
                s.push(' ');
                s.push_str(&f.iccs);
            }
            s
        };
        let asked = self.options.told_to_change;
        Status {
            moves_played: self.moves.len(),
            last_move,
            to_move: self.pos.turn(),
            in_check: self.in_check,
            repetitions: self.count,
            notice,
            ruling,
            forbidden,
            banmoves,
            natural_limit: self
                .clock
                .report(self.options.ruleset, self.natural_limit()),
            told_to_change: BySide {
                red: asked.red || self.told.red,
                black: asked.black || self.told.black,
            },
            end: self.end.clone(),
        }
    }

    /// The legal moves of the side to move that would make a position occur for the ruling count
    /// (or more) and close a cycle ruled against that side (a status's `forbidden`). Moves are
    /// generated only when such a position exists; only those that reach it are ruled.
    pub fn forbidden_moves(&self) -> Vec<ForbiddenMove> {
        let us = self.pos.turn();
        if !self.stretch.any_hot(!us) {
            return Vec::new();
        }
        let board = self.pos.board();
        let mut moves = MoveList::new();
        movegen::legal(board, us, self.pos.king(us), &mut moves);
        let mut out = Vec::new();
        for m in moves {
            let Some(piece) = board.get(m.from) else {
                continue;
            };
            if irreversible(&self.pos, m) {
                continue;
            }
            let h = self.pos.hash()
                ^ zobrist::piece_key(piece, m.from)
                ^ zobrist::piece_key(piece, m.to)
                ^ zobrist::BLACK_TO_MOVE;
            if !self.stretch.is_hot(h, !us) {
                continue;
            }
            let mut after = self.pos;
            after.play_unchecked(m);
            let repetitions = self.stretch.earlier(&after, &self.moves) + 1;
            if repetitions < self.game.rule_at {
                continue;
            }
            let ruling = self.rule_cycle(Some(m), Texts::NONE);
            let lost = ruling.verdict == loses(us);
            if !lost && ruling.verdict != must_change(us) {
                continue;
            }
            out.push(ForbiddenMove {
                iccs: m.to_string(),
                chinese: write_move(&self.pos, m, Notation::Chinese),
                verdict: ruling.verdict,
                pattern: ruling.side(us).pattern,
                repetitions,
                loses: lost || self.told.get(us),
                cycle_start: ruling.cycle_start,
                cycle_length: ruling.cycle_length,
                articles: ruling.articles,
            });
        }
        out
    }
}
