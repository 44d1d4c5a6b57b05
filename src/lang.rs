//! The two languages of what a person reads, and the words every error says itself in: each error
//! type renders both languages in one place (its [`Words`] impl, beside the type), its `Display`
//! being the English.
//!
//! ```
//! use qili::lang::{Lang, Words};
//! use qili::Position;
//! let e = Position::from_fen("4k4/9/9 w").unwrap_err();
//! assert_eq!(e.words(Lang::En), "FEN board has 3 ranks; expected 10 separated by '/'");
//! assert_eq!(e.words(Lang::Zh), "FEN的棋盘有3行；应为10行，以“/”分隔");
//! assert_eq!(e.to_string(), e.words(Lang::En));
//! ```

use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::square::Square;

/// A language of the texts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Chinese (simplified).
    Zh,
    /// English.
    En,
}

impl Lang {
    /// Both languages, Chinese first.
    pub const BOTH: [Lang; 2] = [Lang::Zh, Lang::En];

    /// `zh` in Chinese, `en` in English.
    pub fn pick<T>(self, zh: T, en: T) -> T {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// A message that says itself in either language from the same typed data.
pub trait Words {
    /// The message in `lang`.
    fn words(&self, lang: Lang) -> String;
}

/// A side in Chinese: 红方, 黑方.
pub fn side_zh(color: Color) -> String {
    format!("{}方", color.chinese())
}

/// A kind of piece in Chinese, as `color` writes it (红车, 黑将).
pub fn role_zh(color: Color, role: Role) -> String {
    format!("{}{}", color.chinese(), role.chinese(color))
}

/// The kind whose English name is `name` (`rook`), if any.
pub fn role_named(name: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|r| r.name() == name)
}

/// A file in `color`'s Chinese numbering (red's 一–九 from red's right, black's １–９ from
/// black's right).
pub fn file_zh(color: Color, file: u8) -> char {
    const RED: [char; 9] = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];
    const BLACK: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
    let file = usize::from(file).min(8);
    match color {
        Color::Red => RED[file],
        Color::Black => BLACK[file],
    }
}

/// A point in a Chinese text, as `color` counts files, with its ICCS name: `七路(c1)`.
pub fn point_zh(color: Color, square: Square) -> String {
    format!("{}路({square})", file_zh(color, square.file()))
}

/// A piece on its point in a Chinese text: `红七路车(c1)`.
pub fn piece_at_zh(piece: Piece, square: Square) -> String {
    format!(
        "{}{}路{}({square})",
        piece.color.chinese(),
        file_zh(piece.color, square.file()),
        piece.chinese()
    )
}

/// What went wrong with a file, a folder or a socket, in `lang`: reading or writing alike (in
/// Chinese the system's words follow, in parentheses, for the kinds not named here).
pub fn io_words(e: &std::io::Error, lang: Lang) -> String {
    use std::io::ErrorKind;
    let zh = match (lang, e.kind()) {
        (Lang::En, _) => return e.to_string(),
        (Lang::Zh, ErrorKind::NotFound) => "找不到该文件或目录",
        (Lang::Zh, ErrorKind::PermissionDenied) => "没有权限",
        (Lang::Zh, ErrorKind::IsADirectory) => "这是目录，不是文件",
        (Lang::Zh, ErrorKind::NotADirectory) => "路径中有一段不是目录",
        (Lang::Zh, ErrorKind::ReadOnlyFilesystem) => "文件系统是只读的",
        (Lang::Zh, ErrorKind::StorageFull) => "磁盘已满",
        (Lang::Zh, ErrorKind::InvalidFilename) => "文件名无效（太长，或有不允许的字符）",
        (Lang::Zh, _) => return format!("输入输出错误（{e}）"),
    };
    zh.to_string()
}

/// `Display` for types with [`Words`]: the English words.
macro_rules! english_display {
    ($($t:ty),+ $(,)?) => {
        $(
            impl std::fmt::Display for $t {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(&$crate::lang::Words::words(self, $crate::lang::Lang::En))
                }
            }
        )+
    };
}
pub(crate) use english_display;
