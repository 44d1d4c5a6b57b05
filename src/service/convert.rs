//! One way, at the edge: the API's requests read into the library's ([`into_request`]), and the
//! library's rulings, analyses and statuses written as the API's messages, building only the
//! fields the detail level keeps and saying the texts ([`words`]) only in the language
//! asked. The library rules without texts ([`Texts::NONE`]): the reply says them.

use super::failure::{Failure, abridge};
use super::pb;
use crate::color::Color;
use crate::lang::Words;
use crate::notation::Notation;
use crate::piece::{Piece, Role};
use crate::referee::{EndKind, GameOptions, Status};
use crate::request::Request;
use crate::rules::words::{self, Lang, MoveSentences};
use crate::rules::{
    Analysis, ArticleId, BySide, Defender, Edge, IdleKind, LineMove, Means, MoveKind, MoveReport,
    Options, Pattern, PieceNode, Protection, Relation, Ruleset, Ruling, SearchReport, SideReport,
    Target, Texts, Verdict,
};
use crate::square::Square;

/// What a caller asked of a ruling: how much of it, and in which language.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// How much of the ruling.
    pub detail: pb::Detail,
    /// The language of its texts.
    pub language: pb::Language,
    /// At full detail, how many of the cycle's moves come whole; the later ones come as at
    /// summary detail (see [`MAX_DETAILED_MOVES`]).
    pub detailed_moves: usize,
}

/// Most moves of one ruling the service sends with their whole detail (targets, notes, searches)
/// at `DETAIL_FULL`: the later moves of a longer cycle come as at `DETAIL_SUMMARY`, and the
/// ruling's `abridged_moves` says how many. It bounds the answer to a long cycle (a 480-ply cycle
/// took 334 KB for a 4 KB request); a later move's targets are one `Analyze` call away. The
/// rule books' longest cycles have 12 plies.
pub const MAX_DETAILED_MOVES: usize = 64;

impl Wanted {
    /// The whole ruling in `language`, every move with its detail.
    pub fn full(language: pb::Language) -> Wanted {
        Wanted {
            detail: pb::Detail::Full,
            language,
            detailed_moves: usize::MAX,
        }
    }

    /// The language of the errors: Chinese when only Chinese is asked, else English.
    pub fn error_lang(self) -> Lang {
        error_lang(self.language)
    }

    /// Whether the texts are wanted in `lang`.
    pub(crate) fn says(self, lang: Lang) -> bool {
        match lang {
            Lang::Zh => self.language != pb::Language::En,
            Lang::En => self.language != pb::Language::Zh,
        }
    }

    /// The sentences of `r` in `lang`, if its texts are wanted in it.
    fn sentences(self, r: &Ruling, lang: Lang) -> Option<words::Sentences> {
        self.says(lang).then(|| words::sentences(r, lang))
    }
}

/// The library request for `r`, its request id, and what the caller wants of the answer; takes
/// the message apart rather than copying it. The library writes only the texts wanted.
pub fn into_request(r: pb::AdjudicateRequest) -> Result<(Request, String, Wanted), Failure> {
    let wanted = Wanted {
        detail: detail(r.detail)?,
        language: language(r.language)?,
        detailed_moves: MAX_DETAILED_MOVES,
    };
    let options = Options {
        ruleset: ruleset(&r.ruleset, wanted.error_lang())?,
        told_to_change: by_side(r.told_to_change.as_ref()),
        defensive_key_point: by_side(r.defensive_key_point.as_ref()),
        texts: Texts::NONE,
        ..Options::default()
    };
    let request = Request {
        fen: r.fen,
        moves: r.moves,
        notation: notation(r.notation)?,
        options,
    };
    Ok((request, r.request_id, wanted))
}

