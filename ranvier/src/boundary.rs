//! Boundaries: a derived value whose body may wait or fail, and what is shown instead.
//!
//! A [`Boundary`] runs a body as a [`Memo`] does (tracked, on demand, owning what it creates), but the body returns
//! `Result<T, Interrupt>`: a read that is not ready yet (an [`AsyncMemo`](crate::AsyncMemo) still loading, through
//! [`AsyncState::suspend`](crate::AsyncState::suspend) and `?`) interrupts it with [`Interrupt::Pending`], a failed
//! read with [`Interrupt::Failed`]; a panic in the body is a failure too. What the boundary holds then depends on
//! what it catches (F# Ranvier's `createSuspense`, `createErrorBoundary` and `createBoundary`):
//!
//! - [`Boundary::suspense`] catches the pending channel: while the body waits it shows its fallback
//!   ([`BoundaryState::Waiting`]). A failure is not caught: the boundary fails, as a memo whose function panicked.
//! - [`Boundary::catch`] catches failures: `recover` turns the failure into the value shown
//!   ([`BoundaryState::Caught`]). A wait is not caught: the boundary is [`BoundaryState::Pending`], and a boundary
//!   around it reading it with [`read`](Boundary::read) and `?` waits in turn.
//! - [`Boundary::new`] catches both.
//!
//! # Ownership
//!
//! The body owns the nodes and cleanups it creates, as a memo's function does: they are disposed before the body
//! runs again, and with the boundary ([`dispose`](Boundary::dispose), or its owner's disposal).
//!
//! # Cutoff
//!
//! A re-run that shows an equal value (by `PartialEq`, or the comparer given to
//! [`compared_by`](Boundary::compared_by)) in the same state wakes nothing. A change between showing the body's
//! value, waiting and caught, or a different failure caught, always wakes the readers, whatever the comparer says.
//! The comparer is not asked then. A comparer that panics fails the boundary (keeping the value it showed) without
//! calling `recover`.
//!
//! In the trace and the MCP tools a boundary is a `Memo` node: its value reads `0 (waiting)` or
//! `0 (caught: "why")` while it shows a fallback or a recovered value. An exposed boundary is published as its
//! value, `{"value": …, "waiting": true}` or `{"value": …, "caught": "why"}` (see [`BoundaryState`]).
//!
//! # Examples
//!
//! ```
//! use ranvier::{AsyncMemo, Boundary, Signal, graph};
//!
//! let weight = Signal::new(3_u32);
//! let quote = AsyncMemo::new({
//!     let weight = weight.clone();
//!     move |_| {
//!         let weight = weight.get();
//!         async move { weight * 100 }
//!     }
//! });
//! // "Loading" while the quote is in the air, the price once it settled.
//! let shown = Boundary::suspense("loading".to_string(), {
//!     let quote = quote.clone();
//!     move || Ok(format!("{} cents", quote.get().suspend()?))
//! });
//! assert_eq!(shown.get(), "loading");
//! assert!(shown.state().is_waiting());
//! graph::run_flights();
//! assert_eq!(shown.get(), "300 cents");
//! ```

use crate::Memo;
use crate::graph::{AnyNode, NodeError, NodeId, with_runtime};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// Why a boundary's body did not produce a value: return it with `?` from the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// A read is not ready yet: a suspense boundary shows its fallback until it is.
    Pending,
    /// A read failed: an error boundary shows what `recover` makes of it.
    Failed(Failure),
}

/// A failure a boundary's body met: a failed read, or a panic in the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The node whose failure the body read, if the failure came from a read (`None` for a panic in the body itself).
    pub node: Option<NodeId>,
    /// What went wrong.
    pub message: String,
}

