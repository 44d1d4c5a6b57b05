//! WXF file notation: piece, file, direction, number (`C2.5`, `H8+7`, `R1+1`).
//!
//! * Pieces `K A E H R C P`, also `B` (elephant) and `N` (horse), any case.
//! * Files 1–9 from each player's own right; direction `+` forward, `-` back, `.` or `=` sideways.
//! * The last symbol is the destination file for sideways moves and for horses, elephants and
//!   advisors; the distance for straight moves of kings, rooks, cannons and soldiers.
//! * Two of a kind on a file: `R+.3` / `R-.3`, also written `+R.3`; `C-+1`, `C--1`.
//! * Soldiers on one file: two `P+`, `P-`; three `P+`, `P3` (the middle one), `P-`; four `++`,
//!   `P+`, `P-`, `--`; five `++`, `P+`, `P3`, `P-`, `--`. Several files holding several soldiers:
//!   the file replaces the letter, `3+.4`, `33.4` (middle), `3-.4`. xqbase's `Pa`…`Pe` (一…五) too.
//! * The dotless sideways form `C25` is accepted only as letter, digit, digit: no other form has
//!   three symbols, so it cannot be misread.
//! * Trailing `!`/`?` are dropped; a trailing `+` or `#` (check, mate) is dropped only when what
//!   remains is a complete move, since `+` is also a direction.

use super::Syntax;
use super::descriptor::{Descriptor, Direction, Flavor, Place, Which, describe};
use super::{fold_full_width, strip_marks};
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;

fn digit(c: char) -> Option<u8> {
    c.to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .map(|d| d as u8)
}

fn sign(c: char) -> Option<Place> {
    match c {
        '+' => Some(Place::Plus),
        '-' => Some(Place::Minus),
        _ => None,
    }
}

fn direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '.' | '=' => Some(Direction::Sideways),
        _ => None,
    }
}

/// Decodes a WXF text to its four slots.
pub(super) fn parse(text: &str) -> Result<Descriptor, Syntax> {
    let t: Vec<char> = strip_marks(text).chars().map(fold_full_width).collect();
    if t.is_empty() {
        return Err(Syntax::Empty);
    }
    let mut core: &[char] = &t;
    // Longer than a move: the tail can only be check/mate marks.
    while core.len() > 4 && matches!(core.last(), Some('+' | '#')) {
        core = &core[..core.len() - 1];
    }
    match core.len() {
        4 => match parse4(core) {
            Ok(d) => Ok(d),
            Err(e) if matches!(core[3], '+' | '#') => parse3(&core[..3]).map_err(|_| e),
            Err(e) => Err(e),
        },
        3 => parse3(core),
        n => Err(Syntax::WxfLength(n)),
    }
}

/// The dotless sideways form `C25`.
fn parse3(t: &[char]) -> Result<Descriptor, Syntax> {
    let role = Role::from_char(t[0]);
    match (role, digit(t[1]), digit(t[2])) {
        (Some(role), Some(file), Some(target)) => Ok(Descriptor {
            role,
            which: if role == Role::Pawn {
                Which::WxfFile(file)
            } else {
                Which::File(file)
            },
            dir: Direction::Sideways,
            target,
        }),
        _ => Err(Syntax::WxfShort),
    }
}

fn parse4(t: &[char]) -> Result<Descriptor, Syntax> {
    let dir = direction(t[2]).ok_or(Syntax::WxfDirection(t[2]))?;
    let target = digit(t[3]).ok_or(Syntax::WxfTarget(t[3]))?;
    let (a, b) = (t[0], t[1]);
    let bad_piece = || Syntax::WxfPiece(a, b);
    let (role, which) = if let Some(role) = Role::from_char(a) {
        if let Some(file) = digit(b) {
            let which = if role == Role::Pawn {
                Which::WxfFile(file)
            } else {
                Which::File(file)
            };
            (role, which)
        } else if let Some(place) = sign(b) {
            (role, Which::Tandem(place))
        } else if role == Role::Pawn && ('a'..='e').contains(&b.to_ascii_lowercase()) {
            let k = b.to_ascii_lowercase() as u8 - b'a' + 1;
            (role, Which::Ordinal(k))
        } else {
            return Err(bad_piece());
        }
    } else if let Some(place) = sign(a) {
        if let Some(role) = Role::from_char(b) {
            (role, Which::Tandem(place))
        } else if a == b {
            let place = if place == Place::Plus {
                Place::PlusPlus
            } else {
                Place::MinusMinus
            };
            (Role::Pawn, Which::Tandem(place))
        } else {
            return Err(bad_piece());
        }
    } else if let Some(file) = digit(a) {
        if let Some(place) = sign(b) {
            (Role::Pawn, Which::FileTandem(file, place))
        } else if digit(b) == Some(file) {
            (Role::Pawn, Which::FileTandem(file, Place::Middle))
        } else if digit(b).is_some() {
            return Err(Syntax::WxfMiddle);
        } else {
            return Err(bad_piece());
        }
    } else {
        return Err(bad_piece());
    };
    Ok(Descriptor {
        role,
        which,
        dir,
        target,
    })
}

fn letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Rook => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    }
}

/// Writes `m` in canonical WXF (`C2.5`, `H2+3`, `R+.3`, `P+.4`, `++.4`, `3+.4`, `33.4`).
pub(super) fn write(pos: &Position, m: Move) -> String {
    let Some((_, d)) = describe(pos, m, Flavor::Wxf) else {
        return m.to_string();
    };
    let l = letter(d.role);
    let head = match d.which {
        Which::File(f) | Which::WxfFile(f) => format!("{l}{f}"),
        Which::Tandem(Place::Front | Place::Plus) => format!("{l}+"),
        Which::Tandem(Place::Rear | Place::Minus) => format!("{l}-"),
        Which::Tandem(Place::PlusPlus) => "++".into(),
        Which::Tandem(Place::MinusMinus) => "--".into(),
        Which::FileTandem(f, Place::Front | Place::Plus | Place::PlusPlus) => format!("{f}+"),
        Which::FileTandem(f, Place::Rear | Place::Minus | Place::MinusMinus) => format!("{f}-"),
        Which::FileTandem(f, Place::Middle) => format!("{f}{f}"),
        // The WXF flavour of `describe` never yields these; name the file to stay readable.
        Which::Tandem(Place::Middle) | Which::Ordinal(_) => {
            let color = pos.piece_at(m.from).map_or(pos.turn(), |p| p.color);
            format!("{l}{}", super::descriptor::own_file(color, m.from.file()))
        }
    };
    let dir = match d.dir {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    };
    format!("{head}{dir}{}", d.target)
}
