//! The tracer as a dump carries it, and back: [`Tracer::state`] copies out what the queries read besides the ring
//! and the node table (the table of messages, batch and dispatch sites, branches, flights, timers, the nodes moved
//! since the last message, the census); [`Tracer::load`] fills a fresh tracer from a dump read back (`trace::load_dump`),
//! so that every query answers from it as it answered in the process that wrote it.
//!
//! A loaded tracer holds no living node: what a query reads from a living node (its value now, its observers) it
//! reads from what the dump recorded instead (`value_now`, the observer index of the node table).

use super::*;
use crate::trace::{Dump, DumpNode};

/// What the tracer keeps beside the ring and the node table, as a dump writes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TracerState {
    /// The latest `Message` event.
    pub last_message: u64,
    /// The table of messages, oldest first.
    pub messages: Vec<KeptMessage>,
    /// The outermost batches' `BatchEnter` and where each was opened, oldest first.
    pub batches: Vec<(u64, SiteRef)>,
    /// Messages dispatched by memos and effects: the `Message` event, the computation, where.
    pub dispatches: Vec<(u64, NodeId, SiteRef)>,
    /// Flights not yet ended: the memo, the flight, its start event (by memo and flight).
    pub flights: Vec<(NodeId, u32, u64)>,
    /// Reads by flights' futures: the memo, the node read, the clock then, where.
    pub flight_reads: Vec<(NodeId, NodeId, u64, SiteRef)>,
    /// What ran in each node's latest run: the node, the run's `RunStart`, the records (by node).
    pub branches: Vec<(NodeId, u64, Vec<Ran>)>,
    /// What ran in the latest messages' `update`s, oldest first.
    pub message_branches: Vec<(u64, Vec<Ran>)>,
    /// The nodes moved since the latest message started, in id order.
    pub moved: Vec<NodeId>,
    /// The `Timer` schedule event of each timed node whose timer waits (by node).
    pub timers: Vec<(NodeId, u64)>,
    /// The table's records by kind.
    pub census: Census,
    /// The crate roots the dumped process looked for sources in (see `trace::names`).
    pub roots: Vec<String>,
    /// The source root it was given (`set_source_root`), if any.
    pub source_root: Option<String>,
}

/// What a tracer loaded from a dump answers in place of living nodes.
#[derive(Default)]
pub(crate) struct Loaded {
    /// Each node's value when the dump was taken (as `Debug` text, as the dump holds it).
    values: IdMap<Rc<str>>,
    /// Each node's name in the dumped process (its label, `let` binding or kind), which answers name it by even when
    /// the source it was read from is not here.
    names: IdMap<Rc<str>>,
}

impl Tracer {
    /// A copy of the side tables (see [`TracerState`]).
    pub(crate) fn state(&self) -> TracerState {
        let mut flights: Vec<(NodeId, u32, u64)> = self
            .flights
            .borrow()
            .iter()
            .map(|((node, flight), seq)| (*node, *flight, *seq))
            .collect();
        flights.sort_unstable();
        let mut branches: Vec<(NodeId, u64, Vec<Ran>)> = self
            .branches
            .borrow()
            .iter()
            .map(|(node, (run, ran))| (*node, *run, ran.clone()))
            .collect();
        branches.sort_unstable_by_key(|(node, ..)| *node);
        let mut timers: Vec<(NodeId, u64)> =
            self.timers.borrow().iter().map(|(n, s)| (*n, *s)).collect();
        timers.sort_unstable();
        TracerState {
            last_message: self.last_message.get(),
            messages: self.message_table.borrow().iter().cloned().collect(),
            batches: self.batches.borrow().iter().copied().collect(),
            dispatches: self.dispatches.borrow().iter().copied().collect(),
            flights,
            flight_reads: self.flight_reads.borrow().iter().copied().collect(),
            branches,
            message_branches: self.message_branches.borrow().iter().cloned().collect(),
            moved: self.moved.borrow().ids(),
            timers,
            census: self.census.get(),
            roots: Vec::new(),
            source_root: None,
        }
    }

