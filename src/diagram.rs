//! Board diagrams: a position as an SVG picture of a Xiangqi board (9×10 points, river with 楚河
//! and 汉界, palace diagonals, piece discs with their Chinese characters, red at the bottom, file
//! numbers of both sides), with the last move, arrows and marked pieces.
//!
//! The picture needs no external font or stylesheet: text uses generic font-family fallbacks and
//! arrowheads are drawn as polygons (no `<marker>` ids, so many diagrams can share one page).
//!
//! ```
//! use qili::diagram::{ArrowKind, Diagram, MarkKind};
//! use qili::{Position, Square};
//! let pos = Position::start();
//! let svg = Diagram::new(&pos)
//!     .arrow(Square::new(7, 2), Square::new(7, 9), ArrowKind::Chase)
//!     .mark(Square::new(7, 9), MarkKind::Chased, "有根")
//!     .svg();
//! assert!(svg.starts_with("<svg") && svg.contains("楚") && svg.contains("有根"));
//! ```

use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use std::borrow::Cow;
use std::fmt::Write;

/// What an arrow shows; each kind has its own colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// The move just played.
    Move,
    /// A check: the checking piece to the king.
    Check,
    /// A chase: the attacker to the chased piece.
    Chase,
    /// An attack that does not count as a chase.
    Attack,
    /// A defence (the defender to the piece it protects).
    Defence,
    /// The first move of a mating line (杀).
    MateThreat,
}

impl ArrowKind {
    fn colour(self) -> &'static str {
        match self {
            ArrowKind::Move => "#2f6db5",
            ArrowKind::Check => "#d0191e",
            ArrowKind::Chase => "#e07b00",
            ArrowKind::Attack => "#8a6d3b",
            ArrowKind::Defence => "#2e8b57",
            ArrowKind::MateThreat => "#8e24aa",
        }
    }

    fn class(self) -> &'static str {
        match self {
            ArrowKind::Move => "move",
            ArrowKind::Check => "check",
            ArrowKind::Chase => "chase",
            ArrowKind::Attack => "attack",
            ArrowKind::Defence => "defence",
            ArrowKind::MateThreat => "mate",
        }
    }
}

/// How a marked piece is ringed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A king in check.
    Checked,
    /// A chased piece (the attack counts).
    Chased,
    /// An attacked piece whose attack does not count.
    Attacked,
}

impl MarkKind {
    fn strength(self) -> u8 {
        match self {
            MarkKind::Checked => 2,
            MarkKind::Chased => 1,
            MarkKind::Attacked => 0,
        }
    }

    fn colour(self) -> &'static str {
        match self {
            MarkKind::Checked => ArrowKind::Check.colour(),
            MarkKind::Chased => ArrowKind::Chase.colour(),
            MarkKind::Attacked => "#7d7d7d",
        }
    }

    fn class(self) -> &'static str {
        match self {
            MarkKind::Checked => "checked",
            MarkKind::Chased => "chased",
            MarkKind::Attacked => "attacked",
        }
    }
}

#[derive(Clone, Debug)]
struct Arrow {
    from: Square,
    to: Square,
    kind: ArrowKind,
}

#[derive(Clone, Debug)]
struct Mark {
    square: Square,
    kind: MarkKind,
    label: String,
}

/// A diagram being built: a position and what to draw over it.
#[derive(Clone, Debug)]
pub struct Diagram {
    position: Position,
    last_move: Option<Move>,
    arrows: Vec<Arrow>,
    marks: Vec<Mark>,
    title: String,
}

/// Distance between two points of the board, in SVG units.
const STEP: i32 = 40;
/// Radius of a piece disc.
const RADIUS: i32 = 17;
const LEFT: i32 = 40;
const TOP: i32 = 46;
const WIDTH: i32 = LEFT + 8 * STEP + 26;
const HEIGHT: i32 = TOP + 9 * STEP + 60;
/// How far the file numerals stand outside the board's top and bottom lines: clear of a marked
/// piece's ring (radius `RADIUS + 4`) on the edge ranks.
const NUMERALS: i32 = 33;
/// How far beside a piece standing in its way (a cannon's screen) an arrow passes.
const DETOUR: f64 = 28.0;

