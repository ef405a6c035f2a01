//! The pharmacy shelf as a keyed collection: one row per medicine, each with the packs to order, and the views the
//! pharmacist reads (what to order, the shelf in the order to use it, what has run out).

use super::model::Drug;
use ranvier::Memo;
use ranvier::collection::{Collection, Filter, Row};
use std::collections::HashMap;
use std::rc::Rc;

/// The shelf: keyed by the medicine's name; each row's figure is the packs to order (`"order"`).
pub type Shelf = Collection<String, Drug, (&'static str, Memo<u32>)>;

/// A line of the order for the wholesaler.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderLine {
    /// The medicine.
    pub drug: String,
    /// Packs to order.
    pub packs: u32,
    /// Tablets in a pack.
    pub pack: u32,
}

/// A row of the shelf: how many packs bring the medicine back to its par level once it is at or below its reorder
/// level (none otherwise).
pub fn order_row(row: &Row<String, Drug>) -> (&'static str, Memo<u32>) {
    let row = row.clone();
    let packs = Memo::new(move |_| {
        row.with(|drug| {
            if drug.on_hand > drug.reorder_at {
                return 0;
            }
            let short = drug.par.saturating_sub(drug.on_hand);
            let packs = short.div_ceil(drug.pack.max(1));
            packs.max(1)
        })
    })
    .labelled("order");
    ("order", packs)
}

/// The medicines to order: at or below their reorder level, and still made.
pub fn to_order(shelf: &Shelf) -> Filter<String> {
    shelf.filter(|drug| drug.on_hand <= drug.reorder_at && !drug.discontinued)
}

/// The shelf in the order the tablets should be used: the batch that expires first, first.
pub fn use_first(shelf: &Shelf) -> Memo<Rc<[String]>> {
    shelf.sort_by(|drug| drug.expires)
}

/// How many medicines have no tablet left.
pub fn run_out(shelf: &Shelf) -> Memo<usize> {
    shelf.count_by(|drug| drug.on_hand == 0)
}

/// The lines of the order: each medicine `wanted` names, with the packs its row asks for.
pub fn order_lines(shelf: &Shelf, wanted: &Filter<String>) -> Memo<Vec<OrderLine>> {
    let (shelf, keys) = (shelf.clone(), wanted.keys());
    Memo::new(move |_| {
        let packs: HashMap<String, u32> = keys
            .get()
            .iter()
            .filter_map(|name| Some((name.clone(), shelf.row(name)?.1.get())))
            .collect();
        shelf
            .items()
            .into_iter()
            .filter_map(|drug| {
                let packs = *packs.get(&drug.name)?;
                Some(OrderLine {
                    drug: drug.name,
                    packs,
                    pack: drug.pack,
                })
            })
            .collect()
    })
}

/// The views as they were written with a mistake, selected by [`Slip`](super::graph::Slip).
pub mod slipped {
    use super::*;

    /// [`super::order_row`], with a mistake.
    pub fn order_row(row: &Row<String, Drug>) -> (&'static str, Memo<u32>) {
        let row = row.clone();
        let packs = Memo::new(move |_| {
            row.with(|drug| {
                if drug.on_hand > drug.reorder_at {
                    return 0;
                }
                // BUG(reorder_par)
                let short = drug.reorder_at.saturating_sub(drug.on_hand);
                let packs = short.div_ceil(drug.pack.max(1));
                packs.max(1)
            })
        })
        .labelled("order");
        ("order", packs)
    }

    /// [`super::to_order`], with a mistake.
    pub fn to_order(shelf: &Shelf) -> Filter<String> {
        // BUG(reorder_discontinued)
        shelf.filter(|drug| drug.on_hand <= drug.reorder_at)
    }

    /// [`super::use_first`], with a mistake.
    pub fn use_first(shelf: &Shelf) -> Memo<Rc<[String]>> {
        // BUG(shelf_order)
        shelf.sort_by(|drug| drug.received)
    }
}
