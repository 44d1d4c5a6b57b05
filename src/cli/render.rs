//! Text for a person: the board in Chinese characters, a ruling and an analysis as tables, in
//! Chinese, English or both (the words come from `qili::sheet`, as on the page).

use qili::record::dispute::Dispute;
use qili::rules::{Analysis, PieceNode, Ruling, Target};
use qili::service::pb;
use qili::sheet::{self, Heading, Lang, heading, words};
use qili::{Color, Position, Square};
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

/// Which texts to print (`--lang`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LangArg {
    /// Chinese only.
    Zh,
    /// English only.
    En,
    /// Both.
    Both,
}

impl LangArg {
    /// The sheet's language.
    pub fn lang(self) -> Lang {
        match self {
            LangArg::Zh => Lang::Zh,
            LangArg::En => Lang::En,
            LangArg::Both => Lang::Both,
        }
    }

    /// The texts a ruling writes for this language.
    pub fn texts(self) -> qili::rules::Texts {
        let lang = self.lang();
        qili::rules::Texts {
            zh: lang.zh(),
            en: lang.en(),
            ..qili::rules::Texts::ALL
        }
    }

    /// The API's language, which decides the texts a ruling carries.
    pub fn language(self) -> pb::Language {
        match self {
            LangArg::Zh => pb::Language::Zh,
            LangArg::En => pb::Language::En,
            LangArg::Both => pb::Language::Both,
        }
    }
}

/// `s` padded with spaces to `w` columns (a CJK or full-width character takes two).
pub fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(s.width())))
}

/// Rows as columns padded to their widest cell (two spaces apart); a row of one cell is printed
/// as it is (a note under the row above).
fn table(head: &[String], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = head.iter().map(|h| h.width()).collect();
    for row in rows.iter().filter(|r| r.len() > 1) {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.width());
        }
    }
    let line = |cells: &[String]| {
        let s: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| pad(c, *w)).collect();
        s.join("  ").trim_end().to_string()
    };
    let mut out = line(head);
    out.push('\n');
    for row in rows {
        if row.len() == 1 {
            let _ = writeln!(out, "{}{}", pad("", widths[0] + 2), row[0]);
        } else {
            out.push_str(&line(row));
            out.push('\n');
        }
    }
    out
}

const BLACK_FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];

/// The board from red's side: red pieces in round brackets `(车)`, black ones in square brackets
/// `[车]`; black's file numbers on top, ICCS files and red's file numbers below.
pub fn board(pos: &Position, lang: Lang) -> String {
    let mut out = String::new();
    let cell = |s: &str| format!(" {} ", pad(s, 2));
    let mut top = String::from("   ");
    for f in BLACK_FILES {
        top += &cell(f);
    }
    let _ = writeln!(out, "{}", top.trim_end());
    for rank in (0..10u8).rev() {
        let mut line = format!("{rank}  ");
        for file in 0..9u8 {
            line += &match pos.piece_at(Square::new(file, rank)) {
                Some(p) if p.color == Color::Red => format!("({})", p.chinese()),
                Some(p) => format!("[{}]", p.chinese()),
                None => " ·  ".to_string(),
            };
        }
        let _ = writeln!(out, "{}", line.trim_end());
        if rank == 5 {
            let _ = writeln!(out, "     ─────────  楚 河      汉 界  ─────────");
        }
    }
    let mut files = String::from("   ");
    for f in 'a'..='i' {
        files += &cell(&f.to_string());
    }
    let _ = writeln!(out, "{}", files.trim_end());
    let mut bottom = String::from("   ");
    for f in RED_FILES {
        bottom += &cell(f);
    }
    let _ = writeln!(out, "{}", bottom.trim_end());
    let _ = writeln!(
        out,
        "   {} · {}",
        heading(lang, Heading::Legend),
        fact(lang, Heading::ToMove, &words::side(lang, pos.turn()))
    );
    out
}

/// `标签：值` / `label: value`.
fn fact(lang: Lang, key: Heading, value: &str) -> String {
    let mut label = heading(lang, key);
    if let Some(first) = label.get(..1).filter(|_| lang == Lang::En) {
        label = first.to_uppercase() + &label[1..];
    }
    format!("{label}{}{value}", words::colon(lang))
}

