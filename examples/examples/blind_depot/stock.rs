//! The stock as a keyed collection: one row per part, each with its shelf label (a row memo), and the views the floor
//! reads: the shelves in walking order, the parts down to their reorder point, and how many bins are empty.

use super::graph::{Slip, slip};
use super::model::{Depot, Msg, StockItem};
use super::picking::walk_position;
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, Mvu};
use std::rc::Rc;

/// The stock: keyed by sku, each row's figure its shelf label (the field `shelf` of its row in the `stock` value).
pub type Stock = Collection<String, StockItem, (&'static str, Memo<String>)>;

/// The stock, following the depot's items.
pub fn stock(depot: &Mvu<Depot, Msg>) -> Stock {
    Collection::keyed(
        depot.select(|depot| depot.items.clone()),
        |item: &StockItem| item.sku.clone(),
        shelf_row,
    )
}

/// A part's shelf label: `A-02-1 BRK-110 Brake pad set: 12 on hand (10.8 kg), 10 free`, saying when the part is
/// down to its reorder point, all promised, or gone.
fn shelf_row(row: &Row<String, StockItem>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let shelf = Memo::new(move |_| {
        row.with(|item| {
            let free = item.free();
            let kilos = f64::from(item.on_hand * item.grams) / 1000.0;
            let state = if item.on_hand == 0 {
                "empty".to_owned()
            } else if free == 0 {
                "all reserved".to_owned()
            } else {
                let headroom = if slip() == Slip::HeadroomSwapped {
                    // BUG(headroom_swapped)
                    item.reorder_point.saturating_sub(free)
                } else {
                    free.saturating_sub(item.reorder_point)
                };
                match headroom {
                    0 => format!("{free} free, reorder"),
                    _ => format!("{free} free"),
                }
            };
            format!(
                "{} {} {}: {} on hand ({kilos:.1} kg), {state}",
                item.bin, item.sku, item.name, item.on_hand
            )
        })
    })
    .labelled("shelf");
    ("shelf", shelf)
}

/// The parts in the order a picker walks past their bins.
pub fn walk(stock: &Stock) -> Memo<Rc<[String]>> {
    if slip() == Slip::WalkOrder {
        // BUG(walk_order)
        return stock.sort_by(|item| item.bin.clone());
    }
    stock.sort_by(|item| walk_position(&item.bin))
}

/// Every shelf's label, in walking order.
pub fn shelves(stock: &Stock, walk: &Memo<Rc<[String]>>) -> Memo<Vec<String>> {
    let (stock, walk) = (stock.clone(), walk.clone());
    Memo::new(move |_| {
        walk.get()
            .iter()
            .filter_map(|sku| stock.row(sku))
            .map(|(_, shelf)| shelf.get())
            .collect()
    })
}

/// The parts down to their reorder point, by sku.
pub fn low_stock(stock: &Stock) -> Memo<Vec<String>> {
    let low = stock.filter(|item| item.free() <= item.reorder_point);
    let keys = low.keys();
    Memo::new(move |_| {
        let mut skus: Vec<String> = keys.get().to_vec();
        skus.sort();
        skus
    })
}

/// How many bins are empty.
pub fn empty_bins(stock: &Stock) -> Memo<usize> {
    stock.count_by(|item| item.on_hand == 0)
}
