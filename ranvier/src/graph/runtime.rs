//! The per-thread runtime: the running computation, the owner of new nodes, the effect queue, batches and flushes.

use super::edges::Edges;
use super::node::{
    Computation, DynNodeRc, NodeKind, State, add_live, is_live, raise_height, remove_live,
};
use super::record::Tracer;
use super::scope::Scope;
use super::{NodeError, NodeId};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) struct Runtime {
    next_id: Cell<u32>,
    /// Counts the memo and effect runs started on this thread: 1, then two more per run (so its low 32 bits, a run's
    /// stamp, are odd and never 0). A signal that notified its observers
    /// when this count stood where it stands now has nothing to add by notifying them again: none of them has run
    /// since, so they are all still marked.
    pub run_count: Cell<u64>,
    /// The memo or effect whose body is running, and whether reads are recorded as its sources (see [`Context`]).
    context: Cell<Context>,
    /// The explicit scope that owns new nodes when no body runs (inside `create_root`).
    pub scope: RefCell<Option<Scope>>,
    /// The graph's root scope.
    pub root: RefCell<Scope>,
    batch_depth: Cell<u32>,
    flushing: Cell<bool>,
    flush_owed: Cell<bool>,
    queue: RefCell<Vec<DynNodeRc>>,
    queue_head: Cell<usize>,
    /// The queue's length, kept beside it so that the test of whether effects wait (made on every link of a chain)
    /// reads two cells and no borrow flag.
    queue_len: Cell<usize>,
    /// The sources each running computation read after its first difference from its last run, as a stack of
    /// segments (one per nested run that diverged, from where the stack stood when it did: see
    /// `Computation::scratch_base`).
    scratch: RefCell<Vec<DynNodeRc>>,
    /// Live memos whose sources moved, brought up to date lowest height first before any effect runs.
    /// One bucket per height: a bucket queue, so queuing and taking cost O(1). Reached only through
    /// [`with_eager`](Runtime::with_eager).
    eager: UnsafeCell<Vec<Vec<DynNodeRc>>>,
    /// No bucket below this one holds a memo.
    eager_min: Cell<usize>,
    eager_len: Cell<usize>,
    eager_spare: RefCell<Vec<DynNodeRc>>,
    draining: Cell<bool>,
    /// A chain runs ([`Runtime::run_chain`]): a run that hands its observer on leaves it in `handed`.
    chaining: Cell<bool>,
    handed: Cell<Option<DynNodeRc>>,
    pub flush_epoch: Cell<u32>,
    pub errors: RefCell<Vec<NodeError>>,
    /// Node labels, by the labelled node's address (see `Core::set_label`).
    pub labels: RefCell<HashMap<usize, Rc<str>>>,
    /// How many memos, effects and scopes were disposed (owners prune their lists only when it moved).
    pub disposals: Cell<u64>,
    pub tracer: Tracer,
}

/// What a thread knows of the pure functions running on it, kept beside the runtime rather than in it: only node
/// creation consults it, and the runtime's layout (which the hot paths' code depends on) stays as it was.
struct PureState {
    /// The pure function running, if any (see [`Runtime::run_pure`]).
    running: Cell<Option<Pure>>,
    /// The first owned creation a pure function attempted, refused: the run fails with it even if the function caught
    /// the panic.
    violation: RefCell<Option<String>>,
}

thread_local! {
    static PURE: PureState = const {
        PureState {
            running: Cell::new(None),
            violation: RefCell::new(None),
        }
    };
}

/// The pure function running on this thread, if any.
#[inline]
fn pure_running() -> Option<Pure> {
    PURE.with(|p| p.running.get())
}

/// A pure function running inside a body: the body's computation (nested bodies it pulls are not pure) and what the
/// function is, for the error.
#[derive(Copy, Clone)]
pub(crate) struct Pure {
    comp: *const Computation,
    what: &'static str,
}

impl Drop for Runtime {
    /// The thread is ending and its graph with it: break the edges of everything the graph owns so that its nodes,
    /// which hold each other through their edges, are freed (see [`Scope::sever`]). Nothing runs, cleanups included.
    fn drop(&mut self) {
        // From here on the runtime is going: `with_runtime` falls back to `RUNTIME.with`, which refuses.
        let _ = CURRENT.try_with(|current| current.set(std::ptr::null()));
        // Every scope belongs to the root (directly or through its parents), so severing the root reaches them all.
        self.root.get_mut().clone().sever();
        // A flush that unwound left the slots it took in the queue: only the rest are dropped.
        let head = self.queue_head.get();
        drop(untaken_effects(self.queue.get_mut(), head));
    }
}

/// Takes the effects a flush has not taken out of the effect queue, leaving it empty. A flush moves each effect out
/// of its slot as it takes it (see [`Runtime::flush`]) and moves the head past it, so the slots below `head` hold no
/// handle: they are forgotten, not dropped.
fn untaken_effects(queue: &mut Vec<DynNodeRc>, head: usize) -> Vec<DynNodeRc> {
    let len = queue.len();
    let head = head.min(len);
    let mut rest = Vec::with_capacity(len - head);
    // SAFETY: the slots from `head` to the length hold handles no one took: each is moved once into `rest`, whose
    // length then covers them; the queue's length is set to 0 first, so no slot is dropped through it (those below
    // `head` were moved out by the flush, those above into `rest`).
    unsafe {
        queue.set_len(0);
        std::ptr::copy_nonoverlapping(queue.as_ptr().add(head), rest.as_mut_ptr(), len - head);
        rest.set_len(len - head);
    }
    rest
}

