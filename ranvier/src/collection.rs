//! Keyed collections: a list whose every row is a scope of its own, and views that follow it change by change.
//!
//! A [`Collection`] follows a source list (a [`Signal`] or [`Memo`] of `Vec<T>`), a key function and a per-row
//! factory. Each key gets its own row: a [`Scope`](crate::Scope) that owns whatever the factory made (memos, effects, cleanups), and
//! a signal holding the row's item ([`Row`]).
//!
//! * **Reuse.** A row lives as long as its key is in the list, wherever it moves: reordering the list re-creates
//!   nothing.
//! * **In place.** When a key's item changes, the collection writes the new item to that row's signal, so only the
//!   nodes that row's factory made re-run.
//! * **Disposal.** When a key leaves the list, its row's scope is disposed: its cleanups run (last registered first),
//!   then its nodes are disposed. Disposing the collection (or its owner) disposes every row.
//! * **Duplicate keys** are refused: a source list holding one key twice leaves the rows as they were, and the
//!   collection reports a [`CollectionError::DuplicateKey`] naming the key and both positions, from
//!   [`Collection::error`] (and in its node's value, for the trace). Nothing panics and nothing is merged; the next
//!   valid list clears the error.
//! * **Index-keyed** lists, whose items have no key, use [`Collection::indexed`]: the row at each position is reused,
//!   and its item is written in place.
//!
//! The collection is one node of the graph (a memo: reading the collection brings it up to date). Rows are made,
//! updated and disposed when something reads it (a view, [`Collection::len`], an effect over its rows), lazily like
//! any memo; a row's factory runs outside any tracking, so what it reads does not become a source of the collection.
//!
//! # Views
//!
//! A view is a memo over the collection that works on its changes (rows added, removed, changed, and whether the order
//! moved), not on the whole list: after one row of 10,000 changes, [`sum_by`](Collection::sum_by) subtracts the old
//! item's figure and adds the new one. What each view costs per changed row:
//!
//! | view | per change | notes |
//! |---|---|---|
//! | [`sum_by`](Collection::sum_by), [`count_by`](Collection::count_by), [`exists`](Collection::exists), [`for_all`](Collection::for_all) | O(1) | `exists`/`for_all` keep a count |
//! | [`fold`](Collection::fold) | O(1) | needs the inverse of its step (`remove`) |
//! | [`filter`](Collection::filter) | O(1) for the count; the keys O(n), only when a row enters or leaves the filter or the order moves | |
//! | [`sort_by`](Collection::sort_by) | O(log n) to keep the order; O(n) to publish it, only when it moved | ties by key |
//! | [`group_by`](Collection::group_by) | O(log g) for g groups; O(g) to publish, only when a count moved | counts per group |
//! | [`map`](Collection::map) | the function runs for the changed rows only; O(n) to publish the new list | |
//! | [`take`](Collection::take), [`skip`](Collection::skip) | nothing when only items change; O(k) or O(n) when the order moves | |
//!
//! Following the source costs O(n) per change of the source (the new list is compared with the rows, key by key); a
//! list whose keys stay in place is compared position by position, without hashing. A collection that holds its own
//! list ([`Collection::new`]) is written row by row instead: [`update`](Collection::update) and
//! [`push`](Collection::push) cost O(1) besides the views, [`remove`](Collection::remove) O(n) (the rows after it move
//! up), [`set`](Collection::set) O(n) like a source's new list. Views are glitch-free: every view
//! reads the collection first, and the collection applies a whole new list before any view runs, so no view sees two
//! rows in two different versions of the list.
//!
//! # Names
//!
//! In traced builds every row node is labelled with its identity: the collection's label, the key in brackets, and the
//! node's own label (or kind). With a collection labelled `items` (by `#[node]` on its `let`, or
//! [`Collection::labelled`]), the row of the key `"apple"` holds the signal `items[apple]`, and a memo its factory
//! labelled `line_total` is `items[apple]/line_total`: the name `trace::explain`, `graph` and `node` show and accept.
//! Label the factory's nodes with `#[node]` on the factory function (or `labelled`); label the collection before
//! anything reads it (rows are named when they are made). Characters `/ [ ] # \` in a key are escaped with `\`.
//!
//! `explain` of a view (`sum_by`, `count_by`, a filter's count, ...) names the rows whose change moved it: in traced
//! builds each run of a view reads the rows that came or changed in what it applied (at most 8), so the trace lists
//! them among its reads (`items[pear]`). Over MCP, `explain` of a row path a message makes (`items[kiwi]/line_total`
//! with `messages` that add `kiwi`) dispatches the messages first when the collection (`items`) names a node.
//!
//! # Examples
//!
//! ```
//! use ranvier::collection::Collection;
//! use ranvier::{Memo, Signal};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Line { fruit: &'static str, price: u32, quantity: u32 }
//!
//! let lines = Signal::new(vec![
//!     Line { fruit: "apple", price: 120, quantity: 3 },
//!     Line { fruit: "pear", price: 90, quantity: 1 },
//! ]);
//! // One row per fruit; each row has a memo of its own.
//! let rows = Collection::keyed(
//!     lines.clone(),
//!     |line: &Line| line.fruit,
//!     |row| {
//!         let row = row.clone();
//!         Memo::new(move |_| row.with(|line| line.price * line.quantity))
//!     },
//! )
//! .labelled("lines");
//! let total = rows.sum_by(|line| line.price * line.quantity);
//! let big = rows.filter(|line| line.quantity > 2);
//! assert_eq!(total.get(), 450);
//! assert_eq!(big.count().get(), 1);
//!
//! let apple = rows.row(&"apple").unwrap();
//! lines.update(|lines| lines[0].quantity = 5); // one row changes: only its memo re-runs
//! assert_eq!(apple.get(), 600);
//! assert_eq!(total.get(), 690);
//! assert_eq!(&*big.keys().get(), ["apple"]);
//!
//! lines.update(|lines| lines.push(lines[0].clone())); // "apple" twice: refused, rows unchanged
//! assert!(rows.error().unwrap().to_string().contains("`apple`"));
//! assert_eq!(rows.len(), 2);
//! ```

