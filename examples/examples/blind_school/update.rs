//! The school office's `update`: what each message does to the term, and the letters home and notices it sends on
//! (as commands).

use super::attendance;
use super::marks;
use super::model::{Absence, Assignment, Letter, Mark, Msg, Pupil, Reason, Term};

/// How many school days late a piece of work is (see [`marks::days_late`]).
pub type DaysLate = fn(u32, u32) -> u32;

/// Whether an absence for a reason is authorised (see [`attendance::excused`]).
pub type Excused = fn(Reason) -> bool;

/// The next term, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, term: &Term) -> (Term, Vec<Msg>) {
    let mut next = term.clone();
    let commands = match msg {
        Msg::SetWork {
            id,
            title,
            subject,
            weight,
            max,
            due,
        } => set_work(
            &mut next,
            Assignment {
                id,
                title,
                subject,
                weight,
                max,
                due,
            },
        ),
        Msg::Enrol {
            pupil,
            form,
            parent,
        } => enrol(&mut next, pupil, form, parent),
        Msg::Mark {
            pupil,
            assignment,
            points,
        } => mark(&mut next, &pupil, assignment, points, marks::days_late),
        Msg::Correct {
            pupil,
            assignment,
            points,
        } => correct(&mut next, &pupil, assignment, points),
        Msg::Absent {
            pupil,
            half_days,
            reason,
        } => absent(&mut next, &pupil, half_days, &reason, attendance::excused),
        Msg::NextDay { days } => {
            next.day += days;
            Vec::new()
        }
        Msg::MessageParents { form, text } => message_parents(&next, &form, &text),
        Msg::Letter { to, pupil, text } => {
            let day = next.day;
            next.letters.push(Letter {
                to,
                pupil,
                day,
                text,
            });
            Vec::new()
        }
        Msg::Notify { text } => {
            next.notices.push(text);
            Vec::new()
        }
    };
    (next, commands)
}

/// One notice, as the only command.
#[ranvier::trace_fn]
pub fn notify(text: String) -> Vec<Msg> {
    vec![Msg::Notify { text }]
}

/// An assignment is set (once per number).
#[ranvier::trace_fn]
pub fn set_work(term: &mut Term, work: Assignment) -> Vec<Msg> {
    if term.assignment(work.id).is_some() {
        return notify(format!("assignment {} is already set", work.id));
    }
    term.assignments.push(work);
    Vec::new()
}

/// A pupil joins a form today.
#[ranvier::trace_fn]
pub fn enrol(term: &mut Term, name: String, form: String, parent: String) -> Vec<Msg> {
    if term.pupil(&name).is_some() {
        return notify(format!("{name} is already on the roll"));
    }
    if form.is_empty() || parent.is_empty() {
        return notify(format!("{name}: a form and a parent are needed"));
    }
    let text = format!("{name} joined {form}");
    term.pupils.push(Pupil {
        name,
        form,
        parent,
        joined: term.day,
    });
    notify(text)
}

/// A pupil hands in an assignment today and the teacher marks it: work handed in after its due day loses the late
/// penalty for each day (`late` says how many), and a mark is entered once (a second goes through `correct`).
#[ranvier::trace_fn]
pub fn mark(term: &mut Term, pupil: &str, id: u32, points: u32, late: DaysLate) -> Vec<Msg> {
    if term.pupil(pupil).is_none() {
        return notify(format!("{pupil} is not on the roll"));
    }
    let Some(work) = term.assignment(id).cloned() else {
        return notify(format!("no assignment {id}"));
    };
    if points > work.max {
        return notify(format!("{pupil}: {points} is more than {} marks", work.max));
    }
    if term
        .marks
        .iter()
        .any(|m| m.pupil == pupil && m.assignment == id)
    {
        return notify(format!("{pupil} already has a mark for {}", work.title));
    }
    let days_late = late(work.due, term.day);
    let scored = marks::after_penalty(points, days_late, &term.rules);
    term.marks.push(Mark {
        pupil: pupil.to_owned(),
        assignment: id,
        points,
        days_late,
        scored,
        corrections: 0,
    });
    if days_late > 0 {
        notify(format!(
            "{pupil}: {} handed in {days_late} day(s) late, {points} → {scored}",
            work.title
        ))
    } else {
        Vec::new()
    }
}

/// The teacher corrects a mark: the new marks, with the late penalty the work had.
#[ranvier::trace_fn]
pub fn correct(term: &mut Term, pupil: &str, id: u32, points: u32) -> Vec<Msg> {
    let rules = term.rules.clone();
    let Some(work) = term.assignment(id).cloned() else {
        return notify(format!("no assignment {id}"));
    };
    if points > work.max {
        return notify(format!("{pupil}: {points} is more than {} marks", work.max));
    }
    let Some(mark) = term
        .marks
        .iter_mut()
        .find(|m| m.pupil == pupil && m.assignment == id)
    else {
        return notify(format!("{pupil} has no mark for {}", work.title));
    };
    mark.points = points;
    mark.scored = marks::after_penalty(points, mark.days_late, &rules);
    mark.corrections += 1;
    notify(format!("{pupil}: {} corrected to {points}", work.title))
}

