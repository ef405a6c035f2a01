//! Effects: side effects that run when what they read moves.
//!
//! An [`Effect`] runs its function once when it is created (at the end of the current write, batch or flush), then
//! again after any write that moved one of the nodes it read. Effects run after the write that woke them completes,
//! or at the end of the outermost [`batch`](crate::batch), in the order they were woken; a write made by an effect
//! joins the flush that is running. A cleanup registered with [`on_cleanup`](crate::on_cleanup) during a run runs
//! before the next run and when the effect is disposed.
//!
//! A panic in an effect's function is recorded on the effect ([`Effect::error`]) and in
//! [`graph::take_errors`](crate::graph::take_errors); the other effects still run. An effect that keeps moving its own
//! sources is stopped after [`MAX_EFFECT_RERUNS`](crate::graph::MAX_EFFECT_RERUNS) re-runs in one flush, with an error
//! naming it.

use crate::graph::MAX_EFFECT_RERUNS;
use crate::graph::{
    AnyNode, Computation, Core, DynNodeRc, NodeBody, NodeError, NodeId, NodeKind, NodeRc, Runtime,
    State, with_runtime,
};
use crate::memo::{dispose_computation, resolve_check};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A side effect in the graph.
///
/// Cheap to clone; `!Send`. Dropping the handle does not stop the effect: it lives until its owner is disposed or
/// [`Effect::dispose`] is called.
///
/// # Examples
///
/// ```
/// use ranvier::{Effect, Signal};
/// use std::{cell::RefCell, rc::Rc};
///
/// let name = Signal::new("Ada");
/// let greetings = Rc::new(RefCell::new(Vec::new()));
/// let _greeter = Effect::new({
///     let (name, greetings) = (name.clone(), greetings.clone());
///     move || greetings.borrow_mut().push(format!("hello {}", name.get()))
/// });
/// name.set("Grace");
/// assert_eq!(*greetings.borrow(), ["hello Ada", "hello Grace"]);
/// ```
#[derive(Clone)]
pub struct Effect {
    /// An `EffectInner<F>`: the function lives in the node's own allocation.
    inner: DynNodeRc,
}

#[repr(C)]
struct EffectInner<F> {
    core: Core,
    comp: Computation,
    f: RefCell<F>,
    flush_epoch: Cell<u32>,
    reruns: Cell<u32>,
}

impl Effect {
    /// Creates an effect running `f` now (at the end of the current write, batch or flush) and after every write
    /// that moves something `f` read.
    #[track_caller]
    pub fn new(f: impl FnMut() + 'static) -> Self {
        let site = std::panic::Location::caller();
        with_runtime(|rt| {
            let id = rt.next_id();
            let inner = NodeRc::new_with(|| EffectInner {
                core: Core::new(id, NodeKind::Effect, site),
                comp: Computation::new(),
                f: RefCell::new(f),
                flush_epoch: Cell::new(0),
                reruns: Cell::new(0),
            });
            trace_hook!(
                rt,
                node_new(
                    id,
                    NodeKind::Effect,
                    site,
                    rt.running_id(),
                    rt.running_id(),
                    || inner.downgrade()
                )
            );
            let this = inner.erase();
            rt.adopt(this.clone());
            trace_hook!(rt, schedule(id));
            if rt.is_idle() {
                // Nothing else is pending: its first run is the whole flush.
                rt.flush_new_effect(&this);
            } else {
                inner.core.queued.set(true);
                rt.schedule(this.clone());
                rt.request_flush();
            }
            Effect { inner: this }
        })
    }

    /// Sets the node's label, the name the trace and the MCP tools give it, and returns the effect.
    pub fn labelled(self, label: &str) -> Self {
        self.inner.core().set_label(label);
        self
    }

