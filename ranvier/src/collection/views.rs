//! Incremental views over a collection: memos that read the changes the collection hands them (rows added, removed,
//! changed, and whether the order moved) instead of the whole list.
//!
//! Each view has a queue the collection pushes every applied list's changes to. When the view runs, it first reads the
//! collection (so the collection has applied the source's current list, whole), then folds the changes it has not seen.
//! A view that has not run for long (more changes waiting than there are rows) drops them and starts over from the
//! rows, so a view nobody reads holds at most O(n) changes.

use super::changes::{Batch, Change, Queue};
use super::reconcile::{Inner, Slot, State};
use crate::Memo;
use crate::graph::record::TRACED;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::hash::Hash;
use std::rc::Rc;

/// What a view keeps and how a change moves it.
pub(crate) trait View<K, T>: 'static {
    type Out: fmt::Debug + 'static;
    /// Back to the state of no rows.
    fn reset(&mut self);
    fn add(&mut self, key: &K, item: &T);
    fn remove(&mut self, key: &K, item: &T);
    fn change(&mut self, key: &K, old: &T, new: &T) {
        self.remove(key, old);
        self.add(key, new);
    }
    /// The order of the rows changed.
    fn moved(&mut self) {}
    /// The view's value, from what it keeps (and the rows, for views that follow their order).
    fn out(&mut self, slots: &[Slot<K, T>], prev: Option<&Self::Out>) -> Self::Out;
}

/// A memo following `inner` through `view`; `eq` is its cutoff.
#[track_caller]
pub(crate) fn build<K, T, R, V>(
    inner: &Rc<Inner<K, T, R>>,
    mut view: V,
    eq: impl Fn(&V::Out, &V::Out) -> bool + 'static,
) -> Memo<V::Out>
where
    K: Eq + Hash + Clone + fmt::Debug + 'static,
    T: Clone + PartialEq + fmt::Debug + 'static,
    R: 'static,
    V: View<K, T>,
{
    let queue = Queue::new();
    inner.follow(&queue);
    inner.keep();
    let inner = inner.clone();
    let mut batches = Vec::new();
    Memo::build(
        move |prev| {
            inner.head.with(|_| ());
            let state = inner.state.borrow();
            let reset = queue.take(&mut batches);
            if reset {
                view.reset();
                for slot in &state.slots {
                    slot.item.with_unrecorded(|item| view.add(&slot.key, item));
                }
                view.moved();
            } else {
                for batch in &batches {
                    for change in &batch.changes {
                        match change {
                            Change::Added { key, item } => view.add(key, item),
                            Change::Removed { key, item } => view.remove(key, item),
                            Change::Changed { key, old, new } => view.change(key, old, new),
                        }
                    }
                    if batch.reordered {
                        view.moved();
                    }
                }
                if TRACED {
                    read_changed_rows(&state, &batches);
                }
            }
            batches.clear();
            view.out(&state.slots, prev)
        },
        eq,
    )
}

/// The most changed rows a view's run reads for the trace (see [`read_changed_rows`]).
const CHANGED_ROWS_READ: usize = 8;

/// In traced builds, a view's run reads the item of each row that came or changed in the batches it applied (at most
/// [`CHANGED_ROWS_READ`]), so the trace records them as its reads: `explain` of a sum or a count names the rows whose
/// change moved it (`lines[apple]`), not only the collection. A removed row has no node left to name. Untraced builds
/// skip this; the view's value is the same either way.
fn read_changed_rows<K, T, R>(state: &State<K, T, R>, batches: &[Rc<Batch<K, T>>])
where
    K: Eq + Hash + Clone + fmt::Debug + 'static,
    T: Clone + PartialEq + fmt::Debug + 'static,
    R: 'static,
{
    let changed =
        batches
            .iter()
            .flat_map(|batch| &batch.changes)
            .filter_map(|change| match change {
                Change::Added { key, .. } | Change::Changed { key, .. } => state.index.get(key),
                Change::Removed { .. } => None,
            });
    for &position in changed.take(CHANGED_ROWS_READ) {
        if let Some(slot) = state.slots.get(position) {
            slot.item.with(|_| ());
        }
    }
}

/// The rows a [`filter`](super::Collection::filter) keeps: how many, and their keys in list order.
///
/// # Examples
///
/// ```
/// use ranvier::collection::Collection;
/// use ranvier::Signal;
///
/// let list = Signal::new(vec![1, 2, 3]);
/// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
/// let odd = rows.filter(|n| n % 2 == 1);
/// assert_eq!((odd.count().get(), odd.keys().get().len()), (2, 2));
/// ```
pub struct Filter<K: 'static> {
    pub(super) count: Memo<usize>,
    pub(super) keys: Memo<Rc<[K]>>,
}

impl<K: fmt::Debug + 'static> Filter<K> {
    /// How many rows pass the filter: O(1) per changed row.
    pub fn count(&self) -> Memo<usize> {
        self.count.clone()
    }

    /// The keys of the rows that pass, in list order. The same `Rc` (waking nothing) until a row enters or leaves
    /// the filter or the order moves.
    pub fn keys(&self) -> Memo<Rc<[K]>> {
        self.keys.clone()
    }
}

