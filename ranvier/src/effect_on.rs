//! Effects split in two: a tracked, pure `compute` that says what the effect is about, and an untracked `act` that
//! runs only when that changes.
//!
//! An [`EffectOn`] runs `compute` as an [`Effect`] does its function: now, and again whenever something it read
//! moves. `act` then runs with the result, but only for a value unequal (by `PartialEq`, or the comparer given to
//! [`EffectOn::with_comparer`]) to the last value `act` ran with: a re-run of `compute` that lands on the same value
//! acts on nothing. This is F# Ranvier's `createEffectOn` and `reactive_graph`'s `Effect::watch`.
//!
//! - `compute` is tracked; `act` is not, so what `act` reads never wakes the effect. `compute` is [pure](crate::Owner#pure-functions):
//!   a memo, effect, scope or cleanup created in it is refused with a panic naming its line, and the run fails.
//! - `act` owns the nodes and cleanups it creates: they live until just before the next `act` (or until the effect
//!   is disposed), not just until the next run of `compute`, which may act on nothing.
//! - A panic in `compute` (a value that did not settle) or in the comparer is recorded on the effect, as a panic in
//!   an effect's function is ([`EffectOn::error`], [`graph::take_errors`](crate::graph::take_errors), and the trace's
//!   run record in traced builds), and `act` is skipped: the last action stays in place.
//! - In the trace and the MCP tools it is an `Effect` node: its reads are `compute`'s.
//! - A `compute` that reads an [`AsyncMemo`](crate::AsyncMemo) gets its [`AsyncState`](crate::AsyncState): a
//!   pending read does not abort `compute` as it does in F#. To act only on settled values, return
//!   `state.ready().cloned()` and let `act` pass over `None`.

use crate::graph::{AnyNode, NodeError, NodeId};
use crate::owner::{enter_scope, owned_scope, pure_body, run_in_scope};
use crate::{Effect, Scope, untrack};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// An effect that acts only when the value it watches changes. See the [module docs](self).
///
/// Cheap to clone (all clones are the same effect); `!Send`. Dropping the handle does not stop it: it lives until
/// its owner is disposed or [`EffectOn::dispose`] is called.
///
/// # Examples
///
/// ```
/// use ranvier::{EffectOn, Signal};
/// use std::{cell::RefCell, rc::Rc};
///
/// let cart = Signal::new(vec![250, 100]);
/// let saved = Rc::new(RefCell::new(Vec::new()));
/// let _autosave = EffectOn::new(
///     { let cart = cart.clone(); move || cart.with(|items| items.iter().sum::<i32>()) },
///     { let saved = saved.clone(); move |total: &i32, _previous: Option<&i32>| saved.borrow_mut().push(*total) },
/// );
/// cart.set(vec![100, 250]); // same total: `compute` re-ran, `act` did not
/// cart.set(vec![100]);
/// assert_eq!(*saved.borrow(), [350, 100]);
/// ```
pub struct EffectOn<T: 'static> {
    effect: Effect,
    shared: Rc<Shared<T>>,
    /// Owns the effect and the scope of the last `act`.
    home: Scope,
}

impl<T> Clone for EffectOn<T> {
    fn clone(&self) -> Self {
        EffectOn {
            effect: self.effect.clone(),
            shared: self.shared.clone(),
            home: self.home.clone(),
        }
    }
}

/// What the effect's function and the handles share.
struct Shared<T> {
    /// The last value `act` ran with.
    acted: RefCell<Option<T>>,
    /// How many times `act` ran.
    acts: Cell<u32>,
    /// Owns what the last `act` created.
    act_scope: RefCell<Option<Scope>>,
}

