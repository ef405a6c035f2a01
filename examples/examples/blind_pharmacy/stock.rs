//! The shelf: the stock as a keyed collection, one row per lot with its shelf label, and the views the dispensary
//! works from (the picking order, batches running low, how many lots of each medicine).

use super::model::{Batch, name_of};
use ranvier::Memo;
use ranvier::collection::{Collection, Row};
use std::collections::BTreeMap;

/// A batch with fewer than this many left is running low.
pub const LOW: u32 = 30;

/// The stock: one row per lot, each with its shelf label.
pub type Stock = Collection<String, Batch, (&'static str, Memo<String>)>;

/// What builds a row's label from the row, today and the short-dated window.
pub type RowFn = fn(&Row<String, Batch>, &Memo<u32>, &Memo<u32>) -> (&'static str, Memo<String>);

/// A row's shelf label: how many of what, the lot, its date, and whether it is short-dated (expires within the
/// window, today included) or out of date.
pub fn shelf_row(
    row: &Row<String, Batch>,
    today: &Memo<u32>,
    window: &Memo<u32>,
) -> (&'static str, Memo<String>) {
    let (row, today, window) = (row.clone(), today.clone(), window.clone());
    let label = Memo::new(move |_| {
        let (today, window) = (today.get(), window.get());
        row.with(|batch| {
            let state = if batch.expires < today {
                "out of date".to_owned()
            } else if (today..=today + window).contains(&batch.expires) {
                match batch.expires - today {
                    0 => "short-dated, last day".to_owned(),
                    1 => "short-dated, 1 day left".to_owned(),
                    n => format!("short-dated, {n} days left"),
                }
            } else {
                "in date".to_owned()
            };
            format!(
                "{} × {}, lot {}, use by day {}: {state}",
                batch.quantity,
                name_of(&batch.medicine),
                batch.lot,
                batch.expires
            )
        })
    })
    .labelled("label");
    ("label", label)
}

/// The order batches are picked in: by medicine, then the one that expires first.
pub fn picking_order(batch: &Batch) -> (String, u32) {
    (batch.medicine.clone(), batch.expires)
}

/// The shelf's views.
pub struct Views {
    /// Every batch's label, in picking order.
    pub shelf: Memo<Vec<String>>,
    /// The batches running low.
    pub low: Memo<Vec<String>>,
    /// How many lots of each medicine are on the shelf.
    pub lots: Memo<Vec<String>>,
}

/// The views over `stock`, its picking order by `order`.
pub fn views(stock: &Stock, order: fn(&Batch) -> (String, u32)) -> Views {
    let sorted = stock.sort_by(order);
    let shelf = Memo::new({
        let stock = stock.clone();
        move |_| {
            sorted
                .get()
                .iter()
                .filter_map(|lot| stock.row(lot))
                .map(|(_, label)| label.get())
                .collect::<Vec<_>>()
        }
    });
    let running_low = stock.filter(|batch| batch.quantity < LOW);
    let low = Memo::new({
        let stock = stock.clone();
        let keys = running_low.keys();
        move |_| {
            let items = stock.items();
            keys.get()
                .iter()
                .filter_map(|lot| items.iter().find(|b| &b.lot == lot))
                .map(|b| {
                    format!(
                        "{} lot {}: {} left",
                        name_of(&b.medicine),
                        b.lot,
                        b.quantity
                    )
                })
                .collect::<Vec<_>>()
        }
    });
    let groups = stock.group_by(|batch| batch.medicine.clone());
    let lots = Memo::new(move |_| {
        let groups: BTreeMap<String, usize> = (*groups.get()).clone();
        groups
            .into_iter()
            .map(|(medicine, n)| format!("{}: {n}", name_of(&medicine)))
            .collect::<Vec<_>>()
    });
    Views { shelf, low, lots }
}

pub(crate) mod slipped {
    use super::{Batch, Memo, Row, name_of};

    /// [`super::shelf_row`], with the mistake.
    pub fn shelf_row(
        row: &Row<String, Batch>,
        today: &Memo<u32>,
        window: &Memo<u32>,
    ) -> (&'static str, Memo<String>) {
        let (row, today, window) = (row.clone(), today.clone(), window.clone());
        let label = Memo::new(move |_| {
            let (today, window) = (today.get(), window.get());
            row.with(|batch| {
                let state = if batch.expires < today {
                    "out of date".to_owned()
                // BUG(short_dated_edge)
                } else if (today..today + window).contains(&batch.expires) {
                    match batch.expires - today {
                        0 => "short-dated, last day".to_owned(),
                        1 => "short-dated, 1 day left".to_owned(),
                        n => format!("short-dated, {n} days left"),
                    }
                } else {
                    "in date".to_owned()
                };
                format!(
                    "{} × {}, lot {}, use by day {}: {state}",
                    batch.quantity,
                    name_of(&batch.medicine),
                    batch.lot,
                    batch.expires
                )
            })
        })
        .labelled("label");
        ("label", label)
    }

    /// [`super::picking_order`], with the mistake.
    pub fn picking_order(batch: &Batch) -> (String, u32) {
        // BUG(shelf_order)
        (batch.medicine.clone(), batch.received)
    }
}
