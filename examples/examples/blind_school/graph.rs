//! The school as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the office's `Mvu` with the
//! term's assignments set as initial commands, the office's lists (the letters home, the work missing, the forms'
//! averages, the attendance), the gradebook and the services.

use std::collections::BTreeMap;

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::attendance;
use super::gradebook::{self, PupilRow};
use super::marks;
use super::model::{Msg, Term};
use super::services;
use super::update;

/// Which mistake the school runs with (`None`: the correct school).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct school.
    None,
    /// How late a piece of work is.
    LateDaysSwapped,
    /// The grade bands.
    BandBoundary,
    /// A letter to a form's parents.
    MessageOtherForms,
    /// A corrected mark.
    CorrectNoPenalty,
    /// Which absences are authorised.
    HolidayExcused,
    /// How long a pupil has been on the roll.
    DaysOnRoll,
    /// The work missing.
    MissingAnyWork,
    /// The forms' averages.
    FormAverageAll,
    /// A pupil's term percentage.
    RowAverage,
    /// The attendance watch.
    WatchAllAbsences,
    /// The exam board's grades.
    BoundaryUnit,
    /// Whether the parents read the letters.
    LetterReadSwapped,
}

/// What an agent may see and send.
#[expose]
pub struct SchoolOffice {
    /// The school office: its messages.
    #[expose(messages)]
    pub term: Mvu<Term, Msg>,
    /// Today, as the school day of the term.
    #[expose]
    pub today: Memo<u32>,
    /// The letters sent home.
    #[expose]
    #[node]
    pub letters: Memo<Vec<String>>,
    /// What the office was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// For each assignment past its due day, the pupils who have not handed it in.
    #[expose]
    #[node]
    pub missing: Memo<Vec<String>>,
    /// Each form's size and the average of its pupils' term percentages.
    #[expose]
    #[node]
    pub form_averages: Memo<Vec<String>>,
    /// Each pupil's attendance.
    #[expose]
    #[node]
    pub attendance: Memo<Vec<String>>,
    /// The gradebook, one row per pupil.
    #[expose]
    #[node]
    pub pupils: Collection<String, PupilRow, Memo<Option<u32>>>,
    /// Pupils with no mark yet.
    #[expose]
    #[node]
    pub no_marks: Memo<usize>,
    /// The pupils on the attendance watch.
    #[expose]
    #[node]
    pub watch: Memo<Vec<String>>,
    /// The term reports.
    #[expose]
    #[node]
    pub reports: Memo<Vec<String>>,
    /// The grade the exam board's boundaries give each pupil in each subject.
    #[expose]
    #[node]
    pub predicted: AsyncMemo<Vec<String>>,
    /// Whether the parents have read each letter on the parents' portal.
    #[expose]
    #[node]
    pub portal: AsyncMemo<Vec<String>>,
}

/// An assignment of the term: number, title, subject, weight, out of, due day.
pub type WorkSpec = (u32, &'static str, &'static str, u32, u32, u32);

/// The term's assignments.
pub const WORK: [WorkSpec; 4] = [
    (1, "Algebra homework", "Maths", 1, 10, 2),
    (2, "Fractions test", "Maths", 2, 40, 3),
    (3, "Essay", "English", 1, 20, 4),
    (4, "Lab report", "Science", 1, 30, 5),
];

