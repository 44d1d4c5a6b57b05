//! Game records: PGN as written by XQStudio, xqbase and 象棋巫师.
//!
//! * Encoding: valid UTF-8 (with or without BOM), UTF-16 with a BOM, else GB18030 (a superset of GBK/GB2312, the
//!   encoding of most Chinese downloads). CRLF or LF line ends.
//! * Tags `[Name "value"]`, names matched case-insensitively: `[FEN]` gives a set-up start,
//!   `[Format "ICCS"|"WXF"]` the move notation (no Format tag: Chinese). Each move is still read
//!   with auto-detection if it does not fit the declared notation.
//! * Move text: move numbers (`1.`, `1...`, and black's number repeated on a line of its own,
//!   `3.          马８进７`), comments `{…}` and `; …`, variations `(…)` (nested) skipped, `$n`
//!   annotations skipped. The result token (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the game and
//!   anything after it up to the next tag line (advertisements, in some downloads) is ignored.
//!
//! ```
//! use qili::record::pgn::{read_game, write_game};
//! use qili::Notation;
//!
//! let game = read_game("[Event \"demo\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0".as_bytes())
//!     .unwrap();
//! assert_eq!(game.moves.len(), 4);
//! assert_eq!(game.result.as_deref(), Some("1-0"));
//! let wxf = write_game(&game, Notation::Wxf);
//! assert!(wxf.contains("1. C2.5 H8+7"));
//! assert_eq!(read_game(wxf.as_bytes()).unwrap().moves, game.moves);
//! ```

use super::game::Game;
use crate::color::Color;
use crate::fen::FenError;
use crate::lang::{Lang, Words, side_zh};
use crate::moves::Move;
use crate::notation::{Notation, NotationError, NotationErrorKind, parse_move, write_move};
use crate::position::Position;
use std::fmt::Write;

/// Why a record could not be read: which game (0-based) and line (1-based), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PgnError {
    /// The game's index in the file, from 0.
    pub game: usize,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl Words for PgnError {
    fn words(&self, lang: Lang) -> String {
        let (game, line, kind) = (self.game + 1, self.line, self.kind.words(lang));
        match lang {
            Lang::En => format!("game {game}, line {line}: {kind}"),
            Lang::Zh => format!("第{game}局第{line}行：{kind}"),
        }
    }
}

/// The ways a record can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// Nothing that looks like a game.
    NoGame,
    /// The record could not be read to its end (a file's read failed; the system's words).
    Io(String),
    /// A tag pair that is not `[Name "value"]`.
    BadTag(TagError),
    /// The `[FEN]` tag is not a valid position.
    BadFen {
        /// The tag's value.
        fen: String,
        /// Why it was rejected.
        source: FenError,
    },
    /// A `{` comment that is never closed.
    UnclosedComment,
    /// A `(` variation that is never closed.
    UnclosedVariation,
    /// A `)` with no variation open.
    StrayParen,
    /// A move that cannot be read or is not legal.
    Move {
        /// Index of the move in the game, from 0.
        ply: usize,
        /// The move number as counted in the record (from the start position's full-move number).
        move_number: u32,
        /// The side whose move it is.
        side: Color,
        /// The move text.
        text: String,
        /// Why it was rejected.
        source: NotationError,
    },
}

impl Words for PgnErrorKind {
    fn words(&self, lang: Lang) -> String {
        use PgnErrorKind::*;
        match (self, lang) {
            (NoGame, _) => lang.pick("没有找到棋局", "no game found").into(),
            (Io(e), Lang::En) => format!("cannot read on: {e}"),
            (Io(e), Lang::Zh) => format!("无法继续读取：{e}"),
            (BadTag(e), Lang::En) => format!("bad tag: {}", e.words(lang)),
            (BadTag(e), Lang::Zh) => format!("标签有误：{}", e.words(lang)),
            (BadFen { fen, source }, Lang::En) => {
                format!("[FEN {fen:?}] is not a valid position: {source}")
            }
            (BadFen { fen, source }, Lang::Zh) => {
                format!("[FEN {fen:?}]不是有效局面：{}", source.words(lang))
            }
            (UnclosedComment, _) => lang
                .pick(
                    "此处以“{”开始的注释没有结束",
                    "a comment opened with '{' here is never closed",
                )
                .into(),
            (UnclosedVariation, _) => lang
                .pick(
                    "此处以“(”开始的变着没有结束",
                    "a variation opened with '(' here is never closed",
                )
                .into(),
            (StrayParen, _) => lang
                .pick("“)”没有对应的变着", "')' closes no variation")
                .into(),
            (
                Move {
                    ply,
                    move_number,
                    side,
                    text,
                    source,
                },
                _,
            ) => {
                let reason = source.kind.words(lang);
                match lang {
                    Lang::En => format!(
                        "move {move_number} ({side}, ply {ply} counting from 0) {text:?}: {reason}"
                    ),
                    Lang::Zh => format!(
                        "第{move_number}回合{}着法{text:?}（从0数起第{ply}着）：{reason}",
                        side_zh(*side)
                    ),
                }
            }
        }
    }
}

