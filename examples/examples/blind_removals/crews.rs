//! Crews: which crew takes a move, the overtime rule, and the day's pay sheet.

use super::model::{Crew, Firm, Job, Msg, Status, pounds};
use ranvier::{Memo, Mvu, node};

/// Normal hours in a day; past them, overtime.
pub const NORMAL_HOURS: u32 = 8;
/// The driver's allowance, per crew per day worked.
pub const DRIVER_ALLOWANCE: u64 = 2_000;

/// `hours` split into normal hours and overtime.
#[ranvier::trace_fn]
pub fn split_hours(hours: u32) -> (u32, u32) {
    (hours.min(NORMAL_HOURS), hours.saturating_sub(NORMAL_HOURS))
}

/// One mover's pay for `hours` at `rate`: overtime at time and a half.
#[ranvier::trace_fn]
pub fn mover_pay(hours: u32, rate: u64) -> u64 {
    let (normal, overtime) = split_hours(hours);
    u64::from(normal) * rate + u64::from(overtime) * rate * 3 / 2
}

/// The crew for a move of `m3` on `day`: the first whose van holds it and who has no other move that day.
#[ranvier::trace_fn]
pub fn crew_for(crews: &[Crew], jobs: &[Job], m3: u32, day: u32) -> Option<String> {
    crews
        .iter()
        .filter(|crew| crew.van.capacity_m3() >= m3)
        .find(|crew| {
            !jobs
                .iter()
                .any(|job| job.crew == crew.name && job.day == day && job.status == Status::Booked)
        })
        .map(|crew| crew.name.clone())
}

/// The day's pay sheet: each crew that worked, its hours and what its movers earn, and the day's total.
#[node]
pub fn pay_sheet(firm: &Mvu<Firm, Msg>) -> Memo<Vec<String>> {
    let pay_sheet = firm.select(|firm| {
        let mut lines = Vec::new();
        let mut total = 0;
        for crew in &firm.crews {
            if crew.hours_today == 0 {
                continue;
            }
            let (normal, overtime) = split_hours(crew.hours_today);
            let per_mover = mover_pay(crew.hours_today, crew.rate);
            let crew_pay = per_mover * u64::from(crew.movers) + DRIVER_ALLOWANCE;
            total += crew_pay;
            let hours = if overtime > 0 {
                format!("{normal} h + {overtime} h overtime")
            } else {
                format!("{normal} h")
            };
            lines.push(format!(
                "crew {} ({} movers, {}): {hours}, {} each, {} with the driver's allowance",
                crew.name,
                crew.movers,
                crew.van.name(),
                pounds(per_mover),
                pounds(crew_pay)
            ));
        }
        lines.push(format!("pay today: {}", pounds(total)));
        lines
    });
    pay_sheet
}

pub mod slipped {
    use super::super::model::{Firm, Msg, pounds};
    use super::{DRIVER_ALLOWANCE, mover_pay, split_hours};
    use ranvier::{Memo, Mvu, node};

    /// The day's pay sheet: each crew that worked, its hours and what its movers earn, and the day's total.
    #[node]
    pub fn pay_sheet(firm: &Mvu<Firm, Msg>) -> Memo<Vec<String>> {
        let pay_sheet = firm.select(|firm| {
            let mut lines = Vec::new();
            let mut total = 0;
            for crew in &firm.crews {
                if crew.hours_today == 0 {
                    continue;
                }
                let (normal, overtime) = split_hours(crew.hours_today);
                let per_mover = mover_pay(crew.hours_today, crew.rate);
                let crew_pay = per_mover * u64::from(crew.movers) + DRIVER_ALLOWANCE;
                // BUG(pay_total)
                total += per_mover + DRIVER_ALLOWANCE;
                let hours = if overtime > 0 {
                    format!("{normal} h + {overtime} h overtime")
                } else {
                    format!("{normal} h")
                };
                lines.push(format!(
                    "crew {} ({} movers, {}): {hours}, {} each, {} with the driver's allowance",
                    crew.name,
                    crew.movers,
                    crew.van.name(),
                    pounds(per_mover),
                    pounds(crew_pay)
                ));
            }
            lines.push(format!("pay today: {}", pounds(total)));
            lines
        });
        pay_sheet
    }
}