//!
//! # Exposing a collection
//!
//! `#[expose]` on a `Collection` field publishes its rows in list order, a JSON array of keyed rows: each row is
//! `{"key": …}` followed by the item's fields (an item that is not an object is `{"key": …, "item": …}`). Step
//! lines compare such arrays by key and name the rows that changed (`fruits +[kiwi]`, `lines[apple].qty 3→5`,
//! `lines -[pear]`) instead of the whole list before and after. What the row factory returns adds the row's own
//! figure: nothing for `()`, `"value": …` for a `Memo`, `"total": …` for `("total", memo)`. `#[node]` on the
//! field names it (and so its rows) for the trace.
//!
//! ```
//! # #[cfg(feature = "exposure")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ranvier::collection::Collection;
//! use ranvier::exposure::{ExposeError, Exposure};
//! use ranvier::host::{GraphHost, block_on};
//! use ranvier::{Expose, Messages, Mvu, expose, node};
//! use serde_json::json;
//!
//! #[derive(Debug, Messages)]
//! enum Msg {
//!     /// Adds `fruit` to the basket.
//!     Add { fruit: String },
//! }
//!
//! #[expose]
//! struct Basket {
//!     #[expose(messages)]
//!     basket: Mvu<Vec<String>, Msg>,
//!     #[expose]
//!     #[node]
//!     fruits: Collection<String, String, ()>,
//! }
//!
//! let host = GraphHost::start(|| {
//!     let basket = Mvu::new(vec!["apple".to_string()], |Msg::Add { fruit }, list: &Vec<String>| {
//!         let mut list = list.clone();
//!         list.push(fruit);
//!         list
//!     });
//!     let fruits = Collection::keyed(basket.select(|list| list.clone()), |fruit: &String| fruit.clone(), |_| ());
//!     let app = Basket { basket, fruits };
//!     let mut exposure = Exposure::new();
//!     app.expose(&mut exposure)?;
//!     Ok::<_, ExposeError>((app, exposure.start()?))
//! })?;
//! let exposure = host.invoke(|(_, handle)| handle.clone()).wait()?;
//! let row = |fruit: &str| json!({"key": fruit, "item": fruit});
//! assert_eq!(exposure.snapshot().get("fruits"), Some(&json!([row("apple")])));
//! let after = block_on(exposure.dispatch("add", json!({"fruit": "kiwi"})))?.ran().expect("no approval needed");
//! assert_eq!(after.get("fruits"), Some(&json!([row("apple"), row("kiwi")])));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "exposure"))]
//! # fn main() {}
//! ```