// The coordinates clear a marked piece on the board's edges: the numerals are 13 units high and
// centred NUMERALS outside the edge lines (the ICCS letters, 10 high, 17 further), the rank numbers
// about 6 wide centred 30 left of file a; a marked piece's ring reaches RADIUS + 4, plus its stroke.
const _: () = {
    let ring = RADIUS + 4 + 2;
    assert!(NUMERALS - 7 > ring);
    assert!(TOP - NUMERALS - 7 >= 0);
    assert!(NUMERALS + 17 + 6 <= HEIGHT - TOP - 9 * STEP);
    assert!(30 - 4 > ring);
    assert!(8 * STEP + ring <= WIDTH - LEFT);
};
const LINE: &str = "#5b3a1a";
const RED: &str = "#c0281c";
const BLACK: &str = "#1b1b1b";
const FONT: &str = "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','SimSun','WenQuanYi Micro Hei','Noto Sans CJK SC',serif";

/// Black's file numbers, left to right as red sees the board.
const BLACK_FILES: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
/// Red's file numbers, left to right.
const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];

fn x(sq: Square) -> i32 {
    LEFT + i32::from(sq.file()) * STEP
}

fn y(sq: Square) -> i32 {
    TOP + (9 - i32::from(sq.rank())) * STEP
}

/// `text` with the characters special in XML and HTML escaped (`&<>"'`): quick-xml's `escape`,
/// the one escaping function of the SVG diagrams and the HTML sheet.
pub fn escape(text: &str) -> Cow<'_, str> {
    quick_xml::escape::escape(text)
}

impl Diagram {
    /// A diagram of `position` with nothing drawn over it.
    pub fn new(position: &Position) -> Diagram {
        Diagram {
            position: *position,
            last_move: None,
            arrows: Vec::new(),
            marks: Vec::new(),
            title: String::new(),
        }
    }

    /// Shows `m` as the move just played (the position is the one after it).
    pub fn last_move(mut self, m: Move) -> Diagram {
        self.last_move = Some(m);
        self
    }

    /// Adds an arrow from `from` to `to` (the first arrow between two points is kept).
    pub fn arrow(mut self, from: Square, to: Square, kind: ArrowKind) -> Diagram {
        let known = self.arrows.iter().any(|a| a.from == from && a.to == to);
        if from != to && !known {
            self.arrows.push(Arrow { from, to, kind });
        }
        self
    }

    /// Rings the piece on `square` and writes `label` (such as its protection, 无根) under it. A
    /// point marked twice keeps its first label and the stronger ring (check, chase, attack).
    pub fn mark(mut self, square: Square, kind: MarkKind, label: &str) -> Diagram {
        match self.marks.iter_mut().find(|m| m.square == square) {
            Some(m) => {
                if kind.strength() > m.kind.strength() {
                    m.kind = kind;
                }
                if m.label.is_empty() {
                    m.label = label.to_string();
                }
            }
            None => self.marks.push(Mark {
                square,
                kind,
                label: label.to_string(),
            }),
        }
        self
    }

    /// The picture's accessible title (read by screen readers, shown as a tooltip).
    pub fn title(mut self, title: &str) -> Diagram {
        self.title = title.to_string();
        self
    }

