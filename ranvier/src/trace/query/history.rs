//! A trace that looks back: the cause chain of an earlier run ([`why_at`]) and a bounded one ([`why_depth`]), the
//! graph as it stood at an earlier event ([`snapshot_at`]), a node by its identity path ([`resolve`]), and the live
//! edges checked against the edges the log folded ([`reconcile`]). (`history`, one line per run, is `why.rs`'s.)
//!
//! Everything here reads what the bounded log still holds: an earlier point is rebuilt by undoing, newest first, the
//! events the ring holds after it (edges added and removed, nodes made and disposed, runs started), and each value
//! then is the one its latest write or run end at or before that point recorded. A point or a run the ring has
//! dropped is refused with a [`PastError`] naming the oldest event kept.

use super::*;

/// A question about the past that could not be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PastError {
    /// The node is unknown or dropped, or the build records no trace.
    Trace(TraceError),
    /// The run asked for is not one of the node's runs.
    RunOutOfRange {
        /// The node.
        node: NodeName,
        /// The run asked for.
        run: u32,
        /// How many runs it has started (0 for a signal, which is written, not run).
        runs: u32,
    },
    /// The run's start is older than the oldest event the ring holds.
    RunDropped {
        /// The node.
        node: NodeName,
        /// The run asked for.
        run: u32,
        /// The oldest event the ring holds.
        oldest: u64,
        /// The node's oldest run the ring still holds, if any.
        first_held: Option<u32>,
    },
    /// The event asked for is older than the oldest event the ring holds.
    SeqDropped {
        /// The event asked for.
        seq: u64,
        /// The oldest event the ring holds.
        oldest: u64,
        /// The latest event.
        clock: u64,
    },
    /// The event asked for has not happened yet (or is 0).
    SeqOutOfRange {
        /// The event asked for.
        seq: u64,
        /// The oldest event the ring holds.
        oldest: u64,
        /// The latest event.
        clock: u64,
    },
}

impl From<TraceError> for PastError {
    fn from(error: TraceError) -> Self {
        PastError::Trace(error)
    }
}

impl fmt::Display for PastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PastError::Trace(error) => error.fmt(f),
            PastError::RunOutOfRange { node, run, runs: 0 } => write!(
                f,
                "{node} has no run {run}: it has not run (a signal is written, not run; expected a memo or effect \
                 that ran)"
            ),
            PastError::RunOutOfRange { node, run, runs } => write!(
                f,
                "{node} has no run {run}: expected a run from 1 to {runs}"
            ),
            PastError::RunDropped {
                node,
                run,
                oldest,
                first_held,
            } => {
                write!(
                    f,
                    "run {run} of {node} was dropped from the trace ring (the oldest event kept is #{oldest}); "
                )?;
                match first_held {
                    Some(first) => write!(f, "expected a run from {first} on"),
                    None => f.write_str("the ring holds none of its runs"),
                }
            }
            PastError::SeqDropped { seq, oldest, clock } => write!(
                f,
                "event #{seq} was dropped from the trace ring: the oldest event kept is #{oldest} (expected a seq \
                 from #{oldest} to #{clock})"
            ),
            PastError::SeqOutOfRange { seq, oldest, clock } => write!(
                f,
                "there is no event #{seq}: expected a seq from #{oldest} to #{clock}, the latest"
            ),
        }
    }
}

impl std::error::Error for PastError {}

/// One node as the graph held it at an earlier event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastNode {
    /// The node.
    pub node: NodeName,
    /// Its kind.
    pub kind: NodeKind,
    /// Where it was created.
    pub site: Site,
    /// Its value then, as `Debug` text: the latest write or run end at or before the point, else its value now when
    /// it has not moved since; `None` for effects, for memos that had not run, and when the log holds no value for
    /// it then (the event that set it was dropped from the ring, or it is a signal's initial value, which is not an
    /// event) while it moved since.
    pub value: Option<String>,
    /// What it read then (its sources), in the order the log knows.
    pub sources: Vec<NodeName>,
    /// The computation whose run created it.
    pub owner: Option<NodeName>,
    /// How many runs it had started then.
    pub runs: u32,
    /// Whether it had been disposed then.
    pub disposed: bool,
}

/// The graph as it stood right after event `seq`: its nodes (those the trace still keeps a record of), their
/// values then, owners and edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastSnapshot {
    /// The event the snapshot stands at.
    pub seq: u64,
    /// The latest event now.
    pub clock: u64,
    /// The oldest event the ring holds.
    pub oldest: u64,
    /// The nodes made by then, by id.
    pub nodes: Vec<PastNode>,
}

