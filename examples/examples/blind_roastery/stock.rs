//! Stock: the green coffee the scheduled batches will use, and what to buy again.

use ranvier::{Memo, Mvu, node};

use super::model::{Batch, Msg, Reorder, Roastery};

/// Green coffee of `origin` the batches not yet roasted will take, in grams.
#[ranvier::trace_fn]
pub fn committed_g(batches: &[Batch], origin: &str) -> u32 {
    batches
        .iter()
        .filter(|b| !b.done && b.origin == origin)
        .map(|b| b.green_g)
        .sum()
}

/// The origins to buy again: those whose free green stock (in the store, less what the batches on the schedule will
/// take) is below their reorder point, the furthest below it first. An origin nobody has ordered or subscribed to since it was
/// bought is left to run out.
#[node]
pub fn reorder_list(roastery: &Mvu<Roastery, Msg>) -> Memo<Vec<Reorder>> {
    let reorder = roastery.select(|r| {
        let mut out: Vec<Reorder> = Vec::new();
        for lot in &r.green {
            let committed = committed_g(&r.batches, &lot.origin);
            let free = lot.grams.saturating_sub(committed);
            if free >= lot.reorder_g {
                continue;
            }
            let short = lot.reorder_g - free;
            let ordered = r.orders.iter().any(|o| o.origin == lot.origin);
            let subscribed = r.subscriptions.iter().any(|s| s.origin == lot.origin);
            let scheduled = committed > 0;
            if !(ordered || subscribed || scheduled) {
                continue;
            }
            out.push(Reorder {
                origin: lot.origin.clone(),
                short_g: short,
            });
        }
        out.sort_by(|a, b| {
            b.short_g
                .cmp(&a.short_g)
                .then_with(|| a.origin.cmp(&b.origin))
        });
        out
    });
    reorder
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Msg, Reorder, Roastery};
    use super::committed_g;

    /// [`super::reorder_list`], with a mistake.
    #[node]
    pub fn reorder_list(roastery: &Mvu<Roastery, Msg>) -> Memo<Vec<Reorder>> {
        let reorder = roastery.select(|r| {
            let mut out: Vec<Reorder> = Vec::new();
            for lot in &r.green {
                let committed = committed_g(&r.batches, &lot.origin);
                let free = lot.grams.saturating_sub(committed);
                if free >= lot.reorder_g {
                    // BUG(reorder_stops_early)
                    break;
                }
                let short = lot.reorder_g - free;
                let ordered = r.orders.iter().any(|o| o.origin == lot.origin);
                let subscribed = r.subscriptions.iter().any(|s| s.origin == lot.origin);
                let scheduled = committed > 0;
                if !(ordered || subscribed || scheduled) {
                    continue;
                }
                out.push(Reorder {
                    origin: lot.origin.clone(),
                    short_g: short,
                });
            }
            out.sort_by(|a, b| {
                b.short_g
                    .cmp(&a.short_g)
                    .then_with(|| a.origin.cmp(&b.origin))
            });
            out
        });
        reorder
    }
}
