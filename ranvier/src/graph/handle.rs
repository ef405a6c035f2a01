//! Node handles: reference-counted pointers to nodes.
//!
//! A node lives in one heap block with two counts in front of it, as in an `Rc`. Strong handles keep the node alive:
//! [`NodeRc<T>`] knows the node's type, [`DynNodeRc`] sees it as `dyn NodeBody`, and both point at the same node. A
//! [`WeakNode`] (the trace keeps one per node) keeps only the block, and [`WeakNode::upgrade`] finds out whether the
//! node is still there.
//!
//! A handle points at the node itself, not at the start of its block, and the counts sit in the 8 bytes just before
//! the node whatever its type: so reaching a node through a `dyn NodeBody` handle never reads its alignment from the
//! vtable to find where it starts, as an `Rc<dyn NodeBody>` must.
//!
//! Blocks come from the thread's [pool](super::pool), so a node made after one was disposed reuses its memory.
//!
//! The counts are `u32`: the program would need four billion clones of one handle to overflow one, and then the
//! process aborts, as `Rc` does.

use super::node::NodeBody;
use super::pool::{allocate, release};
use std::alloc::Layout;
use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::{self, NonNull};
use std::rc::Rc;

/// A node's counts, in the 8 bytes before it.
#[repr(C)]
struct Counts {
    /// Strong handles. The node is dropped when it reaches 0.
    strong: Cell<u32>,
    /// Weak handles, plus one for all the strong ones together. The block is freed when it reaches 0.
    weak: Cell<u32>,
}

/// Where a node of `layout` sits in its block (its offset, at least 8 so that the counts fit before it, and a
/// multiple of its alignment), and the block's layout.
#[inline(always)]
fn block_layout(layout: Layout) -> (usize, Layout) {
    let offset = layout.align().max(size_of::<Counts>());
    let block = Layout::from_size_align(offset + layout.size(), offset)
        .expect("a node that fits in memory");
    (offset, block)
}

/// A node's counts.
///
/// # Safety
///
/// `node` points at a node made by [`NodeRc::new_with`] whose block is still allocated.
#[inline(always)]
unsafe fn counts<'a, T: ?Sized>(node: *const T) -> &'a Counts {
    // SAFETY: the caller's guarantee; the counts are the 8 bytes before the node, aligned for them.
    unsafe { &*((node as *const u8).sub(size_of::<Counts>()) as *const Counts) }
}

/// The address of a node in its block.
///
/// It is `Send` and `Sync` only so that the compile error for moving a handle to another thread names one culprit,
/// the handle's `Rc` marker (`` `Rc<SignalInner<i32>>` cannot be sent between threads safely ``), rather than this
/// pointer and whatever the node holds besides. Every handle that holds one is `!Send` and `!Sync` through that
/// marker, and nothing else holds one.
struct NodePtr<T: ?Sized>(NonNull<T>);

impl<T: ?Sized> Clone for NodePtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for NodePtr<T> {}

// SAFETY: see the type's docs: it only lives inside handles that are `!Send` and `!Sync` (their `Rc` marker), so no
// node is reached from another thread through it.
unsafe impl<T: ?Sized> Send for NodePtr<T> {}
// SAFETY: as for `Send`: no `&NodePtr` is reachable from another thread, since every holder is `!Sync`.
unsafe impl<T: ?Sized> Sync for NodePtr<T> {}

/// A strong handle to a node whose type is known.
pub(crate) struct NodeRc<T> {
    ptr: NodePtr<T>,
    /// Owns a `T`, and keeps the handle on its thread (`!Send`, `!Sync`).
    _marker: PhantomData<Rc<T>>,
}

/// A strong handle to a node of any type.
pub(crate) struct DynNodeRc {
    ptr: NodePtr<dyn NodeBody>,
    /// Keeps the handle on its thread (`!Send`, `!Sync`).
    _marker: PhantomData<Rc<dyn NodeBody>>,
}

/// A handle that does not keep its node alive; [`upgrade`](WeakNode::upgrade) tells whether it still is.
pub(crate) struct WeakNode {
    /// `None` for a handle that never pointed at a node.
    ptr: Option<NodePtr<dyn NodeBody>>,
    /// Keeps the handle on its thread (`!Send`, `!Sync`).
    _marker: PhantomData<Rc<dyn NodeBody>>,
}

