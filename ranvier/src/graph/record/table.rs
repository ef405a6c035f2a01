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
    /// Each page by its index, null where no page is held. A page is a `Box` turned into a raw pointer
    /// (`Box::into_raw`) and turned back only to free it (`free_page`): every access goes through this pointer, so a
    /// pointer to a record derived from it (the cache, `last`) stays valid across the table's other accesses, where a
    /// reborrow of a `Box` would assert unique access to the page and invalidate it.
    pages: Vec<*mut Page<R>>,
    dropped: VecDeque<(NodeId, R)>,
    /// The highest id ever inserted, plus one (0 when empty).
    ids: u32,
    /// The living record last found by `get_mut`, by id (`NO_ID` when none): a node's mark, its run's start and its
    /// run's end look the same record up one after the other, and the second and third then skip the page walk.
    /// The pointer is to the record inside a `Some` slot of a held page, so a hit tests no tag; every method that
    /// empties a slot or frees a page (`insert`, `dropped`, `clear`, drop) forgets it first.
    last: (u32, *mut R),
}

/// The cache's id when it holds no record. No record has it: `insert` of this id would overflow `ids`.
const NO_ID: u32 = u32::MAX;

impl<R> Drop for NodeTable<R> {
    fn drop(&mut self) {
        for page in std::mem::take(&mut self.pages) {
            // SAFETY: each non-null entry is a page this table made with `Box::into_raw` and still owns; the
            // vector, taken, no longer names it.
            unsafe { Self::free_page(page) };
        }
    }
}

impl<R> NodeTable<R> {
    pub const fn new() -> Self {
        NodeTable {
            pages: Vec::new(),
            dropped: VecDeque::new(),
            ids: 0,
            last: (NO_ID, std::ptr::null_mut()),
        }
    }

    /// Frees a page made by `insert`, if `page` is not null.
    ///
    /// # Safety
    ///
    /// `page` is null or a page made by `insert` (`Box::into_raw`) that no entry of `pages` and no cached pointer
    /// names any longer.
    unsafe fn free_page(page: *mut Page<R>) {
        if !page.is_null() {
            // SAFETY: per the function's contract, the box is ours alone.
            drop(unsafe { Box::from_raw(page) });
        }
    }

    /// Page `index`, if the table holds it.
    #[inline(always)]
    fn page(&self, index: usize) -> Option<&Page<R>> {
        let page = *self.pages.get(index)?;
        // SAFETY: a non-null entry is a page the table owns (made by `insert`, freed only after its entry is nulled);
        // the reference borrows the table, so no `&mut` method can free or write the page while it lives.
        unsafe { page.as_ref() }
    }

    #[inline(always)]
    fn split(id: NodeId) -> (usize, usize) {
        (id.0 as usize / PAGE, id.0 as usize % PAGE)
    }

    /// The record of node `id`, while the node lives.
    #[inline]
    pub fn get(&self, id: NodeId) -> Option<&R> {
        let (page, slot) = Self::split(id);
        self.page(page)?.records[slot].as_ref()
    }

    /// The record of node `id`, while the node lives: the cached record when it is `id`'s, else found and cached.
    #[inline(always)]
    pub fn get_mut(&mut self, id: NodeId) -> Option<&mut R> {
        let (last, record) = self.last;
        if id.0 == last {
            // SAFETY: the cache names the record of a `Some` slot of a page the table holds (`find` set it from one;
            // `insert`, `dropped` and `clear` forget it before they empty a slot or free a page, and nothing else
            // does either, nor moves a record within its page). The table's other accesses to the page go through
            // the page's raw pointer, and those that touch this record are `find`'s, which caches a new pointer,
            // and shared reads (`get`, `for_each`), which leave a pointer able to write. The returned reference
            // borrows the table mutably, so it is the only reference to the record while it lives.
            return Some(unsafe { &mut *record });
        }
        self.find(id)
    }

    /// `get_mut`'s look-up when the cache does not hold `id`; caches the record found.
    #[inline(always)]
    fn find(&mut self, id: NodeId) -> Option<&mut R> {
        let (page, slot) = Self::split(id);
        let page = *self.pages.get(page)?;
        if page.is_null() {
            return None;
        }
        // SAFETY: a non-null entry is a page the table owns; `slot < PAGE`. The place is reached through the raw
        // pointer, with no reference made to the page.
        let cell = unsafe { &raw mut (*page).records[slot] };
        // SAFETY: as above; the reference lives only until the pointer is taken from it.
        let record: *mut R = unsafe { (*cell).as_mut() }?;
        self.last = (id.0, record);
        // SAFETY: the record is live (just found); the reference is derived from the cached pointer (so using it
        // leaves the pointer valid) and borrows the table mutably (the only reference to the record).
        Some(unsafe { &mut *record })
    }

