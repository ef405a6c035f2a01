//! The hooks the engine calls as it runs: node made and dropped, writes, marks, runs, flushes, batches, messages,
//! reads and disposal. Each appends one event and keeps the node table current.

use super::*;

impl Tracer {
    pub fn node_new(
        &self,
        id: NodeId,
        kind: NodeKind,
        site: &'static Location<'static>,
        owner: Option<NodeId>,
        running: Option<NodeId>,
        live: impl FnOnce() -> WeakNode,
    ) {
        let creating_run = running.map_or(0, |r| self.node_field(r, |n| n.last_run_start));
        let seq = self.push(
            creating_run,
            Slot::NodeNew {
                node: id,
                kind,
                owner,
                run: creating_run,
            },
        );
        let record = || Rec {
            id,
            kind,
            site: SiteRef::live(site),
            label: None,
            owner,
            created: seq,
            creating_run,
            last_mark: 0,
            first_mark_since_run: 0,
            last_run_start: 0,
            last_run_end: 0,
            runs: 0,
            last_cutoff: None,
            previous_cutoff: None,
            cutoff_computed: None,
            last_moved: 0,
            last_write: 0,
            value: None,
            disposed: 0,
            untracked: Vec::new(),
            last_check: 0,
            last_schedule: 0,
            sources: SmallList::Empty,
            is_model: false,
            first_mark_dirty: false,
            read_sites: SmallList::Empty,
            moved_by: None,
            program_reads: Vec::new(),
            disposed_at: None,
            custom_comparer: false,
            update_fn: None,
        };
        let replaced = self.nodes.borrow_mut().insert(id, record, live());
        let mut census = self.census.get();
        if let Some(old) = replaced {
            census.remove(old.kind, old.disposed != 0, true);
        }
        census.add(kind, false, true);
        self.census.set(census);
    }

    /// Node `id`, at `node`, is being dropped: let go of its weak handle, so that its block goes back to the pool
    /// now (the handle could no longer be upgraded), and move its record to the table's ring of dropped nodes (see
    /// `graph/record/table.rs`). An id of a graph since disposed may name a newer node: only this very node's record
    /// moves.
    pub fn node_dropped(&self, id: NodeId, node: *const ()) {
        if let Ok(mut nodes) = self.nodes.try_borrow_mut()
            && let Some((moved, evicted)) = nodes.dropped(id, node)
        {
            let mut census = self.census.get();
            census.remove(moved.kind, moved.disposed != 0, true);
            census.add(moved.kind, moved.disposed != 0, false);
            if let Some(old) = evicted {
                census.remove(old.kind, old.disposed != 0, false);
            }
            self.census.set(census);
        }
    }

    pub fn label(&self, id: NodeId, label: &str) {
        let text = self.store(label);
        self.push(
            0,
            Slot::Label {
                node: id,
                label: text,
            },
        );
        self.with_node(id, |n| n.label = Some(Rc::from(label)));
    }

    #[inline(always)]
    pub fn write<V: Recordable + ?Sized>(
        &self,
        id: NodeId,
        running: Option<NodeId>,
        moved: bool,
        value: &V,
        site: &'static Location<'static>,
    ) {
        let site = SiteRef::live(site);
        // A write is the message's when it is made where the message was dispatched (its `update`'s model write);
        // a memo or effect running inside the message's flush writes on its own account.
        // SAFETY: a look at the last open message that ends at once (its copy): its flag is tested, not written (a
        // write borrow held elsewhere panics, as `borrow` would), and nothing runs while it lives.
        let open = unsafe { self.messages.try_borrow_unguarded() }
            .expect("messages")
            .last()
            .copied();
        let (by, cause) = if let Some((message, _)) = open.filter(|(_, at)| *at == running) {
            (Writer::Message(message), message)
        } else if let Some(r) = running {
            (
                Writer::Computation(r),
                self.node_field(r, |n| n.last_run_start),
            )
        } else {
            // A timer's write is caused by its firing.
            (Writer::Program, self.timer_fired.take())
        };
        let value = self.capture_of(id, value);
        let seq = self.push(
            cause,
            Slot::Write {
                node: id,
                by,
                moved,
                value,
            },
        );
        // a node's first move since the latest message joins the moved set; later ones cost a comparison
        let last_message = self.last_message.get();
        // A leaf: record fields only (plain data, nothing dropped).
        let first_move = self.with_table_leaf(|nodes| {
            nodes.get_mut(id).map(|n| {
                n.last_write = seq;
                let first = moved && n.last_moved <= last_message;
                if moved {
                    n.last_moved = seq;
                    n.value = Some(value);
                    n.moved_by = Some((by, site));
                }
                first
            })
        });
        if moved {
            self.notifier.set(seq);
        }
        if first_move == Some(true) {
            self.note_moved(id);
        }
    }