/// The `Adjudicate` request a corpus case describes (moves in auto-detected notation, text in both
/// languages): how the load tool and the tests send the corpus to a server.
pub fn case_request(case: &crate::corpus::Case) -> pb::AdjudicateRequest {
    pb::AdjudicateRequest {
        request_id: case.id.clone(),
        fen: case.fen.clone(),
        moves: case.moves.iter().collect(),
        notation: pb::Notation::Auto as i32,
        ruleset: case.ruleset.name().to_string(),
        told_to_change: Some(pb::BySide {
            red: case.told_to_change.red,
            black: case.told_to_change.black,
        }),
        defensive_key_point: Some(pb::BySide {
            red: case.defensive_key_point.red,
            black: case.defensive_key_point.black,
        }),
        language: pb::Language::Both as i32,
        detail: pb::Detail::Full as i32,
        game: None,
    }
}

/// The rule profile named `name` (empty: the default); an unknown name fails on field `ruleset`.
pub fn ruleset(name: &str, lang: Lang) -> Result<Ruleset, Failure> {
    name.parse::<Ruleset>().map_err(|e| {
        Failure::invalid(
            "ruleset",
            abridge(&format!("ruleset: {}", e.words(lang)), name),
        )
    })
}

/// The language of a request's errors: Chinese when only Chinese is asked, else English.
pub fn error_lang(language: pb::Language) -> Lang {
    match language {
        pb::Language::Zh => Lang::Zh,
        _ => Lang::En,
    }
}

/// The notation of a request (`None`: detect per move); an unknown value fails on `notation`.
pub fn notation(value: i32) -> Result<Option<Notation>, Failure> {
    match pb::Notation::try_from(value) {
        Ok(pb::Notation::Auto) => Ok(None),
        Ok(pb::Notation::Iccs) => Ok(Some(Notation::Iccs)),
        Ok(pb::Notation::Wxf) => Ok(Some(Notation::Wxf)),
        Ok(pb::Notation::Chinese) => Ok(Some(Notation::Chinese)),
        Err(_) => Err(Failure::invalid(
            "notation",
            format!("notation: unknown value {value}"),
        )),
    }
}

/// The detail level of a request; an unknown value fails on `detail`.
pub fn detail(value: i32) -> Result<pb::Detail, Failure> {
    pb::Detail::try_from(value)
        .map_err(|_| Failure::invalid("detail", format!("detail: unknown value {value}")))
}

/// The language of a request; an unknown value fails on `language`.
pub fn language(value: i32) -> Result<pb::Language, Failure> {
    pb::Language::try_from(value)
        .map_err(|_| Failure::invalid("language", format!("language: unknown value {value}")))
}

fn by_side(b: Option<&pb::BySide>) -> BySide<bool> {
    b.map_or_else(BySide::default, |b| BySide {
        red: b.red,
        black: b.black,
    })
}

/// `n` as a message's uint32, saturated.
pub(crate) fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The API's whole ruling for the library's, answering request `request_id`, texts in `language`.
pub fn ruling(r: &Ruling, request_id: &str, language: pb::Language) -> pb::Ruling {
    reply(r.clone(), request_id.to_string(), Wanted::full(language))
}

/// The API's ruling for the library's, answering request `request_id`, with only what `wanted`
/// asks for (see `Detail` in the proto): the texts are said here, in the language wanted, and
/// the library's move notations are moved, not copied.
pub fn reply(r: Ruling, request_id: String, wanted: Wanted) -> pb::Ruling {
    let mut out = pb::Ruling {
        request_id,
        verdict: verdict(r.verdict).into(),
        ruleset: r.ruleset.name().to_string(),
        repetitions: r.repetitions,
        cycle_start: u32_of(r.cycle_start),
        cycle_length: u32_of(r.cycle_length),
        search: Some(pb::RulingSearch {
            nodes: r.search.nodes,
            max_nodes: r.search.max_nodes,
            budget_exhausted: r.search.budget_exhausted,
        }),
        ..pb::Ruling::default()
    };
    if wanted.detail == pb::Detail::Verdict {
        return out;
    }
    // Without a cycle there are no patterns to report.
    if r.verdict != Verdict::NoRepetition {
        out.red = Some(side(&r.red));
        out.black = Some(side(&r.black));
    }
    if wanted.detail == pb::Detail::Summary {
        out.articles = r.articles.iter().map(|a| article_id(*a)).collect();
        out.moves = r.moves.into_iter().map(move_summary).collect();
        return out;
    }
    let (zh_moves, explanation_zh) = split(wanted.sentences(&r, Lang::Zh));
    let (en_moves, explanation_en) = split(wanted.sentences(&r, Lang::En));
    out.articles = r.articles.iter().map(|a| article(*a, wanted)).collect();
    let (mut zh_moves, mut en_moves) = (zh_moves.into_iter(), en_moves.into_iter());
    out.abridged_moves = u32_of(r.moves.len().saturating_sub(wanted.detailed_moves));
    out.moves = r
        .moves
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            if i < wanted.detailed_moves {
                move_report(m, zh_moves.next(), en_moves.next())
            } else {
                move_summary(m)
            }
        })
        .collect();
    out.explanation_zh = explanation_zh;
    out.explanation_en = explanation_en;
    out
}

