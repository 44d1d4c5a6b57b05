//! XQF, the binary records of 象棋演播室 (XQStudio), every version it writes: 1.0 (version byte
//! 10 and below, plain) and 1.1 to 1.8 (11–18, encrypted).
//!
//! * Header, 1024 bytes: `XQ`, the version, the key bytes (mask, product id, four "or" bytes, the
//!   key sum and the three keys), the 32-slot layout of the start (see `layout`; a point is the
//!   byte `x * 10 + y`, x the file from red's left, y the rank from red's side, 255 off the
//!   board), the side to move at 0x32 (1 = black; the first move's piece decides when there is
//!   one), the result at 0x33 (1 red wins, 2 black wins,
//!   3 draw), the kind of record at 0x40, then length-prefixed GBK strings: title 0x50, event
//!   0xD0, date 0x110, site 0x120, red 0x130, black 0x140, time control 0x150, red's and black's
//!   times 0x190 and 0x1A0, annotator 0x1D0, author 0x1E0.
//! * Moves from 0x400, depth first: a record per move (from + 24, to + 32, flags, reserved), the
//!   first an empty one for the start. Flags 0xF0 (has a next move) and 0x0F (has a variation)
//!   in 1.0, where every record is followed by a 32-bit comment length; 0x80, 0x40 and 0x20
//!   (has a comment, whose length follows) from 1.1. The main line is the first chain of
//!   "next" records; variations after it are skipped.
//! * From 1.1 the keys encrypt the layout (shifted by a key, and from 1.2 also rotated), the
//!   move points and the comment lengths, and every byte from 0x400 is offset by a 32-byte key
//!   stream made from the copyright string of XQStudio's author.
//!
//! ```
//! use qili::record::xqf::{self, Keys, Options};
//!
//! let game = qili::record::ucci::read("position startpos moves h2e2 h9g7").unwrap();
//! for version in [10, 11, 12, 18] {
//!     let options = Options { version, keys: Keys::default(), comments: Vec::new() };
//!     let bytes = xqf::write(&game, &options).unwrap();
//!     assert_eq!(xqf::read(&bytes).unwrap().moves, game.moves);
//! }
//! ```

use super::layout;
use super::{BadMove, Game};
use crate::color::Color;
use crate::fen::FenError;
use crate::lang::{Lang, Words};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Length of the header; the moves start here.
pub const HEADER_LEN: usize = 0x400;

/// The newest version XQStudio writes (1.8).
pub const NEWEST_VERSION: u8 = 18;

/// The string XQStudio's key stream is made from.
const KEY_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The header's strings: offset, size of the field (length byte included), tag.
const STRINGS: [(usize, usize, &str); 11] = [
    (0x50, 64, "Title"),
    (0xD0, 64, "Event"),
    (0x110, 16, "Date"),
    (0x120, 16, "Site"),
    (0x130, 16, "Red"),
    (0x140, 16, "Black"),
    (0x150, 64, "TimeControl"),
    (0x190, 16, "RedTime"),
    (0x1A0, 16, "BlackTime"),
    (0x1D0, 16, "Annotator"),
    (0x1E0, 16, "Author"),
];

/// Why an XQF file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XqfError {
    /// It does not start with `XQ`.
    NoSignature,
    /// It ends before a part it announces.
    Truncated {
        /// What was being read.
        what: XqfPart,
        /// Where it starts.
        at: usize,
        /// The file's length.
        len: usize,
    },
    /// A version newer than XQStudio 1.8.
    Version(u8),
    /// The key bytes do not add up (XQStudio refuses such files too).
    Keys(u8),
    /// Two pieces of the layout on one point.
    SamePoint {
        /// The point.
        square: Square,
        /// The first piece's slot, from 1.
        first: usize,
        /// The second's.
        second: usize,
    },
    /// The layout is not a valid position.
    Position(FenError),
    /// A move record that is not a legal move.
    Move {
        /// Index of the move, from 0.
        ply: usize,
        /// Where its record starts.
        at: usize,
        /// Why it was rejected.
        reason: BadMove,
    },
    /// A comment length below zero.
    CommentLength {
        /// Where the record starts.
        at: usize,
        /// The length read.
        len: i64,
    },
}