impl PastSnapshot {
    /// The node `id` as it stood then, if it had been made.
    pub fn node(&self, id: NodeId) -> Option<&PastNode> {
        self.nodes
            .binary_search_by_key(&id, |n| n.node.id)
            .ok()
            .map(|i| &self.nodes[i])
    }
}

impl fmt::Display for PastNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.node, self.kind.name(), self.site)?;
        if let Some(value) = &self.value {
            write!(f, " = {value}")?;
        }
        if !self.sources.is_empty() {
            f.write_str(" reads [")?;
            for (i, s) in self.sources.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{s}")?;
            }
            f.write_str("]")?;
        }
        if let Some(owner) = &self.owner {
            write!(f, " owner {owner}")?;
        }
        if self.runs > 0 {
            write!(f, " runs {}", self.runs)?;
        }
        if self.disposed {
            f.write_str(" (disposed)")?;
        }
        Ok(())
    }
}

impl fmt::Display for PastSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "snapshot at #{}: {} nodes; the ring holds #{}..#{}",
            self.seq,
            self.nodes.len(),
            self.oldest,
            self.clock
        )?;
        for node in &self.nodes {
            write!(f, "\n{node}")?;
        }
        Ok(())
    }
}

/// A node whose live edges differ from the edges the log folded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeMismatch {
    /// The node.
    pub node: NodeName,
    /// Sources the engine holds that the log does not.
    pub sources_unlogged: Vec<NodeName>,
    /// Sources the log holds that the engine does not.
    pub sources_not_live: Vec<NodeName>,
    /// Observers the engine holds that no record's sources name.
    pub observers_unlogged: Vec<NodeName>,
    /// Readers whose record names the node as a source that the engine does not list as observers.
    pub observers_not_live: Vec<NodeName>,
}

impl fmt::Display for EdgeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.node)?;
        for (what, list) in [
            ("sources live, not logged", &self.sources_unlogged),
            ("sources logged, not live", &self.sources_not_live),
            ("observers live, not logged", &self.observers_unlogged),
            ("observers logged, not live", &self.observers_not_live),
        ] {
            if !list.is_empty() {
                let names: Vec<String> = list.iter().map(ToString::to_string).collect();
                write!(f, " {what} [{}]", names.join(", "))?;
            }
        }
        Ok(())
    }
}

/// The nodes, as ids, in `a` and not in `b` (each once, in `a`'s order).
fn missing(a: &[NodeId], b: &[NodeId]) -> Vec<NodeId> {
    let b: HashSet<NodeId> = b.iter().copied().collect();
    let mut seen = HashSet::new();
    a.iter()
        .copied()
        .filter(|n| !b.contains(n) && seen.insert(*n))
        .collect()
}

