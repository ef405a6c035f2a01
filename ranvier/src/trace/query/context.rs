//! The query context: one copy of the node table per query, with observers indexed and names computed on demand;
//! the lookups every query shares (records, names, paths, upstream walks, cause chains).

use super::*;

/// The nodes created by one run (or at the root) under one name, in creation order.
type SiblingIndex = HashMap<(Option<NodeId>, u64, Rc<str>), Vec<NodeId>>;

/// A view of the tracer for one query: the node table copied, observers indexed, names computed on demand.
pub(crate) struct Ctx<'a> {
    pub tracer: &'a Tracer,
    /// In id order.
    pub(super) records: Vec<NodeRecord>,
    /// Every observer, grouped by the node observed: those of the node with id `i` are
    /// `observers[observer_starts[i]..observer_starts[i + 1]]`, in id order.
    pub(super) observers: Vec<NodeId>,
    observer_starts: Vec<u32>,
    pub oldest: u64,
    pub(super) names: RefCell<HashMap<NodeId, Rc<str>>>,
    pub(super) siblings: RefCell<Option<SiblingIndex>>,
    /// The position in `records` of each id's record (`u32::MAX`: none).
    positions: Vec<u32>,
    /// The binding at each creation site (and kind) read so far.
    bindings: RefCell<HashMap<(usize, NodeKind), Rc<str>>>,
    /// The positions in `records` of the nodes the program read outside any memo or effect, found once.
    program_readers: std::cell::OnceCell<Vec<usize>>,
}

impl<'a> Ctx<'a> {
    pub fn new(tracer: &'a Tracer) -> Self {
        let records = tracer.node_table();
        // where each id's record is: a lookup by id is then one load, not a search of a table of big records
        let mut positions = vec![u32::MAX; records.last().map_or(0, |r| r.id.0 as usize + 1)];
        for (i, record) in records.iter().enumerate() {
            positions[record.id.0 as usize] = i as u32;
        }
        // each living record's sources, once each (a source listed twice by one record is one observer)
        let mut edges: Vec<(u32, NodeId)> = Vec::new();
        for record in &records {
            if record.disposed != 0 {
                continue;
            }
            let mut seen = (record.sources.len() > 8).then(HashSet::new);
            for (i, source) in record.sources.iter().enumerate() {
                let repeated = match &mut seen {
                    Some(seen) => !seen.insert(*source),
                    None => record.sources[..i].contains(source),
                };
                if !repeated {
                    edges.push((source.0, record.id));
                }
            }
        }
        // the observers of each id in one list, grouped by id (a stable sort keeps them in id order)
        edges.sort_by_key(|(source, _)| *source);
        let mut observer_starts = vec![0u32; positions.len() + 1];
        for (source, _) in &edges {
            if let Some(count) = observer_starts.get_mut(*source as usize + 1) {
                *count += 1;
            }
        }
        let mut total = 0;
        for start in &mut observer_starts {
            total += *start;
            *start = total;
        }
        let observers: Vec<NodeId> = edges
            .into_iter()
            .filter(|(source, _)| (*source as usize) < positions.len())
            .map(|(_, observer)| observer)
            .collect();
        Ctx {
            tracer,
            records,
            observers,
            observer_starts,
            oldest: tracer.oldest_seq(),
            names: RefCell::new(HashMap::new()),
            siblings: RefCell::new(None),
            program_readers: std::cell::OnceCell::new(),
            bindings: RefCell::new(HashMap::new()),
            positions,
        }
    }

    pub fn rec(&self, id: NodeId) -> Option<&NodeRecord> {
        let index = *self.positions.get(id.0 as usize)?;
        self.records.get(index as usize)
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

    pub fn records(&self) -> impl Iterator<Item = &NodeRecord> {
        self.records.iter()
    }

    /// The nodes the program read outside any memo or effect (their records keep where), in id order.
    pub fn program_readers(&self) -> impl Iterator<Item = &NodeRecord> {
        self.program_readers
            .get_or_init(|| {
                (0..self.records.len())
                    .filter(|i| !self.records[*i].program_reads.is_empty())
                    .collect()
            })
            .iter()
            .map(|i| &self.records[*i])
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

    pub fn observers(&self, id: NodeId) -> &[NodeId] {
        let i = id.0 as usize;
        match (self.observer_starts.get(i), self.observer_starts.get(i + 1)) {
            (Some(start), Some(end)) => &self.observers[*start as usize..*end as usize],
            _ => &[],
        }
    }

    /// The node's name without `#id`.
    pub fn base_name(&self, id: NodeId) -> Rc<str> {
        if let Some(name) = self.names.borrow().get(&id) {
            return name.clone();
        }
        let name: Rc<str> = match self.rec(id) {
            None => Rc::from("node"),
            Some(r) => match &r.label {
                Some(label) => label.clone(),
                None => {
                    // nodes made at one line (a row per item) share its binding: read it once
                    let key = (std::ptr::from_ref(r.site) as usize, r.kind);
                    let cached = self.bindings.borrow().get(&key).cloned();
                    cached.unwrap_or_else(|| {
                        let name: Rc<str> = match names::binding_at(
                            r.site.file(),
                            r.site.line(),
                            r.site.column(),
                        ) {
                            Some(binding) => Rc::from(binding),
                            None => Rc::from(r.kind.name()),
                        };
                        self.bindings.borrow_mut().insert(key, name.clone());
                        name
                    })
                }
            },
        };
        self.names.borrow_mut().insert(id, name.clone());
        name
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

    /// The current value text: the live node's, else the last recorded.
    pub fn value(&self, id: NodeId) -> Option<String> {
        let r = self.rec(id)?;
        match r.kind {
            NodeKind::Effect => None,
            NodeKind::Memo if r.runs == 0 => None,
            _ => match self.tracer.live(id).and_then(|n| n.value_text()) {
                Some(text) => Some(clip(&text)),
                None => r.value.as_deref().map(clip),
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
        let Some(r) = self.rec(id) else {
            return escaped;
        };
        let mut siblings = self.siblings.borrow_mut();
        let index = siblings.get_or_insert_with(|| {
            let mut map: HashMap<(Option<NodeId>, u64, Rc<str>), Vec<NodeId>> = HashMap::new();
            for r in self.records.iter() {
                let key = (
                    r.owner,
                    if r.owner.is_some() { r.creating_run } else { 0 },
                    self.base_name(r.id),
                );
                map.entry(key).or_default().push(r.id);
            }
            map
        });
        let key = (
            r.owner,
            if r.owner.is_some() { r.creating_run } else { 0 },
            base,
        );
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
        let r = self.rec(id)?;
        let error = match self.event(r.last_run_end).map(|e| e.kind) {
            Some(EventKind::RunEnd { error, .. }) => error,
            _ => None,
        };
        Some(NodeInfo {
            node: self.name(id),
            kind: r.kind,
            site: Site::of(r.site),
            label: r.label.clone(),
            value: self.value(id),
            error,
            sources: r.sources.iter().map(|s| self.name(*s)).collect(),
            observers: self.observers(id).iter().map(|o| self.name(*o)).collect(),
            owner: r.owner.map(|o| self.name(o)),
            path: self.path(id),
            runs: r.runs,
            disposed: r.disposed != 0,
        })
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
        let mut seen = HashSet::from([id]);
        let mut queue = VecDeque::from([(id, 0u32)]);
        let mut out = Vec::new();
        while let Some((node, depth)) = queue.pop_front() {
            if depth >= hops {
                continue;
            }
            for n in next(self, node) {
                if seen.insert(n) {
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
        let end = if m.end == 0 { self.tracer.clock() } else { m.end };
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
