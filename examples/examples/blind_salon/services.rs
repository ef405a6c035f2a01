//! The two values that come over the network, as async memos: the reorder priced at the supplier's trade prices, and
//! tomorrow's online booking requests, each accepted, priced or turned down.
#![allow(clippy::let_and_return)] // `#[node]` names each node after the `let` that binds it

use super::model::{Booking, Length, Level, Product, Service, Status, Stylist, pounds};
use super::pricing::{discounted, needs_reorder, open_at};
use super::remote::{BookingFeed, Supplier};
use ranvier::{AsyncMemo, Memo, node};
use std::rc::Rc;

/// The products at or below their reorder point, each ordered in its reorder quantity at the supplier's price.
#[node]
pub fn supplier_order(
    products: &Memo<Vec<Product>>,
    supplier: Rc<Supplier>,
) -> AsyncMemo<Vec<String>> {
    let order = AsyncMemo::try_new({
        let products = products.clone();
        move |_| {
            let low: Vec<Product> = products.get().into_iter().filter(needs_reorder).collect();
            let supplier = supplier.clone();
            async move {
                let names = low.iter().map(|p| p.name.clone()).collect();
                let prices = supplier.prices(names).await?;
                let mut lines = Vec::new();
                let mut total = 0;
                for product in &low {
                    let Some((_, price)) = prices.iter().find(|(name, _)| *name == product.name)
                    else {
                        lines.push(format!("{}: the supplier does not carry it", product.name));
                        continue;
                    };
                    let cost = price * product.reorder_qty;
                    total += cost;
                    lines.push(format!(
                        "{}: {} left, order {} at {}, {}",
                        product.name,
                        product.stock,
                        product.reorder_qty,
                        pounds(*price),
                        pounds(cost)
                    ));
                }
                lines.push(format!("order: {}", pounds(total)));
                Ok::<_, String>(lines)
            }
        }
    });
    order
}

/// Tomorrow's online requests: each one outside the hours or clashing with a booking is turned down, the others
/// priced (`price_of`, then the weekday-morning discount).
#[node]
pub fn online_requests(
    list: &Memo<Vec<Booking>>,
    today: &Memo<u32>,
    stylists: &Memo<Vec<Stylist>>,
    feed: Rc<BookingFeed>,
    price_of: fn(Service, Length, Level) -> u32,
) -> AsyncMemo<Vec<String>> {
    let requests = AsyncMemo::try_new({
        let (list, today, stylists) = (list.clone(), today.clone(), stylists.clone());
        move |_| {
            let bookings = list.get();
            let day = today.get() + 1;
            let stylists = stylists.get();
            let feed = feed.clone();
            async move {
                let requests = feed.requests(day).await?;
                let mut lines = Vec::new();
                for r in &requests {
                    if !open_at(day, r.hour) {
                        lines.push(format!(
                            "{}: {}:00 on day {day} is outside our hours",
                            r.client, r.hour
                        ));
                        continue;
                    }
                    let clash = bookings
                        .iter()
                        .filter(|b| b.status == Status::Booked && b.stylist == r.stylist)
                        .any(|b| b.day == day && b.hour == r.hour);
                    if clash {
                        lines.push(format!(
                            "{}: {} is booked at {}:00 on day {day}",
                            r.client, r.stylist, r.hour
                        ));
                        continue;
                    }
                    let level = stylists
                        .iter()
                        .find(|s| s.name == r.stylist)
                        .map(|s| s.level);
                    let (Some(service), Some(length), Some(level)) =
                        (Service::parse(&r.service), Length::parse(&r.length), level)
                    else {
                        lines.push(format!("{}: cannot be priced", r.client));
                        continue;
                    };
                    let price = discounted(price_of(service, length, level), day, r.hour);
                    lines.push(format!(
                        "{}: {} ({}) with {}, day {day} at {}:00, {}",
                        r.client,
                        service.name(),
                        length.name(),
                        r.stylist,
                        r.hour,
                        pounds(price)
                    ));
                }
                Ok::<_, String>(lines)
            }
        }
    });
    requests
}

