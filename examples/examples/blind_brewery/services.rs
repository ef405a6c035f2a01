//! What the brewery asks services over the network for, as async memos: the invoices of the orders shipped, priced
//! at the wholesaler's trade list, and the duty owed on the week's packaged beer at the duty office's rates.

use super::graph::Slip;
use super::model::{Brewery, Msg, Order, pounds, week_of};
use super::remote;
use super::trade;
use ranvier::{AsyncMemo, Mvu};

/// What an order holds: `2 kegs + 24 bottles`.
fn contents(order: &Order) -> String {
    match (order.kegs, order.bottles) {
        (kegs, 0) => format!("{kegs} kegs"),
        (0, bottles) => format!("{bottles} bottles"),
        (kegs, bottles) => format!("{kegs} kegs + {bottles} bottles"),
    }
}

/// Each shipped order's invoice at the trade list's prices, with the deposit on its kegs:
/// `Order 1, The Crown: 2 kegs + 24 bottles of Pale Ale, 276.00 + 60.00 deposit`.
pub fn invoices(brewery: &Mvu<Brewery, Msg>) -> AsyncMemo<Vec<String>> {
    let shipped = brewery.select(|b| {
        b.orders
            .iter()
            .filter(|order| order.shipped_on.is_some())
            .cloned()
            .collect::<Vec<_>>()
    });
    AsyncMemo::try_new(move |_| {
        let orders = shipped.get();
        async move {
            let mut invoices = Vec::with_capacity(orders.len());
            for order in &orders {
                let price = remote::trade_price(&order.beer).await?;
                let goods = trade::order_value(order.kegs, order.bottles, &price);
                let deposit = trade::deposit(order.kegs);
                invoices.push(format!(
                    "Order {}, {}: {} of {}, {} + {} deposit",
                    order.id,
                    order.customer,
                    contents(order),
                    order.beer,
                    pounds(i64::from(goods)),
                    pounds(i64::from(deposit))
                ));
            }
            Ok::<_, String>(invoices)
        }
    })
}

/// The duty on the beer packaged this week, batch by batch at its band's rate, and the week's total.
pub fn duty(brewery: &Mvu<Brewery, Msg>, slip: Slip) -> AsyncMemo<Vec<String>> {
    let duty_band = if slip == Slip::BandEdge {
        trade::slipped::duty_band
    } else {
        trade::duty_band
    };
    let week = brewery.select(|b| week_of(b.day));
    let packaged = brewery.select(|b| {
        let week = week_of(b.day);
        b.batches
            .iter()
            .filter(|batch| batch.packaged_on.is_some_and(|day| week_of(day) == week))
            .cloned()
            .collect::<Vec<_>>()
    });
    AsyncMemo::new(move |_| {
        let (week, batches) = (week.get(), packaged.get());
        async move {
            if batches.is_empty() {
                return vec![format!("week {week}: nothing packaged")];
            }
            let rates = match remote::duty_rates(week).await {
                Ok(rates) => rates,
                Err(why) => return vec![format!("week {week}: duty not worked out ({why})")],
            };
            let mut lines = Vec::new();
            let mut total = 0;
            for batch in &batches {
                let Some(abv) = batch.abv() else {
                    lines.push(format!(
                        "{}: strength unknown (no final gravity)",
                        batch.label()
                    ));
                    continue;
                };
                let band = duty_band(abv);
                let owed = trade::duty(batch.litres, abv, rates.of(band));
                total += owed;
                lines.push(format!(
                    "{} {}.{}%, {} L: {} rate, {}",
                    batch.label(),
                    abv / 10,
                    abv % 10,
                    batch.litres,
                    band.name(),
                    pounds(i64::from(owed))
                ));
            }
            lines.push(format!("week {week}: {}", pounds(i64::from(total))));
            lines
        }
    })
}

/// Copies of the async memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::graph::Slip;
    use super::super::model::{Brewery, Msg, pounds, week_of};
    use super::{contents, remote, trade};
    use ranvier::{AsyncMemo, Mvu};

    /// [`super::invoices`] with a mistake.
    pub fn invoices(brewery: &Mvu<Brewery, Msg>) -> AsyncMemo<Vec<String>> {
        let shipped = brewery.select(|b| {
            b.orders
                .iter()
                .filter(|order| order.shipped_on.is_some())
                .cloned()
                .collect::<Vec<_>>()
        });
        AsyncMemo::try_new(move |_| {
            let orders = shipped.get();
            async move {
                let mut invoices = Vec::with_capacity(orders.len());
                for order in &orders {
                    let price = remote::trade_price(&order.beer).await?;
                    // BUG(invoice_swapped)
                    let goods = trade::order_value(order.bottles, order.kegs, &price);
                    let deposit = trade::deposit(order.kegs);
                    invoices.push(format!(
                        "Order {}, {}: {} of {}, {} + {} deposit",
                        order.id,
                        order.customer,
                        contents(order),
                        order.beer,
                        pounds(i64::from(goods)),
                        pounds(i64::from(deposit))
                    ));
                }
                Ok::<_, String>(invoices)
            }
        })
    }

    /// [`super::duty`] with a mistake.
    pub fn duty(brewery: &Mvu<Brewery, Msg>, slip: Slip) -> AsyncMemo<Vec<String>> {
        let duty_band = if slip == Slip::BandEdge {
            trade::slipped::duty_band
        } else {
            trade::duty_band
        };
        let week = brewery.select(|b| week_of(b.day));
        let packaged = brewery.select(|b| {
            let week = week_of(b.day);
            b.batches
                .iter()
                .filter(|batch| batch.packaged_on.is_some_and(|day| week_of(day) == week))
                .cloned()
                .collect::<Vec<_>>()
        });
        AsyncMemo::new(move |_| {
            let (week, batches) = (week.get(), packaged.get());
            async move {
                if batches.is_empty() {
                    return vec![format!("week {week}: nothing packaged")];
                }
                // BUG(duty_default)
                let rates = remote::duty_rates(week).await.unwrap_or_default();
                let mut lines = Vec::new();
                let mut total = 0;
                for batch in &batches {
                    let Some(abv) = batch.abv() else {
                        lines.push(format!(
                            "{}: strength unknown (no final gravity)",
                            batch.label()
                        ));
                        continue;
                    };
                    let band = duty_band(abv);
                    let owed = trade::duty(batch.litres, abv, rates.of(band));
                    total += owed;
                    lines.push(format!(
                        "{} {}.{}%, {} L: {} rate, {}",
                        batch.label(),
                        abv / 10,
                        abv % 10,
                        batch.litres,
                        band.name(),
                        pounds(i64::from(owed))
                    ));
                }
                lines.push(format!("week {week}: {}", pounds(i64::from(total))));
                lines
            }
        })
    }
}