    /// Disposes the effect: its cleanups run and it never runs again. Disposing twice does nothing.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        let site = crate::graph::call_site();
        crate::graph::disposing_at(site, || self.inner.dispose(&self.inner));
    }

    /// Whether the effect has been disposed.
    pub fn is_disposed(&self) -> bool {
        self.comp().disposed.get()
    }

    /// The failure of the last run: a panic in the function, or the stop after too many re-runs.
    pub fn error(&self) -> Option<NodeError> {
        self.comp().error().map(|m| NodeError {
            node: self.inner.core().id,
            message: m.to_string(),
        })
    }

    fn comp(&self) -> &Computation {
        self.inner
            .computation()
            .expect("an effect node has a computation")
    }

    /// How many times the effect's function has run.
    pub fn runs(&self) -> u32 {
        self.comp().runs.get()
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.inner.core().id
    }
}

impl<F: FnMut() + 'static> EffectInner<F> {
    fn run(&self, this: &DynNodeRc, rt: &Runtime) {
        let comp = &self.comp;
        let epoch = rt.flush_epoch.get();
        if self.flush_epoch.get() == epoch {
            self.reruns.set(self.reruns.get() + 1);
        } else {
            self.flush_epoch.set(epoch);
            self.reruns.set(0);
        }
        if self.reruns.get() > MAX_EFFECT_RERUNS {
            self.stop(rt);
            return;
        }
        trace_hook!(
            rt,
            run_start(self.core.id, comp.runs.get() + 1, rt.running_id())
        );
        let result = {
            let mut f = self.f.borrow_mut();
            rt.run_computation(this, comp, || (*f)())
        };
        // The failure's path out of line, so that a run that ends well keeps nothing for it.
        match result {
            Ok(()) => {
                comp.set_error(None);
                trace_hook!(rt, run_end(self.core.id, false, None, None::<&()>));
            }
            Err(message) => self.failed(rt, message),
        }
    }

    /// The run's body panicked with `message`: recorded on the effect, in the runtime's errors and by the trace.
    #[cold]
    #[inline(never)]
    fn failed(&self, rt: &Runtime, message: String) {
        rt.record_error(self.core.id, message.clone());
        crate::graph::failures::report(
            &self.core,
            crate::graph::failures::FailureKind::EffectPanicked,
            &message,
        );
        self.comp.set_error(Some(Rc::from(message.as_str())));
        trace_hook!(
            rt,
            run_end(self.core.id, false, Some(message.as_str()), None::<&()>)
        );
    }

    /// The effect re-ran more than `MAX_EFFECT_RERUNS` times in one flush: it is stopped, with an error naming it.
    #[cold]
    #[inline(never)]
    fn stop(&self, rt: &Runtime) {
        let name = match self.core.label() {
            Some(label) => format!("{label}{}", self.core.id),
            None => format!("effect {}", self.core.id),
        };
        let message = format!(
            "{name} (created at {}) was stopped: it re-ran {} times in one flush because it keeps changing a node it \
             reads",
            self.core.site, MAX_EFFECT_RERUNS
        );
        self.comp.set_error(Some(Rc::from(message.as_str())));
        trace_hook!(rt, stopped(self.core.id, &message));
        crate::graph::failures::report(
            &self.core,
            crate::graph::failures::FailureKind::EffectStopped,
            &message,
        );
        rt.record_error(self.core.id, message);
    }
}

// The layout the engine relies on, checked at compile time.
assert_node_layout!(EffectInner<fn()>, computation);

// SAFETY: `#[repr(C)]`, `core` first then `comp` (asserted above).
unsafe impl<F: FnMut() + 'static> NodeBody for EffectInner<F> {
    fn execute(&self, this: &DynNodeRc, rt: &Runtime) {
        let comp = &self.comp;
        if comp.disposed.get() {
            self.core.queued.set(false);
            return;
        }
        if comp.state.get() == State::Check {
            resolve_check(self, comp, rt);
        }
        self.core.queued.set(false);
        if comp.state.get() == State::Dirty {
            comp.state.set(State::Clean);
            self.run(this, rt);
        }
    }

    fn dispose(&self, this: &DynNodeRc) {
        dispose_computation(this, &self.comp);
    }
}

impl AnyNode for Effect {
    fn node_id(&self) -> NodeId {
        self.inner.core().id
    }
}

impl std::fmt::Debug for Effect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Effect")
            .field("id", &self.inner.core().id)
            .finish()
    }
}
