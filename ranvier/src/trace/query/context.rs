//! The query context: a view of the tracer's node table for one tool call, read in place. A record is copied out
//! of the table the first time a query reads it, observers are indexed on first use in one linear pass, and names are
//! computed on demand; the lookups every query shares (records, names, paths, upstream walks, cause chains).

use super::*;
use crate::trace::log::{Brief, IdMap};
use std::cell::OnceCell;

/// The nodes created by one run (or at the root) under one name, in creation order.
type SiblingIndex = HashMap<(Option<NodeId>, u64, Rc<str>), Vec<NodeId>>;

/// Every observer, grouped by the node observed: those of the node with id `i` are `.0[.1[i]..(.1[i + 1])]`, in id
/// order.
type ObserverIndex = (Vec<NodeId>, Vec<u32>);

/// How many ids share a page of the view's cache of copied records.
const CACHE_PAGE: usize = 64;

/// A page of the view's cache: the records of [`CACHE_PAGE`] consecutive ids, each copied when first read.
type CachePage = [OnceCell<Box<NodeRecord>>; CACHE_PAGE];

/// How many sources and observers a node has, when its [`NodeInfo`] names only the first few (the MCP adapter's
/// lines print them; a build without it reads neither).
#[derive(Copy, Clone, Debug)]
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) struct Counts {
    pub sources: usize,
    pub observers: usize,
}

/// A view of the tracer for one query: records copied on first read, observers indexed on first use, names computed
/// on demand. An answer that shows a few nodes copies those few, not the table.
pub(crate) struct Ctx<'a> {
    pub tracer: &'a Tracer,
    /// Each id's record, once a query read it, in pages of [`CACHE_PAGE`] ids made on first use: a view of a table
    /// of 100,000 nodes starts from 1,563 empty pages, not 100,000 cells.
    cache: Vec<OnceCell<Box<CachePage>>>,
    /// One more than the highest id the table held when the view was made: the view holds the ids below it.
    bound: usize,
    observer_index: OnceCell<ObserverIndex>,
    /// Every id the table holds, in id order, once a query listed them.
    ids: OnceCell<Vec<NodeId>>,
    pub oldest: u64,
    pub(super) names: RefCell<IdMap<Rc<str>>>,
    pub(super) siblings: RefCell<Option<SiblingIndex>>,
    /// The binding at each creation site (and kind) read so far.
    bindings: RefCell<HashMap<(usize, NodeKind), Rc<str>>>,
    /// The nodes the program read outside any memo or effect (their records keep where), found once.
    program_readers: OnceCell<Vec<NodeId>>,
}

impl<'a> Ctx<'a> {
    pub fn new(tracer: &'a Tracer) -> Self {
        Ctx {
            tracer,
            cache: std::iter::repeat_with(OnceCell::new)
                .take(tracer.id_bound().div_ceil(CACHE_PAGE))
                .collect(),
            bound: tracer.id_bound(),
            observer_index: OnceCell::new(),
            ids: OnceCell::new(),
            oldest: tracer.oldest_seq(),
            names: RefCell::new(IdMap::default()),
            siblings: RefCell::new(None),
            program_readers: OnceCell::new(),
            bindings: RefCell::new(HashMap::new()),
        }
    }

    /// The observers of every node, from the living records' sources (a source listed twice by one record is one
    /// observer), in one pass over the table and a counting sort.
    fn observer_index(&self) -> &ObserverIndex {
        self.observer_index.get_or_init(|| {
            let bound = self.bound;
            let mut edges: Vec<(u32, NodeId)> = Vec::new();
            // the last reader that listed each source: a repeat within one record is skipped without hashing
            let mut last_reader = vec![u32::MAX; bound];
            self.tracer.scan(|r| {
                if r.disposed != 0 {
                    return;
                }
                for source in r.sources {
                    let Some(last) = last_reader.get_mut(source.0 as usize) else {
                        continue;
                    };
                    if *last != r.id.0 {
                        *last = r.id.0;
                        edges.push((source.0, r.id));
                    }
                }
            });
            let mut starts = vec![0u32; bound + 1];
            for (source, _) in &edges {
                starts[*source as usize + 1] += 1;
            }
            for i in 1..starts.len() {
                starts[i] += starts[i - 1];
            }
            // the records were scanned in id order, so each node's observers land in id order
            let mut next = starts.clone();
            let mut observers = vec![NodeId(0); edges.len()];
            for (source, observer) in edges {
                let at = &mut next[source as usize];
                observers[*at as usize] = observer;
                *at += 1;
            }
            (observers, starts)
        })
    }