/// Why a tag pair is not `[Name "value"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TagError {
    /// `[` with no name after it.
    NoName,
    /// A quoted value with no closing quote.
    Unquoted(String),
    /// A tag with no closing `]`.
    Unclosed(String),
}

impl Words for TagError {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (TagError::NoName, _) => lang
                .pick(
                    "标签需要名称，如[Event \"…\"]",
                    "a tag needs a name, as in [Event \"…\"]",
                )
                .into(),
            (TagError::Unquoted(name), Lang::En) => {
                format!("the value of [{name}] has no closing '\"'")
            }
            (TagError::Unquoted(name), Lang::Zh) => format!("[{name}]的值缺少后引号“\"”"),
            (TagError::Unclosed(name), Lang::En) => format!("[{name}] is not closed with ']'"),
            (TagError::Unclosed(name), Lang::Zh) => format!("[{name}]缺少“]”"),
        }
    }
}

crate::lang::english_display!(PgnError, PgnErrorKind, TagError);

impl PgnError {
    /// The ply (0-based index of the move) the error is about, if it is about a move.
    pub fn ply(&self) -> Option<usize> {
        match self.kind {
            PgnErrorKind::Move { ply, .. } => Some(ply),
            _ => None,
        }
    }
}

/// Reads the first game of a record (UTF-8 or GBK/GB18030); anything after it is ignored.
pub fn read_game(bytes: &[u8]) -> Result<Game, PgnError> {
    Reader::new(bytes).next().unwrap_or(Err(no_game()))
}

/// Reads every game of a record; fails on the first game that cannot be read.
pub fn read_games(bytes: &[u8]) -> Result<Vec<Game>, PgnError> {
    Reader::new(bytes).collect()
}

/// The error of a record with no game in it.
fn no_game() -> PgnError {
    PgnError {
        game: 0,
        line: 1,
        kind: PgnErrorKind::NoGame,
    }
}

/// How many bytes of a record decide its encoding when it is read game by game.
const SNIFF: usize = 64 * 1024;

/// A PGN record read game by game from `R`: only one game's text is held at a time, so a record
/// of any size is read in the memory of its largest game. A game that cannot be read is an error
/// item, and the games after it are still read; a record with no game at all gives one
/// [`PgnErrorKind::NoGame`] error.
///
/// A new game begins at a tag line (`[…`) that follows move text (outside comments). The
/// encoding is decided by the first 64 KiB: UTF-8 (with or without BOM), UTF-16 with a BOM (read
/// whole), else GB18030.
///
/// ```
/// use qili::record::pgn::Reader;
///
/// let text = "[Game \"1\"]\n1. 炮二平五 *\n[Game \"2\"]\n1. 炮八平五 *\n";
/// let games: Vec<_> = Reader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].tag("Game"), Some("2"));
/// ```
pub struct Reader<R> {
    lines: Lines<R>,
    /// The game being gathered, and the first line of the next one once it is seen.
    split: Splitter,
    next_line: Option<String>,
    /// Games found so far (read or skipped).
    games: usize,
    done: bool,
}

/// A game's text as the splitter cut it.
struct Chunk {
    text: String,
    /// The record's line number of its first line.
    first_line: usize,
    /// Whether it holds a tag or a move-text token (else it is comments and blank lines only,
    /// which is no game).
    content: bool,
}

impl<R: std::io::Read> Reader<R> {
    /// A reader of the PGN record `source`.
    pub fn new(source: R) -> Reader<R> {
        Reader {
            lines: Lines::new(source),
            split: Splitter::default(),
            next_line: None,
            games: 0,
            done: false,
        }
    }

