//! The API's enum values (as a `pb::Ruling` carries them) read back as the library's terms, so a
//! sheet can name them with the library's `.chinese()` and `.english()`.

use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::rules::{IdleKind, MoveKind, Pattern, Protection, Verdict};
use crate::service::{convert, pb};

/// The verdict (an unknown value reads as no repetition: nothing to rule).
pub fn verdict(v: i32) -> Verdict {
    pb::Verdict::try_from(v)
        .ok()
        .and_then(convert::verdict_of)
        .unwrap_or(Verdict::NoRepetition)
}

/// The colour (red unless black).
pub fn color(c: i32) -> Color {
    if c == pb::Color::Black as i32 {
        Color::Black
    } else {
        Color::Red
    }
}

/// The pattern, if the value names one.
pub fn pattern(p: i32) -> Option<Pattern> {
    Pattern::ALL
        .into_iter()
        .find(|x| convert::pattern(*x) as i32 == p)
}

/// The move kind (idle unless it is a check, mate threat or chase).
pub fn kind(k: i32) -> MoveKind {
    match pb::MoveKind::try_from(k) {
        Ok(pb::MoveKind::Check) => MoveKind::Check,
        Ok(pb::MoveKind::MateThreat) => MoveKind::MateThreat,
        Ok(pb::MoveKind::Chase) => MoveKind::Chase,
        _ => MoveKind::Idle,
    }
}

/// The idle kind, if the value names one.
pub fn idle_kind(k: i32) -> Option<IdleKind> {
    match pb::IdleKind::try_from(k).ok()? {
        pb::IdleKind::Exchange => Some(IdleKind::Exchange),
        pb::IdleKind::Sacrifice => Some(IdleKind::Sacrifice),
        pb::IdleKind::Block => Some(IdleKind::Block),
        pb::IdleKind::Follow => Some(IdleKind::Follow),
        pb::IdleKind::Unspecified => None,
    }
}

/// The protection, if the value names one.
pub fn protection(p: i32) -> Option<Protection> {
    match pb::Protection::try_from(p).ok()? {
        pb::Protection::Protected => Some(Protection::Protected),
        pb::Protection::Unprotected => Some(Protection::Unprotected),
        pb::Protection::FalseRoot => Some(Protection::FalseRoot),
        pb::Protection::InsufficientRoot => Some(Protection::InsufficientRoot),
        pb::Protection::HiddenRoot => Some(Protection::HiddenRoot),
        pb::Protection::Unspecified => None,
    }
}

/// The piece, if the message names one.
pub fn piece(p: Option<&pb::Piece>) -> Option<Piece> {
    let p = p?;
    let role = match pb::Role::try_from(p.role).ok()? {
        pb::Role::King => Role::King,
        pb::Role::Advisor => Role::Advisor,
        pb::Role::Elephant => Role::Elephant,
        pb::Role::Horse => Role::Horse,
        pb::Role::Rook => Role::Rook,
        pb::Role::Cannon => Role::Cannon,
        pb::Role::Pawn => Role::Pawn,
        pb::Role::Unspecified => return None,
    };
    Some(Piece::new(color(p.color), role))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_reads_back() {
        for p in Pattern::ALL {
            assert_eq!(pattern(convert::pattern(p) as i32), Some(p));
        }
        for v in Verdict::ALL {
            assert_eq!(verdict(convert::verdict(v) as i32), v);
        }
        for c in Color::ALL {
            assert_eq!(color(convert::color(c) as i32), c);
        }
        for role in Role::ALL {
            let p = Piece::new(Color::Black, role);
            assert_eq!(piece(Some(&convert::piece(p))), Some(p));
        }
        assert_eq!(kind(pb::MoveKind::MateThreat as i32), MoveKind::MateThreat);
        assert_eq!(
            protection(pb::Protection::HiddenRoot as i32),
            Some(Protection::HiddenRoot)
        );
        assert_eq!(idle_kind(pb::IdleKind::Block as i32), Some(IdleKind::Block));
        assert_eq!(pattern(0), None);
    }
}
