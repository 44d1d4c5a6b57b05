//! Articles of the rule books, as typed ids (the book and the number in it), each book with one
//! table of the texts qili cites (in its profile's file).

use super::ruleset::Ruleset;

/// An article of a rule book: the book (edition) and its number there (`26.4` of cxa1999, `26.5`
/// of cxa2011, `8` of axf).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArticleId {
    /// The rule book.
    pub edition: Ruleset,
    /// Its number inside that book (`26.5`, `item 7`, `8`).
    pub number: &'static str,
}

/// What an article says, in our words, in Chinese and English.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArticleText {
    /// Its number inside its book.
    pub number: &'static str,
    /// In Chinese.
    pub zh: &'static str,
    /// In English.
    pub en: &'static str,
}

impl ArticleId {
    /// The article `number` of `edition`.
    pub const fn new(edition: Ruleset, number: &'static str) -> ArticleId {
        ArticleId { edition, number }
    }

    /// The article as people cite it: the book's prefix and the number (`26.4`, `2011 26.5`,
    /// `AXF 27`).
    pub fn id(self) -> String {
        // Every full reply names each article cited: two copies, not the formatting machinery.
        let prefix = self.edition.profile().cite_prefix;
        let mut id = String::with_capacity(prefix.len() + self.number.len());
        id.push_str(prefix);
        id.push_str(self.number);
        id
    }

    /// The article as a Chinese text cites it (see [`cite_zh`]).
    pub fn cite_zh(self) -> String {
        cite_zh(self.edition, self.number)
    }

    /// Its text, from its book's table.
    pub fn text(self) -> &'static ArticleText {
        const NONE: ArticleText = ArticleText {
            number: "",
            zh: "",
            en: "",
        };
        self.edition
            .profile()
            .articles
            .iter()
            .find(|a| a.number == self.number)
            .unwrap_or(&NONE)
    }
}

/// Article `number` of `edition` as a Chinese text cites it (the profile's `cite_zh`: `25.2`,
/// `棋例细则第6条`, `2011年规则26.5`, `亚洲规则第27条`, `亚洲规则附例`).
pub fn cite_zh(edition: Ruleset, number: &str) -> String {
    edition.profile().cite_zh.cite(number)
}

/// Articles as a ruling's JSON lists them: each an object with its `id` as people cite it, its
/// `edition` (book), its `number` there and its texts `zh` and `en`.
pub fn serialize_cited<S: serde::Serializer>(list: &[ArticleId], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    struct Cited(ArticleId);
    impl serde::Serialize for Cited {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let a = self.0;
            let text = a.text();
            let mut o = s.serialize_struct("Article", 5)?;
            o.serialize_field("id", &a.id())?;
            o.serialize_field("edition", &a.edition)?;
            o.serialize_field("number", a.number)?;
            o.serialize_field("zh", text.zh)?;
            o.serialize_field("en", text.en)?;
            o.end()
        }
    }
    s.collect_seq(list.iter().map(|a| Cited(*a)))
}

/// Serialised as people cite it (`2011 26.5`).
impl serde::Serialize for ArticleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id())
    }
}

/// Declares a book's articles: a constant `ArticleId` for each, and the book's text table
/// `ARTICLES`, from one list (so every id has its text).
macro_rules! articles {
    ($edition:expr; $( $(#[$doc:meta])* $name:ident = $number:literal, $zh:literal, $en:literal; )*) => {
        $(
            #[doc = concat!("`", $number, "`: ", $en, ".")]
            $(#[$doc])*
            pub const $name: $crate::rules::article::ArticleId =
                $crate::rules::article::ArticleId::new($edition, $number);
        )*
        /// Every article of this book that qili cites, with its text.
        pub const ARTICLES: &[$crate::rules::article::ArticleText] = &[
            $( $crate::rules::article::ArticleText { number: $number, zh: $zh, en: $en }, )*
        ];
    };
}
pub(crate) use articles;