/// The computation whose body is running: a pointer to the caller's `DynNodeRc`, whose node is a memo or an effect.
///
/// The handle outlives the run: [`Runtime::run_computation`] borrows it for the whole body and restores the previous
/// value when the body ends (panics included), so runs nest like a stack. A raw pointer spares a reference-count round
/// trip on every run, and one word (the `Computation` sits at a fixed offset in the node) keeps the save and restore
/// around every body to one load and two stores.
#[derive(Copy, Clone)]
pub(crate) struct Running {
    node: std::ptr::NonNull<DynNodeRc>,
}

impl Running {
    #[inline]
    pub fn node(&self) -> &DynNodeRc {
        // SAFETY: `run_computation` made this from a `&DynNodeRc` it borrows until the body ends, and a `Running` is
        // read only while its run is the current one (it is restored to the caller's when the body ends, panics
        // included), so the handle is alive and not moved for as long as the returned reference is used.
        unsafe { self.node.as_ref() }
    }

    #[inline]
    pub fn comp(&self) -> &Computation {
        // SAFETY: as for `node`: the node is a memo or an effect (`run_computation` runs only those), so by
        // `NodeBody`'s contract its `Computation` sits at `COMPUTATION_OFFSET`; the borrowed handle keeps it alive, and
        // it is only read through shared references (its fields are cells).
        unsafe {
            &*((self.node().as_ptr() as *const u8).add(super::node::COMPUTATION_OFFSET)
                as *const Computation)
        }
    }
}

/// The running computation, whether reads are tracked and whether a body runs, in one word: the address of the
/// running node's handle (a [`Running`], null for none) with three flag bits in its low bits, which the handle's
/// alignment leaves free.
///
/// One word because every body saves and restores all three (one load and two stores, where it was three of each and
/// a depth counted up and down), and one bit, [`NO_EDGE`](Context::NO_EDGE), says whether a read records an edge at
/// all, so a tracked read tests one bit where it tested the flag and then the running node.
#[derive(Copy, Clone)]
struct Context(*const DynNodeRc);

impl Context {
    /// Set when a read records no edge: no node runs, or reads are untracked.
    const NO_EDGE: usize = 1;
    /// Set when reads are untracked (under `untracked`, and outside every body).
    const UNTRACKED: usize = 2;
    /// Set when no memo or effect body runs (a write inside one defers the flush to its end). Not the same as no
    /// running node: `create_root` clears the running node inside a body.
    const OUTSIDE: usize = 4;
    const FLAGS: usize = Self::NO_EDGE | Self::UNTRACKED | Self::OUTSIDE;

    fn new(running: Option<Running>, tracking: bool, in_body: bool) -> Self {
        let node: *const DynNodeRc = running.map_or(std::ptr::null(), |r| r.node.as_ptr());
        let mut flags = 0;
        if !tracking {
            flags |= Self::UNTRACKED;
        }
        if !in_body {
            flags |= Self::OUTSIDE;
        }
        if !tracking || node.is_null() {
            flags |= Self::NO_EDGE;
        }
        Context(node.map_addr(|a| a | flags))
    }

    /// `node` running with its reads tracked, in its body (a body's start).
    #[inline(always)]
    fn tracked(node: &DynNodeRc) -> Self {
        const { assert!(align_of::<DynNodeRc>() > Self::FLAGS) };
        Context(node)
    }

    #[inline(always)]
    fn running(self) -> Option<Running> {
        std::ptr::NonNull::new(self.0.map_addr(|a| a & !Self::FLAGS).cast_mut())
            .map(|node| Running { node })
    }

    #[inline(always)]
    fn tracking(self) -> bool {
        self.0.addr() & Self::UNTRACKED == 0
    }

    #[inline(always)]
    fn in_body(self) -> bool {
        self.0.addr() & Self::OUTSIDE == 0
    }

    /// The node a read made now records an edge to, if any.
    #[inline(always)]
    fn reader(self) -> Option<Running> {
        if self.0.addr() & Self::NO_EDGE != 0 {
            return None;
        }
        // SAFETY: with no flag set the word is the address of a running node's handle, never null (`new` sets
        // `NO_EDGE` when no node runs); the mask and null test of `running` would cost every tracked read two
        // instructions (deepPropagation 644.5 -> 649.7 M).
        let node = unsafe { std::ptr::NonNull::new_unchecked(self.0.cast_mut()) };
        Some(Running { node })
    }
}

thread_local! {
    static RUNTIME: Runtime = Runtime::new();
    /// `RUNTIME`'s address from its first use until its destructor starts; null before and after. A `const`,
    /// drop-free thread local: reading it is one load, where `RUNTIME.with` calls the lazy slot's accessor (a call,
    /// a state check and a frame on every read and write of the graph).
    static CURRENT: Cell<*const Runtime> = const { Cell::new(std::ptr::null()) };
}

/// The current thread's runtime, made on first use.
///
/// # Panics
///
/// When called while the thread's locals are being destroyed and the runtime is already gone (as `RUNTIME.with`).
#[inline(always)]
fn runtime() -> *const Runtime {
    let current = CURRENT.with(Cell::get);
    if current.is_null() {
        return first_runtime();
    }
    current
}