/// A ruling's sentences as the moves' and the explanation (none when the language is not wanted).
fn split(s: Option<words::Sentences>) -> (Vec<MoveSentences>, String) {
    s.map(|s| (s.moves, s.explanation)).unwrap_or_default()
}

/// The API's verdict.
pub fn verdict(v: Verdict) -> pb::Verdict {
    match v {
        Verdict::Draw => pb::Verdict::Draw,
        Verdict::RedLoses => pb::Verdict::RedLoses,
        Verdict::BlackLoses => pb::Verdict::BlackLoses,
        Verdict::RedMustChange => pb::Verdict::RedMustChange,
        Verdict::BlackMustChange => pb::Verdict::BlackMustChange,
        Verdict::NoRepetition => pb::Verdict::NoRepetition,
    }
}

/// The API's colour.
pub fn color(c: Color) -> pb::Color {
    match c {
        Color::Red => pb::Color::Red,
        Color::Black => pb::Color::Black,
    }
}

pub(crate) fn role(r: Role) -> pb::Role {
    match r {
        Role::King => pb::Role::King,
        Role::Advisor => pb::Role::Advisor,
        Role::Elephant => pb::Role::Elephant,
        Role::Horse => pb::Role::Horse,
        Role::Rook => pb::Role::Rook,
        Role::Cannon => pb::Role::Cannon,
        Role::Pawn => pb::Role::Pawn,
    }
}

/// The API's piece.
pub fn piece(p: Piece) -> pb::Piece {
    pb::Piece {
        color: color(p.color).into(),
        role: role(p.role).into(),
        chinese: p.chinese().to_string(),
    }
}

/// The API's pattern.
pub fn pattern(p: Pattern) -> pb::Pattern {
    match p {
        Pattern::PerpetualCheck => pb::Pattern::PerpetualCheck,
        Pattern::PerpetualMateThreat => pb::Pattern::PerpetualMateThreat,
        Pattern::PerpetualChase => pb::Pattern::PerpetualChase,
        Pattern::CheckAndMateThreat => pb::Pattern::CheckAndMateThreat,
        Pattern::CheckAndChase => pb::Pattern::CheckAndChase,
        Pattern::MateThreatAndChase => pb::Pattern::MateThreatAndChase,
        Pattern::PerpetualAttack => pb::Pattern::PerpetualAttack,
        Pattern::AttacksWithIdle => pb::Pattern::AttacksWithIdle,
        Pattern::Idle => pb::Pattern::Idle,
    }
}

pub(crate) fn move_kind(k: MoveKind) -> pb::MoveKind {
    match k {
        MoveKind::Idle => pb::MoveKind::Idle,
        MoveKind::Chase => pb::MoveKind::Chase,
        MoveKind::MateThreat => pb::MoveKind::MateThreat,
        MoveKind::Check => pb::MoveKind::Check,
    }
}

pub(crate) fn idle_kind(k: IdleKind) -> pb::IdleKind {
    match k {
        IdleKind::Exchange => pb::IdleKind::Exchange,
        IdleKind::Sacrifice => pb::IdleKind::Sacrifice,
        IdleKind::Block => pb::IdleKind::Block,
        IdleKind::Follow => pb::IdleKind::Follow,
    }
}

