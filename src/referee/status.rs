//! What the referee says after a move: the library's output model for live games, serialised with
//! serde (snake_case, the spellings of the case files: `red_must_change`, `perpetual_chase`).

use crate::color::Color;
use crate::moves::Move;
use crate::notation::{Notation, write_move};
use crate::position::Position;
use crate::rules::{ArticleId, BySide, Pattern, Ruling, SideReport, Verdict};
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// How a game stands after a move (or at its start).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    /// Moves played from the start position so far (those of a UCCI position string included).
    pub moves_played: usize,
    /// The move this status answers; `None` at the start position.
    pub last_move: Option<PlayedMove>,
    /// The side to move.
    pub to_move: Color,
    /// Whether the side to move is in check (被将).
    pub in_check: bool,
    /// How often the current position has occurred, this time included, since the last
    /// irreversible move (a capture or a pawn's step forward), before which none can come back.
    pub repetitions: u32,
    /// From two occurrences until the count at which the books rule: what the cycle would be
    /// ruled if it went on.
    pub notice: Option<Notice>,
    /// From the count at which the books rule: the ruling on the cycle the last move closed,
    /// the same as `rules::adjudicate` on the game so far.
    pub ruling: Option<Ruling>,
    /// The moves the side to move may not play: each would make a position occur for the ruling
    /// count (or more) and close a cycle ruled against it.
    pub forbidden: Vec<ForbiddenMove>,
    /// The same as a UCCI command for engines (`banmoves a3b3 h2g2`); empty when none.
    pub banmoves: String,
    /// The natural move limit's count.
    pub natural_limit: NaturalLimit,
    /// Sides told to change: by the caller (the request's `told_to_change`), or by a ruling of
    /// this game since the last irreversible move that said the side must change.
    pub told_to_change: BySide<bool>,
    /// How the game ended, once it has: the first end reached, kept in every later status.
    pub end: Option<GameEnd>,
}

/// A move of the game with where it stands on the score sheet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Its index in the game's moves (0-based; a ruling's `ply`).
    pub ply: usize,
    /// Its round (回合), as the score sheet numbers it.
    pub round: u32,
    /// The side that played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The position it was played in (for its Chinese notation).
    pub before: Position,
}

impl PlayedMove {
    /// ICCS (`h2e2`).
    pub fn iccs(&self) -> String {
        self.mv.to_string()
    }

    /// Chinese notation (`炮二平五`).
    pub fn chinese(&self) -> String {
        write_move(&self.before, self.mv, Notation::Chinese)
    }
}

/// Written as `{ply, round, color, iccs, chinese}`: the notation is made when it is written, so
/// a status costs no string until then.
impl Serialize for PlayedMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("PlayedMove", 5)?;
        out.serialize_field("ply", &self.ply)?;
        out.serialize_field("round", &self.round)?;
        out.serialize_field("color", &self.color)?;
        out.serialize_field("iccs", &self.iccs())?;
        out.serialize_field("chinese", &self.chinese())?;
        out.end()
    }
}

/// The warning before the count at which the books rule (the position has occurred twice):
/// the cycle ruled now, as a forecast.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Notice {
    /// How often the position has occurred (from 2 to the ruling count less one).
    pub repetitions: u32,
    /// The verdict if the cycle comes round again unchanged.
    pub forecast: Verdict,
    /// Index of the cycle's first move in the game.
    pub cycle_start: usize,
    /// Number of moves in the cycle.
    pub cycle_length: usize,
    /// Red's pattern so far and whether it is forbidden.
    pub red: SideReport,
    /// Black's.
    pub black: SideReport,
}

/// A move the side to move may not play (UCCI `banmoves`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ForbiddenMove {
    /// ICCS (`a3b3`).
    pub iccs: String,
    /// Chinese notation (`车九平八`).
    pub chinese: String,
    /// The ruling on the cycle it would close: the mover must change, or loses.
    pub verdict: Verdict,
    /// The mover's pattern over that cycle (长捉, 长将, …).
    pub pattern: Pattern,
    /// How often the position after it would have occurred.
    pub repetitions: u32,
    /// Whether playing it ends the game: the ruling is a loss, or the mover has already been
    /// told to change (1999 4.1.7, 24.3).
    pub loses: bool,
    /// Index in the game of the first move of the cycle it would close.
    pub cycle_start: usize,
    /// Number of moves in that cycle, the forbidden move included.
    pub cycle_length: usize,
    /// The articles of that ruling.
    #[serde(serialize_with = "crate::rules::article::serialize_cited")]
    pub articles: Vec<ArticleId>,
}

/// The natural move limit (自然限着): rounds without a capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NaturalLimit {
    /// The limit, in rounds (the game option; 60 by default).
    pub limit: u32,
    /// Plies since the last capture (the start position's FEN counter included).
    pub plies: u32,
    /// Whole rounds since the last capture (`plies / 2`).
    pub rounds: u32,
    /// Each side's checks since the last capture (among this game's moves).
    pub checks: BySide<u32>,
    /// Sides that may claim the draw now.
    pub claimable: BySide<bool>,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// 将死: the side to move is in check and has no legal move; it loses.
    Checkmate,
    /// 困毙: the side to move is not in check and has no legal move; it loses.
    Stalemate,
    /// A side lost by the repetition rules: its perpetual check, or a forbidden cycle continued
    /// after it was told to change.
    RepetitionLoss,
    /// The cycle came round with neither side to change (不变作和).
    RepetitionDraw,
    /// The natural move limit: a side may claim the draw.
    NaturalLimit,
}

impl EndKind {
    /// Snake-case name.
    pub const fn name(self) -> &'static str {
        match self {
            EndKind::Checkmate => "checkmate",
            EndKind::Stalemate => "stalemate",
            EndKind::RepetitionLoss => "repetition_loss",
            EndKind::RepetitionDraw => "repetition_draw",
            EndKind::NaturalLimit => "natural_limit",
        }
    }

    /// 将死 / 困毙 / 犯例判负 / 循环作和 / 自然限着.
    pub const fn chinese(self) -> &'static str {
        match self {
            EndKind::Checkmate => "将死",
            EndKind::Stalemate => "困毙",
            EndKind::RepetitionLoss => "犯例判负",
            EndKind::RepetitionDraw => "循环作和",
            EndKind::NaturalLimit => "自然限着",
        }
    }
}

/// The end of a game and the articles it rests on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameEnd {
    /// How it ended.
    pub kind: EndKind,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The index of the move that ended it; `None` when the start position is already an end.
    pub ply: Option<usize>,
    /// The articles.
    #[serde(serialize_with = "crate::rules::article::serialize_cited")]
    pub articles: Vec<ArticleId>,
}