pub mod slipped {
    use super::super::model::{Booking, Length, Level, Product, Service, Status, Stylist, pounds};
    use super::super::pricing::{discounted, needs_reorder, open_at};
    use super::super::remote::{BookingFeed, Supplier};
    use ranvier::{AsyncMemo, Memo, node};
    use std::rc::Rc;

    /// [`super::supplier_order`], with the mistake.
    #[node]
    pub fn supplier_order(
        products: &Memo<Vec<Product>>,
        supplier: Rc<Supplier>,
    ) -> AsyncMemo<Vec<String>> {
        let order = AsyncMemo::try_new({
            let products = products.clone();
            move |_| {
                let low: Vec<Product> = products.get().into_iter().filter(needs_reorder).collect();
                let supplier = supplier.clone();
                async move {
                    let names = low.iter().map(|p| p.name.clone()).collect();
                    let prices = supplier.prices(names).await?;
                    let mut lines = Vec::new();
                    let mut total = 0;
                    for product in &low {
                        let Some((_, price)) =
                            prices.iter().find(|(name, _)| *name == product.name)
                        else {
                            lines.push(format!("{}: the supplier does not carry it", product.name));
                            continue;
                        };
                        // BUG(supplier_order)
                        let cost = price * product.stock;
                        total += cost;
                        lines.push(format!(
                            "{}: {} left, order {} at {}, {}",
                            product.name,
                            product.stock,
                            product.reorder_qty,
                            pounds(*price),
                            pounds(cost)
                        ));
                    }
                    lines.push(format!("order: {}", pounds(total)));
                    Ok::<_, String>(lines)
                }
            }
        });
        order
    }

    /// [`super::online_requests`], with the mistake.
    #[node]
    pub fn online_requests(
        list: &Memo<Vec<Booking>>,
        today: &Memo<u32>,
        stylists: &Memo<Vec<Stylist>>,
        feed: Rc<BookingFeed>,
        price_of: fn(Service, Length, Level) -> u32,
    ) -> AsyncMemo<Vec<String>> {
        let requests = AsyncMemo::try_new({
            let (list, today, stylists) = (list.clone(), today.clone(), stylists.clone());
            move |_| {
                let bookings = list.get();
                let day = today.get() + 1;
                let stylists = stylists.get();
                let feed = feed.clone();
                async move {
                    let requests = feed.requests(day).await?;
                    let mut lines = Vec::new();
                    for r in &requests {
                        if !open_at(day, r.hour) {
                            lines.push(format!(
                                "{}: {}:00 on day {day} is outside our hours",
                                r.client, r.hour
                            ));
                            continue;
                        }
                        let clash = bookings
                            .iter()
                            .filter(|b| b.status == Status::Booked && b.stylist == r.stylist)
                            // BUG(online_requests)
                            .any(|b| b.hour == r.hour);
                        if clash {
                            lines.push(format!(
                                "{}: {} is booked at {}:00 on day {day}",
                                r.client, r.stylist, r.hour
                            ));
                            continue;
                        }
                        let level = stylists
                            .iter()
                            .find(|s| s.name == r.stylist)
                            .map(|s| s.level);
                        let (Some(service), Some(length), Some(level)) =
                            (Service::parse(&r.service), Length::parse(&r.length), level)
                        else {
                            lines.push(format!("{}: cannot be priced", r.client));
                            continue;
                        };
                        let price = discounted(price_of(service, length, level), day, r.hour);
                        lines.push(format!(
                            "{}: {} ({}) with {}, day {day} at {}:00, {}",
                            r.client,
                            service.name(),
                            length.name(),
                            r.stylist,
                            r.hour,
                            pounds(price)
                        ));
                    }
                    Ok::<_, String>(lines)
                }
            }
        });
        requests
    }
}
