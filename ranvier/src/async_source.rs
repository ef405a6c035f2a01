//! Async sources: values that arrive later, settled from the graph thread or from any other.
//!
//! An [`AsyncSource<T>`] starts pending. On the graph thread it is settled by hand ([`settle`](AsyncSource::settle),
//! [`fail`](AsyncSource::fail), [`set_pending`](AsyncSource::set_pending)); any other thread settles it through a
//! [`Settler<T>`], a `Send + Sync` handle whose settles go through the graph thread's queue. Under a
//! [`GraphHost`](crate::host::GraphHost) the queue is drained by the host itself; without one, the graph thread calls
//! [`graph::run_flights`](crate::graph::run_flights). Either way a settle is one write: one flush, and (with an
//! [`Exposure`](crate::exposure::Exposure)) one published version.
//!
//! A read returns an [`AsyncState<T>`]: pending, ready or failed. Changes between those states always wake the
//! readers; a ready value equal to the previous one (by `PartialEq`, or the comparer given to
//! [`AsyncSource::with_comparer`]) wakes nothing.
//!
//! Available in every build, the core without features included.
//!
//! # Examples
//!
//! ```
//! use ranvier::{AsyncSource, AsyncState, Memo, graph};
//!
//! let rate = AsyncSource::<f64>::new();
//! let price = Memo::new({
//!     let rate = rate.clone();
//!     move |_| rate.get().map(|rate| rate * 100.0)
//! });
//! assert!(price.get().is_pending());
//!
//! // Another thread settles it; the graph thread applies it at its next drain.
//! let settler = rate.settler();
//! std::thread::spawn(move || settler.settle(1.5)).join().unwrap();
//! graph::run_flights();
//! assert_eq!(price.get(), AsyncState::Ready(150.0));
//! ```

use crate::async_state::{AsyncError, AsyncErrorKind, AsyncState};
use crate::graph::flights::{self, Remote};
use crate::graph::{AnyNode, NodeId, NodeRc, WeakNode};
use crate::signal::{Signal, SignalInner};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

/// A value that arrives later: pending until settled.
///
/// Cheap to clone (all clones are the same source), and `!Send`; hand other threads a [`Settler`].
///
/// # Examples
///
/// ```
/// use ranvier::{AsyncSource, AsyncState};
///
/// let user = AsyncSource::<String>::new();
/// user.fail("no such user");
/// assert_eq!(user.get().error().map(|e| e.message.as_str()), Some("no such user"));
/// user.settle("ada".to_string());
/// assert_eq!(user.get(), AsyncState::Ready("ada".to_string()));
/// ```
pub struct AsyncSource<T: 'static> {
    signal: Signal<AsyncState<T>>,
}

impl<T> Clone for AsyncSource<T> {
    fn clone(&self) -> Self {
        AsyncSource {
            signal: self.signal.clone(),
        }
    }
}

impl<T: Clone + fmt::Debug + 'static> AsyncSource<T> {
    /// A pending source; a settle equal to the current ready value (by `PartialEq`) wakes nothing.
    #[track_caller]
    pub fn new() -> Self
    where
        T: PartialEq,
    {
        Self::with_comparer(T::eq)
    }

    /// A pending source whose ready values are compared with `eq`.
    #[track_caller]
    pub fn with_comparer(eq: impl Fn(&T, &T) -> bool + 'static) -> Self {
        let signal = Signal::build(AsyncState::Pending { last: None }, move |a, b| {
            a.same(b, &eq)
        });
        AsyncSource { signal }
    }

    /// Sets the node's label (the name the trace and the MCP tools give it) and returns the source.
    pub fn labelled(self, label: &str) -> Self {
        AsyncSource {
            signal: self.signal.labelled(label),
        }
    }

    /// The state, tracked: a memo or effect reading it runs again when it changes.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn get(&self) -> AsyncState<T> {
        self.signal.get()
    }

    /// Calls `f` with the state, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with<R>(&self, f: impl FnOnce(&AsyncState<T>) -> R) -> R {
        self.signal.with(f)
    }

    /// The value when ready, else `fallback`; tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn value_or(&self, fallback: T) -> T {
        self.signal.get().value_or(fallback)
    }

    /// The state, untracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn peek(&self) -> AsyncState<T> {
        self.signal.peek()
    }

    /// Settles with `value`, on the graph thread: a write (it flushes now, unless a batch or a run defers it).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn settle(&self, value: T) {
        self.signal.set(AsyncState::Ready(value));
    }

    /// Fails with `message`, keeping the latest settled value as `last`.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn fail(&self, message: impl Into<String>) {
        let last = self.signal.peek().latest().cloned();
        let message = message.into();
        crate::graph::failures::report(
            self.signal.inner.core(),
            crate::graph::failures::FailureKind::FlightFailed,
            &message,
        );
        self.signal.set(AsyncState::Failed {
            error: AsyncError {
                node: self.id(),
                kind: AsyncErrorKind::Failed,
                message,
            },
            last,
        });
    }

    /// Back to pending (a reload has started), keeping the latest settled value as `last`.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn set_pending(&self) {
        let pending = self.signal.peek().to_pending();
        self.signal.set(pending);
    }

    /// A `Send + Sync` handle that settles this source from any thread (see the [module docs](self)).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{AsyncSource, AsyncState, graph};
    ///
    /// let total = AsyncSource::<u64>::new();
    /// let settler = total.settler();
    /// std::thread::spawn(move || settler.settle(42)).join().unwrap();
    /// assert!(total.get().is_pending()); // not applied until the graph thread drains its queue
    /// graph::run_flights();
    /// assert_eq!(total.get(), AsyncState::Ready(42));
    /// ```
    pub fn settler(&self) -> Settler<T>
    where
        T: Send,
    {
        Settler {
            remote: flights::remote(),
            key: register(&self.signal.inner),
            node: self.id(),
            _value: PhantomData,
        }
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.signal.id()
    }
}

