//! What a ruling says: every move of the cycle with its kind, targets and protection, each side's
//! pattern, the verdict, the articles and the explanation.

use super::article::ArticleId;
use super::kinds::{IdleKind, MoveKind, Pattern, Protection, Verdict};
use super::ruleset::Ruleset;
use crate::color::Color;
use crate::piece::Piece;
use crate::square::Square;
use serde::{Serialize, Serializer};

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{} {}", self.color.name(), self.role.name()))
    }
}

/// How a chase would win its material (29.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Means {
    /// Capture outright, or come out ahead after the complete exchange.
    Capture,
    /// Capture at the end of a series of checks (连续照将), discovered attacks (抽吃) included.
    Checks,
}

/// One defender of an attacked piece and whether it counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Defender {
    /// Where the defender stands.
    pub square: Square,
    /// The defender.
    pub piece: Piece,
    /// It can recapture only after the capture opens its way (暗根: line, screen, leg).
    pub hidden: bool,
    /// It can legally recapture (not pinned, the recapture does not get its side mated).
    pub real: bool,
}

/// One move of a line of play, in ICCS and in Chinese notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineMove {
    /// ICCS (`h2e2`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`).
    pub chinese: String,
}

impl LineMove {
    /// The moves `line`, played in order from `pos`, written out.
    pub fn line(pos: &crate::position::Position, line: &[crate::moves::Move]) -> Vec<LineMove> {
        let mut p = *pos;
        line.iter()
            .map(|&m| {
                let out = LineMove {
                    iccs: m.to_string(),
                    chinese: crate::notation::write_move(&p, m, crate::notation::Notation::Chinese),
                };
                p.play_unchecked(m);
                out
            })
            .collect()
    }
}

/// A piece attacked by a move, with its protection and what capturing it would gain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// Where the attacked piece stands.
    pub square: Square,
    /// The attacked piece.
    pub piece: Piece,
    /// The mover's pieces that can capture it.
    pub attackers: Vec<Square>,
    /// Its defenders.
    pub defenders: Vec<Defender>,
    /// Its protection (有根/无根/假根/少根/暗根).
    pub protection: Protection,
    /// What the mover wins, in rulebook values (rook 10, horse and cannon 5, advisor and
    /// elephant 2, crossed pawn 1), if it plays the capture and the exchange is completed.
    pub gain: i32,
    /// How the gain is reached.
    pub means: Means,
    /// Whether the gain is new with this move (it could not be had before; 29.2).
    pub new: bool,
    /// The gain needs several attackers together (联合捉, 2011 24.17), not a cheaper attacker.
    pub joint: bool,
    /// The line that wins the material, starting with the mover's capture or check.
    pub line: Vec<LineMove>,
    /// The mover's pieces that take part in the gain (capturers, screens, pinners, guards of the
    /// recapture point); more than one when `joint`.
    pub participants: Vec<Square>,
    /// Whether this target makes the move a chase (new, and no exception of the profile applies).
    pub counted: bool,
    /// Why it does or does not count, in English (written from `why` by `words`).
    pub reason: String,
    /// The same in Chinese.
    pub reason_zh: String,
    /// The article that decides whether it counts, if one does (`why`'s).
    pub article: Option<ArticleId>,
    /// Why it does or does not count: what the engine found, turned into `reason`, `reason_zh`
    /// and `article` by [`words`](super::words).
    #[serde(skip)]
    pub why: Why,
}

impl Target {
    /// The piece on `square`, attacked and not (yet) chased: what is known of it before the chase
    /// test judges it (no gain, no participants, no reason).
    pub fn attacked(
        square: Square,
        piece: Piece,
        attackers: Vec<Square>,
        defenders: Vec<Defender>,
        protection: Protection,
        line: Vec<LineMove>,
    ) -> Target {
        Target {
            square,
            piece,
            attackers,
            defenders,
            protection,
            gain: 0,
            means: Means::Capture,
            new: false,
            joint: false,
            line,
            participants: Vec::new(),
            counted: false,
            reason: String::new(),
            reason_zh: String::new(),
            article: None,
            why: Why::WinsNothing,
        }
    }
}

/// Why an attacked piece does or does not make the move a chase (the typed reason behind a
/// target's `reason`; [`words::reason`](super::words::reason) says it in words).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Attacked, judged for its protection only (the analysis of a position, not of a move).
    Attacked,
    /// Capturing it wins nothing.
    WinsNothing,
    /// The exchange on its point wins, but the line that follows does not.
    LineLoses,
    /// It could already be won before the move (从捉到捉), citing the article.
    NotNew(ArticleId),
    /// An advisor or elephant attacked by a side holding a defensive key point: idle. `asserted`:
    /// the arbiter said so; otherwise it is plain from the position.
    KeyPoint {
        /// The request asserted the key point.
        asserted: bool,
        /// The article cited.
        article: ArticleId,
    },
    /// Attacked only by a rook that the cannon on `cannon` pins and that moved along the pin line:
    /// its own attacks are not a chase.
    PinnedRook {
        /// The pinning cannon's point.
        cannon: Square,
        /// The article cited.
        article: ArticleId,
    },
    /// A chase made by the king answering a check: idle.
    KingAnsweringCheck(ArticleId),
    /// Made while answering a check, but another legal answer to the same check would leave it
    /// just as winnable: the check made the threat, not this answer (2011 26.1.2).
    CheckLeftIt(ArticleId),
    /// It has a real root, and no rule of the profile makes it a chase target whatever its
    /// protection (AXF: only a rook attacked by a horse or a cannon is).
    Protected(ArticleId),
    /// Of the same kind as its attacker and able to take it back: an exchange offer, not a chase
    /// (AXF 24).
    TakesBack(ArticleId),
    /// Attacked only by the king or pawns, which chase freely (AXF 28, 29).
    FreeAttacker(ArticleId),
    /// A new threat to win it: the move chases it (the target's means, protection, line, gain and
    /// participants say how).
    Chase(ArticleId),
}

