//! The per-thread pool that recycles the memory of nodes (and of the small chunks that list what a scope owns).
//!
//! When a node goes, its block goes on this thread's free list for its size, and the next node of that size takes
//! it. A graph that keeps making and disposing nodes (rows of a list, the runs of an effect that creates nodes) then
//! does not go through the allocator for each one, reuses memory that is still in cache, and never hands the
//! allocator a burst of small frees to merge (glibc answers a free that merges past 64 KiB by sweeping every small
//! free chunk in the heap, the program's as well as ours).
//!
//! Blocks of up to 512 bytes are pooled in classes 16 bytes apart (nodes, short edge lists, chunks), and blocks of up
//! to 64 KiB in powers of two (the edge list of a signal read by thousands). The pool keeps at most [`POOL_LIMIT`] bytes of
//! free blocks; past that, blocks go back to the allocator. All of it goes back when the thread ends, or at
//! [`dispose_current`](crate::graph::dispose_current). A block freed on another thread (never a node: nodes do not
//! leave their thread) goes to that thread's pool, which is just as good: every block comes from the global
//! allocator with its class's layout.
//!
//! Under AddressSanitizer (`.ci/memcheck.sh` builds with `--cfg ranvier_asan`) a free block is poisoned while it waits
//! in the pool, so a node used after its block went back is reported as it would be after a `free`.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::{self, NonNull};

/// The most bytes of free blocks a thread's pool keeps for new nodes (64 MiB).
pub const POOL_LIMIT: usize = 64 << 20;

/// Blocks of up to this many bytes are pooled in classes [`GRAIN`] bytes apart.
const SMALL_MAX: usize = 512;

/// Blocks of up to this many bytes are pooled, past [`SMALL_MAX`] in powers of two; bigger ones (a signal holding a
/// large array inline, the edge list of a signal read by more than 4096 nodes) use the allocator directly.
const POOLED_MAX: usize = 64 << 10;

/// Pooled blocks are multiples of this size, aligned to it.
const GRAIN: usize = 16;

const SMALL_CLASSES: usize = SMALL_MAX / GRAIN;

/// Classes 16, 32, ... 512 bytes, then 1 KiB, 2 KiB, ... 64 KiB.
const CLASSES: usize = SMALL_CLASSES + (POOLED_MAX / SMALL_MAX).ilog2() as usize;

/// The pool's size class of a block of `layout`, if it is pooled.
#[inline(always)]
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size();
    if layout.align() > GRAIN {
        None
    } else if size <= SMALL_MAX {
        Some(size.div_ceil(GRAIN).max(1) - 1)
    } else if size <= POOLED_MAX {
        Some(SMALL_CLASSES - 1 + (size.next_power_of_two() / SMALL_MAX).ilog2() as usize)
    } else {
        None
    }
}

/// The layout every block of a size class is allocated with.
#[inline(always)]
fn class_layout(class: usize) -> Layout {
    let size = if class < SMALL_CLASSES {
        (class + 1) * GRAIN
    } else {
        SMALL_MAX << (class + 1 - SMALL_CLASSES)
    };
    // SAFETY: a non-zero multiple of `GRAIN`, which is a power of two, and far from overflowing.
    unsafe { Layout::from_size_align_unchecked(size, GRAIN) }
}

/// A block that fits `layout` (never zero-sized): from the pool when it has one, from the allocator otherwise.
#[inline]
pub(crate) fn allocate(layout: Layout) -> NonNull<u8> {
    let layout = match class_of(layout) {
        Some(class) => {
            if let Ok(Some(block)) = POOL.try_with(|pool| pool.take(class)) {
                return block;
            }
            class_layout(class)
        }
        None => layout,
    };
    debug_assert!(layout.size() > 0, "no zero-sized blocks");
    // SAFETY: not zero-sized (every caller allocates a node, or a chunk with a header).
    NonNull::new(unsafe { alloc(layout) }).unwrap_or_else(|| handle_alloc_error(layout))
}