#[cold]
#[inline(never)]
fn first_runtime() -> *const Runtime {
    RUNTIME.with(|rt| {
        let rt = rt as *const Runtime;
        CURRENT.with(|current| current.set(rt));
        rt
    })
}

/// Runs `f` with the current thread's runtime.
#[inline(always)]
pub(crate) fn with_runtime<R>(f: impl FnOnce(&Runtime) -> R) -> R {
    // SAFETY: `CURRENT` holds the address of this thread's `RUNTIME`, whose slot does not move; it is nulled as the
    // runtime's destructor starts, and a thread's locals are destroyed one at a time after its code has returned, so
    // the runtime outlives `f` (which runs on this thread, inside the call).
    f(unsafe { &*runtime() })
}

/// Runs `f` with the current thread's runtime, unless it has been torn down (at thread exit).
pub(crate) fn try_with_runtime(f: impl FnOnce(&Runtime)) {
    let current = CURRENT.with(Cell::get);
    if current.is_null() {
        let _ = RUNTIME.try_with(|rt| {
            CURRENT.with(|current| current.set(rt));
            f(rt)
        });
        return;
    }
    // SAFETY: as in `with_runtime`.
    f(unsafe { &*current })
}

impl Runtime {
    fn new() -> Self {
        Runtime {
            next_id: Cell::new(1),
            run_count: Cell::new(1),
            context: Cell::new(Context::new(None, false, false)),
            scope: RefCell::new(None),
            root: RefCell::new(Scope::new_detached()),
            batch_depth: Cell::new(0),
            flushing: Cell::new(false),
            flush_owed: Cell::new(false),
            queue: RefCell::new(Vec::new()),
            queue_head: Cell::new(0),
            queue_len: Cell::new(0),
            scratch: RefCell::new(Vec::new()),
            eager: UnsafeCell::new(Vec::new()),
            eager_min: Cell::new(0),
            eager_len: Cell::new(0),
            eager_spare: RefCell::new(Vec::new()),
            draining: Cell::new(false),
            chaining: Cell::new(false),
            handed: Cell::new(None),
            flush_epoch: Cell::new(0),
            errors: RefCell::new(Vec::new()),
            labels: RefCell::new(HashMap::new()),
            disposals: Cell::new(0),
            tracer: Tracer::new(),
        }
    }

    pub fn dispose_current() {
        // Dispose outside the thread-local borrow's closure body as far as possible: cleanups may touch the graph.
        let root = with_runtime(|rt| rt.root.borrow().clone());
        root.dispose();
        with_runtime(|rt| {
            // The queue's head and length are set to 0 with it emptied, before a dropped effect's code could
            // queue another.
            let untaken = untaken_effects(&mut rt.queue.borrow_mut(), rt.queue_head.get());
            rt.queue_head.set(0);
            rt.queue_len.set(0);
            drop(untaken);
            drop(rt.with_eager(std::mem::take));
            rt.eager_len.set(0);
            rt.eager_min.set(0);
            rt.next_id.set(1);
            rt.flush_owed.set(false);
            rt.errors.borrow_mut().clear();
            *rt.root.borrow_mut() = Scope::new_detached();
            *rt.scope.borrow_mut() = None;
            rt.tracer.reset();
        });
        // What the disposed nodes freed goes back to the allocator, not just to the next nodes.
        super::release_pool();
    }

    /// Records that a memo, effect or scope was disposed.
    #[inline]
    pub fn count_disposal(&self) {
        self.disposals.set(self.disposals.get() + 1);
    }

    pub fn next_id(&self) -> NodeId {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        NodeId(id)
    }

    /// The id the next node will get (for the trace: the creating run).
    pub fn running_id(&self) -> Option<NodeId> {
        self.running().map(|r| r.node().core().id)
    }

    /// The memo or effect whose body is running.
    #[inline]
    pub fn running(&self) -> Option<Running> {
        self.context.get().running()
    }

    /// Sets the running node (`None`: no body runs, inside `create_root` in a body), leaving tracking as it is.
    pub fn set_running(&self, running: Option<Running>) {
        let context = self.context.get();
        self.context
            .set(Context::new(running, context.tracking(), context.in_body()));
    }

    /// Clears the running node, leaving tracking as it is; returns what it was.
    pub fn take_running(&self) -> Option<Running> {
        let running = self.running();
        self.set_running(None);
        running
    }

    /// Whether reads are recorded as sources of the running node.
    #[inline]
    pub fn tracking(&self) -> bool {
        self.context.get().tracking()
    }

    /// Sets whether reads are tracked, leaving the running node as it is; returns what it was.
    pub fn replace_tracking(&self, tracking: bool) -> bool {
        let context = self.context.get();
        self.context
            .set(Context::new(context.running(), tracking, context.in_body()));
        context.tracking()
    }

    /// Gives a new memo or effect to the current owner: the running body, else the current scope, else the root.
    /// Inside a pure function the node is disposed and refused (a panic naming its line).
    pub fn adopt(&self, node: DynNodeRc) {
        if let Some(running) = self.running() {
            // Only a body can be running a pure function: nodes made anywhere else pay nothing for the check.
            if pure_running().is_some() {
                self.refuse_if_pure(&node);
            }
            running.comp().own(node);
            return;
        }
        if let Some(scope) = &*self.scope.borrow() {
            scope.adopt(node);
            return;
        }
        self.root.borrow().adopt(node);
    }