/// A part of an XQF file, as an error names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum XqfPart {
    /// The 1024-byte header.
    Header,
    /// A move record.
    MoveRecord,
    /// A comment's length.
    CommentLength,
    /// A comment.
    Comment,
}

impl XqfPart {
    fn words(self, lang: Lang) -> &'static str {
        match self {
            XqfPart::Header => lang.pick("1024字节的文件头", "the 1024-byte header"),
            XqfPart::MoveRecord => lang.pick("着法记录", "a move record"),
            XqfPart::CommentLength => lang.pick("注释长度", "a comment length"),
            XqfPart::Comment => lang.pick("注释", "a comment"),
        }
    }
}

impl Words for XqfError {
    fn words(&self, lang: Lang) -> String {
        use XqfError::*;
        match (self, lang) {
            (NoSignature, _) => lang
                .pick(
                    "没有“XQ”标记：不是XQF文件",
                    "no \"XQ\" signature: not an XQF file",
                )
                .into(),
            (Truncated { what, at, len }, Lang::En) => format!(
                "the file ends at byte {len} inside {} (byte {at})",
                what.words(lang)
            ),
            (Truncated { what, at, len }, Lang::Zh) => format!(
                "文件在第{len}字节处结束，{}（始于第{at}字节）不完整",
                what.words(lang)
            ),
            (Version(v), Lang::En) => {
                format!("version {v} is newer than XQStudio 1.8 (18), the newest qili reads")
            }
            (Version(v), Lang::Zh) => {
                format!("版本{v}比XQStudio 1.8（18）新，qili只读到该版本")
            }
            (Keys(sum), Lang::En) => format!(
                "the keys do not add up to 0 modulo 256 (they add up to {sum}): the header is damaged"
            ),
            (Keys(sum), Lang::Zh) => {
                format!("密钥之和模256不为0（和为{sum}）：文件头已损坏")
            }
            (
                SamePoint {
                    square,
                    first,
                    second,
                },
                Lang::En,
            ) => format!("pieces {first} and {second} (from 1) of the start are both on {square}"),
            (
                SamePoint {
                    square,
                    first,
                    second,
                },
                Lang::Zh,
            ) => format!("开局{}", layout::same_point_zh(*square, *first, *second)),
            (Position(e), Lang::En) => format!("the start is not a valid position: {e}"),
            (Position(e), Lang::Zh) => format!("开局不是有效局面：{}", e.words(lang)),
            (Move { ply, at, reason }, Lang::En) => format!(
                "move {ply} (counting from 0, record at byte {at}): {}",
                reason.words(lang)
            ),
            (Move { ply, at, reason }, Lang::Zh) => format!(
                "从0数起第{ply}着（记录始于第{at}字节）：{}",
                reason.words(lang)
            ),
            (CommentLength { at, len }, Lang::En) => {
                format!("the comment of the record at byte {at} has length {len}")
            }
            (CommentLength { at, len }, Lang::Zh) => {
                format!("第{at}字节处记录的注释长度为{len}")
            }
        }
    }
}

crate::lang::english_display!(XqfError);

/// The key bytes of an encrypted file (1.1 and later), as the header stores them. The key sum
/// is computed so that the keys add up to 0 modulo 256.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The mask applied to the key bytes.
    pub mask: u8,
    /// The bytes or-ed into the four key bytes.
    pub or: [u8; 4],
    /// The key of the layout.
    pub xy: u8,
    /// The key of move origins.
    pub xyf: u8,
    /// The key of move destinations.
    pub xyt: u8,
}

impl Default for Keys {
    fn default() -> Keys {
        Keys {
            mask: 0xFF,
            or: [0; 4],
            xy: 0x45,
            xyf: 0x9A,
            xyt: 0x27,
        }
    }
}

