//! What a scope owns, in creation order: a block that grows from 4 entries to a chunk, and a stack of full chunks,
//! all from the thread's [pool](crate::graph).
//!
//! A scope can own a great many entries: the graph's root owns every node made outside a scope. A `Vec` would double
//! its way up to megabytes, freeing each old buffer as it grows, and glibc answers such a free by sweeping every small
//! free chunk in the heap, the program's as well as ours. Chunks of under 512 bytes come from the node pool instead,
//! and go back to it when the scope is disposed.

use super::Owned;
use crate::graph::PoolBox;
use crate::graph::pool::PoolVec;

/// How many entries a full chunk holds. The newest chunk starts at 4 entries and doubles up to this; a scope that
/// owns one node (a row of a collection with one memo) then holds a 96-byte block, not a full chunk.
const CHUNK: usize = 16;

// A full chunk's entries fit a pooled block of the small classes.
const _: () = assert!(CHUNK * size_of::<Owned>() <= 512);

/// A scope's entries, oldest first.
#[derive(Default)]
pub(super) struct OwnedList {
    /// The newest entries, in a block that grows up to [`CHUNK`] entries; `None` until the first push.
    tail: Option<PoolVec<Owned>>,
    /// The full chunks before `tail`, newest first.
    full: Option<PoolBox<Chunk>>,
    len: usize,
}

/// A full chunk of [`CHUNK`] entries; each links to the one before it.
struct Chunk {
    prev: Option<PoolBox<Chunk>>,
    items: PoolVec<Owned>,
}

impl OwnedList {
    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends an entry.
    #[inline]
    pub fn push(&mut self, item: Owned) {
        match &mut self.tail {
            Some(tail) if tail.len() < tail.capacity() => tail.push(item),
            _ => self.push_slow(item),
        }
        self.len += 1;
    }

    /// Pushes into a new tail, a grown one, or one after sealing a full tail as a chunk.
    #[cold]
    fn push_slow(&mut self, item: Owned) {
        match &mut self.tail {
            None => self.tail = Some(PoolVec::with_capacity(4)),
            Some(tail) if tail.capacity() < CHUNK => tail.grow((tail.capacity() * 2).min(CHUNK)),
            Some(_) => {
                let items = self.tail.replace(PoolVec::with_capacity(CHUNK));
                self.full = Some(PoolBox::new(Chunk {
                    prev: self.full.take(),
                    items: items.expect("the tail is present"),
                }));
            }
        }
        self.tail.as_mut().expect("the tail is present").push(item);
    }

    /// Removes and returns the newest entry.
    #[inline]
    pub fn pop(&mut self) -> Option<Owned> {
        loop {
            let tail = self.tail.as_mut()?;
            if let Some(item) = tail.pop() {
                self.len -= 1;
                return Some(item);
            }
            // The tail is empty: the newest full chunk becomes the tail.
            self.tail = self.full.take().map(|chunk| {
                let Chunk { prev, items } = PoolBox::into_inner(chunk);
                self.full = prev;
                items
            });
        }
    }

    /// Calls `f` on every entry, newest first.
    pub fn for_each_newest_first(&mut self, mut f: impl FnMut(&mut Owned)) {
        if let Some(tail) = &mut self.tail {
            tail.as_mut_slice().iter_mut().rev().for_each(&mut f);
        }
        let mut chunk = self.full.as_deref_mut();
        while let Some(c) = chunk {
            c.items.as_mut_slice().iter_mut().rev().for_each(&mut f);
            chunk = c.prev.as_deref_mut();
        }
    }

    /// Keeps only the entries for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Owned) -> bool) {
        // Unlink the blocks, oldest last, then refill from the oldest: the blocks go back to the pool as they are
        // emptied, and the new ones reuse them.
        let mut blocks: Vec<PoolVec<Owned>> = self.tail.take().into_iter().collect();
        let mut next = self.full.take();
        while let Some(chunk) = next {
            let Chunk { prev, items } = PoolBox::into_inner(chunk);
            next = prev;
            blocks.push(items);
        }
        self.len = 0;
        while let Some(items) = blocks.pop() {
            for item in items {
                if keep(&item) {
                    self.push(item);
                }
            }
        }
    }
}

impl Drop for OwnedList {
    /// Frees the chunks one by one: a recursive drop of the chain could overflow the stack on a long list.
    fn drop(&mut self) {
        let mut next = self.full.take();
        while let Some(mut chunk) = next {
            next = chunk.prev.take();
            drop(chunk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    fn cleanup(log: &Rc<RefCell<Vec<usize>>>, i: usize) -> Owned {
        let log = log.clone();
        Owned::Cleanup(Box::new(move || log.borrow_mut().push(i)))
    }

    fn run(item: Owned) {
        if let Owned::Cleanup(f) = item {
            f();
        }
    }

    #[test]
    fn entries_come_back_newest_first_across_chunks() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut list = OwnedList::default();
        let n = 3 * CHUNK + 5;
        for i in 0..n {
            list.push(cleanup(&log, i));
        }
        assert_eq!(list.len(), n);
        let mut seen = 0;
        list.for_each_newest_first(|_| seen += 1);
        assert_eq!(seen, n);
        while let Some(item) = list.pop() {
            run(item);
        }
        assert_eq!(list.len(), 0);
        assert_eq!(*log.borrow(), (0..n).rev().collect::<Vec<_>>());
    }

    #[test]
    fn retain_keeps_order_and_drops_the_rest() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut list = OwnedList::default();
        let n = 5 * CHUNK;
        for i in 0..n {
            list.push(if i % 3 == 0 {
                Owned::Done
            } else {
                cleanup(&log, i)
            });
        }
        list.retain(|item| !matches!(item, Owned::Done));
        let kept: Vec<usize> = (0..n).filter(|i| i % 3 != 0).collect();
        assert_eq!(list.len(), kept.len());
        list.push(cleanup(&log, n));
        while let Some(item) = list.pop() {
            run(item);
        }
        let mut expected = kept;
        expected.push(n);
        expected.reverse();
        assert_eq!(*log.borrow(), expected);
    }

    #[test]
    fn the_newest_block_grows_from_four_entries_to_a_chunk() {
        let mut list = OwnedList::default();
        assert!(list.tail.is_none(), "an empty list holds no block");
        let mut capacities = Vec::new();
        for _ in 0..2 * CHUNK + 1 {
            list.push(Owned::Done);
            capacities.push(list.tail.as_ref().map_or(0, |tail| tail.capacity()));
        }
        assert_eq!(
            &capacities[..CHUNK],
            &[4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 16, 16, 16, 16]
        );
        assert!(
            capacities[CHUNK..].iter().all(|&c| c == CHUNK),
            "{capacities:?}"
        );
        let mut chunks = 0;
        let mut chunk = list.full.as_deref();
        while let Some(c) = chunk {
            assert_eq!(c.items.len(), CHUNK);
            chunks += 1;
            chunk = c.prev.as_deref();
        }
        assert_eq!((chunks, list.tail.as_ref().map(|t| t.len())), (2, Some(1)));
    }

    #[test]
    fn a_long_list_drops_without_deep_recursion() {
        let mut list = OwnedList::default();
        for _ in 0..200_000 {
            list.push(Owned::Done);
        }
        drop(list);
    }
}