    /// Runs `f`, a pure function of the running body described by `what` (e.g. "the `compute` of an EffectOn"):
    /// an owned creation in it (a memo, an effect, a scope, a cleanup, an owner) is refused with a panic naming its
    /// line, and fails the run even if `f` catches that panic. Reads and signals are as anywhere else.
    pub fn run_pure<R>(&self, what: &'static str, f: impl FnOnce() -> R) -> R {
        let Some(running) = self.running() else {
            return f();
        };
        let pure = Pure {
            comp: running.comp() as *const Computation,
            what,
        };
        struct Leave(Option<Pure>);
        impl Drop for Leave {
            fn drop(&mut self) {
                let previous = self.0;
                PURE.with(|p| p.running.set(previous));
            }
        }
        let leave = Leave(PURE.with(|p| p.running.replace(Some(pure))));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        drop(leave);
        let violation = PURE.with(|p| p.violation.borrow_mut().take());
        match (result, violation) {
            (_, Some(message)) => std::panic::resume_unwind(Box::new(message)),
            (Ok(value), None) => value,
            (Err(payload), None) => std::panic::resume_unwind(payload),
        }
    }

    /// `Err(message)` if a pure function of the running body is what runs now: `what` (e.g. "a Memo created at
    /// src/app.rs:12:5") may not be created there. The message is also kept, so that the run fails with it.
    pub fn check_not_pure(&self, what: impl FnOnce() -> String) -> Result<(), String> {
        let Some(pure) = pure_running() else {
            return Ok(());
        };
        let Some(running) = self.running() else {
            return Ok(());
        };
        if !std::ptr::eq(running.comp(), pure.comp) {
            // A memo pulled by the pure function runs its own body, which owns what it creates.
            return Ok(());
        }
        let node = running.node().core();
        let name = match node.label() {
            Some(label) => format!("{label}{}", node.id),
            None => format!("{}", node.id),
        };
        let message = format!(
            "{} inside {} of {name} (created at {}): a pure function cannot create owned nodes (memos, effects, \
             scopes, cleanups, owners); create it outside, or in an owning function such as a memo's or an effect's",
            what(),
            pure.what,
            node.site
        );
        PURE.with(|p| {
            p.violation
                .borrow_mut()
                .get_or_insert_with(|| message.clone());
        });
        Err(message)
    }

    /// Disposes `node` and panics naming its line, if a pure function of the running body created it.
    #[cold]
    #[inline(never)]
    fn refuse_if_pure(&self, node: &DynNodeRc) {
        let core = node.core();
        let what = || format!("a {} created at {}", core.kind.name(), core.site);
        if let Err(message) = self.check_not_pure(what) {
            node.dispose(node);
            std::panic::panic_any(message);
        }
    }

    /// Registers a cleanup with the current owner.
    pub fn on_cleanup(&self, f: Box<dyn FnOnce()>) {
        if let Some(running) = self.running() {
            running.comp().add_cleanup(f);
            return;
        }
        if let Some(scope) = &*self.scope.borrow() {
            scope.add_cleanup(f);
            return;
        }
        self.root.borrow().add_cleanup(f);
    }

    /// Records a read of the node at `src` (data pointer `ptr`) by the running computation, if tracking.
    #[inline]
    pub fn track(
        &self,
        src: &super::Core,
        ptr: *const (),
        site: super::CallSite,
        make: impl FnOnce() -> DynNodeRc,
    ) {
        let Some(running) = self.context.get().reader() else {
            if !self.tracking() {
                // A read under `untrack` inside a body: the trace lists it among the body's untracked reads.
                trace_hook!(
                    self,
                    untracked_read_in_body(self.running_id(), src.id, site)
                );
            } else {
                // A read by the program, outside any body: the trace keeps where (a value captured for later).
                trace_hook!(self, program_read(src.id, site));
            }
            return;
        };
        let comp = running.comp();
        let stamp = comp.run_stamp.get();
        if src.stamp.get() == stamp {
            return;
        }
        src.stamp.set(stamp);
        let cursor = comp.cursor.get() as usize;
        // Does this read repeat the last run's read at the same position? (The one-source list, the common case, is
        // matched apart.) A diverged run's cursor carries its top bit, so it matches no position and the test of
        // the flag is left to the miss path, which branches anyway.
        // SAFETY: the sources of the running computation are borrowed mutably only by `link` (below) and once its
        // body has ended; neither overlaps this short read (the flag is still checked).
        let sources = unsafe { comp.sources.try_borrow_unguarded() }.expect("sources");
        // A miss past the end of the list appends, unless the run diverged (its cursor's top bit); the many-source
        // list is matched first, so that its miss (a read that adds a new source) tests nothing else.
        let at = match sources {
            Edges::Many(nodes) => nodes.as_slice().get(cursor),
            Edges::One(only) if cursor == 0 => Some(only),
            Edges::One(_) => None,
            Edges::Empty => {
                // Only a computation's first run (or one whose last run read nothing) reads through an empty list:
                // tested last.
                std::hint::cold_path();
                None
            }
        };
        let miss = match at {
            Some(source) if source.as_ptr() == ptr => {
                comp.cursor.set(cursor as u32 + 1);
                return;
            }
            // A different source at this position: the run diverges (if it had not).
            Some(_) => Computation::DIVERGED,
            // Past the end of the list: the cursor as it is, which appends unless it carries the top bit.
            None => cursor as u32,
        };
        self.link(running, make(), site, miss);
    }

