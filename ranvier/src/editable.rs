//! Values being edited: a derived *seed* the value starts from, an edit laid over it, a dirty flag, commit and revert.
//!
//! A form field shows a value derived from the model (the seed) until the user types; then it shows the edit, and
//! knows it is dirty, until the edit is committed (written back where the seed comes from) or reverted. Two kinds
//! differ in what a change of the seed does to an edit in progress (F# Ranvier's `createEditable` and
//! `createDraft`):
//!
//! - An [`Editable`] drops its edit when the seed publishes a new value: the upstream change wins, and the value is
//!   the seed's again. "Publishes" means the seed re-ran, because something read the editable, to a value unequal to
//!   the last one it was seen with: a seed that moves and comes back (`A → B → A`) before anything reads it keeps the
//!   edit, and inside a [`batch`] nothing is read between the two writes. This follows F#.
//! - A [`Draft`] keeps its edit whatever the seed does, until [`commit`](Draft::commit) or [`revert`](Draft::revert);
//!   [`seed`](Draft::seed) still follows upstream, so a form can show "changed upstream since you started".
//!
//! How it differs from a plain [`Signal`]: a signal has one value and forgets where it came from. Here the value is
//! *the seed unless edited*: reverting needs no copy of the original, the dirty flag is a node readers can track,
//! and the seed keeps following its sources while the edit is in force.
//!
//! Each is one signal (the edit) and three memos (the seed, the value, the dirty flag), made where it is created and
//! owned like any memo; the value memo is the node `#[node]` labels and the trace names. A seed that panics fails the
//! value while no edit is in force; an edit in force is still read.

use crate::graph::{AnyNode, NodeId};
use crate::{Memo, Signal, batch, untrack};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// An edit and the seed generation it was made against.
#[derive(Clone, Debug, PartialEq)]
struct Edit<T> {
    value: T,
    generation: u64,
}

/// What an [`Editable`] or a [`Draft`] holds: its value and whether an edit is in force. An exposed one is
/// published as `{"value": …, "dirty": true}`.
#[derive(Clone, Debug, PartialEq)]
pub struct EditState<T> {
    /// The value: the edit if one is in force, else the seed's value.
    pub value: T,
    /// Whether an edit is in force.
    pub dirty: bool,
}

#[cfg(feature = "exposure")]
impl<T: serde::Serialize> serde::Serialize for EditState<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("value", &self.value)?;
        map.serialize_entry("dirty", &self.dirty)?;
        map.end()
    }
}

/// The parts both kinds share.
struct Edited<T: 'static> {
    seed: Memo<T>,
    edit: Signal<Option<Edit<T>>>,
    value: Memo<T>,
    dirty: Memo<bool>,
    seen: Rc<Seen<T>>,
}

impl<T> Clone for Edited<T> {
    fn clone(&self) -> Self {
        Edited {
            seed: self.seed.clone(),
            edit: self.edit.clone(),
            value: self.value.clone(),
            dirty: self.dirty.clone(),
            seen: self.seen.clone(),
        }
    }
}

/// The last seed value seen, and how many times it was seen to change: an edit made at an older generation was made
/// against a seed value that has since been replaced.
struct Seen<T> {
    value: RefCell<Option<T>>,
    generation: Cell<u64>,
    /// A draft's edits never go stale.
    keep: bool,
}

impl<T: Clone + PartialEq> Seen<T> {
    /// Notes the seed's current value; returns the generation it belongs to.
    fn observe(&self, seed: &T) -> u64 {
        let mut seen = self.value.borrow_mut();
        match &*seen {
            Some(last) if last == seed => {}
            Some(_) => {
                self.generation.set(self.generation.get() + 1);
                *seen = Some(seed.clone());
            }
            None => *seen = Some(seed.clone()),
        }
        self.generation.get()
    }

    /// Notes the seed's current value, if it has one (a failed seed leaves the generation as it is).
    fn observe_seed(&self, seed: &Memo<T>) -> u64
    where
        T: fmt::Debug,
    {
        match seed.try_get() {
            Ok(value) => self.observe(&value),
            Err(_) => self.generation.get(),
        }
    }

    fn in_force(&self, edit: &Edit<T>, generation: u64) -> bool {
        self.keep || edit.generation == generation
    }
}

