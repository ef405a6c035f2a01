//! The bakehouse's plan for today: a keyed collection with one row per product (`ranvier::collection`), each row
//! with the trays still to bake as a row memo, and views over the rows: the products still short, the order the oven
//! takes them in (hottest first, as it cools through the morning), the oven's run and the time it takes.

use std::cmp::Reverse;
use std::rc::Rc;

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{Bakery, Msg};

/// Trays the oven takes at once (its decks).
pub const DECK_TRAYS: u32 = 4;

/// One row of the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct PlanRow {
    /// The product's code.
    pub code: String,
    /// Its name.
    pub name: String,
    /// Pieces ordered for today.
    pub ordered: u32,
    /// Pieces baked today.
    pub baked: u32,
    /// Pieces on a tray.
    pub per_tray: u32,
    /// Minutes in the oven.
    pub bake_minutes: u32,
    /// The oven's temperature, °C.
    pub temperature: u32,
}

/// The plan's rows for today, in the order the products were added.
pub fn rows_of(bakery: &Bakery) -> Vec<PlanRow> {
    bakery
        .products
        .iter()
        .map(|p| PlanRow {
            code: p.code.clone(),
            name: p.name.clone(),
            ordered: bakery.ordered(&p.code, bakery.day),
            baked: bakery.baked(&p.code, bakery.day),
            per_tray: p.per_tray,
            bake_minutes: p.bake_minutes,
            temperature: p.temperature,
        })
        .collect()
}

/// The plan: one row per product, each with its trays still to bake (the row's `trays`).
pub type Plan = Collection<String, PlanRow, (&'static str, Memo<u32>)>;

/// The plan and its views.
pub struct Oven {
    /// One row per product.
    pub plan: Plan,
    /// Products with fewer pieces baked than ordered.
    pub short: Memo<usize>,
    /// The products with trays to bake, in the oven's order: `BAG 250C x2`.
    pub oven_run: Memo<Vec<String>>,
    /// The trays left and the oven's minutes for them.
    pub oven_time: Memo<String>,
}

/// The plan over `bakery`'s today, as `slip` says.
#[node]
pub fn oven(bakery: &Mvu<Bakery, Msg>, slip: Slip) -> Oven {
    let rows = bakery.select(rows_of);
    let plan = match slip {
        Slip::TrayCeil => Collection::keyed(rows, |row: &PlanRow| row.code.clone(), slipped::trays),
        _ => Collection::keyed(rows, |row: &PlanRow| row.code.clone(), trays),
    };
    let short = match slip {
        Slip::ShortCount => slipped::short(&plan),
        _ => short(&plan),
    };
    let order = match slip {
        Slip::BakeOrder => slipped::bake_order(&plan),
        _ => bake_order(&plan),
    };
    let oven_run = oven_run(&plan, order);
    let oven_time = oven_time(&plan);
    Oven {
        plan,
        short,
        oven_run,
        oven_time,
    }
}

/// The trays of a product still to bake: the pieces ordered and not baked, a part-filled tray counting as one.
#[node]
pub fn trays(row: &Row<String, PlanRow>) -> (&'static str, Memo<u32>) {
    let row = row.clone();
    let trays = Memo::new(move |_| {
        row.with(|plan| {
            if plan.per_tray == 0 {
                return 0;
            }
            let left = plan.ordered.saturating_sub(plan.baked);
            left.div_ceil(plan.per_tray)
        })
    })
    .labelled("trays");
    ("trays", trays)
}

/// How many products have fewer pieces baked than ordered.
pub fn short(plan: &Plan) -> Memo<usize> {
    plan.count_by(|row| row.baked < row.ordered)
}

/// The products in the oven's order: hottest first, by code at the same heat.
pub fn bake_order(plan: &Plan) -> Memo<Rc<[String]>> {
    plan.sort_by(|row| (Reverse(row.temperature), row.code.clone()))
}

/// The products with trays to bake, in `order`.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn oven_run(plan: &Plan, order: Memo<Rc<[String]>>) -> Memo<Vec<String>> {
    let plan = plan.clone();
    let oven_run = Memo::new(move |_| {
        let order = order.get();
        let mut rows = Vec::new();
        plan.for_each(|code, row, (_, trays)| {
            rows.push((code.clone(), row.temperature, trays.clone()));
        });
        let mut run = Vec::new();
        for code in order.iter() {
            let Some((_, temperature, trays)) = rows.iter().find(|(c, _, _)| c == code) else {
                continue;
            };
            let trays = trays.get();
            if trays == 0 {
                continue;
            }
            run.push(format!("{code} {temperature}C x{trays}"));
        }
        run
    });
    oven_run
}

/// The trays left, all told, and the oven's minutes for them: each product's trays go in by the deckful.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn oven_time(plan: &Plan) -> Memo<String> {
    let plan = plan.clone();
    let oven_time = Memo::new(move |_| {
        let mut each = Vec::new();
        plan.for_each(|_, row, (_, trays)| each.push((row.bake_minutes, trays.clone())));
        let mut total_trays = 0;
        let mut minutes = 0;
        for (bake_minutes, trays) in each {
            let trays = trays.get();
            total_trays += trays;
            minutes += trays.div_ceil(DECK_TRAYS) * bake_minutes;
        }
        match total_trays {
            0 => "nothing to bake".to_owned(),
            1 => format!("1 tray, {minutes} min"),
            n => format!("{n} trays, {minutes} min"),
        }
    });
    oven_time
}

/// The plan with a mistake.
mod slipped {
    use std::cmp::Reverse;
    use std::rc::Rc;

    use ranvier::collection::Row;
    use ranvier::{Memo, node};

    use super::{Plan, PlanRow};

    /// The trays of a product still to bake.
    #[node]
    pub fn trays(row: &Row<String, PlanRow>) -> (&'static str, Memo<u32>) {
        let row = row.clone();
        let trays = Memo::new(move |_| {
            row.with(|plan| {
                if plan.per_tray == 0 {
                    return 0;
                }
                let left = plan.ordered.saturating_sub(plan.baked);
                // BUG(tray_ceil)
                left / plan.per_tray
            })
        })
        .labelled("trays");
        ("trays", trays)
    }

    /// How many products are short.
    pub fn short(plan: &Plan) -> Memo<usize> {
        // BUG(short_count)
        plan.count_by(|row| row.baked <= row.ordered)
    }

    /// The products in the oven's order.
    pub fn bake_order(plan: &Plan) -> Memo<Rc<[String]>> {
        // BUG(bake_order)
        plan.sort_by(|row| (Reverse(row.bake_minutes), row.code.clone()))
    }
}