/// Frees a block that [`allocate`] gave out for `layout`: into the pool while it has room, to the allocator
/// otherwise.
///
/// # Safety
///
/// `block` came from `allocate(layout)` and nothing uses it any more.
#[inline]
pub(crate) unsafe fn release(block: NonNull<u8>, layout: Layout) {
    match class_of(layout) {
        Some(class) => {
            if POOL.try_with(|pool| pool.keep(class, block)) == Ok(true) {
                return;
            }
            // SAFETY: pooled classes are allocated with `class_layout`.
            unsafe { dealloc(block.as_ptr(), class_layout(class)) }
        }
        // SAFETY: allocated with `layout` itself.
        None => unsafe { dealloc(block.as_ptr(), layout) },
    }
}

/// AddressSanitizer's manual poisoning, so that the blocks the pool keeps read as freed; nothing without
/// `--cfg ranvier_asan`.
mod asan {
    #[cfg(ranvier_asan)]
    unsafe extern "C" {
        // The sanitizer's runtime, linked by `-Zsanitizer=address`; both accept any range of the program's memory.
        safe fn __asan_poison_memory_region(addr: *const u8, size: usize);
        safe fn __asan_unpoison_memory_region(addr: *const u8, size: usize);
    }

    /// Marks `size` bytes at `addr` as not to be touched until [`unpoison`]ed.
    #[inline(always)]
    pub(super) fn poison(addr: *const u8, size: usize) {
        #[cfg(ranvier_asan)]
        __asan_poison_memory_region(addr, size);
        let _ = (addr, size);
    }

    /// Lets the program use `size` bytes at `addr` again.
    #[inline(always)]
    pub(super) fn unpoison(addr: *const u8, size: usize) {
        #[cfg(ranvier_asan)]
        __asan_unpoison_memory_region(addr, size);
        let _ = (addr, size);
    }
}

/// A free block: its first word links to the next free block of its class.
struct Free {
    next: *mut Free,
}

/// One thread's free blocks, a list per size class.
struct Pool {
    heads: [Cell<*mut Free>; CLASSES],
    /// Bytes of free blocks held.
    bytes: Cell<usize>,
}

thread_local! {
    static POOL: Pool = const {
        Pool {
            heads: [const { Cell::new(ptr::null_mut()) }; CLASSES],
            bytes: Cell::new(0),
        }
    };
}

impl Pool {
    #[inline(always)]
    fn take(&self, class: usize) -> Option<NonNull<u8>> {
        let head = &self.heads[class];
        let block = NonNull::new(head.get())?;
        asan::unpoison(block.as_ptr().cast(), class_layout(class).size());
        // SAFETY: a block on a free list is ours, and begins with its link.
        head.set(unsafe { (*block.as_ptr()).next });
        self.bytes
            .set(self.bytes.get() - class_layout(class).size());
        Some(block.cast())
    }

    /// Keeps `block` for a later node of its class; `false` when the pool is full.
    #[inline(always)]
    fn keep(&self, class: usize, block: NonNull<u8>) -> bool {
        let size = class_layout(class).size();
        if self.bytes.get() + size > POOL_LIMIT {
            return false;
        }
        self.bytes.set(self.bytes.get() + size);
        let head = &self.heads[class];
        let block = block.cast::<Free>().as_ptr();
        // SAFETY: the block is free, at least `GRAIN` bytes and aligned to it: room for its link.
        unsafe { block.write(Free { next: head.get() }) };
        asan::poison(block.cast(), size);
        head.set(block);
        true
    }

    /// Gives every free block back to the allocator.
    fn release_all(&self) {
        for (class, head) in self.heads.iter().enumerate() {
            let mut block = head.replace(ptr::null_mut());
            while !block.is_null() {
                asan::unpoison(block.cast(), class_layout(class).size());
                // SAFETY: the block is on the free list, so it is free and begins with its link; it was allocated
                // with its class's layout.
                unsafe {
                    let next = (*block).next;
                    dealloc(block as *mut u8, class_layout(class));
                    block = next;
                }
            }
        }
        self.bytes.set(0);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.release_all();
    }
}