    #[inline(always)]
    pub fn mark(&self, node: NodeId, source: NodeId, dirty: bool) {
        let seq = self.clock.get() + 1;
        // A leaf: record fields only.
        let cause = self.with_table_leaf(|nodes| {
            let cause = if dirty {
                self.notifier.get()
            } else {
                nodes.get(source).map_or(0, |n| n.last_mark)
            };
            if let Some(n) = nodes.get_mut(node) {
                n.last_mark = seq;
                if n.first_mark_since_run == 0 || dirty && !n.first_mark_dirty {
                    n.first_mark_since_run = seq;
                    n.first_mark_dirty = dirty;
                }
            }
            cause
        });
        self.push_at(
            seq,
            cause,
            Slot::Mark {
                node,
                source,
                dirty,
            },
        );
    }

    /// [`mark`](Self::mark) then [`schedule`](Self::schedule) of the same effect, with one look-up of its record:
    /// the same two events and record fields as the two hooks called one after the other.
    #[inline]
    pub fn mark_scheduled(&self, node: NodeId, source: NodeId, dirty: bool) {
        let seq = self.clock.get() + 1;
        // A leaf: record fields only.
        let (cause, found) = self.with_table_leaf(|nodes| {
            let cause = if dirty {
                self.notifier.get()
            } else {
                nodes.get(source).map_or(0, |n| n.last_mark)
            };
            let found = match nodes.get_mut(node) {
                Some(n) => {
                    n.last_mark = seq;
                    if n.first_mark_since_run == 0 || dirty && !n.first_mark_dirty {
                        n.first_mark_since_run = seq;
                        n.first_mark_dirty = dirty;
                    }
                    // The schedule event comes next, caused by this mark.
                    n.last_schedule = seq + 1;
                    true
                }
                None => false,
            };
            (cause, found)
        });
        self.push_at(
            seq,
            cause,
            Slot::Mark {
                node,
                source,
                dirty,
            },
        );
        self.push_at(seq + 1, if found { seq } else { 0 }, Slot::Schedule { node });
    }

    #[inline]
    pub fn schedule(&self, node: NodeId) {
        let seq = self.clock.get() + 1;
        let cause = self
            .with_node(node, |n| {
                n.last_schedule = seq;
                n.last_mark
            })
            .unwrap_or(0);
        self.push(cause, Slot::Schedule { node });
    }

    pub fn check_start(&self, node: NodeId) {
        let cause = self.node_field(node, |n| n.last_mark);
        self.push(cause, Slot::CheckStart { node });
        self.walkers.borrow_mut().push(node);
        self.walking.set(Some(node));
    }

    pub fn check_resolved(&self, node: NodeId, dirty_source: Option<NodeId>) {
        let walking = {
            let mut walkers = self.walkers.borrow_mut();
            walkers.pop();
            walkers.last().copied()
        };
        self.walking.set(walking);
        let cause = dirty_source.map_or(0, |s| self.node_field(s, |n| n.last_moved));
        let seq = self.push(cause, Slot::CheckResolved { node, dirty_source });
        self.with_node(node, |n| n.last_check = seq);
    }