    /// The SVG document (one `<svg>` element, usable inline in HTML or as an `image/svg+xml` file).
    pub fn svg(&self) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qili-board\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"{}\" font-family=\"{FONT}\">",
            escape(&self.title)
        );
        if !self.title.is_empty() {
            let _ = write!(out, "<title>{}</title>", escape(&self.title));
        }
        self.grid(&mut out);
        self.move_trace(&mut out);
        self.pieces(&mut out);
        for mark in &self.marks {
            mark_ring(&mut out, mark);
        }
        for arrow in &self.arrows {
            draw_arrow(&mut out, &self.position, arrow);
        }
        for mark in &self.marks {
            mark_label(&mut out, &self.position, mark);
        }
        out.push_str("</svg>");
        out
    }

    fn grid(&self, out: &mut String) {
        let (left, right) = (LEFT, LEFT + 8 * STEP);
        let (top, bottom) = (TOP, TOP + 9 * STEP);
        let _ = write!(
            out,
            "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" rx=\"6\" fill=\"#f2d9a6\"/>\
             <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"2.5\"/>",
            left - 5,
            top - 5,
            8 * STEP + 10,
            9 * STEP + 10
        );
        let _ = write!(
            out,
            "<g stroke=\"{LINE}\" stroke-width=\"1.2\" fill=\"none\">"
        );
        for rank in 0..10 {
            let yy = top + rank * STEP;
            let _ = write!(
                out,
                "<line x1=\"{left}\" y1=\"{yy}\" x2=\"{right}\" y2=\"{yy}\"/>"
            );
        }
        for file in 0..9 {
            let xx = left + file * STEP;
            if file == 0 || file == 8 {
                let _ = write!(
                    out,
                    "<line x1=\"{xx}\" y1=\"{top}\" x2=\"{xx}\" y2=\"{bottom}\"/>"
                );
            } else {
                // The river cuts the inner files.
                let _ = write!(
                    out,
                    "<line x1=\"{xx}\" y1=\"{top}\" x2=\"{xx}\" y2=\"{}\"/><line x1=\"{xx}\" y1=\"{}\" x2=\"{xx}\" y2=\"{bottom}\"/>",
                    top + 4 * STEP,
                    top + 5 * STEP
                );
            }
        }
        // Palace diagonals: d0–f2 and f0–d2 for red, d7–f9 and f7–d9 for black.
        for (a, b) in [
            ((3, 0), (5, 2)),
            ((5, 0), (3, 2)),
            ((3, 7), (5, 9)),
            ((5, 7), (3, 9)),
        ] {
            let (p, q) = (Square::new(a.0, a.1), Square::new(b.0, b.1));
            let _ = write!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                x(p),
                y(p),
                x(q),
                y(q)
            );
        }
        // The small corner marks on the cannons' and pawns' starting points.
        for (file, rank) in [
            (1, 2),
            (7, 2),
            (1, 7),
            (7, 7),
            (0, 3),
            (2, 3),
            (4, 3),
            (6, 3),
            (8, 3),
            (0, 6),
            (2, 6),
            (4, 6),
            (6, 6),
            (8, 6),
        ] {
            point_marks(out, Square::new(file, rank));
        }
        out.push_str("</g>");
        let river = top + 4 * STEP + STEP / 2;
        let _ = write!(
            out,
            "<g fill=\"#7a5230\" font-size=\"24\" text-anchor=\"middle\" dominant-baseline=\"central\">\
             <text x=\"{}\" y=\"{river}\" letter-spacing=\"12\">楚河</text>\
             <text x=\"{}\" y=\"{river}\" letter-spacing=\"12\">汉界</text></g>",
            left + 2 * STEP,
            left + 6 * STEP
        );
        // File numbers: black's on top, red's below, then ICCS letters; ranks 0–9 on the left.
        let _ = write!(
            out,
            "<g class=\"coordinates\" font-size=\"13\" text-anchor=\"middle\" dominant-baseline=\"central\">"
        );
        for file in 0..9u8 {
            let xx = LEFT + i32::from(file) * STEP;
            let i = usize::from(file);
            let _ = write!(
                out,
                "<text x=\"{xx}\" y=\"{}\" fill=\"{BLACK}\">{}</text><text x=\"{xx}\" y=\"{}\" fill=\"{RED}\">{}</text><text x=\"{xx}\" y=\"{}\" fill=\"#8c7350\" font-size=\"10\" font-family=\"monospace\">{}</text>",
                top - NUMERALS,
                BLACK_FILES[i],
                bottom + NUMERALS,
                RED_FILES[i],
                bottom + NUMERALS + 17,
                char::from(b'a' + file)
            );
        }
        for rank in 0..10u8 {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" fill=\"#8c7350\" font-size=\"10\" font-family=\"monospace\">{rank}</text>",
                LEFT - 30,
                y(Square::new(0, rank))
            );
        }
        out.push_str("</g>");
    }

    fn move_trace(&self, out: &mut String) {
        let Some(m) = self.last_move else { return };
        let colour = ArrowKind::Move.colour();
        let _ = write!(
            out,
            "<circle class=\"from\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"{colour}\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
            x(m.from),
            y(m.from),
            RADIUS - 2
        );
        draw_arrow(
            out,
            &self.position,
            &Arrow {
                from: m.from,
                to: m.to,
                kind: ArrowKind::Move,
            },
        );
    }

    fn pieces(&self, out: &mut String) {
        for (sq, piece) in self.position.board().pieces() {
            let colour = match piece.color {
                Color::Red => RED,
                Color::Black => BLACK,
            };
            let moved = self.last_move.is_some_and(|m| m.to == sq);
            let ring = if moved {
                format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3\"/>",
                    x(sq),
                    y(sq),
                    RADIUS + 2,
                    ArrowKind::Move.colour()
                )
            } else {
                String::new()
            };
            let _ = write!(
                out,
                "<g class=\"piece {}\" data-square=\"{sq}\">{ring}<circle cx=\"{}\" cy=\"{}\" r=\"{RADIUS}\" fill=\"#fbf0d9\" stroke=\"{colour}\" stroke-width=\"2\"/>\
                 <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"0.8\"/>\
                 <text x=\"{}\" y=\"{}\" fill=\"{colour}\" font-size=\"21\" font-weight=\"bold\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
                piece.color.name(),
                x(sq),
                y(sq),
                x(sq),
                y(sq),
                RADIUS - 3,
                x(sq),
                y(sq) + 1,
                piece.chinese()
            );
        }
    }
}

