//! The tracer's node table: each node's latest facts, by id, for as long as the node lives, and for the most recently
//! dropped nodes after it.
//!
//! A program that keeps making and dropping nodes (a row per item, a scope per request) must not grow its trace
//! without bound. Records are held in pages of [`PAGE`] consecutive ids; when a node is dropped its record moves to a
//! ring of the [`DROPPED_KEPT`] latest dropped nodes (so the events still in the trace can name it), and a page whose
//! nodes have all been dropped is freed. What the table holds is then bounded by the nodes alive, the pages they pin,
//! and the ring, not by how many nodes the graph ever made.

use std::collections::VecDeque;

use crate::graph::{DynNodeRc, NodeId, WeakNode};

/// How many consecutive ids share a page.
pub const PAGE: usize = 64;
/// How many dropped nodes' records are kept after the node is gone, newest first.
pub const DROPPED_KEPT: usize = 1024;

// `repr(C)`: `occupied` first, so that asking whether a page holds a record reads one cache line, not the record.
#[repr(C)]
struct Page<R> {
    /// Bit `i` is set while `records[i]` is held.
    occupied: u64,
    records: [Option<R>; PAGE],
    /// A weak handle to each node, to read its current value; emptied when the node is dropped.
    live: [WeakNode; PAGE],
    /// How many of `records` are held.
    held: usize,
}

/// Node records by id; see the [module docs](self).
pub struct NodeTable<R> {
    pages: Vec<Option<Box<Page<R>>>>,
    dropped: VecDeque<(NodeId, R)>,
    /// The highest id ever inserted, plus one (0 when empty).
    ids: u32,
}

impl<R> NodeTable<R> {
    pub const fn new() -> Self {
        NodeTable {
            pages: Vec::new(),
            dropped: VecDeque::new(),
            ids: 0,
        }
    }

    #[inline(always)]
    fn split(id: NodeId) -> (usize, usize) {
        (id.0 as usize / PAGE, id.0 as usize % PAGE)
    }

    /// The record of node `id`, while the node lives.
    #[inline]
    pub fn get(&self, id: NodeId) -> Option<&R> {
        let (page, slot) = Self::split(id);
        self.pages.get(page)?.as_ref()?.records[slot].as_ref()
    }

    /// The record of node `id`, while the node lives.
    #[inline]
    pub fn get_mut(&mut self, id: NodeId) -> Option<&mut R> {
        let (page, slot) = Self::split(id);
        self.pages.get_mut(page)?.as_mut()?.records[slot].as_mut()
    }

    /// Records a new node, its record made by `make` in place (replacing what an earlier graph left under its id,
    /// which it returns): a record is a few hundred bytes, and moving it in and the old one out cost more than
    /// filling it.
    #[inline]
    pub fn insert(&mut self, id: NodeId, make: impl FnOnce() -> R, live: WeakNode) -> Option<R> {
        let (page, slot) = Self::split(id);
        if self.pages.len() <= page {
            self.pages.resize_with(page + 1, || None);
        }
        let page = self.pages[page].get_or_insert_with(|| {
            Box::new(Page {
                occupied: 0,
                records: std::array::from_fn(|_| None),
                live: std::array::from_fn(|_| WeakNode::new()),
                held: 0,
            })
        });
        let cell = &mut page.records[slot];
        let replaced = if cell.is_some() {
            cell.take()
        } else {
            page.held += 1;
            None
        };
        *cell = Some(make());
        page.occupied |= 1 << slot;
        page.live[slot] = live;
        self.ids = self.ids.max(id.0 + 1);
        replaced
    }

    /// Node `id`, at `node`, is being dropped: its record moves to the ring of dropped nodes, and its page goes if
    /// it was the last node held there. An id of a graph since disposed may name a newer node: only this very node's
    /// record moves. Returns the record moved, if it moved, and the oldest dropped record, if the ring let it go.
    pub fn dropped(&mut self, id: NodeId, node: *const ()) -> Option<(&R, Option<R>)> {
        let (index, slot) = Self::split(id);
        let Some(Some(page)) = self.pages.get_mut(index) else {
            return None;
        };
        if page.live[slot].as_ptr() != Some(node) {
            return None;
        }
        page.live[slot] = WeakNode::new();
        let record = page.records[slot].take()?;
        page.held -= 1;
        page.occupied &= !(1 << slot);
        if page.held == 0 {
            self.pages[index] = None;
        }
        let evicted = if self.dropped.len() == DROPPED_KEPT {
            self.dropped.pop_front().map(|(_, record)| record)
        } else {
            None
        };
        self.dropped.push_back((id, record));
        let moved = &self.dropped.back().expect("just pushed").1;
        Some((moved, evicted))
    }

