//! What an agent may see of the driving school, and the builder that wires the graph (with one mistake, for a
//! chosen [`Slip`]).

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::fees::{self, Account, FeeRule};
use super::lessons::{self, CarState, Load};
use super::model::{self, Car, Lesson, Msg, Pupil, School};
use super::progress::{self, PassRate};
use super::pupils::{self, Progress, Pupils};
use super::services::{self, FuelBill, TestSlot};
use super::update::{self, BookFn, UpdateFn};

/// Which mistake the app is built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// None: the correct app.
    None,
    /// `services::slipped::test_slots`.
    SlotNotice,
    /// `services::slipped::fuel_bill`.
    FuelLitres,
    /// `pupils::slipped::progress_row`.
    NextSkill,
    /// `pupils::slipped::awaiting_test`.
    AwaitingTest,
    /// `update::slipped::update`.
    AdvanceDay,
    /// `update::slipped::book`.
    BookWeek,
    /// `fees::slipped::cancellation_fee`.
    LateNotice,
    /// `lessons::slipped::miles_to_service`.
    ServiceMiles,
    /// `lessons::slipped::instructor_week`.
    WeekBounds,
    /// `progress::slipped::pass_rates`.
    TheorySkip,
    /// `model::slipped::billable`.
    BillableCancel,
    /// `model::slipped::default`.
    DefaultGearbox,
}

/// The driving school as an agent sees it.
#[expose]
pub struct DrivingApp {
    /// The school and its messages.
    #[expose(messages)]
    pub school: Mvu<School, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub today: Memo<u32>,
    /// Why the last message did nothing.
    #[expose]
    #[node]
    pub notice: Memo<Option<String>>,
    /// The lessons still booked, as the diary lists them.
    #[expose]
    #[node]
    pub diary: Memo<Vec<String>>,
    /// The pupils and their progress.
    #[expose]
    #[node]
    pub pupils: Pupils,
    /// Who should be put forward for a practical test.
    #[expose]
    #[node]
    pub awaiting_test: Memo<Vec<String>>,
    /// The pupils by hours driven.
    #[expose]
    #[node]
    pub by_hours: Memo<Vec<String>>,
    /// How many pupils' blocks are running out.
    #[expose]
    #[node]
    pub topping_up: Memo<usize>,
    /// Every pupil's account.
    #[expose]
    #[node]
    pub accounts: Memo<Vec<Account>>,
    /// The instructors' week.
    #[expose]
    #[node]
    pub week_load: Memo<Vec<Load>>,
    /// The cars and their services.
    #[expose]
    #[node]
    pub fleet: Memo<Vec<CarState>>,
    /// The instructors' practical pass rates.
    #[expose]
    #[node]
    pub pass_rates: Memo<Vec<PassRate>>,
    /// Test slots offered by the test centre.
    #[expose]
    #[node]
    pub test_slots: AsyncMemo<Vec<TestSlot>>,
    /// What the fleet's fuel has cost.
    #[expose]
    #[node]
    pub fuel: AsyncMemo<FuelBill>,
}

/// One diary line of a booked lesson.
fn diary_line(lesson: &Lesson) -> String {
    format!(
        "day {}: {} with {} ({}h, lesson {})",
        lesson.day, lesson.pupil, lesson.instructor, lesson.hours, lesson.id
    )
}

/// Builds the app, with the mistake `slip` names.
#[node]
pub fn driving_app(slip: Slip) -> DrivingApp {
    let init = if slip == Slip::DefaultGearbox {
        model::slipped::default()
    } else {
        School::default()
    };
    let step: UpdateFn = if slip == Slip::AdvanceDay {
        update::slipped::update
    } else {
        update::update
    };
    let book: BookFn = if slip == Slip::BookWeek {
        update::slipped::book
    } else {
        update::book
    };
    let fee: FeeRule = if slip == Slip::LateNotice {
        fees::slipped::cancellation_fee
    } else {
        fees::cancellation_fee
    };
    let school = Mvu::with_commands((init, Vec::new()), move |msg, school: &School| {
        step(msg, school, book, fee)
    });

    let today = school.select(|school| school.day);
    let notice = school.select(|school| school.notice.clone());
    let diary = school.select(|school| {
        let mut booked: Vec<&Lesson> = school
            .lessons
            .iter()
            .filter(|l| l.status == model::Status::Booked)
            .collect();
        booked.sort_by_key(|l| (l.day, l.id));
        booked.into_iter().map(diary_line).collect::<Vec<_>>()
    });

    let roll = school.select(|school| school.pupils.clone());
    let row: fn(&ranvier::collection::Row<String, Pupil>) -> Memo<Progress> =
        if slip == Slip::NextSkill {
            pupils::slipped::progress_row
        } else {
            pupils::progress_row
        };
    let pupils = pupils::pupil_rows(roll, row);
    let keep: fn(&Pupil) -> bool = if slip == Slip::AwaitingTest {
        pupils::slipped::awaiting_test
    } else {
        pupils::awaiting_test
    };
    let awaiting_test = pupils::names_where(&pupils, keep);
    let by_hours = pupils::by_hours(&pupils);
    let topping_up = pupils::topping_up_count(&pupils);

    let billable: fn(&Lesson) -> u64 = if slip == Slip::BillableCancel {
        model::slipped::billable
    } else {
        Lesson::billable
    };
    let accounts = fees::accounts(&school, fee, billable);
    let week_load = if slip == Slip::WeekBounds {
        lessons::slipped::instructor_week(&school)
    } else {
        lessons::instructor_week(&school)
    };
    let to_service: fn(&Car) -> u32 = if slip == Slip::ServiceMiles {
        lessons::slipped::miles_to_service
    } else {
        lessons::miles_to_service
    };
    let fleet = lessons::fleet(&school, to_service);
    let pass_rates = if slip == Slip::TheorySkip {
        progress::slipped::pass_rates(&school)
    } else {
        progress::pass_rates(&school)
    };

    let test_slots = if slip == Slip::SlotNotice {
        services::slipped::test_slots(&awaiting_test, &today)
    } else {
        services::test_slots(&awaiting_test, &today)
    };
    let fuel = if slip == Slip::FuelLitres {
        services::slipped::fuel_bill(&school)
    } else {
        services::fuel_bill(&school)
    };

    DrivingApp {
        school,
        today,
        notice,
        diary,
        pupils,
        awaiting_test,
        by_hours,
        topping_up,
        accounts,
        week_load,
        fleet,
        pass_rates,
        test_slots,
        fuel,
    }
}