/// The corner marks around a point (left and right halves; none outside the board's edge).
fn point_marks(out: &mut String, sq: Square) {
    let (cx, cy) = (x(sq), y(sq));
    let (gap, len) = (4, 8);
    for dx in [-1, 1] {
        if (sq.file() == 0 && dx < 0) || (sq.file() == 8 && dx > 0) {
            continue;
        }
        for dy in [-1, 1] {
            let (px, py) = (cx + dx * gap, cy + dy * gap);
            let _ = write!(
                out,
                "<polyline points=\"{},{py} {px},{py} {px},{}\"/>",
                px + dx * len,
                py + dy * len
            );
        }
    }
}

/// The points an arrow runs through: from `a.from` to `a.to`, passing beside each piece that stands
/// between them on their file or rank (a cannon's screen, which a straight arrow would strike
/// through), on the side towards the board's middle.
fn arrow_points(position: &Position, a: &Arrow) -> Vec<(f64, f64)> {
    let centre = |sq: Square| (f64::from(x(sq)), f64::from(y(sq)));
    let mut points = vec![centre(a.from)];
    let (df, dr) = (
        i32::from(a.to.file()) - i32::from(a.from.file()),
        i32::from(a.to.rank()) - i32::from(a.from.rank()),
    );
    if df == 0 || dr == 0 {
        let steps = df.abs().max(dr.abs());
        let (sf, sr) = (df.signum(), dr.signum());
        // Screen directions: a file line detours sideways, a rank line up or down the screen.
        let side = if df == 0 {
            (if a.from.file() < 4 { 1.0 } else { -1.0 }, 0.0)
        } else {
            (0.0, if a.from.rank() >= 5 { 1.0 } else { -1.0 })
        };
        for k in 1..steps {
            if let Some(sq) = a.from.offset(sf * k, sr * k)
                && position.piece_at(sq).is_some()
            {
                let (cx, cy) = centre(sq);
                points.push((cx + side.0 * DETOUR, cy + side.1 * DETOUR));
            }
        }
    }
    points.push(centre(a.to));
    points
}

fn draw_arrow(out: &mut String, position: &Position, a: &Arrow) {
    let points = arrow_points(position, a);
    let unit = |p: (f64, f64), q: (f64, f64)| {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len = dx.hypot(dy);
        ((dx / len, dy / len), len)
    };
    let (first, last) = (points[0], points[points.len() - 1]);
    let before_last = points[points.len() - 2];
    let ((ux0, uy0), len0) = unit(first, points[1]);
    let ((ux, uy), len) = unit(before_last, last);
    // From inside the first disc to the edge of the last one; a short arrow (to a neighbouring
    // point) starts at the first disc's centre so that its shaft shows.
    let end = f64::from(RADIUS) + 1.0;
    let start = if points.len() == 2 && len0 < 1.5 * f64::from(STEP) {
        0.0
    } else {
        f64::from(RADIUS) * 0.6
    };
    let (sx, sy) = (first.0 + ux0 * start, first.1 + uy0 * start);
    let (tx, ty) = (last.0 - ux * end, last.1 - uy * end);
    let room = if points.len() == 2 { len - start } else { len };
    let head = ((room - end) * 0.6).min(13.0);
    let half = head * 0.55;
    let (bx, by) = (tx - ux * head, ty - uy * head);
    let mut shaft = format!("{sx:.1},{sy:.1}");
    for p in &points[1..points.len() - 1] {
        let _ = write!(shaft, " {:.1},{:.1}", p.0, p.1);
    }
    let _ = write!(shaft, " {bx:.1},{by:.1}");
    let colour = a.kind.colour();
    let dash = match a.kind {
        ArrowKind::MateThreat | ArrowKind::Defence => " stroke-dasharray=\"6 4\"",
        _ => "",
    };
    let width = match a.kind {
        ArrowKind::Attack | ArrowKind::Defence => 2.5,
        _ => 4.0,
    };
    let _ = write!(
        out,
        "<g class=\"arrow {}\" data-from=\"{}\" data-to=\"{}\" opacity=\"0.85\"><polyline class=\"shaft\" points=\"{shaft}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"{dash}/>\
         <polygon points=\"{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{colour}\"/></g>",
        a.kind.class(),
        a.from,
        a.to,
        bx - uy * half,
        by + ux * half,
        bx + uy * half,
        by - ux * half
    );
}