impl<K: 'static> Clone for Filter<K> {
    fn clone(&self) -> Self {
        Filter {
            count: self.count.clone(),
            keys: self.keys.clone(),
        }
    }
}

pub(crate) struct Sum<F, N> {
    pub f: F,
    pub acc: N,
}

impl<K, T, F, N> View<K, T> for Sum<F, N>
where
    F: Fn(&T) -> N + 'static,
    N: Copy
        + Default
        + fmt::Debug
        + std::ops::Add<Output = N>
        + std::ops::Sub<Output = N>
        + 'static,
{
    type Out = N;
    fn reset(&mut self) {
        self.acc = N::default();
    }
    fn add(&mut self, _: &K, item: &T) {
        self.acc = self.acc + (self.f)(item);
    }
    fn remove(&mut self, _: &K, item: &T) {
        self.acc = self.acc - (self.f)(item);
    }
    fn out(&mut self, _: &[Slot<K, T>], _: Option<&N>) -> N {
        self.acc
    }
}

pub(crate) struct Count<P> {
    pub pred: P,
    pub count: usize,
}

impl<K, T, P: Fn(&T) -> bool + 'static> View<K, T> for Count<P> {
    type Out = usize;
    fn reset(&mut self) {
        self.count = 0;
    }
    fn add(&mut self, _: &K, item: &T) {
        self.count += usize::from((self.pred)(item));
    }
    fn remove(&mut self, _: &K, item: &T) {
        self.count -= usize::from((self.pred)(item));
    }
    fn out(&mut self, _: &[Slot<K, T>], _: Option<&usize>) -> usize {
        self.count
    }
}

/// A count turned into a yes or no (`exists`, `for_all`).
pub(crate) struct Counted<P> {
    pub count: Count<P>,
    pub out: fn(usize) -> bool,
}

impl<K, T, P: Fn(&T) -> bool + 'static> View<K, T> for Counted<P> {
    type Out = bool;
    fn reset(&mut self) {
        self.count.count = 0;
    }
    fn add(&mut self, key: &K, item: &T) {
        View::<K, T>::add(&mut self.count, key, item);
    }
    fn remove(&mut self, key: &K, item: &T) {
        View::<K, T>::remove(&mut self.count, key, item);
    }
    fn out(&mut self, _: &[Slot<K, T>], _: Option<&bool>) -> bool {
        (self.out)(self.count.count)
    }
}

pub(crate) struct Fold<A, Add, Remove> {
    pub init: A,
    pub acc: A,
    pub add: Add,
    pub remove: Remove,
}

impl<K, T, A, Add, Remove> View<K, T> for Fold<A, Add, Remove>
where
    A: Clone + fmt::Debug + 'static,
    Add: Fn(&mut A, &T) + 'static,
    Remove: Fn(&mut A, &T) + 'static,
{
    type Out = A;
    fn reset(&mut self) {
        self.acc = self.init.clone();
    }
    fn add(&mut self, _: &K, item: &T) {
        (self.add)(&mut self.acc, item);
    }
    fn remove(&mut self, _: &K, item: &T) {
        (self.remove)(&mut self.acc, item);
    }
    fn out(&mut self, _: &[Slot<K, T>], _: Option<&A>) -> A {
        self.acc.clone()
    }
}

pub(crate) struct FilterKeys<P> {
    pub pred: P,
    /// Whether the keys must be listed again.
    pub moved: bool,
}

impl<K, T, P> View<K, T> for FilterKeys<P>
where
    K: Clone + fmt::Debug + 'static,
    T: fmt::Debug + 'static,
    P: Fn(&T) -> bool + 'static,
{
    type Out = Rc<[K]>;
    fn reset(&mut self) {
        self.moved = true;
    }
    fn add(&mut self, _: &K, item: &T) {
        self.moved |= (self.pred)(item);
    }
    fn remove(&mut self, _: &K, item: &T) {
        self.moved |= (self.pred)(item);
    }
    fn change(&mut self, _: &K, old: &T, new: &T) {
        self.moved |= (self.pred)(old) != (self.pred)(new);
    }
    fn moved(&mut self) {
        self.moved = true;
    }
    fn out(&mut self, slots: &[Slot<K, T>], prev: Option<&Rc<[K]>>) -> Rc<[K]> {
        if let Some(prev) = prev
            && !std::mem::replace(&mut self.moved, false)
        {
            return prev.clone();
        }
        self.moved = false;
        slots
            .iter()
            .filter(|slot| slot.item.with_unrecorded(|item| (self.pred)(item)))
            .map(|slot| slot.key.clone())
            .collect()
    }
}

pub(crate) struct Map<K, U, F> {
    pub f: F,
    pub cache: HashMap<K, U>,
    pub moved: bool,
}