    /// Records a new node, its record made by `make` in place (replacing what an earlier graph left under its id,
    /// which it returns): a record is a few hundred bytes, and moving it in and the old one out cost more than
    /// filling it.
    #[inline]
    pub fn insert(&mut self, id: NodeId, make: impl FnOnce() -> R, live: WeakNode) -> Option<R> {
        self.last = (NO_ID, std::ptr::null_mut());
        let (page, slot) = Self::split(id);
        if self.pages.len() <= page {
            self.pages.resize(page + 1, std::ptr::null_mut());
        }
        if self.pages[page].is_null() {
            self.pages[page] = Box::into_raw(Box::new(Page {
                occupied: 0,
                records: std::array::from_fn(|_| None),
                live: std::array::from_fn(|_| WeakNode::new()),
                held: 0,
            }));
        }
        // SAFETY: a non-null entry is a page the table owns; the cache was forgotten above, and `&mut self` is the
        // only access to the table while this reference lives.
        let page = unsafe { &mut *self.pages[page] };
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
        let page_ptr = *self.pages.get(index)?;
        if page_ptr.is_null() {
            return None;
        }
        // SAFETY: a non-null entry is a page the table owns; `&mut self` is the only access to the table while this
        // reference lives (its last use is before the page is freed below).
        let page = unsafe { &mut *page_ptr };
        if page.live[slot].as_ptr() != Some(node) {
            return None;
        }
        self.last = (NO_ID, std::ptr::null_mut());
        page.live[slot] = WeakNode::new();
        let record = page.records[slot].take()?;
        page.held -= 1;
        page.occupied &= !(1 << slot);
        if page.held == 0 {
            self.pages[index] = std::ptr::null_mut();
            // SAFETY: the page's entry is nulled and the cache forgotten (above); `page` is not used again.
            unsafe { Self::free_page(page_ptr) };
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
        self.page(page)?.live[slot].upgrade()
    }

    /// Whether the table holds a record of node `id`, living or dropped, without reading the record.
    pub fn holds(&self, id: NodeId) -> bool {
        let (page, slot) = Self::split(id);
        let living = self
            .page(page)
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
        for index in 0..self.pages.len() {
            let Some(page) = self.page(index) else { continue };
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
        let mut all: Vec<(NodeId, &R)> = (0..self.pages.len())
            .filter_map(|index| Some((index, self.page(index)?)))
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
        (0..self.pages.len())
            .filter_map(|index| self.page(index))
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
        assert_eq!(table.pages.iter().filter(|p| !p.is_null()).count(), 1);
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
        assert_eq!(table.pages.iter().filter(|p| !p.is_null()).count(), 0);
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

    #[test]
    fn the_cached_record_follows_drops_inserts_and_clears() {
        let mut table = NodeTable::new();
        let nodes: Vec<_> = (0..(PAGE + 2) as u32).map(probe).collect();
        for (id, node) in nodes.iter().enumerate() {
            table.insert(NodeId(id as u32), || id, node.downgrade());
        }
        // a hit writes the record the table holds
        *table.get_mut(NodeId(3)).expect("held") += 100;
        *table.get_mut(NodeId(3)).expect("held (cached)") += 100;
        assert_eq!(table.get(NodeId(3)), Some(&203));
        // the cached record dropped: the cache does not answer for it
        assert!(table.get_mut(NodeId(PAGE as u32)).is_some());
        assert!(
            table
                .dropped(NodeId(PAGE as u32), nodes[PAGE].as_ptr())
                .is_some()
        );
        assert_eq!(table.get_mut(NodeId(PAGE as u32)), None);
        // its page freed with the last record on it, then made again by an insert under the same id
        assert!(table.get_mut(NodeId(PAGE as u32 + 1)).is_some());
        assert!(
            table
                .dropped(NodeId(PAGE as u32 + 1), nodes[PAGE + 1].as_ptr())
                .is_some()
        );
        assert_eq!(table.pages.iter().filter(|p| !p.is_null()).count(), 1);
        assert_eq!(table.get_mut(NodeId(PAGE as u32 + 1)), None);
        let again = probe(PAGE as u32 + 1);
        table.insert(NodeId(PAGE as u32 + 1), || 7, again.downgrade());
        assert_eq!(table.get_mut(NodeId(PAGE as u32 + 1)), Some(&mut 7));
        // a record replaced in place by an insert under its id is the one found
        assert_eq!(table.get_mut(NodeId(5)), Some(&mut 5));
        table.insert(NodeId(5), || 50, nodes[5].downgrade());
        assert_eq!(table.get_mut(NodeId(5)), Some(&mut 50));
        // cleared: nothing is found, the cached id included
        table.clear();
        assert_eq!(table.get_mut(NodeId(5)), None);
        assert_eq!(table.len(), 0);
    }
}
