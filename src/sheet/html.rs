//! The sheet as HTML: a fragment (`<article class="qili-sheet">`) for the consult page, or a whole
//! self-contained document (style, diagrams and the step-through script inline) to print or attach.

use super::words::{self, Heading, Lang, heading};
use super::{Diagrams, Paperwork};
use super::{analysis_diagram, kind_text, mate_line_text, move_diagram, move_text, target_text};
use crate::diagram::{Diagram, escape};
use crate::position::Position;
use crate::record::dispute::Dispute;
use crate::referee::ForbiddenMove;
use crate::rules::{Analysis, PieceNode, Ruling, Target, Verdict};
use std::fmt::Write;

/// The sheet's stylesheet (screen and print).
pub const STYLE: &str = include_str!("sheet.css");
/// The step-through of the cycle's diagrams (previous/next); without it every diagram shows.
pub const SCRIPT: &str = include_str!("steps.js");

/// A whole HTML document around `body`, style and script inline.
fn document(lang: Lang, title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>\n{body}\n<script>{SCRIPT}</script></body></html>\n",
        lang.tag(),
        escape(title)
    )
}

/// The printable ruling as one self-contained HTML document (`qili judge --format html`), with
/// the cycle diagrams of `diagrams`.
pub fn ruling_document(
    r: &Ruling,
    d: &Dispute,
    paperwork: &Paperwork,
    forbidden: &[ForbiddenMove],
    diagrams: Diagrams,
    lang: Lang,
) -> String {
    let title = format!(
        "{} — {}",
        heading(lang, Heading::Title),
        words::verdict(lang, r.verdict)
    );
    document(
        lang,
        &title,
        &ruling_fragment(r, d, paperwork, forbidden, diagrams, lang),
    )
}

/// The printable analysis as one self-contained HTML document (`qili analyze --format html`).
pub fn analysis_document(a: &Analysis, lang: Lang) -> String {
    document(
        lang,
        &heading(lang, Heading::Analysis),
        &analysis_fragment(a, lang),
    )
}

fn h2(out: &mut String, lang: Lang, key: Heading) {
    let _ = write!(out, "<h2>{}</h2>", escape(&heading(lang, key)));
}

fn paragraphs(out: &mut String, class: &str, lines: &[String]) {
    for line in lines {
        let _ = write!(out, "<p class=\"{class}\">{}</p>", escape(line));
    }
}

fn figure(out: &mut String, step: usize, diagram: &Diagram, caption: &str) {
    let _ = write!(
        out,
        "<figure class=\"step\" data-step=\"{step}\">{}<figcaption>{caption}</figcaption></figure>",
        diagram.svg()
    );
}

/// The ruling as an `<article>`: the paperwork, heading facts, the verdict, the cycle's diagrams
/// (those of `diagrams`), the table of moves, each side, the articles and the explanation. A
/// ruling without repetition shows the final position and the verdict only (no side patterns).
pub fn ruling_fragment(
    r: &Ruling,
    d: &Dispute,
    paperwork: &Paperwork,
    forbidden: &[ForbiddenMove],
    diagrams: Diagrams,
    lang: Lang,
) -> String {
    let verdict = r.verdict;
    let positions = d.positions();
    let mut h = String::with_capacity(64 * 1024);
    let _ = write!(
        h,
        "<article class=\"qili-sheet\" lang=\"{}\" data-verdict=\"{}\" data-repetitions=\"{}\">",
        lang.tag(),
        verdict.name(),
        r.repetitions
    );
    facts(&mut h, r, d, paperwork, lang);

    h.push_str("<section class=\"verdict\">");
    h2(&mut h, lang, Heading::Verdict);
    let _ = write!(
        h,
        "<p class=\"verdict-line v-{}\">{}</p>",
        verdict.name(),
        escape(&words::verdict(lang, verdict))
    );
    if r.repetitions == 2 {
        paragraphs(&mut h, "warning", &words::two_occurrences(lang));
    }
    // What the side to move may no longer play, now that the ruling is made.
    let to_move = positions.last().map_or(d.start.turn(), Position::turn);
    if let Some(line) = words::forbidden_moves(lang, to_move, forbidden) {
        paragraphs(&mut h, "forbidden-moves", &[line]);
    }
    h.push_str("</section>");

    if verdict == Verdict::NoRepetition || r.cycle_length == 0 || r.moves.is_empty() {
        if let Some(last) = positions.last() {
            let mut diagram = Diagram::new(last).title(&heading(lang, Heading::Final));
            if let Some(m) = d.moves.last() {
                diagram = diagram.last_move(*m);
            }
            h.push_str("<section class=\"cycle\"><div class=\"steps\">");
            figure(&mut h, 0, &diagram, &escape(&heading(lang, Heading::Final)));
            h.push_str("</div></section>");
        }
        explanation(&mut h, r, lang);
        h.push_str("</article>");
        return h;
    }

    cycle(&mut h, r, d, &positions, diagrams, lang);
    moves_table(&mut h, r, lang);
    sides(&mut h, r, lang);
    articles(&mut h, r, lang);
    explanation(&mut h, r, lang);
    h.push_str("</article>");
    h
}

