//! Why a node holds its value, and why it did not change: cause chains, cutoffs, untracked reads, a node's
//! history and where it was made.

use super::*;

impl Ctx<'_> {
    pub fn why(&self, id: NodeId) -> Result<Why, TraceError> {
        let r = self.check(id)?;
        let (run, start) = match r.kind {
            NodeKind::Signal => (
                0,
                if r.last_moved != 0 {
                    r.last_moved
                } else {
                    r.created
                },
            ),
            _ => (r.runs, r.last_run_start),
        };
        let (steps, root) = if r.kind != NodeKind::Signal && r.runs == 0 {
            (Vec::new(), WhyRoot::NeverRan)
        } else {
            self.chain(start)
        };
        Ok(self.why_of(id, run, steps, root))
    }

    /// The answer of [`why`](Self::why) for `id`'s run `run`, from the chain of events that led to it.
    pub(super) fn why_of(&self, id: NodeId, run: u32, steps: Vec<Event>, root: WhyRoot) -> Why {
        let mut extra = vec![id];
        extra.extend(root_nodes(&root));
        let names = self.names_in(&steps, &extra);
        let sites = names
            .0
            .keys()
            .filter_map(|n| Some((*n, Site::of(self.rec(*n)?.site))))
            .collect();
        let write_sites = steps
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Write {
                    node, moved: true, ..
                } => Some((e.seq, self.write_site(node, e.seq)?)),
                _ => None,
            })
            .collect();
        Why {
            node: self.name(id),
            run,
            steps,
            root,
            names,
            sites,
            write_sites,
        }
    }

    /// Cutoffs upstream of `id` whose `RunEnd` lies in `(after, before)`, latest first; a memo reading a message
    /// model alone is left out (it keeps its value by design).
    pub fn cutoffs(&self, id: NodeId, after: u64, before: u64) -> Vec<Cutoff> {
        self.cutoffs_among(self.upstream(id), after, before)
    }

    /// [`cutoffs`](Self::cutoffs) among the nodes of `cone` other than `id`.
    pub fn cutoffs_in(
        &self,
        id: NodeId,
        cone: &HashSet<NodeId>,
        after: u64,
        before: u64,
    ) -> Vec<Cutoff> {
        self.cutoffs_among(
            self.upstream_in(id, cone).into_iter().map(|(n, _)| n),
            after,
            before,
        )
    }

    /// The nodes of `cone` other than `id`, by id.
    pub fn upstream_in(&self, id: NodeId, cone: &HashSet<NodeId>) -> Vec<(NodeId, ())> {
        let mut nodes: Vec<(NodeId, ())> = cone
            .iter()
            .filter(|n| **n != id)
            .map(|n| (*n, ()))
            .collect();
        nodes.sort();
        nodes
    }

    pub(super) fn cutoffs_among(
        &self,
        nodes: impl IntoIterator<Item = NodeId>,
        after: u64,
        before: u64,
    ) -> Vec<Cutoff> {
        let mut found = Vec::new();
        for n in nodes {
            let Some(r) = self.rec(n) else { continue };
            if self.reads_model_alone(r) {
                continue;
            }
            for (seq, value) in [&r.last_cutoff, &r.previous_cutoff].into_iter().flatten() {
                if *seq > after && *seq < before {
                    found.push(Cutoff {
                        node: self.name(n),
                        seq: *seq,
                        value: value.clone(),
                        site: Site::of(r.site),
                        line: names::line_text(r.site.file(), r.site.line()),
                    });
                    break;
                }
            }
        }
        found.sort_by_key(|c| std::cmp::Reverse(c.seq));
        found
    }

    pub fn reads_model_alone(&self, r: &NodeRecord) -> bool {
        r.sources.len() == 1 && self.rec(r.sources[0]).is_some_and(|s| s.is_model)
    }

    pub fn why_not(&self, id: NodeId) -> Result<WhyNot, TraceError> {
        let r = self.check(id)?;
        let node = self.name(id);
        if r.kind == NodeKind::Signal {
            return Ok(WhyNot::Signal {
                node,
                last_write: r.last_write,
            });
        }
        if r.disposed != 0 {
            return Ok(WhyNot::Disposed {
                node,
                seq: r.disposed,
            });
        }
        if r.kind == NodeKind::Effect
            && r.last_schedule > r.last_run_start
            && r.last_check < r.last_schedule
            && r.last_schedule > r.last_run_end
        {
            return Ok(WhyNot::Queued {
                node,
                schedule: r.last_schedule,
            });
        }
        if r.runs == 0 {
            return Ok(WhyNot::NeverRan { node });
        }
        let since = r.last_run_start;
        if r.last_mark > since && r.last_check < r.last_mark {
            let (source, dirty) = match self.event(r.last_mark).map(|e| e.kind) {
                Some(EventKind::Mark { source, dirty, .. }) => (Some(self.name(source)), dirty),
                _ => (None, false),
            };
            let observers = self.observers(id).iter().map(|o| self.name(*o)).collect();
            return Ok(WhyNot::Unobserved {
                node,
                mark: r.last_mark,
                source,
                dirty,
                observers,
            });
        }
        if r.last_check > since {
            let cutoff = self.cutoffs(id, since, r.last_check).into_iter().next();
            let sources = r.sources.iter().map(|s| self.name(*s)).collect();
            return Ok(WhyNot::CheckedClean {
                node,
                check: r.last_check,
                sources,
                cutoff,
            });
        }
        if let Some(cutoff) = self.cutoffs(id, since, u64::MAX).into_iter().next() {
            return Ok(WhyNot::StoppedAtCutoff { node, cutoff });
        }
        let mut equal: Option<EqualWrite> = None;
        for n in self.upstream(id) {
            let Some(s) = self.rec(n) else { continue };
            if s.kind == NodeKind::Signal && s.last_write > since && s.last_write != s.last_moved {
                if equal.as_ref().is_some_and(|e| e.seq > s.last_write) {
                    continue;
                }
                let value = match self.event(s.last_write).map(|e| e.kind) {
                    Some(EventKind::Write { value, .. }) => value,
                    _ => Rc::from("?"),
                };
                equal = Some(EqualWrite {
                    node: self.name(n),
                    seq: s.last_write,
                    value,
                });
            }
        }
        if let Some(write) = equal {
            return Ok(WhyNot::EqualWrite { node, write });
        }
        Ok(WhyNot::NotReached { node, since })
    }

    pub fn unread(&self, id: NodeId) -> Result<Vec<Unread>, TraceError> {
        let r = self.check(id)?;
        let mut out = Vec::new();
        for (source, read, site) in &r.untracked {
            if r.sources.contains(source) {
                continue;
            }
            let Some(s) = self.rec(*source) else { continue };
            if s.last_moved > *read {
                out.push(Unread {
                    node: self.name(*source),
                    read: *read,
                    moved: s.last_moved,
                    value: self.value(*source),
                    at: site
                        .map(SourceLine::at)
                        .or_else(|| untracked_read_line(r, &self.base_name(*source))),
                });
            }
        }
        Ok(out)
    }

    pub fn history(&self, id: NodeId) -> Result<History, TraceError> {
        let r = self.check(id)?;
        let events = self.tracer.events_of(id);
        let mut entries: Vec<HistoryEntry> = Vec::new();
        let mut open: Option<usize> = None;
        let mut extra = vec![id];
        for e in &events {
            match &e.kind {
                EventKind::Write {
                    node, moved, value, ..
                } if *node == id => {
                    let root = self.chain(e.seq).1;
                    extra.extend(root_nodes(&root));
                    entries.push(HistoryEntry {
                        run: 0,
                        start: e.seq,
                        end: e.seq,
                        status: if *moved {
                            RunStatus::Moved
                        } else {
                            RunStatus::Kept
                        },
                        value: Some(value.clone()),
                        root,
                    });
                }
                EventKind::RunStart { node, run, .. } if *node == id => {
                    let root = self.chain(e.seq).1;
                    extra.extend(root_nodes(&root));
                    open = Some(entries.len());
                    entries.push(HistoryEntry {
                        run: *run,
                        start: e.seq,
                        end: 0,
                        status: RunStatus::Open,
                        value: None,
                        root,
                    });
                }
                EventKind::RunEnd {
                    node,
                    moved,
                    error,
                    value,
                } if *node == id => {
                    if let Some(i) = open.take() {
                        let entry = &mut entries[i];
                        entry.end = e.seq;
                        entry.value = value.clone();
                        entry.status = match (error, r.kind, moved) {
                            (Some(message), _, _) => RunStatus::Failed(message.clone()),
                            (None, NodeKind::Effect, _) => RunStatus::Ran,
                            (None, _, true) => RunStatus::Moved,
                            (None, _, false) => RunStatus::Kept,
                        };
                    }
                }
                _ => {}
            }
        }
        let truncated = r.created < self.oldest;
        let names = self.names_of(extra);
        Ok(History {
            node: self.name(id),
            runs: r.runs,
            entries,
            truncated,
            names,
        })
    }

    pub fn origin(&self, id: NodeId) -> Result<Origin, TraceError> {
        let r = self.check(id)?;
        let mut owners = Vec::new();
        let mut owner = r.owner;
        while let Some(o) = owner {
            if owners.len() > 1000 {
                break;
            }
            owners.push(self.name(o));
            owner = self.rec(o).and_then(|r| r.owner);
        }
        Ok(Origin {
            node: self.name(id),
            kind: r.kind,
            site: Site::of(r.site),
            line: names::line_text(r.site.file(), r.site.line()),
            label: r.label.clone(),
            binding: names::binding_at(r.site.file(), r.site.line(), r.site.column()),
            owners,
            created: r.created,
            creating_run: r.creating_run,
            path: self.path(id),
        })
    }

}
