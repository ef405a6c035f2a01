//! The office's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the desk's
//! `Mvu`, the rules, the bookings' collection and the services.

use super::bookings::{self, Bookings, RowFactory};
use super::damage;
use super::fleet;
use super::model::{Booking, Msg, Office, Paid, Status, WEEK_STARTS, pounds, signed_pounds};
use super::remote::{FuelFeed, Insurer};
use super::services;
use super::tariffs;
use super::update::{self, Helpers};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the office to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    FuelShort,
    ClaimTotal,
    RowDays,
    OnHire,
    FreeCar,
    ReturnBranch,
    LateFee,
    DamageExcess,
    ServiceDue,
    BoardReturns,
    WeekTakings,
    HireDays,
}

/// What an agent sees of the office.
#[expose]
pub struct RentalOffice {
    #[expose(messages)]
    pub office: Mvu<Office, Msg>,
    /// The day of the year.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The day's board: the cars to hand over today, those due back and those overdue.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// Every car: where it stands, whether it is out, its kilometres and its service; the cars free at each branch.
    #[expose]
    #[node]
    pub fleet: Memo<Vec<String>>,
    /// The bookings, keyed by number.
    #[expose]
    #[node]
    pub bookings: Bookings,
    /// Each booking's line, in booking order.
    #[expose]
    #[node]
    pub booking_lines: Memo<Vec<String>>,
    /// The bookings in the order they are collected.
    #[expose]
    #[node]
    pub schedule: Memo<Vec<String>>,
    /// The hires left at another branch.
    #[expose]
    #[node]
    pub one_way: Memo<Vec<String>>,
    /// How many cars are out on hire.
    #[expose]
    #[node]
    pub on_hire: Memo<usize>,
    /// What each returned hire came to, and its deposit.
    #[expose]
    #[node]
    pub invoices: Memo<Vec<String>>,
    /// The week's takings, day by day.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// What the desk has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// What refuelling the cars that came back short costs at today's pump prices.
    #[expose]
    #[node]
    pub refuel: AsyncMemo<Vec<String>>,
    /// What the insurer pays towards the damage reported.
    #[expose]
    #[node]
    pub claims: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers and rules for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::HireDays => Helpers {
                hire_days: super::model::slipped::hire_days,
                ..correct
            },
            Slip::ServiceDue => Helpers {
                service_due: fleet::slipped::service_due,
                ..correct
            },
            Slip::FreeCar => Helpers {
                pick_up: update::slipped::pick_up,
                ..correct
            },
            Slip::ReturnBranch => Helpers {
                return_car: update::slipped::return_car,
                ..correct
            },
            Slip::LateFee => Helpers {
                late_fee: tariffs::slipped::late_fee,
                ..correct
            },
            Slip::DamageExcess => Helpers {
                excess: damage::slipped::excess,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the office with `slip`.
#[node]
pub fn rental_office(slip: Slip) -> RentalOffice {
    let helpers = slip.helpers();
    let office = Mvu::with_commands(
        (Office::default(), update::opening()),
        move |msg, office: &Office| update::update(msg, office, &helpers),
    );
    let today = office.select(|office| format!("day {}", office.today));
    let board = match slip {
        Slip::BoardReturns => slipped::day_board(&office, helpers.late_fee),
        _ => day_board(&office, helpers.late_fee),
    };
    let fleet = fleet::fleet_list(&office, helpers.service_due);

    let booking_list = office.select(|office| office.bookings.clone());
    let row: RowFactory = match slip {
        Slip::RowDays => bookings::slipped::booking_row,
        _ => bookings::booking_row,
    };
    let collection = bookings::bookings(&booking_list, row, helpers.hire_days);
    let booking_lines = bookings::booking_lines(&collection, &booking_list);
    let schedule = bookings::listed(&booking_list, &bookings::by_pickup(&collection));
    let one_way = bookings::listed(&booking_list, &bookings::one_way(&collection).keys());
    let on_hire = match slip {
        Slip::OnHire => bookings::slipped::on_hire(&collection),
        _ => bookings::on_hire(&collection),
    };
    let invoices = office.select(|office| {
        office
            .bookings
            .iter()
            .filter_map(|b| b.invoice.as_ref().map(|invoice| (b, invoice)))
            .map(|(b, i)| {
                format!(
                    "#{} {}: {} days {}, extras {}, km {}, fuel {}, late {}, one-way {}, loyalty -{}, total {}; \
                     deposit {}, kept {}, back {}",
                    b.no,
                    b.customer,
                    i.days,
                    pounds(i.hire),
                    pounds(i.extras),
                    pounds(i.mileage),
                    pounds(i.fuel),
                    pounds(i.late),
                    pounds(i.one_way),
                    pounds(i.discount),
                    pounds(i.total),
                    pounds(b.deposit),
                    pounds(i.kept),
                    pounds(i.refund)
                )
            })
            .collect()
    });
    let takings = match slip {
        Slip::WeekTakings => slipped::week_takings(&office),
        _ => week_takings(&office),
    };
    let notices = office.select(|office| office.notices.clone());

    let cars = office.select(|office| office.cars.clone());
    let damages = office.select(|office| office.damages.clone());
    let feed = Rc::new(FuelFeed::default());
    let insurer = Rc::new(Insurer::default());
    let refuel = match slip {
        Slip::FuelShort => services::slipped::refuel(&booking_list, &cars, feed),
        _ => services::refuel(&booking_list, &cars, feed),
    };
    let claims = match slip {
        Slip::ClaimTotal => services::slipped::claims(&damages, insurer),
        _ => services::claims(&damages, insurer),
    };

    RentalOffice {
        office,
        today,
        board,
        fleet,
        bookings: collection,
        booking_lines,
        schedule,
        one_way,
        on_hire,
        invoices,
        takings,
        notices,
        refuel,
        claims,
    }
}

/// The late fee rule the board prices overdue cars with.
type LateFee = fn(&Booking, u32, u32) -> u32;

/// The day's board: the bookings to hand over today, the cars due back today, and the cars overdue with what they
/// owe so far.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
fn day_board(office: &Mvu<Office, Msg>, late_fee: LateFee) -> Memo<Vec<String>> {
    let office = office.clone();
    let board = Memo::new(move |_| {
        let desk = office.model();
        let today = desk.today;
        let mut lines = Vec::new();
        for b in desk
            .bookings
            .iter()
            .filter(|b| b.status == Status::Booked && b.pickup_day == today)
        {
            lines.push(format!(
                "hand over: #{} {}, {} at {}",
                b.no,
                b.customer,
                b.class.name(),
                b.from
            ));
        }
        for b in desk
            .bookings
            .iter()
            .filter(|b| b.status == Status::Out && b.return_day == today)
        {
            let car = b.car.as_deref().unwrap_or("no car");
            lines.push(format!(
                "due back: #{} {}, {car} at {}",
                b.no, b.customer, b.to
            ));
        }
        for b in desk
            .bookings
            .iter()
            .filter(|b| b.status == Status::Out && b.return_day < today)
        {
            let owed = late_fee(b, today, tariffs::day_rate(b.class));
            let late = today - b.return_day;
            lines.push(format!(
                "overdue: #{} {}, {late} days late, {} so far",
                b.no,
                b.customer,
                pounds(owed)
            ));
        }
        if lines.is_empty() {
            lines.push(format!("day {today}: nothing to hand over or take back"));
        }
        lines
    });
    board
}

/// The week's takings: each day with money through the desk, its hire charges, deposits taken and deposits given
/// back, and the week's net.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
fn week_takings(office: &Mvu<Office, Msg>) -> Memo<Vec<String>> {
    let office = office.clone();
    let takings = Memo::new(move |_| {
        let week = office.model();
        let mut lines = Vec::new();
        let mut week_net: i64 = 0;
        for day in WEEK_STARTS..WEEK_STARTS + 7 {
            let (mut hire, mut deposits, mut refunds) = (0, 0, 0);
            for payment in week.payments.iter().filter(|p| p.day == day) {
                match payment.kind {
                    Paid::Hire => hire += payment.pence,
                    Paid::Deposit => deposits += payment.pence,
                    Paid::Refund => refunds += payment.pence,
                }
            }
            if hire + deposits + refunds == 0 {
                continue;
            }
            let net = i64::from(hire + deposits) - i64::from(refunds);
            week_net += net;
            lines.push(format!(
                "day {day}: hire {}, deposits {}, back {}, net {}",
                pounds(hire),
                pounds(deposits),
                pounds(refunds),
                signed_pounds(net)
            ));
        }
        lines.push(format!("week: {}", signed_pounds(week_net)));
        lines
    });
    takings
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Msg, Office, Paid, Status, WEEK_STARTS, pounds, signed_pounds};
    use super::super::tariffs;
    use super::LateFee;
    use ranvier::{Memo, Mvu, node};

    /// The day's board: the bookings to hand over today, the cars due back today, and the cars overdue with what
    /// they owe so far.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn day_board(office: &Mvu<Office, Msg>, late_fee: LateFee) -> Memo<Vec<String>> {
        let office = office.clone();
        let board = Memo::new(move |_| {
            let desk = office.model();
            let today = desk.today;
            let mut lines = Vec::new();
            for b in desk
                .bookings
                .iter()
                .filter(|b| b.status == Status::Booked && b.pickup_day == today)
            {
                lines.push(format!(
                    "hand over: #{} {}, {} at {}",
                    b.no,
                    b.customer,
                    b.class.name(),
                    b.from
                ));
            }
            // BUG(board_returns)
            for b in desk.bookings.iter().filter(|b| b.return_day == today) {
                let car = b.car.as_deref().unwrap_or("no car");
                lines.push(format!(
                    "due back: #{} {}, {car} at {}",
                    b.no, b.customer, b.to
                ));
            }
            for b in desk
                .bookings
                .iter()
                .filter(|b| b.status == Status::Out && b.return_day < today)
            {
                let owed = late_fee(b, today, tariffs::day_rate(b.class));
                let late = today - b.return_day;
                lines.push(format!(
                    "overdue: #{} {}, {late} days late, {} so far",
                    b.no,
                    b.customer,
                    pounds(owed)
                ));
            }
            if lines.is_empty() {
                lines.push(format!("day {today}: nothing to hand over or take back"));
            }
            lines
        });
        board
    }