impl<T> NodeRc<T> {
    /// Makes a node in a new block with `make`, which runs once the block is there, so that the node is built in
    /// place rather than on the stack and copied.
    #[inline(always)]
    pub fn new_with(make: impl FnOnce() -> T) -> Self {
        const {
            assert!(
                size_of::<T>() >= size_of::<Stash>(),
                "a node has room for its block's layout"
            )
        };
        let (offset, layout) = block_layout(Layout::new::<T>());
        // SAFETY: the block fits `layout`: the node at `offset` is inside it and aligned (`offset` is a multiple of
        // its alignment, and so is the block's start), and the counts take the 8 bytes before it. If `make` panics
        // the block is lost, not freed: a leak, never a use of uninitialised memory.
        unsafe {
            let node = allocate(layout).as_ptr().add(offset).cast::<T>();
            (node as *mut Counts).sub(1).write(Counts {
                strong: Cell::new(1),
                weak: Cell::new(1),
            });
            node.write(make());
            NodeRc {
                ptr: NodePtr(NonNull::new_unchecked(node)),
                _marker: PhantomData,
            }
        }
    }

    /// The node's address, the same for every handle to it.
    #[inline(always)]
    pub fn as_ptr(&self) -> *const () {
        self.ptr.0.as_ptr() as *const ()
    }
}

impl<T: NodeBody> NodeRc<T> {
    /// A handle to the same node that sees it as `dyn NodeBody`.
    #[inline]
    pub fn erase(&self) -> DynNodeRc {
        // SAFETY: a strong handle keeps its node and block alive.
        add_strong(unsafe { counts(self.ptr.0.as_ptr()) });
        let ptr: NonNull<dyn NodeBody> = self.ptr.0;
        DynNodeRc {
            ptr: NodePtr(ptr),
            _marker: PhantomData,
        }
    }

    /// A weak handle to the node.
    pub fn downgrade(&self) -> WeakNode {
        self.erase().downgrade()
    }
}

impl DynNodeRc {
    /// The node's address, the same for every handle to it.
    #[inline(always)]
    pub fn as_ptr(&self) -> *const () {
        self.ptr.0.as_ptr() as *const ()
    }

    /// A weak handle to the node.
    pub fn downgrade(&self) -> WeakNode {
        // SAFETY: a strong handle keeps its node and block alive.
        let weak = unsafe { &counts(self.ptr.0.as_ptr()).weak };
        weak.set(
            weak.get()
                .checked_add(1)
                .unwrap_or_else(|| std::process::abort()),
        );
        WeakNode {
            ptr: Some(self.ptr),
            _marker: PhantomData,
        }
    }
}

impl DynNodeRc {
    /// The same handle with the node's type known again.
    ///
    /// # Safety
    ///
    /// The node was made as a `T` (by `NodeRc::<T>::new_with`).
    pub unsafe fn into_typed<T>(self) -> NodeRc<T> {
        let ptr = self.ptr.0.cast::<T>();
        std::mem::forget(self);
        NodeRc {
            ptr: NodePtr(ptr),
            _marker: PhantomData,
        }
    }
}

impl WeakNode {
    /// A weak handle that points at no node.
    pub fn new() -> Self {
        WeakNode {
            ptr: None,
            _marker: PhantomData,
        }
    }

    /// The node's address (see [`DynNodeRc::as_ptr`]), if the handle ever pointed at one.
    pub fn as_ptr(&self) -> Option<*const ()> {
        self.ptr.map(|ptr| ptr.0.as_ptr() as *const ())
    }

    /// A strong handle to the node, if it is still alive. (Only the trace looks its nodes up.)
    pub fn upgrade(&self) -> Option<DynNodeRc> {
        let ptr = self.ptr?;
        // SAFETY: a weak handle keeps the block, counts included, after the node is dropped.
        let counts = unsafe { counts(ptr.0.as_ptr()) };
        if counts.strong.get() == 0 {
            return None;
        }
        add_strong(counts);
        Some(DynNodeRc {
            ptr,
            _marker: PhantomData,
        })
    }
}

impl Default for WeakNode {
    fn default() -> Self {
        WeakNode::new()
    }
}

#[inline(always)]
fn add_strong(counts: &Counts) {
    let n = counts.strong.get();
    // Overflow is out of reach of a real program (see the module docs); abort as `Rc` does rather than free a node
    // that is still in use.
    if n == u32::MAX {
        std::process::abort();
    }
    counts.strong.set(n + 1);
}

