//! What a position offers, before any rule book is consulted: the attack/defence graph, material
//! and its values, the net material either side can win (and the exchange on one point, its
//! special case), and forced mates by checks. The rulings (`super`) build on this layer; nothing
//! here knows about move kinds, patterns or verdicts.

pub mod context;
pub mod gain;
pub mod graph;
pub mod mate;
pub mod memo;
pub mod value;