/// How to write a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// 10 (XQStudio 1.0, plain) to 18 (1.8); from 11 the file is encrypted with `keys`.
    pub version: u8,
    /// The keys (ignored for version 10).
    pub keys: Keys,
    /// Comments: `(0, text)` on the start, `(n, text)` after move `n` (from 1).
    pub comments: Vec<(usize, String)>,
}

impl Default for Options {
    /// Version 10: plain, readable by every XQStudio and every XQF reader.
    fn default() -> Options {
        Options {
            version: 10,
            keys: Keys::default(),
            comments: Vec::new(),
        }
    }
}

/// The working keys derived from the header's.
#[derive(Copy, Clone, Debug, Default)]
struct Cipher {
    /// Added to each point of the layout.
    piece: u8,
    /// Added to move origins.
    from: u8,
    /// Added to move destinations.
    to: u8,
    /// Added to comment lengths.
    comment: i64,
    /// Added to each byte from 0x400, by position modulo 32.
    stream: [u8; 32],
}

impl Cipher {
    /// The cipher of `header` (at least 16 bytes), version 11 or later.
    fn of(header: &[u8]) -> Cipher {
        let scramble = |b: u8| (u32::from(b) * u32::from(b) * 54 + 221) as u8;
        let (sum, xy, xyf, xyt) = (header[12], header[13], header[14], header[15]);
        let piece = scramble(xy).wrapping_mul(xy);
        let from = scramble(xyf).wrapping_mul(piece);
        let to = scramble(xyt).wrapping_mul(from);
        let comment = i64::from((u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767);
        let mask = header[3];
        let key = [sum, xy, xyf, xyt];
        let mut stream = [0; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = KEY_MASK[i] & ((key[i % 4] & mask) | header[8 + i % 4]);
        }
        Cipher {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }
}

/// The point of byte `v` (`x * 10 + y`), if it is on the board.
fn point(v: u8) -> Option<Square> {
    (v < 90).then(|| Square::new(v / 10, v % 10))
}

fn point_byte(sq: Square) -> u8 {
    sq.file() * 10 + sq.rank()
}

/// The string field at `offset`: a length byte, then GBK text.
fn string(header: &[u8], offset: usize, size: usize) -> String {
    let len = usize::from(header[offset]).min(size - 1);
    let bytes = &header[offset + 1..offset + 1 + len];
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
    // Always GBK, as XQStudio writes: two GBK bytes can also be valid UTF-8.
    let (text, _) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    text.trim().to_string()
}

/// Reads the moves area (decrypted), record by record.
struct Records<'a> {
    data: &'a [u8],
    at: usize,
    version: u8,
    cipher: Cipher,
}

/// One record: its move's points (before checking) and whether the main line goes on.
struct Record {
    at: usize,
    from: u8,
    to: u8,
    next: bool,
}

impl Records<'_> {
    fn take(&mut self, n: usize, what: XqfPart) -> Result<&[u8], XqfError> {
        let start = self.at;
        let end = start.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            return Err(XqfError::Truncated {
                what,
                at: HEADER_LEN + start,
                len: HEADER_LEN + self.data.len(),
            });
        };
        self.at = end;
        Ok(&self.data[start..end])
    }

    fn next(&mut self) -> Result<Record, XqfError> {
        let at = HEADER_LEN + self.at;
        let r = self.take(4, XqfPart::MoveRecord)?;
        let (from, to, flags) = (r[0], r[1], r[2]);
        let (next, commented) = if self.version <= 10 {
            (flags & 0xF0 != 0, true)
        } else {
            (flags & 0x80 != 0, flags & 0x20 != 0)
        };
        if commented {
            let l = self.take(4, XqfPart::CommentLength)?;
            let len = i64::from(i32::from_le_bytes([l[0], l[1], l[2], l[3]])) - self.cipher.comment;
            let len = usize::try_from(len).map_err(|_| XqfError::CommentLength { at, len })?;
            self.take(len, XqfPart::Comment)?;
        }
        Ok(Record {
            at,
            from: from.wrapping_sub(24).wrapping_sub(self.cipher.from),
            to: to.wrapping_sub(32).wrapping_sub(self.cipher.to),
            next,
        })
    }
}