/// A pupil misses sessions today; when their half-days missed without leave reach the term's alert, the school
/// writes home (a `Letter` command).
#[ranvier::trace_fn]
pub fn absent(
    term: &mut Term,
    pupil: &str,
    half_days: u32,
    reason: &str,
    excused: Excused,
) -> Vec<Msg> {
    let Some(reason) = Reason::parse(reason) else {
        return notify(format!("{pupil}: no reason {reason:?}"));
    };
    let Some(parent) = term.pupil(pupil).map(|p| p.parent.clone()) else {
        return notify(format!("{pupil} is not on the roll"));
    };
    let (_, before) = attendance::missed(&term.absences, pupil, excused);
    term.absences.push(Absence {
        pupil: pupil.to_owned(),
        day: term.day,
        half_days,
        reason,
    });
    let (_, after) = attendance::missed(&term.absences, pupil, excused);
    let alert = term.rules.absence_alert;
    if before < alert && after >= alert {
        return vec![Msg::Letter {
            to: parent,
            pupil: pupil.to_owned(),
            text: format!("{pupil} has missed {after} half-days without leave this term"),
        }];
    }
    Vec::new()
}

/// A letter to the parents of every pupil in a form (as commands), in the order the pupils enrolled.
#[ranvier::trace_fn]
pub fn message_parents(term: &Term, form: &str, text: &str) -> Vec<Msg> {
    let letters: Vec<Msg> = term
        .pupils
        .iter()
        .filter(|p| p.form == form)
        .map(|p| Msg::Letter {
            to: p.parent.clone(),
            pupil: p.name.clone(),
            text: text.to_owned(),
        })
        .collect();
    if letters.is_empty() {
        return notify(format!("nobody in {form}"));
    }
    letters
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::attendance;
    use super::super::marks;
    use super::super::model::{Msg, Term};
    use super::{absent, mark, notify, update};

    /// `update`, marking with the first lateness rule.
    #[ranvier::trace_fn]
    pub fn update_late(msg: Msg, term: &Term) -> (Term, Vec<Msg>) {
        match msg {
            Msg::Mark {
                pupil,
                assignment,
                points,
            } => {
                let mut next = term.clone();
                let commands = mark(
                    &mut next,
                    &pupil,
                    assignment,
                    points,
                    marks::slipped::days_late,
                );
                (next, commands)
            }
            other => update(other, term),
        }
    }

    /// `update`, recording absences with the first rule for what is authorised.
    #[ranvier::trace_fn]
    pub fn update_absent(msg: Msg, term: &Term) -> (Term, Vec<Msg>) {
        match msg {
            Msg::Absent {
                pupil,
                half_days,
                reason,
            } => {
                let mut next = term.clone();
                let commands = absent(
                    &mut next,
                    &pupil,
                    half_days,
                    &reason,
                    attendance::slipped::excused,
                );
                (next, commands)
            }
            other => update(other, term),
        }
    }

    /// `update`, with the first correction.
    #[ranvier::trace_fn]
    pub fn update_correct(msg: Msg, term: &Term) -> (Term, Vec<Msg>) {
        match msg {
            Msg::Correct {
                pupil,
                assignment,
                points,
            } => {
                let mut next = term.clone();
                let commands = correct(&mut next, &pupil, assignment, points);
                (next, commands)
            }
            other => update(other, term),
        }
    }

    /// `update`, with the first letter to a form's parents.
    #[ranvier::trace_fn]
    pub fn update_message(msg: Msg, term: &Term) -> (Term, Vec<Msg>) {
        match msg {
            Msg::MessageParents { form, text } => {
                let commands = message_parents(term, &form, &text);
                (term.clone(), commands)
            }
            other => update(other, term),
        }
    }

    #[ranvier::trace_fn]
    fn correct(term: &mut Term, pupil: &str, id: u32, points: u32) -> Vec<Msg> {
        let Some(work) = term.assignment(id).cloned() else {
            return notify(format!("no assignment {id}"));
        };
        if points > work.max {
            return notify(format!("{pupil}: {points} is more than {} marks", work.max));
        }
        let Some(mark) = term
            .marks
            .iter_mut()
            .find(|m| m.pupil == pupil && m.assignment == id)
        else {
            return notify(format!("{pupil} has no mark for {}", work.title));
        };
        mark.points = points;
        // BUG(correct_no_penalty)
        mark.scored = points;
        mark.corrections += 1;
        notify(format!("{pupil}: {} corrected to {points}", work.title))
    }

    #[ranvier::trace_fn]
    fn message_parents(term: &Term, form: &str, text: &str) -> Vec<Msg> {
        let letters: Vec<Msg> = term
            .pupils
            .iter()
            // BUG(message_other_forms)
            .filter(|p| p.form != form)
            .map(|p| Msg::Letter {
                to: p.parent.clone(),
                pupil: p.name.clone(),
                text: text.to_owned(),
            })
            .collect();
        if letters.is_empty() {
            return notify(format!("nobody in {form}"));
        }
        letters
    }
}