    /// The next game's text, or `None` at the end.
    fn next_chunk(&mut self) -> Option<Result<Chunk, PgnError>> {
        loop {
            if self.done {
                return None;
            }
            let line = match self.next_line.take() {
                Some(line) => Some(line),
                None => match self.lines.next() {
                    Some(Ok(line)) => Some(line),
                    Some(Err(e)) => {
                        self.done = true;
                        return Some(Err(PgnError {
                            game: self.games,
                            line: self.lines.number,
                            kind: PgnErrorKind::Io(e.to_string()),
                        }));
                    }
                    None => None,
                },
            };
            let chunk = match line {
                Some(line) => match self.split.push(line, self.lines.number) {
                    Ok(()) => continue,
                    Err((chunk, line)) => {
                        self.next_line = Some(line);
                        chunk
                    }
                },
                None => {
                    self.done = true;
                    self.split.take()
                }
            };
            if chunk.content {
                self.games += 1;
                return Some(Ok(chunk));
            }
            if self.done && self.games == 0 {
                return Some(Err(no_game()));
            }
        }
    }

    /// Passes over the next game without reading its moves: `None` at the end, else whether the
    /// record could be read that far (only reading the file can fail).
    pub fn pass(&mut self) -> Option<Result<(), PgnError>> {
        match self.next_chunk()? {
            Ok(_) => Some(Ok(())),
            Err(e) if e.kind == PgnErrorKind::NoGame => None,
            Err(e) => Some(Err(e)),
        }
    }
}

impl<R: std::io::Read> Iterator for Reader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Result<Game, PgnError>> {
        let chunk = match self.next_chunk()? {
            Ok(chunk) => chunk,
            Err(e) => return Some(Err(e)),
        };
        let index = self.games - 1;
        let mut lexer = Lexer::new(&chunk.text);
        let read = read_next(&mut lexer, index).map_err(|mut e| {
            e.line += chunk.first_line - 1;
            e
        });
        Some(read.and_then(|game| game.ok_or_else(no_game)))
    }
}

/// Cuts a record's lines into games: a tag line that follows move text begins the next game.
/// Tracks `{…}` comments across lines, so a `[` inside one begins nothing.
#[derive(Default)]
struct Splitter {
    text: String,
    first_line: usize,
    in_comment: bool,
    /// The game has move text (a token outside tags and comments).
    body: bool,
    /// The game has a tag or move text.
    content: bool,
}

impl Splitter {
    /// Adds line number `number`; when it begins the next game, hands back the finished game and
    /// the line, which the caller pushes again.
    fn push(&mut self, line: String, number: usize) -> Result<(), (Chunk, String)> {
        let trimmed = line.trim_start();
        let tag = !self.in_comment && trimmed.starts_with('[');
        if tag && self.body {
            return Err((self.take(), line));
        }
        if self.text.is_empty() {
            self.first_line = number;
        }
        if tag {
            self.content = true;
        } else if self.tokens(&line) {
            self.body = true;
            self.content = true;
        }
        self.text.push_str(&line);
        Ok(())
    }

    /// Whether a line that is no tag line holds a move-text token outside comments, as the lexer
    /// reads it: `;` comments out the rest of a line, and `%` a line that begins with it.
    fn tokens(&mut self, line: &str) -> bool {
        let mut token = false;
        let mut at_start = true;
        for c in line.chars() {
            if self.in_comment {
                if c == '}' {
                    self.in_comment = false;
                }
                continue;
            }
            match c {
                c if c.is_whitespace() => continue,
                '{' => self.in_comment = true,
                ';' => break,
                '%' if at_start => break,
                _ => token = true,
            }
            at_start = false;
        }
        token
    }

    /// The game gathered so far; the splitter starts the next one.
    fn take(&mut self) -> Chunk {
        let chunk = Chunk {
            text: std::mem::take(&mut self.text),
            first_line: self.first_line.max(1),
            content: self.content,
        };
        self.body = false;
        self.content = false;
        chunk
    }
}

/// A record's lines, decoded, each with its line end.
struct Lines<R> {
    source: Source<R>,
    raw: Vec<u8>,
    /// The number of the last line handed out.
    number: usize,
}

/// Where a record's lines come from.
enum Source<R> {
    /// Nothing read yet.
    Fresh(R),
    /// The first bytes, put back in front of the rest, and their encoding (UTF-8 or GB18030).
    Bytes(
        std::io::BufReader<std::io::Chain<std::io::Cursor<Vec<u8>>, R>>,
        &'static encoding_rs::Encoding,
    ),
    /// A UTF-16 record, decoded whole: its lines cannot be cut as bytes.
    Whole(std::vec::IntoIter<String>),
    /// At the end, or after an error.
    Done,
}