/// Builds the school as `slip` says: it sets the term's assignments (initial commands), then its memos.
#[node]
pub fn school_office(slip: Slip) -> SchoolOffice {
    let update = match slip {
        Slip::LateDaysSwapped => update::slipped::update_late,
        Slip::HolidayExcused => update::slipped::update_absent,
        Slip::CorrectNoPenalty => update::slipped::update_correct,
        Slip::MessageOtherForms => update::slipped::update_message,
        _ => update::update,
    };
    let open: Vec<Msg> = WORK
        .iter()
        .map(|&(id, title, subject, weight, max, due)| Msg::SetWork {
            id,
            title: title.to_owned(),
            subject: subject.to_owned(),
            weight,
            max,
            due,
        })
        .collect();
    let term = Mvu::with_commands((Term::default(), open), update);
    let today = term.select(|term| term.day);
    let letters = term.select(|term| {
        term.letters
            .iter()
            .map(|l| format!("{} ({}), day {}: {}", l.to, l.pupil, l.day, l.text))
            .collect::<Vec<_>>()
    });
    let notices = term.select(|term| term.notices.clone());
    let missing = match slip {
        Slip::MissingAnyWork => slipped::missing(&term),
        _ => missing(&term),
    };
    let form_averages = match slip {
        Slip::FormAverageAll => slipped::form_averages(&term),
        _ => form_averages(&term),
    };
    let on_roll = match slip {
        Slip::DaysOnRoll => attendance::slipped::days_on_roll,
        _ => attendance::days_on_roll,
    };
    let attendance = attendance(&term, on_roll);
    let book = gradebook::gradebook(&term, slip);
    let remote = services::services(&term, slip);
    SchoolOffice {
        term,
        today,
        letters,
        notices,
        missing,
        form_averages,
        attendance,
        pupils: book.pupils,
        no_marks: book.no_marks,
        watch: book.watch,
        reports: book.reports,
        predicted: remote.predicted,
        portal: remote.portal,
    }
}

/// For each assignment whose due day has passed (in the order they fell due), the pupils on the roll by then who
/// have not handed it in, in the order they enrolled.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn missing(term: &Mvu<Term, Msg>) -> Memo<Vec<String>> {
    let today = term.select(|term| term.day);
    let assignments = term.select(|term| term.assignments.clone());
    let pupils = term.select(|term| term.pupils.clone());
    let marks = term.select(|term| term.marks.clone());
    let missing = Memo::new(move |_| {
        let today = today.get();
        let mut assignments = assignments.get();
        let pupils = pupils.get();
        let marks = marks.get();
        assignments.sort_by_key(|work| (work.due, work.id));
        let mut lines = Vec::new();
        for work in assignments.iter().filter(|work| work.due < today) {
            let handed_in = |pupil: &str| {
                marks
                    .iter()
                    .any(|m| m.pupil == pupil && m.assignment == work.id)
            };
            let names: Vec<&str> = pupils
                .iter()
                .filter(|p| p.joined <= work.due && !handed_in(&p.name))
                .map(|p| p.name.as_str())
                .collect();
            if names.is_empty() {
                continue;
            }
            lines.push(format!(
                "{} ({}, due day {}): {}",
                work.title,
                work.subject,
                work.due,
                names.join(", ")
            ));
        }
        lines
    });
    missing
}

/// Each form, by name: how many pupils it has, and the average term percentage of those with marks.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn form_averages(term: &Mvu<Term, Msg>) -> Memo<Vec<String>> {
    let pupils = term.select(|term| term.pupils.clone());
    let assignments = term.select(|term| term.assignments.clone());
    let marks = term.select(|term| term.marks.clone());
    let form_averages = Memo::new(move |_| {
        let pupils = pupils.get();
        let assignments = assignments.get();
        let marks = marks.get();
        let mut forms: BTreeMap<&str, (u32, u32, u32)> = BTreeMap::new();
        for pupil in pupils.iter() {
            let (size, marked, total) = forms.entry(pupil.form.as_str()).or_insert((0, 0, 0));
            *size += 1;
            let of_pupil: Vec<(u32, u32, u32)> = marks
                .iter()
                .filter(|m| m.pupil == pupil.name)
                .filter_map(|m| {
                    let work = assignments.iter().find(|a| a.id == m.assignment)?;
                    Some((m.scored, work.max, work.weight))
                })
                .collect();
            if let Some(percent) = marks::term_percent(&of_pupil) {
                *marked += 1;
                *total += percent;
            }
        }
        forms
            .into_iter()
            .map(|(form, (size, marked, total))| {
                if marked == 0 {
                    return format!("{form}: {size} on the roll, no marks yet");
                }
                let mean = total / marked;
                format!("{form}: {size} on the roll, average {mean}%")
            })
            .collect::<Vec<_>>()
    });
    form_averages
}