    /// Replaces this tracer's log with `dump`'s: its ring (the events, at the dumped sequence numbers, with every
    /// text whole), its node table and its side tables. The graph must hold no node.
    ///
    /// # Errors
    ///
    /// What in the dump cannot be loaded: events that are not consecutive, a node line's site that is not
    /// `file:line:column`.
    pub(crate) fn load(&self, dump: &Dump) -> Result<(), String> {
        if let Some((pair, _)) = dump
            .events
            .windows(2)
            .map(|w| (w, w[1].seq))
            .find(|(w, next)| *next != w[0].seq + 1)
        {
            return Err(format!(
                "events #{} and #{} are not consecutive (expected the ring's events, one sequence number after \
                 another)",
                pair[0].seq, pair[1].seq
            ));
        }
        self.reset();
        let held = dump.events.len();
        // the dumped ring's capacity (bounded: the header is read, not trusted), at least what it holds
        let capacity = usize::try_from(dump.capacity)
            .unwrap_or(usize::MAX)
            .min(1 << 28)
            .max(held)
            .max(1);
        self.events.set_capacity(capacity);
        // every text the dump holds, whole: the text ring is sized to keep them all
        let text_bytes: usize = dump.events.iter().map(|e| event_text_bytes(&e.kind)).sum::<usize>()
            + dump.nodes.iter().map(node_text_bytes).sum::<usize>();
        *self.texts.borrow_mut() = TextRing::new((capacity * TEXT_BYTES_PER_EVENT).max(text_bytes * 2 + 1));
        let first = dump.events.first().map_or(dump.clock + 1, |e| e.seq);
        self.clock.set(first.saturating_sub(1));
        for event in &dump.events {
            let slot = self.slot_of(&event.kind);
            self.push(event.cause, slot);
        }
        self.clock.set(self.clock.get().max(dump.clock));
        let mut loaded = Loaded::default();
        {
            let mut nodes = self.nodes.borrow_mut();
            for node in &dump.nodes {
                let rec = self.rec_of(node)?;
                nodes.insert(node.id, || rec, WeakNode::new());
                if let Some(value) = &node.extra.value_now {
                    loaded.values.insert(node.id, Rc::from(value.as_str()));
                }
                loaded.names.insert(node.id, Rc::from(node.name.as_str()));
            }
        }
        let state = &dump.state;
        self.last_message.set(state.last_message);
        *self.message_table.borrow_mut() = state.messages.iter().cloned().collect();
        *self.batches.borrow_mut() = state.batches.iter().copied().collect();
        *self.dispatches.borrow_mut() = state.dispatches.iter().copied().collect();
        *self.flights.borrow_mut() = state
            .flights
            .iter()
            .map(|(node, flight, seq)| ((*node, *flight), *seq))
            .collect();
        *self.flight_reads.borrow_mut() = state.flight_reads.iter().copied().collect();
        *self.branches.borrow_mut() = state
            .branches
            .iter()
            .map(|(node, run, ran)| (*node, (*run, ran.clone())))
            .collect();
        *self.message_branches.borrow_mut() = state.message_branches.iter().cloned().collect();
        {
            let mut moved = self.moved.borrow_mut();
            for id in &state.moved {
                moved.insert(*id);
            }
        }
        *self.timers.borrow_mut() = state.timers.iter().copied().collect();
        self.census.set(state.census);
        *self.loaded.borrow_mut() = Some(Rc::new(loaded));
        Ok(())
    }

    /// Node `id`'s value now, as text: a living node's own, or in a tracer loaded from a dump, its value when the
    /// dump was taken.
    pub(crate) fn value_now(&self, id: NodeId) -> Option<String> {
        if let Some(node) = self.live(id) {
            return node.value_text();
        }
        let loaded = self.loaded.borrow();
        Some(loaded.as_ref()?.values.get(&id)?.to_string())
    }

    /// Node `id`'s name in the process that wrote the dump this tracer was loaded from (`None` in a live one).
    pub(crate) fn dumped_name(&self, id: NodeId) -> Option<Rc<str>> {
        let loaded = self.loaded.borrow();
        loaded.as_ref()?.names.get(&id).cloned()
    }

    /// Whether this tracer was loaded from a dump (it holds no living node).
    pub(crate) fn is_loaded(&self) -> bool {
        self.loaded.borrow().is_some()
    }

    /// A text kept whole (a dump's texts were cut when first recorded).
    fn store_whole(&self, text: &str) -> TextRef {
        self.texts.borrow_mut().store_whole(text)
    }

    fn value_ref(&self, text: &str) -> ValueRef {
        ValueRef::Text(self.store_whole(text))
    }

