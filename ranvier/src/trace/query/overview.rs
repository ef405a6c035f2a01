//! The answers that gather the others: the graph's summary and snapshot, and a node's neighborhood (`explain`, which
//! gathers the findings too, is the diagnosis's: `trace/diagnose.rs`).

use super::*;

/// A neighbour as an id: its hops away, and whether it is upstream or downstream.
pub(crate) type Neighbour = (u32, Relation, NodeId);

impl Ctx<'_> {
    pub fn snapshot(&self) -> TraceSnapshot {
        TraceSnapshot {
            clock: self.tracer.clock(),
            oldest: self.oldest,
            capacity: self.tracer.capacity(),
            nodes: self.records().filter_map(|r| self.info(r.id)).collect(),
        }
    }


    pub fn summary(&self) -> GraphSummary {
        let (mut summary, moved) = self.summary_ids();
        summary.moved = moved.into_iter().filter_map(|n| self.info(n)).collect();
        summary
    }

    /// [`summary`](Self::summary) with `moved` left empty, and the ids of the nodes it would hold: an answer that
    /// shows a few of them builds only those.
    pub fn summary_ids(&self) -> (GraphSummary, Vec<NodeId>) {
        let (mut signals, mut memos, mut effects, mut disposed) = (0, 0, 0, 0);
        for r in self.records() {
            if r.disposed != 0 {
                disposed += 1;
                continue;
            }
            if r.kind == NodeKind::Signal && self.tracer.live(r.id).is_none() {
                continue;
            }
            match r.kind {
                NodeKind::Signal => signals += 1,
                NodeKind::Memo => memos += 1,
                NodeKind::Effect => effects += 1,
            }
        }
        let last = self.tracer.last_message();
        let last_message = match self.event(last).map(|e| e.kind) {
            Some(EventKind::Message { target, name, args }) => Some(MessageInfo {
                seq: last,
                target: self.name(target),
                name,
                args,
            }),
            _ => None,
        };
        let moved = self
            .records()
            .filter(|r| r.last_moved != 0 && r.last_moved > last)
            .map(|r| r.id)
            .collect();
        let summary = GraphSummary {
            signals,
            memos,
            effects,
            disposed,
            last_message,
            moved: Vec::new(),
        };
        (summary, moved)
    }

    pub fn neighborhood(&self, id: NodeId, hops: u32) -> Result<Neighborhood, TraceError> {
        let (center, around) = self.neighbours(id, hops)?;
        let nodes = around
            .into_iter()
            .filter_map(|(depth, relation, n)| Some((depth, relation, self.info(n)?)))
            .collect();
        Ok(Neighborhood { center, nodes })
    }

    /// [`neighborhood`](Self::neighborhood) with the neighbours as ids (those the table holds), in the same order:
    /// an answer that shows a page of them builds only those.
    pub fn neighbours(
        &self,
        id: NodeId,
        hops: u32,
    ) -> Result<(NodeInfo, Vec<Neighbour>), TraceError> {
        self.check(id)?;
        let center = self.info(id).ok_or_else(|| self.missing(id))?;
        let mut nodes = Vec::new();
        let up = self.walk(id, hops, |ctx, n| {
            ctx.rec(n).map(|r| r.sources.clone()).unwrap_or_default()
        });
        nodes.extend(
            up.into_iter()
                .filter(|(n, _)| self.rec(*n).is_some())
                .map(|(n, depth)| (depth, Relation::Source, n)),
        );
        let down = self.walk(id, hops, |ctx, n| ctx.observers(n).to_vec());
        nodes.extend(
            down.into_iter()
                .filter(|(n, _)| self.rec(*n).is_some())
                .map(|(n, depth)| (depth, Relation::Observer, n)),
        );
        Ok((center, nodes))
    }
}