/// Gives the thread's free blocks back to the allocator.
pub(crate) fn release_pool() {
    let _ = POOL.try_with(Pool::release_all);
}

/// Bytes of free blocks the thread's pool holds (0 once the thread's locals are torn down).
pub(crate) fn pooled_bytes() -> usize {
    POOL.try_with(|pool| pool.bytes.get()).unwrap_or(0)
}

/// A `Box` whose memory comes from the pool.
pub(crate) struct PoolBox<T> {
    ptr: NonNull<T>,
    _owns: PhantomData<T>,
}

impl<T> PoolBox<T> {
    /// Moves `value` into a pooled block.
    #[inline]
    pub fn new(value: T) -> Self {
        const { assert!(size_of::<T>() > 0, "no zero-sized blocks") };
        let ptr = allocate(Layout::new::<T>()).cast::<T>();
        // SAFETY: the block fits `T`'s layout.
        unsafe { ptr.as_ptr().write(value) };
        PoolBox {
            ptr,
            _owns: PhantomData,
        }
    }

    /// Moves the value out and gives the block back to the pool.
    pub fn into_inner(this: Self) -> T {
        let this = std::mem::ManuallyDrop::new(this);
        // SAFETY: the block holds an initialised `T`, read once here; the block is then released with `T`'s layout
        // and `this` is never dropped, so neither the value nor the block is freed twice.
        unsafe {
            let value = this.ptr.as_ptr().read();
            release(this.ptr.cast(), Layout::new::<T>());
            value
        }
    }
}

impl<T> Deref for PoolBox<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: the box owns a live `T`.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T> DerefMut for PoolBox<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the box owns a live `T`, and `&mut self` makes this the only reference.
        unsafe { self.ptr.as_mut() }
    }
}

impl<T> Drop for PoolBox<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the box owns a live `T` and its block; neither is used again.
        unsafe {
            ptr::drop_in_place(self.ptr.as_ptr());
            release(self.ptr.cast(), Layout::new::<T>());
        }
    }
}

/// A `Vec` whose buffer comes from the pool (while it is small enough to be pooled), with the few operations edge
/// lists need. It grows by doubling, from 4.
pub(crate) struct PoolVec<T> {
    ptr: NonNull<T>,
    len: u32,
    cap: u32,
    _owns: PhantomData<T>,
}

impl<T> PoolVec<T> {
    /// An empty vector with room for `capacity` items (at least 4).
    pub fn with_capacity(capacity: usize) -> Self {
        const { assert!(size_of::<T>() > 0, "no zero-sized items") };
        let cap = capacity.max(4);
        let cap32 = u32::try_from(cap).expect("an edge list of under 2^32 edges");
        PoolVec {
            ptr: allocate(Self::layout(cap)).cast(),
            len: 0,
            cap: cap32,
            _owns: PhantomData,
        }
    }

    fn layout(cap: usize) -> Layout {
        Layout::array::<T>(cap).expect("an edge list that fits in memory")
    }

