//! The garage's graph: the `#[expose]` app an agent sees, the `#[node]` builder that wires the model to the store, the
//! services and the desk's screens (the day's board, the mechanics' day, the MOT list, invoices, orders), and which
//! version of each rule the garage runs with.

use super::calendar::{self, MotState};
use super::model::{
    Booking, Car, Day, Garage, Invoice, Mechanic, Msg, Order, Settings, Status, Work,
    slipped as model_slipped,
};
use super::pricing::{self, pounds};
use super::services;
use super::stock::{self, RowFactory, Stock};
use super::update::{self, Rules};
use super::workshop;
use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

/// Which mistake the garage runs with (`None`: the correct garage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct garage.
    None,
    /// See `main.rs`'s `SLIPS`.
    LabourRateUnit,
    /// See `main.rs`'s `SLIPS`.
    BayAdjacent,
    /// See `main.rs`'s `SLIPS`.
    FitMergedQty,
    /// See `main.rs`'s `SLIPS`.
    ShortNoReorder,
    /// See `main.rs`'s `SLIPS`.
    DiscountSign,
    /// See `main.rs`'s `SLIPS`.
    MotDaysSwapped,
    /// See `main.rs`'s `SLIPS`.
    BoardWaitingArm,
    /// See `main.rs`'s `SLIPS`.
    MechanicAnyDay,
    /// See `main.rs`'s `SLIPS`.
    ReorderToLevel,
    /// See `main.rs`'s `SLIPS`.
    ShelfByName,
    /// See `main.rs`'s `SLIPS`.
    DeliveryFromToday,
    /// See `main.rs`'s `SLIPS`.
    MotRecordDefault,
}

/// The day the garage opens: Monday 7 December 2026.
pub const OPENING_DAY: &str = "2026-12-07";

/// What an agent sees of the garage.
#[expose]
pub struct GarageDesk {
    /// The garage and its messages.
    #[expose(messages)]
    pub garage: Mvu<Garage, Msg>,
    /// Today's date.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// Today's bookings, bay by bay.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// Each mechanic's day.
    #[expose]
    #[node]
    pub mechanics: Memo<Vec<String>>,
    /// Cars whose MOT runs out soon, or has.
    #[expose]
    #[node]
    pub mot_due: Memo<Vec<String>>,
    /// The invoices raised.
    #[expose]
    #[node]
    pub invoices: Memo<Vec<String>>,
    /// What the invoices come to.
    #[expose]
    #[node]
    pub takings: Memo<String>,
    /// Parts on order.
    #[expose]
    #[node]
    pub orders: Memo<Vec<String>>,
    /// What the desk should know.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The parts store, one row per part with its stock line.
    #[expose]
    #[node]
    pub stock: Stock,
    /// The shelf in bin order.
    #[expose]
    #[node]
    pub shelf: Memo<Vec<String>>,
    /// The parts running low.
    #[expose]
    #[node]
    pub low_stock: Memo<Vec<String>>,
    /// How many parts are out.
    #[expose]
    #[node]
    pub out_of_stock: Memo<usize>,
    /// When the parts on order come (the suppliers).
    #[expose]
    #[node]
    pub deliveries: AsyncMemo<Vec<String>>,
    /// Today's MOT cars' histories (the register).
    #[expose]
    #[node]
    pub mot_checks: AsyncMemo<Vec<String>>,
}

/// The garage's mechanics.
pub fn staff() -> Vec<Mechanic> {
    let mechanic = |name: &str, skills: &[Work], hours| Mechanic {
        name: name.to_owned(),
        skills: skills.to_vec(),
        hours,
    };
    vec![
        mechanic("Ravi", &[Work::Mot, Work::Service], 8),
        mechanic("Jo", &[Work::Electrics, Work::Service, Work::Tyres], 8),
        mechanic("Sam", &[Work::Bodywork, Work::Tyres], 6),
    ]
}

/// `95` minutes as `1h35`.
fn hours_minutes(minutes: u32) -> String {
    format!("{}h{:02}", minutes / 60, minutes % 60)
}