impl<R: std::io::Read> Lines<R> {
    fn new(source: R) -> Lines<R> {
        Lines {
            source: Source::Fresh(source),
            raw: Vec::new(),
            number: 0,
        }
    }

    /// Reads the first bytes and decides the encoding from them.
    fn open(mut source: R) -> std::io::Result<Source<R>> {
        use std::io::Read;
        let mut head = Vec::with_capacity(SNIFF);
        source.by_ref().take(SNIFF as u64).read_to_end(&mut head)?;
        let (encoding, bom) = match encoding_rs::Encoding::for_bom(&head) {
            Some(found) => found,
            None => match std::str::from_utf8(&head) {
                // Valid, or cut in the middle of a character at the end.
                Ok(_) => (encoding_rs::UTF_8, 0),
                Err(e) if e.error_len().is_none() => (encoding_rs::UTF_8, 0),
                Err(_) => (encoding_rs::GB18030, 0),
            },
        };
        head.drain(..bom);
        if encoding == encoding_rs::UTF_8 || encoding == encoding_rs::GB18030 {
            let bytes = std::io::Cursor::new(head).chain(source);
            return Ok(Source::Bytes(std::io::BufReader::new(bytes), encoding));
        }
        source.read_to_end(&mut head)?;
        let text = encoding.decode_without_bom_handling(&head).0;
        let lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
        Ok(Source::Whole(lines.into_iter()))
    }
}

impl<R: std::io::Read> Iterator for Lines<R> {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<std::io::Result<String>> {
        use std::io::BufRead;
        if let Source::Fresh(_) = self.source {
            let Source::Fresh(source) = std::mem::replace(&mut self.source, Source::Done) else {
                return None;
            };
            match Lines::open(source) {
                Ok(opened) => self.source = opened,
                Err(e) => return Some(Err(e)),
            }
        }
        let line = match &mut self.source {
            Source::Fresh(_) | Source::Done => return None,
            Source::Whole(lines) => lines.next()?,
            Source::Bytes(bytes, encoding) => {
                self.raw.clear();
                match bytes.read_until(b'\n', &mut self.raw) {
                    Ok(0) => {
                        self.source = Source::Done;
                        return None;
                    }
                    Ok(_) => encoding
                        .decode_without_bom_handling(&self.raw)
                        .0
                        .into_owned(),
                    Err(e) => {
                        self.source = Source::Done;
                        return Some(Err(e));
                    }
                }
            }
        };
        self.number += 1;
        Some(Ok(line))
    }
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            at: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn at_line_start(&self) -> bool {
        let before = &self.text[..self.at];
        before
            .rsplit('\n')
            .next()
            .is_none_or(|s| s.trim().is_empty())
    }

    /// Skips a `{…}` comment; the `{` is next.
    fn skip_comment(&mut self) -> Result<(), (usize, PgnErrorKind)> {
        let line = self.line;
        self.bump();
        loop {
            match self.bump() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => return Err((line, PgnErrorKind::UnclosedComment)),
            }
        }
    }

    /// Skips a `(…)` variation with those nested in it; the `(` is next.
    fn skip_variation(&mut self) -> Result<(), (usize, PgnErrorKind)> {
        let line = self.line;
        self.bump();
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => return Err((line, PgnErrorKind::UnclosedVariation)),
                Some('{') => self.skip_comment()?,
                Some(';') => self.skip_line(),
                Some(c) => {
                    self.bump();
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads `[Name "value"]`; the `[` is next.
    fn tag(&mut self) -> Result<(String, String), (usize, PgnErrorKind)> {
        let line = self.line;
        self.bump();
        let rest = &self.text[self.at..];
        let end_of_line = rest.find('\n').unwrap_or(rest.len());
        let content = &rest[..end_of_line];
        let bad = |why: TagError| (line, PgnErrorKind::BadTag(why));
        let name_len = content
            .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
            .unwrap_or(content.len());
        let name = content[..name_len].to_string();
        if name.is_empty() {
            return Err(bad(TagError::NoName));
        }
        let after = content[name_len..].trim_start();
        let skipped = content.len() - after.len();
        let (value, used) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut close = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, e)) = chars.next() {
                            value.push(e);
                        }
                    }
                    '"' => {
                        close = Some(i);
                        break;
                    }
                    _ => value.push(c),
                }
            }
            let Some(close) = close else {
                return Err(bad(TagError::Unquoted(name)));
            };
            let tail = &quoted[close + 1..];
            let Some(bracket) = tail.find(']') else {
                return Err(bad(TagError::Unclosed(name)));
            };
            (value, skipped + 1 + close + 1 + bracket + 1)
        } else {
            // Lenient: an unquoted value runs to the ']'.
            let Some(bracket) = after.find(']') else {
                return Err(bad(TagError::Unclosed(name)));
            };
            (after[..bracket].trim().to_string(), skipped + bracket + 1)
        };
        self.at += used;
        Ok((name, value))
    }

    /// The next move-text token: up to white space or a delimiter.
    fn token(&mut self) -> &'a str {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];".contains(c) {
                break;
            }
            self.bump();
        }
        &self.text[start..self.at]
    }
}