    /// How many items there are.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The items, in order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items are initialised.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len()) }
    }

    /// The items, in order, to change in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: the first `len` items are initialised, and `&mut self` makes this the only borrow.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len()) }
    }

    /// How many items fit before the buffer grows.
    #[inline(always)]
    pub fn capacity(&self) -> usize {
        self.cap as usize
    }

    /// Removes and returns the last item.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: the slot at the old last index is initialised and now past `len`: it is read exactly once.
        Some(unsafe { self.ptr.as_ptr().add(self.len()).read() })
    }

    /// Appends an item.
    #[inline]
    pub fn push(&mut self, item: T) {
        if self.len == self.cap {
            self.grow(self.cap as usize + 1);
        }
        // SAFETY: `len < cap`, so the slot is inside the buffer, and it is uninitialised.
        unsafe { self.ptr.as_ptr().add(self.len()).write(item) };
        self.len += 1;
    }

    /// Makes room for at least `capacity` items.
    #[cold]
    pub fn grow(&mut self, capacity: usize) {
        if capacity <= self.cap as usize {
            return;
        }
        let cap = capacity.max(self.cap as usize * 2);
        let cap32 = u32::try_from(cap).expect("an edge list of under 2^32 edges");
        let ptr = allocate(Self::layout(cap)).cast::<T>();
        // SAFETY: the new buffer has room for `len` items and does not overlap the old one, which is then freed with
        // the layout it was allocated with; the moved items are not dropped there.
        unsafe {
            ptr::copy_nonoverlapping(self.ptr.as_ptr(), ptr.as_ptr(), self.len());
            release(self.ptr.cast(), Self::layout(self.cap as usize));
        }
        self.ptr = ptr;
        self.cap = cap32;
    }

    /// Removes the item at `index`, moving the last item into its place.
    ///
    /// # Panics
    ///
    /// If `index` is out of range.
    pub fn swap_remove(&mut self, index: usize) -> T {
        assert!(index < self.len(), "edge index out of range");
        self.len -= 1;
        // SAFETY: `index` and the old last slot are initialised; the last slot becomes uninitialised (not dropped)
        // once its item has moved into `index`'s place.
        unsafe {
            let base = self.ptr.as_ptr();
            let item = base.add(index).read();
            if index != self.len() {
                ptr::copy_nonoverlapping(base.add(self.len()), base.add(index), 1);
            }
            item
        }
    }

    /// Removes the items from `at` on, handing each to `f` in order.
    pub fn truncate_with(&mut self, at: usize, mut f: impl FnMut(T)) {
        let end = self.len();
        if at >= end {
            return;
        }
        // Shorten first: if `f` panics, the items not yet handed out leak instead of being dropped twice.
        self.len = at as u32;
        for i in at..end {
            // SAFETY: slots `at..end` were initialised and are now past `len`: each is read exactly once.
            f(unsafe { self.ptr.as_ptr().add(i).read() });
        }
    }
}

impl<T> Drop for PoolVec<T> {
    fn drop(&mut self) {
        // SAFETY: the first `len` items are initialised and dropped once; the buffer is freed with its layout.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len()));
            release(self.ptr.cast(), Self::layout(self.cap as usize));
        }
    }
}

impl<T> IntoIterator for PoolVec<T> {
    type Item = T;
    type IntoIter = PoolVecIntoIter<T>;

    fn into_iter(self) -> PoolVecIntoIter<T> {
        let end = self.len as usize;
        PoolVecIntoIter {
            vec: std::mem::ManuallyDrop::new(self),
            next: 0,
            end,
        }
    }
}

/// The owning iterator of a [`PoolVec`].
pub(crate) struct PoolVecIntoIter<T> {
    /// Its `len` no longer counts: items `next..end` are the ones left.
    vec: std::mem::ManuallyDrop<PoolVec<T>>,
    next: usize,
    end: usize,
}

impl<T> Iterator for PoolVecIntoIter<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.next == self.end {
            return None;
        }
        self.next += 1;
        // SAFETY: items `next..end` are initialised and each is read once.
        Some(unsafe { self.vec.ptr.as_ptr().add(self.next - 1).read() })
    }
}

