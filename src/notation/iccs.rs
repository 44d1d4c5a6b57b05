//! ICCS coordinates: `h2e2` (UCCI), `H2-E2`, `h2-e2`. Ranks are 0–9 from red's side; the 1–10
//! numbering of some UCI engines is never guessed.

use super::{Blocked, Missing, NotationErrorKind, Syntax, fold_full_width, strip_marks};
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::{IllegalMove, Position};
use crate::square::Square;

/// The two squares of an ICCS text, if it is one (after annotations are stripped). Read on the
/// stack: a platform sends every move of a game with each call, so this runs for each of them.
fn squares(text: &str) -> Option<(Square, Square)> {
    let mut t = ['\0'; 5];
    let mut n = 0;
    for c in strip_marks(text).trim_end_matches(['+', '#']).chars() {
        *t.get_mut(n)? = fold_full_width(c);
        n += 1;
    }
    let (a, b) = match n {
        4 => (&t[0..2], &t[2..4]),
        5 if t[2] == '-' => (&t[0..2], &t[3..5]),
        _ => return None,
    };
    let square = |s: &[char]| {
        // Two characters: at most 8 bytes of UTF-8.
        let mut bytes = [0u8; 8];
        let mut len = 0;
        for c in s {
            len += c.encode_utf8(&mut bytes[len..]).len();
        }
        std::str::from_utf8(&bytes[..len])
            .ok()?
            .parse::<Square>()
            .ok()
    };
    Some((square(a)?, square(b)?))
}

/// Whether `text` has the shape of an ICCS move, ranks of any size included (so that `h10e10`
/// is reported as an ICCS text with a bad rank rather than as bad WXF).
pub(super) fn looks_like_iccs(text: &str) -> bool {
    let t = strip_marks(text)
        .trim_end_matches(['+', '#'])
        .to_ascii_lowercase();
    let mut rest = t.as_str();
    for i in 0..2 {
        if i == 1 {
            rest = rest.strip_prefix('-').unwrap_or(rest);
        }
        let Some(after_file) = rest.strip_prefix(|c: char| ('a'..='i').contains(&c)) else {
            return false;
        };
        let digits = after_file.len()
            - after_file
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        if digits == 0 {
            return false;
        }
        rest = &after_file[digits..];
    }
    rest.is_empty()
}

fn syntax_reason(text: &str) -> Syntax {
    if looks_like_iccs(text) {
        return Syntax::IccsRankAbove9;
    }
    Syntax::IccsShape
}

/// Reads an ICCS move and checks it is legal.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationErrorKind> {
    let (from, to) = squares(text).ok_or_else(|| NotationErrorKind::Syntax(syntax_reason(text)))?;
    let m = Move::new(from, to);
    match pos.check_legal(m) {
        Ok(()) => Ok(m),
        Err(IllegalMove::NoPiece { from, turn }) => Err(NotationErrorKind::NoPiece(Missing::At {
            turn,
            from,
            there: pos.piece_at(from),
        })),
        Err(IllegalMove::KingLeftAttacked { mv, turn }) => {
            Err(NotationErrorKind::KingLeftAttacked { mv, turn })
        }
        Err(IllegalMove::NotAMove { from, to, .. }) => {
            // `NotAMove` is only said of a piece of the side to move on `from`.
            let blocked = |piece: Piece| vec![Blocked::NotAMove { piece, from, to }];
            Err(match pos.piece_at(from) {
                Some(piece) => NotationErrorKind::NoMatch(blocked(piece)),
                None => NotationErrorKind::NoPiece(Missing::At {
                    turn: pos.turn(),
                    from,
                    there: None,
                }),
            })
        }
    }
}