const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];

/// What a token is, once move numbers are split off.
enum Token<'a> {
    Result(&'a str),
    Skip,
    Move(&'a str),
}

fn classify(token: &str) -> Token<'_> {
    if RESULTS.contains(&token) {
        return Token::Result(token);
    }
    // `$1` glyphs, `...` and stand-alone `!`, `?!` annotations.
    if token.starts_with('$') || token.chars().all(|c| ".…!?！？".contains(c)) {
        return Token::Skip;
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == token.len() {
        return Token::Skip;
    }
    if digits > 0 {
        let rest = token[digits..].trim_start_matches(['.', '…']);
        if rest.len() < token.len() - digits {
            // `12.` or `12...炮二平五`; but `33.4` is a WXF soldier move, not move 33 then "4".
            return match rest.chars().count() {
                0 => Token::Skip,
                1 => Token::Move(token),
                _ => match classify(rest) {
                    Token::Move(m) => Token::Move(m),
                    other => other,
                },
            };
        }
    }
    Token::Move(token)
}

fn declared_notation(tags: &[(String, String)]) -> Option<Notation> {
    let format = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Format"))
        .map(|(_, v)| v.trim());
    match format {
        None => Some(Notation::Chinese),
        Some(f) if f.eq_ignore_ascii_case("ICCS") => Some(Notation::Iccs),
        Some(f) if f.eq_ignore_ascii_case("WXF") => Some(Notation::Wxf),
        Some(f) if f.eq_ignore_ascii_case("Chinese") || f == "中文" => Some(Notation::Chinese),
        Some(_) => None,
    }
}

/// Reads a move in the declared notation, falling back to auto-detection for texts that are not
/// even well formed in it.
fn read_move(
    pos: &Position,
    text: &str,
    declared: Option<Notation>,
) -> Result<Move, NotationError> {
    let Some(n) = declared else {
        return parse_move(pos, text, None);
    };
    match parse_move(pos, text, Some(n)) {
        Err(e) if matches!(e.kind, NotationErrorKind::Syntax(_)) => {
            match parse_move(pos, text, None) {
                Ok(m) => Ok(m),
                Err(auto) if auto.notation != Some(n) => Err(auto),
                Err(_) => Err(e),
            }
        }
        other => other,
    }
}

fn read_next(lexer: &mut Lexer, index: usize) -> Result<Option<Game>, PgnError> {
    let error = |line: usize, kind| PgnError {
        game: index,
        line,
        kind,
    };
    let lift = |(line, kind)| PgnError {
        game: index,
        line,
        kind,
    };
    let mut tags = Vec::new();
    let mut tag_lines = Vec::new();
    loop {
        lexer.skip_whitespace();
        match lexer.peek() {
            Some('[') => {
                tag_lines.push(lexer.line);
                tags.push(lexer.tag().map_err(lift)?);
            }
            Some('{') => lexer.skip_comment().map_err(lift)?,
            Some(';') => lexer.skip_line(),
            Some('%') if lexer.at_line_start() => lexer.skip_line(),
            _ => break,
        }
    }
    if lexer.peek().is_none() && tags.is_empty() {
        return Ok(None);
    }
    let fen_tag = tags
        .iter()
        .zip(&tag_lines)
        .find(|((k, _), _)| k.eq_ignore_ascii_case("FEN"))
        .map(|((_, v), &line)| (v.clone(), line));
    let start = match fen_tag {
        Some((fen, line)) if !fen.trim().is_empty() => Position::from_fen(&fen)
            .map_err(|source| error(line, PgnErrorKind::BadFen { fen, source }))?,
        _ => Position::start(),
    };
    let declared = declared_notation(&tags);
    let mut game = Game {
        tags,
        start,
        moves: Vec::new(),
        texts: Vec::new(),
        result: None,
    };
    let mut pos = start;
    loop {
        lexer.skip_whitespace();
        let Some(c) = lexer.peek() else { break };
        match c {
            '[' => break,
            '{' => lexer.skip_comment().map_err(lift)?,
            ';' => lexer.skip_line(),
            '(' => lexer.skip_variation().map_err(lift)?,
            ')' => return Err(error(lexer.line, PgnErrorKind::StrayParen)),
            '%' if lexer.at_line_start() => lexer.skip_line(),
            ']' | '}' => {
                lexer.bump();
            }
            _ => {
                let line = lexer.line;
                match classify(lexer.token()) {
                    Token::Skip => {}
                    Token::Result(r) => {
                        game.result = Some(r.to_string());
                        break;
                    }
                    Token::Move(text) => {
                        let ply = game.moves.len();
                        let m = read_move(&pos, text, declared).map_err(|source| {
                            error(
                                line,
                                PgnErrorKind::Move {
                                    ply,
                                    move_number: move_number(&start, ply),
                                    side: pos.turn(),
                                    text: text.to_string(),
                                    source,
                                },
                            )
                        })?;
                        pos.play_unchecked(m);
                        game.moves.push(m);
                        game.texts.push(text.to_string());
                    }
                }
            }
        }
    }
    if game.result.is_none() {
        game.result = game
            .tag("Result")
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string);
    }
    Ok(Some(game))
}

