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
        let last = self.tracer.last_message();
        // kept by the tracer as the table changes: no pass over the table
        let census = self.tracer.census();
        let moved = self.tracer.moved_since_message();
        let last_message = match self.event(last).map(|e| e.kind) {
            Some(EventKind::Message { target, name, args }) => Some(MessageInfo {
                seq: last,
                target: self.name(target),
                name,
                args,
            }),
            _ => None,
        };
        let summary = GraphSummary {
            signals: census.signals,
            memos: census.memos,
            effects: census.effects,
            disposed: census.disposed,
            last_message,
            moved: Vec::new(),
        };
        (summary, moved)
    }

    pub fn neighborhood(&self, id: NodeId, hops: u32) -> Result<Neighborhood, TraceError> {
        let around = self.neighbours(id, hops)?;
        let center = self.info(id).ok_or_else(|| self.missing(id))?;
        let nodes = around
            .into_iter()
            .filter_map(|(depth, relation, n)| Some((depth, relation, self.info(n)?)))
            .collect();
        Ok(Neighborhood { center, nodes })
    }

    /// The neighbours of [`neighborhood`](Self::neighborhood) as ids (those the table holds), in the same order,
    /// without the center: an answer that shows a page of them builds only those. The walk reads each node's
    /// sources in place and copies no neighbour's record.
    pub fn neighbours(&self, id: NodeId, hops: u32) -> Result<Vec<Neighbour>, TraceError> {
        self.check(id)?;
        let mut nodes = Vec::new();
        let up = self.walk(id, hops, |ctx, n| {
            ctx.brief(n, |r| r.sources.to_vec()).unwrap_or_default()
        });
        nodes.extend(
            up.into_iter()
                .filter(|(n, _)| self.holds(*n))
                .map(|(n, depth)| (depth, Relation::Source, n)),
        );
        let down = self.walk(id, hops, |ctx, n| ctx.observers(n));
        nodes.extend(
            down.into_iter()
                .filter(|(n, _)| self.holds(*n))
                .map(|(n, depth)| (depth, Relation::Observer, n)),
        );
        Ok(nodes)
    }
}