impl Ctx<'_> {
    /// The cause chain of `id`'s run `run` (from 1), when the ring still holds its start.
    pub fn why_at(&self, id: NodeId, run: u32) -> Result<Why, PastError> {
        let r = self.check(id)?;
        if run == 0 || run > r.runs || r.kind == NodeKind::Signal {
            return Err(PastError::RunOutOfRange {
                node: self.name(id),
                run,
                runs: r.runs,
            });
        }
        let mut first_held = None;
        for e in self.tracer.events_of(id) {
            if let EventKind::RunStart { node, run: n, .. } = e.kind
                && node == id
            {
                first_held.get_or_insert(n);
                if n == run {
                    return Ok(self.why_from(id, run, e.seq));
                }
            }
        }
        Err(PastError::RunDropped {
            node: self.name(id),
            run,
            oldest: self.oldest,
            first_held,
        })
    }

    /// [`why`](Self::why) keeping the newest `depth` steps (the root is the whole chain's).
    pub fn why_depth(&self, id: NodeId, depth: usize) -> Result<Why, TraceError> {
        let mut why = self.why(id)?;
        why.steps.truncate(depth);
        let kept: HashSet<u64> = why.steps.iter().map(|e| e.seq).collect();
        why.write_sites.retain(|seq, _| kept.contains(seq));
        Ok(why)
    }

    /// The chain from `start`, the `RunStart` of `id`'s run `run`, as [`why`](Self::why) builds it.
    fn why_from(&self, id: NodeId, run: u32, start: u64) -> Why {
        let (steps, root) = self.chain(start);
        self.why_of(id, run, steps, root)
    }

    /// The graph right after event `seq`, rebuilt by undoing the events the ring holds after it.
    pub fn snapshot_at(&self, seq: u64) -> Result<PastSnapshot, PastError> {
        let clock = self.tracer.clock();
        if seq == 0 || seq > clock {
            return Err(PastError::SeqOutOfRange {
                seq,
                oldest: self.oldest,
                clock,
            });
        }
        if seq < self.oldest {
            return Err(PastError::SeqDropped {
                seq,
                oldest: self.oldest,
                clock,
            });
        }
        let events = self.tracer.events();
        let split = events.partition_point(|e| e.seq <= seq);
        let (before, after) = events.split_at(split);
        // each node's sources, runs and value now, then undone newest first
        let mut sources: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        let mut runs: HashMap<NodeId, u32> = HashMap::new();
        let mut moved_after: HashSet<NodeId> = HashSet::new();
        let ids: Vec<NodeId> = self
            .ids()
            .iter()
            .copied()
            .filter(|id| self.brief(*id, |r| r.kind).is_some())
            .collect();
        for id in &ids {
            if let Some(r) = self.rec(*id) {
                sources.insert(*id, r.sources.clone());
                runs.insert(*id, r.runs);
            }
        }
        for e in after.iter().rev() {
            match &e.kind {
                EventKind::EdgeAdd { node, source } => {
                    if let Some(list) = sources.get_mut(node)
                        && let Some(i) = list.iter().rposition(|s| s == source)
                    {
                        list.remove(i);
                    }
                }
                EventKind::EdgeRemove { node, source } => {
                    if let Some(list) = sources.get_mut(node) {
                        list.push(*source);
                    }
                }
                EventKind::RunStart { node, .. } => {
                    if let Some(n) = runs.get_mut(node) {
                        *n = n.saturating_sub(1);
                    }
                }
                EventKind::Write { node, moved, .. } if *moved => {
                    moved_after.insert(*node);
                }
                EventKind::RunEnd { node, moved, .. } if *moved => {
                    moved_after.insert(*node);
                }
                _ => {}
            }
        }
        // each node's latest recorded value at or before `seq`
        let mut value_then: HashMap<NodeId, Option<Rc<str>>> = HashMap::new();
        for e in before {
            match &e.kind {
                EventKind::Write { node, value, .. } => {
                    value_then.insert(*node, Some(value.clone()));
                }
                EventKind::RunEnd { node, value, .. } => {
                    value_then.insert(*node, value.clone());
                }
                _ => {}
            }
        }
        let mut nodes = Vec::new();
        for id in ids {
            let Some(r) = self.rec(id) else { continue };
            if r.created > seq {
                continue;
            }
            let runs_then = runs.get(&id).copied().unwrap_or(0);
            let value = match r.kind {
                NodeKind::Effect => None,
                NodeKind::Memo if runs_then == 0 => None,
                _ => match value_then.get(&id) {
                    Some(text) => text.as_deref().map(clip),
                    // nothing recorded in the ring by then: its value now, if it has not moved since
                    None if !moved_after.contains(&id) => self.value(id),
                    None => None,
                },
            };
            nodes.push(PastNode {
                node: self.name(id),
                kind: r.kind,
                site: Site::of(r.site),
                value,
                sources: sources
                    .get(&id)
                    .map(|list| list.iter().map(|s| self.name(*s)).collect())
                    .unwrap_or_default(),
                owner: r.owner.map(|o| self.name(o)),
                runs: runs_then,
                disposed: r.disposed != 0 && r.disposed <= seq,
            });
        }
        Ok(PastSnapshot {
            seq,
            clock,
            oldest: self.oldest,
            nodes,
        })
    }

    /// The node holding identity path `path`: `/owner/name` (the leading `/` may be left out), or a row's path such
    /// as `items[apple]/line_total`. A path several nodes held over time resolves to the live holder, else the latest.
    pub fn resolve(&self, path: &str) -> Result<NodeId, LookupError> {
        let text = path.trim();
        let fail = |reason: String, candidates: Vec<NodeName>| LookupError {
            query: text.to_owned(),
            reason,
            candidates: candidates.into_iter().take(20).collect(),
        };
        if text.is_empty() || text == "/" {
            return Err(fail(
                "expected an identity path like `/owner/name` or a row's path like `items[apple]/line_total`"
                    .into(),
                Vec::new(),
            ));
        }
        let pick = |holders: Vec<NodeId>| -> Option<NodeId> {
            holders
                .iter()
                .rev()
                .find(|id| self.brief(**id, |r| r.disposed == 0).unwrap_or(false))
                .or(holders.last())
                .copied()
        };
        let with_slash = if text.starts_with('/') {
            text.to_owned()
        } else {
            format!("/{text}")
        };
        let by_path: Vec<NodeId> = self
            .ids()
            .iter()
            .copied()
            .filter(|id| self.path(*id) == with_slash)
            .collect();
        if let Some(id) = pick(by_path) {
            return Ok(id);
        }
        // a row's path is its name: the collection's label, the key, the node's own label
        let by_name: Vec<NodeId> = self
            .ids()
            .iter()
            .copied()
            .filter(|id| *self.base_name(*id) == *text.trim_start_matches('/'))
            .collect();
        if let Some(id) = pick(by_name) {
            return Ok(id);
        }
        let last = text.rsplit('/').next().unwrap_or(text).to_lowercase();
        let close: Vec<NodeName> = self
            .ids()
            .iter()
            .copied()
            .filter(|id| {
                let path = self.path(*id).to_lowercase();
                !last.is_empty() && path.contains(&last)
            })
            .map(|id| self.name(id))
            .collect();
        Err(fail(
            "no node has this identity path (expected `/owner/name`, each segment a node's name, or a row's path \
             like `items[apple]/line_total`)"
                .into(),
            close,
        ))
    }

    /// The living nodes whose engine edges differ from the edges the log folded into their records; empty when the
    /// two agree.
    pub fn reconcile(&self) -> Vec<EdgeMismatch> {
        // the readers each record names, by source: what the log says observes each node
        let mut logged_observers: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        let mut held: Vec<(NodeId, Vec<NodeId>)> = Vec::new();
        self.tracer.scan(|r| {
            if r.disposed != 0 {
                return;
            }
            held.push((r.id, r.sources.to_vec()));
        });
        for (id, sources) in &held {
            for s in sources {
                logged_observers.entry(*s).or_default().push(*id);
            }
        }
        let mut out = Vec::new();
        for (id, logged_sources) in &held {
            let Some(node) = self.tracer.live(*id) else {
                continue;
            };
            let live_sources: Vec<NodeId> = node
                .computation()
                .map(|c| c.sources.borrow().iter().map(|s| s.core().id).collect())
                .unwrap_or_default();
            let live_observers: Vec<NodeId> = node
                .core()
                .observers
                .borrow()
                .iter()
                .map(|o| o.core().id)
                .collect();
            let logged_obs = logged_observers.get(id).cloned().unwrap_or_default();
            let names = |ids: Vec<NodeId>| ids.into_iter().map(|n| self.name(n)).collect::<Vec<_>>();
            let mismatch = EdgeMismatch {
                node: self.name(*id),
                sources_unlogged: names(missing(&live_sources, logged_sources)),
                sources_not_live: names(missing(logged_sources, &live_sources)),
                observers_unlogged: names(missing(&live_observers, &logged_obs)),
                observers_not_live: names(missing(&logged_obs, &live_observers)),
            };
            if !(mismatch.sources_unlogged.is_empty()
                && mismatch.sources_not_live.is_empty()
                && mismatch.observers_unlogged.is_empty()
                && mismatch.observers_not_live.is_empty())
            {
                out.push(mismatch);
            }
        }
        out
    }
}

