//! Today's lessons as a keyed collection: one row per lesson with its places, and the views the desk reads (the
//! lessons in time order, those with a place left, how many have a waiting list).

use super::model::{Lesson, Msg, Pool};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, Mvu, node};
use std::rc::Rc;

/// The lessons, keyed by id; each row has its line of places.
pub type Timetable = Collection<u32, Lesson, (&'static str, Memo<String>)>;

/// What a row factory makes.
pub type RowFactory = fn(&Row<u32, Lesson>) -> (&'static str, Memo<String>);

/// The timetable over the pool's lessons, each row made by `row`.
pub fn timetable(lessons: &Memo<Vec<Lesson>>, row: RowFactory) -> Timetable {
    Collection::keyed(lessons.clone(), |lesson: &Lesson| lesson.id, row)
}

struct Places {
    left: usize,
    waiting: usize,
}

/// A lesson's row: its line on the day sheet, `16:00 Beginners (Dan): 2 places left, 1 waiting`.
#[node]
pub fn lesson_row(row: &Row<u32, Lesson>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let places = Memo::new(move |_| {
        row.with(|lesson| {
            let places = Places {
                left: lesson.capacity.saturating_sub(lesson.enrolled.len()),
                waiting: lesson.waiting.len(),
            };
            let mut line = format!("{}: ", lesson.title());
            match places.left {
                0 => line.push_str("full"),
                1 => line.push_str("1 place left"),
                n => line.push_str(&format!("{n} places left")),
            }
            if places.waiting > 0 {
                line.push_str(&format!(", {} waiting", places.waiting));
            }
            line
        })
    });
    ("places", places)
}

/// The lessons a child can still be enrolled in.
pub fn open_for_enrolment(timetable: &Timetable) -> Filter<u32> {
    timetable.filter(|lesson| !lesson.is_full())
}

/// The lessons by start time (a level before a higher one at the same time).
pub fn in_time_order(timetable: &Timetable) -> Memo<Rc<[u32]>> {
    timetable.sort_by(|lesson| (lesson.start, lesson.level))
}

/// How many lessons have children waiting.
pub fn with_waiting_list(timetable: &Timetable) -> Memo<usize> {
    timetable.count_by(|lesson| !lesson.waiting.is_empty())
}

/// The rows' lines, in `order`.
pub fn day_sheet(timetable: &Timetable, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (timetable, order) = (timetable.clone(), order.clone());
    Memo::new(move |_| {
        order
            .get()
            .iter()
            .filter_map(|id| timetable.row(id))
            .map(|(_, places)| places.get())
            .collect()
    })
}

/// The titles of the lessons `keys` names, in the timetable's order.
pub fn titles(lessons: &Memo<Vec<Lesson>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (lessons, keys) = (lessons.clone(), keys.clone());
    Memo::new(move |_| {
        let keys = keys.get();
        lessons.with(|lessons| {
            lessons
                .iter()
                .filter(|lesson| keys.contains(&lesson.id))
                .map(Lesson::title)
                .collect()
        })
    })
}

/// Each waiting list, `16:00 Beginners (Dan): Eli, Fay`.
pub fn waiting_lists(pool: &Mvu<Pool, Msg>) -> Memo<Vec<String>> {
    pool.select(|pool| {
        pool.lessons
            .iter()
            .filter(|lesson| !lesson.waiting.is_empty())
            .map(|lesson| format!("{}: {}", lesson.title(), lesson.waiting.join(", ")))
            .collect()
    })
}

/// Copies of the timetable's code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Lesson;
    use super::{Places, Timetable};
    use ranvier::collection::{Filter, Row};
    use ranvier::{Memo, node};

    /// [`super::lesson_row`].
    #[node]
    pub fn lesson_row(row: &Row<u32, Lesson>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let places = Memo::new(move |_| {
            row.with(|lesson| {
                let places = Places {
                    // BUG(places_left)
                    left: lesson.capacity.saturating_sub(lesson.waiting.len()),
                    waiting: lesson.waiting.len(),
                };
                let mut line = format!("{}: ", lesson.title());
                match places.left {
                    0 => line.push_str("full"),
                    1 => line.push_str("1 place left"),
                    n => line.push_str(&format!("{n} places left")),
                }
                if places.waiting > 0 {
                    line.push_str(&format!(", {} waiting", places.waiting));
                }
                line
            })
        });
        ("places", places)
    }

    /// [`super::open_for_enrolment`].
    pub fn open_for_enrolment(timetable: &Timetable) -> Filter<u32> {
        // BUG(open_lessons)
        timetable.filter(|lesson| lesson.is_full())
    }
}
