//! The app an agent sees, and the builder that makes its graph, with the correct fns or, for a [`Slip`], with one
//! mistaken copy.

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::exams::{self, Entry, MinLessons};
use super::fees::{self, Invoice, Price};
use super::model::{self, Hire, Msg, School};
use super::pupils::{self, Pupils, RowFee};
use super::services::{self, Entered, Eta};
use super::timetable::{self, Load};
use super::update::{self, Cancellation};

/// Which mistake the app is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slip {
    /// The correct app.
    None,
    /// The exam board's check stops at the first refused entry.
    BoardStopsAtRefusal,
    /// An instrument the shop does not keep arrives at once.
    BackOrderDefault,
    /// A pupil's fee swaps the term's weeks and half-term.
    HalfTermCharged,
    /// A pupil at the top grade counts as ready.
    TopGradeEntered,
    /// `advance` sets the day instead of moving it on.
    AdvanceSetsDay,
    /// A lesson cancelled with exactly the notice asked is charged.
    NoticeBoundary,
    /// A 45-minute lesson is priced as an hour.
    PriceArm,
    /// Grade 3 asks the lessons of grade 4.
    GradeBand,
    /// The sibling discount starts at the third child.
    SiblingFromThird,
    /// A changeover counted after the last lesson.
    ChangeoverCount,
    /// A hire's first month is not charged.
    HireMonths,
    /// The deposit written in pounds.
    DepositPounds,
}

/// The music school as an agent sees it.
#[expose]
pub struct SetApp {
    /// The school, and its messages.
    #[expose(messages, value)]
    pub school: Mvu<School, Msg>,
    /// The day of the term.
    #[expose]
    #[node]
    pub today: Memo<u32>,
    /// The pupils, each with their term fee.
    #[expose]
    #[node]
    pub pupils: Pupils,
    /// How many pupils are ready for their next grade.
    #[expose]
    #[node]
    pub ready_count: Memo<usize>,
    /// Who is ready for their next grade.
    #[expose]
    #[node]
    pub ready_names: Memo<Vec<String>>,
    /// How many pupils hold a bursary.
    #[expose]
    #[node]
    pub bursaries: Memo<usize>,
    /// The families' invoices for the term.
    #[expose]
    #[node]
    pub invoices: Memo<Vec<Invoice>>,
    /// The teachers' days.
    #[expose]
    #[node]
    pub timetable: Memo<Vec<Load>>,
    /// The teachers whose day runs over.
    #[expose]
    #[node]
    pub overbooked: Memo<Vec<String>>,
    /// The exam entries to send.
    #[expose]
    #[node]
    pub exam_list: Memo<Vec<Entry>>,
    /// What the exam board entered, and the fees.
    #[expose]
    #[node]
    pub exam_entry: AsyncMemo<Entered>,
    /// The instruments out on hire.
    #[expose]
    #[node]
    pub hires: Memo<Vec<Hire>>,
    /// What the open hires have cost so far.
    #[expose]
    #[node]
    pub hire_due: Memo<u64>,
    /// When each hired instrument arrives.
    #[expose]
    #[node]
    pub delivery: AsyncMemo<Vec<Eta>>,
    /// Deposits paid back.
    #[expose]
    #[node]
    pub refunded: Memo<u64>,
}

/// The update step: `update` or its mistaken copy.
type Step = fn(Msg, &School, Price, Cancellation) -> (School, Vec<Msg>);

/// Builds the school's graph, with the mistake `slip` (none for [`Slip::None`]).
#[node]
pub fn set_app(slip: Slip) -> SetApp {
    let price: Price = if slip == Slip::PriceArm {
        fees::slipped::lesson_price
    } else {
        fees::lesson_price
    };
    let needs: MinLessons = if slip == Slip::GradeBand {
        exams::slipped::min_lessons
    } else {
        exams::min_lessons
    };
    let cancellation: Cancellation = if slip == Slip::NoticeBoundary {
        update::slipped::cancellation
    } else {
        update::cancellation
    };
    let step: Step = if slip == Slip::AdvanceSetsDay {
        update::slipped::update
    } else {
        update::update
    };
    let owed: fn(&School) -> u64 = if slip == Slip::HireMonths {
        model::slipped::hire_due
    } else {
        School::hire_due
    };
    let row_fee: RowFee = if slip == Slip::HalfTermCharged {
        pupils::slipped::term_fee
    } else {
        pupils::term_fee
    };
    let start = if slip == Slip::DepositPounds {
        model::slipped::default_school()
    } else {
        School::default()
    };

    let school = Mvu::with_commands((start, Vec::new()), move |msg, school| {
        step(msg, school, price, cancellation)
    });
    let today = school.select(|school| school.day);
    let pupils = pupils::pupils(&school, price, row_fee);
    let ready = if slip == Slip::TopGradeEntered {
        pupils::slipped::ready(&pupils, needs)
    } else {
        pupils::ready(&pupils, needs)
    };
    let ready_count = ready.count();
    let ready_names = pupils::names(ready.keys());
    let bursaries = pupils::bursaries(&pupils);
    let invoices = if slip == Slip::SiblingFromThird {
        fees::slipped::invoices(&school, price)
    } else {
        fees::invoices(&school, price)
    };
    let timetable = if slip == Slip::ChangeoverCount {
        timetable::slipped::timetable(&school)
    } else {
        timetable::timetable(&school)
    };
    let overbooked = timetable::overbooked(&timetable);
    let exam_list = exams::exam_list(&school, needs);
    let exam_entry = if slip == Slip::BoardStopsAtRefusal {
        services::slipped::exam_entry(&exam_list, &today)
    } else {
        services::exam_entry(&exam_list, &today)
    };
    let hires = school.select(School::open_hires);
    let hire_due = school.select(owed);
    let delivery = if slip == Slip::BackOrderDefault {
        services::slipped::delivery(&hires)
    } else {
        services::delivery(&hires)
    };
    let refunded = school.select(|school| school.refunded);
    SetApp {
        school,
        today,
        pupils,
        ready_count,
        ready_names,
        bursaries,
        invoices,
        timetable,
        overbooked,
        exam_list,
        exam_entry,
        hires,
        hire_due,
        delivery,
        refunded,
    }
}
