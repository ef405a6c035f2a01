//! The week's timetable as a keyed collection (`ranvier::collection`): one row per class, each row with how full the
//! class is as a row memo, and views over the rows: the classes that are full, the order of the timetable, and the
//! timetable itself.

use std::collections::BTreeMap;

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{Gym, MINUTES_PER_DAY, Msg, clock};

/// One row of the timetable.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct ClassRow {
    /// The class's number.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its coach.
    pub coach: String,
    /// The day of the week (0 is Monday).
    pub day: u32,
    /// When it starts, in minutes after midnight.
    pub start: u32,
    /// Places.
    pub capacity: u32,
    /// Places taken.
    pub booked: u32,
    /// Members waiting.
    pub waiting: u32,
    /// Called off.
    pub cancelled: bool,
}

/// The timetable's rows, in the order the classes were added.
pub fn rows_of(gym: &Gym) -> Vec<ClassRow> {
    gym.classes
        .iter()
        .map(|class| {
            let of_class = gym.bookings.iter().filter(|b| b.class == class.id);
            ClassRow {
                id: class.id,
                name: class.name.clone(),
                coach: class.coach.clone(),
                day: class.day,
                start: class.start,
                capacity: class.capacity,
                booked: of_class.clone().filter(|b| b.holds_place()).count() as u32,
                waiting: of_class
                    .filter(|b| b.status == super::model::Status::Waitlisted)
                    .count() as u32,
                cancelled: class.cancelled,
            }
        })
        .collect()
}

/// The timetable and its views.
pub struct Timetable {
    /// One row per class; its memo is how full the class is, in percent.
    pub classes: Collection<u32, ClassRow, Memo<u32>>,
    /// Classes with every place taken.
    pub full: Memo<usize>,
    /// The week's classes in order, each with how full it is.
    pub timetable: Memo<Vec<String>>,
}

/// The timetable over `gym`'s classes, as `slip` says.
#[node]
pub fn timetable(gym: &Mvu<Gym, Msg>, slip: Slip) -> Timetable {
    let rows = gym.select(rows_of);
    let classes = match slip {
        Slip::FillPercent => Collection::keyed(rows, |row: &ClassRow| row.id, slipped::fill),
        _ => Collection::keyed(rows, |row: &ClassRow| row.id, fill),
    };
    let full = full(&classes);
    let order = match slip {
        Slip::TimetableOrder => slipped::week_order(&classes),
        _ => week_order(&classes),
    };
    let timetable = listing(&classes, order);
    Timetable {
        classes,
        full,
        timetable,
    }
}

/// How full a class is, in percent of its places (rounded down); a class called off is empty.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn fill(row: &Row<u32, ClassRow>) -> Memo<u32> {
    let row = row.clone();
    let fill = Memo::new(move |_| {
        row.with(|class| {
            if class.cancelled || class.capacity == 0 {
                return 0;
            }
            class.booked * 100 / class.capacity
        })
    });
    fill
}

/// How many classes (not called off) have every place taken.
pub fn full(classes: &Collection<u32, ClassRow, Memo<u32>>) -> Memo<usize> {
    classes.count_by(|row| !row.cancelled && row.booked >= row.capacity)
}

/// The classes in the week's order: by day, by start on a day.
pub fn week_order(classes: &Collection<u32, ClassRow, Memo<u32>>) -> Memo<std::rc::Rc<[u32]>> {
    classes.sort_by(|row| (row.day, row.start, row.id))
}

/// The timetable, in `order`: each class's time, name, coach and how full it is (or that it is called off).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn listing(
    classes: &Collection<u32, ClassRow, Memo<u32>>,
    order: Memo<std::rc::Rc<[u32]>>,
) -> Memo<Vec<String>> {
    let classes = classes.clone();
    let timetable = Memo::new(move |_| {
        let order = order.get();
        let mut lines = BTreeMap::new();
        classes.for_each(|id, class, fill| {
            let when = clock(class.day * MINUTES_PER_DAY + class.start);
            let state = if class.cancelled {
                "called off".to_owned()
            } else {
                format!("{}% full", fill.get())
            };
            lines.insert(
                *id,
                format!("{when} {} ({}): {state}", class.name, class.coach),
            );
        });
        order
            .iter()
            .filter_map(|id| lines.remove(id))
            .collect::<Vec<_>>()
    });
    timetable
}

/// The timetable with a mistake.
mod slipped {
    use ranvier::collection::{Collection, Row};
    use ranvier::{Memo, node};

    use super::ClassRow;

    /// How full a class is, in percent of its places.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn fill(row: &Row<u32, ClassRow>) -> Memo<u32> {
        let row = row.clone();
        let fill = Memo::new(move |_| {
            row.with(|class| {
                if class.cancelled || class.capacity == 0 {
                    return 0;
                }
                // BUG(fill_percent)
                class.booked / class.capacity * 100
            })
        });
        fill
    }

    /// The classes in the week's order.
    pub fn week_order(classes: &Collection<u32, ClassRow, Memo<u32>>) -> Memo<std::rc::Rc<[u32]>> {
        // BUG(timetable_order)
        classes.sort_by(|row| (row.start, row.day, row.id))
    }
}
