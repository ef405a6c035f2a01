//! What a read of an async node returns: [`AsyncState`] (pending, ready or failed), the [`AsyncError`] of a failed
//! one, and the [`FlightPolicy`] an [`AsyncMemo`](crate::AsyncMemo) applies to flights a newer run supersedes.
//!
//! A read of an [`AsyncSource`](crate::AsyncSource) or an [`AsyncMemo`](crate::AsyncMemo) never hands out a bare
//! value: the caller matches on the state, so the pending case cannot be forgotten, or asks for
//! [`value_or`](AsyncState::value_or) a fallback.
//!
//! Changes between pending, ready and failed always wake the readers; a ready value equal to the previous ready value
//! (by the node's comparer) wakes nothing, as for a [`Memo`](crate::Memo).
//!
//! # JSON
//!
//! With the feature `exposure`, an exposed async value is encoded as its value when ready, `{"pending": true}` (with
//! `"last": <value>` once a value has settled) while pending, and `{"error": "<why>"}` (with `"last"` likewise)
//! when failed.
//!
//! # Examples
//!
//! ```
//! use ranvier::{AsyncSource, AsyncState};
//!
//! let price = AsyncSource::<u32>::new();
//! assert!(price.get().is_pending());
//! assert_eq!(price.get().value_or(0), 0);
//! price.settle(120);
//! assert_eq!(price.get(), AsyncState::Ready(120));
//! price.set_pending();
//! match price.get() {
//!     AsyncState::Pending { last } => assert_eq!(last, Some(120)),
//!     other => panic!("expected pending, got {other:?}"),
//! }
//! ```

use crate::graph::NodeId;
use std::fmt;

/// The state of an async node: pending (with the last settled value, if any), ready, or failed.
#[derive(Clone, PartialEq)]
#[must_use = "an async read may be pending or failed: match on it, or use `value_or`"]
pub enum AsyncState<T> {
    /// No value yet, or a newer one is on its way. `last` is the latest value that settled, if any.
    Pending {
        /// The latest settled value, if any.
        last: Option<T>,
    },
    /// Settled with a value.
    Ready(T),
    /// Failed. `last` is the latest value that settled before, if any.
    Failed {
        /// Why it failed.
        error: AsyncError,
        /// The latest settled value, if any.
        last: Option<T>,
    },
}

impl<T> AsyncState<T> {
    /// Whether a value is on its way.
    pub fn is_pending(&self) -> bool {
        matches!(self, AsyncState::Pending { .. })
    }

    /// Whether it settled with a value.
    pub fn is_ready(&self) -> bool {
        matches!(self, AsyncState::Ready(_))
    }

    /// The settled value, if ready.
    pub fn ready(&self) -> Option<&T> {
        match self {
            AsyncState::Ready(value) => Some(value),
            _ => None,
        }
    }

    /// The failure, if failed.
    pub fn error(&self) -> Option<&AsyncError> {
        match self {
            AsyncState::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    /// The latest settled value: the value when ready, else the last one that settled before.
    pub fn latest(&self) -> Option<&T> {
        match self {
            AsyncState::Ready(value) => Some(value),
            AsyncState::Pending { last } | AsyncState::Failed { last, .. } => last.as_ref(),
        }
    }

    /// The value when ready, else `fallback`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::AsyncState;
    ///
    /// assert_eq!(AsyncState::Ready(3).value_or(0), 3);
    /// assert_eq!(AsyncState::Pending { last: Some(2) }.value_or(0), 0);
    /// ```
    pub fn value_or(self, fallback: T) -> T {
        match self {
            AsyncState::Ready(value) => value,
            _ => fallback,
        }
    }

    /// The latest settled value (see [`latest`](Self::latest)), else `fallback`: what a view shows while it reloads.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::AsyncState;
    ///
    /// assert_eq!(AsyncState::Pending { last: Some(2) }.latest_or(0), 2);
    /// assert_eq!(AsyncState::<i32>::Pending { last: None }.latest_or(0), 0);
    /// ```
    pub fn latest_or(self, fallback: T) -> T {
        match self {
            AsyncState::Ready(value) => value,
            AsyncState::Pending { last } | AsyncState::Failed { last, .. } => {
                last.unwrap_or(fallback)
            }
        }
    }

    /// The value when ready; else the [`Interrupt`](crate::Interrupt) a [`Boundary`](crate::Boundary) body returns
    /// with `?`: [`Interrupt::Pending`](crate::Interrupt::Pending) while pending (a suspense boundary shows its
    /// fallback), [`Interrupt::Failed`](crate::Interrupt::Failed) when failed (an error boundary recovers).
    ///
    /// # Errors
    ///
    /// The interrupt, when not ready.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{AsyncState, Interrupt};
    ///
    /// assert_eq!(AsyncState::Ready(3).suspend(), Ok(3));
    /// assert_eq!(AsyncState::<i32>::Pending { last: Some(2) }.suspend(), Err(Interrupt::Pending));
    /// ```
    pub fn suspend(self) -> Result<T, crate::Interrupt> {
        match self {
            AsyncState::Ready(value) => Ok(value),
            AsyncState::Pending { .. } => Err(crate::Interrupt::Pending),
            AsyncState::Failed { error, .. } => Err(error.into()),
        }
    }

    /// The state as `Result`: `Ok(Some(value))` when ready, `Ok(None)` while pending.
    ///
    /// # Errors
    ///
    /// The [`AsyncError`] when failed.
    pub fn into_result(self) -> Result<Option<T>, AsyncError> {
        match self {
            AsyncState::Ready(value) => Ok(Some(value)),
            AsyncState::Pending { .. } => Ok(None),
            AsyncState::Failed { error, .. } => Err(error),
        }
    }

    /// The same state with the value given by `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> AsyncState<U> {
        match self {
            AsyncState::Ready(value) => AsyncState::Ready(f(value)),
            AsyncState::Pending { last } => AsyncState::Pending { last: last.map(f) },
            AsyncState::Failed { error, last } => AsyncState::Failed {
                error,
                last: last.map(f),
            },
        }
    }

    /// The state without its value: `"pending"`, `"ready"` or `"failed"`.
    pub fn phase(&self) -> &'static str {
        match self {
            AsyncState::Pending { .. } => "pending",
            AsyncState::Ready(_) => "ready",
            AsyncState::Failed { .. } => "failed",
        }
    }

