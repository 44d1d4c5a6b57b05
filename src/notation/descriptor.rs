//! The four-slot description shared by WXF and Chinese notation (piece, which one, direction,
//! number), how it resolves to a legal move, and how a move is described.

use super::{Blocked, Missing, NotationErrorKind};
use crate::color::Color;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::{IllegalMove, Position};
use crate::square::Square;

/// 进 / 退 / 平 (`+`, `-`, `.`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// A place among pieces of one kind on one file, ordered front to back (from the mover's view).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// 前: the first.
    Front,
    /// 后: the last.
    Rear,
    /// 中, or WXF's plain file digit among three or five: the middle one.
    Middle,
    /// WXF `+`: first of two or three, second of four or five.
    Plus,
    /// WXF `-`: last of two or three, second-to-last of four or five.
    Minus,
    /// WXF `++`: first of four or five.
    PlusPlus,
    /// WXF `--`: last of four or five.
    MinusMinus,
}

impl Place {
    /// The index (front = 0) this place names among `n` pieces, if it names one.
    fn index(self, n: usize) -> Option<usize> {
        match self {
            Place::Front => (n >= 2).then_some(0),
            Place::Rear => (n >= 2).then(|| n - 1),
            Place::Middle => (n >= 3 && n % 2 == 1).then_some(n / 2),
            Place::Plus => match n {
                2 | 3 => Some(0),
                4 | 5 => Some(1),
                _ => None,
            },
            Place::Minus => match n {
                2 | 3 => Some(n - 1),
                4 | 5 => Some(n - 2),
                _ => None,
            },
            Place::PlusPlus => (n >= 4).then_some(0),
            Place::MinusMinus => (n >= 4).then(|| n - 1),
        }
    }
}

/// Which piece of the kind moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    /// The piece on this file (1–9 from the mover's right); several on it are resolved by legality.
    File(u8),
    /// WXF soldier on a plain file: the middle one when three or five stand there.
    WxfFile(u8),
    /// A place among the pieces on whichever file holds several (前车, `R+`, `++`).
    Tandem(Place),
    /// A place among the pieces on a given file (WXF `3+`, `33`; Chinese 前七).
    FileTandem(u8, Place),
    /// 一…五: the n-th (1-based) soldier on files holding several, file by file from the mover's
    /// right, front to back within a file.
    Ordinal(u8),
}

/// A decoded WXF or Chinese move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Descriptor {
    pub role: Role,
    pub which: Which,
    pub dir: Direction,
    /// Destination file (sideways moves and diagonal movers) or distance (straight moves), 1–9.
    pub target: u8,
}

/// File number 1–9 counted from `color`'s right.
pub(crate) fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// Board file 0–8 of `color`'s file number `n` (1–9).
pub(crate) fn board_file(color: Color, n: u8) -> u8 {
    match color {
        Color::Red => 9 - n,
        Color::Black => n - 1,
    }
}

/// `color`'s pieces of `role` on board file `file`, front to back.
fn on_file(pos: &Position, color: Color, role: Role, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10)
        .map(|r| Square::new(file, r))
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == color && p.role == role)
        })
        .collect();
    sort_front_to_back(color, &mut squares);
    squares
}

fn sort_front_to_back(color: Color, squares: &mut [Square]) {
    match color {
        Color::Red => squares.sort_by_key(|s| std::cmp::Reverse(s.rank())),
        Color::Black => squares.sort_by_key(|s| s.rank()),
    }
}

/// Files (in `color`'s numbering, ascending: right to left) holding two or more of `color`'s
/// `role`, each with its pieces front to back.
fn tandem_files(pos: &Position, color: Color, role: Role) -> Vec<(u8, Vec<Square>)> {
    (1..=9)
        .map(|n| (n, on_file(pos, color, role, board_file(color, n))))
        .filter(|(_, squares)| squares.len() >= 2)
        .collect()
}