pub(crate) fn protection(p: Protection) -> pb::Protection {
    match p {
        Protection::Protected => pb::Protection::Protected,
        Protection::Unprotected => pb::Protection::Unprotected,
        Protection::FalseRoot => pb::Protection::FalseRoot,
        Protection::InsufficientRoot => pb::Protection::InsufficientRoot,
        Protection::HiddenRoot => pb::Protection::HiddenRoot,
    }
}

pub(crate) fn means(m: Means) -> pb::Means {
    match m {
        Means::Capture => pb::Means::Capture,
        Means::Checks => pb::Means::Checks,
    }
}

fn side(s: &SideReport) -> pb::SideReport {
    pb::SideReport {
        color: color(s.color).into(),
        pattern: pattern(s.pattern).into(),
        pattern_zh: s.pattern.chinese().to_string(),
        forbidden: s.forbidden,
        told_to_change: s.told_to_change,
    }
}

/// A square's ICCS name (`h2`), written without the formatting machinery: replies carry many.
fn square(s: Square) -> String {
    let mut name = String::with_capacity(2);
    name.push(char::from(b'a' + s.file()));
    name.push(char::from(b'0' + s.rank()));
    name
}

fn squares(s: &[Square]) -> Vec<String> {
    s.iter().copied().map(square).collect()
}

fn defender(d: &Defender) -> pb::Defender {
    pb::Defender {
        square: square(d.square),
        piece: Some(piece(d.piece)),
        hidden: d.hidden,
        real: d.real,
    }
}

/// The API's target, with its reasons (empty in a language not wanted); its line is moved.
fn target(x: Target, reason_zh: String, reason_en: String) -> pb::Target {
    pb::Target {
        square: square(x.square),
        piece: Some(piece(x.piece)),
        attackers: squares(&x.attackers),
        defenders: x.defenders.iter().map(defender).collect(),
        protection: protection(x.protection).into(),
        gain: x.gain,
        means: means(x.means).into(),
        is_new: x.new,
        joint: x.joint,
        counted: x.counted,
        reason: reason_en,
        reason_zh,
        line: line(x.line),
        participants: squares(&x.participants),
    }
}

fn search(s: &SearchReport) -> pb::SearchReport {
    pb::SearchReport {
        max_plies: s.max_plies,
        max_nodes: s.max_nodes,
        nodes: s.nodes,
        budget_exhausted: s.budget_exhausted,
    }
}

/// A move with its ply, round, side, notation and kind only (DETAIL_SUMMARY).
fn move_summary(m: MoveReport) -> pb::MoveReport {
    pb::MoveReport {
        ply: u32_of(m.ply),
        round: m.round,
        color: color(m.color).into(),
        iccs: m.iccs,
        chinese: m.chinese,
        kind: move_kind(m.kind).into(),
        ..pb::MoveReport::default()
    }
}

/// The API's whole move, with its sentences in each language wanted (`None`: not wanted).
fn move_report(
    m: MoveReport,
    zh: Option<MoveSentences>,
    en: Option<MoveSentences>,
) -> pb::MoveReport {
    let (zh, en) = (zh.unwrap_or_default(), en.unwrap_or_default());
    let (mut zh_reasons, mut en_reasons) = (zh.reasons.into_iter(), en.reasons.into_iter());
    pb::MoveReport {
        ply: u32_of(m.ply),
        color: color(m.color).into(),
        kind: move_kind(m.kind).into(),
        idle_kinds: m.idle_kinds.iter().map(|k| idle_kind(*k).into()).collect(),
        targets: m
            .targets
            .into_iter()
            .map(|x| {
                let zh = zh_reasons.next().unwrap_or_default();
                target(x, zh, en_reasons.next().unwrap_or_default())
            })
            .collect(),
        mate_search: Some(search(&m.mate_search)),
        note_zh: zh.note,
        note_en: en.note,
        mate_line: line(m.mate_line),
        round: m.round,
        gain_search: Some(search(&m.gain_search)),
        iccs: m.iccs,
        chinese: m.chinese,
    }
}