    /// Every id the table holds, in id order.
    pub fn ids(&self) -> &[NodeId] {
        self.ids.get_or_init(|| {
            let mut ids = Vec::new();
            self.tracer.scan(|r| {
                if (r.id.0 as usize) < self.bound {
                    ids.push(r.id);
                }
            });
            ids
        })
    }

    /// Whether the table holds node `id`'s record, without copying it.
    pub fn holds(&self, id: NodeId) -> bool {
        let i = id.0 as usize;
        if i >= self.bound {
            return false;
        }
        let copied = self.cache[i / CACHE_PAGE]
            .get()
            .is_some_and(|page| page[i % CACHE_PAGE].get().is_some());
        copied || self.tracer.holds(id)
    }

    /// Runs `f` on the facts of `id`'s record that names need, read in place.
    pub(super) fn brief<R>(&self, id: NodeId, f: impl FnOnce(&Brief<'_>) -> R) -> Option<R> {
        if id.0 as usize >= self.bound {
            return None;
        }
        self.tracer.brief(id, f)
    }

    /// Node `id`'s record, copied out of the table the first time it is asked for.
    pub fn rec(&self, id: NodeId) -> Option<&NodeRecord> {
        let i = id.0 as usize;
        if i >= self.bound {
            return None;
        }
        let page = self.cache[i / CACHE_PAGE]
            .get_or_init(|| Box::new(std::array::from_fn(|_| OnceCell::new())));
        let cell = &page[i % CACHE_PAGE];
        if let Some(record) = cell.get() {
            return Some(record);
        }
        let record = self.tracer.record(id)?;
        Some(cell.get_or_init(|| Box::new(record)))
    }

    pub fn check(&self, id: NodeId) -> Result<&NodeRecord, TraceError> {
        self.rec(id).ok_or_else(|| self.missing(id))
    }

    /// The error for a node the table does not hold.
    pub fn missing(&self, id: NodeId) -> TraceError {
        if self.tracer.ever_made(id) {
            TraceError::Dropped(id)
        } else {
            TraceError::UnknownNode(id)
        }
    }

    /// Every record the table holds, in id order (each copied as it is reached: a whole-table answer).
    pub fn records(&self) -> impl Iterator<Item = &NodeRecord> {
        self.ids().iter().filter_map(|id| self.rec(*id))
    }

    /// The nodes the program read outside any memo or effect (their records keep where), in id order.
    pub fn program_readers(&self) -> impl Iterator<Item = &NodeRecord> {
        self.program_readers
            .get_or_init(|| {
                let mut ids = Vec::new();
                self.tracer.scan(|r| {
                    if r.program_read && (r.id.0 as usize) < self.bound {
                        ids.push(r.id);
                    }
                });
                ids
            })
            .iter()
            .filter_map(|id| self.rec(*id))
    }

    pub fn event(&self, seq: u64) -> Option<Event> {
        if seq == 0 {
            None
        } else {
            // a message the ring dropped is still named by the table of messages
            self.tracer.event(seq).or_else(|| {
                let m = self.tracer.kept_message(seq)?;
                Some(Event {
                    seq,
                    cause: m.cause,
                    kind: EventKind::Message {
                        target: m.target,
                        name: m.name,
                        args: m.args,
                    },
                })
            })
        }
    }

    /// The living computations that read `id`, in id order, each once. A living node's are its own observer list
    /// (what the engine notifies), read in place; only a dropped node's are looked up in the index of the whole
    /// table, built then.
    pub fn observers(&self, id: NodeId) -> Vec<NodeId> {
        if let Some(node) = self.tracer.live(id) {
            let mut ids: Vec<NodeId> = node
                .core()
                .observers
                .borrow()
                .iter()
                .map(|o| o.core().id)
                // as the index counts them: readers the view holds and that were not disposed
                .filter(|o| self.brief(*o, |r| r.disposed == 0).unwrap_or(false))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            return ids;
        }
        let (observers, starts) = self.observer_index();
        let i = id.0 as usize;
        match (starts.get(i), starts.get(i + 1)) {
            (Some(start), Some(end)) => observers[*start as usize..*end as usize].to_vec(),
            _ => Vec::new(),
        }
    }

    /// The node's name without `#id`.
    pub fn base_name(&self, id: NodeId) -> Rc<str> {
        if let Some(name) = self.names.borrow().get(&id) {
            return name.clone();
        }
        let name = match self.brief(id, |r| (r.label.cloned(), r.site, r.kind)) {
            None => Rc::from("node"),
            // a log loaded from a dump: the name the dumped process gave it (its source may not be here)
            Some(_) if let Some(name) = self.tracer.dumped_name(id) => name,
            Some((Some(label), _, _)) => label,
            Some((None, site, kind)) => self.binding(site, kind),
        };
        self.names.borrow_mut().insert(id, name.clone());
        name
    }

    /// The name of the binding at `site` for a node of `kind` (or the kind's name): nodes made at one line (a row
    /// per item) share it, so it is read once.
    fn binding(&self, site: SiteRef, kind: NodeKind) -> Rc<str> {
        let key = (site.key(), kind);
        let cached = self.bindings.borrow().get(&key).cloned();
        cached.unwrap_or_else(|| {
            let name: Rc<str> = match names::binding_at(site.file(), site.line(), site.column()) {
                Some(binding) => Rc::from(binding),
                None => Rc::from(kind.name()),
            };
            self.bindings.borrow_mut().insert(key, name.clone());
            name
        })
    }

    pub fn name(&self, id: NodeId) -> NodeName {
        NodeName {
            id,
            name: self.base_name(id),
        }
    }

    pub fn names_of(&self, ids: impl IntoIterator<Item = NodeId>) -> Names {
        Names(ids.into_iter().map(|id| (id, self.base_name(id))).collect())
    }

    /// The text of the line that created `id` (what [`origin`](Self::origin) quotes, without its path), for the MCP
    /// adapter's `node` lines.
    #[cfg(feature = "mcp")]
    pub fn source_line(&self, id: NodeId) -> Option<String> {
        let site = self.brief(id, |r| r.site)?;
        names::line_text(site.file(), site.line())
    }

    /// The current value text: the live node's, else the last recorded (read in place: no record is copied).
    pub fn value(&self, id: NodeId) -> Option<String> {
        let (kind, runs) = self.brief(id, |r| (r.kind, r.runs))?;
        match kind {
            NodeKind::Effect => None,
            NodeKind::Memo if runs == 0 => None,
            _ => match self.tracer.value_now(id) {
                Some(text) => Some(clip(&text)),
                None => self.tracer.recorded_value(id).as_deref().map(clip),
            },
        }
    }

    /// The identity path: the owner chain's names from the root, `/` separated; a repeated name among the nodes
    /// one run created takes `[n]` (n from 2).
    pub fn path(&self, id: NodeId) -> String {
        let mut segments = Vec::new();
        let mut current = Some(id);
        let mut guard = 0;
        while let Some(node) = current {
            guard += 1;
            if guard > 1000 {
                break;
            }
            segments.push(self.segment(node));
            current = self.rec(node).and_then(|r| r.owner);
        }
        let mut path = String::new();
        for segment in segments.iter().rev() {
            path.push('/');
            path.push_str(segment);
        }
        path
    }

    pub(super) fn segment(&self, id: NodeId) -> String {
        let base = self.base_name(id);
        let escaped = escape_segment(&base);
        let Some((owner, creating_run)) = self.brief(id, |r| (r.owner, r.creating_run)) else {
            return escaped;
        };
        if self.siblings.borrow().is_none() {
            // one pass over the table in place, then the names (outside it: naming reads the table too)
            let mut held: Vec<(Option<NodeId>, u64, NodeId)> = Vec::new();
            self.tracer.scan(|r| {
                if (r.id.0 as usize) < self.bound {
                    let run = if r.owner.is_some() { r.creating_run } else { 0 };
                    held.push((r.owner, run, r.id));
                }
            });
            let mut map: SiblingIndex = HashMap::new();
            for (owner, run, id) in held {
                map.entry((owner, run, self.base_name(id)))
                    .or_default()
                    .push(id);
            }
            *self.siblings.borrow_mut() = Some(map);
        }
        let siblings = self.siblings.borrow();
        let Some(index) = siblings.as_ref() else {
            return escaped;
        };
        let key = (owner, if owner.is_some() { creating_run } else { 0 }, base);
        match index
            .get(&key)
            // the records are in id order, so each list is sorted
            .and_then(|ids| ids.binary_search(&id).ok())
        {
            Some(0) | None => escaped,
            Some(k) => format!("{escaped}[{}]", k + 1),
        }
    }

    pub fn info(&self, id: NodeId) -> Option<NodeInfo> {
        self.info_within(id, usize::MAX, true).map(|(info, _)| info)
    }

    /// [`info`](Self::info) naming at most `names_max` of its sources (and of its observers), with how many it has:
    /// what one line of an answer shows, built without naming the thousands of sources a sum over a list reads. Its
    /// observers and path are left empty (and counted 0) unless `full`: finding them reads the whole table.
    pub fn info_within(
        &self,
        id: NodeId,
        names_max: usize,
        full: bool,
    ) -> Option<(NodeInfo, Counts)> {
        // read in place: a line of a sum over 100,000 items copies the 12 sources it names, not the 100,000
        let (kind, site, label, owner, runs, disposed, last_run_end, sources, shown) =
            self.brief(id, |r| {
                (
                    r.kind,
                    r.site,
                    r.label.cloned(),
                    r.owner,
                    r.runs,
                    r.disposed,
                    r.last_run_end,
                    r.sources.len(),
                    r.sources[..names_max.min(r.sources.len())].to_vec(),
                )
            })?;
        // a line shows no observers: the index is built only for an answer that names them
        let observers = if full { self.observers(id) } else { Vec::new() };
        let counts = Counts {
            sources,
            observers: observers.len(),
        };
        let error = match self.event(last_run_end).map(|e| e.kind) {
            Some(EventKind::RunEnd { error, .. }) => error,
            _ => None,
        };
        Some((
            NodeInfo {
                node: self.name(id),
                kind,
                site: Site::of(site),
                label,
                value: self.value(id),
                error,
                sources: shown.into_iter().map(|s| self.name(s)).collect(),
                observers: observers
                    .iter()
                    .take(names_max)
                    .map(|o| self.name(*o))
                    .collect(),
                owner: owner.map(|o| self.name(o)),
                path: if full { self.path(id) } else { String::new() },
                runs,
                disposed: disposed != 0,
            },
            counts,
        ))
    }

    /// Every node upstream of `id` (its sources, theirs, ...), nearest first, each once.
    pub fn upstream(&self, id: NodeId) -> Vec<NodeId> {
        self.walk(id, u32::MAX, |ctx, n| {
            ctx.rec(n).map(|r| r.sources.clone()).unwrap_or_default()
        })
        .into_iter()
        .map(|(n, _)| n)
        .collect()
    }

    /// Breadth-first from `id` along `next`, up to `hops`, excluding `id`.
    pub(super) fn walk(
        &self,
        id: NodeId,
        hops: u32,
        next: impl Fn(&Self, NodeId) -> Vec<NodeId>,
    ) -> Vec<(NodeId, u32)> {
        // a flag per id the view holds (no hashing for a node with thousands of sources), a set for any other
        let mut seen = vec![false; self.bound];
        let mut seen_beyond = HashSet::new();
        let mut first_visit = |n: NodeId| match seen.get_mut(n.0 as usize) {
            Some(flag) => !std::mem::replace(flag, true),
            None => seen_beyond.insert(n),
        };
        first_visit(id);
        let mut queue = VecDeque::from([(id, 0u32)]);
        let mut out = Vec::new();
        while let Some((node, depth)) = queue.pop_front() {
            if depth >= hops {
                continue;
            }
            for n in next(self, node) {
                if first_visit(n) {
                    out.push((n, depth + 1));
                    queue.push_back((n, depth + 1));
                }
            }
        }
        out
    }

    /// Follows causes from `start`, newest first, to the root.
    pub fn chain(&self, start: u64) -> (Vec<Event>, WhyRoot) {
        let mut steps = Vec::new();
        let mut seq = start;
        loop {
            let Some(event) = self.event(seq) else {
                return (
                    steps,
                    WhyRoot::PastRing {
                        seq,
                        oldest: self.oldest,
                        message: self.dropped_in(seq),
                    },
                );
            };
            let cause = event.cause;
            let root = match &event.kind {
                EventKind::Message { target, name, args } if cause == 0 => Some(WhyRoot::Message {
                    seq,
                    target: *target,
                    name: name.clone(),
                    args: args.clone(),
                }),
                EventKind::NodeNew { node, .. } => Some(WhyRoot::Created { seq, node: *node }),
                EventKind::Write {
                    node,
                    by: Writer::Program,
                    ..
                } => Some(WhyRoot::ProgramWrite {
                    seq,
                    node: *node,
                    at: self.write_site(*node, seq),
                }),
                EventKind::RunStart { node, run, puller } if cause == 0 => {
                    Some(match (puller, self.rec(*node)) {
                        (None, Some(r)) if r.kind == NodeKind::Effect && *run == 1 => {
                            WhyRoot::Created { seq, node: *node }
                        }
                        _ => WhyRoot::Pulled { seq, by: *puller },
                    })
                }
                _ if cause == 0 || cause >= seq => Some(WhyRoot::NoCause { seq }),
                _ => None,
            };
            steps.push(event);
            if let Some(root) = root {
                return (steps, root);
            }
            if steps.len() >= WHY_MAX_STEPS {
                return (steps, WhyRoot::NoCause { seq: cause });
            }
            seq = cause;
        }
    }

    /// The message the dropped event `seq` was recorded in, and how many of its events the ring dropped.
    pub fn dropped_in(&self, seq: u64) -> Option<DroppedIn> {
        let m = self.tracer.message_around(seq)?;
        let end = if m.end == 0 {
            self.tracer.clock()
        } else {
            m.end
        };
        Some(DroppedIn {
            seq: m.seq,
            target: m.target,
            name: m.name,
            args: m.args,
            events: end + 1 - m.seq,
            dropped: self.oldest.min(end + 1).saturating_sub(m.seq),
        })
    }

    /// Where the write `seq` to `node` was called, when it is the node's latest move (the trace keeps that one) and
    /// the program's or a computation's.
    pub fn write_site(&self, node: NodeId, seq: u64) -> Option<Site> {
        let r = self.rec(node)?;
        // a message's model write is made by the dispatcher: its line is the framework's, not the program's
        match r.moved_by {
            Some((Writer::Program | Writer::Computation(_), site)) if r.last_moved == seq => {
                Some(Site::of(site))
            }
            _ => None,
        }
    }

    pub fn names_in(&self, events: &[Event], extra: &[NodeId]) -> Names {
        let mut ids: Vec<NodeId> = extra.to_vec();
        for e in events {
            ids.extend(event_nodes(&e.kind));
        }
        self.names_of(ids)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Memo, Signal, create_root, trace};

    #[test]
    fn observers_are_the_living_readers_in_id_order_each_once() {
        let cell = Signal::new(1);
        let a = Memo::new({
            let c = cell.clone();
            move |_| c.get() + c.get()
        });
        let b = Memo::new({
            let c = cell.clone();
            move |_| c.get() * 2
        });
        // read b first: the engine lists b before a
        assert_eq!((b.get(), a.get()), (2, 2));
        let ((), scope) = create_root(|_| {
            let gone = Memo::new({
                let c = cell.clone();
                move |_| c.get()
            });
            gone.get();
        });
        scope.dispose();
        if !trace::TRACED {
            return;
        }
        let observers = trace::view(|ctx| ctx.observers(cell.id())).expect("traced");
        assert_eq!(observers, vec![a.id(), b.id()], "a disposed reader is none");
        let info = trace::info(&cell).expect("traced");
        let names: Vec<_> = info.observers.iter().map(|n| n.id).collect();
        assert_eq!(names, vec![a.id(), b.id()]);
    }
}

#[cfg(test)]
mod census_tests {
    use crate::graph::NodeKind;
    use crate::trace::log::Census;
    use crate::{Effect, Memo, Mvu, Signal, create_root, trace};