/// Reads the main line of an XQF file, with the header's strings and result as tags.
pub fn read(bytes: &[u8]) -> Result<Game, XqfError> {
    if !bytes.starts_with(b"XQ") {
        return Err(XqfError::NoSignature);
    }
    if bytes.len() < HEADER_LEN {
        return Err(XqfError::Truncated {
            what: XqfPart::Header,
            at: 0,
            len: bytes.len(),
        });
    }
    let header = &bytes[..HEADER_LEN];
    let version = header[2];
    if version > NEWEST_VERSION {
        return Err(XqfError::Version(version));
    }
    let cipher = if version <= 10 {
        Cipher::default()
    } else {
        let sum = header[12..16].iter().fold(0u8, |a, &b| a.wrapping_add(b));
        if sum != 0 {
            return Err(XqfError::Keys(sum));
        }
        Cipher::of(header)
    };

    let mut layout = [0u8; 32];
    layout.copy_from_slice(&header[0x10..0x30]);
    if version >= 12 {
        let stored = layout;
        for (i, &b) in stored.iter().enumerate() {
            layout[(usize::from(cipher.piece) + i + 1) % 32] = b;
        }
    }
    let slots: [Option<Square>; 32] =
        std::array::from_fn(|i| point(layout[i].wrapping_sub(cipher.piece)));
    let board = layout::board(&slots).map_err(|e| XqfError::SamePoint {
        square: e.square,
        first: e.first + 1,
        second: e.second + 1,
    })?;

    let data: Vec<u8> = bytes[HEADER_LEN..]
        .iter()
        .enumerate()
        .map(|(i, &b)| b.wrapping_sub(cipher.stream[i % 32]))
        .collect();
    let mut records = Records {
        data: &data,
        at: 0,
        version,
        cipher,
    };
    let root = records.next()?;
    let mut line = Vec::new();
    let mut more = root.next;
    while more {
        let r = records.next()?;
        more = r.next;
        line.push(r);
    }

    let declared = if header[0x32] == 1 {
        Color::Black
    } else {
        Color::Red
    };
    let first_from = line.first().and_then(|r| point(r.from));
    let turn = layout::turn(&board, first_from, declared);
    let start = layout::position(&board, turn).map_err(XqfError::Position)?;

    let mut game = Game::new(start);
    for (offset, size, tag) in STRINGS {
        let value = string(header, offset, size);
        if !value.is_empty() {
            game.tags.push((tag.to_string(), value));
        }
    }
    let result = match header[0x33] {
        1 => Some("1-0"),
        2 => Some("0-1"),
        3 | 4 => Some("1/2-1/2"),
        _ => None,
    };
    if let Some(r) = result {
        game.tags.push(("Result".to_string(), r.to_string()));
        game.result = Some(r.to_string());
    }

    let mut pos = start;
    for (ply, r) in line.iter().enumerate() {
        let bad = |reason: BadMove| XqfError::Move {
            ply,
            at: r.at,
            reason,
        };
        let (Some(from), Some(to)) = (point(r.from), point(r.to)) else {
            return Err(bad(BadMove::Points {
                from: r.from,
                to: r.to,
            }));
        };
        let m = Move::new(from, to);
        pos.check_legal(m)
            .map_err(|why| bad(BadMove::Illegal { mv: m, why }))?;
        pos.play_unchecked(m);
        game.moves.push(m);
        game.texts.push(m.to_string());
    }
    Ok(game)
}

/// Why a game cannot be written as XQF.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XqfWriteError {
    /// A version XQStudio never wrote.
    #[error("version {0}: XQF versions are 10 (plain) to 18")]
    Version(u8),
    /// A move of the game is not legal in turn.
    #[error("move {ply} (counting from 0) {mv} is not legal here")]
    Move {
        /// Index of the move, from 0.
        ply: usize,
        /// The move.
        mv: Move,
    },
}

