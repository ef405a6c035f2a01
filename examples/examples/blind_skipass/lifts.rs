//! The lift board: the lifts as a keyed collection (one row per lift, each with its wait in minutes), and the views
//! the boards at the bottom station show.

use super::model::{Lift, LiftState, Msg, Resort};
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, Mvu, node};
use std::cmp::Reverse;

/// The lifts, keyed by id; each row's own figure is its wait in minutes (`None` while it is stopped).
pub type Lifts = Collection<u32, Lift, (&'static str, Memo<Option<u32>>)>;

/// A row factory of [`Lifts`].
pub type LiftRow = fn(&Row<u32, Lift>) -> (&'static str, Memo<Option<u32>>);

/// How many lifts the "busiest" board shows.
pub const BUSIEST: usize = 3;

/// The lifts of `resort`, with the row factory `row`.
#[node]
pub fn lifts(resort: &Mvu<Resort, Msg>, row: LiftRow) -> Lifts {
    Collection::keyed(
        resort.select(|resort| resort.lifts.clone()),
        |lift: &Lift| lift.id,
        row,
    )
}

/// A lift's row: how long its line takes, in minutes, rounded up.
#[node]
pub fn lift_row(row: &Row<u32, Lift>) -> (&'static str, Memo<Option<u32>>) {
    let row = row.clone();
    let wait = Memo::new(move |_| {
        row.with(|lift| {
            if lift.state != LiftState::Open {
                return None;
            }
            let per_minute = lift.per_minute().max(1);
            Some(lift.queue.div_ceil(per_minute))
        })
    });
    ("wait", wait)
}

/// Every lift, in the resort's order, with its wait or why it is stopped.
#[node]
pub fn board(lifts: &Lifts) -> Memo<Vec<String>> {
    let lifts = lifts.clone();
    Memo::new(move |_| {
        let mut lines = Vec::new();
        lifts.for_each(|_, lift, (_, wait)| {
            let shown = match (lift.state, wait.get()) {
                (LiftState::Wind, _) => "closed (wind)".to_owned(),
                (LiftState::Maintenance, _) => "closed (maintenance)".to_owned(),
                (LiftState::Open, Some(0) | None) => "no wait".to_owned(),
                (LiftState::Open, Some(minutes)) => format!("{minutes} min"),
            };
            lines.push(format!("{}: {shown}", lift.name));
        });
        lines
    })
}

/// The three lifts with the longest lines.
#[node]
pub fn busiest(lifts: &Lifts) -> Memo<Vec<String>> {
    let order = lifts.sort_by(|lift| Reverse(lift.queue));
    let lifts = lifts.clone();
    Memo::new(move |_| {
        let items = lifts.items();
        order
            .get()
            .iter()
            .take(BUSIEST)
            .filter_map(|id| items.iter().find(|lift| lift.id == *id))
            .map(|lift| format!("{}: {} waiting", lift.name, lift.queue))
            .collect::<Vec<_>>()
    })
}

/// How many lifts run, and how many the wind stopped.
#[node]
pub fn status(lifts: &Lifts) -> Memo<String> {
    let open = lifts.filter(|lift| lift.state == LiftState::Open);
    let windy = lifts.count_by(|lift| lift.state == LiftState::Wind);
    let lifts = lifts.clone();
    Memo::new(move |_| {
        let total = lifts.len();
        let running = open.count().get();
        match windy.get() {
            0 => format!("{running} of {total} lifts running"),
            stopped => format!("{running} of {total} lifts running, {stopped} stopped by the wind"),
        }
    })
}

/// The board's row factory and views with a mistake each.
pub mod slipped {
    use super::super::model::{Lift, LiftState};
    use super::{BUSIEST, Lifts};
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::cmp::Reverse;

    /// [`super::lift_row`], with a mistake.
    #[node]
    pub fn lift_row(row: &Row<u32, Lift>) -> (&'static str, Memo<Option<u32>>) {
        let row = row.clone();
        let wait = Memo::new(move |_| {
            row.with(|lift| {
                if lift.state != LiftState::Open {
                    return None;
                }
                // BUG(wait_per_hour)
                let per_minute = lift.per_hour.max(1);
                Some(lift.queue.div_ceil(per_minute))
            })
        });
        ("wait", wait)
    }

    /// [`super::busiest`], with a mistake.
    #[node]
    pub fn busiest(lifts: &Lifts) -> Memo<Vec<String>> {
        // BUG(busiest_by_rides)
        let order = lifts.sort_by(|lift| Reverse(lift.rides));
        let lifts = lifts.clone();
        Memo::new(move |_| {
            let items = lifts.items();
            order
                .get()
                .iter()
                .take(BUSIEST)
                .filter_map(|id| items.iter().find(|lift| lift.id == *id))
                .map(|lift| format!("{}: {} waiting", lift.name, lift.queue))
                .collect::<Vec<_>>()
        })
    }
}