impl<T: Clone + PartialEq + fmt::Debug + 'static> Default for AsyncSource<T> {
    #[track_caller]
    fn default() -> Self {
        Self::new()
    }
}

impl<T: 'static> AnyNode for AsyncSource<T> {
    fn node_id(&self) -> NodeId {
        self.signal.node_id()
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for AsyncSource<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncSource")
            .field("id", &self.signal.id())
            .field("state", &*self.signal.inner.value.borrow())
            .finish()
    }
}

/// Settles an [`AsyncSource`] from any thread: `Send + Sync`, cheap to clone.
///
/// Each call queues one write for the graph thread; it is applied at the graph thread's next drain (by its
/// [`GraphHost`](crate::host::GraphHost), or [`graph::run_flights`](crate::graph::run_flights)). A settle whose
/// source is gone does nothing.
pub struct Settler<T> {
    remote: Remote,
    key: u64,
    node: NodeId,
    _value: PhantomData<fn(T)>,
}

impl<T> Clone for Settler<T> {
    fn clone(&self) -> Self {
        Settler {
            remote: self.remote.clone(),
            key: self.key,
            node: self.node,
            _value: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Settler<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settler").field("node", &self.node).finish()
    }
}

impl<T: Clone + fmt::Debug + Send + 'static> Settler<T> {
    /// Settles the source with `value`.
    pub fn settle(&self, value: T) {
        self.post(move |source| source.settle(value));
    }

    /// Fails the source with `message`.
    pub fn fail(&self, message: impl Into<String>) {
        let message = message.into();
        self.post(move |source| source.fail(message));
    }

    /// Sets the source back to pending.
    pub fn set_pending(&self) {
        self.post(|source| source.set_pending());
    }

    /// The source's node id.
    pub fn node(&self) -> NodeId {
        self.node
    }

    fn post(&self, apply: impl FnOnce(&AsyncSource<T>) + Send + 'static) {
        let key = self.key;
        self.remote.post(Box::new(move || {
            if let Some(source) = lookup::<T>(key) {
                apply(&source);
            }
        }));
    }
}

/// Sources a [`Settler`] was made for, by key: weak handles, so a settler does not keep its source alive.
struct Registry {
    by_key: HashMap<u64, WeakNode>,
    by_node: HashMap<*const (), u64>,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry {
        by_key: HashMap::new(),
        by_node: HashMap::new(),
    });
}

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

fn register<T: fmt::Debug + 'static>(signal: &NodeRc<SignalInner<AsyncState<T>>>) -> u64 {
    REGISTRY.with_borrow_mut(|registry| {
        if let Some(&key) = registry.by_node.get(&signal.as_ptr()) {
            return key;
        }
        if registry.by_key.len() >= 64 && registry.by_key.len().is_power_of_two() {
            // Forget the sources that are gone (amortised: the table at most doubles between two sweeps).
            registry.by_key.retain(|_, weak| weak.upgrade().is_some());
            let live: std::collections::HashSet<u64> = registry.by_key.keys().copied().collect();
            registry.by_node.retain(|_, key| live.contains(key));
        }
        let key = NEXT_KEY.fetch_add(1, Ordering::Relaxed);
        registry.by_key.insert(key, signal.downgrade());
        registry.by_node.insert(signal.as_ptr(), key);
        key
    })
}

fn lookup<T: 'static>(key: u64) -> Option<AsyncSource<T>> {
    let node =
        REGISTRY.with_borrow(|registry| registry.by_key.get(&key).and_then(WeakNode::upgrade))?;
    // SAFETY: only `register` inserts keys, for a `SignalInner<AsyncState<T>>`, and a key names one source (a
    // settler for another `T` cannot hold it: `Settler<T>` is made from the `AsyncSource<T>` itself).
    let inner = unsafe { node.into_typed::<SignalInner<AsyncState<T>>>() };
    Some(AsyncSource {
        signal: Signal { inner },
    })
}