impl<T> Clone for NodeRc<T> {
    #[inline]
    fn clone(&self) -> Self {
        // SAFETY: a strong handle keeps its node and block alive.
        add_strong(unsafe { counts(self.ptr.0.as_ptr()) });
        NodeRc {
            ptr: self.ptr,
            _marker: PhantomData,
        }
    }
}

impl Clone for DynNodeRc {
    #[inline]
    fn clone(&self) -> Self {
        // SAFETY: a strong handle keeps its node and block alive.
        add_strong(unsafe { counts(self.ptr.0.as_ptr()) });
        DynNodeRc {
            ptr: self.ptr,
            _marker: PhantomData,
        }
    }
}

impl<T> Deref for NodeRc<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: a strong handle keeps its node alive.
        unsafe { self.ptr.0.as_ref() }
    }
}

impl Deref for DynNodeRc {
    type Target = dyn NodeBody;

    #[inline(always)]
    fn deref(&self) -> &dyn NodeBody {
        // SAFETY: a strong handle keeps its node alive.
        unsafe { self.ptr.0.as_ref() }
    }
}

impl<T> Drop for NodeRc<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: this handle holds one of the strong counts.
        unsafe { release_strong(self.ptr.0.as_ptr()) }
    }
}

impl Drop for DynNodeRc {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: this handle holds one of the strong counts.
        unsafe { release_strong(self.ptr.0.as_ptr()) }
    }
}

impl Drop for WeakNode {
    fn drop(&mut self) {
        if let Some(ptr) = self.ptr {
            // SAFETY: this handle holds one of the weak counts.
            unsafe { release_weak(ptr.0.as_ptr()) }
        }
    }
}

/// Gives up one strong count: the last one drops the node, then gives up the strong handles' weak count.
///
/// # Safety
///
/// `node` is live and the caller holds one of its strong counts, which it must not use again.
#[inline]
unsafe fn release_strong<T: ?Sized>(node: *mut T) {
    // SAFETY: the caller's strong count keeps the block alive.
    let strong = unsafe { &counts(node).strong };
    let n = strong.get() - 1;
    strong.set(n);
    if n == 0 {
        // SAFETY: as above; the node is still alive and nothing else will drop it.
        unsafe { drop_node(node) }
    }
}

/// What a dropped node's place holds until its block is freed: the block's layout and the node's offset in it.
type Stash = (Layout, usize);

/// Drops a node whose last strong handle went, then gives up the strong handles' weak count.
///
/// # Safety
///
/// As [`release_strong`], whose count just reached 0.
#[cold]
unsafe fn drop_node<T: ?Sized>(node: *mut T) {
    /// Gives up the weak count when dropped: after the node's drop, or while unwinding from a panic in it (a `Drop`
    /// of the program's), so that the block is not lost either way. The fields the panic skipped are dropped by the
    /// unwinding before this runs.
    struct GiveUpWeak<T: ?Sized> {
        node: *mut T,
        stash: Stash,
    }

    impl<T: ?Sized> Drop for GiveUpWeak<T> {
        fn drop(&mut self) {
            // SAFETY: the node is dropped and its place is free; the block lives until this weak count goes. The
            // block is freed when its last weak handle goes, after the node's type is gone: keep its layout in the
            // node's place, which is big and aligned enough (checked in `new_with`; its offset is a multiple of 8).
            unsafe {
                (self.node as *mut u8 as *mut Stash).write(self.stash);
                release_weak(self.node);
            }
        }
    }

    // SAFETY: the node is alive until the `drop_in_place` below, which nothing can reach again (no strong handle is
    // left, and a weak one will not upgrade at strong count 0).
    unsafe {
        let (offset, layout) = block_layout(Layout::for_value(&*node));
        let _give_up = GiveUpWeak {
            node,
            stash: (layout, offset),
        };
        ptr::drop_in_place(node);
    }
}