impl<K, T, U, F> View<K, T> for Map<K, U, F>
where
    K: Eq + Hash + Clone + 'static,
    T: 'static,
    U: Clone + fmt::Debug + 'static,
    F: Fn(&T) -> U + 'static,
{
    type Out = Rc<[U]>;
    fn reset(&mut self) {
        self.cache.clear();
        self.moved = true;
    }
    fn add(&mut self, key: &K, item: &T) {
        self.cache.insert(key.clone(), (self.f)(item));
        self.moved = true;
    }
    fn remove(&mut self, key: &K, _: &T) {
        self.cache.remove(key);
        self.moved = true;
    }
    fn change(&mut self, key: &K, _: &T, new: &T) {
        View::<K, T>::add(self, key, new);
    }
    fn moved(&mut self) {
        self.moved = true;
    }
    fn out(&mut self, slots: &[Slot<K, T>], prev: Option<&Rc<[U]>>) -> Rc<[U]> {
        if let Some(prev) = prev
            && !std::mem::replace(&mut self.moved, false)
        {
            return prev.clone();
        }
        self.moved = false;
        slots
            .iter()
            .filter_map(|slot| self.cache.get(&slot.key).cloned())
            .collect()
    }
}

pub(crate) struct SortBy<S, K, F> {
    pub f: F,
    pub order: BTreeSet<(S, K)>,
    pub moved: bool,
}

impl<K, T, S, F> View<K, T> for SortBy<S, K, F>
where
    K: Ord + Clone + fmt::Debug + 'static,
    T: 'static,
    S: Ord + 'static,
    F: Fn(&T) -> S + 'static,
{
    type Out = Rc<[K]>;
    fn reset(&mut self) {
        self.order.clear();
        self.moved = true;
    }
    fn add(&mut self, key: &K, item: &T) {
        self.order.insert(((self.f)(item), key.clone()));
        self.moved = true;
    }
    fn remove(&mut self, key: &K, item: &T) {
        self.order.remove(&((self.f)(item), key.clone()));
        self.moved = true;
    }
    fn change(&mut self, key: &K, old: &T, new: &T) {
        let (old, new) = ((self.f)(old), (self.f)(new));
        if old != new {
            self.order.remove(&(old, key.clone()));
            self.order.insert((new, key.clone()));
            self.moved = true;
        }
    }
    fn out(&mut self, _: &[Slot<K, T>], prev: Option<&Rc<[K]>>) -> Rc<[K]> {
        if let Some(prev) = prev
            && !std::mem::replace(&mut self.moved, false)
        {
            return prev.clone();
        }
        self.moved = false;
        self.order.iter().map(|(_, key)| key.clone()).collect()
    }
}

pub(crate) struct Window {
    pub skip: usize,
    pub take: usize,
    pub moved: bool,
}

impl<K: Clone + fmt::Debug + 'static, T: 'static> View<K, T> for Window {
    type Out = Rc<[K]>;
    fn reset(&mut self) {
        self.moved = true;
    }
    // Rows that come or go always come with a change of order (`moved`); a changed item changes no key.
    fn add(&mut self, _: &K, _: &T) {}
    fn remove(&mut self, _: &K, _: &T) {}
    fn change(&mut self, _: &K, _: &T, _: &T) {}
    fn moved(&mut self) {
        self.moved = true;
    }
    fn out(&mut self, slots: &[Slot<K, T>], prev: Option<&Rc<[K]>>) -> Rc<[K]> {
        if let Some(prev) = prev
            && !std::mem::replace(&mut self.moved, false)
        {
            return prev.clone();
        }
        self.moved = false;
        slots
            .iter()
            .skip(self.skip)
            .take(self.take)
            .map(|slot| slot.key.clone())
            .collect()
    }
}

pub(crate) struct GroupBy<G, F> {
    pub f: F,
    pub counts: Rc<BTreeMap<G, usize>>,
    pub moved: bool,
}

impl<K, T, G, F> View<K, T> for GroupBy<G, F>
where
    G: Ord + Clone + fmt::Debug + 'static,
    T: 'static,
    F: Fn(&T) -> G + 'static,
{
    type Out = Rc<BTreeMap<G, usize>>;
    fn reset(&mut self) {
        self.counts = Rc::new(BTreeMap::new());
        self.moved = true;
    }
    fn add(&mut self, _: &K, item: &T) {
        *Rc::make_mut(&mut self.counts)
            .entry((self.f)(item))
            .or_insert(0) += 1;
        self.moved = true;
    }
    fn remove(&mut self, _: &K, item: &T) {
        let group = (self.f)(item);
        let counts = Rc::make_mut(&mut self.counts);
        if let Some(count) = counts.get_mut(&group) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&group);
            }
        }
        self.moved = true;
    }
    fn change(&mut self, key: &K, old: &T, new: &T) {
        if (self.f)(old) != (self.f)(new) {
            View::<K, T>::remove(self, key, old);
            View::<K, T>::add(self, key, new);
        }
    }
    fn out(&mut self, _: &[Slot<K, T>], prev: Option<&Self::Out>) -> Self::Out {
        if let Some(prev) = prev
            && !std::mem::replace(&mut self.moved, false)
        {
            return prev.clone();
        }
        self.moved = false;
        self.counts.clone()
    }
}
