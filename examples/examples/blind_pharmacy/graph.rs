//! The dispensary's graph: the `#[expose]`d app, and the `#[node]` builder that makes the counter's lists from the
//! model, the shelf's collection and the network services.

use super::charges::pounds;
use super::checks::{self, review};
use super::model::{self, Dispensary, Exempt, Msg, Policy, Prescription, Sale, Status, name_of};
use super::services;
use super::stock::{self, Stock};
use super::update::{self, Desk};
use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;

/// Which mistake the dispensary runs with (`None`: the correct dispensary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct dispensary.
    None,
    /// See `SLIPS` in `main.rs`.
    ValidityMonths,
    /// See `SLIPS`.
    AgeExempt,
    /// See `SLIPS`.
    PrepaymentArm,
    /// See `SLIPS`.
    InteractionOneWay,
    /// See `SLIPS`.
    OwingNotSent,
    /// See `SLIPS`.
    ReceiveSwapped,
    /// See `SLIPS`.
    ShortDatedEdge,
    /// See `SLIPS`.
    ShelfOrder,
    /// See `SLIPS`.
    RepeatDueFrom,
    /// See `SLIPS`.
    TakingsExempt,
    /// See `SLIPS`.
    TokenCounter,
    /// See `SLIPS`.
    QuoteDefault,
}

/// The dispensary as an agent sees it.
#[expose]
pub struct Pharmacy {
    /// The model; its messages are what the counter sends.
    #[expose(messages)]
    pub dispensary: Mvu<Dispensary, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub today: Memo<u32>,
    /// The shelf, one row per lot with its label.
    #[expose]
    #[node]
    pub stock: Stock,
    /// Every lot's label, in picking order.
    #[expose]
    #[node]
    pub shelf: Memo<Vec<String>>,
    /// Lots running low.
    #[expose]
    #[node]
    pub low: Memo<Vec<String>>,
    /// Lots of each medicine.
    #[expose]
    #[node]
    pub lots: Memo<Vec<String>>,
    /// Prescriptions waiting to be dispensed.
    #[expose]
    #[node]
    pub waiting: Memo<Vec<String>>,
    /// The pharmacist's warnings on them.
    #[expose]
    #[node]
    pub warnings: Memo<Vec<String>>,
    /// Owing slips still open.
    #[expose]
    #[node]
    pub owings: Memo<Vec<String>>,
    /// Repeats still to dispense, soonest first.
    #[expose]
    #[node]
    pub repeats_due: Memo<Vec<String>>,
    /// The takings sheet.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// The prescription service's word on each waiting token.
    #[expose]
    #[node]
    pub verifications: AsyncMemo<Vec<String>>,
    /// When the wholesaler can fill what is owed.
    #[expose]
    #[node]
    pub deliveries: AsyncMemo<Vec<String>>,
}

/// The opening delivery: what is on the shelf the first morning.
fn opening_delivery() -> Vec<Msg> {
    [
        ("amox", "A1", 21, 5),
        ("amox", "A2", 63, 40),
        ("warf", "W1", 56, 90),
        ("aspi", "AS1", 112, 120),
        ("simv", "S1", 28, 3),
        ("simv", "S2", 84, 60),
        ("clar", "C1", 14, 8),
        ("metf", "M1", 112, 30),
        ("sert", "T1", 28, 45),
    ]
    .into_iter()
    .map(|(medicine, lot, quantity, expires)| Msg::Receive {
        medicine: medicine.to_owned(),
        lot: lot.to_owned(),
        quantity,
        expires,
    })
    .collect()
}

/// A tally of dispensings on the takings sheet.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    dispensings: u32,
    items: u32,
    pence: u64,
}

/// The takings sheet: what was paid, what was exempt and why, and the day's total.
fn takings(sales: Memo<Vec<Sale>>) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let sales = sales.get();
        let mut paid = Tally::default();
        let mut free: BTreeMap<Exempt, Tally> = BTreeMap::new();
        for sale in &sales {
            match sale.exempt {
                None => {
                    paid.dispensings += 1;
                    paid.items += sale.items;
                    paid.pence += sale.pence;
                }
                Some(why) => {
                    let tally = free.entry(why).or_default();
                    tally.dispensings += 1;
                    tally.items += sale.items;
                }
            }
        }
        let mut lines = vec![format!(
            "paid: {} item(s) on {} prescription(s), {}",
            paid.items,
            paid.dispensings,
            pounds(paid.pence)
        )];
        for (why, tally) in &free {
            lines.push(format!(
                "exempt, {}: {} item(s) on {} prescription(s)",
                why.label(),
                tally.items,
                tally.dispensings
            ));
        }
        let items = paid.items + free.values().map(|t| t.items).sum::<u32>();
        lines.push(format!("total: {items} item(s), {}", pounds(paid.pence)));
        lines
    })
}