impl<T: Clone + PartialEq + fmt::Debug + 'static> Edited<T> {
    #[track_caller]
    fn new(seed: impl FnMut(Option<&T>) -> T + 'static, keep: bool) -> Self {
        let seen = Rc::new(Seen {
            value: RefCell::new(None),
            generation: Cell::new(0),
            keep,
        });
        let seed = Memo::new(seed);
        let edit: Signal<Option<Edit<T>>> = Signal::new(None);
        let value = Memo::new({
            let (seed, edit, seen) = (seed.clone(), edit.clone(), seen.clone());
            move |_| {
                let current = seed.try_get();
                let generation = match &current {
                    Ok(value) => seen.observe(value),
                    Err(_) => seen.generation.get(),
                };
                let edited = edit.with(|e| match e {
                    Some(e) if seen.in_force(e, generation) => Some(e.value.clone()),
                    _ => None,
                });
                match (edited, current) {
                    (Some(value), _) | (None, Ok(value)) => value,
                    (None, Err(failure)) => panic!("{failure}"),
                }
            }
        });
        let dirty = Memo::new({
            let (seed, edit, seen) = (seed.clone(), edit.clone(), seen.clone());
            move |_| {
                let generation = seen.observe_seed(&seed);
                edit.with(|e| e.as_ref().is_some_and(|e| seen.in_force(e, generation)))
            }
        });
        Edited {
            seed,
            edit,
            value,
            dirty,
            seen,
        }
    }

    fn labelled(self, label: &str) -> Self {
        Edited {
            seed: self.seed.labelled(&format!("{label}.seed")),
            edit: self.edit.labelled(&format!("{label}.edit")),
            value: self.value.labelled(label),
            dirty: self.dirty.labelled(&format!("{label}.dirty")),
            seen: self.seen,
        }
    }

    #[track_caller]
    fn set(&self, value: T) {
        // Against the seed as it is now, even if nothing has read it since it moved.
        let generation = untrack(|| self.seen.observe_seed(&self.seed));
        self.edit.set(Some(Edit { value, generation }));
    }

    #[track_caller]
    fn update(&self, f: impl FnOnce(&mut T)) {
        let mut value = untrack(|| self.value.get());
        f(&mut value);
        self.set(value);
    }

    #[track_caller]
    fn revert(&self) {
        self.edit.set(None);
    }

    #[track_caller]
    fn commit(&self, write: impl FnOnce(T)) -> bool {
        batch(|| {
            let edited = untrack(|| self.dirty.get()).then(|| untrack(|| self.value.get()));
            self.edit.set(None);
            match edited {
                Some(value) => {
                    write(value);
                    true
                }
                None => false,
            }
        })
    }

    fn dispose(&self) {
        self.dirty.dispose();
        self.value.dispose();
        self.seed.dispose();
    }
}

