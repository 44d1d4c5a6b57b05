//! Game records in every format qili reads, told apart by their content (not the file name): PGN
//! ([`pgn`]), XQF ([`xqf`]), DhtmlXQ/UBB ([`dhtmlxq`]) and UCCI position strings
//! ([`ucci`]). Each reads into a [`Game`]. A file in a format qili does not read is an error that
//! names the format it looks like.
//!
//! Text is read as UTF-8 (with or without BOM), UTF-16 with a BOM, else GB18030 (GBK). A game's
//! `texts` are the moves as the record writes them: PGN's notation, DhtmlXQ's four digits, UCCI's
//! ICCS; XQF stores points only, so its texts are ICCS.
//!
//! ```
//! use qili::record::{self, Format};
//!
//! let ucci = b"position startpos moves h2e2 h9g7";
//! assert_eq!(record::format(ucci), Ok(Format::Ucci));
//! let game = record::read_game(ucci).unwrap();
//! assert_eq!(game.moves.len(), 2);
//!
//! let err = record::read_game(b"PK\x03\x04\x14\x00").unwrap_err();
//! assert!(err.to_string().starts_with("this looks like a ZIP archive"), "{err}");
//! ```

pub mod dhtmlxq;
pub mod dispute;
mod game;
mod layout;
pub mod pgn;
mod text;
pub mod ucci;
pub mod xqf;

use crate::lang::{Lang, Words};
use crate::moves::Move;
use crate::position::IllegalMove;
use dhtmlxq::DhtmlXqError;
pub use dispute::{At, Dispute, DisputeError};
pub use game::Game;
use pgn::PgnError;
use std::fmt;
use text::decode_text;
use ucci::UcciError;
use xqf::XqfError;

/// A record format qili reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN as XQStudio, xqbase and 象棋巫师 write it.
    Pgn,
    /// XQStudio's binary XQF.
    Xqf,
    /// DhtmlXQ / UBB text (`[DhtmlXQ_movelist]…`).
    DhtmlXq,
    /// A UCCI position string (`position startpos moves h2e2 …`), or a bare FEN.
    Ucci,
}

impl Format {
    /// Every format, in the order they are tried.
    pub const ALL: [Format; 4] = [Format::Xqf, Format::DhtmlXq, Format::Ucci, Format::Pgn];