    /// A strong handle to node `id`, if it is alive.
    pub fn live(&self, id: NodeId) -> Option<DynNodeRc> {
        let (page, slot) = Self::split(id);
        self.pages.get(page)?.as_ref()?.live[slot].upgrade()
    }

    /// Whether the table holds a record of node `id`, living or dropped, without reading the record.
    pub fn holds(&self, id: NodeId) -> bool {
        let (page, slot) = Self::split(id);
        let living = self
            .pages
            .get(page)
            .and_then(Option::as_ref)
            .is_some_and(|page| page.occupied & (1 << slot) != 0);
        living || self.dropped.iter().any(|(d, _)| *d == id)
    }

    /// The record of node `id`, living or among the dropped nodes' (the living one when both hold the id).
    pub fn get_held(&self, id: NodeId) -> Option<&R> {
        self.get(id).or_else(|| {
            self.dropped
                .iter()
                .rev()
                .find(|(d, _)| *d == id)
                .map(|(_, record)| record)
        })
    }

    /// Calls `f` with every record held, the living nodes' and the dropped ones', in id order, in place: a scan of
    /// the whole table copies nothing.
    pub fn for_each(&self, mut f: impl FnMut(NodeId, &R)) {
        let mut dropped: Vec<(NodeId, &R)> = self
            .dropped
            .iter()
            .map(|(id, record)| (*id, record))
            .collect();
        dropped.sort_by_key(|(id, _)| *id);
        let mut dropped = dropped.into_iter().peekable();
        for (index, page) in self.pages.iter().enumerate() {
            let Some(page) = page else { continue };
            for (slot, record) in page.records.iter().enumerate() {
                let Some(record) = record else { continue };
                let id = NodeId((index * PAGE + slot) as u32);
                while let Some((d, r)) = dropped.next_if(|(d, _)| *d <= id) {
                    f(d, r);
                }
                f(id, record);
            }
        }
        for (d, r) in dropped {
            f(d, r);
        }
    }

    /// One more than the highest id ever recorded (since the last `clear`).
    pub fn id_bound(&self) -> usize {
        self.ids as usize
    }

    /// Every record held, the living nodes' and the dropped ones', in id order.
    #[cfg(test)]
    pub fn records(&self) -> Vec<(NodeId, &R)> {
        let mut all: Vec<(NodeId, &R)> = self
            .pages
            .iter()
            .enumerate()
            .filter_map(|(index, page)| Some((index, page.as_ref()?)))
            .flat_map(|(index, page)| {
                page.records
                    .iter()
                    .enumerate()
                    .filter_map(move |(slot, record)| {
                        Some((NodeId((index * PAGE + slot) as u32), record.as_ref()?))
                    })
            })
            .chain(self.dropped.iter().map(|(id, record)| (*id, record)))
            .collect();
        all.sort_unstable_by_key(|(id, _)| *id);
        all
    }

    /// How many records are held, living and dropped.
    pub fn len(&self) -> usize {
        self.pages
            .iter()
            .flatten()
            .map(|page| page.held)
            .sum::<usize>()
            + self.dropped.len()
    }

    /// Whether `id` was ever recorded (since the last `clear`): a node the table no longer holds was dropped.
    pub fn ever_held(&self, id: NodeId) -> bool {
        id.0 < self.ids
    }

    pub fn clear(&mut self) {
        *self = NodeTable::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Core, NodeBody, NodeKind, NodeRc};

    #[repr(C)]
    struct Probe {
        core: Core,
    }

    // SAFETY: `#[repr(C)]`, `core` first, and a signal's kind: no `Computation` is read.
    unsafe impl NodeBody for Probe {}

    fn probe(id: u32) -> NodeRc<Probe> {
        NodeRc::new_with(|| Probe {
            core: Core::new(NodeId(id), NodeKind::Signal, std::panic::Location::caller()),
        })
    }

