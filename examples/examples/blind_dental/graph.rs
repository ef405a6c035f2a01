//! The app an agent sees (`#[expose]`) and the builder that wires the practice's graph, with one mistake in place of
//! the correct fn when a [`Slip`] is chosen.

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::charges::{self, Price, Quote};
use super::diary::{self, DaySheet, Lunch};
use super::model::{self, Msg, Patient, Practice};
use super::patients::{self, Patients};
use super::recalls::{self, Months, Recall};
use super::remote::{self, Arrival};
use super::services::{self, ClaimSummary, CrownEta};
use super::update::{self, MissRule, Update};

/// Which mistake the app is built with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Slip {
    /// None: the correct app.
    None,
    /// `services::slipped::claim_check`.
    ClaimSwapped,
    /// `remote::slipped::crown_arrival`.
    LabSaturday,
    /// `patients::slipped::patient_list`.
    RowDueField,
    /// `patients::slipped::by_owed`.
    DebtorsOrder,
    /// `update::slipped::update`.
    AdvanceAssign,
    /// `update::slipped::record_miss`.
    MissThreshold,
    /// `charges::slipped::treatment_price`.
    PlanDiscount,
    /// `diary::slipped::is_lunch`.
    LunchEnd,
    /// `diary::slipped::day_sheets`.
    MissedBreak,
    /// `recalls::slipped::recalls`.
    RecallDefault,
    /// `model::slipped::recall_months`.
    RiskBoundary,
    /// `model::slipped::opening_practice`.
    LunchUnit,
}

/// The dental practice, as an agent sees it.
#[expose]
pub struct DentalApp {
    /// The practice, and the desk's messages.
    #[expose(messages, value)]
    pub practice: Mvu<Practice, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub today: Memo<u32>,
    /// The patients, each with their standing.
    #[expose]
    pub patients: Patients,
    /// How many patients are on the plan.
    #[expose]
    #[node]
    pub on_plan: Memo<usize>,
    /// The patients by what they owe, most first.
    #[expose]
    #[node]
    pub by_owed: Memo<Vec<String>>,
    /// The patients to chase.
    #[expose]
    #[node]
    pub chasing: Memo<Vec<String>>,
    /// The price of each booked appointment.
    #[expose]
    #[node]
    pub quotes: Memo<Vec<Quote>>,
    /// Today's sheet for each dentist.
    #[expose]
    #[node]
    pub day_sheets: Memo<Vec<DaySheet>>,
    /// The patients to recall.
    #[expose]
    #[node]
    pub recalls: Memo<Vec<Recall>>,
    /// The hygienist's list.
    #[expose]
    #[node]
    pub hygiene_list: Memo<Vec<String>>,
    /// The insurer's check of the plan's claims.
    #[expose]
    #[node]
    pub claims: AsyncMemo<ClaimSummary>,
    /// The crowns on their way from the lab.
    #[expose]
    #[node]
    pub crowns: AsyncMemo<Vec<CrownEta>>,
}

/// Builds the practice's graph, with the mistake `slip` names in place of its correct fn.
#[node]
pub fn dental_app(slip: Slip) -> DentalApp {
    let opening = if slip == Slip::LunchUnit {
        model::slipped::opening_practice()
    } else {
        Practice::default()
    };
    let price: Price = if slip == Slip::PlanDiscount {
        charges::slipped::treatment_price
    } else {
        charges::treatment_price
    };
    let miss: MissRule = if slip == Slip::MissThreshold {
        update::slipped::record_miss
    } else {
        update::record_miss
    };
    let step: Update = if slip == Slip::AdvanceAssign {
        update::slipped::update
    } else {
        update::update
    };
    let practice = Mvu::with_commands((opening, Vec::new()), move |msg, practice: &Practice| {
        step(msg, practice, price, miss)
    });
    let today = practice.select(|practice| practice.day);

    let months: Months = if slip == Slip::RiskBoundary {
        model::slipped::recall_months
    } else {
        Patient::recall_months
    };
    let patients = if slip == Slip::RowDueField {
        patients::slipped::patient_list(&practice, &today, months)
    } else {
        patients::patient_list(&practice, &today, months)
    };
    let on_plan = patients.count_by(Patient::is_on_plan);
    let by_owed = if slip == Slip::DebtorsOrder {
        patients::slipped::by_owed(&patients)
    } else {
        patients::by_owed(&patients)
    };
    let chasing = patients::chasing(&patients);

    let quotes = charges::quotes(&practice, price);
    let lunch: Lunch = if slip == Slip::LunchEnd {
        diary::slipped::is_lunch
    } else {
        diary::is_lunch
    };
    let day_sheets = if slip == Slip::MissedBreak {
        diary::slipped::day_sheets(&practice, lunch)
    } else {
        diary::day_sheets(&practice, lunch)
    };
    let recalls = if slip == Slip::RecallDefault {
        recalls::slipped::recalls(&practice, months)
    } else {
        recalls::recalls(&practice, months)
    };
    let hygiene_list = recalls::hygiene_list(&recalls);

    let claims = if slip == Slip::ClaimSwapped {
        services::slipped::claim_check(&practice)
    } else {
        services::claim_check(&practice)
    };
    let arrival: Arrival = if slip == Slip::LabSaturday {
        remote::slipped::crown_arrival
    } else {
        remote::crown_arrival
    };
    let crowns = services::crown_etas(&practice, arrival);

    DentalApp {
        practice,
        today,
        patients,
        on_plan,
        by_owed,
        chasing,
        quotes,
        day_sheets,
        recalls,
        hygiene_list,
        claims,
        crowns,
    }
}
