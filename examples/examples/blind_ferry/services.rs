//! What the terminal learns over the network, as async memos: the harbour dues each sailing owes its port of
//! departure, and the wind warnings for the sailings with bookings.

use super::model::{Voyage, pounds};
use super::remote::{Forecast, Harbours};
use super::rules;
use ranvier::{AsyncMemo, Memo};
use std::rc::Rc;

fn vehicles(n: u32) -> String {
    if n == 1 {
        "1 vehicle".to_owned()
    } else {
        format!("{n} vehicles")
    }
}

/// The dues of each sailing with passengers booked, as its harbour quotes them.
pub fn harbour_dues(voyages: &Memo<Vec<Voyage>>, harbours: Rc<Harbours>) -> AsyncMemo<Vec<String>> {
    let voyages = voyages.clone();
    AsyncMemo::new(move |_| {
        let voyages = voyages.get();
        let harbours = harbours.clone();
        async move {
            let mut lines = Vec::new();
            for voyage in voyages.iter().filter(|voyage| !voyage.sailing.cancelled) {
                let mut passengers = 0;
                let mut cars = 0;
                for booking in voyage.bookings.iter().filter(|booking| !booking.standby) {
                    passengers += booking.passengers();
                    if booking.vehicle.is_some() {
                        cars += 1;
                    }
                }
                if passengers == 0 {
                    continue;
                }
                let sailing = &voyage.sailing;
                let line = match harbours.dues(sailing.from, passengers, cars).await {
                    Ok(dues) => format!(
                        "{}: {passengers} passengers, {}: {} to {}",
                        sailing.title(),
                        vehicles(cars),
                        pounds(dues),
                        sailing.from.name()
                    ),
                    Err(why) => format!("{}: not quoted, {why}", sailing.title()),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// The sailings with bookings still to leave whose forecast wind is over their boat's limit.
pub fn wind_warnings(
    voyages: &Memo<Vec<Voyage>>,
    now: &Memo<u32>,
    forecast: Rc<Forecast>,
) -> AsyncMemo<Vec<String>> {
    let (voyages, now) = (voyages.clone(), now.clone());
    AsyncMemo::new(move |_| {
        let now = now.get();
        let voyages = voyages.get();
        let forecast = forecast.clone();
        async move {
            let mut warnings = Vec::new();
            for voyage in voyages.iter() {
                let sailing = &voyage.sailing;
                let leaves = sailing.departs_at();
                if sailing.cancelled || leaves <= now || voyage.bookings.is_empty() {
                    continue;
                }
                let wind = match forecast.wind(sailing.from, sailing.to, leaves).await {
                    Ok(knots) => knots,
                    Err(why) => {
                        warnings.push(format!("{}: {why}", sailing.title()));
                        continue;
                    }
                };
                let limit = rules::wind_limit(sailing);
                if wind <= limit {
                    continue;
                }
                warnings.push(format!(
                    "{}: {wind} knots forecast, over the {limit}-knot limit",
                    sailing.title()
                ));
            }
            warnings
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Voyage, pounds};
    use super::super::remote::{Forecast, Harbours};
    use super::super::rules;
    use super::vehicles;
    use ranvier::{AsyncMemo, Memo};
    use std::rc::Rc;

    /// [`super::harbour_dues`].
    pub fn harbour_dues(
        voyages: &Memo<Vec<Voyage>>,
        harbours: Rc<Harbours>,
    ) -> AsyncMemo<Vec<String>> {
        let voyages = voyages.clone();
        AsyncMemo::new(move |_| {
            let voyages = voyages.get();
            let harbours = harbours.clone();
            async move {
                let mut lines = Vec::new();
                // BUG(dues_total)
                let mut passengers = 0;
                for voyage in voyages.iter().filter(|voyage| !voyage.sailing.cancelled) {
                    let mut cars = 0;
                    for booking in voyage.bookings.iter().filter(|booking| !booking.standby) {
                        passengers += booking.passengers();
                        if booking.vehicle.is_some() {
                            cars += 1;
                        }
                    }
                    if passengers == 0 {
                        continue;
                    }
                    let sailing = &voyage.sailing;
                    let line = match harbours.dues(sailing.from, passengers, cars).await {
                        Ok(dues) => format!(
                            "{}: {passengers} passengers, {}: {} to {}",
                            sailing.title(),
                            vehicles(cars),
                            pounds(dues),
                            sailing.from.name()
                        ),
                        Err(why) => format!("{}: not quoted, {why}", sailing.title()),
                    };
                    lines.push(line);
                }
                lines
            }
        })
    }

    /// [`super::wind_warnings`].
    pub fn wind_warnings(
        voyages: &Memo<Vec<Voyage>>,
        now: &Memo<u32>,
        forecast: Rc<Forecast>,
    ) -> AsyncMemo<Vec<String>> {
        let (voyages, now) = (voyages.clone(), now.clone());
        AsyncMemo::new(move |_| {
            let now = now.get();
            let voyages = voyages.get();
            let forecast = forecast.clone();
            async move {
                let mut warnings = Vec::new();
                for voyage in voyages.iter() {
                    let sailing = &voyage.sailing;
                    let leaves = sailing.departs_at();
                    if sailing.cancelled || leaves <= now || voyage.bookings.is_empty() {
                        continue;
                    }
                    let wind = match forecast.wind(sailing.from, sailing.to, leaves).await {
                        Ok(knots) => knots,
                        Err(why) => {
                            warnings.push(format!("{}: {why}", sailing.title()));
                            continue;
                        }
                    };
                    let limit = rules::wind_limit(sailing);
                    if wind <= limit {
                        // BUG(calm_crossing)
                        return warnings;
                    }
                    warnings.push(format!(
                        "{}: {wind} knots forecast, over the {limit}-knot limit",
                        sailing.title()
                    ));
                }
                warnings
            }
        })
    }
}