mod changes;
mod reconcile;
mod views;

pub use views::Filter;

pub(crate) use reconcile::key_text;

use crate::graph::{AnyNode, NodeId};
use crate::{Memo, Signal};
use reconcile::{Inner, Source};
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt;
use std::hash::Hash;
use std::rc::{Rc, Weak};

/// A keyed list of rows, each with its own scope, following a source list. See the [module docs](self).
///
/// Cheap to clone (all clones are the same collection); `!Send`.
///
/// # Examples
///
/// ```
/// use ranvier::collection::Collection;
/// use ranvier::Signal;
///
/// let names = Signal::new(vec!["ada".to_string(), "grace".to_string()]);
/// let rows = Collection::keyed(names.clone(), |name: &String| name.clone(), |row| row.key().to_uppercase());
/// assert_eq!(rows.rows(), ["ADA", "GRACE"]);
/// names.set(vec!["grace".to_string(), "alan".to_string()]);
/// assert_eq!(rows.rows(), ["GRACE", "ALAN"]);
/// ```
pub struct Collection<K: 'static, T: 'static, R: 'static> {
    inner: Rc<Inner<K, T, R>>,
}

impl<K, T, R> Clone for Collection<K, T, R> {
    fn clone(&self) -> Self {
        Collection {
            inner: self.inner.clone(),
        }
    }
}

/// One row of a [`Collection`], as its factory sees it: the key, and the row's item, held in a signal the collection
/// writes when the item changes.
///
/// Reading the item with [`get`](Row::get) or [`with`](Row::with) inside a memo or effect the factory made makes that
/// node re-run when this row's item changes, and only then.
///
/// # Examples
///
/// ```
/// use ranvier::collection::Collection;
/// use ranvier::{Memo, Signal};
///
/// let prices = Signal::new(vec![("tea", 3), ("cake", 4)]);
/// let rows = Collection::keyed(prices.clone(), |item: &(&str, i32)| item.0, |row| {
///     let row = row.clone();
///     Memo::new(move |_| row.with(|(_, price)| price * 2))
/// });
/// assert_eq!(rows.row(&"cake").unwrap().get(), 8);
/// ```
pub struct Row<K, T: 'static> {
    key: K,
    item: Signal<T>,
}

impl<K: Clone, T> Clone for Row<K, T> {
    fn clone(&self) -> Self {
        Row {
            key: self.key.clone(),
            item: self.item.clone(),
        }
    }
}

impl<K, T: fmt::Debug + 'static> Row<K, T> {
    /// The row's key.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// A clone of the row's item, tracked: the running memo or effect re-runs when this row's item changes.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn get(&self) -> T
    where
        T: Clone,
    {
        self.item.with_at(crate::graph::call_site(), T::clone)
    }

    /// Calls `f` with the row's item, tracked (as [`get`](Row::get)).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with<U>(&self, f: impl FnOnce(&T) -> U) -> U {
        self.item.with_at(crate::graph::call_site(), f)
    }

    /// A clone of the row's item, untracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn peek(&self) -> T
    where
        T: Clone,
    {
        self.item.peek()
    }

    /// The id of the signal holding the row's item (labelled `name[key]` in traced builds).
    pub fn item_id(&self) -> NodeId {
        self.item.id()
    }
}

/// Why a [`Collection`] refused a list.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CollectionError {
    /// The source list held the key `key` at two positions; the collection kept its rows as they were.
    DuplicateKey {
        /// The collection's label (`collection` when it has none).
        collection: String,
        /// The key, as its `Debug` text (a string key without its quotes).
        key: String,
        /// The first position holding the key (from 0).
        first: usize,
        /// The second position holding it.
        second: usize,
    },
    /// A write named a key no row has.
    UnknownKey {
        /// The collection's label.
        collection: String,
        /// The key, as its `Debug` text.
        key: String,
    },
    /// [`Collection::update`] changed the item's key; a row keeps its key for life (remove it and push the new one).
    KeyChanged {
        /// The collection's label.
        collection: String,
        /// The row's key.
        key: String,
        /// The key the changed item would have.
        new_key: String,
    },
    /// The factory panicked while making the row of `key`; what it had made was disposed, and the list (or the
    /// write) was refused, leaving the rows as they were.
    FactoryPanicked {
        /// The collection's label.
        collection: String,
        /// The key of the row being made.
        key: String,
        /// The panic's message.
        message: String,
    },
    /// A write to a collection that follows a source list: write the source instead.
    FollowsSource {
        /// The collection's label.
        collection: String,
    },
}