/// A repeat still to dispense.
struct Due {
    on: u32,
    id: u32,
    patient: String,
    left: u32,
}

/// The repeats still to dispense, soonest first: due once the interval has passed since the last dispensing.
fn repeats_due(
    prescriptions: Memo<Vec<Prescription>>,
    today: Memo<u32>,
    every: Memo<u32>,
) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let (today, every) = (today.get(), every.get());
        let mut due = Vec::new();
        for rx in prescriptions.get().iter() {
            if rx.status != Status::Dispensed || rx.repeats == 0 {
                continue;
            }
            let from = rx.last_dispensed.unwrap_or(rx.issued);
            due.push(Due {
                on: from + every,
                id: rx.id,
                patient: rx.patient.clone(),
                left: rx.repeats,
            });
        }
        due.sort_by_key(|d| (d.on, d.id));
        due.iter()
            .map(|d| {
                let when = if d.on <= today {
                    "due now".to_owned()
                } else {
                    format!("due day {}", d.on)
                };
                format!(
                    "Rx {} {}: {} repeat(s) left, {when}",
                    d.id, d.patient, d.left
                )
            })
            .collect()
    })
}

/// The pharmacist's warnings on the prescriptions waiting, `interacts` saying which medicines interact.
fn warnings(
    dispensary: &Mvu<Dispensary, Msg>,
    interacts: fn(&str, &str) -> Option<&'static str>,
) -> Memo<Vec<String>> {
    dispensary.select(move |d| {
        d.prescriptions
            .iter()
            .filter(|rx| rx.status == Status::Waiting)
            .filter_map(|rx| d.patient(&rx.patient).map(|p| (rx, p)))
            .flat_map(|(rx, patient)| {
                let current = d.current_medicines(&patient.name);
                review(rx, patient, &current, interacts)
                    .into_iter()
                    .map(move |finding| {
                        format!("Rx {} {}: {}", rx.id, rx.patient, finding.describe())
                    })
            })
            .collect()
    })
}

/// The dispensary with `slip`, its opening delivery sent as the first commands.
#[node]
pub fn pharmacy(slip: Slip) -> Pharmacy {
    let policy = match slip {
        Slip::ValidityMonths => model::slipped::policy(),
        _ => Policy::default(),
    };
    let mut desk = Desk::default();
    match slip {
        Slip::AgeExempt => desk.exemption = super::charges::slipped::exemption_at_age,
        Slip::PrepaymentArm => desk.exemption = super::charges::slipped::exemption_by_certificate,
        Slip::OwingNotSent => desk.dispense = update::slipped::dispense,
        Slip::ReceiveSwapped => desk.receive = update::slipped::receive,
        _ => {}
    }
    let dispensary = Mvu::with_commands(
        (Dispensary::opening(policy), opening_delivery()),
        move |msg, d: &Dispensary| update::update(&desk, msg, d),
    );
    let today = dispensary.select(|d| d.today);
    let window = dispensary.select(|d| d.policy.short_dated_days);
    let row: stock::RowFn = match slip {
        Slip::ShortDatedEdge => stock::slipped::shelf_row,
        _ => stock::shelf_row,
    };
    let stock: Stock = Collection::keyed(
        dispensary.select(|d| d.stock.clone()),
        |batch: &model::Batch| batch.lot.clone(),
        {
            let (today, window) = (today.clone(), window.clone());
            move |r| row(r, &today, &window)
        },
    );
    let order: fn(&model::Batch) -> (String, u32) = match slip {
        Slip::ShelfOrder => stock::slipped::picking_order,
        _ => stock::picking_order,
    };
    let views = stock::views(&stock, order);
    let (shelf, low, lots) = (views.shelf, views.low, views.lots);
    let waiting = dispensary.select(|d| {
        d.prescriptions
            .iter()
            .filter(|rx| rx.status == Status::Waiting)
            .map(|rx| {
                format!(
                    "Rx {} {}: {} item(s), handed in day {}",
                    rx.id,
                    rx.patient,
                    rx.items.len(),
                    rx.issued
                )
            })
            .collect::<Vec<_>>()
    });
    let warnings = match slip {
        Slip::InteractionOneWay => warnings(&dispensary, checks::slipped::interaction),
        _ => warnings(&dispensary, checks::interaction),
    };
    let owings = dispensary.select(|d| {
        d.owings
            .iter()
            .map(|o| {
                format!(
                    "Rx {} {}: {} × {} owed",
                    o.prescription,
                    o.patient,
                    o.quantity,
                    name_of(&o.medicine)
                )
            })
            .collect::<Vec<_>>()
    });
    let prescriptions = dispensary.select(|d| d.prescriptions.clone());
    let every = dispensary.select(|d| d.policy.repeat_every_days);
    let repeats_due = match slip {
        Slip::RepeatDueFrom => slipped::repeats_due(prescriptions, today.clone(), every),
        _ => repeats_due(prescriptions, today.clone(), every),
    };
    let sales = dispensary.select(|d| d.sales.clone());
    let takings = match slip {
        Slip::TakingsExempt => slipped::takings(sales),
        _ => takings(sales),
    };
    let verifications = match slip {
        Slip::TokenCounter => services::slipped::tokens(&dispensary),
        _ => services::tokens(&dispensary),
    };
    let deliveries = match slip {
        Slip::QuoteDefault => services::slipped::deliveries(&dispensary),
        _ => services::deliveries(&dispensary),
    };
    Pharmacy {
        dispensary,
        today,
        stock,
        shelf,
        low,
        lots,
        waiting,
        warnings,
        owings,
        repeats_due,
        takings,
        verifications,
        deliveries,
    }
}

