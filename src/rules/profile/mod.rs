//! Rule profiles as values: each book's reading stated once, in its own file, every setting named
//! (docs/profiles/README.md). The engine asks the profile instead of testing the profile's name;
//! the tactics layer is handed only what it computes with (the material arithmetic).

pub mod axf;
pub mod cxa1999;
pub mod cxa2011;

use super::article::{ArticleId, ArticleText};
use super::kinds::Pattern;
use super::ruleset::Ruleset;
use super::tactics::value::Arithmetic;

/// Every profile, default first, at the index of its `Ruleset`: the one list of profiles.
pub const PROFILES: [&Profile; 3] = [&cxa1999::PROFILE, &cxa2011::PROFILE, &axf::PROFILE];

// Each profile stands at the index of its name.
const _: () = {
    let mut i = 0;
    while i < PROFILES.len() {
        assert!(PROFILES[i].ruleset as usize == i);
        i += 1;
    }
};

/// A rule profile (棋例规则): how one rule book is read. Every setting is stated by every profile.
#[derive(Debug)]
pub struct Profile {
    /// Its name.
    pub ruleset: Ruleset,
    /// The name used in requests and cases (`cxa1999`).
    pub name: &'static str,
    /// Another name shown beside it in messages (`wxf`).
    pub alias: Option<&'static str>,
    /// Other names accepted when reading a request (`1999`; the empty name for the default).
    pub also: &'static [&'static str],
    /// One line describing it.
    pub description: &'static str,
    /// How its book's articles are cited: the prefix before the number (``, `2011 `, `AXF `).
    pub cite_prefix: &'static str,
    /// How a Chinese text cites its book's articles.
    pub cite_zh: ZhCitation,
    /// Its book's articles that qili cites, with their texts.
    pub articles: &'static [ArticleText],

    /// When a balance of pieces and crossed pawns is a gain (1999 25.3; 2011 26.6).
    pub material: Arithmetic,
    /// The chase test (捉): by net gain, or on the target's own point.
    pub chase_test: ChaseTest,
    /// Whether a gain at the end of a series of checks (连续照将) makes a chase.
    pub gains_by_checks: bool,
    /// Whether it does after a pawn move (2011 26.7: a pawn move that wins only through another
    /// piece's discovered or forking check is idle).
    pub pawn_move_gains_by_checks: bool,
    /// Which kings' and pawns' own captures win nothing (they chase freely).
    pub free_captures: FreeCaptures,
    /// How same-type pairs that can take each other (兑) are judged.
    pub offers: Offers,
    /// Which of the opponent's threats after the move are already there, so that a line of the
    /// mover is not refuted by them (docs/gain.md §2).
    pub standing_threats: StandingThreats,
    /// The defensive key point (要点): incidental attacks on advisors and elephants are idle;
    /// `None`: the book has none (the request's assertion is not read).
    pub key_point: Option<KeyPoint>,
    /// Answers to a check (2011 26.1.2), citing this: a chase (or mate threat) made by the king
    /// answering a check is idle, and a threat that another legal answer to the same check would
    /// leave just as winnable is the check's doing, not the answer's. `None`: neither.
    pub king_answering_check: Option<ArticleId>,
    /// 自毙 (2011 24.18, 26.3): a mate threat left by an answer to a check is the answer's only
    /// when the answer made it (docs/rules.md §5, 杀); `false`: every mate after the answer that
    /// was not there before it counts.
    pub self_inflicted_check: bool,
    /// A rook pinned along a line by a cannon and moving along it does not chase with its own
    /// attacks, citing this (AXF 27); `None`: it does.
    pub pinned_rook: Option<ArticleId>,
    /// The articles a target's verdict cites.
    pub chase_articles: ChaseArticles,
    /// Whether a move that threatens mate and chases is a mate threat (27.4: the heaviest
    /// effect); `false`: it is a chase (AXF forbids no mate threat).
    pub mate_threat_outranks_chase: bool,

    /// A perpetual chase is forbidden only when it aims at one and the same piece every time;
    /// the article cited when a side's perpetual chase is allowed for that reason (AXF 32).
    /// `None`: any perpetual chase counts.
    pub same_piece: Option<ArticleId>,
    /// When the other side's pattern is forbidden and this side's is not, judge this side again
    /// with its pawns' attacks counted as chases, citing these (1999 27.2, item 11: 相互长打);
    /// `None`: never.
    pub pawns_chase_in_mutual_attack: Option<&'static [ArticleId]>,
    /// Which patterns are forbidden, and the verdict for each pair of sides.
    pub verdicts: VerdictTable,
    /// The articles every ruling cites for its moves.
    pub citations: Citations,
    /// How a game ends besides a ruled repetition: what the referee of live games applies.
    pub game: GameRules,
}