impl fmt::Display for CollectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollectionError::DuplicateKey {
                collection,
                key,
                first,
                second,
            } => write!(
                f,
                "{collection} refused a list holding the key `{key}` twice (at positions {first} and {second}); each \
                 key must be unique, so the rows were left as they were"
            ),
            CollectionError::UnknownKey { collection, key } => {
                write!(
                    f,
                    "{collection} has no row with the key `{key}`; nothing was changed"
                )
            }
            CollectionError::KeyChanged {
                collection,
                key,
                new_key,
            } => write!(
                f,
                "{collection}: the update of `{key}` would change its key to `{new_key}`; a row keeps its key (remove \
                 it and push the new item), so nothing was changed"
            ),
            CollectionError::FactoryPanicked {
                collection,
                key,
                message,
            } => write!(
                f,
                "{collection}: the factory panicked making the row of `{key}`: {message}; the rows were left as they \
                 were"
            ),
            CollectionError::FollowsSource { collection } => write!(
                f,
                "{collection} follows a source list and cannot be written; write its source instead"
            ),
        }
    }
}

impl std::error::Error for CollectionError {}

/// A list a [`Collection`] can follow: a [`Signal`] or [`Memo`] of `Vec<T>`. The collection reads it (tracked) each
/// time it brings itself up to date.
pub trait ListSource<T>: 'static {
    /// Calls `f` with the list, tracked by the running computation.
    fn with_list(&self, f: &mut dyn FnMut(&[T]));
}

impl<T: fmt::Debug + 'static> ListSource<T> for Signal<Vec<T>> {
    fn with_list(&self, f: &mut dyn FnMut(&[T])) {
        self.with(|items| f(items));
    }
}

impl<T: fmt::Debug + 'static> ListSource<T> for Memo<Vec<T>> {
    fn with_list(&self, f: &mut dyn FnMut(&[T])) {
        self.with(|items| f(items));
    }
}