    /// Whether `self` and `other` are the same state with equal values by `eq`: what decides whether a change
    /// wakes the readers.
    pub(crate) fn same(&self, other: &Self, eq: &dyn Fn(&T, &T) -> bool) -> bool {
        let same_last = |a: &Option<T>, b: &Option<T>| match (a, b) {
            (Some(a), Some(b)) => eq(a, b),
            (None, None) => true,
            _ => false,
        };
        match (self, other) {
            (AsyncState::Ready(a), AsyncState::Ready(b)) => eq(a, b),
            (AsyncState::Pending { last: a }, AsyncState::Pending { last: b }) => same_last(a, b),
            (
                AsyncState::Failed { error: e1, last: a },
                AsyncState::Failed { error: e2, last: b },
            ) => e1 == e2 && same_last(a, b),
            _ => false,
        }
    }

    /// Pending, keeping the latest settled value.
    pub(crate) fn to_pending(&self) -> Self
    where
        T: Clone,
    {
        AsyncState::Pending {
            last: self.latest().cloned(),
        }
    }
}

/// The trace and the MCP tools show an async node's value this way: `400` when ready, `(pending)` or
/// `(pending, last 400)`, `(failed: why)` or `(failed: why, last 400)`.
impl<T: fmt::Debug> fmt::Debug for AsyncState<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AsyncState::Ready(value) => value.fmt(f),
            AsyncState::Pending { last: None } => f.write_str("(pending)"),
            AsyncState::Pending { last: Some(last) } => write!(f, "(pending, last {last:?})"),
            AsyncState::Failed { error, last: None } => write!(f, "(failed: {})", error.message),
            AsyncState::Failed {
                error,
                last: Some(last),
            } => write!(f, "(failed: {}, last {last:?})", error.message),
        }
    }
}

#[cfg(feature = "exposure")]
impl<T: serde::Serialize> serde::Serialize for AsyncState<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            AsyncState::Ready(value) => value.serialize(serializer),
            AsyncState::Pending { last } => {
                let mut map = serializer.serialize_map(Some(1 + usize::from(last.is_some())))?;
                map.serialize_entry("pending", &true)?;
                if let Some(last) = last {
                    map.serialize_entry("last", last)?;
                }
                map.end()
            }
            AsyncState::Failed { error, last } => {
                let mut map = serializer.serialize_map(Some(1 + usize::from(last.is_some())))?;
                map.serialize_entry("error", &error.message)?;
                if let Some(last) = last {
                    map.serialize_entry("last", last)?;
                }
                map.end()
            }
        }
    }
}

/// Why an async node failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsyncError {
    /// The node that failed.
    pub node: NodeId,
    /// What happened.
    pub kind: AsyncErrorKind,
    /// The failure's text: the error the flight returned, the panic's message, or why the node stopped.
    pub message: String,
}

/// How an async node came to fail.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AsyncErrorKind {
    /// The source was failed, or the memo's future returned an error.
    Failed,
    /// The memo's function or its future panicked.
    Panicked,
    /// The memo was disposed while pending: its flight was cancelled.
    Disposed,
}

impl fmt::Display for AsyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed: {}", self.node, self.message)
    }
}

impl std::error::Error for AsyncError {}

impl From<AsyncError> for crate::Interrupt {
    /// A failed async read: `Interrupt::Failed`, naming the async node.
    fn from(error: AsyncError) -> crate::Interrupt {
        crate::Interrupt::Failed(crate::Failure {
            node: Some(error.node),
            message: error.message,
        })
    }
}

/// What an [`AsyncMemo`](crate::AsyncMemo) does with a flight that a newer run superseded.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum FlightPolicy {
    /// Cancel it: drop its future at once, and never apply its outcome (the default).
    #[default]
    CancelPrevious,
    /// Let it run, but drop its outcome: only the latest flight settles the memo.
    KeepLatest,
    /// Let it run and apply every outcome, in the order the flights started (the memo stays pending, showing each
    /// outcome as its `last` value, until the latest flight settles).
    Queue,
    /// Let the flight in the air finish (its outcome becomes the `last` value), then start the newest run's flight;
    /// runs in between replace each other, so at most one flight waits.
    FinishCurrent,
}

impl FlightPolicy {
    /// The policy's name, as the trace shows it.
    pub fn name(self) -> &'static str {
        match self {
            FlightPolicy::CancelPrevious => "cancel previous",
            FlightPolicy::KeepLatest => "keep latest",
            FlightPolicy::Queue => "queue",
            FlightPolicy::FinishCurrent => "finish current",
        }
    }
}
