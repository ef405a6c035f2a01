//! The stylists' pay: a commission on the services they did this week above a weekly threshold, at their level's
//! rate, plus a share of their retail sales; and the weekly commission sheet.
#![allow(clippy::let_and_return)] // `#[node]` names each node after the `let` that binds it

use super::model::{Level, Msg, SaleKind, Salon, Status, monday_of, pounds};
use ranvier::{Memo, Mvu, node};

/// Services above this, in a week, earn commission (£500).
pub const WEEKLY_THRESHOLD: u32 = 50_000;
/// The share of retail sales a stylist earns, in percent.
pub const RETAIL_SHARE: u32 = 5;

/// The week's commission of a stylist of `level` who did `services` of services and sold `retail` of products.
pub fn commission(level: Level, services: u32, retail: u32) -> u32 {
    let rate = match level {
        Level::Junior => 10,
        Level::Senior => 15,
        Level::Director => 20,
    };
    let above = services.saturating_sub(WEEKLY_THRESHOLD);
    above * rate / 100 + retail * RETAIL_SHARE / 100
}

/// The commission sheet for the week so far: each stylist's services (the prices of the appointments they finished
/// this week), retail sales and commission (`commission` decides).
#[node]
pub fn commission_sheet(
    salon: &Mvu<Salon, Msg>,
    commission: fn(Level, u32, u32) -> u32,
) -> Memo<Vec<String>> {
    let sheet = salon.select(move |salon| {
        let monday = monday_of(salon.today);
        let this_week = |day: u32| day >= monday && day <= salon.today;
        let mut lines = Vec::new();
        let mut total = 0;
        for stylist in &salon.stylists {
            let services: u32 = salon
                .bookings
                .iter()
                .filter(|b| b.stylist == stylist.name && b.status == Status::Done)
                .filter(|b| this_week(b.day))
                .map(|b| b.price)
                .sum();
            let retail: u32 = salon
                .sales
                .iter()
                .filter(|s| s.kind == SaleKind::Retail && s.stylist == stylist.name)
                .filter(|s| this_week(s.day))
                .map(|s| s.gross)
                .sum();
            let pay = commission(stylist.level, services, retail);
            total += pay;
            lines.push(format!(
                "{} ({}): services {}, retail {}, commission {}",
                stylist.name,
                stylist.level.name(),
                pounds(services),
                pounds(retail),
                pounds(pay)
            ));
        }
        lines.push(format!("commission: {}", pounds(total)));
        lines
    });
    sheet
}

pub mod slipped {
    use super::super::model::Level;
    use super::{RETAIL_SHARE, WEEKLY_THRESHOLD};

    /// [`super::commission`], with the mistake.
    pub fn commission(level: Level, services: u32, retail: u32) -> u32 {
        let rate = match level {
            Level::Junior => 10,
            Level::Senior => 15,
            Level::Director => 20,
        };
        // BUG(commission)
        let above = WEEKLY_THRESHOLD.saturating_sub(services);
        above * rate / 100 + retail * RETAIL_SHARE / 100
    }
}