/// The whole ruling for a person: the board, the cycle as a table, each side, the verdict with
/// its articles, and the explanation. Without a repetition: the board and the verdict only.
pub fn ruling(r: &Ruling, d: &Dispute, lang: Lang) -> String {
    let final_position = d.positions().last().copied().unwrap_or(d.start);
    let mut out = board(&final_position, lang);
    out.push('\n');
    for (key, value) in sheet::facts(r.ruleset, d, lang) {
        let _ = writeln!(out, "{}", fact(lang, key, &value));
    }
    let verdict = r.verdict;
    let repeated = r.cycle_length > 0 && !r.moves.is_empty();
    if repeated {
        for line in sheet::cycle_lines(r, lang) {
            let _ = writeln!(out, "{line}");
        }
        let head: Vec<String> = [
            Heading::Round,
            Heading::Side,
            Heading::Move,
            Heading::Kind,
            Heading::Targets,
        ]
        .iter()
        .map(|k| heading(lang, *k))
        .chain(["ICCS".to_string()])
        .collect();
        let mut rows = Vec::new();
        for m in &r.moves {
            let targets: Vec<String> = m
                .targets
                .iter()
                .map(|t| sheet::target_text(lang, t))
                .collect();
            rows.push(vec![
                words::round(lang, m.round),
                words::side_short(lang, m.color),
                m.chinese.clone(),
                sheet::kind_text(lang, m),
                targets.join(", "),
                m.iccs.clone(),
            ]);
            if let Some(line) = sheet::mate_line_text(m) {
                rows.push(vec![fact(lang, Heading::MateLine, &line)]);
            }
        }
        out.push_str(&table(&head, &rows));
        out.push('\n');
        let sides = [&r.red, &r.black];
        let who: Vec<String> = sides.iter().map(|s| words::side(lang, s.color)).collect();
        let w = who.iter().map(|s| s.width()).max().unwrap_or(0);
        for (s, who) in sides.iter().zip(&who) {
            let pattern = words::pattern(lang, s.pattern);
            let told = if s.told_to_change {
                format!(" · {}", heading(lang, Heading::Told))
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{}  {pattern} — {}{told}",
                pad(who, w),
                words::allowed(lang, s.forbidden)
            );
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "{}",
        fact(lang, Heading::Verdict, &words::verdict(lang, verdict))
    );
    if r.repetitions == 2 {
        for line in words::two_occurrences(lang) {
            let _ = writeln!(out, "  {line}");
        }
    }
    // The articles as the language cites them, in one column wide enough for the longest
    // (`2011 26.1.2`, `棋例细则第11条`).
    let cited: Vec<String> = r
        .articles
        .iter()
        .map(|a| words::article(lang, *a))
        .collect();
    let width = cited.iter().map(|c| c.width() + 2).fold(8, usize::max);
    let blank = " ".repeat(width);
    for (a, cited) in r.articles.iter().zip(&cited) {
        let id = pad(cited, width);
        for (i, l) in lang.each().enumerate() {
            let label = if i == 0 { id.as_str() } else { blank.as_str() };
            let _ = writeln!(out, "  {label}{}", qili::rules::words::article_text(*a, l));
        }
    }
    for (l, text) in sheet::explanation(r, lang) {
        let label = match l {
            qili::rules::words::Lang::Zh => "说明：",
            qili::rules::words::Lang::En => "Explanation: ",
        };
        let _ = writeln!(out, "\n{label}{text}");
    }
    out
}

/// The analysis for a person: the board analysed, the move's kind and targets, every attacked
/// piece, and the attack/defence graph.
pub fn analysis(a: &Analysis, lang: Lang) -> String {
    let mut out = board(&a.position, lang);
    out.push('\n');
    let _ = writeln!(out, "{}", fact(lang, Heading::Position, &a.position.fen()));
    if let Some(m) = &a.mv {
        let _ = writeln!(
            out,
            "{}",
            fact(
                lang,
                Heading::Move,
                &format!(
                    "{} — {}",
                    sheet::move_text(lang, m),
                    sheet::kind_text(lang, m)
                )
            )
        );
        if let Some(line) = sheet::mate_line_text(m) {
            let _ = writeln!(out, "{}", fact(lang, Heading::MateLine, &line));
        }
        if !m.targets.is_empty() {
            let _ = writeln!(out, "\n{}", heading(lang, Heading::MoveTargets));
            out.push_str(&targets(&m.targets, &a.graph.pieces, lang));
        }
    }
    let _ = writeln!(out, "\n{}", heading(lang, Heading::Attacked));
    if a.attacked.is_empty() {
        let _ = writeln!(out, "{}", heading(lang, Heading::None));
    } else {
        out.push_str(&targets(&a.attacked, &a.graph.pieces, lang));
    }
    let _ = writeln!(out, "\n{}", heading(lang, Heading::Graph));
    let head: Vec<String> = [
        Heading::Piece,
        Heading::Square,
        Heading::Attacks,
        Heading::Defends,
    ]
    .iter()
    .map(|k| heading(lang, *k))
    .collect();
    let rows: Vec<Vec<String>> = sheet::graph_rows(a, lang)
        .into_iter()
        .map(|g| vec![g.piece, g.square, g.attacks, g.defends])
        .collect();
    out.push_str(&table(&head, &rows));
    out
}

fn targets(list: &[Target], pieces: &[PieceNode], lang: Lang) -> String {
    let head: Vec<String> = [
        Heading::Piece,
        Heading::Attackers,
        Heading::Defenders,
        Heading::Protection,
        Heading::Gain,
    ]
    .iter()
    .map(|k| heading(lang, *k))
    .collect();
    let mut rows = Vec::new();
    for t in list {
        let row = sheet::target_row(t, lang, pieces);
        rows.push(vec![
            row.piece,
            row.attackers,
            row.defenders,
            row.protection,
            row.gain,
        ]);
        for reason in sheet::reasons(lang, t) {
            rows.push(vec![reason]);
        }
    }
    table(&head, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_and_full_width_take_two_columns() {
        assert_eq!(pad("a3b3", 6), "a3b3  ");
        assert_eq!(pad("车九平八", 10), "车九平八  ");
        assert_eq!(pad("炮２平１", 9), "炮２平１ ");
        assert_eq!(pad("长将", 3), "长将", "never cut");
        let t = table(
            &["着法".to_string(), "kind".to_string()],
            &[vec!["h2e2".to_string(), "闲".to_string()]],
        );
        assert_eq!(t, "着法  kind\nh2e2  闲\n");
    }
}