fn facts(h: &mut String, r: &Ruling, d: &Dispute, paperwork: &Paperwork, lang: Lang) {
    h.push_str("<header class=\"sheet-head\">");
    let _ = write!(h, "<h1>{}</h1>", heading(lang, Heading::Title));
    // The arbiter's fields first, then the record's tags.
    let from_record = d
        .source
        .as_ref()
        .map_or_else(Paperwork::default, |s| Paperwork::from_tags(&s.tags));
    paperwork_fields(h, &paperwork.clone().or(from_record), lang);
    h.push_str("<dl class=\"facts\">");
    for (key, value) in super::facts(r.ruleset, d, lang) {
        let _ = write!(
            h,
            "<dt>{}</dt><dd>{}</dd>",
            escape(&heading(lang, key)),
            escape(&value)
        );
    }
    h.push_str("</dl></header>");
}

/// The paperwork as labelled lines, a blank line for each field not given and for the signature.
fn paperwork_fields(h: &mut String, p: &Paperwork, lang: Lang) {
    h.push_str("<dl class=\"paperwork\">");
    for (class, key, value) in [
        ("event", Heading::Event, p.event.as_str()),
        ("round", Heading::MatchRound, &p.round),
        ("board", Heading::Board, &p.board),
        ("red", Heading::RedPlayer, &p.red),
        ("black", Heading::BlackPlayer, &p.black),
        ("time", Heading::RulingTime, &p.time),
        ("arbiter", Heading::Arbiter, &p.arbiter),
        ("signature", Heading::Signature, ""),
    ] {
        let _ = write!(
            h,
            "<div class=\"pw-{class}\"><dt>{}</dt><dd>{}</dd></div>",
            escape(&heading(lang, key)),
            escape(value.trim())
        );
    }
    h.push_str("</dl>");
}

fn cycle(
    h: &mut String,
    r: &Ruling,
    d: &Dispute,
    positions: &[Position],
    diagrams: Diagrams,
    lang: Lang,
) {
    h.push_str("<section class=\"cycle\">");
    h2(h, lang, Heading::Cycle);
    paragraphs(h, "summary", &super::cycle_lines(r, lang));
    let _ = write!(
        h,
        "<div class=\"steps\" data-prev=\"{}\" data-next=\"{}\">",
        escape(&heading(lang, Heading::Previous)),
        escape(&heading(lang, Heading::Next))
    );
    let start = r.cycle_start;
    let total = r.moves.len();
    let window = diagrams.window(total + 1);
    if let Some(at_start) = positions.get(start).filter(|_| window.contains(&0)) {
        let mut diagram = Diagram::new(at_start).title(&heading(lang, Heading::Start));
        if let Some(before) = start.checked_sub(1).and_then(|p| d.moves.get(p)) {
            diagram = diagram.last_move(*before);
        }
        let caption = format!(
            "<b>0/{total}</b> {}",
            escape(&heading(lang, Heading::Start))
        );
        figure(h, 0, &diagram, &caption);
    }
    for (i, m) in r.moves.iter().enumerate() {
        let Some(after) = positions
            .get(m.ply + 1)
            .filter(|_| window.contains(&(i + 1)))
        else {
            continue;
        };
        let mut caption = format!(
            "<b>{}/{total}</b> {} — <span class=\"kind\">{}</span>",
            i + 1,
            escape(&move_text(lang, m)),
            escape(&kind_text(lang, m))
        );
        let targets: Vec<String> = m.targets.iter().map(|t| target_text(lang, t)).collect();
        if !targets.is_empty() {
            let _ = write!(caption, "<br>{}", escape(&targets.join("; ")));
        }
        if let Some(line) = mate_line_text(m) {
            let _ = write!(
                caption,
                "<br>{}{}{}",
                escape(&heading(lang, Heading::MateLine)),
                words::colon(lang),
                escape(&line)
            );
        }
        figure(h, i + 1, &move_diagram(after, m, lang), &caption);
    }
    h.push_str("</div>");
    more_diagrams(h, window, total + 1, diagrams.most, lang);
    h.push_str("</section>");
}