    /// The counts and moved nodes a scan of the whole table finds, as `summary` found them before the tracer kept
    /// them.
    fn scanned() -> (Census, Vec<crate::NodeId>) {
        trace::view(|ctx| {
            let last = ctx.tracer.last_message();
            let mut census = Census::default();
            let mut moved = Vec::new();
            let mut signals = Vec::new();
            ctx.tracer.scan(|r| {
                if r.last_moved != 0 && r.last_moved > last {
                    moved.push(r.id);
                }
                if r.disposed != 0 {
                    census.disposed += 1;
                    return;
                }
                match r.kind {
                    NodeKind::Signal => signals.push(r.id),
                    NodeKind::Memo => census.memos += 1,
                    NodeKind::Effect => census.effects += 1,
                }
            });
            census.signals = signals
                .into_iter()
                .filter(|id| ctx.tracer.live(*id).is_some())
                .count();
            (census, moved)
        })
        .expect("traced")
    }

    fn kept() -> (Census, Vec<crate::NodeId>) {
        trace::view(|ctx| (ctx.tracer.census(), ctx.tracer.moved_since_message())).expect("traced")
    }

    #[test]
    fn the_kept_counts_and_moved_nodes_are_what_a_scan_finds() {
        if !trace::TRACED {
            return;
        }
        let model = Mvu::new(0_i64, |n: i64, total: &i64| total + n);
        let parts: Vec<Memo<i64>> = (0..5).map(|i| model.select(move |t| t + i)).collect();
        let cell = Signal::new(1);
        let _show = Effect::new({
            let parts = parts.clone();
            move || {
                parts.iter().for_each(|p| {
                    p.get();
                });
            }
        });
        assert_eq!(kept(), scanned());
        // nodes made and dropped in a scope: disposed, then their records move to the ring of dropped ones
        for round in 0..3 {
            let ((), scope) = create_root(|_| {
                let inner = Signal::new(round);
                let memo = Memo::new(move |_| inner.get() + 1);
                memo.get();
            });
            assert_eq!(kept(), scanned(), "made in round {round}");
            scope.dispose();
            assert_eq!(kept(), scanned(), "disposed in round {round}");
        }
        cell.set(2);
        let before_message = kept();
        assert_eq!(before_message, scanned());
        assert!(before_message.1.contains(&cell.id()), "{before_message:?}");
        model.dispatch(3).unwrap();
        let after = kept();
        assert_eq!(after, scanned());
        assert!(!after.1.contains(&cell.id()), "moved before the message");
        assert!(
            after.1.contains(&parts[0].id()) && after.1.contains(&model.id()),
            "{after:?}"
        );
        drop(parts);
        assert_eq!(kept(), scanned());
    }
}

#[cfg(test)]
mod read_site_tests {
    use crate::{Memo, Signal, trace};

