//! The shelves: the stock sheet with its reorders, the reorders the distributor is asked about, and the consignors'
//! payouts at the month's end.

use super::model::{Book, Kind, MONTH_DAYS, Msg, Shop, pounds};
use super::pricing;
use ranvier::{Memo, Mvu, node};

/// A reorder the distributor is asked about: the book's code and title, the copies wanted and its trade price.
#[derive(Clone, Debug, PartialEq)]
pub struct Reorder {
    pub code: String,
    pub title: String,
    pub wanted: u32,
    pub trade: u32,
}

/// Whether `book`'s shelf is down to its reorder point.
pub fn needs_reorder(book: &Book) -> bool {
    book.stock <= book.reorder_point
}

/// The new books out today whose shelf needs a reorder.
#[node]
pub fn reorders(shop: &Mvu<Shop, Msg>) -> Memo<Vec<Reorder>> {
    let reorders = shop.select(|shop| {
        shop.books
            .iter()
            .filter(|b| !b.is_used() && b.is_published(shop.today) && needs_reorder(b))
            .map(|b| Reorder {
                code: b.code.clone(),
                title: b.title.clone(),
                wanted: b.reorder_qty,
                trade: pricing::cost_price(b),
            })
            .collect()
    });
    reorders
}

/// The stock sheet: each book's shelf, what to reorder, and the stock's value at cost.
#[node]
pub fn stock_sheet(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let stock_sheet = shop.select(|shop| {
        let mut lines = Vec::new();
        let mut at_cost = 0;
        for book in &shop.books {
            let mut line = format!("{}: {} on the shelf", book.title, book.stock);
            match &book.kind {
                Kind::Used { consignor, .. } => {
                    line.push_str(&format!(" ({consignor}'s)"));
                }
                Kind::New { .. } if !book.is_published(shop.today) => {
                    line.push_str(&format!(", out on day {}", book.published));
                }
                Kind::New { .. } => {
                    at_cost += book.stock * pricing::cost_price(book);
                    if needs_reorder(book) {
                        line.push_str(&format!("; reorder {}", book.reorder_qty));
                    }
                }
            }
            lines.push(line);
        }
        let waiting = shop.orders.iter().filter(|o| o.special).count();
        lines.push(format!(
            "stock at cost: {}, {waiting} special orders",
            pounds(i64::from(at_cost))
        ));
        lines
    });
    stock_sheet
}

/// The consignors' payouts for the month so far: each seller's books sold and their share, paid at the month's end.
#[node]
pub fn payouts(shop: &Mvu<Shop, Msg>, share: fn(u32, u32) -> u32) -> Memo<Vec<String>> {
    let payouts = shop.select(move |shop| {
        let mut consignors: Vec<&str> = Vec::new();
        for book in &shop.books {
            if let Kind::Used { consignor, .. } = &book.kind {
                if !consignors.contains(&consignor.as_str()) {
                    consignors.push(consignor);
                }
            }
        }
        let mut lines = Vec::new();
        let mut total = 0;
        for consignor in consignors {
            let (mut sold, mut owed) = (0, 0);
            for sale in shop.sales.iter().filter(|s| !s.returned) {
                let Some(Kind::Used {
                    consignor: seller, ..
                }) = shop.book(&sale.code).map(|b| &b.kind)
                else {
                    continue;
                };
                if seller == consignor {
                    sold += sale.qty;
                    owed += share(sale.unit * sale.qty, pricing::HANDLING_FEE * sale.qty);
                }
            }
            total += owed;
            lines.push(match sold {
                0 => format!("{consignor}: nothing sold"),
                n => format!("{consignor}: {n} sold, {} due", pounds(i64::from(owed))),
            });
        }
        lines.push(format!(
            "payouts on day {MONTH_DAYS}: {}",
            pounds(i64::from(total))
        ));
        lines
    });
    payouts
}

pub mod slipped {
    use super::*;

    #[node]
    pub fn payouts(shop: &Mvu<Shop, Msg>, share: fn(u32, u32) -> u32) -> Memo<Vec<String>> {
        let payouts = shop.select(move |shop| {
            let mut consignors: Vec<&str> = Vec::new();
            for book in &shop.books {
                if let Kind::Used { consignor, .. } = &book.kind {
                    if !consignors.contains(&consignor.as_str()) {
                        consignors.push(consignor);
                    }
                }
            }
            let mut lines = Vec::new();
            let mut total = 0;
            for consignor in consignors {
                let (mut sold, mut owed) = (0, 0);
                for sale in shop.sales.iter().filter(|s| !s.returned) {
                    let Some(Kind::Used {
                        consignor: seller, ..
                    }) = shop.book(&sale.code).map(|b| &b.kind)
                    else {
                        // BUG(payouts)
                        break;
                    };
                    if seller == consignor {
                        sold += sale.qty;
                        owed += share(sale.unit * sale.qty, pricing::HANDLING_FEE * sale.qty);
                    }
                }
                total += owed;
                lines.push(match sold {
                    0 => format!("{consignor}: nothing sold"),
                    n => format!("{consignor}: {n} sold, {} due", pounds(i64::from(owed))),
                });
            }
            lines.push(format!(
                "payouts on day {MONTH_DAYS}: {}",
                pounds(i64::from(total))
            ));
            lines
        });
        payouts
    }
}
