//! The gradebook as a keyed collection (`ranvier::collection`): one row per pupil, each row with its term percentage
//! as a row memo, and views over the rows: the class list's order, the pupils with no marks yet, the pupils whose
//! absences without leave put them on the attendance watch, and the term reports.

use std::collections::BTreeMap;
use std::rc::Rc;

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::attendance;
use super::graph::Slip;
use super::marks;
use super::model::{Msg, Rules, Term};

/// One row of the gradebook.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct PupilRow {
    /// The pupil's name.
    pub name: String,
    /// Their form.
    pub form: String,
    /// Their marks: the marks that count (after any late penalty), the marks the work is out of, its weight.
    pub marks: Vec<(u32, u32, u32)>,
    /// Half-days missed.
    pub absences: u32,
    /// Half-days missed without leave.
    pub unauthorised: u32,
}

/// The gradebook's rows, in the order the pupils enrolled.
pub fn rows_of(term: &Term) -> Vec<PupilRow> {
    term.pupils
        .iter()
        .map(|pupil| {
            let marks = term
                .marks
                .iter()
                .filter(|m| m.pupil == pupil.name)
                .filter_map(|m| {
                    let work = term.assignment(m.assignment)?;
                    Some((m.scored, work.max, work.weight))
                })
                .collect();
            let (absences, unauthorised) =
                attendance::missed(&term.absences, &pupil.name, attendance::excused);
            PupilRow {
                name: pupil.name.clone(),
                form: pupil.form.clone(),
                marks,
                absences,
                unauthorised,
            }
        })
        .collect()
}

/// The gradebook and its views.
pub struct Gradebook {
    /// One row per pupil; its memo is the pupil's term percentage (`None` without marks).
    pub pupils: Collection<String, PupilRow, Memo<Option<u32>>>,
    /// Pupils with no mark yet.
    pub no_marks: Memo<usize>,
    /// The pupils on the attendance watch, in the order enrolled.
    pub watch: Memo<Vec<String>>,
    /// The term reports, form by form, each with the pupil's percentage and grade band.
    pub reports: Memo<Vec<String>>,
}

/// The gradebook over `term`'s pupils, as `slip` says.
#[node]
pub fn gradebook(term: &Mvu<Term, Msg>, slip: Slip) -> Gradebook {
    let rows = term.select(rows_of);
    let pupils = match slip {
        Slip::RowAverage => {
            Collection::keyed(rows, |row: &PupilRow| row.name.clone(), slipped::average)
        }
        _ => Collection::keyed(rows, |row: &PupilRow| row.name.clone(), average),
    };
    let no_marks = pupils.count_by(|row| row.marks.is_empty());
    let alert = Rules::default().absence_alert;
    let watch = match slip {
        Slip::WatchAllAbsences => slipped::watch(&pupils, alert),
        _ => watch(&pupils, alert),
    };
    let order = class_order(&pupils);
    let band = match slip {
        Slip::BandBoundary => marks::slipped::band,
        _ => marks::band,
    };
    let reports = reports(&pupils, order, band);
    Gradebook {
        pupils,
        no_marks,
        watch,
        reports,
    }
}

/// A pupil's term percentage: each mark as a percentage of what the work is out of, weighted by the work's weight
/// (rounded down); `None` before the first mark.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn average(row: &Row<String, PupilRow>) -> Memo<Option<u32>> {
    let row = row.clone();
    let average = Memo::new(move |_| {
        row.with(|pupil| {
            let mut total = 0;
            let mut weights = 0;
            for &(scored, max, weight) in &pupil.marks {
                total += marks::percent(scored, max) * weight;
                weights += weight;
            }
            if weights == 0 {
                return None;
            }
            Some(total / weights)
        })
    });
    average
}

/// The names of the pupils whose half-days missed without leave reached `alert`, in the order they enrolled.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn watch(
    pupils: &Collection<String, PupilRow, Memo<Option<u32>>>,
    alert: u32,
) -> Memo<Vec<String>> {
    let on_watch = pupils.filter(move |row| row.unauthorised >= alert);
    let keys = on_watch.keys();
    let watch = Memo::new(move |_| keys.get().to_vec());
    watch
}

/// The class list's order: form by form, by name within a form.
pub fn class_order(pupils: &Collection<String, PupilRow, Memo<Option<u32>>>) -> Memo<Rc<[String]>> {
    pupils.sort_by(|row| (row.form.clone(), row.name.clone()))
}

/// The term reports, in `order`: each pupil's form, name, term percentage and grade band (`band`), or that they have
/// no marks yet.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn reports(
    pupils: &Collection<String, PupilRow, Memo<Option<u32>>>,
    order: Memo<Rc<[String]>>,
    band: fn(u32) -> &'static str,
) -> Memo<Vec<String>> {
    let pupils = pupils.clone();
    let reports = Memo::new(move |_| {
        let order = order.get();
        let mut lines = BTreeMap::new();
        pupils.for_each(|name, pupil, average| {
            let line = match average.get() {
                Some(percent) => format!("{} {name}: {percent}% {}", pupil.form, band(percent)),
                None => format!("{} {name}: no marks yet", pupil.form),
            };
            lines.insert(name.clone(), line);
        });
        order
            .iter()
            .filter_map(|name| lines.remove(name))
            .collect::<Vec<_>>()
    });
    reports
}

/// The gradebook with a mistake.
mod slipped {
    use ranvier::collection::{Collection, Row};
    use ranvier::{Memo, node};

    use super::super::marks;
    use super::PupilRow;

    /// A pupil's term percentage.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn average(row: &Row<String, PupilRow>) -> Memo<Option<u32>> {
        let row = row.clone();
        let average = Memo::new(move |_| {
            row.with(|pupil| {
                let mut total = 0;
                let mut weights = 0;
                for &(scored, max, weight) in &pupil.marks {
                    total += marks::percent(scored, max) * weight;
                    // BUG(row_average)
                    weights += max;
                }
                if weights == 0 {
                    return None;
                }
                Some(total / weights)
            })
        });
        average
    }

    /// The pupils on the attendance watch.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn watch(
        pupils: &Collection<String, PupilRow, Memo<Option<u32>>>,
        alert: u32,
    ) -> Memo<Vec<String>> {
        // BUG(watch_all_absences)
        let on_watch = pupils.filter(move |row| row.absences >= alert);
        let keys = on_watch.keys();
        let watch = Memo::new(move |_| keys.get().to_vec());
        watch
    }
}