impl<T: fmt::Debug + 'static> EffectOn<T> {
    /// Creates an effect that runs `compute` now and whenever something it read moves, and `act(value, previous)`
    /// whenever `compute` returns a value unequal (by `PartialEq`) to `previous`, the last value acted on (`None` the
    /// first time).
    #[track_caller]
    pub fn new(
        compute: impl FnMut() -> T + 'static,
        act: impl FnMut(&T, Option<&T>) + 'static,
    ) -> Self
    where
        T: PartialEq,
    {
        Self::build(compute, act, T::eq)
    }

    /// Like [`new`](Self::new), with `eq` deciding whether a new value equals the last value acted on. A comparer that
    /// panics fails the run (recorded like a panic in `compute`) and `act` is skipped.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{EffectOn, Signal};
    /// use std::{cell::RefCell, rc::Rc};
    ///
    /// let celsius = Signal::new(20.0_f64);
    /// let announced = Rc::new(RefCell::new(Vec::new()));
    /// // Announce only a change of at least one degree from the last announcement.
    /// let _e = EffectOn::with_comparer(
    ///     { let c = celsius.clone(); move || c.get() },
    ///     { let a = announced.clone(); move |t: &f64, _: Option<&f64>| a.borrow_mut().push(*t) },
    ///     |last, next| (last - next).abs() < 1.0,
    /// );
    /// celsius.set(20.6);
    /// celsius.set(21.2); // 1.2 from the last one announced
    /// assert_eq!(*announced.borrow(), [20.0, 21.2]);
    /// ```
    #[track_caller]
    pub fn with_comparer(
        compute: impl FnMut() -> T + 'static,
        act: impl FnMut(&T, Option<&T>) + 'static,
        eq: impl Fn(&T, &T) -> bool + 'static,
    ) -> Self {
        Self::build(compute, act, eq)
    }

    #[track_caller]
    fn build(
        mut compute: impl FnMut() -> T + 'static,
        mut act: impl FnMut(&T, Option<&T>) + 'static,
        eq: impl Fn(&T, &T) -> bool + 'static,
    ) -> Self {
        let shared = Rc::new(Shared {
            acted: RefCell::new(None),
            acts: Cell::new(0),
            act_scope: RefCell::new(None),
        });
        let home = owned_scope();
        let body = {
            let (shared, home) = (shared.clone(), home.clone());
            move || {
                let value = pure_body("the `compute` of an EffectOn", &mut compute);
                let equal = match &*shared.acted.borrow() {
                    None => false,
                    Some(last) => compare(&eq, last, &value),
                };
                if equal {
                    return;
                }
                // The nodes of the last action go first, then the action runs in a scope of its own.
                if let Some(old) = shared.act_scope.borrow_mut().take() {
                    old.dispose();
                }
                let scope = Scope::new_detached();
                home.adopt_scope(&scope);
                *shared.act_scope.borrow_mut() = Some(scope.clone());
                let previous = shared.acted.borrow_mut().replace(value);
                shared.acts.set(shared.acts.get() + 1);
                let acted = shared.acted.borrow();
                let value = acted.as_ref().expect("just stored");
                run_in_scope(&scope, || untrack(|| act(value, previous.as_ref())));
            }
        };
        let entered = enter_scope(&home);
        let effect = Effect::new(body);
        drop(entered);
        EffectOn {
            effect,
            shared,
            home,
        }
    }
}

/// Calls the comparer; a panic in it fails the run with a message saying so (recorded like a panic in the body, without
/// a second report by the panic hook).
fn compare<T>(eq: &impl Fn(&T, &T) -> bool, last: &T, next: &T) -> bool {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| eq(last, next))) {
        Ok(equal) => equal,
        Err(payload) => std::panic::resume_unwind(Box::new(format!(
            "the comparer panicked ({}); `act` was skipped",
            crate::text::panic_text(&*payload)
        ))),
    }
}

impl<T: 'static> EffectOn<T> {
    /// Sets the node's label, the name the trace and the MCP tools give it, and returns the effect.
    pub fn labelled(self, label: &str) -> Self {
        let effect = self.effect.clone().labelled(label);
        EffectOn { effect, ..self }
    }

    /// Disposes the effect and what its last `act` created: their cleanups run and neither runs again. Disposing
    /// twice does nothing.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        let site = crate::graph::call_site();
        crate::graph::disposing_at(site, || self.home.dispose());
    }

    /// Whether the effect has been disposed.
    pub fn is_disposed(&self) -> bool {
        self.effect.is_disposed()
    }

    /// The failure of the last run: a panic in `compute`, in the comparer, or in `act`.
    pub fn error(&self) -> Option<NodeError> {
        self.effect.error()
    }

    /// How many times `compute` has run.
    pub fn runs(&self) -> u32 {
        self.effect.runs()
    }

    /// How many times `act` has run.
    pub fn acts(&self) -> u32 {
        self.shared.acts.get()
    }

    /// A clone of the last value `act` ran with (`None` before the first), without tracking.
    pub fn last_acted(&self) -> Option<T>
    where
        T: Clone,
    {
        self.shared.acted.borrow().clone()
    }

    /// The node's id (its effect's).
    pub fn id(&self) -> NodeId {
        self.effect.id()
    }
}

impl<T: 'static> AnyNode for EffectOn<T> {
    fn node_id(&self) -> NodeId {
        self.effect.id()
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for EffectOn<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EffectOn")
            .field("id", &self.effect.id())
            .field("last_acted", &self.shared.acted.borrow())
            .finish()
    }
}
