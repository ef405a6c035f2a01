//! A collection's state and how it follows its source: the rows in list order, the diff of a new list against them
//! (reuse by key, in-place writes, disposal), the changes handed to views, and the names of row nodes.

use super::changes::{Batch, Change, Queue};
use super::{CollectionError, ListSource, Row};
use crate::graph::record::TRACED;
use crate::owner::create_child;
use crate::{Effect, Memo, Scope, Signal, create_root, on_cleanup};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::hash::Hash;
use std::rc::{Rc, Weak};

/// A row's key from its position and item.
pub(crate) type KeyFn<K, T> = Box<dyn Fn(usize, &T) -> K>;
/// What a collection makes for each row.
pub(crate) type Factory<K, T, R> = Box<dyn Fn(&Row<K, T>) -> R>;

/// Where a collection's list comes from.
pub(crate) enum Source<T: 'static> {
    /// A signal or memo, read (tracked) by the collection's node.
    List(Box<dyn ListSource<T>>),
    /// The collection holds its list and is written through its methods; the signal moves to the new version after
    /// each write, which wakes the collection's node.
    Owned(Signal<u64>),
}

/// One row: its key, the signal holding its item, and the scope owning what its factory made.
pub(crate) struct Slot<K, T: 'static> {
    pub key: K,
    pub item: Signal<T>,
    pub scope: Scope,
}

/// The rows in list order.
pub(crate) struct State<K, T: 'static, R> {
    pub slots: Vec<Slot<K, T>>,
    /// What the factory made, parallel to `slots`.
    pub outs: Vec<R>,
    /// Each key's position in `slots`.
    pub index: HashMap<K, usize>,
    /// Moves by one for every list applied that changed something.
    pub version: u64,
}

pub(crate) struct Inner<K: 'static, T: 'static, R: 'static> {
    /// The collection's node: reading it applies the source's current list; its value is the version, or why the
    /// list was refused.
    pub head: Memo<Result<u64, CollectionError>>,
    pub state: RefCell<State<K, T, R>>,
    /// Owns every row's scope.
    pub scope: Scope,
    source: Source<T>,
    key_of: KeyFn<K, T>,
    factory: Factory<K, T, R>,
    name: RefCell<Option<Rc<str>>>,
    /// The views following this collection, each with the changes it has not read yet.
    views: RefCell<Vec<Weak<Queue<K, T>>>>,
    /// The first list of a collection that holds its list, until its first read or write.
    initial: RefCell<Option<Vec<T>>>,
    /// Whether the effect that keeps the collection current exists (see [`Inner::keep`]).
    kept: Cell<bool>,
    disposed: Cell<bool>,
    /// Where the collection was made: the line its rows' item signals record as theirs, and (traced builds) where
    /// the collection writes a changed item.
    site: &'static std::panic::Location<'static>,
}

impl<K, T, R> Inner<K, T, R> {
    /// The collection's name: its label, else `collection`.
    pub fn name(&self) -> Rc<str> {
        self.name
            .borrow()
            .clone()
            .unwrap_or_else(|| Rc::from("collection"))
    }

    pub fn set_name(&self, label: &str) {
        *self.name.borrow_mut() = Some(Rc::from(label));
        let _ = self.head.clone().labelled(label);
    }
}