/// The cause chain of `node`'s run `run` (from 1, as [`history`] numbers them), newest first, back to its root: what
/// [`why`] answers for the latest run, for an earlier one the ring still holds.
///
/// # Errors
///
/// [`PastError::RunOutOfRange`] for a run the node never started (a signal has none), [`PastError::RunDropped`] when
/// the ring no longer holds the run's start (naming the oldest run it holds), [`PastError::Trace`] for an unknown or
/// dropped node and in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2).labelled("price");
/// let total = Memo::new({ let p = price.clone(); move |_| p.get() * 10 }).labelled("total");
/// total.get();
/// price.set(3);
/// total.get();
/// # if !trace::TRACED { assert!(trace::why_at(&total, 1).is_err()); return; }
/// // run 1 was pulled by the program; run 2 follows the write of 3
/// assert!(matches!(trace::why_at(&total, 1).unwrap().root, trace::WhyRoot::Pulled { .. }));
/// assert!(matches!(trace::why_at(&total, 2).unwrap().root, trace::WhyRoot::ProgramWrite { .. }));
/// let err = trace::why_at(&total, 3).unwrap_err();
/// assert_eq!(err.to_string(), "total#2 has no run 3: expected a run from 1 to 2");
/// ```
pub fn why_at(node: impl AnyNode, run: u32) -> Result<Why, PastError> {
    query(|c| c.why_at(node.node_id(), run))?
}

