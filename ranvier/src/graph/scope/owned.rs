//! What a scope owns, in creation order: a stack of small chunks from the thread's [pool](crate::graph).
//!
//! A scope can own a great many entries: the graph's root owns every node made outside a scope. A `Vec` would double
//! its way up to megabytes, freeing each old buffer as it grows, and glibc answers such a free by sweeping every small
//! free chunk in the heap, the program's as well as ours. Chunks of under 512 bytes come from the node pool instead,
//! and go back to it when the scope is disposed.

use super::Owned;
use crate::graph::PoolBox;

/// How many entries a chunk holds: as many as fit in a pooled block with the chunk's header.
const CHUNK: usize = (512 - 2 * size_of::<usize>()) / size_of::<Option<Owned>>();

// A chunk fits a pooled block, and holds enough entries to be worth its header.
const _: () = assert!(size_of::<Chunk>() <= 512 && CHUNK >= 16);

/// A scope's entries, oldest first.
#[derive(Default)]
pub(super) struct OwnedList {
    /// The newest chunk; each links to the one before it.
    last: Option<PoolBox<Chunk>>,
    len: usize,
}

struct Chunk {
    prev: Option<PoolBox<Chunk>>,
    len: usize,
    /// `items[..len]` are `Some`.
    items: [Option<Owned>; CHUNK],
}

impl OwnedList {
    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends an entry.
    #[inline]
    pub fn push(&mut self, item: Owned) {
        match &mut self.last {
            Some(chunk) if chunk.len < CHUNK => {
                let chunk = &mut **chunk;
                chunk.items[chunk.len] = Some(item);
                chunk.len += 1;
            }
            _ => self.push_chunk(item),
        }
        self.len += 1;
    }

    #[cold]
    fn push_chunk(&mut self, item: Owned) {
        let mut chunk = PoolBox::new(Chunk {
            prev: self.last.take(),
            len: 1,
            items: [const { None }; CHUNK],
        });
        chunk.items[0] = Some(item);
        self.last = Some(chunk);
    }

    /// Removes and returns the newest entry.
    #[inline]
    pub fn pop(&mut self) -> Option<Owned> {
        loop {
            let chunk = &mut **self.last.as_mut()?;
            if chunk.len > 0 {
                chunk.len -= 1;
                self.len -= 1;
                return chunk.items[chunk.len].take();
            }
            let prev = chunk.prev.take();
            self.last = prev;
        }
    }

    /// Calls `f` on every entry, newest first.
    pub fn for_each_newest_first(&mut self, mut f: impl FnMut(&mut Owned)) {
        let mut chunk = self.last.as_deref_mut();
        while let Some(c) = chunk {
            for item in c.items[..c.len].iter_mut().rev() {
                f(item.as_mut().expect("entries below len are present"));
            }
            chunk = c.prev.as_deref_mut();
        }
    }

    /// Keeps only the entries for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Owned) -> bool) {
        // Unlink the chunks, oldest last, then refill from the oldest: the chunks go back to the pool as they are
        // emptied, and the new ones reuse them.
        let mut chunks = Vec::new();
        let mut next = self.last.take();
        while let Some(mut chunk) = next {
            next = chunk.prev.take();
            chunks.push(chunk);
        }
        self.len = 0;
        while let Some(mut chunk) = chunks.pop() {
            let len = chunk.len;
            for item in chunk.items[..len].iter_mut() {
                if let Some(item) = item.take()
                    && keep(&item)
                {
                    self.push(item);
                }
            }
        }
    }
}

impl Drop for OwnedList {
    /// Frees the chunks one by one: a recursive drop of the chain could overflow the stack on a long list.
    fn drop(&mut self) {
        let mut next = self.last.take();
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
    fn a_long_list_drops_without_deep_recursion() {
        let mut list = OwnedList::default();
        for _ in 0..200_000 {
            list.push(Owned::Done);
        }
        drop(list);
    }
}