/// Each pupil's attendance, in the order enrolled: the percentage of the sessions since they joined (`on_roll` says
/// how many days that is) that they came to, the half-days missed, and how many of those were without leave.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn attendance(term: &Mvu<Term, Msg>, on_roll: fn(u32, u32) -> u32) -> Memo<Vec<String>> {
    let today = term.select(|term| term.day);
    let pupils = term.select(|term| term.pupils.clone());
    let absences = term.select(|term| term.absences.clone());
    let attendance = Memo::new(move |_| {
        let today = today.get();
        let pupils = pupils.get();
        let absences = absences.get();
        let mut lines = Vec::new();
        for pupil in pupils.iter() {
            let days = on_roll(pupil.joined, today);
            let sessions = attendance::sessions(days);
            let (missed, unauthorised) =
                attendance::missed(&absences, &pupil.name, attendance::excused);
            let percent = attendance::attendance_percent(missed, sessions);
            lines.push(format!(
                "{} ({}): {percent}%, missed {missed} of {sessions} half-days ({unauthorised} unauthorised)",
                pupil.name, pupil.form
            ));
        }
        lines
    });
    attendance
}

/// The office's lists with a mistake.
mod slipped {
    use std::collections::BTreeMap;

    use ranvier::{Memo, Mvu, node};

    use super::super::marks;
    use super::super::model::{Msg, Term};

    /// The work missing.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn missing(term: &Mvu<Term, Msg>) -> Memo<Vec<String>> {
        let today = term.select(|term| term.day);
        let assignments = term.select(|term| term.assignments.clone());
        let pupils = term.select(|term| term.pupils.clone());
        let marks = term.select(|term| term.marks.clone());
        let missing = Memo::new(move |_| {
            let today = today.get();
            let mut assignments = assignments.get();
            let pupils = pupils.get();
            let marks = marks.get();
            assignments.sort_by_key(|work| (work.due, work.id));
            let mut lines = Vec::new();
            for work in assignments.iter().filter(|work| work.due < today) {
                // BUG(missing_any_work)
                let handed_in = |pupil: &str| marks.iter().any(|m| m.pupil == pupil);
                let names: Vec<&str> = pupils
                    .iter()
                    .filter(|p| p.joined <= work.due && !handed_in(&p.name))
                    .map(|p| p.name.as_str())
                    .collect();
                if names.is_empty() {
                    continue;
                }
                lines.push(format!(
                    "{} ({}, due day {}): {}",
                    work.title,
                    work.subject,
                    work.due,
                    names.join(", ")
                ));
            }
            lines
        });
        missing
    }

    /// Each form's size and average.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn form_averages(term: &Mvu<Term, Msg>) -> Memo<Vec<String>> {
        let pupils = term.select(|term| term.pupils.clone());
        let assignments = term.select(|term| term.assignments.clone());
        let marks = term.select(|term| term.marks.clone());
        let form_averages = Memo::new(move |_| {
            let pupils = pupils.get();
            let assignments = assignments.get();
            let marks = marks.get();
            let mut forms: BTreeMap<&str, (u32, u32, u32)> = BTreeMap::new();
            for pupil in pupils.iter() {
                let (size, marked, total) = forms.entry(pupil.form.as_str()).or_insert((0, 0, 0));
                *size += 1;
                let of_pupil: Vec<(u32, u32, u32)> = marks
                    .iter()
                    .filter(|m| m.pupil == pupil.name)
                    .filter_map(|m| {
                        let work = assignments.iter().find(|a| a.id == m.assignment)?;
                        Some((m.scored, work.max, work.weight))
                    })
                    .collect();
                if let Some(percent) = marks::term_percent(&of_pupil) {
                    *marked += 1;
                    *total += percent;
                }
            }
            forms
                .into_iter()
                .map(|(form, (size, marked, total))| {
                    if marked == 0 {
                        return format!("{form}: {size} on the roll, no marks yet");
                    }
                    // BUG(form_average_all)
                    let mean = total / size;
                    format!("{form}: {size} on the roll, average {mean}%")
                })
                .collect::<Vec<_>>()
        });
        form_averages
    }
}