/// [`why`] bounded to the newest `depth` steps of the chain (its root is still where the whole chain starts).
///
/// # Errors
///
/// As [`why`].
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2);
/// let total = Memo::new({ let p = price.clone(); move |_| p.get() * 10 });
/// total.get();
/// price.set(3);
/// total.get();
/// # if !trace::TRACED { return; }
/// assert_eq!(trace::why_depth(&total, 1).unwrap().steps.len(), 1);
/// ```
pub fn why_depth(node: impl AnyNode, depth: usize) -> Result<Why, TraceError> {
    query(|c| c.why_depth(node.node_id(), depth))?
}

/// The graph as it stood right after event `seq`: every node made by then (that the trace keeps a record of), with
/// its value then as text, its owner and its sources. The ring is bounded, so `seq` must be one it still holds.
///
/// # Errors
///
/// [`PastError::SeqDropped`] when the ring has dropped `seq` (naming the oldest event kept),
/// [`PastError::SeqOutOfRange`] for 0 or a seq past the latest event, [`PastError::Trace`] in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2);
/// let total = Memo::new({ let p = price.clone(); move |_| p.get() * 10 });
/// total.get();
/// # if !trace::TRACED { assert!(trace::snapshot_at(1).is_err()); return; }
/// let before = trace::events().last().unwrap().seq;
/// price.set(3);
/// total.get();
/// let then = trace::snapshot_at(before).unwrap();
/// assert_eq!(then.node(total.id()).unwrap().value.as_deref(), Some("20"));
/// assert_eq!(trace::snapshot_at(u64::MAX).unwrap_err().to_string().contains("expected a seq"), true);
/// ```
pub fn snapshot_at(seq: u64) -> Result<PastSnapshot, PastError> {
    query(|c| c.snapshot_at(seq))?
}

/// The node holding an identity path: `/owner/name` (`owner/name` too), or a collection row's path such as
/// `items[apple]/line_total`. A path several nodes held resolves to the live holder, else the latest.
///
/// # Errors
///
/// A [`LookupError`] saying what a path looks like, with nodes whose path ends alike (in an untraced build, one saying
/// the build records no trace).
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2).labelled("price");
/// # if !trace::TRACED { assert!(trace::resolve("/price").is_err()); return; }
/// assert_eq!(trace::resolve("/price").unwrap(), price.id());
/// assert!(trace::resolve("/nothing/here").is_err());
/// ```
pub fn resolve(path: &str) -> Result<NodeId, LookupError> {
    query(|c| c.resolve(path)).unwrap_or_else(|untraced| {
        Err(LookupError {
            query: path.to_owned(),
            reason: untraced.to_string(),
            candidates: Vec::new(),
        })
    })
}

/// The living nodes whose edges in the engine (sources read, observers notified) differ from the edges the trace
/// folded from its log; an empty list is the healthy answer.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2);
/// let total = Memo::new({ let p = price.clone(); move |_| p.get() * 10 });
/// total.get();
/// # if !trace::TRACED { assert!(trace::reconcile().is_err()); return; }
/// assert!(trace::reconcile().unwrap().is_empty());
/// ```
pub fn reconcile() -> Result<Vec<EdgeMismatch>, TraceError> {
    query(|c| c.reconcile())
}

#[cfg(test)]
mod tests {
    use crate::{Effect, Memo, Signal, trace};

    /// A price, a total of it and an effect reading the total; `price` written `writes` times after the first pull.
    fn graph(writes: &[i64]) -> (Signal<i64>, Memo<i64>, Effect) {
        let price = Signal::new(2).labelled("price");
        let total = Memo::new({
            let p = price.clone();
            move |_| p.get() * 10
        })
        .labelled("total");
        let effect = Effect::new({
            let t = total.clone();
            move || {
                t.get();
            }
        });
        for w in writes {
            price.set(*w);
        }
        (price, total, effect)
    }