/// `text` in GBK (GB18030), cut at a character boundary to fit `max` bytes.
fn gbk(text: &str, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in text.chars() {
        let mut buf = [0; 4];
        let (bytes, _, _) = encoding_rs::GB18030.encode(c.encode_utf8(&mut buf));
        if out.len() + bytes.len() > max {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    out
}

/// Writes the main line of `game` as an XQF file of `options.version`, its tags in the header's
/// strings (a value longer than its field is cut).
pub fn write(game: &Game, options: &Options) -> Result<Vec<u8>, XqfWriteError> {
    let version = options.version;
    if !(10..=NEWEST_VERSION).contains(&version) {
        return Err(XqfWriteError::Version(version));
    }
    let mut pos = game.start;
    for (ply, &mv) in game.moves.iter().enumerate() {
        if pos.check_legal(mv).is_err() {
            return Err(XqfWriteError::Move { ply, mv });
        }
        pos.play_unchecked(mv);
    }

    let mut header = vec![0u8; HEADER_LEN];
    header[..2].copy_from_slice(b"XQ");
    header[2] = version;
    let cipher = if version > 10 {
        let k = options.keys;
        header[3] = k.mask;
        header[8..12].copy_from_slice(&k.or);
        header[13] = k.xy;
        header[14] = k.xyf;
        header[15] = k.xyt;
        header[12] = 0u8
            .wrapping_sub(k.xy)
            .wrapping_sub(k.xyf)
            .wrapping_sub(k.xyt);
        Cipher::of(&header)
    } else {
        Cipher::default()
    };

    let plain = layout::slots(game.start.board()).map(|s| s.map_or(0xFF, point_byte));
    let shifted = plain.map(|b| b.wrapping_add(cipher.piece));
    for i in 0..32 {
        header[0x10 + i] = if version >= 12 {
            shifted[(usize::from(cipher.piece) + i + 1) % 32]
        } else {
            shifted[i]
        };
    }
    if game.start.turn() == Color::Black {
        header[0x32] = 1;
    }
    header[0x33] = match game.result.as_deref().or_else(|| game.tag("Result")) {
        Some("1-0") => 1,
        Some("0-1") => 2,
        Some("1/2-1/2") => 3,
        _ => 0,
    };
    // 0 a whole game from the opening, 2 a middle game: readers set up other starts from the
    // layout only for 2 and up.
    header[0x40] = if game.start.board() == Position::start().board() {
        0
    } else {
        2
    };
    for (offset, size, tag) in STRINGS {
        if let Some(value) = game.tag(tag) {
            let bytes = gbk(value, size - 1);
            header[offset] = bytes.len() as u8;
            header[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }

    let comment = |n: usize| {
        options
            .comments
            .iter()
            .find(|(at, _)| *at == n)
            .map(|(_, text)| gbk(text, i32::MAX as usize))
    };
    let mut data = Vec::with_capacity(8 * (game.moves.len() + 1));
    // The start's empty record, then one per move.
    let records = std::iter::once(None).chain(game.moves.iter().map(Some));
    for (n, mv) in records.enumerate() {
        let (from, to) = mv.map_or((0, 0), |m| (point_byte(m.from), point_byte(m.to)));
        let next = n < game.moves.len();
        let text = comment(n).filter(|t| !t.is_empty());
        data.push(from.wrapping_add(24).wrapping_add(cipher.from));
        data.push(to.wrapping_add(32).wrapping_add(cipher.to));
        if version <= 10 {
            data.push(if next { 0xF0 } else { 0 });
            data.push(if n == 0 { 0xFF } else { 0 });
        } else {
            let flags = if next { 0x80 } else { 0 } | if text.is_some() { 0x20 } else { 0 };
            data.push(flags);
            data.push(0);
        }
        if version <= 10 || text.is_some() {
            let len = text.as_ref().map_or(0, Vec::len) as i64 + cipher.comment;
            data.extend_from_slice(&(len as i32).to_le_bytes());
        }
        data.extend_from_slice(&text.unwrap_or_default());
    }
    for (i, b) in data.iter_mut().enumerate() {
        *b = b.wrapping_add(cipher.stream[i % 32]);
    }
    header.extend_from_slice(&data);
    Ok(header)
}