fn mark_ring(out: &mut String, m: &Mark) {
    let _ = write!(
        out,
        "<circle class=\"mark {}\" data-square=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3\" stroke-dasharray=\"5 3\"/>",
        m.kind.class(),
        m.square,
        x(m.square),
        y(m.square),
        RADIUS + 4,
        m.kind.colour()
    );
}

/// Where a mark's label goes: below the piece, else above, right or left, on the first side whose
/// neighbouring point is on the board and empty (so the label covers no other piece and stays off
/// the file numerals), else below.
fn label_side(position: &Position, sq: Square) -> (i32, i32) {
    let free = |df: i32, dr: i32| {
        sq.offset(df, dr)
            .is_some_and(|n| position.piece_at(n).is_none())
    };
    // Screen directions: (dx, dy) with y growing downwards; a rank up is a step up the screen.
    [
        ((0, 1), free(0, -1)),
        ((0, -1), free(0, 1)),
        ((1, 0), free(1, 0)),
        ((-1, 0), free(-1, 0)),
    ]
    .into_iter()
    .find(|(_, ok)| *ok)
    .map_or((0, 1), |(side, _)| side)
}

fn mark_label(out: &mut String, position: &Position, m: &Mark) {
    if m.label.is_empty() {
        return;
    }
    // A CJK character is about one em wide, Latin letters about half.
    let em: f64 = m
        .label
        .chars()
        .map(|c| if c.is_ascii() { 0.6 } else { 1.0 })
        .sum();
    let size = 11.0;
    let w = em * size + 8.0;
    let (dx, dy) = label_side(position, m.square);
    let reach = f64::from(RADIUS) + 9.0;
    let (cx, cy) = (
        f64::from(x(m.square)) + f64::from(dx) * (f64::from(RADIUS) + 2.0 + w / 2.0),
        f64::from(y(m.square)) + f64::from(dy) * reach,
    );
    let _ = write!(
        out,
        "<g class=\"label\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"15\" rx=\"4\" fill=\"{}\" opacity=\"0.92\"/>\
         <text x=\"{cx:.1}\" y=\"{:.1}\" fill=\"#fff\" font-size=\"{size}\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
        cx - w / 2.0,
        cy - 7.5,
        m.kind.colour(),
        cy + 0.5,
        escape(&m.label)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_every_piece_the_river_and_the_palaces() {
        let svg = Diagram::new(&Position::start()).svg();
        assert_eq!(svg.matches("class=\"piece red\"").count(), 16);
        assert_eq!(svg.matches("class=\"piece black\"").count(), 16);
        for needle in ["楚河", "汉界", ">帅<", ">将<", ">九<", ">一<", ">1<", ">9<"] {
            assert!(svg.contains(needle), "{needle} missing");
        }
        // Red's king stands at the bottom, black's at the top.
        let king = |c: &str| {
            let at = svg.find(&format!(">{c}<")).expect("king");
            let text = &svg[..at];
            let y_at = text.rfind(" y=\"").expect("y");
            text[y_at + 4..].split('"').next().unwrap_or("").to_string()
        };
        let red: f64 = king("帅").parse().expect("number");
        let black: f64 = king("将").parse().expect("number");
        assert!(red > black, "red {red} black {black}");
        // Two palace diagonals per palace.
        assert!(svg.contains(&format!(
            "x1=\"{}\" y1=\"{}\"",
            x(Square::new(3, 0)),
            y(Square::new(3, 0))
        )));
    }

    #[test]
    fn a_label_goes_where_it_covers_no_piece() {
        let pos = Position::start();
        // The black cannon on b7: b6 below is empty.
        assert_eq!(label_side(&pos, Square::new(1, 7)), (0, 1));
        // The red rook on a0: below is off the board (the file numerals), so above (a1).
        assert_eq!(label_side(&pos, Square::new(0, 0)), (0, -1));
        // A pawn on e6 with pieces below and above: right (f6) is empty.
        let crowded = Position::from_fen("4k4/9/9/4p4/4P4/9/9/9/9/3K5 w").expect("fen");
        let blocked = Position::from_fen("4k4/9/4r4/4p4/4P4/9/9/9/9/3K5 w").expect("fen");
        assert_eq!(label_side(&crowded, Square::new(4, 6)), (0, -1));
        assert_eq!(label_side(&blocked, Square::new(4, 6)), (1, 0));
    }

    #[test]
    fn arrows_marks_and_the_last_move_are_drawn_and_labels_escaped() {
        let pos = Position::start();
        let svg = Diagram::new(&pos)
            .last_move(Move::new(Square::new(7, 0), Square::new(6, 2)))
            .arrow(Square::new(1, 2), Square::new(1, 9), ArrowKind::Chase)
            .arrow(Square::new(4, 0), Square::new(4, 0), ArrowKind::Check)
            .mark(Square::new(1, 9), MarkKind::Attacked, "<无根>")
            .mark(Square::new(1, 9), MarkKind::Chased, "其他")
            .arrow(Square::new(1, 2), Square::new(1, 9), ArrowKind::Attack)
            .title("a & b")
            .svg();
        assert!(svg.contains("class=\"arrow chase\" data-from=\"b2\" data-to=\"b9\""));
        assert!(svg.contains("class=\"arrow move\" data-from=\"h0\" data-to=\"g2\""));
        assert!(!svg.contains("arrow check"), "a null arrow is dropped");
        assert!(svg.contains("class=\"mark chased\" data-square=\"b9\""));
        assert!(svg.contains("&lt;无根&gt;") && !svg.contains("其他"));
        assert_eq!(svg.matches("class=\"mark ").count(), 1);
        assert_eq!(svg.matches("class=\"arrow ").count(), 2);
        assert!(svg.contains("<title>a &amp; b</title>"));
        assert!(!svg.contains("<marker"));
    }

    /// Distance from point `p` to the segment `a`–`b`.
    fn distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
        (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
    }

    #[test]
    fn a_cannons_arrow_passes_beside_its_screen() {
        // Red's cannon h2 over the pawn h5 onto the horse h7; and along rank 2 over the rook c2.
        let pos = Position::from_fen("4k4/9/7n1/9/7P1/9/9/1n1R3C1/9/3K5 w").expect("fen");
        for (from, to, screen) in [
            (Square::new(7, 2), Square::new(7, 7), Square::new(7, 5)),
            (Square::new(7, 2), Square::new(1, 2), Square::new(3, 2)),
        ] {
            let points = arrow_points(
                &pos,
                &Arrow {
                    from,
                    to,
                    kind: ArrowKind::Chase,
                },
            );
            assert_eq!(points.len(), 3, "{from}{to}");
            let c = (f64::from(x(screen)), f64::from(y(screen)));
            // The shaft's edge (half its 4-unit width) stays off the screen's disc.
            for w in points.windows(2) {
                let d = distance(c, w[0], w[1]);
                assert!(d > f64::from(RADIUS) + 2.0, "{from}{to}: {d}");
            }
        }
        // A rook's arrow has nothing in its way: straight.
        let rook = Arrow {
            from: Square::new(3, 2),
            to: Square::new(3, 9),
            kind: ArrowKind::Chase,
        };
        assert_eq!(arrow_points(&Position::start(), &rook).len(), 2);
        let free = Arrow {
            from: Square::new(3, 2),
            to: Square::new(3, 5),
            kind: ArrowKind::Chase,
        };
        assert_eq!(arrow_points(&pos, &free).len(), 2);
        let svg = Diagram::new(&pos)
            .arrow(Square::new(7, 2), Square::new(7, 7), ArrowKind::Chase)
            .svg();
        assert!(svg.contains("class=\"shaft\" points=\""), "{svg}");
    }
}