    /// The week's takings: each day with money through the desk, its hire charges, deposits taken and deposits
    /// given back, and the week's net.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn week_takings(office: &Mvu<Office, Msg>) -> Memo<Vec<String>> {
        let office = office.clone();
        let takings = Memo::new(move |_| {
            let week = office.model();
            let mut lines = Vec::new();
            let mut week_net: i64 = 0;
            for day in WEEK_STARTS..WEEK_STARTS + 7 {
                let (mut hire, mut deposits, mut refunds) = (0, 0, 0);
                for payment in week.payments.iter().filter(|p| p.day == day) {
                    match payment.kind {
                        Paid::Hire => hire += payment.pence,
                        Paid::Deposit => deposits += payment.pence,
                        Paid::Refund => refunds += payment.pence,
                    }
                }
                if hire + deposits + refunds == 0 {
                    continue;
                }
                // BUG(week_takings)
                let net = i64::from(hire + deposits) + i64::from(refunds);
                week_net += net;
                lines.push(format!(
                    "day {day}: hire {}, deposits {}, back {}, net {}",
                    pounds(hire),
                    pounds(deposits),
                    pounds(refunds),
                    signed_pounds(net)
                ));
            }
            lines.push(format!("week: {}", signed_pounds(week_net)));
            lines
        });
        takings
    }
}