    /// A run that reads its sources in another order re-links them: each keeps the line it was read at, where an
    /// index by source lost the site of a source read again before its old edge was dropped.
    #[test]
    fn a_reordered_run_keeps_every_sources_read_site() {
        if !trace::TRACED {
            return;
        }
        let (a, b) = (Signal::new(1), Signal::new(2));
        let flip = Signal::new(false);
        let memo = Memo::new({
            let (a, b, flip) = (a.clone(), b.clone(), flip.clone());
            move |_| {
                if flip.get() {
                    b.get() * 10 + a.get()
                } else {
                    a.get() * 10 + b.get()
                }
            }
        });
        assert_eq!(memo.get(), 12);
        flip.set(true);
        assert_eq!(memo.get(), 21);
        let record = trace::view(|ctx| ctx.rec(memo.id()).cloned())
            .expect("traced")
            .expect("held");
        assert_eq!(record.sources, vec![flip.id(), b.id(), a.id()]);
        let sites: Vec<_> = record.read_sites.iter().map(|(s, _)| *s).collect();
        assert_eq!(
            sites, record.sources,
            "a site for each source, in read order"
        );
        let line = |i: usize| record.read_sites[i].1.line();
        // `b` and `a` were read on the line of the first branch
        assert_eq!(line(1), line(2));
        assert_ne!(line(0), line(1));
    }
}
