//! How to rule: the profile, what the arbiter asserts, the search bounds and the texts to write.

use super::ruleset::Ruleset;
use super::tactics::gain::GainLimits;
use crate::color::Color;

/// A value per side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BySide<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T: Copy> BySide<T> {
    /// The value of `color`.
    pub fn get(&self, color: Color) -> T {
        match color {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }

    /// The values with colours swapped.
    pub fn swapped(&self) -> BySide<T> {
        BySide {
            red: self.black,
            black: self.red,
        }
    }
}

/// Bounds on the searches a ruling makes, so no request can run away (docs/rules.md, "Bounds").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Most plies of the mate-threat search (the mover's checks and the defender's replies).
    pub mate_plies: u32,
    /// Most positions one mate-threat search visits.
    pub mate_nodes: u64,
    /// Bounds of each net-gain search (plies, checks per side, positions, and the mate searches
    /// made inside its lines).
    pub gain: GainLimits,
    /// Most positions all the net-gain searches of one move visit together.
    pub move_nodes: u64,
    /// Most positions all the searches of one ruling visit together (every move's net-gain,
    /// protection and mate-threat searches): what bounds a request's cost.
    pub ruling_nodes: u64,
}

/// The default bound of one ruling's searches: over four times what the heaviest figure of the
/// rule book needs (图9, 18 200 positions), so that no ruling the books show comes near it,
/// while a position built to make the searches explode costs under 20 ms.
pub const RULING_NODES: u64 = 80_000;

impl Default for SearchLimits {
    fn default() -> SearchLimits {
        SearchLimits {
            mate_plies: 13,
            mate_nodes: 20_000,
            gain: GainLimits::default(),
            move_nodes: 60_000,
            ruling_nodes: RULING_NODES,
        }
    }
}

/// Which texts a ruling writes into itself: the targets' reasons in each language asked, and
/// the notes and the explanation if asked. The default writes them all; a caller that renders
/// the texts itself ([`words`](super::words), the sheet, the service) or reads only the verdict
/// or the move kinds rules with [`Texts::NONE`] and skips the string building.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Texts {
    /// Each move's arbiter note (`note_zh`, `note_en`).
    pub notes: bool,
    /// The ruling's explanation (`explanation_zh`, `explanation_en`).
    pub explanation: bool,
    /// The Chinese texts, reasons included (the others are left empty).
    pub zh: bool,
    /// The English texts.
    pub en: bool,
}

impl Texts {
    /// Every text, in both languages.
    pub const ALL: Texts = Texts {
        notes: true,
        explanation: true,
        zh: true,
        en: true,
    };
    /// No text at all: no reasons, notes or explanation.
    pub const NONE: Texts = Texts {
        notes: false,
        explanation: false,
        zh: false,
        en: false,
    };
}

impl Texts {
    /// A Chinese and an English text, each emptied unless its language is wanted.
    pub fn keep(self, zh: String, en: String) -> (String, String) {
        (
            if self.zh { zh } else { String::new() },
            if self.en { en } else { String::new() },
        )
    }
}

impl Default for Texts {
    fn default() -> Texts {
        Texts::ALL
    }
}

/// How to rule: the profile and what the arbiter has asserted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The rule profile.
    pub ruleset: Ruleset,
    /// Sides already told to change (24.3 / 4.1.7): a forbidden side that was told loses.
    pub told_to_change: BySide<bool>,
    /// Sides asserted to hold a defensive key point (27.3; 2011 26.2).
    pub defensive_key_point: BySide<bool>,
    /// Search bounds.
    pub limits: SearchLimits,
    /// Which texts to write (default: all); they never change the ruling.
    pub texts: Texts,
}