impl<K, T, R> Inner<K, T, R>
where
    K: Eq + Hash + Clone + fmt::Debug + 'static,
    T: Clone + PartialEq + fmt::Debug + 'static,
    R: 'static,
{
    pub fn new(
        site: &'static std::panic::Location<'static>,
        head: Memo<Result<u64, CollectionError>>,
        source: Source<T>,
        key_of: KeyFn<K, T>,
        factory: Factory<K, T, R>,
    ) -> Self {
        // The rows' scope hangs off the current scope (or the root); made inside a running memo or effect, it goes
        // when that run's nodes go.
        let ((), scope) = create_root(|_| {});
        if crate::graph::with_runtime(|rt| rt.running().is_some()) {
            let scope = scope.clone();
            on_cleanup(move || scope.dispose());
        }
        Inner {
            head,
            state: RefCell::new(State {
                slots: Vec::new(),
                outs: Vec::new(),
                index: HashMap::new(),
                version: 0,
            }),
            scope,
            source,
            key_of,
            factory,
            name: RefCell::new(None),
            views: RefCell::new(Vec::new()),
            initial: RefCell::new(None),
            kept: Cell::new(false),
            disposed: Cell::new(false),
            site,
        }
    }

    /// From the first read on, an effect (owned by the collection) keeps the collection's node current, so that a
    /// write to the source reaches the rows in that write's flush: a row's memo read right after the write sees its
    /// new item, though it does not read the collection itself. Before the first read nothing runs, and the
    /// collection can still be labelled.
    ///
    /// A collection that holds its list needs none: its writes reach the rows as they are made.
    pub fn keep(self: &Rc<Self>) {
        if self.kept.replace(true) || self.disposed.get() || matches!(self.source, Source::Owned(_))
        {
            return;
        }
        let head = self.head.clone();
        let label = TRACED.then(|| format!("{}/current", self.name()));
        create_child(&self.scope, move || {
            let keeper = Effect::new(move || head.with(|_| ()));
            if let Some(label) = label {
                let _ = keeper.labelled(&label);
            }
        });
    }

    /// Brings the collection up to date (tracked by the running computation) and calls `f` with its rows.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn read<U>(self: &Rc<Self>, f: impl FnOnce(&State<K, T, R>) -> U) -> U {
        self.keep();
        self.head.with(|_| ());
        f(&self.state.borrow())
    }

    /// Registers a view's queue: it receives every change from now on.
    pub fn follow(&self, queue: &Rc<Queue<K, T>>) {
        self.views.borrow_mut().push(Rc::downgrade(queue));
    }

    /// The body of the collection's node: applies the source's list.
    pub fn sync(&self) -> Result<u64, CollectionError> {
        if self.disposed.get() {
            return Ok(self.state.borrow().version);
        }
        match &self.source {
            Source::List(list) => {
                let mut result = None;
                list.with_list(&mut |items| result = Some(self.apply(items)));
                result.unwrap_or_else(|| Ok(self.state.borrow().version))
            }
            Source::Owned(tick) => {
                self.apply_initial();
                tick.get();
                Ok(self.state.borrow().version)
            }
        }
    }

    /// Makes the first rows of a collection that holds its list: on its first read or write, so that a label given
    /// after [`Collection::new`](super::Collection::new) names them.
    fn apply_initial(&self) {
        let initial = self.initial.borrow_mut().take();
        if let Some(items) = initial {
            // The keys were checked by `new`.
            let _ = self.apply(&items);
        }
    }

    /// Holds `items` as the first list of a collection that holds its list, made on first use.
    ///
    /// # Errors
    ///
    /// [`CollectionError::DuplicateKey`] if `items` holds a key twice.
    pub fn set_initial(&self, items: Vec<T>) -> Result<(), CollectionError> {
        let mut seen = HashMap::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let key = (self.key_of)(i, item);
            if let Some(first) = seen.insert(key.clone(), i) {
                return Err(self.duplicate(&key, first, i));
            }
        }
        *self.initial.borrow_mut() = Some(items);
        Ok(())
    }

    /// The version signal of a collection that holds its list, or the error saying it follows a source.
    fn owned_tick(&self) -> Result<&Signal<u64>, CollectionError> {
        match &self.source {
            Source::Owned(tick) => Ok(tick),
            Source::List(_) => Err(CollectionError::FollowsSource {
                collection: self.name().to_string(),
            }),
        }
    }

    /// Runs a write of a collection that holds its list, batched so that its rows, its views and the effects over
    /// both move in one flush; then publishes the new version.
    pub fn write<U>(
        &self,
        f: impl FnOnce() -> Result<U, CollectionError>,
    ) -> Result<U, CollectionError> {
        let tick = self.owned_tick()?.clone();
        crate::batch(|| {
            self.apply_initial();
            let result = f();
            tick.set(self.state.borrow().version);
            result
        })
    }

    /// Replaces the list of a collection that holds it (as a new source list would).
    pub fn set_items(&self, items: &[T]) -> Result<(), CollectionError> {
        self.write(|| self.apply(items).map(drop))
    }

    /// Changes the item of `key` in place: O(1) and the changed row's own nodes.
    pub fn update_item(
        &self,
        site: crate::graph::CallSite,
        key: &K,
        f: impl FnOnce(&mut T),
    ) -> Result<(), CollectionError> {
        self.write(|| {
            let (position, signal) = {
                let state = self.state.borrow();
                let Some(&position) = state.index.get(key) else {
                    return Err(CollectionError::UnknownKey {
                        collection: self.name().to_string(),
                        key: key_text(key),
                    });
                };
                (position, state.slots[position].item.clone())
            };
            let old = signal.with_unrecorded(T::clone);
            let mut new = old.clone();
            f(&mut new);
            let new_key = (self.key_of)(position, &new);
            if new_key != *key {
                return Err(CollectionError::KeyChanged {
                    collection: self.name().to_string(),
                    key: key_text(key),
                    new_key: key_text(&new_key),
                });
            }
            if new == old {
                return Ok(());
            }
            signal.set_at(site, new.clone());
            self.publish(
                vec![Change::Changed {
                    key: key.clone(),
                    old,
                    new,
                }],
                false,
            );
            Ok(())
        })
    }

    /// Appends `item` as a new row: O(1), and the new row's factory.
    pub fn push_item(&self, item: T) -> Result<(), CollectionError> {
        self.write(|| {
            let position = self.state.borrow().slots.len();
            let key = (self.key_of)(position, &item);
            if let Some(&first) = self.state.borrow().index.get(&key) {
                return Err(self.duplicate(&key, first, position));
            }
            let (slot, out) = self.make_row(key.clone(), &item)?;
            {
                let mut state = self.state.borrow_mut();
                state.index.insert(key.clone(), position);
                state.slots.push(slot);
                state.outs.push(out);
            }
            self.publish(vec![Change::Added { key, item }], true);
            Ok(())
        })
    }

    /// Removes the row of `key` and disposes it: O(n) (the rows after it move up one place).
    pub fn remove_item(&self, key: &K) -> Result<(), CollectionError> {
        self.write(|| {
            let removed = {
                let mut state = self.state.borrow_mut();
                let Some(position) = state.index.remove(key) else {
                    return Err(CollectionError::UnknownKey {
                        collection: self.name().to_string(),
                        key: key_text(key),
                    });
                };
                let slot = state.slots.remove(position);
                let out = state.outs.remove(position);
                let State { slots, index, .. } = &mut *state;
                for (i, slot) in slots.iter().enumerate().skip(position) {
                    index.insert(slot.key.clone(), i);
                }
                (slot, out)
            };
            let (slot, out) = removed;
            slot.scope.dispose();
            drop(out);
            let item = slot.item.with_unrecorded(T::clone);
            self.publish(
                vec![Change::Removed {
                    key: slot.key,
                    item,
                }],
                true,
            );
            Ok(())
        })
    }

    /// Moves the version on and hands `changes` to every view.
    fn publish(&self, changes: Vec<Change<K, T>>, reordered: bool) -> u64 {
        let (version, rows) = {
            let mut state = self.state.borrow_mut();
            state.version += 1;
            (state.version, state.slots.len())
        };
        let batch = Rc::new(Batch { changes, reordered });
        self.views.borrow_mut().retain(|view| match view.upgrade() {
            Some(queue) => {
                queue.push(&batch, rows);
                true
            }
            None => false,
        });
        version
    }

    /// Applies `items`: reuses the row of every key still there, writes changed items in place, disposes the rows
    /// whose keys left and makes rows for new keys. A list holding a key twice changes nothing.
    fn apply(&self, items: &[T]) -> Result<u64, CollectionError> {
        // The old keys, in order, at the head of the new list: the same list (its items may have changed), or the
        // same list with rows appended, both without hashing a kept key.
        let (old_len, kept_head) = {
            let state = self.state.borrow();
            let old_len = state.slots.len();
            let head = items.len() >= old_len
                && items
                    .iter()
                    .zip(&state.slots)
                    .enumerate()
                    .all(|(i, (item, slot))| (self.key_of)(i, item) == slot.key);
            (old_len, head)
        };
        let same_keys = kept_head && items.len() == old_len;
        let mut changes = Vec::new();
        let mut writes = Vec::new();
        if kept_head {
            for (slot, item) in self.state.borrow().slots.iter().zip(items) {
                if let Some(old) = slot
                    .item
                    .with_unrecorded(|old| (old != item).then(|| old.clone()))
                {
                    changes.push(Change::Changed {
                        key: slot.key.clone(),
                        old,
                        new: item.clone(),
                    });
                    writes.push((slot.item.clone(), item.clone()));
                }
            }
            if !same_keys {
                self.append(&items[old_len..], &mut changes)?;
            }
        } else {
            self.restructure(items, &mut changes, &mut writes)?;
        }
        let reordered = !same_keys;
        if changes.is_empty() && !reordered {
            return Ok(self.state.borrow().version);
        }
        let site = self.write_site();
        for (signal, item) in writes {
            signal.set_at(site, item);
        }
        Ok(self.publish(changes, reordered))
    }

    /// The append path of [`apply`](Self::apply): every old key kept in place, `tail` after them. Hashes the new
    /// keys only (a key already there, or twice in `tail`, refuses the list and changes nothing).
    fn append(&self, tail: &[T], changes: &mut Vec<Change<K, T>>) -> Result<(), CollectionError> {
        let start = self.state.borrow().slots.len();
        let mut keys = Vec::with_capacity(tail.len());
        {
            let mut state = self.state.borrow_mut();
            state.index.reserve(tail.len());
            for (offset, item) in tail.iter().enumerate() {
                let position = start + offset;
                let key = (self.key_of)(position, item);
                // one hash per key: the entry both finds a key already there and keeps a new one
                match state.index.entry(key.clone()) {
                    Entry::Occupied(there) => {
                        let first = *there.get();
                        forget(&mut state.index, &keys);
                        return Err(self.duplicate(&key, first, position));
                    }
                    Entry::Vacant(place) => {
                        place.insert(position);
                    }
                }
                keys.push(key);
            }
        }
        let mut made = Vec::with_capacity(tail.len());
        for (key, item) in keys.iter().zip(tail) {
            match self.make_row(key.clone(), item) {
                Ok(row) => made.push(row),
                Err(error) => {
                    for (slot, _) in made {
                        slot.scope.dispose();
                    }
                    forget(&mut self.state.borrow_mut().index, &keys);
                    return Err(error);
                }
            }
        }
        let mut state = self.state.borrow_mut();
        state.slots.reserve(made.len());
        state.outs.reserve(made.len());
        for ((slot, out), item) in made.into_iter().zip(tail) {
            changes.push(Change::Added {
                key: slot.key.clone(),
                item: item.clone(),
            });
            state.slots.push(slot);
            state.outs.push(out);
        }
        Ok(())
    }

    /// The error for a list holding `key` at `first` and again at `second`.
    fn duplicate(&self, key: &K, first: usize, second: usize) -> CollectionError {
        CollectionError::DuplicateKey {
            collection: self.name().to_string(),
            key: key_text(key),
            first,
            second,
        }
    }

    /// The slow path of [`apply`](Self::apply): the keys moved, came or went.
    fn restructure(
        &self,
        items: &[T],
        changes: &mut Vec<Change<K, T>>,
        writes: &mut Vec<(Signal<T>, T)>,
    ) -> Result<(), CollectionError> {
        let mut index: HashMap<K, usize> = HashMap::with_capacity(items.len());
        let mut keys = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let key = (self.key_of)(i, item);
            if let Some(first) = index.insert(key.clone(), i) {
                return Err(self.duplicate(&key, first, i));
            }
            keys.push(key);
        }
        // Each new key's old position, looked up once: `None` for a key that came.
        let from: Vec<Option<usize>> = {
            let state = self.state.borrow();
            keys.iter()
                .map(|key| state.index.get(key).copied())
                .collect()
        };
        // New rows first, while the old ones are still in place: a factory that panics leaves the collection as it
        // was (the rows made for this list are disposed again, and the list is refused).
        let mut made: Vec<Option<(Slot<K, T>, R)>> = Vec::with_capacity(items.len());
        made.resize_with(items.len(), || None);
        for (i, _) in from.iter().enumerate().filter(|(_, from)| from.is_none()) {
            match self.make_row(keys[i].clone(), &items[i]) {
                Ok(row) => made[i] = Some(row),
                Err(error) => {
                    for (slot, _) in made.into_iter().flatten() {
                        slot.scope.dispose();
                    }
                    return Err(error);
                }
            }
        }
        // Take the rows out while user code runs (cleanups): nothing reads them meanwhile, since reading the
        // collection would be its node reading itself.
        let (old_slots, old_outs) = {
            let mut state = self.state.borrow_mut();
            state.index = HashMap::new();
            (
                std::mem::take(&mut state.slots),
                std::mem::take(&mut state.outs),
            )
        };
        let mut old: Vec<Option<(Slot<K, T>, R)>> =
            old_slots.into_iter().zip(old_outs).map(Some).collect();
        let mut kept = vec![false; old.len()];
        for &position in from.iter().flatten() {
            kept[position] = true;
        }
        // Rows whose keys left: disposed, in list order.
        for (entry, _) in old.iter_mut().zip(&kept).filter(|(_, kept)| !**kept) {
            if let Some((slot, out)) = entry.take() {
                slot.scope.dispose();
                drop(out);
                let item = slot.item.with_unrecorded(T::clone);
                changes.push(Change::Removed {
                    key: slot.key,
                    item,
                });
            }
        }
        let mut slots = Vec::with_capacity(items.len());
        let mut outs = Vec::with_capacity(items.len());
        for (((key, item), fresh), from) in keys.into_iter().zip(items).zip(made).zip(from) {
            match from.and_then(|position| old[position].take()) {
                Some((slot, out)) => {
                    if let Some(old) = slot
                        .item
                        .with_unrecorded(|old| (old != item).then(|| old.clone()))
                    {
                        changes.push(Change::Changed {
                            key: key.clone(),
                            old,
                            new: item.clone(),
                        });
                        writes.push((slot.item.clone(), item.clone()));
                    }
                    slots.push(slot);
                    outs.push(out);
                }
                None => {
                    let (slot, out) = fresh.expect("a row was made for every new key");
                    changes.push(Change::Added {
                        key,
                        item: item.clone(),
                    });
                    slots.push(slot);
                    outs.push(out);
                }
            }
        }
        let mut state = self.state.borrow_mut();
        state.slots = slots;
        state.outs = outs;
        state.index = index;
        Ok(())
    }

    /// Where the collection writes a changed item it took from its source: its own line (traced builds).
    fn write_site(&self) -> crate::graph::CallSite {
        #[cfg(any(debug_assertions, feature = "trace"))]
        return self.site;
        #[cfg(not(any(debug_assertions, feature = "trace")))]
        crate::graph::call_site()
    }

    /// Makes the row of `key`: its item signal, and its factory's output in a scope of its own under the collection's.
    /// A factory that panics is refused: what it made so far is disposed.
    fn make_row(&self, key: K, item: &T) -> Result<(Slot<K, T>, R), CollectionError> {
        let signal = Signal::build_at(item.clone(), T::eq, self.site);
        let row = Row {
            key,
            item: signal.clone(),
        };
        let (out, scope) = create_child(&self.scope, || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.factory)(&row)))
        });
        let out = match out {
            Ok(out) => out,
            Err(payload) => {
                scope.dispose();
                return Err(CollectionError::FactoryPanicked {
                    collection: self.name().to_string(),
                    key: key_text(&row.key),
                    message: crate::text::panic_text(&*payload),
                });
            }
        };
        if TRACED {
            self.name_row(&row, &scope);
        }
        Ok((
            Slot {
                key: row.key,
                item: signal,
                scope,
            },
            out,
        ))
    }

    /// Labels a new row's nodes with their identity: `name[key]` for the item, `name[key]/label` (or `/Memo`,
    /// `/Effect`) for what the factory made.
    fn name_row(&self, row: &Row<K, T>, scope: &Scope) {
        let prefix = format!("{}[{}]", self.name(), escape(&key_text(&row.key)));
        let _ = row.item.clone().labelled(&prefix);
        scope.for_each_node(|node| {
            let core = node.core();
            let own = match core.label() {
                Some(label) => label.to_string(),
                None => core.kind.name().to_string(),
            };
            core.set_label(&format!("{prefix}/{own}"));
        });
    }

    /// Disposes every row and the collection's node.
    pub fn dispose(&self) {
        if self.disposed.replace(true) {
            return;
        }
        self.scope.dispose();
        self.head.dispose();
    }
}

/// Takes `keys` back out of `index`: the new keys of a tail that was refused.
fn forget<K: Hash + Eq>(index: &mut HashMap<K, usize>, keys: &[K]) {
    for key in keys {
        index.remove(key);
    }
}

/// A key as the text names and errors show: its `Debug` text, a string's without quotes.
pub(crate) fn key_text<K: fmt::Debug>(key: &K) -> String {
    let text = format!("{key:?}");
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if text.len() >= 2 => inner.to_string(),
        _ => text,
    }
}

/// `/ [ ] # \` escaped with `\`, so that a key cannot be read as part of a path.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '/' | '[' | ']' | '#' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
