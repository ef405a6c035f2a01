//! The week's performances as a keyed collection: one row per performance with its seats left, and the views the
//! box office reads (the performances in date order, those still on sale, how many are sold out).

use super::model::{Performance, Section};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The performances, keyed by id; each row has its line of seats left.
pub type Week = Collection<u32, Performance, (&'static str, Memo<String>)>;

/// What a row factory makes.
pub type RowFactory = fn(&Row<u32, Performance>) -> (&'static str, Memo<String>);

/// What orders the performances.
pub type Order = fn(&Week) -> Memo<Rc<[u32]>>;

/// The week over the box office's performances, each row made by `row`.
pub fn week(performances: &Memo<Vec<Performance>>, row: RowFactory) -> Week {
    Collection::keyed(performances.clone(), |perf: &Performance| perf.id, row)
}

/// A performance's row: `Tue 19:30 Private Lives: stalls 38, circle 24, boxes 8 left`, or `sold out, 3 waiting`.
#[node]
pub fn seats_row(row: &Row<u32, Performance>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let seats_left = Memo::new(move |_| {
        row.with(|perf| {
            let mut left = Vec::new();
            let mut total = 0;
            for section in Section::ALL {
                let i = section.index();
                let free = section
                    .capacity()
                    .saturating_sub(perf.sold[i] + perf.held[i]);
                total += free;
                left.push(format!("{} {free}", section.name()));
            }
            let mut line = format!("{}: ", perf.title());
            if total == 0 {
                line.push_str("sold out");
            } else {
                line.push_str(&format!("{} left", left.join(", ")));
            }
            if !perf.waiting.is_empty() {
                line.push_str(&format!(", {} waiting", perf.waiting.len()));
            }
            line
        })
    });
    ("seats_left", seats_left)
}

/// The performances by curtain up.
pub fn by_date(week: &Week) -> Memo<Rc<[u32]>> {
    week.sort_by(|perf| (perf.day, perf.at))
}

/// The performances with a seat left.
pub fn on_sale(week: &Week) -> Filter<u32> {
    week.filter(|perf| !perf.is_sold_out())
}

/// How many performances are sold out.
pub fn sold_out(week: &Week) -> Memo<usize> {
    week.count_by(Performance::is_sold_out)
}

/// The rows' lines, in `order`.
pub fn programme(week: &Week, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (week, order) = (week.clone(), order.clone());
    Memo::new(move |_| {
        order
            .get()
            .iter()
            .filter_map(|id| week.row(id))
            .map(|(_, seats_left)| seats_left.get())
            .collect()
    })
}

/// The titles of the performances `keys` names, in `order`.
pub fn titles(
    performances: &Memo<Vec<Performance>>,
    order: &Memo<Rc<[u32]>>,
    keys: &Memo<Rc<[u32]>>,
) -> Memo<Vec<String>> {
    let (performances, order, keys) = (performances.clone(), order.clone(), keys.clone());
    Memo::new(move |_| {
        let keys = keys.get();
        let order = order.get();
        performances.with(|performances| {
            order
                .iter()
                .filter(|id| keys.contains(id))
                .filter_map(|id| performances.iter().find(|p| p.id == *id))
                .map(Performance::title)
                .collect()
        })
    })
}

/// Copies of the collection's code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Performance, Section};
    use super::Week;
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::rc::Rc;

    /// [`super::seats_row`].
    #[node]
    pub fn seats_row(row: &Row<u32, Performance>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let seats_left = Memo::new(move |_| {
            row.with(|perf| {
                let mut left = Vec::new();
                let mut total = 0;
                for section in Section::ALL {
                    let i = section.index();
                    // BUG(held_seats)
                    let free = section.capacity().saturating_sub(perf.sold[i]);
                    total += free;
                    left.push(format!("{} {free}", section.name()));
                }
                let mut line = format!("{}: ", perf.title());
                if total == 0 {
                    line.push_str("sold out");
                } else {
                    line.push_str(&format!("{} left", left.join(", ")));
                }
                if !perf.waiting.is_empty() {
                    line.push_str(&format!(", {} waiting", perf.waiting.len()));
                }
                line
            })
        });
        ("seats_left", seats_left)
    }

    /// [`super::by_date`].
    pub fn by_date(week: &Week) -> Memo<Rc<[u32]>> {
        // BUG(date_order)
        week.sort_by(|perf| (perf.at, perf.day))
    }
}