    #[inline(always)]
    pub fn run_start(&self, node: NodeId, run: u32, puller: Option<NodeId>) {
        // The innermost walker, kept beside the stack: one load where reading the stack's last entry was a flag test,
        // a length test and a load (every traced run passes here).
        let walking = self.walking.get();
        let puller = walking.filter(|w| *w != node).or(puller);
        let seq = self.clock.get() + 1;
        // A leaf: record fields, and a clear of plain tuples.
        let cause = self.with_table_leaf(|nodes| {
            nodes.get_mut(node).map_or(0, |n| {
                let cause = n.first_mark_since_run;
                n.last_run_start = seq;
                n.first_mark_since_run = 0;
                n.first_mark_dirty = false;
                n.runs = run;
                n.untracked.clear();
                cause
            })
        });
        self.push_at(seq, cause, Slot::RunStart { node, run, puller });
    }

    /// Memo `node`'s run computed `value` and its equality called it equal to the value it keeps: the run's
    /// `RunEnd` (the next event) keeps its text beside the cutoff. Scalars are skipped (decided per type at compile
    /// time): an equal scalar prints as the kept one, and the cutoff path of scalar memos stays as cheap as it was.
    #[inline(always)]
    pub fn kept_over<V: Recordable + ?Sized>(&self, node: NodeId, value: &V) {
        if value.scalar().is_some() {
            return;
        }
        let seq = self.clock.get() + 1;
        let text = self.capture_of(node, value);
        let type_name = std::any::type_name::<V>();
        self.with_node(node, |n| n.cutoff_computed = Some((seq, text, type_name)));
    }

    /// [`run_end`](Self::run_end) of a memo whose value is in `value`. A scalar (decided per type at compile time)
    /// is read without writing the cell's borrow flag: recording it runs no program code (no formatting), so nothing
    /// can write the value while it is read. Any other value is borrowed while it is recorded (formatted).
    #[inline(always)]
    pub fn memo_run_end<V: Recordable>(
        &self,
        node: NodeId,
        moved: bool,
        error: Option<&str>,
        value: &RefCell<Option<V>>,
    ) {
        // SAFETY: the flag is checked (no writer); the reference is used only by a scalar's `run_end`, a leaf (the
        // table's record, the text ring for `error`, the event ring), during which no code runs that could write the
        // value.
        match unsafe { value.try_borrow_unguarded() }.expect("value") {
            Some(v) if v.scalar().is_some() => self.end_of_run::<V, true>(node, moved, error, Some(v)),
            None => self.end_of_run::<V, true>(node, moved, error, None),
            Some(_) => self.end_of_run::<V, true>(node, moved, error, value.borrow().as_ref()),
        }
    }

    #[inline(always)]
    pub fn run_end<V: Recordable + ?Sized>(
        &self,
        node: NodeId,
        moved: bool,
        error: Option<&str>,
        value: Option<&V>,
    ) {
        self.end_of_run::<V, false>(node, moved, error, value);
    }