/// The API's line, its notations moved; unset when there are no moves.
fn line(l: Vec<LineMove>) -> Option<pb::Line> {
    (!l.is_empty()).then(|| {
        let (iccs, chinese) = l.into_iter().map(|m| (m.iccs, m.chinese)).unzip();
        pb::Line { iccs, chinese }
    })
}

/// An article's id, edition and number, without its texts (DETAIL_SUMMARY).
fn article_id(a: ArticleId) -> pb::Article {
    pb::Article {
        id: a.id(),
        edition: a.edition.name().to_string(),
        number: a.number.to_string(),
        ..pb::Article::default()
    }
}

/// An article with its texts in the language wanted.
fn article(a: ArticleId, wanted: Wanted) -> pb::Article {
    // The book's table is searched once for both languages (`words::article_text` is one
    // language's half of it).
    let text = a.text();
    let say = |lang, t: &str| {
        if wanted.says(lang) {
            t.to_string()
        } else {
            String::new()
        }
    };
    pb::Article {
        zh: say(Lang::Zh, text.zh),
        en: say(Lang::En, text.en),
        ..article_id(a)
    }
}

/// The API's analysis, answering request `request_id`: the position, the graph, the attacked
/// pieces and the judged move, texts in `language`.
pub fn analysis(a: Analysis, request_id: String, language: pb::Language) -> pb::AnalyzeResponse {
    let wanted = Wanted::full(language);
    let say = |lang: Lang, t: &Target| {
        if wanted.says(lang) {
            words::reason(t, lang)
        } else {
            String::new()
        }
    };
    let move_said =
        |m: &MoveReport, lang| wanted.says(lang).then(|| words::move_sentences(m, lang));
    pb::AnalyzeResponse {
        request_id,
        fen: a.position.fen(),
        pieces: a.graph.pieces.iter().map(piece_node).collect(),
        edges: a.graph.edges.iter().map(edge).collect(),
        attacked: a
            .attacked
            .into_iter()
            .map(|x| {
                let (zh, en) = (say(Lang::Zh, &x), say(Lang::En, &x));
                target(x, zh, en)
            })
            .collect(),
        r#move: a.mv.map(|m| {
            let (zh, en) = (move_said(&m, Lang::Zh), move_said(&m, Lang::En));
            move_report(m, zh, en)
        }),
    }
}

fn piece_node(n: &PieceNode) -> pb::PieceNode {
    pb::PieceNode {
        square: square(n.square),
        piece: Some(piece(n.piece)),
    }
}

fn edge(e: &Edge) -> pb::Edge {
    pb::Edge {
        from: square(e.from),
        to: square(e.to),
        relation: match e.relation {
            Relation::Attacks => pb::Relation::Attacks,
            Relation::Defends => pb::Relation::Defends,
        }
        .into(),
        hidden: e.hidden,
    }
}

/// Every rule profile, the default first.
pub fn rulesets() -> pb::ListRulesetsResponse {
    pb::ListRulesetsResponse {
        rulesets: Ruleset::ALL
            .iter()
            .map(|r| pb::RulesetInfo {
                name: r.name().to_string(),
                description: r.description().to_string(),
                is_default: *r == Ruleset::default(),
            })
            .collect(),
    }
}

// Live games: the referee's status, converted one way, at the requested detail and language.

/// The game options of a request (unset: the defaults); a value out of range fails on its field.
pub fn game_options(g: Option<&pb::GameOptions>, lang: Lang) -> Result<GameOptions, Failure> {
    let (rule_at, limit) = g.map_or((0, 0), |g| (g.rule_at, g.natural_limit));
    GameOptions::new(rule_at, limit).map_err(|e| Failure::invalid(e.field(), e.words(lang)))
}