    /// The format's usual name.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::Xqf => "XQF",
            Format::DhtmlXq => "DhtmlXQ",
            Format::Ucci => "UCCI position",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a record cannot be read: the format it was read as and what is wrong, or the format it
/// looks like when qili does not read that one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Nothing in it.
    Empty,
    /// A format qili does not read.
    Unsupported(Lookalike),
    /// A PGN record that cannot be read.
    Pgn(#[from] PgnError),
    /// An XQF file that cannot be read.
    Xqf(#[from] XqfError),
    /// A DhtmlXQ record that cannot be read.
    DhtmlXq(#[from] DhtmlXqError),
    /// A UCCI position string that cannot be read.
    Ucci(#[from] UcciError),
    /// The record's source could not be read (a file's read failed; the system's words).
    Io(String),
}

impl Words for RecordError {
    fn words(&self, lang: Lang) -> String {
        use RecordError::*;
        let colon = lang.pick("：", ": ");
        match (self, lang) {
            (Empty, _) => lang.pick("棋谱为空", "the record is empty").into(),
            (Unsupported(what), Lang::En) => format!(
                "this looks like {}, which qili does not read (it reads PGN, XQF, DhtmlXQ/UBB and UCCI position strings)",
                what.en
            ),
            (Unsupported(what), Lang::Zh) => format!(
                "这看来是{}，qili不读这种格式（qili读PGN、XQF、DhtmlXQ/UBB棋谱和UCCI局面串）",
                what.zh
            ),
            (Pgn(e), _) => format!("PGN{colon}{}", e.words(lang)),
            (Xqf(e), _) => format!("XQF{colon}{}", e.words(lang)),
            (DhtmlXq(e), _) => format!("DhtmlXQ{colon}{}", e.words(lang)),
            (Ucci(e), _) => format!(
                "{}{colon}{}",
                lang.pick("UCCI局面串", "UCCI position"),
                e.words(lang)
            ),
            (Io(e), Lang::En) => format!("cannot read it: {e}"),
            (Io(e), Lang::Zh) => format!("无法读取：{e}"),
        }
    }
}

crate::lang::english_display!(RecordError);

impl RecordError {
    /// The format the record was read as, if it is one qili reads.
    pub fn format(&self) -> Option<Format> {
        match self {
            RecordError::Empty | RecordError::Unsupported(_) | RecordError::Io(_) => None,
            RecordError::Pgn(_) => Some(Format::Pgn),
            RecordError::Xqf(_) => Some(Format::Xqf),
            RecordError::DhtmlXq(_) => Some(Format::DhtmlXq),
            RecordError::Ucci(_) => Some(Format::Ucci),
        }
    }
}

/// What a file in a format qili does not read looks like, in both languages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lookalike {
    /// In English: `a ZIP archive`.
    pub en: &'static str,
    /// In Chinese: `ZIP压缩包`.
    pub zh: &'static str,
}

const fn looks(en: &'static str, zh: &'static str) -> Lookalike {
    Lookalike { en, zh }
}

/// Why a move of an XQF or DhtmlXQ record (stored as points) was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadMove {
    /// XQF: the two point numbers are not both on the board (0–89).
    Points {
        /// The first point's number.
        from: u8,
        /// The second's.
        to: u8,
    },
    /// DhtmlXQ: a point off the board.
    OffBoard,
    /// The move is not legal in turn.
    Illegal {
        /// The move.
        mv: Move,
        /// Why it cannot be played.
        why: IllegalMove,
    },
}

impl Words for BadMove {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (BadMove::Points { from, to }, Lang::En) => {
                format!("points {from} and {to} are not both on the board (0–89)")
            }
            (BadMove::Points { from, to }, Lang::Zh) => {
                format!("点{from}和{to}不都在棋盘上（0–89）")
            }
            (BadMove::OffBoard, _) => lang
                .pick(
                    "有一点在棋盘外（纵线为0–8）",
                    "a point off the board (files are 0–8)",
                )
                .into(),
            (BadMove::Illegal { mv, why }, _) => {
                format!("{mv}{}{}", lang.pick("：", ": "), why.words(lang))
            }
        }
    }
}

crate::lang::english_display!(BadMove);

/// Signatures of binary formats qili does not read, with what they are.
const SIGNATURES: [(&[u8], Lookalike); 14] = [
    (
        b"CCBridge Record",
        looks(
            "a CBR record (象棋桥 CCBridge)",
            "象棋桥（CCBridge）的CBR棋谱",
        ),
    ),
    (
        b"CCBridgeLibrary",
        looks(
            "a CBL library (象棋桥 CCBridge)",
            "象棋桥（CCBridge）的CBL棋谱库",
        ),
    ),
    (b"PK\x03\x04", looks("a ZIP archive", "ZIP压缩包")),
    (b"\x1f\x8b", looks("a gzip archive", "gzip压缩包")),
    (b"Rar!\x1a\x07", looks("a RAR archive", "RAR压缩包")),
    (
        b"7z\xbc\xaf\x27\x1c",
        looks("a 7-Zip archive", "7-Zip压缩包"),
    ),
    (b"%PDF", looks("a PDF document", "PDF文档")),
    (b"\x89PNG", looks("a PNG image", "PNG图片")),
    (b"\xff\xd8\xff", looks("a JPEG image", "JPEG图片")),
    (b"GIF8", looks("a GIF image", "GIF图片")),
    (
        b"\xd0\xcf\x11\xe0",
        looks(
            "an OLE document (Word, Excel, …)",
            "OLE文档（Word、Excel等）",
        ),
    ),
    (b"{\\rtf", looks("an RTF document", "RTF文档")),
    (b"\x7fELF", looks("an executable", "可执行文件")),
    (b"MZ", looks("a Windows executable", "Windows可执行文件")),
];

