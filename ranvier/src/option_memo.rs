//! Option memos: a memo of an `Option` that keeps its previous `Some` while the value inside is equal.
//!
//! [`Memo::option`] and [`Memo::option_with_comparer`] are F# Ranvier's `createOptionMemo`: a lookup that may find
//! nothing (`items.iter().find(..)`, `map.get(key)`) wakes its readers only when what it finds changes. `Some` ↔
//! `None` always wakes them; `Some(a)` → `Some(b)` wakes them only if `a` and `b` differ (by `PartialEq`, or the
//! comparer given), and otherwise the memo keeps its previous `Some` as it is.
//!
//! For an `A: PartialEq`, `Memo::new(move |_| select())` cuts off the same way; `option` says so at the call site
//! and takes a function of nothing. `option_with_comparer` is what a plain memo cannot say in one line: a comparer
//! of the values inside, with the `Some`/`None` cases written once (a record compared by its id and version, a float
//! within a tolerance).
//!
//! `select` is a [pure function](crate::Owner#pure-functions): creating a memo, an effect, a scope or a cleanup in it
//! panics with a message naming the line.

use crate::Memo;
use crate::owner::pure_body;
use std::fmt;

/// What the option memo's function is, in the error of an owned creation inside it.
const WHAT: &str = "the `select` of a Memo::option";

impl<A: fmt::Debug + 'static> Memo<Option<A>> {
    /// Creates a memo of `select()`, which keeps its previous `Some` while the value inside is equal (by
    /// `PartialEq`): its readers wake only when the value found changes, or when it appears or goes.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Effect, Memo, Signal};
    /// use std::{cell::Cell, rc::Rc};
    ///
    /// let todos = Signal::new(vec![(1, "milk"), (3, "bread")]);
    /// let third = Memo::option({ let t = todos.clone(); move || t.with(|t| t.iter().find(|(id, _)| *id == 3).copied()) });
    /// let runs = Rc::new(Cell::new(0));
    /// let _shown = Effect::new({ let (third, runs) = (third.clone(), runs.clone()); move || { third.get(); runs.set(runs.get() + 1); } });
    /// todos.update(|t| t.push((4, "eggs"))); // todo 3 unchanged: nothing wakes
    /// assert_eq!(runs.get(), 1);
    /// todos.update(|t| t.retain(|(id, _)| *id != 3));
    /// assert_eq!((third.get(), runs.get()), (None, 2));
    /// ```
    #[track_caller]
    pub fn option(mut select: impl FnMut() -> Option<A> + 'static) -> Self
    where
        A: PartialEq,
    {
        Memo::build(move |_| pure_body(WHAT, &mut select), Option::eq)
    }

    /// Like [`option`](Memo::option), with `eq` deciding whether the value inside is unchanged. `eq` sees only two
    /// `Some`s: `Some` against `None` is always a change.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Memo, Signal};
    ///
    /// #[derive(Clone, Debug)]
    /// struct Row { id: u32, version: u32, cached_at: u64 }
    ///
    /// let rows = Signal::with_comparer(vec![Row { id: 1, version: 1, cached_at: 0 }], |_, _| false);
    /// let first = Memo::option_with_comparer(
    ///     { let r = rows.clone(); move || r.with(|r| r.first().cloned()) },
    ///     |a, b| (a.id, a.version) == (b.id, b.version),
    /// );
    /// assert_eq!(first.get().map(|r| r.cached_at), Some(0));
    /// rows.set(vec![Row { id: 1, version: 1, cached_at: 99 }]); // same id and version: the old row is kept
    /// assert_eq!(first.get().map(|r| r.cached_at), Some(0));
    /// ```
    #[track_caller]
    pub fn option_with_comparer(
        mut select: impl FnMut() -> Option<A> + 'static,
        eq: impl Fn(&A, &A) -> bool + 'static,
    ) -> Self {
        let memo = Memo::build(
            move |_| pure_body(WHAT, &mut select),
            move |a: &Option<A>, b: &Option<A>| match (a, b) {
                (Some(a), Some(b)) => eq(a, b),
                (None, None) => true,
                _ => false,
            },
        );
        crate::graph::with_runtime(|rt| trace_hook!(rt, custom_comparer(memo.id())));
        memo
    }
}