/// What a job waits for: `2 x BULB-H7`.
fn awaited(booking: &Booking) -> String {
    let parts: Vec<String> = booking
        .job
        .awaiting
        .iter()
        .map(|(code, qty)| format!("{qty} x {code}"))
        .collect();
    parts.join(", ")
}

/// Today's bookings, bay by bay: `Bay 1 09:00-11:00 AB12 CDE Ford Focus, service (Ravi): in the bay`.
pub fn board(
    today: &Memo<Day>,
    bookings: &Memo<Vec<Booking>>,
    cars: &Memo<Vec<Car>>,
) -> Memo<Vec<String>> {
    let (today, bookings, cars) = (today.clone(), bookings.clone(), cars.clone());
    Memo::new(move |_| {
        let today = today.get();
        let cars = cars.get();
        let mut todays: Vec<Booking> = bookings
            .get()
            .into_iter()
            .filter(|b| b.day == today)
            .collect();
        todays.sort_by_key(|b| (b.bay, b.start));
        let mut lines = Vec::with_capacity(todays.len());
        for b in &todays {
            let make = cars
                .iter()
                .find(|car| car.plate == b.plate)
                .map_or("?", |car| car.make.as_str());
            let who = b.job.mechanic.as_deref().unwrap_or("nobody yet");
            let state = match b.status {
                Status::Booked => "booked".to_owned(),
                Status::InBay => "in the bay".to_owned(),
                Status::WaitingParts => format!("waiting for {}", awaited(b)),
                Status::Done => "ready to collect".to_owned(),
                Status::Collected => "collected".to_owned(),
            };
            lines.push(format!(
                "Bay {} {:02}:00-{:02}:00 {} {make}, {} ({who}): {state}",
                b.bay,
                b.start,
                b.start + b.hours,
                b.plate,
                b.work.name()
            ));
        }
        lines
    })
}

/// Each mechanic's day: `Ravi (MOT, service): 2 of 8 hours booked, 1h30 logged, 6 h free`.
pub fn mechanics(
    staff: &Memo<Vec<Mechanic>>,
    bookings: &Memo<Vec<Booking>>,
    today: &Memo<Day>,
) -> Memo<Vec<String>> {
    let (staff, bookings, today) = (staff.clone(), bookings.clone(), today.clone());
    Memo::new(move |_| {
        let today = today.get();
        let bookings = bookings.get();
        staff
            .get()
            .iter()
            .map(|mechanic| {
                let mut booked = 0;
                let mut logged = 0;
                for booking in &bookings {
                    if booking.day == today && booking.job.mechanic.as_ref() == Some(&mechanic.name)
                    {
                        booked += booking.hours;
                    }
                    logged += booking
                        .job
                        .labour
                        .iter()
                        .filter(|line| line.day == today && line.mechanic == mechanic.name)
                        .map(|line| line.minutes)
                        .sum::<u32>();
                }
                let skills: Vec<&str> = mechanic.skills.iter().map(|w| w.name()).collect();
                let free = mechanic.hours.saturating_sub(booked);
                format!(
                    "{} ({}): {booked} of {} hours booked, {} logged, {free} h free",
                    mechanic.name,
                    skills.join(", "),
                    mechanic.hours,
                    hours_minutes(logged)
                )
            })
            .collect()
    })
}

/// How the MOT list decides where a car stands, as [`calendar::mot_state`].
pub type MotRule = fn(Day, Day, u32) -> MotState;

/// Cars whose MOT runs out within the window, or has: `AB12 CDE (Jones, Ford Focus): due in 12 days, Sat 19 Dec 2026`.
pub fn mot_due(
    cars: &Memo<Vec<Car>>,
    today: &Memo<Day>,
    window: &Memo<u32>,
    state: MotRule,
) -> Memo<Vec<String>> {
    let (cars, today, window) = (cars.clone(), today.clone(), window.clone());
    Memo::new(move |_| {
        let (today, window) = (today.get(), window.get());
        let mut cars = cars.get();
        cars.sort_by_key(|car| car.mot_due);
        cars.iter()
            .filter_map(|car| {
                let when = match state(car.mot_due, today, window) {
                    MotState::Overdue(days) => format!("overdue by {days} days"),
                    MotState::Due(0) => "due today".to_owned(),
                    MotState::Due(days) => format!("due in {days} days"),
                    MotState::Later => return None,
                };
                Some(format!(
                    "{} ({}, {}): {when}, {}",
                    car.plate,
                    car.owner,
                    car.make,
                    calendar::format(car.mot_due)
                ))
            })
            .collect()
    })
}

