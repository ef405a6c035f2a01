//! What the office learns over the network, as async memos: what refuelling the cars that came back short costs at
//! today's pump prices, and what the insurer pays towards the damage reported.

use super::model::{Booking, Car, DamageReport, Fuel, Status, pounds};
use super::remote::{FuelFeed, Insurer};
use ranvier::{AsyncMemo, Memo};
use std::rc::Rc;

/// A returned car to refuel: its registration, class name, fuel, tank and the eighths it came back short.
struct Refill {
    reg: String,
    class: &'static str,
    fuel: Fuel,
    tank: u32,
    short: u32,
}

/// The returned hires, each with its car's fuel and tank.
fn refills(bookings: &[Booking], cars: &[Car]) -> Vec<Refill> {
    bookings
        .iter()
        .filter(|b| b.status == Status::Returned)
        .filter_map(|b| {
            let car = cars.iter().find(|c| Some(&c.reg) == b.car.as_ref())?;
            Some(Refill {
                reg: car.reg.clone(),
                class: car.class.name(),
                fuel: car.fuel,
                tank: car.class.tank(),
                short: b.fuel_short(),
            })
        })
        .collect()
}

/// What it costs to fill up the returned cars that came back short, at the feed's price a litre.
pub fn refuel(
    bookings: &Memo<Vec<Booking>>,
    cars: &Memo<Vec<Car>>,
    feed: Rc<FuelFeed>,
) -> AsyncMemo<Vec<String>> {
    let (bookings, cars) = (bookings.clone(), cars.clone());
    AsyncMemo::new(move |_| {
        let returned = bookings.with(|bookings| cars.with(|cars| refills(bookings, cars)));
        let feed = feed.clone();
        async move {
            let mut lines = Vec::new();
            let mut total = 0;
            for refill in returned {
                if refill.short == 0 {
                    continue;
                }
                let litres = refill.short * refill.tank / 8;
                match feed.price(refill.fuel).await {
                    Ok(per_litre) => {
                        let cost = litres * per_litre;
                        total += cost;
                        lines.push(format!(
                            "{} ({}, {}): {}/8 short, {litres} L at {}, {}",
                            refill.reg,
                            refill.class,
                            refill.fuel.name(),
                            refill.short,
                            pounds(per_litre),
                            pounds(cost)
                        ));
                    }
                    Err(why) => lines.push(format!("{}: {litres} L, {why}", refill.reg)),
                }
            }
            lines.push(format!("to refuel: {}", pounds(total)));
            lines
        }
    })
}

/// What the insurer pays towards each repair reported, and in all.
pub fn claims(damages: &Memo<Vec<DamageReport>>, insurer: Rc<Insurer>) -> AsyncMemo<Vec<String>> {
    let damages = damages.clone();
    AsyncMemo::new(move |_| {
        let reports = damages.get();
        let insurer = insurer.clone();
        async move {
            let mut lines = Vec::new();
            let mut costs = 0;
            let mut paid = 0;
            for report in reports {
                costs += report.cost;
                match insurer.claim(&report.reg, report.cost).await {
                    Ok(pays) => {
                        paid += pays;
                        lines.push(format!(
                            "{} {}: {}, the insurer pays {}",
                            report.reg,
                            report.part,
                            pounds(report.cost),
                            pounds(pays)
                        ));
                    }
                    Err(why) => lines.push(format!(
                        "{} {}: {}, {why}",
                        report.reg,
                        report.part,
                        pounds(report.cost)
                    )),
                }
            }
            lines.push(format!(
                "insurer pays: {} of {}",
                pounds(paid),
                pounds(costs)
            ));
            lines
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Booking, Car, DamageReport, pounds};
    use super::super::remote::{FuelFeed, Insurer};
    use super::refills;
    use ranvier::{AsyncMemo, Memo};
    use std::rc::Rc;

    /// What it costs to fill up the returned cars that came back short, at the feed's price a litre.
    pub fn refuel(
        bookings: &Memo<Vec<Booking>>,
        cars: &Memo<Vec<Car>>,
        feed: Rc<FuelFeed>,
    ) -> AsyncMemo<Vec<String>> {
        let (bookings, cars) = (bookings.clone(), cars.clone());
        AsyncMemo::new(move |_| {
            let returned = bookings.with(|bookings| cars.with(|cars| refills(bookings, cars)));
            let feed = feed.clone();
            async move {
                let mut lines = Vec::new();
                let mut total = 0;
                for refill in returned {
                    if refill.short == 0 {
                        // BUG(fuel_short)
                        return lines;
                    }
                    let litres = refill.short * refill.tank / 8;
                    match feed.price(refill.fuel).await {
                        Ok(per_litre) => {
                            let cost = litres * per_litre;
                            total += cost;
                            lines.push(format!(
                                "{} ({}, {}): {}/8 short, {litres} L at {}, {}",
                                refill.reg,
                                refill.class,
                                refill.fuel.name(),
                                refill.short,
                                pounds(per_litre),
                                pounds(cost)
                            ));
                        }
                        Err(why) => lines.push(format!("{}: {litres} L, {why}", refill.reg)),
                    }
                }
                lines.push(format!("to refuel: {}", pounds(total)));
                lines
            }
        })
    }

    /// What the insurer pays towards each repair reported, and in all.
    pub fn claims(
        damages: &Memo<Vec<DamageReport>>,
        insurer: Rc<Insurer>,
    ) -> AsyncMemo<Vec<String>> {
        let damages = damages.clone();
        AsyncMemo::new(move |_| {
            let reports = damages.get();
            let insurer = insurer.clone();
            async move {
                let mut lines = Vec::new();
                let mut costs = 0;
                let mut paid = 0;
                for report in reports {
                    costs += report.cost;
                    match insurer.claim(&report.reg, report.cost).await {
                        Ok(pays) => {
                            // BUG(claim_total)
                            paid += report.cost;
                            lines.push(format!(
                                "{} {}: {}, the insurer pays {}",
                                report.reg,
                                report.part,
                                pounds(report.cost),
                                pounds(pays)
                            ));
                        }
                        Err(why) => lines.push(format!(
                            "{} {}: {}, {why}",
                            report.reg,
                            report.part,
                            pounds(report.cost)
                        )),
                    }
                }
                lines.push(format!(
                    "insurer pays: {} of {}",
                    pounds(paid),
                    pounds(costs)
                ));
                lines
            }
        })
    }
}