impl Failure {
    /// A failure of the body itself, with `message`: what a body returns to fail without panicking.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Boundary, Failure, Interrupt};
    ///
    /// let parsed = Boundary::catch(|_failure| -1, || {
    ///     "x".parse::<i32>().map_err(|e| Interrupt::Failed(Failure::new(e.to_string())))
    /// });
    /// assert_eq!(parsed.get(), -1);
    /// ```
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            node: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node {
            Some(node) => write!(f, "{node} failed: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Failure {}

impl From<NodeError> for Interrupt {
    /// A failed memo read with [`Memo::try_get`]: `memo.try_get()?` in a body.
    fn from(error: NodeError) -> Interrupt {
        Interrupt::Failed(Failure {
            node: Some(error.node),
            message: error.message,
        })
    }
}

impl From<Failure> for Interrupt {
    fn from(failure: Failure) -> Interrupt {
        Interrupt::Failed(failure)
    }
}

/// What a boundary shows: the body's value, its fallback while the body waits, or the value recovered from a
/// failure.
///
/// Its `Debug` text, which the trace shows, is the value, followed by ` (waiting)` or ` (caught: "why")`; an
/// uncaught wait reads `(pending)`.
///
/// # JSON
///
/// With the feature `exposure`: the value when ready, `{"value": …, "waiting": true}` while waiting,
/// `{"value": …, "caught": "why"}` when caught, and `{"pending": true}` for an uncaught wait (as an
/// [`AsyncState`](crate::AsyncState) reads while pending). Step lines read them `total 0 (waiting)`,
/// `total -1 (caught: "why")` and `total (pending)`.
#[derive(Clone, PartialEq)]
pub enum BoundaryState<T> {
    /// The body returned a value.
    Ready(T),
    /// The body waits (a suspense boundary): the fallback is shown.
    Waiting {
        /// The fallback shown.
        fallback: T,
    },
    /// The body failed (an error boundary): what `recover` returned is shown.
    Caught {
        /// What the body met.
        failure: Failure,
        /// What `recover` made of it.
        recovered: T,
    },
    /// The body waits and the boundary has no fallback (an error boundary only): nothing to show.
    Pending,
}

impl<T> BoundaryState<T> {
    /// The value shown, if any: the body's, the fallback, or the recovered value.
    pub fn value(&self) -> Option<&T> {
        match self {
            BoundaryState::Ready(value)
            | BoundaryState::Waiting { fallback: value }
            | BoundaryState::Caught {
                recovered: value, ..
            } => Some(value),
            BoundaryState::Pending => None,
        }
    }

    /// Whether the body waits and the fallback is shown.
    pub fn is_waiting(&self) -> bool {
        matches!(self, BoundaryState::Waiting { .. })
    }

    /// The failure caught, if a recovered value is shown.
    pub fn caught(&self) -> Option<&Failure> {
        match self {
            BoundaryState::Caught { failure, .. } => Some(failure),
            _ => None,
        }
    }

    /// Whether `self` and `other` are in the same state (ready, waiting, caught with an equal failure, pending):
    /// only then does the comparer decide whether the boundary moved.
    fn same_state(&self, other: &Self) -> bool {
        match (self, other) {
            (BoundaryState::Ready(_), BoundaryState::Ready(_))
            | (BoundaryState::Waiting { .. }, BoundaryState::Waiting { .. })
            | (BoundaryState::Pending, BoundaryState::Pending) => true,
            (
                BoundaryState::Caught { failure: a, .. },
                BoundaryState::Caught { failure: b, .. },
            ) => a == b,
            _ => false,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for BoundaryState<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoundaryState::Ready(value) => value.fmt(f),
            BoundaryState::Waiting { fallback } => write!(f, "{fallback:?} (waiting)"),
            BoundaryState::Caught { failure, recovered } => {
                write!(f, "{recovered:?} (caught: {:?})", failure.message)
            }
            BoundaryState::Pending => f.write_str("(pending)"),
        }
    }
}

#[cfg(feature = "exposure")]
impl<T: serde::Serialize> serde::Serialize for BoundaryState<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            BoundaryState::Ready(value) => value.serialize(serializer),
            BoundaryState::Waiting { fallback } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("value", fallback)?;
                map.serialize_entry("waiting", &true)?;
                map.end()
            }
            BoundaryState::Caught { failure, recovered } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("value", recovered)?;
                map.serialize_entry("caught", &failure.message)?;
                map.end()
            }
            BoundaryState::Pending => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("pending", &true)?;
                map.end()
            }
        }
    }
}

/// What the boundary's memo holds: the state shown, and a stamp that changes exactly when the boundary moved (the
/// memo's own cutoff compares stamps: the boundary's rules were applied in its body).
#[derive(Clone)]
struct Held<T> {
    state: BoundaryState<T>,
    stamp: u64,
}

impl<T: fmt::Debug> fmt::Debug for Held<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.state.fmt(f)
    }
}

type Recover<T> = Box<dyn FnMut(&Failure) -> T>;
type Equal<T> = Rc<dyn Fn(&T, &T) -> bool>;
type Comparer<T> = Rc<RefCell<Equal<T>>>;

/// A derived value that shows a fallback while its body waits and/or a recovered value when it fails. See the
/// [module docs](self).
///
/// Cheap to clone (all clones are the same boundary), and `!Send`.
pub struct Boundary<T: 'static> {
    memo: Memo<Held<T>>,
    eq: Comparer<T>,
}