    #[test]
    fn dropped_nodes_move_to_a_bounded_ring_and_empty_pages_go() {
        let mut table = NodeTable::new();
        let nodes: Vec<_> = (0..(3 * PAGE + 8) as u32).map(probe).collect();
        for (id, node) in nodes.iter().enumerate() {
            table.insert(NodeId(id as u32), || id, node.downgrade());
        }
        assert_eq!(table.len(), nodes.len());
        assert!(table.live(NodeId(70)).is_some());

        // another node's pointer moves nothing (an id a newer graph reused)
        assert!(table.dropped(NodeId(5), nodes[6].as_ptr()).is_none());
        // every node but #5 goes: only its page is left
        for (id, node) in nodes.iter().enumerate() {
            if id != 5 {
                assert!(table.dropped(NodeId(id as u32), node.as_ptr()).is_some());
            }
        }
        assert_eq!(table.pages.iter().flatten().count(), 1);
        assert_eq!(table.get(NodeId(5)), Some(&5));
        assert_eq!(table.get(NodeId(70)), None);
        assert!(
            table.live(NodeId(70)).is_none(),
            "a dropped node's handle goes"
        );
        assert!(table.live(NodeId(5)).is_some());
        // the dropped records are still listed, in id order, with the living one
        let ids: Vec<u32> = table.records().iter().map(|(id, _)| id.0).collect();
        let expected: Vec<u32> = (0..nodes.len() as u32).collect();
        assert_eq!(ids, expected);
        assert!(table.ever_held(NodeId(199)) && !table.ever_held(NodeId(200)));
    }

    #[test]
    fn the_ring_keeps_the_records_of_the_nodes_dropped_last() {
        let mut table = NodeTable::new();
        let total = DROPPED_KEPT + 300;
        for id in 0..total as u32 {
            let node = probe(id);
            table.insert(NodeId(id), || id, node.downgrade());
            let (moved, evicted) = table.dropped(NodeId(id), node.as_ptr()).expect("moved");
            assert_eq!(*moved, id);
            // the ring lets the oldest go once full
            let oldest = (id as usize).checked_sub(DROPPED_KEPT).map(|o| o as u32);
            assert_eq!(evicted, oldest);
        }
        assert_eq!(table.len(), DROPPED_KEPT);
        assert_eq!(table.pages.iter().flatten().count(), 0);
        let records = table.records();
        assert_eq!(records.first().map(|(id, _)| id.0), Some(300));
        assert_eq!(
            records.last().map(|(id, r)| (id.0, **r)),
            Some((total as u32 - 1, total as u32 - 1))
        );
        assert!(table.ever_held(NodeId(0)), "made, then forgotten");
    }

    #[test]
    fn a_scan_visits_living_and_dropped_records_in_id_order() {
        let mut table = NodeTable::new();
        let nodes: Vec<_> = (0..(2 * PAGE + 5) as u32).map(probe).collect();
        for (id, node) in nodes.iter().enumerate() {
            table.insert(NodeId(id as u32), || id, node.downgrade());
        }
        // drop a few in an order that is not the ids': the ring holds them out of order
        for id in [PAGE + 3, 2, PAGE * 2 + 1, 0] {
            assert!(
                table
                    .dropped(NodeId(id as u32), nodes[id].as_ptr())
                    .is_some()
            );
        }
        let mut seen = Vec::new();
        table.for_each(|id, record| {
            assert_eq!(id.0 as usize, *record);
            seen.push(id.0);
        });
        let expected: Vec<u32> = (0..nodes.len() as u32).collect();
        assert_eq!(seen, expected);
        assert_eq!(table.get_held(NodeId(2)), Some(&2), "a dropped record");
        assert_eq!(table.get(NodeId(2)), None);
        assert_eq!(table.get_held(NodeId(7)), Some(&7), "a living one");
        assert_eq!(table.get_held(NodeId(500)), None);
        for id in 0..nodes.len() as u32 + 70 {
            let id = NodeId(id);
            assert_eq!(table.holds(id), table.get_held(id).is_some(), "{id:?}");
        }
        assert_eq!(table.id_bound(), nodes.len());
    }
}
