//! The attack/defence graph (petgraph): pieces are nodes; edges say who attacks an enemy piece and
//! who defends (could recapture on) an own piece, direct or hidden (暗: only after a capture opens
//! a line, gives a cannon its screen, or frees a horse leg).

use crate::attacks::{SquareList, attackers, targets};
use crate::board::Board;
use crate::piece::Piece;
use crate::square::Square;
use petgraph::graph::{DiGraph, NodeIndex};
use serde::Serialize;

/// A piece as a graph node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceNode {
    /// Where it stands.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
}

/// What an edge means.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// The source could capture the enemy piece at the target.
    Attacks,
    /// The source could recapture on the own piece's square at the target.
    Defends,
}

/// An edge of the graph.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    /// The attacking or defending piece's square.
    pub from: Square,
    /// The attacked or defended piece's square.
    pub to: Square,
    /// Attack or defence.
    pub relation: Relation,
    /// Only after a capture on `to` clears the way (x-ray, a new cannon screen, an opened leg).
    pub hidden: bool,
}

/// The graph over one board.
#[derive(Clone, Debug)]
pub struct AttackGraph {
    /// Nodes are pieces; edge weights say attack or defence, direct or hidden.
    pub graph: DiGraph<PieceNode, (Relation, bool)>,
    index: [Option<NodeIndex>; 90],
}

/// A plain view of the graph for reports and the API.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GraphView {
    /// Every piece.
    pub pieces: Vec<PieceNode>,
    /// Every attack and defence.
    pub edges: Vec<Edge>,
}

impl AttackGraph {
    /// Builds the graph of `board`. Hidden edges come from playing each direct capture (or
    /// recapture) on the board and asking who reaches the point afterwards.
    pub fn build(board: &Board) -> AttackGraph {
        let mut graph = DiGraph::new();
        let mut index = [None; 90];
        for (square, piece) in board.pieces() {
            index[square.index()] = Some(graph.add_node(PieceNode { square, piece }));
        }
        let mut g = AttackGraph { graph, index };
        for (from, piece) in board.pieces() {
            for to in targets(board, from) {
                let Some(target) = board.get(to) else {
                    continue;
                };
                let rel = if target.color == piece.color {
                    Relation::Defends
                } else {
                    Relation::Attacks
                };
                g.add(from, to, rel, false);
            }
        }
        // Hidden edges: after a piece on `from` captures on `to`, who of either side reaches `to`
        // that did not before?
        let direct: Vec<Edge> = g.edges();
        for e in direct.iter().filter(|e| e.relation == Relation::Attacks) {
            let Some(capturer) = board.get(e.from) else {
                continue;
            };
            let mut after = *board;
            after.set(e.to, Some(capturer));
            after.set(e.from, None);
            let victim_color = !capturer.color;
            for d in attackers(&after, e.to, victim_color) {
                if !g.has(d, e.to) {
                    g.add(d, e.to, Relation::Defends, true);
                }
            }
            for a in attackers(&after, e.to, capturer.color) {
                if a != e.to && !g.has(a, e.to) {
                    g.add(a, e.to, Relation::Attacks, true);
                }
            }
        }
        g
    }

    fn node(&self, sq: Square) -> Option<NodeIndex> {
        self.index[sq.index()]
    }

    fn has(&self, from: Square, to: Square) -> bool {
        match (self.node(from), self.node(to)) {
            (Some(a), Some(b)) => self.graph.find_edge(a, b).is_some(),
            _ => false,
        }
    }

    fn add(&mut self, from: Square, to: Square, rel: Relation, hidden: bool) {
        if let (Some(a), Some(b)) = (self.node(from), self.node(to)) {
            self.graph.add_edge(a, b, (rel, hidden));
        }
    }

    /// Every edge.
    pub fn edges(&self) -> Vec<Edge> {
        self.graph
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = self.graph.edge_endpoints(e)?;
                let &(relation, hidden) = self.graph.edge_weight(e)?;
                Some(Edge {
                    from: self.graph[a].square,
                    to: self.graph[b].square,
                    relation,
                    hidden,
                })
            })
            .collect()
    }

    /// The edges ending on `sq` with relation `rel`.
    pub fn into_square(&self, sq: Square, rel: Relation) -> Vec<Edge> {
        let Some(n) = self.node(sq) else {
            return Vec::new();
        };
        self.graph
            .edges_directed(n, petgraph::Direction::Incoming)
            .filter(|e| e.weight().0 == rel)
            .map(|e| Edge {
                from: self.graph[petgraph::visit::EdgeRef::source(&e)].square,
                to: sq,
                relation: rel,
                hidden: e.weight().1,
            })
            .collect()
    }

    /// The pieces that defend the piece on `sq` of `board` (could recapture there), with
    /// whether each does so only after a capture clears the way: the `Defends` edges into `sq`
    /// that [`AttackGraph::build`] would draw, found without building the whole graph (a
    /// ruling asks this of one point at a time, far more often than it needs a graph).
    pub fn defenders_of(board: &Board, sq: Square) -> Vec<(Square, bool)> {
        let Some(victim) = board.get(sq) else {
            return Vec::new();
        };
        let mut out: Vec<(Square, bool)> = Vec::new();
        let mut capturers = SquareList::new();
        for (from, piece) in board.pieces() {
            if !targets(board, from).contains(&sq) {
                continue;
            }
            if piece.color == victim.color {
                out.push((from, false));
            } else {
                capturers.push(from);
            }
        }
        // As in `build`: after each direct capture on `sq`, the victim's side's pieces that
        // reach the point and had no edge to it yet.
        for from in capturers {
            let Some(capturer) = board.get(from) else {
                continue;
            };
            let mut after = *board;
            after.set(sq, Some(capturer));
            after.set(from, None);
            for d in attackers(&after, sq, victim.color) {
                if !out.iter().any(|&(s, _)| s == d) {
                    out.push((d, true));
                }
            }
        }
        out
    }

    /// A plain copy for reports.
    pub fn view(&self) -> GraphView {
        GraphView {
            pieces: self.graph.node_weights().copied().collect(),
            edges: self.edges(),
        }
    }
}