impl<T> Drop for PoolVecIntoIter<T> {
    fn drop(&mut self) {
        // SAFETY: items `next..end` were not handed out; drop them, then free the buffer.
        unsafe {
            let rest = self.vec.ptr.as_ptr().add(self.next);
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(rest, self.end - self.next));
            release(
                self.vec.ptr.cast(),
                PoolVec::<T>::layout(self.vec.cap as usize),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_freed_block_is_reused_by_the_next_block_of_its_size() {
        release_pool();
        let first = PoolBox::new([1u64; 20]);
        let address = &*first as *const [u64; 20];
        drop(first);
        assert_eq!(pooled_bytes(), 160);
        let second = PoolBox::new([2u64; 19]);
        assert_eq!(
            &*second as *const [u64; 19] as *const [u64; 20], address,
            "same class: the block came back"
        );
        assert_eq!(pooled_bytes(), 0);
        assert_eq!(*second, [2; 19]);
        drop(second);
        assert_eq!(pooled_bytes(), 160);
        release_pool();
        assert_eq!(pooled_bytes(), 0);
    }

    #[test]
    fn dispose_current_gives_the_free_blocks_back() {
        release_pool();
        let signals: Vec<crate::Signal<i32>> = (0..100).map(crate::Signal::new).collect();
        drop(signals);
        // Their blocks are in the pool now, or (in traced builds) once the trace lets go of its weak handles, which
        // `dispose_current` makes it do: either way they are there before it gives the pool back.
        crate::graph::dispose_current();
        assert_eq!(pooled_bytes(), 0);
    }

    #[test]
    fn every_size_up_to_the_largest_class_fits_its_class() {
        let mut last = 0;
        for size in (1..=POOLED_MAX)
            .step_by(7)
            .chain([SMALL_MAX, SMALL_MAX + 1, POOLED_MAX])
        {
            let class = class_of(Layout::from_size_align(size, 8).unwrap()).expect("pooled");
            let fits = class_layout(class).size();
            assert!(fits >= size, "{size} bytes in a {fits}-byte class");
            assert!(
                fits < 2 * size.max(GRAIN),
                "{size} bytes in a {fits}-byte class wastes over half"
            );
            assert!(class < CLASSES);
            last = last.max(class);
        }
        assert_eq!(last, CLASSES - 1);
        assert_eq!(class_layout(CLASSES - 1).size(), POOLED_MAX);
        assert_eq!(
            class_of(Layout::from_size_align(POOLED_MAX + 1, 8).unwrap()),
            None
        );
        assert_eq!(class_of(Layout::from_size_align(64, 32).unwrap()), None);
    }

    #[test]
    fn blocks_past_the_pooled_size_go_to_the_allocator() {
        release_pool();
        drop(PoolBox::new([0u8; POOLED_MAX + 1]));
        assert_eq!(pooled_bytes(), 0);
    }

    #[test]
    #[cfg_attr(miri, ignore = "four million blocks")]
    fn the_pool_keeps_no_more_than_its_limit() {
        release_pool();
        let class = class_of(Layout::new::<[u64; 8]>()).expect("pooled");
        let size = class_layout(class).size();
        let keep = POOL_LIMIT / size;
        let blocks: Vec<NonNull<u8>> = (0..keep + 3)
            .map(|_| allocate(Layout::new::<[u64; 8]>()))
            .collect();
        for block in blocks {
            // SAFETY: each came from `allocate` with this layout and is not used.
            unsafe { release(block, Layout::new::<[u64; 8]>()) };
        }
        assert!(pooled_bytes() <= POOL_LIMIT);
        assert!(pooled_bytes() > POOL_LIMIT - size);
        release_pool();
    }

    #[test]
    fn a_pool_vec_keeps_its_items_through_growth_and_removal() {
        use std::rc::Rc;
        let item = Rc::new(());
        let mut v = PoolVec::with_capacity(1);
        for _ in 0..40 {
            v.push(item.clone());
        }
        assert_eq!(v.len(), 40);
        assert_eq!(Rc::strong_count(&item), 41);
        v.swap_remove(0);
        v.swap_remove(38);
        assert_eq!(v.len(), 38);
        let mut handed = 0;
        v.truncate_with(30, |_| handed += 1);
        assert_eq!((handed, v.len()), (8, 30));
        let mut it = v.into_iter();
        it.next();
        drop(it);
        assert_eq!(Rc::strong_count(&item), 1, "every clone was dropped once");
        let mut order = PoolVec::with_capacity(4);
        for i in 0..10u64 {
            order.push(i);
        }
        order.swap_remove(2);
        assert_eq!(order.as_slice(), [0, 1, 9, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            order.into_iter().collect::<Vec<_>>(),
            [0, 1, 9, 3, 4, 5, 6, 7, 8]
        );
    }
}