/// Whether `bytes` start like an XQF file: `XQ` and a version byte (never a printable letter).
fn is_xqf(bytes: &[u8]) -> bool {
    bytes.len() >= 3 && bytes.starts_with(b"XQ") && bytes[2] < 0x20
}

/// What a text that is no record qili reads looks like, if it looks like something.
fn unsupported_text(text: &str) -> Option<Lookalike> {
    let t = text.trim_start();
    let lower: String = t.chars().take(512).collect::<String>().to_ascii_lowercase();
    if lower.starts_with('<') {
        return Some(
            if lower.contains("chinesechessrecord") || lower.contains("<movelist") {
                looks(
                    "a CBF record (象棋桥 CCBridge XML)",
                    "象棋桥（CCBridge）的CBF棋谱（XML）",
                )
            } else if lower.contains("<html") || lower.starts_with("<!doctype html") {
                looks(
                    "an HTML page with no [DhtmlXQ] record in it",
                    "不含[DhtmlXQ]棋谱的HTML网页",
                )
            } else {
                looks("an XML document", "XML文档")
            },
        );
    }
    // JSON, or JSON Lines: the first line is a JSON object (a PGN comment `{…}` is not).
    let first_line = t.lines().next().unwrap_or("");
    if first_line.starts_with('{')
        && serde_json::from_str::<serde_json::Value>(first_line).is_ok_and(|v| v.is_object())
    {
        return Some(
            if first_line.contains("\"expected\"") && first_line.contains("\"moves\"") {
                looks(
                    "a qili case (run it with qili cases)",
                    "qili案例（请用qili cases运行）",
                )
            } else {
                looks("JSON", "JSON")
            },
        );
    }
    // Control characters other than line ends and tabs: binary data.
    let control = t
        .chars()
        .take(4096)
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x0c' | '\x1a'))
        .count();
    (control > 0).then_some(looks(
        "binary data in an unknown format",
        "未知格式的二进制数据",
    ))
}

/// The format `bytes` are in, or what they look like when qili does not read it.
pub fn format(bytes: &[u8]) -> Result<Format, RecordError> {
    if is_xqf(bytes) {
        return Ok(Format::Xqf);
    }
    if let Some((_, what)) = SIGNATURES.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Err(RecordError::Unsupported(*what));
    }
    let text = decode_text(bytes);
    if text.trim().is_empty() {
        return Err(RecordError::Empty);
    }
    if dhtmlxq::looks_like(&text) {
        return Ok(Format::DhtmlXq);
    }
    if let Some(what) = unsupported_text(&text) {
        return Err(RecordError::Unsupported(what));
    }
    if ucci::is_position_string(&text) || is_fen_line(&text) {
        return Ok(Format::Ucci);
    }
    Ok(Format::Pgn)
}

/// Whether the first line is a FEN board (ten ranks separated by `/`) rather than PGN.
fn is_fen_line(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    first.matches('/').count() == 9
        && first
            .chars()
            .all(|c| c == '/' || c.is_ascii_digit() || c.is_ascii_alphabetic())
}

/// Reads every game of a record in any format qili reads: all games of a PGN file, every
/// `[DhtmlXQ]` block, every non-empty line of UCCI position strings, the one game of an XQF.
/// Fails on the first game that cannot be read; [`GameReader`] reads on past it.
pub fn read_games(bytes: &[u8]) -> Result<Vec<Game>, RecordError> {
    GameReader::told(format(bytes)?, Vec::new(), bytes)?.collect()
}

/// Reads the first game of a record in any format qili reads; what follows it is not read.
pub fn read_game(bytes: &[u8]) -> Result<Game, RecordError> {
    Ok(match format(bytes)? {
        Format::Pgn => pgn::read_game(bytes)?,
        Format::Xqf => xqf::read(bytes)?,
        Format::DhtmlXq => dhtmlxq::read_game(&decode_text(bytes))?,
        Format::Ucci => {
            let text = decode_text(bytes);
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            ucci::read(first)?
        }
    })
}

/// How many bytes of a record decide its format when it is read game by game.
const HEAD: usize = 64 * 1024;

