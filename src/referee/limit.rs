//! The natural move limit (自然限着): rounds without a capture, and who may claim the draw
//! (docs/rules.md, "Live games").

use super::status::NaturalLimit;
use crate::color::Color;
use crate::rules::{BySide, ClaimantChecks, Ruleset};

/// The count since the last capture.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    /// Plies since the last capture (from the start position's FEN counter on).
    plies: u32,
    /// Each side's checks since the last capture, among the moves of this game.
    checks: [u32; 2],
    /// For each ply of this game since the last capture, which side gave check (bit 0 red,
    /// bit 1 black): the Asian rules count a claimant's checks within the latest rounds only.
    flags: Vec<u8>,
}

impl Clock {
    /// A clock that starts with `plies` plies already without a capture (the FEN's counter).
    pub(crate) fn new(plies: u16, capacity: usize) -> Clock {
        Clock {
            plies: u32::from(plies),
            checks: [0; 2],
            flags: Vec::with_capacity(capacity.max(16)),
        }
    }

    /// Counts a move by `mover`: a capture starts the count again; `check` says whether it gave
    /// check.
    pub(crate) fn tick(&mut self, mover: Color, capture: bool, check: bool) {
        if capture {
            self.plies = 0;
            self.checks = [0; 2];
            self.flags.clear();
            return;
        }
        self.plies = self.plies.saturating_add(1);
        if check {
            self.checks[mover.index()] += 1;
        }
        self.flags.push(if check { 1 << mover.index() } else { 0 });
    }

    /// Whether `side` may claim the draw under `ruleset` with a limit of `limit` rounds.
    fn claimable(&self, side: Color, ruleset: Ruleset, limit: u32) -> bool {
        let window = limit.saturating_mul(2);
        match ruleset.profile().game.natural_limit.claimant_checks {
            // 1999 23.3: of the claimant's checks, only so many count towards the limit; each one
            // beyond takes its round out of the count.
            ClaimantChecks::CountedUpTo(most) => {
                let excess = self.checks[side.index()].saturating_sub(most);
                self.plies.saturating_sub(excess.saturating_mul(2)) >= window
            }
            // The Asian rules: no capture, and at most so many of the claimant's checks within
            // the latest `limit` rounds.
            ClaimantChecks::AtMostInWindow(most) => {
                if self.plies < window {
                    return false;
                }
                let recent = self
                    .flags
                    .iter()
                    .rev()
                    .take(window as usize)
                    .filter(|f| *f & (1 << side.index()) != 0)
                    .count();
                u32::try_from(recent).unwrap_or(u32::MAX) <= most
            }
        }
    }

    /// The count as a status reports it.
    pub(crate) fn report(&self, ruleset: Ruleset, limit: u32) -> NaturalLimit {
        NaturalLimit {
            limit,
            plies: self.plies,
            rounds: self.plies / 2,
            checks: BySide {
                red: self.checks[0],
                black: self.checks[1],
            },
            claimable: BySide {
                red: self.claimable(Color::Red, ruleset, limit),
                black: self.claimable(Color::Black, ruleset, limit),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock after `plies` quiet plies, red moving first and checking on its first `checks`
    /// moves.
    fn clock(plies: u32, checks: u32) -> Clock {
        let mut c = Clock::new(0, 16);
        let mut given = 0;
        for i in 0..plies {
            let mover = if i % 2 == 0 { Color::Red } else { Color::Black };
            let check = mover == Color::Red && given < checks;
            given += u32::from(check);
            c.tick(mover, false, check);
        }
        c
    }

    #[test]
    fn the_chinese_rules_count_at_most_ten_of_the_claimants_checks() {
        // 12 rounds with a limit of 12: red checked 11 times, so one round of its count is out.
        let c = clock(24, 11).report(Ruleset::Cxa1999, 12);
        assert_eq!(c.checks, BySide { red: 11, black: 0 });
        assert_eq!(
            c.claimable,
            BySide {
                red: false,
                black: true
            }
        );
        let c = clock(26, 11).report(Ruleset::Cxa2011, 12);
        assert_eq!(
            c.claimable,
            BySide {
                red: true,
                black: true
            }
        );
        let c = clock(24, 10).report(Ruleset::Cxa1999, 12);
        assert!(c.claimable.red);
    }

    #[test]
    fn the_asian_rules_count_the_claimants_checks_in_the_latest_rounds() {
        let c = clock(24, 11).report(Ruleset::Axf, 12);
        assert_eq!(
            c.claimable,
            BySide {
                red: false,
                black: true
            }
        );
        // Two rounds on, the first check has left the window of the latest 12 rounds.
        let c = clock(26, 11).report(Ruleset::Axf, 12);
        assert!(c.claimable.red);
        let c = clock(23, 0).report(Ruleset::Axf, 12);
        assert_eq!(c.claimable, BySide::default());
    }

    #[test]
    fn a_capture_starts_the_count_again() {
        let mut c = clock(30, 5);
        c.tick(Color::Black, true, false);
        let r = c.report(Ruleset::Cxa1999, 12);
        assert_eq!((r.plies, r.checks), (0, BySide::default()));
    }
}