    /// [`run_end`](Self::run_end); `MEMO` when the caller is a memo's run (`memo_run_end`), whose record is a memo's:
    /// the record's kind is then not tested.
    #[inline(always)]
    fn end_of_run<V: Recordable + ?Sized, const MEMO: bool>(
        &self,
        node: NodeId,
        moved: bool,
        error: Option<&str>,
        value: Option<&V>,
    ) {
        let seq = self.clock.get() + 1;
        let error_text = error.map(|e| self.store(e));
        // A scalar value (decided per type at compile time) is recorded as it is, without formatting: the record's
        // update is then a leaf, and the table's borrow flag is tested without being written (as `with_table_leaf`
        // does). Any other value is formatted (`Debug`, program code) with the table borrowed.
        let mut guard = None;
        let nodes = if value.is_none_or(|v| v.scalar().is_some()) {
            drop(self.nodes.try_borrow_mut().expect("nodes"));
            // SAFETY: no borrow of the table is held (tested above), and what runs while this reference lives is a
            // leaf: record fields, and `capture_of` of a scalar (a copy, or the redaction's stored text), which
            // runs no program code and no hook, so nothing can borrow the table meanwhile; the tracer is `!Sync`.
            unsafe { &mut *self.nodes.as_ptr() }
        } else {
            &mut **guard.insert(self.nodes.borrow_mut())
        };
        let Some(n) = nodes.get_mut(node) else {
            drop(guard);
            self.push_at(
                seq,
                0,
                Slot::RunEnd {
                    node,
                    moved,
                    error: error_text,
                    value: None,
                },
            );
            return;
        };
        let start = n.last_run_start;
        n.last_run_end = seq;
        // Only a memo keeps a value and moves: its kind is tested once (not at all for a memo's own run end).
        let mut first_move = false;
        debug_assert!(!MEMO || n.kind == NodeKind::Memo, "memo_run_end of a record not a memo's");
        let value = if MEMO || n.kind == NodeKind::Memo {
            // A memo that kept its value (or failed and kept it) holds the value last recorded: no need to capture
            // it.
            let value = match value {
                Some(value) => match n.value {
                    Some(kept) if !moved || error.is_some() => Some(kept),
                    _ => Some(self.capture_of(node, value)),
                },
                None => None,
            };
            if moved {
                first_move = n.last_moved <= self.last_message.get();
                n.last_moved = seq;
            } else if n.runs > 1 && error.is_none() {
                n.previous_cutoff = n.last_cutoff.take();
                n.last_cutoff = value.map(|v| (seq, v));
            }
            n.value = value;
            value
        } else {
            None
        };
        drop(guard);
        self.push_at(
            seq,
            start,
            Slot::RunEnd {
                node,
                moved,
                error: error_text,
                value,
            },
        );
        if moved {
            self.notifier.set(seq);
            if first_move {
                self.note_moved(node);
            }
        }
    }

    pub fn stopped(&self, node: NodeId, message: &str) {
        let cause = self.node_field(node, |n| n.last_mark);
        let message = self.store(message);
        self.push(cause, Slot::Stopped { node, message });
    }

    pub fn flush_start(&self, flush: u32) {
        self.push(0, Slot::FlushStart { flush });
    }

    pub fn flush_end(&self, flush: u32) {
        self.push(0, Slot::FlushEnd { flush });
    }

    pub fn batch_enter(&self, depth: u32, site: &'static Location<'static>) {
        let site = SiteRef::live(site);
        let seq = self.push(0, Slot::BatchEnter { depth });
        if depth == 1 {
            let mut batches = self.batches.borrow_mut();
            if batches.len() == BATCH_SITES_KEPT {
                batches.pop_front();
            }
            batches.push_back((seq, site));
        }
    }

    /// Where the outermost batch whose `BatchEnter` is `seq` was opened, if still remembered.
    pub fn batch_site(&self, seq: u64) -> Option<Loc> {
        let batches = self.batches.borrow();
        let i = batches.binary_search_by_key(&seq, |(s, _)| *s).ok()?;
        Some(batches[i].1)
    }