/// When the window leaves diagrams out: which are shown, and buttons (`data-from`, for the
/// consult page) to the windows before and after it.
fn more_diagrams(
    h: &mut String,
    window: std::ops::Range<usize>,
    steps: usize,
    most: usize,
    lang: Lang,
) {
    if window.start == 0 && window.end >= steps {
        return;
    }
    let (first, last) = (window.start, window.end.saturating_sub(1));
    let line = lang.label(
        &format!("本页只绘第{first}至{last}步的局面图（共{}步）", steps - 1),
        &format!(
            "Diagrams of steps {first} to {last} only (of 0 to {})",
            steps - 1
        ),
    );
    let _ = write!(
        h,
        "<p class=\"more-diagrams\" data-first=\"{first}\" data-last=\"{last}\">{}",
        escape(&line)
    );
    if first > 0 {
        let _ = write!(
            h,
            " <button type=\"button\" data-from=\"{}\">{}</button>",
            first.saturating_sub(most),
            escape(&lang.label("前面的局面图", "earlier diagrams"))
        );
    }
    if window.end < steps {
        let _ = write!(
            h,
            " <button type=\"button\" data-from=\"{}\">{}</button>",
            window.end,
            escape(&lang.label("后面的局面图", "later diagrams"))
        );
    }
    h.push_str("</p>");
}

fn moves_table(h: &mut String, r: &Ruling, lang: Lang) {
    h.push_str("<section class=\"moves\">");
    h2(h, lang, Heading::Moves);
    h.push_str("<table><thead><tr>");
    for key in [
        Heading::Round,
        Heading::Side,
        Heading::Move,
        Heading::Kind,
        Heading::Targets,
    ] {
        let _ = write!(h, "<th>{}</th>", escape(&heading(lang, key)));
    }
    h.push_str("<th>ICCS</th></tr></thead><tbody>");
    for (i, m) in r.moves.iter().enumerate() {
        let color = m.color;
        let _ = write!(
            h,
            "<tr data-step=\"{}\" data-ply=\"{}\"><td>{}</td><td class=\"side {}\">{}</td><td class=\"zh-move\">{}</td><td class=\"kind k-{}\">{}</td><td>",
            i + 1,
            m.ply,
            escape(&words::round(lang, m.round)),
            color.name(),
            escape(&words::side_short(lang, color)),
            escape(&m.chinese),
            m.kind.name(),
            escape(&kind_text(lang, m))
        );
        if !m.targets.is_empty() {
            h.push_str("<ul class=\"targets\">");
            for t in &m.targets {
                let _ = write!(h, "<li>{}", escape(&target_text(lang, t)));
                for reason in super::reasons(lang, t) {
                    let _ = write!(h, "<small>{}</small>", escape(&reason));
                }
                h.push_str("</li>");
            }
            h.push_str("</ul>");
        }
        let _ = write!(h, "</td><td class=\"iccs\">{}</td></tr>", escape(&m.iccs));
        if let Some(line) = mate_line_text(m) {
            let _ = write!(
                h,
                "<tr class=\"mate-line\"><td colspan=\"6\">{}{}{}</td></tr>",
                escape(&heading(lang, Heading::MateLine)),
                words::colon(lang),
                escape(&line)
            );
        }
    }
    h.push_str("</tbody></table></section>");
}

fn sides(h: &mut String, r: &Ruling, lang: Lang) {
    h.push_str("<section class=\"sides\">");
    h2(h, lang, Heading::Sides);
    h.push_str("<table><thead><tr>");
    for key in [
        Heading::Side,
        Heading::Pattern,
        Heading::Status,
        Heading::Told,
    ] {
        let _ = write!(h, "<th>{}</th>", escape(&heading(lang, key)));
    }
    h.push_str("</tr></thead><tbody>");
    for s in [&r.red, &r.black] {
        let color = s.color;
        let pattern = words::pattern(lang, s.pattern);
        let told = if s.told_to_change { "✓" } else { "" };
        let _ = write!(
            h,
            "<tr class=\"{}{}\"><td class=\"side {}\">{}</td><td>{}</td><td>{}</td><td>{told}</td></tr>",
            color.name(),
            if s.forbidden { " forbidden" } else { "" },
            color.name(),
            escape(&words::side(lang, color)),
            escape(&pattern),
            escape(&words::allowed(lang, s.forbidden))
        );
    }
    h.push_str("</tbody></table></section>");
}

fn articles(h: &mut String, r: &Ruling, lang: Lang) {
    if r.articles.is_empty() {
        return;
    }
    h.push_str("<section class=\"articles\">");
    h2(h, lang, Heading::Articles);
    h.push_str("<dl>");
    for a in &r.articles {
        let cited = words::article(lang, *a);
        let _ = write!(h, "<dt>{}</dt><dd>", escape(&cited));
        for l in lang.each() {
            let text = crate::rules::words::article_text(*a, l);
            let _ = write!(h, "<p>{}</p>", escape(text));
        }
        h.push_str("</dd>");
    }
    h.push_str("</dl></section>");
}

