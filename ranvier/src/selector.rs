//! Selectors: "is this key the selected one?" for many rows, where moving the selection wakes only two of them.
//!
//! A row that reads `selected == my_key` from one shared selection re-runs whenever the selection moves, so moving
//! it among 10,000 rows re-runs 10,000 of them. A [`Selector`] (Solid's `createSelector`) keeps one flag per key a
//! row asked about; moving the selection from `a` to `b` writes `a`'s flag false and `b`'s true, and only the rows
//! that read those two flags re-run.
//!
//! The selector is a memo over its source that keeps its value: rows that ask it are its readers, but it never wakes
//! them itself, so a row re-runs only when its own flag moves. It keeps a flag for every key ever asked about (a
//! signal and a map entry each, under 200 bytes); keys no row asks about any more keep theirs until the selector is
//! dropped.
//!
//! # Examples
//!
//! ```
//! use ranvier::{Effect, Selector, Signal};
//! use std::{cell::Cell, rc::Rc};
//!
//! let selected = Signal::new(Some(1));
//! let selector = Selector::new(selected.clone());
//! let runs = Rc::new(Cell::new(0));
//! let _rows: Vec<Effect> = (0..100)
//!     .map(|key| {
//!         let (selector, runs) = (selector.clone(), runs.clone());
//!         Effect::new(move || {
//!             selector.is_selected(&key);
//!             runs.set(runs.get() + 1);
//!         })
//!     })
//!     .collect();
//! runs.set(0);
//! selected.set(Some(42));
//! assert_eq!(runs.get(), 2); // row 1 (deselected) and row 42 (selected)
//! ```

use crate::graph::{AnyNode, NodeId};
use crate::{Memo, Signal};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::rc::Rc;

/// "Is this key selected?", waking only the rows whose answer changed. See the [module docs](self).
///
/// Cheap to clone; `!Send`.
///
/// # Examples
///
/// ```
/// use ranvier::{Memo, Selector, Signal};
///
/// let current = Signal::new(None::<&str>);
/// let selector = Selector::new(current.clone());
/// let apple = Memo::new({ let s = selector.clone(); move |_| s.is_selected(&"apple") });
/// assert!(!apple.get());
/// current.set(Some("apple"));
/// assert!(apple.get());
/// ```
pub struct Selector<K: 'static> {
    inner: Rc<Inner<K>>,
}

impl<K> Clone for Selector<K> {
    fn clone(&self) -> Self {
        Selector {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<K: 'static> {
    /// Reads the source and moves the two flags; its value never changes, so it wakes no reader.
    head: Memo<()>,
    state: Rc<RefCell<State<K>>>,
}

struct State<K: 'static> {
    current: Option<K>,
    /// The selector's label, the prefix of its flags' labels.
    name: Option<Rc<str>>,
    flags: HashMap<K, Signal<bool>>,
}

/// What a [`Selector`] follows: a [`Signal`] or [`Memo`] of `Option<K>` (`None`: nothing selected).
pub trait SelectionSource<K>: 'static {
    /// The selected key, read tracked.
    fn selected(&self) -> Option<K>;
}

impl<K: Clone + fmt::Debug + 'static> SelectionSource<K> for Signal<Option<K>> {
    fn selected(&self) -> Option<K> {
        self.get()
    }
}

impl<K: Clone + fmt::Debug + 'static> SelectionSource<K> for Memo<Option<K>> {
    fn selected(&self) -> Option<K> {
        self.get()
    }
}

impl<K: Eq + Hash + Clone + fmt::Debug + 'static> Selector<K> {
    /// A selector following `source`.
    #[track_caller]
    pub fn new(source: impl SelectionSource<K>) -> Self {
        let state = Rc::new(RefCell::new(State {
            current: None,
            name: None,
            flags: HashMap::new(),
        }));
        let head = Memo::build(
            {
                let state = state.clone();
                move |_| {
                    let next = source.selected();
                    let (old, new) = {
                        let mut state = state.borrow_mut();
                        if state.current == next {
                            return;
                        }
                        let old = std::mem::replace(&mut state.current, next.clone());
                        let flag =
                            |key: Option<K>| key.and_then(|key| state.flags.get(&key).cloned());
                        (flag(old), flag(next))
                    };
                    if let Some(old) = old {
                        old.set(false);
                    }
                    if let Some(new) = new {
                        new.set(true);
                    }
                }
            },
            |_, _| true,
        );
        Selector {
            inner: Rc::new(Inner { head, state }),
        }
    }

    /// Sets the label of the selector's node (its flags are labelled `label[key]` in traced builds), and returns it.
    pub fn labelled(self, label: &str) -> Self {
        let _ = self.inner.head.clone().labelled(label);
        self.inner.state.borrow_mut().name = Some(Rc::from(label));
        self
    }

    /// Whether `key` is the selected key, tracked: the running memo or effect re-runs when the answer for `key`
    /// changes, and not when the selection moves between two other keys.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn is_selected(&self, key: &K) -> bool {
        self.inner.head.with(|_| ());
        let flag = {
            let mut state = self.inner.state.borrow_mut();
            match state.flags.get(key) {
                Some(flag) => flag.clone(),
                None => {
                    let selected = state.current.as_ref() == Some(key);
                    let flag = new_flag(state.name.as_deref(), key, selected);
                    state.flags.insert(key.clone(), flag.clone());
                    flag
                }
            }
        };
        flag.with_at(crate::graph::call_site(), |selected| *selected)
    }

    /// The id of the selector's node.
    pub fn id(&self) -> NodeId {
        self.inner.head.id()
    }
}

/// A key's flag, labelled `name[key]` in traced builds.
fn new_flag<K: fmt::Debug>(name: Option<&str>, key: &K, selected: bool) -> Signal<bool> {
    let flag = Signal::new(selected);
    match name {
        Some(name) if crate::graph::record::TRACED => {
            flag.labelled(&format!("{name}[{}]", crate::collection::key_text(key)))
        }
        _ => flag,
    }
}

impl<K> AnyNode for Selector<K> {
    fn node_id(&self) -> NodeId {
        self.inner.head.id()
    }
}

impl<K: fmt::Debug> fmt::Debug for Selector<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selector")
            .field("id", &self.inner.head.id())
            .field("selected", &self.inner.state.borrow().current)
            .finish()
    }
}
