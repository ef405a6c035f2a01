//! The parts store as a keyed collection (`ranvier::collection`): one row per part code, each with its stock line
//! (what is on the shelf, what is coming, what to order), and what the counter reads from it: the shelf walked bin by
//! bin, the parts running low, and how many are out.

use super::model::Part;
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, node};
use std::collections::HashMap;

/// The store: one row per part code, its stock line as the row's `status`.
pub type Stock = Collection<String, Part, (&'static str, Memo<String>)>;

/// A row's factory.
pub type RowFactory = fn(&Row<String, Part>) -> (&'static str, Memo<String>);

/// What the store holds the day the garage opens.
pub fn opening_stock() -> Vec<Part> {
    let part = |code: &str, name: &str, bin: &str, levels: [u32; 3], price, supplier: &str| Part {
        code: code.to_owned(),
        name: name.to_owned(),
        bin: bin.to_owned(),
        stock: levels[0],
        on_order: 0,
        reorder_level: levels[1],
        max_stock: levels[2],
        price,
        supplier: supplier.to_owned(),
    };
    vec![
        part(
            "BRK-PAD",
            "front brake pads",
            "B2",
            [6, 2, 10],
            3_200,
            "Motaparts",
        ),
        part(
            "OIL-5W30",
            "engine oil 5W-30, 5 l",
            "A1",
            [8, 3, 12],
            3_600,
            "Lubrico",
        ),
        part("FLT-OIL", "oil filter", "A3", [10, 4, 20], 950, "Motaparts"),
        part(
            "WIPER",
            "wiper blades, pair",
            "C1",
            [3, 2, 8],
            1_800,
            "Motaparts",
        ),
        part(
            "BULB-H7",
            "H7 headlamp bulb",
            "C4",
            [0, 2, 10],
            700,
            "Brightway",
        ),
        part(
            "TYRE-205",
            "tyre 205/55 R16",
            "D1",
            [4, 4, 12],
            8_900,
            "Tyreline",
        ),
    ]
}

/// A part's row: its stock line, the memo `status`.
#[node]
pub fn part_row(row: &Row<String, Part>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let status = Memo::new(move |_| {
        row.with(|part| {
            let coming = part.on_order;
            let level = part.stock + coming;
            if level > part.reorder_level {
                return format!("{} on the shelf", part.stock);
            }
            let order = part.max_stock.saturating_sub(level);
            match (part.stock, coming) {
                (0, 0) => format!("out of stock: order {order}"),
                (0, _) => format!("out of stock, {coming} coming"),
                (left, 0) => format!("{left} left: order {order}"),
                (left, _) => format!("{left} left, {coming} coming"),
            }
        })
    });
    ("status", status)
}

/// The shelf walked bin by bin: `B2 BRK-PAD front brake pads: 6`.
pub fn shelf(stock: &Stock) -> Memo<Vec<String>> {
    let by_bin = stock.sort_by(|part| part.bin.clone());
    let stock = stock.clone();
    Memo::new(move |_| {
        let order = by_bin.get();
        let mut lines = HashMap::new();
        stock.for_each(|code, part, _| {
            let line = format!("{} {code} {}: {}", part.bin, part.name, part.stock);
            lines.insert(code.clone(), line);
        });
        order.iter().filter_map(|code| lines.remove(code)).collect()
    })
}

/// The parts at or below their reorder level, in the store's order, each with its stock line.
pub fn low_stock(stock: &Stock) -> Memo<Vec<String>> {
    let low = stock.filter(Part::is_low).keys();
    let stock = stock.clone();
    Memo::new(move |_| {
        let mut names = HashMap::new();
        stock.for_each(|code, part, _| {
            names.insert(code.clone(), part.name.clone());
        });
        low.get()
            .iter()
            .filter_map(|code| {
                let (_, status) = stock.row(code)?;
                Some(format!("{code} {}: {}", names.get(code)?, status.get()))
            })
            .collect()
    })
}

/// How many parts have none on the shelf.
pub fn out_of_stock(stock: &Stock) -> Memo<usize> {
    stock.count_by(|part| part.stock == 0)
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{HashMap, Memo, Part, Row, Stock, node};

    /// A part's row: its stock line, the memo `status`.
    #[node]
    pub fn part_row(row: &Row<String, Part>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let status = Memo::new(move |_| {
            row.with(|part| {
                let coming = part.on_order;
                let level = part.stock + coming;
                if level > part.reorder_level {
                    return format!("{} on the shelf", part.stock);
                }
                // BUG(reorder_to_level)
                let order = part.reorder_level.saturating_sub(level);
                match (part.stock, coming) {
                    (0, 0) => format!("out of stock: order {order}"),
                    (0, _) => format!("out of stock, {coming} coming"),
                    (left, 0) => format!("{left} left: order {order}"),
                    (left, _) => format!("{left} left, {coming} coming"),
                }
            })
        });
        ("status", status)
    }

    /// The shelf walked bin by bin: `B2 BRK-PAD front brake pads: 6`.
    pub fn shelf(stock: &Stock) -> Memo<Vec<String>> {
        // BUG(shelf_by_name)
        let by_bin = stock.sort_by(|part| part.name.clone());
        let stock = stock.clone();
        Memo::new(move |_| {
            let order = by_bin.get();
            let mut lines = HashMap::new();
            stock.for_each(|code, part, _| {
                let line = format!("{} {code} {}: {}", part.bin, part.name, part.stock);
                lines.insert(code.clone(), line);
            });
            order.iter().filter_map(|code| lines.remove(code)).collect()
        })
    }
}