/// The record's move number of ply `ply` from `start`.
fn move_number(start: &Position, ply: usize) -> u32 {
    let black_first = usize::from(start.turn() == Color::Black);
    u32::from(start.fullmoves().max(1)) + ((ply + black_first) / 2) as u32
}

/// Writes `game` as UTF-8 PGN with its moves in `notation` (ICCS as `H2-E2`, as in PGN files).
/// `[FEN]` is written for a set-up start and `[Format]` for ICCS and WXF; other tags are kept.
pub fn write_game(game: &Game, notation: Notation) -> String {
    let mut out = String::new();
    for (name, value) in &game.tags {
        if name.eq_ignore_ascii_case("FEN") || name.eq_ignore_ascii_case("Format") {
            continue;
        }
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    if game.start != Position::start() {
        let _ = writeln!(out, "[FEN \"{}\"]", game.start.fen());
    }
    match notation {
        Notation::Iccs => out.push_str("[Format \"ICCS\"]\n"),
        Notation::Wxf => out.push_str("[Format \"WXF\"]\n"),
        Notation::Chinese => {}
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let mut pos = game.start;
    for (ply, &m) in game.moves.iter().enumerate() {
        if pos.check_legal(m).is_err() {
            let rest: Vec<String> = game.moves[ply..].iter().map(|m| m.to_string()).collect();
            let _ = write!(
                out,
                "\n{{move {} is not legal here; the moves from it on, in ICCS: {}}}",
                m,
                rest.join(" ")
            );
            break;
        }
        let text = match notation {
            Notation::Iccs => {
                let s = m.to_string().to_ascii_uppercase();
                format!("{}-{}", &s[0..2], &s[2..4])
            }
            _ => write_move(&pos, m, notation),
        };
        match pos.turn() {
            Color::Red => {
                let _ = write!(out, "{:>3}. {text}", move_number(&game.start, ply));
            }
            Color::Black if ply == 0 => {
                let _ = write!(out, "{:>3}. ... {text}", move_number(&game.start, ply));
            }
            Color::Black => {
                let _ = write!(out, " {text}");
            }
        }
        pos.play_unchecked(m);
        if pos.turn() == Color::Red {
            out.push('\n');
        }
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    // Only a result token ends the move text; any other `[Result]` value (kept among the tags)
    // would be read back as a move.
    let result = game
        .result
        .as_deref()
        .or_else(|| game.tag("Result"))
        .map(str::trim)
        .filter(|r| RESULTS.contains(r))
        .unwrap_or("*");
    let _ = writeln!(out, "{result}");
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