fn explanation(h: &mut String, r: &Ruling, lang: Lang) {
    h.push_str("<section class=\"explanation\">");
    h2(h, lang, Heading::Explanation);
    for (l, text) in super::explanation(r, lang) {
        let tag = match l {
            crate::rules::words::Lang::Zh => "zh-Hans",
            crate::rules::words::Lang::En => "en",
        };
        let _ = write!(h, "<p lang=\"{tag}\">{}</p>", escape(&text));
    }
    h.push_str("</section>");
}

/// The analysis as an `<article>`: the position (and move) diagram, the move's kind and targets,
/// every attacked piece with its defenders and protection, and the attack/defence graph.
pub fn analysis_fragment(a: &Analysis, lang: Lang) -> String {
    let fen = a.position.fen();
    let mut h = String::with_capacity(32 * 1024);
    let _ = write!(
        h,
        "<article class=\"qili-sheet analysis\" lang=\"{}\"><header class=\"sheet-head\"><h1>{}</h1><dl class=\"facts\"><dt>{}</dt><dd class=\"fen\">{}</dd>",
        lang.tag(),
        escape(&heading(lang, Heading::Analysis)),
        escape(&heading(lang, Heading::Position)),
        escape(&fen)
    );
    if let Some(m) = &a.mv {
        let _ = write!(
            h,
            "<dt>{}</dt><dd>{} — {}</dd>",
            escape(&heading(lang, Heading::Move)),
            escape(&move_text(lang, m)),
            escape(&kind_text(lang, m))
        );
        if let Some(line) = mate_line_text(m) {
            let _ = write!(
                h,
                "<dt>{}</dt><dd>{}</dd>",
                escape(&heading(lang, Heading::MateLine)),
                escape(&line)
            );
        }
    }
    h.push_str("</dl></header>");
    h.push_str("<section class=\"cycle\"><div class=\"steps\">");
    figure(&mut h, 0, &analysis_diagram(a, lang), &escape(&fen));
    h.push_str("</div></section>");
    if let Some(m) = a.mv.as_ref().filter(|m| !m.targets.is_empty()) {
        h.push_str("<section class=\"moves\">");
        h2(&mut h, lang, Heading::MoveTargets);
        target_table(&mut h, &m.targets, &a.graph.pieces, lang);
        h.push_str("</section>");
    }
    h.push_str("<section class=\"attacked\">");
    h2(&mut h, lang, Heading::Attacked);
    if a.attacked.is_empty() {
        let _ = write!(h, "<p>{}</p>", escape(&heading(lang, Heading::None)));
    } else {
        target_table(&mut h, &a.attacked, &a.graph.pieces, lang);
    }
    h.push_str("</section><section class=\"graph\">");
    h2(&mut h, lang, Heading::Graph);
    h.push_str("<table><thead><tr>");
    for key in [
        Heading::Piece,
        Heading::Square,
        Heading::Attacks,
        Heading::Defends,
    ] {
        let _ = write!(h, "<th>{}</th>", escape(&heading(lang, key)));
    }
    h.push_str("</tr></thead><tbody>");
    for row in super::graph_rows(a, lang) {
        let _ = write!(
            h,
            "<tr><td class=\"side {}\">{}</td><td class=\"iccs\">{}</td><td>{}</td><td>{}</td></tr>",
            row.color.name(),
            escape(&row.piece),
            escape(&row.square),
            escape(&row.attacks),
            escape(&row.defends)
        );
    }
    h.push_str("</tbody></table></section></article>");
    h
}

fn target_table(h: &mut String, targets: &[Target], pieces: &[PieceNode], lang: Lang) {
    h.push_str("<table><thead><tr>");
    for key in [
        Heading::Piece,
        Heading::Attackers,
        Heading::Defenders,
        Heading::Protection,
        Heading::Gain,
    ] {
        let _ = write!(h, "<th>{}</th>", escape(&heading(lang, key)));
    }
    h.push_str("</tr></thead><tbody>");
    for t in targets {
        let row = super::target_row(t, lang, pieces);
        let _ = write!(
            h,
            "<tr{}><td>{}</td><td class=\"iccs\">{}</td><td>{}</td><td>{}</td><td>{}",
            if t.counted { " class=\"counted\"" } else { "" },
            escape(&row.piece),
            escape(&row.attackers),
            escape(&row.defenders),
            escape(&row.protection),
            escape(&row.gain)
        );
        for reason in super::reasons(lang, t) {
            let _ = write!(h, "<small>{}</small>", escape(&reason));
        }
        h.push_str("</td></tr>");
    }
    h.push_str("</tbody></table>");
}