mod slipped {
    use super::{BTreeMap, Due, Exempt, Memo, Prescription, Sale, Status, Tally, pounds};

    /// [`super::takings`], with the mistake.
    pub fn takings(sales: Memo<Vec<Sale>>) -> Memo<Vec<String>> {
        Memo::new(move |_| {
            let sales = sales.get();
            let mut paid = Tally::default();
            let mut free: BTreeMap<Exempt, Tally> = BTreeMap::new();
            for sale in &sales {
                match sale.exempt {
                    None => {
                        paid.dispensings += 1;
                        paid.items += sale.items;
                        paid.pence += sale.pence;
                    }
                    Some(why) => {
                        let tally = free.entry(why).or_default();
                        tally.dispensings += 1;
                        // BUG(takings_exempt)
                        paid.items += sale.items;
                    }
                }
            }
            let mut lines = vec![format!(
                "paid: {} item(s) on {} prescription(s), {}",
                paid.items,
                paid.dispensings,
                pounds(paid.pence)
            )];
            for (why, tally) in &free {
                lines.push(format!(
                    "exempt, {}: {} item(s) on {} prescription(s)",
                    why.label(),
                    tally.items,
                    tally.dispensings
                ));
            }
            let items = paid.items + free.values().map(|t| t.items).sum::<u32>();
            lines.push(format!("total: {items} item(s), {}", pounds(paid.pence)));
            lines
        })
    }

    /// [`super::repeats_due`], with the mistake.
    pub fn repeats_due(
        prescriptions: Memo<Vec<Prescription>>,
        today: Memo<u32>,
        every: Memo<u32>,
    ) -> Memo<Vec<String>> {
        Memo::new(move |_| {
            let (today, every) = (today.get(), every.get());
            let mut due = Vec::new();
            for rx in prescriptions.get().iter() {
                if rx.status != Status::Dispensed || rx.repeats == 0 {
                    continue;
                }
                // BUG(repeat_due_from)
                let from = rx.issued;
                due.push(Due {
                    on: from + every,
                    id: rx.id,
                    patient: rx.patient.clone(),
                    left: rx.repeats,
                });
            }
            due.sort_by_key(|d| (d.on, d.id));
            due.iter()
                .map(|d| {
                    let when = if d.on <= today {
                        "due now".to_owned()
                    } else {
                        format!("due day {}", d.on)
                    };
                    format!(
                        "Rx {} {}: {} repeat(s) left, {when}",
                        d.id, d.patient, d.left
                    )
                })
                .collect()
        })
    }
}
