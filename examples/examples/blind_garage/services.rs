//! What the desk learns from other systems, as async memos over `remote`: when each part on order arrives (its
//! supplier's lead time), and the MOT history of the cars booked in for a test today.

use super::calendar;
use super::model::{Booking, Day, Order, Plate, Work};
use super::remote::{self, MotHistory};
use ranvier::{AsyncMemo, Memo};

/// When the parts on order come: `10 x BULB-H7 from Brightway: Thu 10 Dec 2026, in 3 days`.
pub fn deliveries(orders: &Memo<Vec<Order>>, today: &Memo<Day>) -> AsyncMemo<Vec<String>> {
    let (orders, today) = (orders.clone(), today.clone());
    AsyncMemo::new(move |_| {
        let orders = orders.get();
        let today = today.get();
        async move {
            let mut lines = Vec::with_capacity(orders.len());
            for order in &orders {
                let what = format!("{} x {} from {}", order.qty, order.code, order.supplier);
                let line = match remote::lead_time(&order.supplier, &order.code).await {
                    Ok(days) => {
                        let due = order.placed + days;
                        let when = match due.saturating_sub(today) {
                            0 => "today".to_owned(),
                            1 => "tomorrow".to_owned(),
                            n => format!("in {n} days"),
                        };
                        format!("{what}: {}, {when}", calendar::format(due))
                    }
                    Err(why) => format!("{what}: no date yet ({why})"),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// How the MOT bay reads a car's history.
fn describe(plate: &Plate, history: &MotHistory) -> String {
    let last = if history.passed { "passed" } else { "failed" };
    format!(
        "{plate}: {} tests, last {last}, {} advisories",
        history.tests, history.advisories
    )
}

/// The MOT history of each car booked in for its MOT today, in diary order.
pub fn mot_checks(bookings: &Memo<Vec<Booking>>, today: &Memo<Day>) -> AsyncMemo<Vec<String>> {
    let (bookings, today) = (bookings.clone(), today.clone());
    AsyncMemo::new(move |_| {
        let today = today.get();
        let plates: Vec<Plate> = bookings
            .get()
            .into_iter()
            .filter(|b| b.day == today && b.work == Work::Mot)
            .map(|b| b.plate)
            .collect();
        async move {
            let mut lines = Vec::new();
            for plate in &plates {
                let line = match remote::mot_history(&plate.0).await {
                    Ok(history) => describe(plate, &history),
                    Err(why) => format!("{plate}: {why}"),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{AsyncMemo, Booking, Day, Memo, Order, Plate, Work, calendar, describe, remote};

    /// When the parts on order come: `10 x BULB-H7 from Brightway: Thu 10 Dec 2026, in 3 days`.
    pub fn deliveries(orders: &Memo<Vec<Order>>, today: &Memo<Day>) -> AsyncMemo<Vec<String>> {
        let (orders, today) = (orders.clone(), today.clone());
        AsyncMemo::new(move |_| {
            let orders = orders.get();
            let today = today.get();
            async move {
                let mut lines = Vec::with_capacity(orders.len());
                for order in &orders {
                    let what = format!("{} x {} from {}", order.qty, order.code, order.supplier);
                    let line = match remote::lead_time(&order.supplier, &order.code).await {
                        Ok(days) => {
                            // BUG(delivery_from_today)
                            let due = today + days;
                            let when = match due.saturating_sub(today) {
                                0 => "today".to_owned(),
                                1 => "tomorrow".to_owned(),
                                n => format!("in {n} days"),
                            };
                            format!("{what}: {}, {when}", calendar::format(due))
                        }
                        Err(why) => format!("{what}: no date yet ({why})"),
                    };
                    lines.push(line);
                }
                lines
            }
        })
    }

    /// The MOT history of each car booked in for its MOT today, in diary order.
    pub fn mot_checks(bookings: &Memo<Vec<Booking>>, today: &Memo<Day>) -> AsyncMemo<Vec<String>> {
        let (bookings, today) = (bookings.clone(), today.clone());
        AsyncMemo::new(move |_| {
            let today = today.get();
            let plates: Vec<Plate> = bookings
                .get()
                .into_iter()
                .filter(|b| b.day == today && b.work == Work::Mot)
                .map(|b| b.plate)
                .collect();
            async move {
                let mut lines = Vec::new();
                for plate in &plates {
                    // BUG(mot_record_default)
                    let history = remote::mot_history(&plate.0).await.unwrap_or_default();
                    lines.push(describe(plate, &history));
                }
                lines
            }
        })
    }
}
