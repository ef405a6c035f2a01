//! Edge lists: a node's observers, or a computation's sources, with the first edge stored inline.
//!
//! Most nodes have exactly one observer and most computations exactly one source, so a list that keeps its first
//! edge in place saves a heap allocation (and its free) per edge in the common case. Past one edge it is a vector whose
//! buffer comes from the thread's [pool](super::pool) while it is small, so a graph that makes and drops nodes with a
//! few edges each does not go through the allocator for them.

use super::node::DynNodeRc;
use super::pool::{PoolVec, PoolVecIntoIter};

/// A list of edges in insertion order (up to [`Edges::swap_remove`], which moves the last edge into the gap).
#[derive(Default)]
pub(crate) enum Edges {
    /// No edge.
    #[default]
    Empty,
    /// One edge, inline.
    One(DynNodeRc),
    /// Two or more (or fewer, after removals: a list that spilled keeps its buffer).
    Many(PoolVec<DynNodeRc>),
}

impl Edges {
    /// The edges, in order.
    #[inline]
    pub fn as_slice(&self) -> &[DynNodeRc] {
        match self {
            Edges::Empty => &[],
            Edges::One(node) => std::slice::from_ref(node),
            Edges::Many(nodes) => nodes.as_slice(),
        }
    }

    /// Iterates over the edges, in order.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, DynNodeRc> {
        self.as_slice().iter()
    }

    /// How many edges there are.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Edges::Empty => 0,
            Edges::One(_) => 1,
            Edges::Many(nodes) => nodes.len(),
        }
    }

    /// Appends an edge.
    #[inline]
    pub fn push(&mut self, node: DynNodeRc) {
        match self {
            Edges::Empty => *self = Edges::One(node),
            Edges::Many(nodes) => nodes.push(node),
            Edges::One(_) => self.spill(node, 4),
        }
    }

    /// Moves the inline edge and `node` to a `Vec` of at least `capacity`.
    #[cold]
    fn spill(&mut self, node: DynNodeRc, capacity: usize) {
        let mut nodes = PoolVec::with_capacity(capacity);
        if let Edges::One(first) = std::mem::take(self) {
            nodes.push(first);
        }
        nodes.push(node);
        *self = Edges::Many(nodes);
    }

    /// Appends every node of `nodes` (whose length is known, so a spill allocates once).
    #[inline]
    pub fn extend(&mut self, nodes: impl ExactSizeIterator<Item = DynNodeRc>) {
        let mut nodes = nodes;
        if let Edges::Empty = self {
            let Some(first) = nodes.next() else {
                return;
            };
            *self = Edges::One(first);
        }
        let rest = nodes.len();
        if rest == 0 {
            return;
        }
        if let Edges::One(_) = self {
            let first = nodes.next().expect("rest > 0");
            self.spill(first, rest + 1);
        }
        if let Edges::Many(vec) = self {
            vec.grow(vec.len() + nodes.len());
            for node in nodes {
                vec.push(node);
            }
        }
    }

    /// Removes the edge at `index`, moving the last edge into its place.
    pub fn swap_remove(&mut self, index: usize) -> DynNodeRc {
        match self {
            Edges::Many(nodes) => nodes.swap_remove(index),
            _ => {
                assert_eq!(index, 0, "edge index out of range");
                match std::mem::take(self) {
                    Edges::One(node) => node,
                    _ => panic!("edge index out of range"),
                }
            }
        }
    }

    /// Removes the edges from `at` on, handing each to `f` in order.
    #[inline]
    pub fn truncate_with(&mut self, at: usize, mut f: impl FnMut(DynNodeRc)) {
        match self {
            Edges::Many(nodes) => nodes.truncate_with(at, f),
            Edges::One(_) if at == 0 => {
                if let Edges::One(node) = std::mem::take(self) {
                    f(node);
                }
            }
            _ => {}
        }
    }
}

impl IntoIterator for Edges {
    type Item = DynNodeRc;
    type IntoIter = EdgesIntoIter;

    fn into_iter(self) -> EdgesIntoIter {
        match self {
            Edges::Empty => EdgesIntoIter::One(None),
            Edges::One(node) => EdgesIntoIter::One(Some(node)),
            Edges::Many(nodes) => EdgesIntoIter::Vec(nodes.into_iter()),
        }
    }
}

/// The owning iterator of [`Edges`].
pub(crate) enum EdgesIntoIter {
    One(Option<DynNodeRc>),
    Vec(PoolVecIntoIter<DynNodeRc>),
}

impl Iterator for EdgesIntoIter {
    type Item = DynNodeRc;

    #[inline]
    fn next(&mut self) -> Option<DynNodeRc> {
        match self {
            EdgesIntoIter::One(node) => node.take(),
            EdgesIntoIter::Vec(nodes) => nodes.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Signal;

    fn node() -> DynNodeRc {
        Signal::new(0).inner.erase()
    }

    fn same(a: &DynNodeRc, b: &DynNodeRc) -> bool {
        a.as_ptr() == b.as_ptr()
    }

    #[test]
    fn no_bigger_than_a_vec() {
        assert_eq!(size_of::<Edges>(), size_of::<Vec<DynNodeRc>>());
    }

    #[test]
    fn push_spills_past_one_and_keeps_order() {
        let (a, b, c) = (node(), node(), node());
        let mut edges = Edges::default();
        assert_eq!(edges.len(), 0);
        edges.push(a.clone());
        assert!(matches!(edges, Edges::One(_)));
        edges.push(b.clone());
        edges.push(c.clone());
        assert!(matches!(edges, Edges::Many(_)));
        let got = edges.as_slice();
        assert!(same(&got[0], &a) && same(&got[1], &b) && same(&got[2], &c));
    }

    #[test]
    fn extend_and_truncate_with() {
        let nodes: Vec<DynNodeRc> = (0..4).map(|_| node()).collect();
        let mut edges = Edges::default();
        edges.extend(nodes[..1].iter().cloned());
        assert_eq!(edges.len(), 1);
        edges.extend(nodes[1..].iter().cloned());
        assert_eq!(edges.len(), 4);
        let mut removed = Vec::new();
        edges.truncate_with(2, |n| removed.push(n));
        assert_eq!(edges.len(), 2);
        assert!(same(&removed[0], &nodes[2]) && same(&removed[1], &nodes[3]));

        let mut one = Edges::default();
        one.push(nodes[0].clone());
        let mut gone = 0;
        one.truncate_with(1, |_| gone += 1);
        assert_eq!((one.len(), gone), (1, 0));
        one.truncate_with(0, |_| gone += 1);
        assert_eq!((one.len(), gone), (0, 1));
    }

    #[test]
    fn swap_remove_and_into_iter() {
        let (a, b, c) = (node(), node(), node());
        let mut edges = Edges::default();
        edges.push(a.clone());
        assert!(same(&edges.swap_remove(0), &a));
        assert_eq!(edges.len(), 0);
        edges.extend([a.clone(), b.clone(), c.clone()].into_iter());
        assert!(same(&edges.swap_remove(0), &a));
        let rest: Vec<DynNodeRc> = edges.into_iter().collect();
        assert!(same(&rest[0], &c) && same(&rest[1], &b));
    }
}