    /// Makes `node` a source of the running computation, which read it where its last run read something else (or
    /// nothing): at once, so a computation that reads a node and then writes it is woken by its own write.
    ///
    /// `miss` is the cursor when the read went past the end of the last run's sources (below
    /// [`DIVERGED`](Computation::DIVERGED): not diverged, so the node goes straight to the end of the list), or
    /// `DIVERGED` itself when the read found another source at the cursor (the node goes to the scratch stack).
    #[inline(never)]
    fn link(&self, running: Running, node: DynNodeRc, site: super::CallSite, miss: u32) {
        let _ = site;
        let comp = running.comp();
        trace_hook!(
            self,
            edge_read(running.node().core().id, node.core().id, site)
        );
        let reader = running.node();
        {
            node.core().observers.borrow_mut().push(reader.clone());
        }
        // Heights order live memos; an effect has no observers and is queued in wake order, so it needs none.
        if reader.core().kind != NodeKind::Effect {
            raise_height(&**reader, node.core().height.get() + 1);
        }
        if is_live(&**reader) {
            add_live(&*node);
        }
        if miss < Computation::DIVERGED {
            comp.sources.borrow_mut().push(node);
            comp.cursor.set(comp.cursor.get() + 1);
        } else {
            let mut scratch = self.scratch.borrow_mut();
            let cursor = comp.cursor.get();
            if cursor & Computation::DIVERGED == 0 {
                comp.cursor.set(cursor | Computation::DIVERGED);
                comp.scratch_base.set(scratch.len() as u32);
            }
            scratch.push(node);
        }
    }

    /// Is `ptr` the computation running right now?
    #[inline]
    pub fn is_running(&self, ptr: *const ()) -> bool {
        self.running().is_some_and(|r| r.node().as_ptr() == ptr)
    }

    /// Runs `body` as the run of `this`: tracked, owned by it, with its previous run scope discharged first; the
    /// computation is `Clean` from the discharge on (a dirty mark during the body makes it run again).
    /// Returns `Err(panic text)` if the body panicked. The sources read are reconciled even then.
    #[inline(always)]
    pub fn run_computation<R>(
        &self,
        this: &DynNodeRc,
        comp: &Computation,
        body: impl FnOnce() -> R,
    ) -> Result<R, String> {
        if comp.is_scoped() {
            // The last run's cleanups see the computation clean (the run's start sets the state with `running`).
            comp.state.set(State::Clean);
            self.discharge_scope(comp);
        }
        // The low bits serve as the run's stamp and 0 means "no run": the count goes up by two from 1, so they stay
        // odd, never 0, also when they wrap (no test).
        let count = self.run_count.get() + 2;
        self.run_count.set(count);
        let stamp = count as u32;
        comp.run_stamp.set(stamp);
        comp.cursor.set(0);
        comp.start_run();
        comp.runs.set(comp.runs.get() + 1);
        debug_assert!(std::ptr::eq(
            comp,
            this.computation().expect("a memo or an effect")
        ));
        // The running node owns what its body creates, whatever scope is current, so the scope is left as it is.
        let prev_context = self.context.replace(Context::tracked(this));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
        self.context.set(prev_context);
        comp.running.set(false);
        self.reconcile_sources(this, comp);
        result.map_err(|payload| crate::text::panic_text(&*payload))
    }

    /// Drops the edges of the last run's sources that this run did not read again in the same order (the new ones
    /// were linked as they were read).
    #[inline]
    fn reconcile_sources(&self, this: &DynNodeRc, comp: &Computation) {
        // SAFETY: the body has ended and nothing else borrows a computation's sources across program code; the flag
        // is still checked.
        let len = unsafe { comp.sources.try_borrow_unguarded() }
            .expect("sources")
            .len();
        if comp.cursor.get() as usize != len {
            self.relink_sources(this, comp);
        }
    }

    #[cold]
    #[inline(never)]
    fn relink_sources(&self, this: &DynNodeRc, comp: &Computation) {
        let cursor = comp.cursor.get();
        let diverged = cursor & Computation::DIVERGED != 0;
        let cursor = (cursor & !Computation::DIVERGED) as usize;
        let mut sources = comp.sources.borrow_mut();
        let live = is_live(&**this);
        let me = this.as_ptr();
        sources.truncate_with(cursor, |removed| {
            removed.core().remove_observer(me);
            if live {
                remove_live(&*removed);
            }
            trace_hook!(self, edge_removed(this.core().id, removed.core().id));
        });
        trace_hook!(self, edges_removed_end(this.core().id));
        if diverged {
            let base = comp.scratch_base.get() as usize;
            sources.extend(self.scratch.borrow_mut().drain(base..));
        }
    }

    /// Runs the cleanups and disposes the nodes of a computation's last run, untracked and batched.
    #[inline(always)]
    pub fn discharge(&self, comp: &Computation) {
        if comp.is_scoped() {
            self.discharge_scope(comp);
        }
    }