/// How a Chinese text cites a book's articles: the number between two words (`2011年规则` `26.5`;
/// `亚洲规则第` `27` `条`), a class of numbers cited otherwise (1999 `item 6` → `棋例细则第6条`), and
/// numbers with a name of their own (AXF `appendix` → `亚洲规则附例`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ZhCitation {
    /// Before the number.
    pub before: &'static str,
    /// After the number.
    pub after: &'static str,
    /// Numbers starting with this prefix are cited without it, between the other two words.
    pub prefixed: Option<ZhPrefixed>,
    /// Numbers cited by a name of their own: (number, citation).
    pub named: &'static [(&'static str, &'static str)],
}

/// Numbers of a book cited with other words than its articles (the 1999 book's chapter 7 items).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ZhPrefixed {
    /// The number's prefix (`item `).
    pub prefix: &'static str,
    /// Before the rest of the number (`棋例细则第`).
    pub before: &'static str,
    /// After it (`条`).
    pub after: &'static str,
}

impl ZhCitation {
    /// Article `number` as a Chinese text cites it.
    pub fn cite(&self, number: &str) -> String {
        if let Some(&(_, name)) = self.named.iter().find(|(n, _)| *n == number) {
            return name.to_string();
        }
        if let Some(p) = self.prefixed
            && let Some(rest) = number.strip_prefix(p.prefix)
        {
            return format!("{}{rest}{}", p.before, p.after);
        }
        format!("{}{number}{}", self.before, self.after)
    }
}

/// How a game in progress ends (the referee, `crate::referee`; docs/rules.md, "Live games").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// A checkmated side (将死) loses, citing these.
    pub checkmate: &'static [ArticleId],
    /// A side with no legal move that is not in check (困毙) loses too, citing these.
    pub stalemate: &'static [ArticleId],
    /// A side told to change that closes a cycle ruled against it again loses, citing these.
    pub told_repeats: &'static [ArticleId],
    /// A cycle ruled a draw at the ruling count ends the game, citing these.
    pub repetition_draw: &'static [ArticleId],
    /// The natural move limit (自然限着).
    pub natural_limit: NaturalLimitRule,
}

/// The natural move limit: rounds without a capture after which a side may claim a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NaturalLimitRule {
    /// The limit in rounds, unless the event sets another.
    pub rounds: u32,
    /// How the claimant's own checks count.
    pub claimant_checks: ClaimantChecks,
    /// The articles cited when a side may claim.
    pub articles: &'static [ArticleId],
}

/// How a claimant's own checks count towards the natural limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClaimantChecks {
    /// At most this many count: each check beyond takes its round out of the count (1999 23.3,
    /// "最多只计10着").
    CountedUpTo(u32),
    /// The claim holds only with at most this many of the claimant's checks in the latest rounds
    /// of the limit (the Asian rules' claim).
    AtMostInWindow(u32),
}

/// The chase test (捉): when a capture the mover could make next counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChaseTest {
    /// The Chinese books: a new net gain (docs/gain.md §1–§4), with the acceptance of a
    /// protector's or pinned piece's capture.
    NetGain(ProtectorChase),
    /// AXF: the target is one of the book's chase targets and the exchange on its own point wins;
    /// new when no capture of it passed the same test before the move (docs/gain.md §5,
    /// `axf::chases`). The net-gain settings (checks, free captures, offers, key point, standing
    /// threats, the king answering a check) are not read.
    OnPoint,
}

/// A capture that wins the piece on its point and loses what the capturer's departure exposes
/// (a root it gave, a line it opened).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProtectorChase {
    /// Counts, whatever the whole (1999 item 4: "凡用作为根的子捉吃对方的子，也按捉处理").
    Counts,
    /// Counts when the whole is even or better (2011 26.5).
    IfEven,
}

/// Kings' and pawns' own capture threats that win nothing in the chase test.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FreeCaptures {
    /// Whose captures are free.
    pub pieces: FreePieces,
    /// Not free when the moved piece attacks the same piece (2011 26.1.1).
    pub unless_moved_piece_attacks: bool,
    /// A pawn's capture that gives check is not free (2011 26.7).
    pub unless_pawn_checks: bool,
    /// A pawn's capture of a rook made possible by another piece's move is not free (2011 26.6;
    /// the moved pawn's own threat on a rook stays free, 2011 figure 14).
    pub unless_pawn_takes_rook: bool,
    /// A pawn's capture anywhere in a line, made right after the opponent answered a check
    /// without capturing, wins nothing (借子抽吃, 2011 26.7: a pawn that wins through another
    /// piece's discovered or forking check is idle), unless it gives check or takes a rook.
    pub pawn_after_check: bool,
}