impl<T> Clone for Boundary<T> {
    fn clone(&self) -> Self {
        Boundary {
            memo: self.memo.clone(),
            eq: self.eq.clone(),
        }
    }
}

impl<T: Clone + fmt::Debug + 'static> Boundary<T> {
    /// A suspense boundary: shows `fallback` while `body` waits (returns [`Interrupt::Pending`]). A failure of the
    /// body fails the boundary.
    #[track_caller]
    pub fn suspense(fallback: T, body: impl FnMut() -> Result<T, Interrupt> + 'static) -> Self
    where
        T: PartialEq,
    {
        Self::build(Some(fallback), None, body)
    }

    /// An error boundary: shows `recover(failure)` when `body` fails (returns [`Interrupt::Failed`] or panics). A
    /// wait of the body makes the boundary [`BoundaryState::Pending`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Boundary, BoundaryState, Memo, Signal};
    ///
    /// let divisor = Signal::new(2);
    /// let half = Boundary::catch(|failure| { assert!(failure.message.contains("zero")); 0 }, {
    ///     let divisor = divisor.clone();
    ///     move || {
    ///         let d = divisor.get();
    ///         if d == 0 { panic!("division by zero") }
    ///         Ok(10 / d)
    ///     }
    /// });
    /// assert_eq!(half.get(), 5);
    /// divisor.set(0);
    /// assert_eq!(half.get(), 0);
    /// assert!(half.state().caught().is_some());
    /// ```
    #[track_caller]
    pub fn catch(
        recover: impl FnMut(&Failure) -> T + 'static,
        body: impl FnMut() -> Result<T, Interrupt> + 'static,
    ) -> Self
    where
        T: PartialEq,
    {
        Self::build(None, Some(Box::new(recover)), body)
    }

    /// A boundary that catches both: `fallback` while `body` waits, `recover(failure)` when it fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{AsyncMemo, Boundary, Signal, graph};
    ///
    /// let id = Signal::new(1_u32);
    /// let user = AsyncMemo::try_new({
    ///     let id = id.clone();
    ///     move |_| {
    ///         let id = id.get();
    ///         async move { if id == 0 { Err("no user 0") } else { Ok(format!("user {id}")) } }
    ///     }
    /// });
    /// let card = Boundary::new("…".to_string(), |failure| format!("error: {}", failure.message), {
    ///     let user = user.clone();
    ///     move || user.get().suspend()
    /// });
    /// assert_eq!(card.get(), "…");
    /// graph::run_flights();
    /// assert_eq!(card.get(), "user 1");
    /// id.set(0);
    /// assert_eq!(card.get(), "…"); // the read starts the lookup of user 0
    /// graph::run_flights();
    /// assert_eq!(card.get(), "error: no user 0");
    /// ```
    #[track_caller]
    pub fn new(
        fallback: T,
        recover: impl FnMut(&Failure) -> T + 'static,
        body: impl FnMut() -> Result<T, Interrupt> + 'static,
    ) -> Self
    where
        T: PartialEq,
    {
        Self::build(Some(fallback), Some(Box::new(recover)), body)
    }

    #[track_caller]
    fn build(
        fallback: Option<T>,
        mut recover: Option<Recover<T>>,
        mut body: impl FnMut() -> Result<T, Interrupt> + 'static,
    ) -> Self
    where
        T: PartialEq,
    {
        let equal: Equal<T> = Rc::new(T::eq);
        let eq: Comparer<T> = Rc::new(RefCell::new(equal));
        let stamps = Cell::new(0_u64);
        let memo = Memo::build(
            {
                let eq = eq.clone();
                move |prev: Option<&Held<T>>| {
                    let outcome =
                        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(&mut body)) {
                            Ok(outcome) => outcome,
                            Err(payload) => Err(Interrupt::Failed(Failure::new(
                                crate::text::panic_text(&*payload),
                            ))),
                        };
                    let state = match outcome {
                        Ok(value) => BoundaryState::Ready(value),
                        Err(Interrupt::Pending) => match &fallback {
                            Some(fallback) => BoundaryState::Waiting {
                                fallback: fallback.clone(),
                            },
                            None => BoundaryState::Pending,
                        },
                        Err(Interrupt::Failed(failure)) => match &mut recover {
                            Some(recover) => BoundaryState::Caught {
                                recovered: recover(&failure),
                                failure,
                            },
                            // Not caught: the boundary fails, as a memo whose function panicked (reported once).
                            None => std::panic::resume_unwind(Box::new(failure.to_string())),
                        },
                    };
                    if let Some(prev) = prev
                        && prev.state.same_state(&state)
                    {
                        let equal = match (prev.state.value(), state.value()) {
                            (Some(a), Some(b)) => {
                                let eq = eq.borrow().clone();
                                compare(&*eq, a, b)
                            }
                            _ => true,
                        };
                        if equal {
                            return prev.clone();
                        }
                    }
                    stamps.set(stamps.get() + 1);
                    Held {
                        state,
                        stamp: stamps.get(),
                    }
                }
            },
            |a: &Held<T>, b: &Held<T>| a.stamp == b.stamp,
        );
        Boundary { memo, eq }
    }

    /// Compares the values shown with `eq` instead of `PartialEq`, and returns the boundary: a re-run showing a value
    /// `eq` calls equal to the last one, in the same state, keeps the last one and wakes nothing. State changes wake
    /// the readers whatever `eq` says.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Boundary, Signal};
    ///
    /// let celsius = Signal::new(20.2_f64);
    /// let shown = Boundary::suspense(0.0, { let c = celsius.clone(); move || Ok(c.get()) })
    ///     .compared_by(|a, b| a.round() == b.round());
    /// assert_eq!(shown.get(), 20.2);
    /// celsius.set(19.9);
    /// assert_eq!(shown.get(), 20.2); // the same whole degree: kept
    /// ```
    pub fn compared_by(self, eq: impl Fn(&T, &T) -> bool + 'static) -> Self {
        *self.eq.borrow_mut() = Rc::new(eq);
        let id = self.id();
        with_runtime(|rt| trace_hook!(rt, custom_comparer(id)));
        self
    }

    /// The value shown, tracked: the body's value, the fallback while it waits, or the recovered value.
    ///
    /// # Panics
    ///
    /// If the body failed and the boundary does not catch failures (with the failure's message), or if the body
    /// waits and the boundary has no fallback.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn get(&self) -> T {
        match self.memo.with(|held| held.state.value().cloned()) {
            Some(value) => value,
            None => panic!(
                "boundary {} waits and has no fallback (read it with `read` inside a suspense boundary)",
                self.id()
            ),
        }
    }

    /// The value shown, tracked, for the body of another boundary: an uncaught wait or failure interrupts that body
    /// (`inner.read()?`), so the outer boundary shows its fallback or recovers.
    ///
    /// # Errors
    ///
    /// [`Interrupt::Pending`] if the body waits and this boundary has no fallback; [`Interrupt::Failed`] if the body
    /// failed and this boundary does not catch failures.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn read(&self) -> Result<T, Interrupt> {
        match self.memo.try_get() {
            Ok(held) => held.state.value().cloned().ok_or(Interrupt::Pending),
            Err(error) => Err(error.into()),
        }
    }

    /// What the boundary shows and why, tracked.
    ///
    /// # Panics
    ///
    /// If the body failed and the boundary does not catch failures, as [`get`](Self::get).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn state(&self) -> BoundaryState<T> {
        self.memo.with(|held| held.state.clone())
    }

    /// The failure of the last run, if it failed uncaught (a body failure the boundary does not catch, or a panic in
    /// `recover` or the comparer).
    pub fn error(&self) -> Option<NodeError> {
        self.memo.error()
    }

    /// How many times the body has run.
    pub fn runs(&self) -> u32 {
        self.memo.runs()
    }

    /// Sets the node's label, the name the trace and the MCP tools give it, and returns the boundary.
    pub fn labelled(self, label: &str) -> Self {
        Boundary {
            memo: self.memo.labelled(label),
            eq: self.eq,
        }
    }

    /// Disposes the boundary and what its body created: it keeps its last state and stops tracking.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        self.memo.dispose();
    }

    /// The node's id (its memo's).
    pub fn id(&self) -> NodeId {
        self.memo.id()
    }
}

/// Calls the comparer; a panic in it fails the run with a message saying so (without calling `recover`, and without
/// a second report by the panic hook).
fn compare<T>(eq: &dyn Fn(&T, &T) -> bool, last: &T, next: &T) -> bool {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| eq(last, next))) {
        Ok(equal) => equal,
        Err(payload) => std::panic::resume_unwind(Box::new(format!(
            "the comparer panicked ({})",
            crate::text::panic_text(&*payload)
        ))),
    }
}

impl<T: 'static> AnyNode for Boundary<T> {
    fn node_id(&self) -> NodeId {
        self.memo.node_id()
    }
}

impl<T: Clone + fmt::Debug + 'static> fmt::Debug for Boundary<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Boundary")
            .field("id", &self.memo.id())
            .field("state", &self.memo.cached().map(|held| held.state))
            .finish()
    }
}