/// A record of any format qili reads, game by game: a PGN record is read from its source one game
/// at a time (the memory of its largest game, whatever the file's size); the other formats, small
/// by nature, are read whole. Each item is a game or why it cannot be read, and the games after a
/// bad one are still read (a bad XQF file, or a UCCI line, is one error item).
///
/// ```
/// use qili::record::GameReader;
///
/// let text = "[Game \"1\"]\n1. 炮二平五 *\n[Game \"2\"]\n1. 炮二进九 *\n[Game \"3\"]\n*\n";
/// let games: Vec<_> = GameReader::new(text.as_bytes()).unwrap().collect();
/// assert!(games[0].is_ok() && games[2].is_ok());
/// assert!(games[1].as_ref().unwrap_err().to_string().starts_with("PGN: game 2, line 4"));
/// ```
pub struct GameReader<R: std::io::Read> {
    format: Format,
    games: Games<R>,
}

enum Games<R: std::io::Read> {
    Pgn(pgn::Reader<std::io::Chain<std::io::Cursor<Vec<u8>>, R>>),
    Read(std::vec::IntoIter<Result<Game, RecordError>>),
}

impl<R: std::io::Read> GameReader<R> {
    /// Reads the first 64 KiB of `source` to tell its format (a record that does not look like PGN
    /// there is read whole and told by all of it); an error if it is empty, in a format qili does
    /// not read, or cannot be read.
    pub fn new(mut source: R) -> Result<GameReader<R>, RecordError> {
        use std::io::Read;
        let mut head = Vec::with_capacity(HEAD);
        source
            .by_ref()
            .take(HEAD as u64)
            .read_to_end(&mut head)
            .map_err(|e| RecordError::Io(e.to_string()))?;
        // A head cut short is judged by its whole lines only.
        let whole = match head.iter().rposition(|&b| b == b'\n') {
            Some(end) if head.len() == HEAD => &head[..=end],
            _ => &head[..],
        };
        let format = match format(whole) {
            Ok(Format::Pgn) => Format::Pgn,
            told if head.len() < HEAD => told?,
            _ => {
                source
                    .read_to_end(&mut head)
                    .map_err(|e| RecordError::Io(e.to_string()))?;
                format(&head)?
            }
        };
        GameReader::told(format, head, source)
    }

    /// A reader of a record in `format`, whose first bytes `head` were read from `source`.
    fn told(
        format: Format,
        mut head: Vec<u8>,
        mut source: R,
    ) -> Result<GameReader<R>, RecordError> {
        use std::io::Read;
        if format == Format::Pgn {
            let source = std::io::Cursor::new(head).chain(source);
            return Ok(GameReader {
                format,
                games: Games::Pgn(pgn::Reader::new(source)),
            });
        }
        source
            .read_to_end(&mut head)
            .map_err(|e| RecordError::Io(e.to_string()))?;
        let games: Vec<Result<Game, RecordError>> = match format {
            Format::Xqf => vec![xqf::read(&head).map_err(RecordError::from)],
            Format::DhtmlXq => dhtmlxq::read_each(&decode_text(&head))
                .into_iter()
                .map(|g| g.map_err(RecordError::from))
                .collect(),
            Format::Ucci | Format::Pgn => decode_text(&head)
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| ucci::read(l).map_err(RecordError::from))
                .collect(),
        };
        Ok(GameReader {
            format,
            games: Games::Read(games.into_iter()),
        })
    }

    /// The record's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Passes over the next game without reading its moves (a PGN game's text is only cut out):
    /// `None` at the end, else whether the record could be read that far.
    pub fn pass(&mut self) -> Option<Result<(), RecordError>> {
        match &mut self.games {
            Games::Pgn(reader) => reader.pass().map(|r| r.map_err(RecordError::from)),
            Games::Read(games) => games.next().map(|_| Ok(())),
        }
    }
}

impl<R: std::io::Read> Iterator for GameReader<R> {
    type Item = Result<Game, RecordError>;

    fn next(&mut self) -> Option<Result<Game, RecordError>> {
        match &mut self.games {
            Games::Pgn(reader) => reader.next().map(|r| r.map_err(RecordError::from)),
            Games::Read(games) => games.next(),
        }
    }
}