/// Which kings and pawns chase freely.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FreePieces {
    /// None in the search (AXF leaves kings and pawns out of its own chase test instead).
    None,
    /// The moved king or pawn (1999 27.1–27.2).
    Moved,
    /// Any king or pawn (2011 26.1).
    Any,
}

/// The opponent's threats after a move that are its own business, not answers to the mover's
/// line (docs/gain.md §2; docs/rules.md §4).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StandingThreats {
    /// Every capture of the opponent that wins on its point after the move, and every capture
    /// of the moved piece.
    OnTheBoard,
    /// Only threats that already won before the move (before the opponent's checking move when
    /// the mover was in check), judged with the recapture and the mover's way to win the
    /// capturer back by checks, with the captures of a gain the opponent already had by checks;
    /// the moved piece's captures only when it is offered (献). A threat the move creates is an
    /// answer to its line (2011 24.3: what the move makes possible).
    AlreadyThere,
}

/// Same-type pairs that can take each other after the move (兑, 2011 26.9–26.10).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Offers {
    /// Not judged: an exchange offer that also chases is a chase (1999 item 5).
    Chase,
    /// Played out: an offer the opponent can accept is 兑, and the mover's threats resting on
    /// taking the offered piece where it stands do not count.
    Exchange {
        /// Barred for every one of the mover's pieces when the offered piece has a real root
        /// and the mover's other pieces do not win it on its point without the offering piece
        /// (2011 26.10: an offer with pieces added so that it also chases, 兑兼捉, is a chase);
        /// otherwise only for the offering piece (AXF: "a chase that is also an exchange offer
        /// is still a chase").
        protected_barred_for_all: bool,
    },
}

/// The defensive key point (要点, 1999 27.3; 2011 26.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KeyPoint {
    /// The article cited.
    pub article: ArticleId,
    /// Also without the arbiter's assertion, where the position makes it plain (the mover's single
    /// attacking piece against several).
    pub plain_from_position: bool,
}

/// The articles a target's verdict cites.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChaseArticles {
    /// A counted chase.
    pub chase: ArticleId,
    /// A counted chase won by a series of checks.
    pub by_checks: ArticleId,
    /// A gain that was already there before the move (从捉到捉).
    pub not_new: ArticleId,
}

/// The articles every ruling with a cycle cites.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Citations {
    /// Which patterns are forbidden (1999 25.2; 2011 24.13).
    pub patterns: Option<ArticleId>,
    /// For each check of the cycle (1999 28.1).
    pub check: Option<ArticleId>,
    /// For each mate threat of the cycle (1999 28.2).
    pub mate_threat: Option<ArticleId>,
}

/// From the two sides' patterns to the verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VerdictTable {
    /// The forbidden patterns.
    pub forbidden: &'static [Pattern],
    /// A side that checks perpetually while the other does not loses at once, citing these;
    /// `None`: it is judged like any forbidden side.
    pub lone_perpetual_check_loses: Option<&'static [ArticleId]>,
    /// Both sides forbidden.
    pub both_forbidden: BothForbidden,
    /// Both sides allowed: a draw, citing this.
    pub both_allowed: ArticleId,
    /// One side forbidden and checking perpetually, the other allowed: it must change, citing
    /// these.
    pub one_forbidden_check: &'static [ArticleId],
    /// One side forbidden otherwise, the other allowed: it must change, citing these.
    pub one_forbidden: &'static [ArticleId],
    /// A side that must change and was already told to loses, citing this.
    pub told_loses: ArticleId,
}

/// The verdict when both sides' patterns are forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BothForbidden {
    /// A draw, citing these (1999 26.3, item 8).
    Draw(&'static [ArticleId]),
    /// A primary pattern against a secondary one must change, else a draw (2011 26.8).
    PrimaryChanges(ArticleId),
    /// Perpetual check against a side that does not check: the checker changes, citing
    /// `checker`; both checking: a draw, citing `both_check`; otherwise a draw, citing `draw`
    /// (AXF 6, 7 and the summary's thumb rules).
    CheckerChanges {
        /// Cited when the checker must change.
        checker: &'static [ArticleId],
        /// Cited for the draw when both sides check.
        both_check: ArticleId,
        /// Cited for the draw otherwise.
        draw: ArticleId,
    },
}

impl Profile {
    /// Whether the profile forbids `pattern`.
    pub fn forbids(&self, pattern: Pattern) -> bool {
        self.verdicts.forbidden.contains(&pattern)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_book_numbers_its_articles_once() {
        for p in PROFILES {
            for (i, a) in p.articles.iter().enumerate() {
                assert!(
                    p.articles[..i].iter().all(|b| b.number != a.number),
                    "{} {} twice",
                    p.name,
                    a.number
                );
                assert!(!a.zh.is_empty() && !a.en.is_empty());
            }
        }
    }
}
