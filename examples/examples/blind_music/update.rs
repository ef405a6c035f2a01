//! `update`, Elmish: the next school and the follow-up messages (a credit or a charge for a cancelled lesson, a
//! deposit paid back), with its helpers.

use super::fees::Price;
use super::model::{Hire, Msg, Pupil, School};

/// A cancellation rule: the follow-up message for a lesson of `pupil` cancelled with `hours_notice`.
pub type Cancellation = fn(&Pupil, u32, u32, Price) -> Msg;

/// The next school after `msg`, and the messages it sends on. A message naming nobody changes nothing.
#[ranvier::trace_fn]
pub fn update(
    msg: Msg,
    school: &School,
    price: Price,
    cancellation: Cancellation,
) -> (School, Vec<Msg>) {
    let mut next = school.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Enrol {
            name,
            family,
            instrument,
            teacher,
            minutes,
            bursary,
            grade,
        } => {
            if let Some(pupil) = new_pupil(&next, name, family, instrument, teacher, minutes) {
                next.pupils.push(Pupil {
                    bursary,
                    grade: grade.min(8),
                    ..pupil
                });
            }
        }
        Msg::Lesson { name } => {
            if let Some(pupil) = next.pupil_mut(&name) {
                pupil.lessons += 1;
            }
        }
        Msg::Practice { name, days } => {
            if let Some(pupil) = next.pupil_mut(&name) {
                pupil.practice += days;
            }
        }
        Msg::Cancel { name, hours_notice } => {
            if let Some(pupil) = next.pupil(&name) {
                commands.push(cancellation(
                    pupil,
                    hours_notice,
                    next.late_notice_hours,
                    price,
                ));
            }
        }
        Msg::Pass { name } => {
            if let Some(pupil) = next.pupil_mut(&name) {
                pass(pupil);
            }
        }
        Msg::Hire { pupil, instrument } => {
            let holding = next.hires.iter().any(|h| h.pupil == pupil && !h.returned);
            if next.pupil(&pupil).is_some() && !holding {
                let hire = Hire {
                    pupil,
                    instrument,
                    from_day: next.day,
                    monthly: next.monthly_hire,
                    deposit: next.deposit,
                    returned: false,
                };
                next.hires.push(hire);
            }
        }
        Msg::Return { pupil } => {
            if let Some(pence) = give_back(&mut next.hires, &pupil) {
                commands.push(Msg::Refund { pupil, pence });
            }
        }
        Msg::Advance { days } => next.day += days,
        Msg::Credit { name, pence } => {
            if let Some(pupil) = next.pupil_mut(&name) {
                pupil.credit += pence;
            }
        }
        Msg::Charge { name } => {
            if let Some(pupil) = next.pupil_mut(&name) {
                pupil.charged += 1;
            }
        }
        Msg::Refund { pence, .. } => next.refunded += pence,
    }
    (next, commands)
}

/// A new pupil, unless the name is taken or the length is not one the school teaches.
#[ranvier::trace_fn]
pub fn new_pupil(
    school: &School,
    name: String,
    family: String,
    instrument: String,
    teacher: String,
    minutes: u32,
) -> Option<Pupil> {
    if school.pupil(&name).is_some() {
        return None;
    }
    if !matches!(minutes, 30 | 45 | 60) {
        return None;
    }
    Some(Pupil {
        name,
        family,
        instrument,
        teacher,
        minutes,
        bursary: 0,
        grade: 0,
        lessons: 0,
        practice: 0,
        credit: 0,
        charged: 0,
    })
}

/// The pupil passed their next grade: the count towards the one after starts again.
#[ranvier::trace_fn]
pub fn pass(pupil: &mut Pupil) {
    pupil.grade = (pupil.grade + 1).min(8);
    pupil.lessons = 0;
    pupil.practice = 0;
}

/// A cancelled lesson: charged with less than `late_hours` of notice, credited at its price otherwise.
#[ranvier::trace_fn]
pub fn cancellation(pupil: &Pupil, hours_notice: u32, late_hours: u32, price: Price) -> Msg {
    let name = pupil.name.clone();
    if hours_notice < late_hours {
        return Msg::Charge { name };
    }
    let pence = price(pupil.minutes);
    Msg::Credit { name, pence }
}

/// Marks `pupil`'s open hire returned; the deposit to pay back, if they had one.
#[ranvier::trace_fn]
pub fn give_back(hires: &mut [Hire], pupil: &str) -> Option<u64> {
    let hire = hires
        .iter_mut()
        .find(|hire| hire.pupil == pupil && !hire.returned)?;
    hire.returned = true;
    Some(hire.deposit)
}

pub mod slipped {
    use super::*;

    /// [`update`](super::update), with the mistake.
    #[ranvier::trace_fn]
    pub fn update(
        msg: Msg,
        school: &School,
        price: Price,
        cancellation: Cancellation,
    ) -> (School, Vec<Msg>) {
        let mut next = school.clone();
        let mut commands = Vec::new();
        match msg {
            Msg::Enrol {
                name,
                family,
                instrument,
                teacher,
                minutes,
                bursary,
                grade,
            } => {
                if let Some(pupil) = new_pupil(&next, name, family, instrument, teacher, minutes) {
                    next.pupils.push(Pupil {
                        bursary,
                        grade: grade.min(8),
                        ..pupil
                    });
                }
            }
            Msg::Lesson { name } => {
                if let Some(pupil) = next.pupil_mut(&name) {
                    pupil.lessons += 1;
                }
            }
            Msg::Practice { name, days } => {
                if let Some(pupil) = next.pupil_mut(&name) {
                    pupil.practice += days;
                }
            }
            Msg::Cancel { name, hours_notice } => {
                if let Some(pupil) = next.pupil(&name) {
                    commands.push(cancellation(
                        pupil,
                        hours_notice,
                        next.late_notice_hours,
                        price,
                    ));
                }
            }
            Msg::Pass { name } => {
                if let Some(pupil) = next.pupil_mut(&name) {
                    pass(pupil);
                }
            }
            Msg::Hire { pupil, instrument } => {
                let holding = next.hires.iter().any(|h| h.pupil == pupil && !h.returned);
                if next.pupil(&pupil).is_some() && !holding {
                    let hire = Hire {
                        pupil,
                        instrument,
                        from_day: next.day,
                        monthly: next.monthly_hire,
                        deposit: next.deposit,
                        returned: false,
                    };
                    next.hires.push(hire);
                }
            }
            Msg::Return { pupil } => {
                if let Some(pence) = give_back(&mut next.hires, &pupil) {
                    commands.push(Msg::Refund { pupil, pence });
                }
            }
            // BUG(advance_sets_day)
            Msg::Advance { days } => next.day = days,
            Msg::Credit { name, pence } => {
                if let Some(pupil) = next.pupil_mut(&name) {
                    pupil.credit += pence;
                }
            }
            Msg::Charge { name } => {
                if let Some(pupil) = next.pupil_mut(&name) {
                    pupil.charged += 1;
                }
            }
            Msg::Refund { pence, .. } => next.refunded += pence,
        }
        (next, commands)
    }

    /// [`cancellation`](super::cancellation), with the mistake.
    #[ranvier::trace_fn]
    pub fn cancellation(pupil: &Pupil, hours_notice: u32, late_hours: u32, price: Price) -> Msg {
        let name = pupil.name.clone();
        // BUG(notice_boundary)
        if hours_notice <= late_hours {
            return Msg::Charge { name };
        }
        let pence = price(pupil.minutes);
        Msg::Credit { name, pence }
    }
}