/// `#1 Jones, AB12 CDE: labour 108.00, parts 45.50, less 0.00, VAT 30.70, total 184.20`.
fn invoice_line(invoice: &Invoice) -> String {
    format!(
        "#{} {}, {}: labour {}, parts {}, less {}, VAT {}, total {}",
        invoice.booking,
        invoice.customer,
        invoice.plate,
        pounds(invoice.labour),
        pounds(invoice.parts),
        pounds(invoice.discount),
        pounds(invoice.vat),
        pounds(invoice.total)
    )
}

/// `10 x BULB-H7 from Brightway, ordered Mon 7 Dec 2026`.
fn order_line(order: &Order) -> String {
    format!(
        "{} x {} from {}, ordered {}",
        order.qty,
        order.code,
        order.supplier,
        calendar::format(order.placed)
    )
}

/// The rules the garage runs with: the correct ones, or one with `slip`'s mistake.
fn rules(slip: Slip) -> Rules {
    Rules {
        book: match slip {
            Slip::BayAdjacent => workshop::slipped::place_booking,
            _ => workshop::place_booking,
        },
        take: match slip {
            Slip::FitMergedQty => workshop::slipped::take_parts,
            _ => workshop::take_parts,
        },
        fit: match slip {
            Slip::ShortNoReorder => update::slipped::fit,
            _ => update::fit,
        },
        price: match slip {
            Slip::DiscountSign => pricing::slipped::invoice,
            _ => pricing::invoice,
        },
    }
}

