//! Roasting: the weight a roast loses, and the roaster's plan for the day.

use ranvier::{Memo, Mvu, node};

use super::model::{Batch, DaySchedule, Msg, Roast, Roastery, Rules};

/// How long the roaster runs a day, in minutes (the mornings; the afternoons are for bagging).
pub const ROASTER_MINUTES: u32 = 240;

/// The share of the green weight a roast loses, in percent.
#[ranvier::trace_fn]
pub fn loss_percent(roast: Roast) -> u32 {
    match roast {
        Roast::Light => 15,
        Roast::Medium => 17,
        Roast::Dark => 20,
    }
}

/// What `green_g` grams of green coffee weigh once roasted `roast`, in grams (rounded down).
#[ranvier::trace_fn]
pub fn roasted_grams(green_g: u32, roast: Roast) -> u32 {
    let loss = loss_percent(roast);
    green_g - green_g * loss / 100
}

/// Today's plan at the roaster: the batches due (today's and any left from earlier days) in the order they were
/// scheduled, as long as the store has their green coffee and the roaster has the time. `rules` say how long a
/// batch takes and what it weighs once roasted.
#[node]
pub fn day_schedule(roastery: &Mvu<Roastery, Msg>, rules: Rules) -> Memo<DaySchedule> {
    let schedule = roastery.select(move |r| {
        let mut plan = DaySchedule {
            day: r.day,
            ..DaySchedule::default()
        };
        let mut free: Vec<(String, u32)> = r
            .green
            .iter()
            .map(|l| (l.origin.clone(), l.grams))
            .collect();
        let mut planned: Vec<&Batch> = Vec::new();
        for batch in r.batches.iter().filter(|b| !b.done) {
            if batch.day > r.day {
                continue;
            }
            let Some(left) = free.iter_mut().find(|(origin, _)| *origin == batch.origin) else {
                plan.short.push(batch.label());
                continue;
            };
            if left.1 < batch.green_g {
                plan.short.push(batch.label());
                continue;
            }
            let busy: u32 = planned.iter().copied().map(rules.minutes).sum();
            if busy + (rules.minutes)(batch) > ROASTER_MINUTES {
                plan.later.push(batch.label());
                continue;
            }
            left.1 -= batch.green_g;
            planned.push(batch);
        }
        plan.batches = planned.iter().map(|b| b.label()).collect();
        plan.minutes = planned.iter().copied().map(rules.minutes).sum();
        plan.out_g = planned
            .iter()
            .map(|b| (rules.roasted_grams)(b.green_g, b.roast))
            .sum();
        plan
    });
    schedule
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Batch, DaySchedule, Msg, Roast, Roastery, Rules};
    use super::{ROASTER_MINUTES, loss_percent};

    /// [`super::roasted_grams`], with a mistake.
    #[ranvier::trace_fn]
    pub fn roasted_grams(green_g: u32, roast: Roast) -> u32 {
        let loss = loss_percent(roast);
        // BUG(roasted_weight)
        green_g * loss / 100
    }

    /// [`super::day_schedule`], with a mistake.
    #[node]
    pub fn day_schedule(roastery: &Mvu<Roastery, Msg>, rules: Rules) -> Memo<DaySchedule> {
        let schedule = roastery.select(move |r| {
            let mut plan = DaySchedule {
                day: r.day,
                ..DaySchedule::default()
            };
            let mut free: Vec<(String, u32)> = r
                .green
                .iter()
                .map(|l| (l.origin.clone(), l.grams))
                .collect();
            let mut planned: Vec<&Batch> = Vec::new();
            for batch in r.batches.iter().filter(|b| !b.done) {
                if batch.day > r.day {
                    continue;
                }
                let Some(left) = free.iter_mut().find(|(origin, _)| *origin == batch.origin) else {
                    plan.short.push(batch.label());
                    continue;
                };
                // BUG(schedule_exact_lot)
                if left.1 <= batch.green_g {
                    plan.short.push(batch.label());
                    continue;
                }
                let busy: u32 = planned.iter().copied().map(rules.minutes).sum();
                if busy + (rules.minutes)(batch) > ROASTER_MINUTES {
                    plan.later.push(batch.label());
                    continue;
                }
                left.1 -= batch.green_g;
                planned.push(batch);
            }
            plan.batches = planned.iter().map(|b| b.label()).collect();
            plan.minutes = planned.iter().copied().map(rules.minutes).sum();
            plan.out_g = planned
                .iter()
                .map(|b| (rules.roasted_grams)(b.green_g, b.roast))
                .sum();
            plan
        });
        schedule
    }
}