    /// The slot of an event read back, its texts stored whole.
    fn slot_of(&self, kind: &EventKind) -> Slot {
        match kind {
            EventKind::NodeNew {
                node,
                kind,
                owner,
                run,
            } => Slot::NodeNew {
                node: *node,
                kind: *kind,
                owner: *owner,
                run: *run,
            },
            EventKind::Label { node, label } => Slot::Label {
                node: *node,
                label: self.store_whole(label),
            },
            EventKind::Write {
                node,
                by,
                moved,
                value,
            } => Slot::Write {
                node: *node,
                by: *by,
                moved: *moved,
                value: self.value_ref(value),
            },
            EventKind::Mark {
                node,
                source,
                dirty,
            } => Slot::Mark {
                node: *node,
                source: *source,
                dirty: *dirty,
            },
            EventKind::Schedule { node } => Slot::Schedule { node: *node },
            EventKind::CheckStart { node } => Slot::CheckStart { node: *node },
            EventKind::CheckResolved { node, dirty_source } => Slot::CheckResolved {
                node: *node,
                dirty_source: *dirty_source,
            },
            EventKind::RunStart { node, run, puller } => Slot::RunStart {
                node: *node,
                run: *run,
                puller: *puller,
            },
            EventKind::RunEnd {
                node,
                moved,
                error,
                value,
            } => Slot::RunEnd {
                node: *node,
                moved: *moved,
                error: error.as_deref().map(|e| self.store_whole(e)),
                value: value.as_deref().map(|v| self.value_ref(v)),
            },
            EventKind::Stopped { node, message } => Slot::Stopped {
                node: *node,
                message: self.store_whole(message),
            },
            EventKind::FlushStart { flush } => Slot::FlushStart { flush: *flush },
            EventKind::FlushEnd { flush } => Slot::FlushEnd { flush: *flush },
            EventKind::BatchEnter { depth } => Slot::BatchEnter { depth: *depth },
            EventKind::BatchExit { depth } => Slot::BatchExit { depth: *depth },
            EventKind::Dispose { node } => Slot::Dispose { node: *node },
            EventKind::Message { target, name, args } => Slot::Message {
                target: *target,
                name: self.store_whole(name),
                args: self.store_whole(args),
            },
            EventKind::EdgeAdd { node, source } => Slot::EdgeAdd {
                node: *node,
                source: *source,
            },
            EventKind::EdgeRemove { node, source } => Slot::EdgeRemove {
                node: *node,
                source: *source,
            },
            EventKind::UntrackedRead { node, source } => Slot::UntrackedRead {
                node: *node,
                source: *source,
            },
            EventKind::Flight { node, flight, what } => Slot::Flight {
                node: *node,
                flight: *flight,
                what: *what,
            },
            EventKind::Timer {
                node,
                what,
                at,
                due,
                value,
            } => Slot::Timer {
                node: *node,
                what: *what,
                at_us: u64::try_from(at.as_micros()).unwrap_or(u64::MAX),
                due_us: u64::try_from(due.as_micros()).unwrap_or(u64::MAX),
                value: value.as_deref().map(|v| self.store_whole(v)),
            },
        }
    }

    /// A node line read back as the table's record.
    fn rec_of(&self, node: &DumpNode) -> Result<Rec, String> {
        let extra = &node.extra;
        let site = crate::trace::parse_site(&node.site)
            .ok_or_else(|| format!("node {}'s site {:?} is not file:line:column", node.id, node.site))?;
        let text = |t: &str| self.value_ref(t);
        let mut rec = Rec {
            id: node.id,
            kind: node.kind,
            site,
            label: node.label.as_deref().map(Rc::from),
            owner: node.owner,
            created: node.created,
            creating_run: node.creating_run,
            last_mark: extra.last_mark,
            first_mark_since_run: extra.first_mark_since_run,
            last_run_start: node.last_run_start,
            last_run_end: node.last_run_end,
            runs: node.runs,
            last_cutoff: node.last_cutoff.as_ref().map(|(seq, v)| (*seq, text(v))),
            previous_cutoff: extra.previous_cutoff.as_ref().map(|(seq, v)| (*seq, text(v))),
            cutoff_computed: extra.cutoff_computed.as_ref().map(|(seq, v)| {
                let type_name = extra.cutoff_type.as_deref().map_or("", super::site::intern_file);
                (*seq, text(v), type_name)
            }),
            last_moved: node.last_moved,
            last_write: node.last_write,
            value: extra.recorded.as_deref().map(text),
            disposed: node.disposed,
            untracked: extra.untracked.clone(),
            last_check: extra.last_check,
            last_schedule: extra.last_schedule,
            sources: SmallList::Empty,
            is_model: extra.is_model,
            first_mark_dirty: extra.first_mark_dirty,
            read_sites: SmallList::Empty,
            moved_by: extra.moved_by,
            program_reads: extra.program_reads.clone(),
            disposed_at: extra.disposed_at,
            custom_comparer: extra.custom_comparer,
            update_fn: extra.update_fn.as_deref().map(super::site::intern_file),
        };
        let mut sites = extra.read_sites.iter().peekable();
        let mut at = None;
        for (i, source) in node.sources.iter().enumerate() {
            while let Some((_, site)) = sites.next_if(|(start, _)| *start as usize <= i) {
                at = Some(*site);
            }
            match at {
                Some(site) => rec.add_source(*source, site),
                // a source with no read site (none is recorded without one): kept, without a line
                None => rec.sources.push(*source),
            }
        }
        Ok(rec)
    }
}

fn event_text_bytes(kind: &EventKind) -> usize {
    match kind {
        EventKind::Label { label: t, .. }
        | EventKind::Write { value: t, .. }
        | EventKind::Stopped { message: t, .. } => t.len(),
        EventKind::RunEnd { error, value, .. } => {
            error.as_deref().map_or(0, str::len) + value.as_deref().map_or(0, str::len)
        }
        EventKind::Message { name, args, .. } => name.len() + args.len(),
        EventKind::Timer { value, .. } => value.as_deref().map_or(0, str::len),
        _ => 0,
    }
}

fn node_text_bytes(node: &DumpNode) -> usize {
    let pair = |p: &Option<(u64, String)>| p.as_ref().map_or(0, |(_, v)| v.len());
    pair(&node.last_cutoff)
        + pair(&node.extra.previous_cutoff)
        + pair(&node.extra.cutoff_computed)
        + node.extra.recorded.as_ref().map_or(0, String::len)
}