/// Builds the garage with `slip`; `#[node]` names each node after its `let`.
#[node]
pub fn garage_desk(slip: Slip) -> GarageDesk {
    let settings = match slip {
        Slip::LabourRateUnit => model_slipped::settings(),
        _ => Settings::default(),
    };
    let opening = calendar::parse(OPENING_DAY).unwrap_or_default();
    let rules = rules(slip);
    let garage = Mvu::with_commands(
        (
            Garage::open(opening, settings, staff(), stock::opening_stock()),
            Vec::new(),
        ),
        move |msg, garage| update::update(msg, garage, &rules),
    );
    let day = garage.select(|g| g.today);
    let bookings = garage.select(|g| g.bookings.clone());
    let cars = garage.select(|g| g.cars.clone());
    let staff = garage.select(|g| g.mechanics.clone());
    let window = garage.select(|g| g.settings.mot_window);
    let bills = garage.select(|g| g.invoices.clone());
    let placed = garage.select(|g| g.orders.clone());
    let parts = garage.select(|g| g.parts.clone());

    let today = Memo::new({
        let day = day.clone();
        move |_| calendar::format(day.get())
    });
    let board = match slip {
        Slip::BoardWaitingArm => slipped::board(&day, &bookings, &cars),
        _ => board(&day, &bookings, &cars),
    };
    let mechanics = match slip {
        Slip::MechanicAnyDay => slipped::mechanics(&staff, &bookings, &day),
        _ => mechanics(&staff, &bookings, &day),
    };
    let rule: MotRule = match slip {
        Slip::MotDaysSwapped => calendar::slipped::mot_state,
        _ => calendar::mot_state,
    };
    let mot_due = mot_due(&cars, &day, &window, rule);
    let invoices = Memo::new({
        let bills = bills.clone();
        move |_| bills.get().iter().map(invoice_line).collect()
    });
    let takings = Memo::new(move |_| {
        let bills = bills.get();
        let total: u64 = bills.iter().map(|invoice| invoice.total).sum();
        format!("{} from {} invoices", pounds(total), bills.len())
    });
    let orders = Memo::new({
        let placed = placed.clone();
        move |_| placed.get().iter().map(order_line).collect()
    });
    let notices = garage.select(|g| g.notices.clone());

    let row: RowFactory = match slip {
        Slip::ReorderToLevel => stock::slipped::part_row,
        _ => stock::part_row,
    };
    let stock = Collection::keyed(parts, |part: &super::model::Part| part.code.clone(), row);
    let shelf = match slip {
        Slip::ShelfByName => stock::slipped::shelf(&stock),
        _ => stock::shelf(&stock),
    };
    let low_stock = stock::low_stock(&stock);
    let out_of_stock = stock::out_of_stock(&stock);

    let deliveries = match slip {
        Slip::DeliveryFromToday => services::slipped::deliveries(&placed, &day),
        _ => services::deliveries(&placed, &day),
    };
    let mot_checks = match slip {
        Slip::MotRecordDefault => services::slipped::mot_checks(&bookings, &day),
        _ => services::mot_checks(&bookings, &day),
    };
    GarageDesk {
        garage,
        today,
        board,
        mechanics,
        mot_due,
        invoices,
        takings,
        orders,
        notices,
        stock,
        shelf,
        low_stock,
        out_of_stock,
        deliveries,
        mot_checks,
    }
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{Booking, Car, Day, Mechanic, Memo, Status, hours_minutes};

    /// Today's bookings, bay by bay: `Bay 1 09:00-11:00 AB12 CDE Ford Focus, service (Ravi): in the bay`.
    pub fn board(
        today: &Memo<Day>,
        bookings: &Memo<Vec<Booking>>,
        cars: &Memo<Vec<Car>>,
    ) -> Memo<Vec<String>> {
        let (today, bookings, cars) = (today.clone(), bookings.clone(), cars.clone());
        Memo::new(move |_| {
            let today = today.get();
            let cars = cars.get();
            let mut todays: Vec<Booking> = bookings
                .get()
                .into_iter()
                .filter(|b| b.day == today)
                .collect();
            todays.sort_by_key(|b| (b.bay, b.start));
            let mut lines = Vec::with_capacity(todays.len());
            for b in &todays {
                let make = cars
                    .iter()
                    .find(|car| car.plate == b.plate)
                    .map_or("?", |car| car.make.as_str());
                let who = b.job.mechanic.as_deref().unwrap_or("nobody yet");
                let state = match b.status {
                    Status::Booked => "booked".to_owned(),
                    Status::InBay => "in the bay".to_owned(),
                    // BUG(board_waiting_arm)
                    Status::WaitingParts => "in the bay".to_owned(),
                    Status::Done => "ready to collect".to_owned(),
                    Status::Collected => "collected".to_owned(),
                };
                lines.push(format!(
                    "Bay {} {:02}:00-{:02}:00 {} {make}, {} ({who}): {state}",
                    b.bay,
                    b.start,
                    b.start + b.hours,
                    b.plate,
                    b.work.name()
                ));
            }
            lines
        })
    }

    /// Each mechanic's day: `Ravi (MOT, service): 2 of 8 hours booked, 1h30 logged, 6 h free`.
    pub fn mechanics(
        staff: &Memo<Vec<Mechanic>>,
        bookings: &Memo<Vec<Booking>>,
        today: &Memo<Day>,
    ) -> Memo<Vec<String>> {
        let (staff, bookings, today) = (staff.clone(), bookings.clone(), today.clone());
        Memo::new(move |_| {
            let today = today.get();
            let bookings = bookings.get();
            staff
                .get()
                .iter()
                .map(|mechanic| {
                    let mut booked = 0;
                    let mut logged = 0;
                    for booking in &bookings {
                        // BUG(mechanic_any_day)
                        if booking.job.mechanic.as_ref() == Some(&mechanic.name) {
                            booked += booking.hours;
                        }
                        logged += booking
                            .job
                            .labour
                            .iter()
                            .filter(|line| line.day == today && line.mechanic == mechanic.name)
                            .map(|line| line.minutes)
                            .sum::<u32>();
                    }
                    let skills: Vec<&str> = mechanic.skills.iter().map(|w| w.name()).collect();
                    let free = mechanic.hours.saturating_sub(booked);
                    format!(
                        "{} ({}): {booked} of {} hours booked, {} logged, {free} h free",
                        mechanic.name,
                        skills.join(", "),
                        mechanic.hours,
                        hours_minutes(logged)
                    )
                })
                .collect()
        })
    }
}