/// The methods [`Editable`] and [`Draft`] share, with their docs.
macro_rules! edited_methods {
    ($kind:ident) => {
        impl<T: Clone + PartialEq + fmt::Debug + 'static> $kind<T> {
            /// Sets the label of the value node, the name the trace and the MCP tools give it, and `NAME.seed`,
            /// `NAME.edit` and `NAME.dirty` for its parts; returns it.
            pub fn labelled(self, label: &str) -> Self {
                $kind(self.0.labelled(label))
            }

            /// The value (the edit if one is in force, else the seed's value), tracked.
            ///
            /// # Panics
            ///
            /// If no edit is in force and the seed's function panicked (see [`Memo::get`]).
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn get(&self) -> T {
                self.0.value.get()
            }

            /// Calls `f` with the value, tracked.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
                self.0.value.with(f)
            }

            /// The value and the dirty flag together, tracked: what an exposure publishes.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn state(&self) -> EditState<T> {
                EditState {
                    value: self.0.value.get(),
                    dirty: self.0.dirty.get(),
                }
            }

            /// The seed's value, tracked: what the value is when nothing is edited.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn seed(&self) -> T {
                self.0.seed.get()
            }

            /// Whether an edit is in force, tracked: readers wake when it is made, committed, reverted or dropped.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn is_dirty(&self) -> bool {
                self.0.dirty.get()
            }

            /// Edits the value. An edit equal to the one in force does nothing.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn set(&self, value: T) {
                self.0.set(value);
            }

            /// Edits the value in place: `f` gets a copy of the current value (the edit, or the seed's value).
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn update(&self, f: impl FnOnce(&mut T)) {
                self.0.update(f);
            }

            /// Drops the edit: the value is the seed's again.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn revert(&self) {
                self.0.revert();
            }

            /// Commits the edit: calls `write` with it and drops it, in one [`batch`], so readers never see the old
            /// seed between the two. `write` puts the value where the seed reads it (a signal, an `Mvu` dispatch).
            /// Returns whether there was an edit; without one, `write` is not called.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn commit(&self, write: impl FnOnce(T)) -> bool {
                self.0.commit(write)
            }

            /// The value node: a [`Memo`] of the edit or the seed's value.
            pub fn value_memo(&self) -> &Memo<T> {
                &self.0.value
            }

            /// Disposes its memos: they keep their last values and stop tracking.
            pub fn dispose(&self) {
                self.0.dispose();
            }

            /// The value node's id.
            pub fn id(&self) -> NodeId {
                self.0.value.id()
            }
        }

        impl<T> Clone for $kind<T> {
            fn clone(&self) -> Self {
                $kind(self.0.clone())
            }
        }

        impl<T: 'static> AnyNode for $kind<T> {
            fn node_id(&self) -> NodeId {
                self.0.value.node_id()
            }
        }

        impl<T: Clone + PartialEq + fmt::Debug + 'static> fmt::Debug for $kind<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($kind))
                    .field("id", &self.0.value.id())
                    .field("value", &self.0.value.peek())
                    .field("dirty", &self.0.dirty.peek())
                    .finish()
            }
        }
    };
}

/// A value edited over a seed; an edit is dropped when the seed publishes a new value. See the [module
/// docs](self).
///
/// Cheap to clone (all clones are the same editable); `!Send`.
///
/// # Examples
///
/// ```
/// use ranvier::{Editable, Signal};
///
/// let saved_name = Signal::new("Ada".to_string());
/// let field = Editable::new({ let s = saved_name.clone(); move |_| s.get() });
/// field.set("Ada L".to_string());
/// assert_eq!((field.get(), field.is_dirty()), ("Ada L".to_string(), true));
///
/// saved_name.set("Grace".to_string()); // upstream wins: the edit is dropped
/// assert_eq!((field.get(), field.is_dirty()), ("Grace".to_string(), false));
///
/// field.set("Grace H".to_string());
/// assert!(field.commit(|name| saved_name.set(name)));
/// assert_eq!((field.get(), field.is_dirty()), ("Grace H".to_string(), false));
/// ```
pub struct Editable<T: 'static>(Edited<T>);

impl<T: Clone + PartialEq + fmt::Debug + 'static> Editable<T> {
    /// Creates an editable whose seed is `seed`, a memo's function (it gets the seed's previous value, never an
    /// edit).
    #[track_caller]
    pub fn new(seed: impl FnMut(Option<&T>) -> T + 'static) -> Self {
        Editable(Edited::new(seed, false))
    }
}

edited_methods!(Editable);

/// A value edited over a seed; the edit stays until it is committed or reverted, whatever the seed does. See the
/// [module docs](self).
///
/// Cheap to clone (all clones are the same draft); `!Send`.
///
/// # Examples
///
/// ```
/// use ranvier::{Draft, Signal};
///
/// let saved = Signal::new(10);
/// let quantity = Draft::new({ let s = saved.clone(); move |_| s.get() });
/// quantity.set(12);
/// saved.set(11); // someone else saved meanwhile: the draft keeps the edit
/// assert_eq!((quantity.get(), quantity.seed(), quantity.is_dirty()), (12, 11, true));
/// quantity.revert();
/// assert_eq!((quantity.get(), quantity.is_dirty()), (11, false));
/// ```
pub struct Draft<T: 'static>(Edited<T>);

impl<T: Clone + PartialEq + fmt::Debug + 'static> Draft<T> {
    /// Creates a draft whose seed is `seed`, a memo's function (it gets the seed's previous value, never an edit).
    #[track_caller]
    pub fn new(seed: impl FnMut(Option<&T>) -> T + 'static) -> Self {
        Draft(Edited::new(seed, true))
    }
}

edited_methods!(Draft);