impl<K, T, R> Collection<K, T, R>
where
    K: Eq + Hash + Clone + fmt::Debug + 'static,
    T: Clone + PartialEq + fmt::Debug + 'static,
    R: 'static,
{
    /// A collection following `source`, one row per key `key(item)`, each row made by `factory` in a scope of its
    /// own.
    ///
    /// The collection belongs to the current owner: disposed with it (or by [`dispose`](Collection::dispose)), it
    /// disposes every row.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let ids = Signal::new(vec![3, 1, 2]);
    /// let rows = Collection::keyed(ids.clone(), |id: &u32| *id, |row| *row.key() * 10);
    /// assert_eq!(rows.rows(), [30, 10, 20]);
    /// ```
    #[track_caller]
    pub fn keyed(
        source: impl ListSource<T>,
        key: impl Fn(&T) -> K + 'static,
        factory: impl Fn(&Row<K, T>) -> R + 'static,
    ) -> Self {
        Self::build(
            Source::List(Box::new(source)),
            Box::new(move |_, item| key(item)),
            Box::new(factory),
        )
    }

    /// A collection that holds its own list, starting with `items`, written through
    /// [`update`](Collection::update) (one row, O(1)), [`push`](Collection::push), [`remove`](Collection::remove)
    /// and [`set`](Collection::set) (a whole new list, diffed as a source's would be). Each write is one batch: the
    /// changed rows, the views and the effects over them move together.
    ///
    /// # Errors
    ///
    /// [`CollectionError::DuplicateKey`] if `items` holds a key twice.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    ///
    /// let stock = Collection::new(vec![("tea", 3), ("cake", 0)], |item: &(&str, i32)| item.0, |_| ()).unwrap();
    /// let total = stock.sum_by(|item| item.1);
    /// stock.update(&"cake", |item| item.1 = 5).unwrap();
    /// stock.push(("jam", 1)).unwrap();
    /// assert_eq!(total.get(), 9);
    /// assert!(stock.update(&"bread", |item| item.1 = 1).is_err());
    /// ```
    #[track_caller]
    pub fn new(
        items: Vec<T>,
        key: impl Fn(&T) -> K + 'static,
        factory: impl Fn(&Row<K, T>) -> R + 'static,
    ) -> Result<Self, CollectionError> {
        let collection = Self::build(
            Source::Owned(Signal::new(0)),
            Box::new(move |_, item| key(item)),
            Box::new(factory),
        );
        collection.inner.set_initial(items)?;
        Ok(collection)
    }

    /// Changes the item of the row of `key` in place with `f`: the row's own nodes re-run, the views take the one
    /// change (O(1) for the aggregates). An unchanged item does nothing.
    ///
    /// # Errors
    ///
    /// [`CollectionError::UnknownKey`] if no row has `key`; [`CollectionError::KeyChanged`] if `f` changed the item's
    /// key; [`CollectionError::FollowsSource`] for a collection made from a source. Nothing is changed then.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn update(&self, key: &K, f: impl FnOnce(&mut T)) -> Result<(), CollectionError> {
        self.inner.update_item(crate::graph::call_site(), key, f)
    }

    /// Appends a row for `item`.
    ///
    /// # Errors
    ///
    /// [`CollectionError::DuplicateKey`] if a row has its key already; [`CollectionError::FollowsSource`] for a
    /// collection made from a source.
    pub fn push(&self, item: T) -> Result<(), CollectionError> {
        self.inner.push_item(item)
    }

    /// Removes the row of `key` and disposes it (its cleanups run, last registered first). O(n): the rows after it
    /// move up one place.
    ///
    /// # Errors
    ///
    /// [`CollectionError::UnknownKey`] if no row has `key`; [`CollectionError::FollowsSource`] for a collection made
    /// from a source.
    pub fn remove(&self, key: &K) -> Result<(), CollectionError> {
        self.inner.remove_item(key)
    }

    /// Replaces the whole list, as a source's new list would: rows reused by key, changed items written in place.
    ///
    /// # Errors
    ///
    /// [`CollectionError::DuplicateKey`] if `items` holds a key twice (nothing changes);
    /// [`CollectionError::FollowsSource`] for a collection made from a source.
    pub fn set(&self, items: Vec<T>) -> Result<(), CollectionError> {
        self.inner.set_items(&items)
    }

    #[track_caller]
    fn build(
        source: Source<T>,
        key_of: reconcile::KeyFn<K, T>,
        factory: reconcile::Factory<K, T, R>,
    ) -> Self {
        let link: Rc<OnceCell<Weak<Inner<K, T, R>>>> = Rc::new(OnceCell::new());
        let head = Memo::new({
            let link = link.clone();
            move |prev: Option<&Result<u64, CollectionError>>| match link
                .get()
                .and_then(Weak::upgrade)
            {
                Some(inner) => inner.sync(),
                None => prev.cloned().unwrap_or(Ok(0)),
            }
        });
        let site = std::panic::Location::caller();
        let inner = Rc::new(Inner::new(site, head, source, key_of, factory));
        let _ = link.set(Rc::downgrade(&inner));
        Collection { inner }
    }

    /// Sets the collection's label (the name of its node, and the prefix of every row's name: `items[apple]`), and
    /// returns it. Label it before anything reads it: rows already made keep their names.
    pub fn labelled(self, label: &str) -> Self {
        self.inner.set_name(label);
        self
    }

    /// How many rows the collection holds, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn len(&self) -> usize {
        self.inner.read(|state| state.slots.len())
    }

    /// Whether the collection holds no row, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The keys in list order, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn keys(&self) -> Vec<K> {
        self.inner
            .read(|state| state.slots.iter().map(|slot| slot.key.clone()).collect())
    }

    /// The items in list order, tracked (an exposed collection publishes them with their keys).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![2, 1]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// assert_eq!(rows.items(), [2, 1]);
    /// ```
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn items(&self) -> Vec<T> {
        self.inner.read(|state| {
            state
                .slots
                .iter()
                .map(|slot| slot.item.with_unrecorded(T::clone))
                .collect()
        })
    }

    /// What the factory made for each row, in list order, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn rows(&self) -> Vec<R>
    where
        R: Clone,
    {
        self.inner.read(|state| state.outs.clone())
    }

    /// What the factory made for the row of `key`, tracked (`None` if no row has that key).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn row(&self, key: &K) -> Option<R>
    where
        R: Clone,
    {
        self.inner
            .read(|state| state.index.get(key).map(|&i| state.outs[i].clone()))
    }

    /// Calls `f` with the key, item and factory output of every row, in list order, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn for_each(&self, mut f: impl FnMut(&K, &T, &R)) {
        self.inner.read(|state| {
            for (slot, out) in state.slots.iter().zip(&state.outs) {
                slot.item.with_unrecorded(|item| f(&slot.key, item, out));
            }
        });
    }

    /// Why the collection refused the source's current list, tracked; `None` when it follows it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::{Collection, CollectionError};
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec!["a", "b", "a"]);
    /// let rows = Collection::keyed(list.clone(), |s: &&str| *s, |_| ()).labelled("letters");
    /// assert_eq!(
    ///     rows.error(),
    ///     Some(CollectionError::DuplicateKey { collection: "letters".into(), key: "a".into(), first: 0, second: 2 })
    /// );
    /// list.set(vec!["a", "b"]);
    /// assert_eq!(rows.error(), None);
    /// ```
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn error(&self) -> Option<CollectionError> {
        self.inner.keep();
        self.inner.head.with(|result| result.clone().err())
    }

    /// Disposes the collection: every row's scope (cleanups last registered first, then its nodes), and the
    /// collection's node. Views over it keep their last values. Disposing twice does nothing.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        self.inner.dispose();
    }

    /// The id of the collection's node.
    pub fn id(&self) -> NodeId {
        self.inner.head.id()
    }

    // ---- views ----

    /// The sum of `f(item)` over the rows: O(1) per changed row (the old figure out, the new one in).
    ///
    /// With floating-point figures the running sum can drift from a fresh sum by rounding; use integers (cents) where
    /// that matters.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![("a", 2), ("b", 5)]);
    /// let rows = Collection::keyed(list.clone(), |item: &(&str, i32)| item.0, |_| ());
    /// let total = rows.sum_by(|item| item.1);
    /// assert_eq!(total.get(), 7);
    /// list.update(|list| list[1].1 = 1);
    /// assert_eq!(total.get(), 3);
    /// ```
    #[track_caller]
    pub fn sum_by<N>(&self, f: impl Fn(&T) -> N + 'static) -> Memo<N>
    where
        N: Copy
            + Default
            + PartialEq
            + fmt::Debug
            + std::ops::Add<Output = N>
            + std::ops::Sub<Output = N>
            + 'static,
    {
        views::build(
            &self.inner,
            views::Sum {
                f,
                acc: N::default(),
            },
            N::eq,
        )
    }

    /// How many rows' items satisfy `pred`: O(1) per changed row.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![1, 2, 3, 4]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// let even = rows.count_by(|n| n % 2 == 0);
    /// assert_eq!(even.get(), 2);
    /// list.set(vec![1, 2, 3, 4, 6]);
    /// assert_eq!(even.get(), 3);
    /// ```
    #[track_caller]
    pub fn count_by(&self, pred: impl Fn(&T) -> bool + 'static) -> Memo<usize> {
        views::build(&self.inner, views::Count { pred, count: 0 }, usize::eq)
    }

    /// Whether some row's item satisfies `pred`: O(1) per changed row (it keeps the count).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![1, 3]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// let any_even = rows.exists(|n| n % 2 == 0);
    /// assert!(!any_even.get());
    /// list.set(vec![1, 3, 4]);
    /// assert!(any_even.get());
    /// ```
    #[track_caller]
    pub fn exists(&self, pred: impl Fn(&T) -> bool + 'static) -> Memo<bool> {
        views::build(
            &self.inner,
            views::Counted {
                count: views::Count { pred, count: 0 },
                out: |count| count > 0,
            },
            bool::eq,
        )
    }

    /// Whether every row's item satisfies `pred` (true for no rows): O(1) per changed row (it counts the others).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![2, 4]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// let all_even = rows.for_all(|n| n % 2 == 0);
    /// assert!(all_even.get());
    /// list.set(vec![2, 4, 5]);
    /// assert!(!all_even.get());
    /// ```
    #[track_caller]
    pub fn for_all(&self, pred: impl Fn(&T) -> bool + 'static) -> Memo<bool> {
        views::build(
            &self.inner,
            views::Counted {
                count: views::Count {
                    pred: move |item: &T| !pred(item),
                    count: 0,
                },
                out: |count| count == 0,
            },
            bool::eq,
        )
    }

    /// A fold over the rows kept up to date by its step and that step's inverse: `add(acc, item)` for a row that came
    /// (or an item's new value), `remove(acc, item)` for one that went (or an item's old value). O(1) per changed row.
    /// The order of the rows plays no part, so the fold must not depend on it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// // The product of non-zero figures, kept with its inverse (division).
    /// let list = Signal::new(vec![2_i64, 3]);
    /// let rows = Collection::keyed(list.clone(), |n: &i64| *n, |_| ());
    /// let product = rows.fold(1_i64, |acc, n| *acc *= n, |acc, n| *acc /= n);
    /// assert_eq!(product.get(), 6);
    /// list.set(vec![3, 5]);
    /// assert_eq!(product.get(), 15);
    /// ```
    #[track_caller]
    pub fn fold<A>(
        &self,
        init: A,
        add: impl Fn(&mut A, &T) + 'static,
        remove: impl Fn(&mut A, &T) + 'static,
    ) -> Memo<A>
    where
        A: Clone + PartialEq + fmt::Debug + 'static,
    {
        views::build(
            &self.inner,
            views::Fold {
                acc: init.clone(),
                init,
                add,
                remove,
            },
            A::eq,
        )
    }

    /// The rows whose items satisfy `pred`: their count (O(1) per changed row) and their keys in list order (rebuilt
    /// in O(n) only when a row enters or leaves the filter, or the order moves; otherwise the same `Rc`, which wakes
    /// nothing).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![("a", 1), ("b", 7), ("c", 9)]);
    /// let rows = Collection::keyed(list.clone(), |item: &(&str, i32)| item.0, |_| ());
    /// let big = rows.filter(|item| item.1 > 5);
    /// assert_eq!(big.count().get(), 2);
    /// assert_eq!(&*big.keys().get(), ["b", "c"]);
    /// ```
    #[track_caller]
    pub fn filter(&self, pred: impl Fn(&T) -> bool + 'static) -> Filter<K> {
        let pred = Rc::new(pred);
        let count = {
            let pred = pred.clone();
            views::build(
                &self.inner,
                views::Count {
                    pred: move |item: &T| pred(item),
                    count: 0,
                },
                usize::eq,
            )
        };
        let keys = views::build(
            &self.inner,
            views::FilterKeys {
                pred: move |item: &T| pred(item),
                moved: true,
            },
            Rc::ptr_eq,
        );
        Filter { count, keys }
    }

    /// `f(item)` for every row, in list order. `f` runs only for rows added or changed; publishing the new list is
    /// O(n) (a clone of each figure).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![1, 2]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// let squares = rows.map(|n| n * n);
    /// assert_eq!(&*squares.get(), [1, 4]);
    /// ```
    #[track_caller]
    pub fn map<U>(&self, f: impl Fn(&T) -> U + 'static) -> Memo<Rc<[U]>>
    where
        U: Clone + fmt::Debug + 'static,
    {
        views::build(
            &self.inner,
            views::Map {
                f,
                cache: Default::default(),
                moved: true,
            },
            Rc::ptr_eq,
        )
    }

    /// The keys ordered by `f(item)` (ties by key): O(log n) per changed row to keep the order, and O(n) to publish
    /// it, only when it moved.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![("a", 3), ("b", 1), ("c", 2)]);
    /// let rows = Collection::keyed(list.clone(), |item: &(&str, i32)| item.0, |_| ());
    /// let by_figure = rows.sort_by(|item| item.1);
    /// assert_eq!(&*by_figure.get(), ["b", "c", "a"]);
    /// list.update(|list| list[0].1 = 0);
    /// assert_eq!(&*by_figure.get(), ["a", "b", "c"]);
    /// ```
    #[track_caller]
    pub fn sort_by<S>(&self, f: impl Fn(&T) -> S + 'static) -> Memo<Rc<[K]>>
    where
        S: Ord + Clone + 'static,
        K: Ord,
    {
        views::build(
            &self.inner,
            views::SortBy {
                f,
                order: Default::default(),
                moved: true,
            },
            Rc::ptr_eq,
        )
    }

    /// The first `n` keys in list order: nothing to do when only items change; O(n) when the order moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![5, 6, 7]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// assert_eq!(&*rows.take(2).get(), [5, 6]);
    /// ```
    #[track_caller]
    pub fn take(&self, n: usize) -> Memo<Rc<[K]>> {
        views::build(
            &self.inner,
            views::Window {
                skip: 0,
                take: n,
                moved: true,
            },
            Rc::ptr_eq,
        )
    }

    /// The keys in list order after the first `n`: nothing to do when only items change; O(n) when the order moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![5, 6, 7]);
    /// let rows = Collection::keyed(list.clone(), |n: &i32| *n, |_| ());
    /// assert_eq!(&*rows.skip(2).get(), [7]);
    /// ```
    #[track_caller]
    pub fn skip(&self, n: usize) -> Memo<Rc<[K]>> {
        views::build(
            &self.inner,
            views::Window {
                skip: n,
                take: usize::MAX,
                moved: true,
            },
            Rc::ptr_eq,
        )
    }

    /// How many rows fall in each group `f(item)` (groups with no row are left out): O(log g) per changed row for g
    /// groups, and O(g) to publish the counts, only when one moved.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::Signal;
    ///
    /// let list = Signal::new(vec![("a", "fruit"), ("b", "nut"), ("c", "fruit")]);
    /// let rows = Collection::keyed(list.clone(), |item: &(&str, &str)| item.0, |_| ());
    /// let kinds = rows.group_by(|item| item.1);
    /// assert_eq!(kinds.get().get("fruit"), Some(&2));
    /// list.update(|list| list[0].1 = "nut");
    /// assert_eq!(kinds.get().get("nut"), Some(&2));
    /// ```
    #[track_caller]
    pub fn group_by<G>(&self, f: impl Fn(&T) -> G + 'static) -> Memo<Rc<BTreeMap<G, usize>>>
    where
        G: Ord + Clone + fmt::Debug + 'static,
    {
        views::build(
            &self.inner,
            views::GroupBy {
                f,
                counts: Rc::new(BTreeMap::new()),
                moved: true,
            },
            Rc::ptr_eq,
        )
    }
}

impl<T, R> Collection<usize, T, R>
where
    T: Clone + PartialEq + fmt::Debug + 'static,
    R: 'static,
{
    /// A collection following `source` with one row per position, for lists whose items have no key: the row at each
    /// position is reused and its item written in place; a longer list adds rows at the end, a shorter one disposes
    /// the last ones.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::collection::Collection;
    /// use ranvier::{Memo, Signal};
    ///
    /// let words = Signal::new(vec!["a", "bb"]);
    /// let rows = Collection::indexed(words.clone(), |row| {
    ///     let row = row.clone();
    ///     Memo::new(move |_| row.with(|word| word.len()))
    /// });
    /// let first = rows.row(&0).unwrap();
    /// words.set(vec!["ccc", "bb", "d"]);
    /// assert_eq!(first.get(), 3); // the same row, its item written in place
    /// assert_eq!(rows.len(), 3);
    /// ```
    #[track_caller]
    pub fn indexed(
        source: impl ListSource<T>,
        factory: impl Fn(&Row<usize, T>) -> R + 'static,
    ) -> Self {
        Self::build(
            Source::List(Box::new(source)),
            Box::new(|index, _| index),
            Box::new(factory),
        )
    }
}

impl<K, T, R> AnyNode for Collection<K, T, R> {
    fn node_id(&self) -> NodeId {
        self.inner.head.id()
    }
}

impl<K, T, R> fmt::Debug for Collection<K, T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Collection")
            .field("id", &self.inner.head.id())
            .field("name", &self.inner.name())
            .finish()
    }
}