    #[test]
    fn history_lists_every_run_with_its_status_root_and_value() {
        let (price, total, _effect) = graph(&[3, 3, 4]);
        if !trace::TRACED {
            return;
        }
        let history = trace::history(&total).unwrap();
        let values: Vec<_> = history
            .entries
            .iter()
            .map(|e| (e.run, e.value.as_deref().map(str::to_owned)))
            .collect();
        assert_eq!(
            values,
            vec![(1, Some("20".into())), (2, Some("30".into())), (3, Some("40".into()))],
            "an equal write re-runs nothing"
        );
        assert!(
            history.entries[1..]
                .iter()
                .all(|e| e.status == trace::RunStatus::Moved
                    && matches!(e.root, trace::WhyRoot::ProgramWrite { node, .. } if node == price.id()))
        );
        let text = history.to_string();
        assert!(text.contains("run 3 #"), "{text}");
        assert!(text.contains("moved = 40 (root: program write to price"), "{text}");
    }

    #[test]
    fn why_at_follows_an_earlier_run_and_refuses_runs_it_cannot_answer() {
        let (price, total, _effect) = graph(&[3, 4]);
        if !trace::TRACED {
            assert_eq!(
                trace::why_at(&total, 1),
                Err(trace::PastError::Trace(trace::TraceError::NotTraced))
            );
            return;
        }
        let history = trace::history(&total).unwrap();
        for entry in &history.entries {
            let why = trace::why_at(&total, entry.run).unwrap();
            assert_eq!(why.run, entry.run);
            assert_eq!(why.steps[0].seq, entry.start, "the chain starts at the run's start");
            assert_eq!(why.root, entry.root);
        }
        // the latest run's chain is `why`'s
        assert_eq!(trace::why_at(&total, 3).unwrap(), trace::why(&total).unwrap());
        assert_ne!(trace::why_at(&total, 2).unwrap().steps, trace::why(&total).unwrap().steps);
        let err = trace::why_at(&total, 4).unwrap_err();
        assert!(matches!(err, trace::PastError::RunOutOfRange { run: 4, runs: 3, .. }), "{err}");
        assert!(err.to_string().contains("expected a run from 1 to 3"), "{err}");
        let err = trace::why_at(&price, 1).unwrap_err();
        assert!(err.to_string().contains("a signal is written, not run"), "{err}");
    }

    #[test]
    fn why_at_names_the_oldest_run_the_ring_still_holds() {
        trace::set_capacity(64);
        let price = Signal::new(0);
        let total = Memo::new({
            let p = price.clone();
            move |_| p.get() + 1
        });
        for i in 1..100 {
            price.set(i);
            total.get();
        }
        if !trace::TRACED {
            return;
        }
        let err = trace::why_at(&total, 1).unwrap_err();
        let trace::PastError::RunDropped {
            first_held: Some(first),
            oldest,
            ..
        } = err.clone()
        else {
            panic!("{err}")
        };
        assert!(first > 1 && first <= 100, "{err}");
        assert!(err.to_string().contains(&format!("oldest event kept is #{oldest}")), "{err}");
        assert!(trace::why_at(&total, first).is_ok());
        // snapshot_at refuses a dropped point, naming the oldest kept
        let err = trace::snapshot_at(1).unwrap_err();
        assert!(matches!(err, trace::PastError::SeqDropped { seq: 1, oldest: o, .. } if o == oldest), "{err}");
        assert!(err.to_string().contains(&format!("the oldest event kept is #{oldest}")), "{err}");
        trace::set_capacity(trace::DEFAULT_CAPACITY);
    }

    #[test]
    fn why_depth_keeps_the_newest_steps() {
        let (_price, total, _effect) = graph(&[3]);
        if !trace::TRACED {
            return;
        }
        let whole = trace::why(&total).unwrap();
        assert!(whole.steps.len() >= 3, "{whole}");
        let two = trace::why_depth(&total, 2).unwrap();
        assert_eq!(two.steps, whole.steps[..2]);
        assert_eq!(two.root, whole.root);
        assert_eq!(trace::why_depth(&total, 1000).unwrap(), whole);
    }