/// Where a piece on `from` lands, or why the description makes no move.
fn destination(
    color: Color,
    role: Role,
    from: Square,
    dir: Direction,
    target: u8,
) -> Result<Square, Blocked> {
    let piece = Piece::new(color, role);
    let sign = match dir {
        Direction::Sideways => {
            if !role.moves_straight() {
                return Err(Blocked::Sideways { piece, from });
            }
            let file = board_file(color, target);
            if file == from.file() {
                return Err(Blocked::AlreadyOnFile {
                    piece,
                    from,
                    file: target,
                });
            }
            return Ok(Square::new(file, from.rank()));
        }
        Direction::Forward => color.forward(),
        Direction::Backward => -color.forward(),
    };
    let off_board = || Blocked::OffBoard { piece, from };
    if role.moves_straight() {
        return from.offset(0, sign * target as i32).ok_or_else(off_board);
    }
    let df = board_file(color, target) as i32 - from.file() as i32;
    let dr = match (role, df.abs()) {
        (Role::Advisor, 1) => 1,
        (Role::Elephant, 2) => 2,
        (Role::Horse, 1) => 2,
        (Role::Horse, 2) => 1,
        _ => {
            return Err(Blocked::CannotReach {
                piece,
                from,
                file: target,
                forward: dir == Direction::Forward,
            });
        }
    };
    from.offset(df, sign * dr).ok_or_else(off_board)
}

/// The pieces a description can mean, and whether several of them make the text ambiguous by
/// itself (tandem designations must name exactly one piece; a plain file may hold several, of
/// which legality picks).
fn sources(pos: &Position, d: &Descriptor) -> Result<(Vec<Square>, bool), NotationErrorKind> {
    let color = pos.turn();
    let piece = Piece::new(color, d.role);
    let no_piece = |what: Missing| Err(NotationErrorKind::NoPiece(what));
    match d.which {
        Which::File(n) | Which::WxfFile(n) => {
            let squares = on_file(pos, color, d.role, board_file(color, n));
            if squares.is_empty() {
                return no_piece(Missing::OnFile { piece, file: n });
            }
            let count = squares.len();
            if matches!(d.which, Which::WxfFile(_)) && count >= 3 && count % 2 == 1 {
                return Ok((vec![squares[count / 2]], true));
            }
            Ok((squares, false))
        }
        Which::Tandem(place) => {
            let files = tandem_files(pos, color, d.role);
            if files.is_empty() {
                return no_piece(Missing::NoTandem { piece });
            }
            let found: Vec<Square> = files
                .iter()
                .filter_map(|(_, sq)| place.index(sq.len()).map(|i| sq[i]))
                .collect();
            if found.is_empty() {
                return no_piece(Missing::Place {
                    piece,
                    place,
                    counts: files.iter().map(|(_, s)| s.len()).collect(),
                });
            }
            Ok((found, true))
        }
        Which::FileTandem(n, place) => {
            let squares = on_file(pos, color, d.role, board_file(color, n));
            match place.index(squares.len()) {
                Some(i) if squares.len() >= 2 => Ok((vec![squares[i]], true)),
                _ => no_piece(Missing::PlaceOnFile {
                    piece,
                    place,
                    file: n,
                    count: squares.len(),
                }),
            }
        }
        Which::Ordinal(k) => {
            let all: Vec<Square> = tandem_files(pos, color, d.role)
                .into_iter()
                .flat_map(|(_, s)| s)
                .collect();
            match all.get(usize::from(k).wrapping_sub(1)) {
                Some(&sq) => Ok((vec![sq], true)),
                None => no_piece(Missing::Numbered {
                    piece,
                    number: k,
                    count: all.len(),
                }),
            }
        }
    }
}

/// The one legal move a description names, or why there is none or more than one.
pub(crate) fn resolve(pos: &Position, d: &Descriptor) -> Result<Move, NotationErrorKind> {
    let (from, exclusive) = sources(pos, d)?;
    if exclusive && from.len() > 1 {
        return Err(NotationErrorKind::AmbiguousPiece(from));
    }
    let mut legal = Vec::new();
    let mut exposing = None;
    let mut reasons = Vec::new();
    for sq in from {
        match destination(pos.turn(), d.role, sq, d.dir, d.target) {
            Err(reason) => reasons.push(reason),
            Ok(to) => {
                let m = Move::new(sq, to);
                match pos.check_legal(m) {
                    Ok(()) => legal.push(m),
                    Err(IllegalMove::KingLeftAttacked { .. }) => {
                        exposing.get_or_insert(m);
                    }
                    Err(_) => reasons.push(Blocked::NotAMove {
                        piece: Piece::new(pos.turn(), d.role),
                        from: sq,
                        to,
                    }),
                }
            }
        }
    }
    match (legal.len(), exposing) {
        (1, _) => Ok(legal[0]),
        (0, Some(mv)) => Err(NotationErrorKind::KingLeftAttacked {
            mv,
            turn: pos.turn(),
        }),
        (0, None) => Err(NotationErrorKind::NoMatch(reasons)),
        _ => Err(NotationErrorKind::Ambiguous(legal)),
    }
}