impl Why {
    /// The article that decides, if one does.
    pub fn article(self) -> Option<ArticleId> {
        match self {
            Why::Attacked | Why::WinsNothing | Why::LineLoses => None,
            Why::NotNew(a)
            | Why::KeyPoint { article: a, .. }
            | Why::PinnedRook { article: a, .. }
            | Why::KingAnsweringCheck(a)
            | Why::CheckLeftIt(a)
            | Why::Protected(a)
            | Why::TakesBack(a)
            | Why::FreeAttacker(a)
            | Why::Chase(a) => Some(a),
        }
    }
}

/// The bounded mate search made for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub struct SearchReport {
    /// Most plies searched (the mover's checks and the replies).
    pub max_plies: u32,
    /// Most positions visited per search.
    pub max_nodes: u64,
    /// Positions visited by the move's searches: after the move and, when that has a mate, before
    /// it (is the threat new?); each stops at `max_nodes`, so at most twice `max_nodes`.
    pub nodes: u64,
    /// The node budget ran out before the search was complete ("no threat found" then).
    pub budget_exhausted: bool,
}

/// One move of the cycle and what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// Index of the move in the request's move list (0-based).
    pub ply: usize,
    /// The round (回合) as the score sheet numbers it (the FEN's full-move number, up by one after
    /// each black move).
    pub round: u32,
    /// The side that played it.
    pub color: Color,
    /// ICCS (`h2e2`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`).
    pub chinese: String,
    /// Its kind (将/杀/捉/闲), the heaviest of its effects.
    pub kind: MoveKind,
    /// Idle kinds (兑/献/拦/跟) it shows, for the arbiter.
    pub idle_kinds: Vec<IdleKind>,
    /// Enemy pieces it attacks, with protection and gain; chased ones have `counted`.
    pub targets: Vec<Target>,
    /// The mate-threat search behind the kind.
    pub mate_search: SearchReport,
    /// The net-gain searches behind the chase test, together (`max_nodes` is the move's bound).
    pub gain_search: SearchReport,
    /// For a mate threat, the mating line found (the mover's checks and the defences); else empty.
    pub mate_line: Vec<LineMove>,
    /// An arbiter's note on the move, in Chinese.
    pub note_zh: String,
    /// The same in English.
    pub note_en: String,
}

/// A side's pattern over the cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideReport {
    /// The side.
    pub color: Color,
    /// Its label (docs/spec.md §5).
    pub pattern: Pattern,
    /// Whether the profile forbids the pattern.
    pub forbidden: bool,
    /// Whether the request said this side was already told to change.
    pub told_to_change: bool,
}

/// A complete ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// The verdict.
    pub verdict: Verdict,
    /// The profile applied.
    pub ruleset: Ruleset,
    /// How often the final position occurs in the sequence.
    pub repetitions: u32,
    /// Index of the cycle's first move in the request's move list.
    pub cycle_start: usize,
    /// Number of moves (plies) in the cycle; 0 when there is no repetition.
    pub cycle_length: usize,
    /// Red's pattern.
    pub red: SideReport,
    /// Black's pattern.
    pub black: SideReport,
    /// The cycle's moves in order.
    pub moves: Vec<MoveReport>,
    /// The articles applied, in the order applied (serialised each with its id as people cite
    /// it, its book, its number there and its texts: [`super::article::serialize_cited`]).
    #[serde(serialize_with = "super::article::serialize_cited")]
    pub articles: Vec<ArticleId>,
    /// The explanation in Chinese, moves in Chinese notation.
    pub explanation_zh: String,
    /// The explanation in English.
    pub explanation_en: String,
    /// What all the ruling's searches visited together, against its bound.
    pub search: RulingSearch,
}

/// The positions one ruling's searches visited, against `SearchLimits::ruling_nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub struct RulingSearch {
    /// Positions visited by every search of the ruling.
    pub nodes: u64,
    /// The bound.
    pub max_nodes: u64,
    /// The bound was reached: the searches after it were cut short, so chases and mate threats
    /// may be understated.
    pub budget_exhausted: bool,
}

impl Ruling {
    /// The report of `color`.
    pub fn side(&self, color: Color) -> &SideReport {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}