/// Articles at the detail wanted: none for the verdict only, their ids for a summary.
fn articles_at(list: Vec<ArticleId>, wanted: Wanted) -> Vec<pb::Article> {
    match wanted.detail {
        pb::Detail::Verdict => Vec::new(),
        pb::Detail::Summary => list.into_iter().map(article_id).collect(),
        pb::Detail::Full => list.into_iter().map(|a| article(a, wanted)).collect(),
    }
}

/// The API's status for the library's, answering the opening `request_id`, with only what
/// `wanted` asks for; its ruling is converted as `Adjudicate`'s.
pub fn game_status(s: Status, request_id: String, wanted: Wanted) -> pb::GameStatus {
    let summary = wanted.detail != pb::Detail::Verdict;
    pb::GameStatus {
        moves_played: u32_of(s.moves_played),
        last_move: s.last_move.map(|m| pb::PlayedMove {
            ply: u32_of(m.ply),
            round: m.round,
            color: color(m.color).into(),
            iccs: m.iccs(),
            chinese: m.chinese(),
        }),
        to_move: color(s.to_move).into(),
        in_check: s.in_check,
        repetitions: s.repetitions,
        notice: s.notice.map(|n| pb::RepetitionNotice {
            repetitions: n.repetitions,
            forecast: verdict(n.forecast).into(),
            cycle_start: u32_of(n.cycle_start),
            cycle_length: u32_of(n.cycle_length),
            red: summary.then(|| side(&n.red)),
            black: summary.then(|| side(&n.black)),
        }),
        ruling: s.ruling.map(|r| reply(r, request_id.clone(), wanted)),
        forbidden_moves: s
            .forbidden
            .into_iter()
            .map(|f| pb::ForbiddenMove {
                iccs: f.iccs,
                chinese: f.chinese,
                verdict: verdict(f.verdict).into(),
                loses: f.loses,
                repetitions: f.repetitions,
                pattern: if summary {
                    pattern(f.pattern).into()
                } else {
                    pb::Pattern::Unspecified.into()
                },
                pattern_zh: if summary {
                    f.pattern.chinese().to_string()
                } else {
                    String::new()
                },
                cycle_start: u32_of(f.cycle_start),
                cycle_length: u32_of(f.cycle_length),
                articles: articles_at(f.articles, wanted),
            })
            .collect(),
        banmoves: s.banmoves,
        natural_limit: Some(pb::NaturalLimit {
            limit: s.natural_limit.limit,
            plies: s.natural_limit.plies,
            rounds: s.natural_limit.rounds,
            red_checks: s.natural_limit.checks.red,
            black_checks: s.natural_limit.checks.black,
            claimable: Some(pb::BySide {
                red: s.natural_limit.claimable.red,
                black: s.natural_limit.claimable.black,
            }),
        }),
        told_to_change: Some(pb::BySide {
            red: s.told_to_change.red,
            black: s.told_to_change.black,
        }),
        end: s.end.map(|e| pb::GameEnd {
            kind: end_kind(e.kind).into(),
            winner: e.winner.map_or(pb::Color::Unspecified, color).into(),
            ply: e.ply.map(u32_of),
            articles: articles_at(e.articles, wanted),
        }),
        error: None,
        request_id,
    }
}

/// [`game_status`] written for gRPC: its ruling written straight from the library's
/// ([`pb::Reply`]).
pub fn game_status_written(mut s: Status, request_id: String, wanted: Wanted) -> pb::StatusReply {
    let ruling = s
        .ruling
        .take()
        .map(|r| pb::Reply::new(&r, &request_id, wanted));
    pb::StatusReply::new(game_status(s, request_id, wanted), ruling)
}

/// The API's kind of game end.
pub fn end_kind(k: EndKind) -> pb::GameEndKind {
    match k {
        EndKind::Checkmate => pb::GameEndKind::Checkmate,
        EndKind::Stalemate => pb::GameEndKind::Stalemate,
        EndKind::RepetitionLoss => pb::GameEndKind::RepetitionLoss,
        EndKind::RepetitionDraw => pb::GameEndKind::RepetitionDraw,
        EndKind::NaturalLimit => pb::GameEndKind::NaturalLimit,
    }
}