    #[test]
    fn snapshot_at_rebuilds_values_edges_and_nodes_then() {
        let price = Signal::new(2).labelled("price");
        let rate = Signal::new(100).labelled("rate");
        let use_rate = Signal::new(false).labelled("use_rate");
        let total = Memo::new({
            let (p, r, u) = (price.clone(), rate.clone(), use_rate.clone());
            move |_| if u.get() { p.get() * r.get() } else { p.get() * 10 }
        })
        .labelled("total");
        assert_eq!(total.get(), 20);
        let first = trace::events().last().map_or(0, |e| e.seq);
        price.set(3);
        use_rate.set(true);
        assert_eq!(total.get(), 300);
        let later = Memo::new({
            let t = total.clone();
            move |_| t.get() + 1
        })
        .labelled("later");
        assert_eq!(later.get(), 301);
        if !trace::TRACED {
            return;
        }
        let then = trace::snapshot_at(first).unwrap();
        let node = |s: &trace::PastSnapshot, id| s.node(id).cloned().unwrap();
        let total_then = node(&then, total.id());
        assert_eq!(total_then.value.as_deref(), Some("20"));
        assert_eq!(total_then.runs, 1);
        let mut read: Vec<_> = total_then.sources.iter().map(|n| n.id).collect();
        read.sort();
        assert_eq!(read, vec![price.id(), use_rate.id()], "rate was not read yet");
        // a signal's initial value is not an event: the log holds none for price then, and it moved since
        assert_eq!(node(&then, price.id()).value, None);
        assert_eq!(node(&then, rate.id()).value.as_deref(), Some("100"), "unmoved: its value now");
        assert!(then.node(later.id()).is_none(), "made after");
        // now: the same fold at the latest event agrees with the live graph
        let now = trace::snapshot_at(trace::events().last().unwrap().seq).unwrap();
        let total_now = node(&now, total.id());
        assert_eq!(total_now.value.as_deref(), Some("300"));
        assert_eq!(total_now.runs, 2);
        assert_eq!(total_now.sources.len(), 3);
        assert_eq!(node(&now, later.id()).value.as_deref(), Some("301"));
        assert!(now.to_string().contains("total#4 Memo"), "{now}");
        let err = trace::snapshot_at(0).unwrap_err();
        assert!(err.to_string().contains("expected a seq from #1"), "{err}");
    }

    #[test]
    fn resolve_finds_identity_paths_and_explains_a_miss() {
        let items = Signal::new(1).labelled("items");
        let owner = Memo::new({
            let i = items.clone();
            move |_| {
                let inner = Memo::new(|_| 5).labelled("inner");
                i.get() + inner.get()
            }
        })
        .labelled("outer");
        assert_eq!(owner.get(), 6);
        if !trace::TRACED {
            assert!(trace::resolve("/items").is_err());
            return;
        }
        assert_eq!(trace::resolve("/items").unwrap(), items.id());
        assert_eq!(trace::resolve("items").unwrap(), items.id());
        let inner = trace::resolve("/outer/inner").unwrap();
        assert_eq!(trace::origin(inner).unwrap().path, "/outer/inner");
        assert_eq!(trace::resolve("outer/inner").unwrap(), inner);
        let miss = trace::resolve("/outer/inne").unwrap_err();
        assert!(miss.reason.contains("expected `/owner/name`"), "{miss}");
        let miss = trace::resolve("/nowhere/inner").unwrap_err();
        assert!(miss.candidates.iter().any(|n| n.id == inner), "{miss:?}");
        assert!(trace::resolve("").is_err());
    }

    #[test]
    fn reconcile_is_empty_when_healthy_and_names_a_planted_mismatch() {
        let (price, total, _effect) = graph(&[3]);
        if !trace::TRACED {
            assert_eq!(trace::reconcile(), Err(trace::TraceError::NotTraced));
            return;
        }
        assert_eq!(trace::reconcile().unwrap(), vec![]);
        // plant a mismatch: the engine forgets total's edge from price, the log still holds it
        let live = crate::graph::with_runtime(|rt| rt.tracer.live(total.id())).unwrap();
        let removed = live.computation().unwrap().sources.borrow_mut().swap_remove(0);
        let found = trace::reconcile().unwrap();
        // put it back before asserting, so the graph is whole when dropped
        live.computation().unwrap().sources.borrow_mut().push(removed);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].node.id, total.id());
        assert_eq!(
            found[0].sources_not_live.iter().map(|n| n.id).collect::<Vec<_>>(),
            vec![price.id()]
        );
        assert!(found[0].to_string().contains("sources logged, not live [price#1]"), "{}", found[0]);
        assert_eq!(trace::reconcile().unwrap(), vec![]);
    }
}