    #[inline(never)]
    fn discharge_scope(&self, comp: &Computation) {
        let Some((owned, cleanups)) = comp.take_scope() else {
            return;
        };
        self.detached(|| {
            for cleanup in cleanups.into_iter().rev() {
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(cleanup));
            }
            for node in owned.into_iter().rev() {
                node.dispose(&node);
            }
        });
    }

    /// Runs `f` untracked with effects deferred (for teardown).
    pub fn detached<R>(&self, f: impl FnOnce() -> R) -> R {
        self.batch(|| self.untracked(f))
    }

    pub fn untracked<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Restore<'a>(&'a Runtime, bool);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.replace_tracking(self.1);
            }
        }
        let _restore = Restore(self, self.replace_tracking(false));
        f()
    }

    pub fn batch<R>(&self, f: impl FnOnce() -> R) -> R {
        self.batch_at(super::call_site(), f)
    }

    /// [`batch`](Self::batch), recording `site` as where it was opened (traced builds).
    pub fn batch_at<R>(&self, site: super::CallSite, f: impl FnOnce() -> R) -> R {
        struct Close<'a>(&'a Runtime);
        impl Drop for Close<'_> {
            fn drop(&mut self) {
                let rt = self.0;
                let depth = rt.batch_depth.get() - 1;
                rt.batch_depth.set(depth);
                trace_hook!(rt, batch_exit(depth));
                if depth == 0 {
                    rt.request_flush();
                }
            }
        }
        let depth = self.batch_depth.get();
        self.batch_depth.set(depth + 1);
        trace_hook!(self, batch_enter(depth + 1, site));
        let _close = Close(self);
        f()
    }

    /// Queues a live memo to be brought up to date, lowest height first, before the next effect runs or memo is
    /// read.
    #[inline(always)]
    pub fn enqueue_eager(&self, memo: DynNodeRc, height: u32) {
        let height = height as usize;
        // SAFETY: as in `with_eager` (a leaf: a push that drops no handle).
        let buckets = unsafe { &mut *self.eager.get() };
        match buckets.get_mut(height) {
            Some(bucket) if bucket.len() < bucket.capacity() => {
                // SAFETY: there is room for one more (tested), and the slot past the length is written before the
                // length covers it.
                unsafe {
                    bucket.as_mut_ptr().add(bucket.len()).write(memo);
                    bucket.set_len(bucket.len() + 1);
                }
            }
            Some(bucket) => Self::grow_bucket(bucket, memo),
            None => Self::add_bucket(buckets, memo, height),
        }
        self.eager_len.set(self.eager_len.get() + 1);
        if height < self.eager_min.get() {
            self.eager_min.set(height);
        }
    }

    /// Runs `f` on the height queue's buckets. `f` is a leaf: it moves handles in and out (pushes, pops, swaps)
    /// and never drops one, since a node's drop may run a program's code that writes a signal and so queues a memo.
    /// The queue needs no borrow flag then, which spares every queued memo two tests.
    #[inline(always)]
    fn with_eager<R>(&self, f: impl FnOnce(&mut Vec<Vec<DynNodeRc>>) -> R) -> R {
        // SAFETY: the runtime is `!Sync` (it lives in a thread local), and every `f` given here is a leaf (above): no
        // code runs while the reference lives that could call `with_eager` again.
        f(unsafe { &mut *self.eager.get() })
    }

    #[cold]
    #[inline(never)]
    fn grow_bucket(bucket: &mut Vec<DynNodeRc>, memo: DynNodeRc) {
        bucket.push(memo);
    }

    #[cold]
    fn add_bucket(buckets: &mut Vec<Vec<DynNodeRc>>, memo: DynNodeRc, height: usize) {
        buckets.resize_with(height + 1, Vec::new);
        buckets[height].push(memo);
    }

    /// Whether live memos wait to be brought up to date (and no drain is running).
    #[inline]
    pub fn has_eager(&self) -> bool {
        self.eager_len.get() > 0 && !self.draining.get()
    }

    /// Brings the queued live memos up to date, lowest height first: each runs after everything it reads, once per
    /// write, and a memo that keeps its value queues nothing below it.
    #[inline]
    pub fn drain_eager(&self) {
        if self.eager_len.get() > 0 {
            self.drain_eager_queue();
        }
    }

    fn drain_eager_queue(&self) {
        if self.draining.replace(true) {
            return;
        }
        /// Ends the drain, by unwinding too: the lowest height goes back to 0 with `draining`, so that outside a
        /// drain it never equals a memo's height plus one (which lets [`may_hand_off`](Runtime::may_hand_off) go
        /// without a test of `draining`).
        struct Done<'a>(&'a Runtime);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.eager_min.set(0);
                self.0.draining.set(false);
            }
        }
        let _done = Done(self);
        while self.eager_len.get() > 0 {
            let height = self.eager_min.get();
            // The common case (a chain): the lowest bucket holds one memo.
            let one = self.with_eager(|buckets| match buckets.get_mut(height) {
                Some(bucket) if bucket.len() == 1 => bucket.pop(),
                _ => None,
            });
            if let Some(node) = one {
                // Running it can only queue memos above this height.
                self.eager_min.set(height + 1);
                self.eager_len.set(self.eager_len.get() - 1);
                node.core().queued.set(false);
                self.refresh_live(&node);
                continue;
            }
            self.drain_bucket(height);
        }
    }

    /// Runs the memos of the lowest bucket but one (or moves past an empty bucket, or starts over past the last).
    fn drain_bucket(&self, height: usize) {
        let taken = self.with_eager(|buckets| match buckets.get_mut(height) {
            Some(bucket) if !bucket.is_empty() => {
                // Swap in the spare buffer so neither side allocates in the steady state.
                let mut batch = self.eager_spare.take();
                std::mem::swap(bucket, &mut batch);
                Ok(batch)
            }
            Some(_) => Err(None),
            None => Err(Some(buckets.iter().map(Vec::len).sum())),
        });
        let mut batch = match taken {
            Ok(batch) => batch,
            Err(None) => {
                self.eager_min.set(height + 1);
                return;
            }
            Err(Some(len)) => {
                // Past every bucket: the count is stale only if the buckets were cleared; start over.
                self.eager_min.set(0);
                self.eager_len.set(len);
                return;
            }
        };
        self.eager_len.set(self.eager_len.get() - batch.len());
        for node in batch.drain(..) {
            node.core().queued.set(false);
            self.refresh_live(&node);
        }
        self.eager_spare.replace(batch);
    }

    /// Brings a live memo taken from the queue up to date, unless every node that reads it is already dirty: those
    /// run anyway and pull it if they still read it, so a memo they stop reading is never computed for nothing.
    #[inline]
    fn refresh_live(&self, node: &DynNodeRc) {
        // A dirty live reader waits in the height queue or the effect queue: with both empty (a chain), none can be
        // dirty, and the memo runs without looking.
        let others_wait = self.eager_len.get() > 0 || self.has_queued_effects();
        if others_wait && observers_will_rerun(&**node) {
            return;
        }
        node.update_if_necessary(node, self);
    }

    /// Whether a memo at `height` whose run just ended may hand its one observer on to run next instead of queueing
    /// it (see [`mark_or_hand_off`](super::node::mark_or_hand_off)): the drain ran it alone or a chain handed it on
    /// (the drain's lowest height is just above it), nothing waits in the height queue, and no body runs (so the
    /// drain or the chain called it, not a read).
    ///
    /// The lowest height is above 0 only while a drain runs (it is 0 before the first, and the drain's end, by
    /// unwinding too, sets it back to 0 as it clears `draining`; `dispose_current` sets it to 0), so its test
    /// covers `draining`'s.
    #[inline(always)]
    pub fn may_hand_off(&self, height: u32) -> bool {
        debug_assert!(self.eager_min.get() == 0 || self.draining.get());
        self.eager_len.get() == 0
            && self.eager_min.get() == height as usize + 1
            && !self.context.get().in_body()
    }

    /// A memo's run handed `node` on: runs it now, and the chain that follows, or leaves it for the running chain.
    /// The first link runs here, in the frame of the run that handed it; a second one goes to
    /// [`run_chain`](Self::run_chain).
    #[inline(always)]
    pub fn hand_on(&self, node: DynNodeRc) {
        if self.chaining.get() {
            // The slot is empty here: the chain's loop (or the first link's frame) takes what a run leaves in it
            // before the next run starts, and a run hands on at most once, as the last thing it does. So the old
            // value (`None`) is forgotten rather than tested for a drop.
            let old = self.handed.replace(Some(node));
            debug_assert!(old.is_none(), "a handed node was left in the slot");
            std::mem::forget(old);
            return;
        }
        {
            self.chaining.set(true);
            let _done = Unchain(&self.chaining);
            // The height queue is empty (the hand-off tested it), as `refresh_live` finds it for a chain.
            if !(self.has_queued_effects() && observers_will_rerun(&*node)) {
                node.update_if_necessary(&node, self);
            }
        }
        if let Some(next) = self.handed.take() {
            self.run_chain(next);
        }
    }

    /// Runs `node`, the second link of a chain (see [`hand_on`](Self::hand_on)), and then each memo a run hands on
    /// in turn, each without a bucket's push and pop.
    #[inline(never)]
    fn run_chain(&self, node: DynNodeRc) {
        self.chaining.set(true);
        let _done = Unchain(&self.chaining);
        let mut node = node;
        loop {
            if !(self.has_queued_effects() && observers_will_rerun(&*node)) {
                node.update_if_necessary(&node, self);
            }
            match self.handed.take() {
                Some(next) => node = next,
                None => return,
            }
        }
    }

    /// A memo at `height` was handed on to run next with the height queue empty: whatever its run queues is above it.
    #[inline(always)]
    pub fn handed_off(&self, height: u32) {
        self.eager_min.set(height as usize + 1);
    }

    /// Whether effects wait in the queue for the running (or next) flush.
    #[inline]
    fn has_queued_effects(&self) -> bool {
        self.queue_head.get() < self.queue_len.get()
    }

    /// Queues an effect to run at the next flush. A leaf on its common path: the queue's borrow flag is tested (not
    /// written) and the handle written into spare room; a borrowed queue (which panics, as `borrow_mut` would) and a
    /// full one go to [`schedule_slow`](Self::schedule_slow), a tail call, so the common path saves no register and
    /// has no frame. Out of line: inlined into a memo's update (which marks an effect it wakes) it cost the update's
    /// other paths more than the call (3-5x500 +1.1 %, the dynamic cases +0.5 to +0.9 %).
    #[inline(never)]
    pub fn schedule(&self, effect: DynNodeRc) {
        if self.queue.try_borrow_mut().is_err() {
            return self.schedule_slow(effect);
        }
        // SAFETY: no borrow of the queue is held (tested above), and nothing below runs code that could borrow it
        // (a handle written into spare room, no drop); the runtime is `!Sync` (a thread local).
        let queue = unsafe { &mut *self.queue.as_ptr() };
        let len = queue.len();
        if len == queue.capacity() {
            return self.schedule_slow(effect);
        }
        // SAFETY: there is room for one more (tested), and the slot past the length is written before the length
        // covers it.
        unsafe {
            queue.as_mut_ptr().add(len).write(effect);
            queue.set_len(len + 1);
        }
        self.queue_len.set(len + 1);
    }

    /// [`schedule`](Self::schedule) when the queue is full or borrowed (a panic then, as `borrow_mut`'s).
    #[cold]
    #[inline(never)]
    fn schedule_slow(&self, effect: DynNodeRc) {
        let mut queue = self.queue.borrow_mut();
        queue.push(effect);
        self.queue_len.set(queue.len());
    }

    /// Flushes now if nothing defers it; otherwise the flush is owed to the end of the batch, body or flush.
    pub fn request_flush(&self) {
        if !self.has_queued_effects() && self.eager_len.get() == 0 {
            return;
        }
        if self.batch_depth.get() > 0 || self.flushing.get() || self.context.get().in_body() {
            self.flush_owed.set(true);
            return;
        }
        self.run_flush();
    }

    /// Called when a memo body ends: runs a flush the body owed, once nothing else is running.
    #[inline]
    pub fn end_body(&self) {
        if self.flush_owed.get() {
            self.end_body_owed();
        }
    }

    #[cold]
    fn end_body_owed(&self) {
        if !self.context.get().in_body() && self.batch_depth.get() == 0 && !self.flushing.get() {
            self.run_flush();
        }
    }

    /// The public `flush()`: runs the queued effects now, inside a batch too. Inside a running flush it does nothing
    /// (that flush drains what was queued, so flushes never nest); inside a memo's body the flush is owed to the end
    /// of the body, so no effect runs while a memo is half computed.
    pub fn flush_now(&self) {
        if self.flushing.get() || (!self.has_queued_effects() && self.eager_len.get() == 0) {
            return;
        }
        if self.context.get().in_body() {
            self.flush_owed.set(true);
            return;
        }
        self.run_flush();
    }

    /// Whether nothing is pending or running: no batch, flush or body, and no queued effect or memo.
    #[inline]
    pub fn is_idle(&self) -> bool {
        self.batch_depth.get() == 0
            && !self.flushing.get()
            && !self.context.get().in_body()
            && self.eager_len.get() == 0
            && !self.has_queued_effects()
    }

    /// Flushes with `effect` run first, without queueing it (a new effect created while the graph is idle).
    pub fn flush_new_effect(&self, effect: &DynNodeRc) {
        self.flush(Some(effect));
    }

    fn run_flush(&self) {
        self.flush(None);
    }

    fn flush(&self, first: Option<&DynNodeRc>) {
        if self.flushing.replace(true) {
            return;
        }
        self.flush_owed.set(false);
        let epoch = self.flush_epoch.get().wrapping_add(1);
        self.flush_epoch.set(epoch);
        trace_hook!(self, flush_start(epoch));
        if let Some(effect) = first {
            effect.execute(effect, self);
        }
        loop {
            self.drain_eager();
            let next = {
                // SAFETY: a shared look whose flag is tested, not written (a write borrow held elsewhere panics):
                // nothing runs while it lives but the reads below.
                let queue = unsafe { self.queue.try_borrow_unguarded() }.expect("the effect queue");
                let head = self.queue_head.get();
                if head < queue.len() {
                    self.queue_head.set(head + 1);
                    // SAFETY: `head` is below the length, so the slot holds a handle, and no slot below the head is
                    // read or dropped again (the slots a flush took are forgotten: below, `untaken_effects`), so the
                    // handle is moved out of the queue, not cloned: no count's round trip, nothing to drop at the end.
                    Some(unsafe { std::ptr::read(queue.as_ptr().add(head)) })
                } else {
                    None
                }
            };
            match next {
                Some(effect) => effect.execute(&effect, self),
                None => break,
            }
        }
        // A flush that ran no queued effect (a new effect's first run) has nothing to clear.
        if self.queue_len.get() != 0 {
            let mut queue = self.queue.borrow_mut();
            debug_assert_eq!(self.queue_head.get(), queue.len());
            // SAFETY: the loop ends when the head reaches the length, so every slot was moved out (above): forgotten,
            // not dropped.
            unsafe { queue.set_len(0) };
            self.queue_head.set(0);
            self.queue_len.set(0);
        }
        self.flushing.set(false);
        trace_hook!(self, flush_end(epoch));
    }

    pub fn record_error(&self, node: NodeId, message: String) {
        self.errors.borrow_mut().push(NodeError { node, message });
    }
}

/// Clears [`Runtime`]'s `chaining` flag when a chain's run ends, by unwinding too.
struct Unchain<'a>(&'a Cell<bool>);

impl Drop for Unchain<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// Whether `node` has observers and every one of them is dirty (so it will run, and read `node` if it still does).
#[inline]
fn observers_will_rerun(node: &dyn super::NodeBody) -> bool {
    let dirty = |o: &DynNodeRc| {
        o.computation()
            .is_some_and(|c| c.state.get() == State::Dirty)
    };
    // Matched by variant rather than through `as_slice`, and borrowed unguarded: this runs for every queued memo
    // while others wait, and the one-reader case is the common one (diamond: 1795 M instructions against 1826 M).
    // SAFETY: nothing mutates a node's observers while the queue drains between two runs; the borrow flag is still
    // checked.
    match unsafe { node.core().observers.try_borrow_unguarded() } {
        Ok(Edges::One(only)) => dirty(only),
        Ok(Edges::Many(all)) => !all.as_slice().is_empty() && all.as_slice().iter().all(dirty),
        _ => false,
    }
}