/// How the writer names tandem soldiers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// `P+`, `P3`, `P-`, `++`, `--`, and `3+`, `33`, `3-` with several files.
    Wxf,
    /// 前/后 for two, 前/中/后 for three, 一…五 otherwise.
    Chinese,
}

/// Describes `m` (whose origin holds a piece) the way a writer of `flavor` names it, with the
/// mover's colour. Advisors, elephants and kings never take tandem marks: the direction and
/// destination already tell which one moves.
pub(crate) fn describe(pos: &Position, m: Move, flavor: Flavor) -> Option<(Color, Descriptor)> {
    let p = pos.piece_at(m.from)?;
    let (color, role) = (p.color, p.role);
    let dr = (m.to.rank() as i32 - m.from.rank() as i32) * color.forward();
    let dir = match dr {
        0 => Direction::Sideways,
        d if d > 0 => Direction::Forward,
        _ => Direction::Backward,
    };
    let target = if dir == Direction::Sideways || !role.moves_straight() {
        own_file(color, m.to.file())
    } else {
        dr.unsigned_abs() as u8
    };
    let file = own_file(color, m.from.file());
    let which = match role {
        Role::King | Role::Advisor | Role::Elephant => Which::File(file),
        Role::Rook | Role::Horse | Role::Cannon => {
            let squares = on_file(pos, color, role, m.from.file());
            match squares.iter().position(|&s| s == m.from) {
                Some(i) if squares.len() >= 2 => {
                    Which::Tandem(if i == 0 { Place::Front } else { Place::Rear })
                }
                _ => Which::File(file),
            }
        }
        Role::Pawn => pawn_which(pos, color, m.from, file, flavor),
    };
    Some((
        color,
        Descriptor {
            role,
            which,
            dir,
            target,
        },
    ))
}

fn pawn_which(pos: &Position, color: Color, from: Square, file: u8, flavor: Flavor) -> Which {
    let files = tandem_files(pos, color, Role::Pawn);
    let Some((_, here)) = files.iter().find(|(n, _)| *n == file) else {
        return match flavor {
            Flavor::Wxf => Which::WxfFile(file),
            Flavor::Chinese => Which::File(file),
        };
    };
    let i = here.iter().position(|&s| s == from).unwrap_or(0);
    let n = here.len();
    match flavor {
        Flavor::Wxf if files.len() == 1 => {
            let places: &[Option<Place>] = match n {
                2 => &[Some(Place::Plus), Some(Place::Minus)],
                3 => &[Some(Place::Plus), None, Some(Place::Minus)],
                4 => &[
                    Some(Place::PlusPlus),
                    Some(Place::Plus),
                    Some(Place::Minus),
                    Some(Place::MinusMinus),
                ],
                _ => &[
                    Some(Place::PlusPlus),
                    Some(Place::Plus),
                    None,
                    Some(Place::Minus),
                    Some(Place::MinusMinus),
                ],
            };
            match places.get(i).copied().flatten() {
                Some(place) => Which::Tandem(place),
                None => Which::WxfFile(file),
            }
        }
        Flavor::Wxf => {
            let place = if i == 0 {
                Place::Plus
            } else if i + 1 == n {
                Place::Minus
            } else {
                Place::Middle
            };
            Which::FileTandem(file, place)
        }
        Flavor::Chinese => {
            let total: usize = files.iter().map(|(_, s)| s.len()).sum();
            match total {
                2 => Which::Tandem(if i == 0 { Place::Front } else { Place::Rear }),
                3 => Which::Tandem([Place::Front, Place::Middle, Place::Rear][i.min(2)]),
                _ => {
                    let k = files
                        .iter()
                        .flat_map(|(_, s)| s.iter())
                        .position(|&s| s == from)
                        .unwrap_or(0);
                    Which::Ordinal(k as u8 + 1)
                }
            }
        }
    }
}