    /// Labels node `id` with `name` unless it has a label: the name it is exposed under (`Exposure::node`), so
    /// answers name it without reading the source.
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "called by the exposure")
    )]
    pub fn name_if_unnamed(&self, id: NodeId, name: &str) {
        if let Some(node) = self.live(id)
            && node.core().label().is_none()
        {
            node.core().set_label(name);
        }
    }

    /// Node `model` is the model of an `Mvu` whose `update` has the type name `name`.
    pub fn update_fn(&self, model: NodeId, name: &'static str) {
        self.with_node(model, |n| n.update_fn = Some(name));
    }

    /// The computation that dispatched message `seq` and where, when a memo or effect dispatched it.
    pub fn dispatched_by(&self, seq: u64) -> Option<(NodeId, Loc)> {
        let dispatches = self.dispatches.borrow();
        let i = dispatches.binary_search_by_key(&seq, |(s, _, _)| *s).ok()?;
        Some((dispatches[i].1, dispatches[i].2))
    }

    /// The node was made with a comparer of the program's.
    pub fn custom_comparer(&self, id: NodeId) {
        self.with_node(id, |n| n.custom_comparer = true);
    }

    /// Sets where the disposal running now was called, unless an outer disposal set it; returns what it was.
    pub fn set_disposing(&self, site: Option<Loc>) -> Option<Loc> {
        let previous = self.disposing.get();
        if site.is_none() || previous.is_none() {
            self.disposing.set(site);
        }
        previous
    }

    pub fn batch_exit(&self, depth: u32) {
        self.push(0, Slot::BatchExit { depth });
    }

    pub fn dispose(&self, node: NodeId) {
        let seq = self.push(0, Slot::Dispose { node });
        let site = self.disposing.get();
        let first = self.with_node(node, |n| {
            let first = n.disposed == 0;
            n.disposed = seq;
            n.disposed_at = site;
            first.then_some(n.kind)
        });
        if let Some(Some(kind)) = first {
            let mut census = self.census.get();
            census.remove(kind, false, true);
            census.add(kind, true, true);
            self.census.set(census);
        }
    }

    pub fn message_start(
        &self,
        target: NodeId,
        name: &str,
        args: &str,
        running: Option<NodeId>,
        site: &'static Location<'static>,
    ) -> u64 {
        let site = SiteRef::live(site);
        let cause = self.messages.borrow().last().map_or(0, |(m, _)| *m);
        let (name, args) = (self.store(name), self.store(args));
        let seq = self.push(cause, Slot::Message { target, name, args });
        {
            let mut table = self.message_table.borrow_mut();
            if table.len() == MESSAGES_KEPT {
                table.pop_front();
            }
            table.push_back(KeptMessage {
                seq,
                cause,
                target,
                name: self.get_text(name),
                args: self.get_text(args),
                end: 0,
                commands: None,
            });
        }
        self.with_node(target, |n| n.is_model = true);
        self.messages.borrow_mut().push((seq, running));
        if let Some(by) = running {
            let mut dispatches = self.dispatches.borrow_mut();
            if dispatches.len() == BATCH_SITES_KEPT {
                dispatches.pop_front();
            }
            dispatches.push_back((seq, by, site));
        }
        self.last_message.set(seq);
        self.moved.borrow_mut().clear();
        seq
    }

    /// The branch (or `#[trace_fn]` fn, or shadowing `let` with `value`) at `file`:`line` ran: in the run of
    /// `running`, or in the `update` running now when no run started after it did. Nothing outside both.
    pub fn branch_ran(
        &self,
        running: Option<NodeId>,
        file: &'static str,
        line: u32,
        value: Option<&dyn std::fmt::Debug>,
    ) {
        self.record_ran(running, file, line, true, |taken| {
            let value = value.map(|v| Rc::<str>::from(bounded_debug(v)));
            if let Some(known) = taken.iter_mut().find(|r| r.file == file && r.line == line && r.entered.is_none() && !r.defaulted) {
                known.value = value;
            } else if taken.len() < BRANCHES_KEPT {
                taken.push(Ran {
                    file,
                    line,
                    value,
                    entered: None,
                        defaulted: false,
                });
            }
        });
    }

    /// The loop at `file`:`line` was left, its body having run (`entered`) or not, as [`branch_ran`](Self::branch_ran)
    /// records a branch: a loop left more than once in a run (inside another loop) counts as entered when its body
    /// ran in any of them.
    pub fn loop_ran(&self, running: Option<NodeId>, file: &'static str, line: u32, entered: bool) {
        self.record_ran(running, file, line, false, |taken| {
            if let Some(known) = taken.iter_mut().find(|r| r.file == file && r.line == line && r.entered.is_some()) {
                known.entered = Some(known.entered == Some(true) || entered);
            } else if taken.len() < BRANCHES_KEPT {
                taken.push(Ran {
                    file,
                    line,
                    value: None,
                    entered: Some(entered),
                    defaulted: false,
                });
            }
        });
    }

    /// The `unwrap_or` (or `unwrap_or_default`, `unwrap_or_else`) at `file`:`line` gave its default, as
    /// [`branch_ran`](Self::branch_ran) records a branch: kept once per run or `update`, apart from the branches.
    pub fn default_taken(&self, running: Option<NodeId>, file: &'static str, line: u32) {
        self.record_ran(running, file, line, false, |taken| {
            if !taken.iter().any(|r| r.defaulted && r.file == file && r.line == line) && taken.len() < BRANCHES_KEPT {
                taken.push(Ran {
                    file,
                    line,
                    value: None,
                    entered: None,
                    defaulted: true,
                });
            }
        });
    }

    /// Puts a record into the run of `running`, or the `update` running now when no run started after it did;
    /// outside both, keeps `file`:`line` once as a builder's branch when `built` (a branch's record; not a loop's).
    fn record_ran(
        &self,
        running: Option<NodeId>,
        file: &'static str,
        line: u32,
        built: bool,
        record: impl FnOnce(&mut Vec<Ran>),
    ) {
        let run = running.map(|node| self.node_field(node, |n| n.last_run_start));
        match (self.updating.get(), running, run) {
            // a run that started inside `update` (a memo `update` read) is the run's; else `update`'s
            (Some(seq), _, r) if r.is_none_or(|r| r < seq) => {
                let mut kept = self.message_branches.borrow_mut();
                if kept.back().is_none_or(|(m, _)| *m != seq) {
                    if kept.len() == MESSAGES_RAN_KEPT {
                        kept.pop_front();
                    }
                    kept.push_back((seq, Vec::new()));
                }
                if let Some((_, taken)) = kept.back_mut() {
                    record(taken);
                }
            }
            (_, Some(node), Some(run)) => {
                let mut branches = self.branches.borrow_mut();
                let (at, taken) = branches.entry(node).or_insert_with(|| (run, Vec::new()));
                if *at != run {
                    *at = run;
                    taken.clear();
                }
                record(taken);
            }
            // outside any run and `update`: a builder's branch, kept once
            _ if built => {
                let mut built = self.built.borrow_mut();
                if built.len() < BUILT_KEPT && !built.iter().any(|r| r.file == file && r.line == line) {
                    built.push(Ran {
                        file,
                        line,
                        value: None,
                        entered: None,
                        defaulted: false,
                    });
                }
            }
            _ => {}
        }
    }

    /// Message `seq`'s `update` starts running (`Some`) or has returned (`None`); returns the message whose `update`
    /// ran before, to restore.
    pub fn update_running(&self, seq: Option<u64>) -> Option<u64> {
        self.updating.replace(seq)
    }

    /// A future of async memo `memo`'s flights is being polled from now (`None`: no longer); returns the memo polled
    /// before, to restore after a nested poll. Reads meanwhile are the future's, untracked.
    pub fn flight_poll(&self, memo: Option<NodeId>) -> Option<NodeId> {
        self.polling.replace(memo)
    }

    /// Flight `flight` of the async memo `node` started, in the memo's current run.
    pub fn flight_start(&self, node: NodeId, flight: u32) {
        let cause = self.node_field(node, |n| n.last_run_start);
        let seq = self.push(
            cause,
            Slot::Flight {
                node,
                flight,
                what: FlightEvent::Start,
            },
        );
        self.flights.borrow_mut().insert((node, flight), seq);
    }

    /// Flight `flight` of `node` ended (`what` is not `Start`). A settle or failure becomes the cause of the marks
    /// that follow (the readers it wakes).
    pub fn flight_end(&self, node: NodeId, flight: u32, what: FlightEvent) {
        let cause = self
            .flights
            .borrow_mut()
            .remove(&(node, flight))
            .unwrap_or(0);
        let seq = self.push(cause, Slot::Flight { node, flight, what });
        if matches!(what, FlightEvent::Settle | FlightEvent::Fail) {
            self.notifier.set(seq);
        }
    }

    /// The timer of timed node `node` did `what`, at `at` on its clock, due at `due`, with `value` (see
    /// [`EventKind::Timer`]). `watch` is the effect watching the source: a schedule's cause is its run.
    pub fn timer(
        &self,
        node: NodeId,
        watch: Option<NodeId>,
        what: TimerEvent,
        at: Duration,
        due: Duration,
        value: Option<&dyn fmt::Debug>,
    ) {
        let cause = match what {
            TimerEvent::Schedule => watch.map_or(0, |w| self.node_field(w, |n| n.last_run_start)),
            TimerEvent::Replace => self.timers.borrow().get(&node).copied().unwrap_or(0),
            TimerEvent::Fire | TimerEvent::Cancel => {
                self.timers.borrow_mut().remove(&node).unwrap_or(0)
            }
        };
        let value = value.map(|v| self.texts.borrow_mut().format(v));
        let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        let seq = self.push(
            cause,
            Slot::Timer {
                node,
                what,
                at_us: micros(at),
                due_us: micros(due),
                value,
            },
        );
        match what {
            TimerEvent::Schedule => {
                self.timers.borrow_mut().insert(node, seq);
            }
            TimerEvent::Fire => self.timer_fired.set(seq),
            TimerEvent::Replace | TimerEvent::Cancel => {}
        }
    }

    /// The `update` of message `token` (its `Message` event) returned `count` commands (`Mvu::with_commands`).
    pub fn message_commands(&self, token: u64, count: usize) {
        let mut table = self.message_table.borrow_mut();
        if let Ok(i) = table.binary_search_by_key(&token, |m| m.seq) {
            table[i].commands = Some(u32::try_from(count).unwrap_or(u32::MAX));
        }
    }

    /// The `update` of message `token` moved the model from `before` to `after`: their `Debug` texts are kept for the
    /// latest messages, so a diagnosis can tell which fields the message wrote.
    pub fn message_model(&self, token: u64, before: &dyn fmt::Debug, after: &dyn fmt::Debug) {
        let (Some(before), Some(after)) = (model_text(before), model_text(after)) else {
            return;
        };
        let target = self.message_target(token);
        if let Some(target) = target {
            let mut first = self.first_models.borrow_mut();
            if first.len() < FIRST_MODELS_KEPT && !first.iter().any(|(t, _)| *t == target) {
                first.push((target, before.clone()));
            }
        }
        let mut kept = self.message_models.borrow_mut();
        if kept.len() == MESSAGE_MODELS_KEPT {
            kept.pop_front();
        }
        kept.push_back((token, before, after));
    }

    /// Message `token`'s `update` returned a model its `PartialEq` called equal to the one before: kept when the two
    /// print differently (a `PartialEq` that leaves out what the message changed).
    pub fn message_model_equal(&self, token: u64, before: &dyn fmt::Debug, after: &dyn fmt::Debug) {
        let (Some(before), Some(after)) = (model_text(before), model_text(after)) else {
            return;
        };
        if before == after {
            return;
        }
        let Some(target) = self.message_target(token) else { return };
        let mut kept = self.equal_models.borrow_mut();
        if kept.len() == MESSAGE_MODELS_KEPT {
            kept.pop_front();
        }
        kept.push_back((token, target, before, after));
    }

    /// The model message `token` was dispatched to, while the table of messages holds it.
    fn message_target(&self, token: u64) -> Option<NodeId> {
        let table = self.message_table.borrow();
        table.binary_search_by_key(&token, |m| m.seq).ok().map(|i| table[i].target)
    }

    pub fn message_end(&self, token: u64) {
        {
            let mut table = self.message_table.borrow_mut();
            if let Ok(i) = table.binary_search_by_key(&token, |m| m.seq) {
                table[i].end = self.clock.get();
            }
        }
        let mut messages = self.messages.borrow_mut();
        if let Some(i) = messages.iter().rposition(|(m, _)| *m == token) {
            messages.truncate(i);
        }
    }

    pub fn edge_read(&self, node: NodeId, source: NodeId, site: &'static Location<'static>) {
        let site = SiteRef::live(site);
        // one look-up of the reader's record for the event's cause and the new edge
        let cause = self
            .with_node(node, |n| {
                n.add_source(source, site);
                n.last_run_start
            })
            .unwrap_or(0);
        self.push(cause, Slot::EdgeAdd { node, source });
    }

    /// The program read `source` outside any memo or effect, at `site`. No event: the record keeps the first
    /// [`PROGRAM_READS_KEPT`] distinct lines, with the clock when each last read.
    pub fn program_read(&self, source: NodeId, site: &'static Location<'static>) {
        let site = SiteRef::live(site);
        let now = self.clock.get();
        if let Some(memo) = self.polling.get() {
            // not the program's read: a flight's future read it, untracked
            let mut reads = self.flight_reads.borrow_mut();
            match reads
                .iter()
                .position(|(m, s, _, at)| *m == memo && *s == source && *at == site)
            {
                Some(i) => reads[i].2 = now,
                None => {
                    if reads.len() == FLIGHT_READS_KEPT {
                        reads.pop_front();
                    }
                    reads.push_back((memo, source, now, site));
                }
            }
            return;
        }
        self.with_node(source, |n| {
            match n
                .program_reads
                .iter()
                .position(|(_, s)| *s == site)
            {
                Some(i) => n.program_reads[i].0 = now,
                None if n.program_reads.len() < PROGRAM_READS_KEPT => {
                    n.program_reads.push((now, site));
                }
                None => {}
            }
        });
    }

    /// `node`'s run dropped its edge from `source`. The record's lists are updated in
    /// [`edges_removed_end`](Self::edges_removed_end), once for all the edges a run drops: removing them one by one
    /// from a list of N sources would cost N each.
    pub fn edge_removed(&self, node: NodeId, source: NodeId) {
        let cause = self.node_field(node, |n| n.last_run_start);
        self.push(cause, Slot::EdgeRemove { node, source });
        let mut removing = self.removing.borrow_mut();
        if removing.0 != Some(node) {
            let earlier = std::mem::take(&mut *removing);
            drop(removing);
            self.apply_removals(earlier);
            removing = self.removing.borrow_mut();
            removing.0 = Some(node);
        }
        removing.1.push(source);
    }

    /// `node`'s run has dropped the edges it no longer reads: take them out of its record.
    pub fn edges_removed_end(&self, node: NodeId) {
        let removing = std::mem::take(&mut *self.removing.borrow_mut());
        debug_assert!(removing.0.is_none_or(|n| n == node));
        self.apply_removals(removing);
    }

    fn apply_removals(&self, (node, sources): (Option<NodeId>, Vec<NodeId>)) {
        let Some(node) = node else { return };
        self.with_node(node, |n| n.remove_sources(&sources));
    }

    /// A read under `untrack`: a body's untracked read, or (outside any body) a read of the program's.
    pub fn untracked_read_in_body(&self, reader: Option<NodeId>, source: NodeId, site: &'static Location<'static>) {
        if reader.is_some() {
            self.untracked_read(reader, source, site);
        } else {
            self.program_read(source, site);
        }
    }

    /// A read without tracking. A message's `update` reads its model through an unrecorded read (the dispatcher's
    /// own), so every read that reaches here is the program's or a computation's, inside a message or not.
    pub fn untracked_read(&self, reader: Option<NodeId>, source: NodeId, location: &'static Location<'static>) {
        let site = SiteRef::live(location);
        let cause = reader.map_or(0, |r| self.node_field(r, |n| n.last_run_start));
        let seq = self.push(
            cause,
            Slot::UntrackedRead {
                node: reader,
                source,
            },
        );
        if let Some(r) = reader {
            self.with_node(r, |n| {
                if !n.untracked.iter().any(|(s, _, _)| *s == source) {
                    n.untracked.push((source, seq, Some(site)));
                }
            });
        } else {
            self.program_read(source, location);
        }
    }
}

/// A model's `Debug` text, when it fits in [`MODEL_TEXT_MAX`] bytes: formatting stops at the cap, so a model too
/// large to keep costs no more than one that fits.
fn model_text(value: &dyn fmt::Debug) -> Option<Rc<str>> {
    struct Capped(String);
    impl fmt::Write for Capped {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            if self.0.len() + s.len() > MODEL_TEXT_MAX {
                return Err(fmt::Error);
            }
            self.0.push_str(s);
            Ok(())
        }
    }
    let mut text = Capped(String::new());
    fmt::write(&mut text, format_args!("{value:?}")).ok()?;
    Some(Rc::<str>::from(text.0))
}
