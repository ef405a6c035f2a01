//! What the bakery asks services over the network, as async memos: what today's flour costs at the mill's prices,
//! and the van's stops for today's deliveries, nearest first (a route planner).

use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::model::{Bakery, Msg, money};
use super::recipes;
use super::remote;

/// The flour today's orders take, by flour, in grams (flours in the order first needed).
fn flour_needs(bakery: &Bakery) -> Vec<(String, u64)> {
    let mut needs: Vec<(String, u64)> = Vec::new();
    for product in &bakery.products {
        let pieces = bakery.ordered(&product.code, bakery.day);
        if pieces == 0 {
            continue;
        }
        let grams = recipes::flour_for(product, pieces);
        match needs.iter_mut().find(|(flour, _)| *flour == product.flour) {
            Some((_, total)) => *total += grams,
            None => needs.push((product.flour.clone(), grams)),
        }
    }
    needs
}

/// The customers with orders still to deliver today, by name.
fn customers_to_visit(bakery: &Bakery) -> Vec<String> {
    let mut customers: Vec<String> = bakery
        .orders
        .iter()
        .filter(|o| o.due_on(bakery.day) && !o.delivered)
        .map(|o| o.customer.clone())
        .collect();
    customers.sort();
    customers.dedup();
    customers
}

/// The services' memos.
pub struct Services {
    /// What today's flour costs at the mill's prices.
    pub flour_cost: AsyncMemo<String>,
    /// The van's stops today, nearest first.
    pub stops: AsyncMemo<Vec<String>>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(bakery: &Mvu<Bakery, Msg>, slip: Slip) -> Services {
    let flour_cost = match slip {
        Slip::FlourCost => slipped::flour_cost(bakery),
        _ => flour_cost(bakery),
    };
    let stops = match slip {
        Slip::StopsDefault => slipped::stops(bakery),
        _ => stops(bakery),
    };
    Services { flour_cost, stops }
}

/// Today's flour priced at the mill: each flour's grams at its price per kilogram, rounded down to the cent.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn flour_cost(bakery: &Mvu<Bakery, Msg>) -> AsyncMemo<String> {
    let needs = bakery.select(flour_needs);
    let flour_cost = AsyncMemo::try_new(move |_| {
        let needs = needs.get();
        async move {
            let mut cents = 0;
            for (flour, grams) in needs {
                let per_kg = remote::flour_price(&flour).await?;
                cents += grams * per_kg / 1000;
            }
            Ok::<_, String>(money(cents))
        }
    });
    flour_cost
}

/// The van's stops today, nearest first: `Cafe Nord: 12 min`; a customer the planner has no address for comes last,
/// to be phoned.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn stops(bakery: &Mvu<Bakery, Msg>) -> AsyncMemo<Vec<String>> {
    let customers = bakery.select(customers_to_visit);
    let stops = AsyncMemo::try_new(move |_| {
        let customers = customers.get();
        async move {
            let mut route = Vec::new();
            let mut unknown = Vec::new();
            for customer in customers {
                let minutes = match remote::drive_minutes(&customer).await {
                    Ok(minutes) => minutes,
                    Err(_) => {
                        unknown.push(format!("{customer}: no address, phone them"));
                        continue;
                    }
                };
                route.push((minutes, customer));
            }
            route.sort();
            let mut lines: Vec<String> = route
                .into_iter()
                .map(|(minutes, customer)| format!("{customer}: {minutes} min"))
                .collect();
            lines.extend(unknown);
            Ok::<_, String>(lines)
        }
    });
    stops
}

/// The services' memos with a mistake.
mod slipped {
    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::model::{Bakery, Msg, money};
    use super::super::remote;
    use super::{customers_to_visit, flour_needs};

    /// Today's flour priced at the mill.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn flour_cost(bakery: &Mvu<Bakery, Msg>) -> AsyncMemo<String> {
        let needs = bakery.select(flour_needs);
        let flour_cost = AsyncMemo::try_new(move |_| {
            let needs = needs.get();
            async move {
                let mut cents = 0;
                for (flour, grams) in needs {
                    let per_kg = remote::flour_price(&flour).await?;
                    // BUG(flour_cost)
                    cents += grams * per_kg / 100;
                }
                Ok::<_, String>(money(cents))
            }
        });
        flour_cost
    }

    /// The van's stops today, nearest first.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn stops(bakery: &Mvu<Bakery, Msg>) -> AsyncMemo<Vec<String>> {
        let customers = bakery.select(customers_to_visit);
        let stops = AsyncMemo::try_new(move |_| {
            let customers = customers.get();
            async move {
                let mut route = Vec::new();
                for customer in customers {
                    // BUG(stops_default)
                    let minutes = remote::drive_minutes(&customer).await.unwrap_or_default();
                    route.push((minutes, customer));
                }
                route.sort();
                let lines: Vec<String> = route
                    .into_iter()
                    .map(|(minutes, customer)| format!("{customer}: {minutes} min"))
                    .collect();
                Ok::<_, String>(lines)
            }
        });
        stops
    }
}