/// Gives up one weak count: the last one frees the block.
///
/// # Safety
///
/// `node`'s block is live, the node is dropped or a strong count keeps the weak count above 1, and the caller holds
/// one of its weak counts, which it must not use again.
unsafe fn release_weak<T: ?Sized>(node: *mut T) {
    // SAFETY: the caller's weak count keeps the block alive.
    let weak = unsafe { &counts(node).weak };
    let n = weak.get() - 1;
    weak.set(n);
    if n == 0 {
        // SAFETY: the weak count reached 0 only after the strong one did, so the node is dropped and its place holds
        // the block's layout and the node's offset (see `drop_node`); no handle points here any more.
        unsafe {
            let (layout, offset) = (node as *const u8 as *const Stash).read();
            release(
                NonNull::new_unchecked((node as *mut u8).sub(offset)),
                layout,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::pool::{pooled_bytes, release_pool};
    use crate::graph::{Core, NodeId, NodeKind};

    #[repr(C)]
    struct Probe {
        core: Core,
        dropped: std::rc::Rc<Cell<u32>>,
    }

    // SAFETY: `#[repr(C)]`, `core` first, and a signal's kind: no `Computation` is read.
    unsafe impl NodeBody for Probe {}

    impl Drop for Probe {
        fn drop(&mut self) {
            self.dropped.set(self.dropped.get() + 1);
        }
    }

    fn probe(dropped: &std::rc::Rc<Cell<u32>>) -> NodeRc<Probe> {
        NodeRc::new_with(|| Probe {
            core: Core::new(NodeId(1), NodeKind::Signal, std::panic::Location::caller()),
            dropped: dropped.clone(),
        })
    }

    #[test]
    fn the_node_is_dropped_with_its_last_strong_handle() {
        let dropped = std::rc::Rc::new(Cell::new(0));
        let typed = probe(&dropped);
        let erased = typed.erase();
        let again = erased.clone();
        assert_eq!(typed.as_ptr(), erased.as_ptr());
        assert_eq!(erased.as_ptr(), again.as_ptr());
        drop(typed);
        drop(erased);
        assert_eq!(dropped.get(), 0, "a strong handle is left");
        drop(again);
        assert_eq!(dropped.get(), 1);
    }

    #[test]
    fn a_weak_handle_upgrades_only_while_the_node_lives() {
        let dropped = std::rc::Rc::new(Cell::new(0));
        let typed = probe(&dropped);
        let weak = typed.downgrade();
        let strong = weak.upgrade().expect("the node is alive");
        assert_eq!(strong.core().id, NodeId(1));
        drop((typed, strong));
        assert_eq!(dropped.get(), 1);
        assert!(weak.upgrade().is_none(), "the node is gone");
        assert!(WeakNode::new().upgrade().is_none());
        drop(weak);
    }

    #[test]
    fn a_node_whose_drop_panics_still_gives_its_block_back() {
        #[repr(C)]
        struct Panics {
            core: Core,
        }
        // SAFETY: `#[repr(C)]`, `core` first, a signal's kind.
        unsafe impl NodeBody for Panics {}
        impl Drop for Panics {
            fn drop(&mut self) {
                panic!("a program's Drop that panics");
            }
        }
        release_pool();
        let node = NodeRc::new_with(|| Panics {
            core: Core::new(NodeId(2), NodeKind::Signal, std::panic::Location::caller()),
        });
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(node)));
        assert!(dropped.is_err());
        assert_eq!(
            pooled_bytes(),
            (8 + size_of::<Panics>()).next_multiple_of(16),
            "the block is back"
        );
        release_pool();
    }

    #[test]
    fn a_dropped_node_gives_its_block_back_even_though_the_trace_saw_it() {
        release_pool();
        // Made through the public API, so traced builds register it with the trace (which keeps a weak handle).
        let signal = crate::Signal::new(7_i64);
        let id = signal.id();
        drop(signal);
        assert!(pooled_bytes() >= 96, "the block is back in the pool");
        if crate::graph::record::TRACED {
            crate::graph::with_runtime(|rt| assert!(rt.tracer.live(id).is_none()));
        }
        release_pool();
    }

    #[test]
    fn a_node_aligned_past_the_counts_keeps_its_alignment() {
        #[derive(Clone, Debug, PartialEq)]
        #[repr(align(64))]
        struct Wide(u8);
        let signal = crate::Signal::new(Wide(1));
        signal.with(|w| assert_eq!(w as *const Wide as usize % 64, 0));
        signal.set(Wide(2));
        assert_eq!(signal.get(), Wide(2));
        let weak = signal.inner.downgrade();
        drop(signal);
        drop(weak);
    }

    #[test]
    fn a_block_outlives_its_node_while_a_weak_handle_holds_it() {
        release_pool();
        let dropped = std::rc::Rc::new(Cell::new(0));
        let typed = probe(&dropped);
        let weak = typed.downgrade();
        drop(typed);
        assert_eq!(dropped.get(), 1);
        assert_eq!(pooled_bytes(), 0, "the weak handle keeps the block");
        drop(weak);
        assert!(pooled_bytes() > 0, "freed with the last weak handle");
        release_pool();
    }
}
