//! From the two sides' patterns to the verdict (SPEC §6), profile by profile.

use super::kinds::{Pattern, Protection, Verdict};
use super::options::BySide;
use super::report::MoveReport;
use super::ruleset::Ruleset;
use crate::color::Color;
use crate::piece::Role;

/// What the verdict needs to know of one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SideSummary {
    /// Its label.
    pub pattern: Pattern,
    /// Whether the profile forbids it.
    pub forbidden: bool,
    /// 2011 26.8: a primary forbidden pattern (长杀, chases of rooks or of unprotected pieces, and
    /// their mixtures with checks and mate threats), as opposed to one relying on a joint chase or
    /// an insufficient root.
    pub primary: bool,
}

/// The verdict and the articles it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The verdict.
    pub verdict: Verdict,
    /// Article ids, in the order applied.
    pub articles: Vec<&'static str>,
}

/// Whether `ruleset` forbids `pattern`.
pub fn forbidden(ruleset: Ruleset, pattern: Pattern) -> bool {
    match ruleset {
        // 1999 25.2; 2011 24.13: every cyclic attack without an idle move.
        Ruleset::Cxa1999 | Ruleset::Cxa2011 => pattern.all_attacks(),
        // AXF: only perpetual check and perpetual chase.
        Ruleset::Axf => matches!(pattern, Pattern::PerpetualCheck | Pattern::PerpetualChase),
    }
}

/// Summarises one side's cycle moves; `same_piece` says whether all its chases aim at one piece.
pub fn summarise(ruleset: Ruleset, moves: &[&MoveReport], same_piece: bool) -> SideSummary {
    let kinds: Vec<_> = moves.iter().map(|m| m.kind).collect();
    let pattern = Pattern::from_kinds(&kinds);
    // AXF forbids a perpetual chase only when it is aimed at the same piece every time.
    let forbidden = forbidden(ruleset, pattern)
        && !(ruleset == Ruleset::Axf && pattern == Pattern::PerpetualChase && !same_piece);
    // 2011 26.8: a chase of a rook or of an unprotected piece by one piece is primary; one that
    // rests on a joint chase or an insufficient root is secondary. A gain by a series of checks
    // is won outright.
    let primary = moves
        .iter()
        .filter(|m| m.kind == super::kinds::MoveKind::Chase)
        .all(|m| {
            m.targets.iter().any(|t| {
                t.counted
                    && !t.joint
                    && (t.piece.role == Role::Rook
                        || t.means == super::report::Means::Checks
                        || matches!(
                            t.protection,
                            Protection::Unprotected | Protection::FalseRoot
                        ))
            })
        });
    SideSummary {
        pattern,
        forbidden,
        primary,
    }
}

/// The verdict for the two sides under `ruleset`; `told` says who was already told to change.
pub fn decide(
    ruleset: Ruleset,
    red: SideSummary,
    black: SideSummary,
    told: BySide<bool>,
) -> Decision {
    let sides = BySide { red, black };
    let checks = |c: Color| sides.get(c).pattern == Pattern::PerpetualCheck;
    let must_change = |c: Color, articles: &mut Vec<&'static str>| {
        if told.get(c) {
            articles.push(if ruleset == Ruleset::Axf {
                "AXF 1"
            } else {
                "4.1.7"
            });
            loses(c)
        } else {
            change(c)
        }
    };
    let mut articles = Vec::new();
    let verdict = match ruleset {
        Ruleset::Cxa1999 | Ruleset::Cxa2011 => {
            let (lose_art, both_forbidden, both_allowed, one_forbidden) =
                if ruleset == Ruleset::Cxa1999 {
                    ("24.1", "26.3", "26.2", "26.4")
                } else {
                    ("2011 23.5.1", "2011 26.8", "2011 25.2", "2011 25.3")
                };
            if let Some(c) = Color::ALL.into_iter().find(|&c| checks(c) && !checks(!c)) {
                articles.extend([
                    lose_art,
                    if ruleset == Ruleset::Cxa1999 {
                        "26.1"
                    } else {
                        "2011 26.8"
                    },
                ]);
                articles.dedup();
                loses(c)
            } else if red.forbidden && black.forbidden {
                articles.push(both_forbidden);
                if ruleset == Ruleset::Cxa2011 && red.primary != black.primary {
                    let c = if red.primary {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    must_change(c, &mut articles)
                } else {
                    if ruleset == Ruleset::Cxa1999 {
                        articles.push("item 8");
                    }
                    Verdict::Draw
                }
            } else if !red.forbidden && !black.forbidden {
                articles.push(both_allowed);
                Verdict::Draw
            } else {
                let c = if red.forbidden {
                    Color::Red
                } else {
                    Color::Black
                };
                articles.push(one_forbidden);
                if ruleset == Ruleset::Cxa1999 {
                    articles.push("24.3");
                }
                must_change(c, &mut articles)
            }
        }
        Ruleset::Axf => {
            if red.forbidden && black.forbidden {
                if let Some(c) = Color::ALL.into_iter().find(|&c| checks(c) && !checks(!c)) {
                    // Perpetual check against perpetual chase: the checker changes.
                    articles.push("AXF 3");
                    must_change(c, &mut articles)
                } else {
                    articles.push("AXF 2");
                    Verdict::Draw
                }
            } else if red.forbidden || black.forbidden {
                let c = if red.forbidden {
                    Color::Red
                } else {
                    Color::Black
                };
                articles.push(if sides.get(c).pattern == Pattern::PerpetualCheck {
                    "AXF 3"
                } else {
                    "AXF 4"
                });
                must_change(c, &mut articles)
            } else {
                articles.push("AXF 5");
                Verdict::Draw
            }
        }
    };
    Decision { verdict, articles }
}

fn loses(c: Color) -> Verdict {
    match c {
        Color::Red => Verdict::RedLoses,
        Color::Black => Verdict::BlackLoses,
    }
}

fn change(c: Color) -> Verdict {
    match c {
        Color::Red => Verdict::RedMustChange,
        Color::Black => Verdict::BlackMustChange,
    }
}
