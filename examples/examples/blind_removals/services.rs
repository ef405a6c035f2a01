//! The async memos over the network services: each open quote's road miles from the route planner, and the fuel
//! surcharge on the booked jobs from the diesel price.

use super::model::{Job, Quote, Status, pounds};
use super::quotes::distance_charge;
use super::remote::{FuelFeed, RouteService};
use ranvier::{AsyncMemo, Memo, node};
use std::rc::Rc;

/// The diesel price (pence a litre) the quotes assume; above it, a surcharge.
pub const FUEL_BASE: u32 = 140;
/// The surcharge's cap, in percent.
pub const FUEL_CAP: u32 = 6;

/// Each quote's distance as the route planner has it, and what it would charge; the customer's estimate where the
/// planner does not know the route.
#[node]
pub fn road_miles(quotes: &Memo<Vec<Quote>>, route: Rc<RouteService>) -> AsyncMemo<Vec<String>> {
    let quotes = quotes.clone();
    let road_miles = AsyncMemo::new(move |_| {
        let quotes = quotes.get();
        let route = route.clone();
        async move {
            let mut lines = Vec::new();
            for quote in &quotes {
                let miles = route
                    .miles(&quote.from, &quote.to)
                    .await
                    .unwrap_or(quote.miles);
                lines.push(format!(
                    "quote {}: {} to {}, {} miles by road (estimate {}), distance {}",
                    quote.no,
                    quote.from,
                    quote.to,
                    miles,
                    quote.miles,
                    pounds(distance_charge(miles))
                ));
            }
            lines
        }
    });
    road_miles
}

/// The fuel surcharge: a percent for every 5p diesel costs over the base, capped, on each booked job.
#[node]
pub fn fuel_surcharges(jobs: &Memo<Vec<Job>>, feed: Rc<FuelFeed>) -> AsyncMemo<Vec<String>> {
    let jobs = jobs.clone();
    let fuel_surcharges = AsyncMemo::new(move |_| {
        let jobs = jobs.get();
        let feed = feed.clone();
        async move {
            let pence = feed.diesel_pence().await;
            let percent = if pence > FUEL_BASE {
                ((pence - FUEL_BASE) / 5).min(FUEL_CAP)
            } else {
                0
            };
            let mut lines = vec![format!("diesel {pence}p a litre: {percent}% surcharge")];
            for job in jobs.iter().filter(|job| job.status == Status::Booked) {
                let surcharge = job.quoted * u64::from(percent) / 100;
                lines.push(format!(
                    "job {}, {}: {}",
                    job.no,
                    job.customer,
                    pounds(surcharge)
                ));
            }
            lines
        }
    });
    fuel_surcharges
}

pub mod slipped {
    use super::super::model::{Job, Quote, Status, pounds};
    use super::super::quotes::distance_charge;
    use super::super::remote::{FuelFeed, RouteService};
    use super::{FUEL_BASE, FUEL_CAP};
    use ranvier::{AsyncMemo, Memo, node};
    use std::rc::Rc;

    /// Each quote's distance as the route planner has it, and what it would charge; the customer's estimate where
    /// the planner does not know the route.
    #[node]
    pub fn road_miles(
        quotes: &Memo<Vec<Quote>>,
        route: Rc<RouteService>,
    ) -> AsyncMemo<Vec<String>> {
        let quotes = quotes.clone();
        let road_miles = AsyncMemo::new(move |_| {
            let quotes = quotes.get();
            let route = route.clone();
            async move {
                let mut lines = Vec::new();
                for quote in &quotes {
                    // BUG(road_fallback)
                    let miles = route.miles(&quote.from, &quote.to).await.unwrap_or(0);
                    lines.push(format!(
                        "quote {}: {} to {}, {} miles by road (estimate {}), distance {}",
                        quote.no,
                        quote.from,
                        quote.to,
                        miles,
                        quote.miles,
                        pounds(distance_charge(miles))
                    ));
                }
                lines
            }
        });
        road_miles
    }

    /// The fuel surcharge: a percent for every 5p diesel costs over the base, capped, on each booked job.
    #[node]
    pub fn fuel_surcharges(jobs: &Memo<Vec<Job>>, feed: Rc<FuelFeed>) -> AsyncMemo<Vec<String>> {
        let jobs = jobs.clone();
        let fuel_surcharges = AsyncMemo::new(move |_| {
            let jobs = jobs.get();
            let feed = feed.clone();
            async move {
                let pence = feed.diesel_pence().await;
                let percent = if pence > FUEL_BASE {
                    // BUG(fuel_cap)
                    ((pence - FUEL_BASE) / 5).max(FUEL_CAP)
                } else {
                    0
                };
                let mut lines = vec![format!("diesel {pence}p a litre: {percent}% surcharge")];
                for job in jobs.iter().filter(|job| job.status == Status::Booked) {
                    let surcharge = job.quoted * u64::from(percent) / 100;
                    lines.push(format!(
                        "job {}, {}: {}",
                        job.no,
                        job.customer,
                        pounds(surcharge)
                    ));
                }
                lines
            }
        });
        fuel_surcharges
    }
}
