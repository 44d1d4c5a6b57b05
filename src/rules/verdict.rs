//! From the two sides' patterns to the verdict (docs/spec.md §6), by the profile's verdict table.

use super::article::ArticleId;
use super::kinds::{MoveKind, Pattern, Protection, Verdict};
use super::options::BySide;
use super::profile::{BothForbidden, Profile};
use super::report::MoveReport;
use super::tactics::value::Material;
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
    /// The articles, in the order applied.
    pub articles: Vec<ArticleId>,
}

/// Summarises one side's cycle moves; `same_piece` says whether all its chases aim at one piece.
pub fn summarise(profile: &Profile, moves: &[&MoveReport], same_piece: bool) -> SideSummary {
    let kinds: Vec<_> = moves.iter().map(|m| m.kind).collect();
    let pattern = Pattern::from_kinds(&kinds);
    // AXF forbids a perpetual chase only when it is aimed at the same piece every time.
    let forbidden = profile.forbids(pattern)
        && !(profile.same_piece.is_some() && pattern == Pattern::PerpetualChase && !same_piece);
    // 2011 26.8: a chase of a rook or of an unprotected piece by one piece is primary; one that
    // rests on a joint chase or an insufficient root is secondary. A move is ranked by its most
    // valuable counted target.
    let primary = moves
        .iter()
        .filter(|m| m.kind == MoveKind::Chase)
        .all(|m| primary_chase(m));
    SideSummary {
        pattern,
        forbidden,
        primary,
    }
}

/// Whether a chase move is primary (2011 26.8): among its most valuable counted targets, one is
/// chased by one piece and is a rook or unprotected (or falsely rooted).
fn primary_chase(m: &MoveReport) -> bool {
    let counted = || m.targets.iter().filter(|t| t.counted);
    let worth = |t: &&super::report::Target| Material::of(t.piece, t.square).score();
    let Some(top) = counted().map(|t| worth(&t)).max() else {
        return false;
    };
    counted().filter(|t| worth(t) == top).any(|t| {
        !t.joint
            && (t.piece.role == Role::Rook
                || matches!(
                    t.protection,
                    Protection::Unprotected | Protection::FalseRoot
                ))
    })
}

/// The verdict for the two sides under `profile`; `told` says who was already told to change.
pub fn decide(
    profile: &Profile,
    red: SideSummary,
    black: SideSummary,
    told: BySide<bool>,
) -> Decision {
    let table = &profile.verdicts;
    let sides = BySide { red, black };
    let checks = |c: Color| sides.get(c).pattern == Pattern::PerpetualCheck;
    let lone_checker = Color::ALL.into_iter().find(|&c| checks(c) && !checks(!c));
    let must_change = |c: Color, articles: &mut Vec<ArticleId>| {
        if told.get(c) {
            articles.push(table.told_loses);
            loses(c)
        } else {
            change(c)
        }
    };
    let mut articles = Vec::new();
    let verdict = match (table.lone_perpetual_check_loses, lone_checker) {
        (Some(cited), Some(c)) => {
            articles.extend_from_slice(cited);
            articles.dedup();
            loses(c)
        }
        _ if red.forbidden && black.forbidden => match table.both_forbidden {
            BothForbidden::Draw(cited) => {
                articles.extend_from_slice(cited);
                Verdict::Draw
            }
            BothForbidden::PrimaryChanges(cited) => {
                articles.push(cited);
                if red.primary != black.primary {
                    let c = if red.primary {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    must_change(c, &mut articles)
                } else {
                    Verdict::Draw
                }
            }
            BothForbidden::CheckerChanges {
                checker,
                both_check,
                draw,
            } => match lone_checker {
                Some(c) => {
                    articles.extend_from_slice(checker);
                    must_change(c, &mut articles)
                }
                None => {
                    articles.push(if checks(Color::Red) && checks(Color::Black) {
                        both_check
                    } else {
                        draw
                    });
                    Verdict::Draw
                }
            },
        },
        _ if !red.forbidden && !black.forbidden => {
            articles.push(table.both_allowed);
            Verdict::Draw
        }
        _ => {
            let c = if red.forbidden {
                Color::Red
            } else {
                Color::Black
            };
            articles.extend_from_slice(if checks(c) {
                table.one_forbidden_check
            } else {
                table.one_forbidden
            });
            must_change(c, &mut articles)
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
