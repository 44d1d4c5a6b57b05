//! Text for a person: the board in Chinese characters and a ruling as a table.

use qili::rules::{MoveReport, Ruling, SideReport, Target, Verdict};
use qili::{Color, Position, Square};
use std::fmt::Write;

/// Which explanation texts to print.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// Chinese only.
    Zh,
    /// English only.
    En,
    /// Both.
    Both,
}

impl Lang {
    fn zh(self) -> bool {
        self != Lang::En
    }

    fn en(self) -> bool {
        self != Lang::Zh
    }
}

/// Display width of `s` in a terminal: CJK and full-width characters take two columns.
pub fn width(s: &str) -> usize {
    s.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
}

/// `s` padded with spaces to `w` columns.
pub fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

const BLACK_FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];

/// The board from red's side: red pieces in round brackets `(车)`, black ones in square brackets
/// `[车]`; black's file numbers on top, ICCS files and red's file numbers below.
pub fn board(pos: &Position) -> String {
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
    let side = match pos.turn() {
        Color::Red => "红方走 red to move",
        Color::Black => "黑方走 black to move",
    };
    let _ = writeln!(out, "   (红 red) [黑 black] · {side}");
    out
}

/// 和 / 红负 / … with the snake-case name.
pub fn verdict(v: Verdict) -> String {
    let zh = match v {
        Verdict::Draw => "不变作和",
        Verdict::RedLoses => "红方判负",
        Verdict::BlackLoses => "黑方判负",
        Verdict::RedMustChange => "红方必须变着",
        Verdict::BlackMustChange => "黑方必须变着",
        Verdict::NoRepetition => "局面未重复",
    };
    format!("{zh} {}", v.name())
}

fn side_line(s: &SideReport) -> String {
    let who = match s.color {
        Color::Red => "红方 red  ",
        Color::Black => "黑方 black",
    };
    let status = if s.forbidden {
        "禁止 forbidden"
    } else {
        "允许 allowed"
    };
    let told = if s.told_to_change {
        " · 已被要求变着 told to change"
    } else {
        ""
    };
    format!(
        "{who}  {} {} — {status}{told}",
        s.pattern.chinese(),
        s.pattern.name()
    )
}

fn kind(m: &MoveReport) -> String {
    let mut k = format!("{} {}", m.kind.chinese(), m.kind.name());
    for idle in &m.idle_kinds {
        k += &format!("+{}", idle.chinese());
    }
    k
}

fn target(t: &Target) -> String {
    let mut s = format!(
        "{}{}{} {}",
        t.piece.color.chinese(),
        t.piece.chinese(),
        t.square,
        t.protection.chinese()
    );
    if t.gain != 0 {
        s += &format!(" +{}", t.gain);
    }
    if t.counted {
        s += " 捉";
    }
    s
}

/// The whole ruling for a person: the board, the cycle table, each side, the verdict, the articles
/// and the explanation.
pub fn ruling(r: &Ruling, final_position: &Position, lang: Lang) -> String {
    let mut out = board(final_position);
    out.push('\n');
    let _ = writeln!(out, "规则 ruleset: {}", r.ruleset.name());
    if r.cycle_length == 0 {
        let _ = writeln!(
            out,
            "循环 cycle: none — the final position never occurred before"
        );
    } else {
        let _ = writeln!(
            out,
            "循环 cycle: moves {}–{} ({} plies); the final position occurs {} times",
            r.cycle_start + 1,
            r.cycle_start + r.cycle_length,
            r.cycle_length,
            r.repetitions
        );
        let rows: Vec<[String; 6]> = r
            .moves
            .iter()
            .map(|m| {
                let targets: Vec<String> = m.targets.iter().map(target).collect();
                [
                    (m.ply + 1).to_string(),
                    m.color.chinese().to_string(),
                    m.chinese.clone(),
                    m.iccs.clone(),
                    kind(m),
                    targets.join(", "),
                ]
            })
            .collect();
        let head = ["no.", "方", "着法", "ICCS", "性质 kind", "目标 targets"];
        let mut widths = head.map(width);
        for row in &rows {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(width(c));
            }
        }
        let line = |cells: [&str; 6]| {
            let s: Vec<String> = cells.iter().zip(widths).map(|(c, w)| pad(c, w)).collect();
            s.join("  ").trim_end().to_string()
        };
        let _ = writeln!(out, "{}", line(head));
        for row in &rows {
            let _ = writeln!(out, "{}", line(row.each_ref().map(String::as_str)));
        }
    }
    out.push('\n');
    let _ = writeln!(out, "{}", side_line(&r.red));
    let _ = writeln!(out, "{}", side_line(&r.black));
    out.push('\n');
    let _ = writeln!(out, "裁决 verdict: {}", verdict(r.verdict));
    for a in &r.articles {
        let id = pad(&a.id, 8);
        let mut lines = Vec::new();
        if lang.zh() {
            lines.push(a.zh.as_str());
        }
        if lang.en() {
            lines.push(a.en.as_str());
        }
        for (i, line) in lines.iter().enumerate() {
            let label = if i == 0 { id.as_str() } else { "        " };
            let _ = writeln!(out, "  {label}{line}");
        }
    }
    if lang.zh() && !r.explanation_zh.is_empty() {
        let _ = writeln!(out, "\n说明：{}", r.explanation_zh);
    }
    if lang.en() && !r.explanation_en.is_empty() {
        let _ = writeln!(out, "\nExplanation: {}", r.explanation_en);
    }
    out
}
