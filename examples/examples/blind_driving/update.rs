//! `update`: the desk's messages applied to the school, Elmish, with the follow-up messages (commands) they send:
//! moving the day on completes the lessons left behind, and a completed lesson drives its car.

use super::fees::{self, FeeRule};
use super::lessons::{self, MIN_NOTICE_HOURS};
use super::model::{Gearbox, Lesson, Msg, Pupil, School, Sitting, Status, TestKind};
use super::progress;

/// Miles a lesson drives in an hour.
pub const MILES_PER_HOUR: u32 = 18;

/// How a booking is checked and priced: the lesson it makes, or why it cannot be booked.
pub type BookFn = fn(&School, &str, &str, u32, u32) -> Result<Lesson, String>;

/// An `update` whose booking check and cancellation fee are given.
pub type UpdateFn = fn(Msg, &School, BookFn, FeeRule) -> (School, Vec<Msg>);

/// The school after `msg`, and the messages it sends on; a message that cannot apply changes nothing but the notice.
#[ranvier::trace_fn]
pub fn update(msg: Msg, school: &School, book: BookFn, fee: FeeRule) -> (School, Vec<Msg>) {
    let mut next = school.clone();
    next.notice = None;
    let applied = match msg {
        Msg::Enrol { pupil, automatic } => enrol(&mut next, pupil, automatic),
        Msg::Prepay { pupil, hours } => prepay(&mut next, &pupil, hours),
        Msg::Book {
            pupil,
            instructor,
            day,
            hours,
        } => book(&next, &pupil, &instructor, day, hours).map(|lesson| {
            take_prepaid(&mut next, &lesson);
            next.next_lesson += 1;
            next.lessons.push(lesson);
            Vec::new()
        }),
        Msg::Cancel { lesson } => cancel(&mut next, lesson, fee),
        Msg::Advance { days } => {
            next.day += days;
            Ok(due_lessons(&next))
        }
        Msg::Complete { lesson } => complete(&mut next, lesson),
        Msg::Drive { car, miles } => drive(&mut next, &car, miles),
        Msg::Service { car } => service(&mut next, &car),
        Msg::Score {
            pupil,
            skill,
            score,
        } => record_score(&mut next, &pupil, &skill, score),
        Msg::SitTest {
            pupil,
            practical,
            passed,
        } => sit_test(&mut next, &pupil, practical, passed),
        Msg::Pay { pupil, pence } => pay(&mut next, &pupil, pence),
    };
    match applied {
        Ok(commands) => (next, commands),
        Err(why) => {
            let mut unchanged = school.clone();
            unchanged.notice = Some(why);
            (unchanged, Vec::new())
        }
    }
}

/// The pupil called `name`, or why there is none.
#[ranvier::trace_fn]
fn pupil<'a>(school: &'a mut School, name: &str) -> Result<&'a mut Pupil, String> {
    school
        .pupil_mut(name)
        .ok_or_else(|| format!("no pupil called {name}"))
}

/// Enrols a new pupil with every skill at 1.
#[ranvier::trace_fn]
pub fn enrol(school: &mut School, name: String, automatic: bool) -> Result<Vec<Msg>, String> {
    if school.pupils.iter().any(|p| p.name == name) {
        return Err(format!("{name} is already enrolled"));
    }
    let gearbox = if automatic {
        Gearbox::Automatic
    } else {
        Gearbox::Manual
    };
    school.pupils.push(Pupil {
        name,
        gearbox,
        prepaid_hours: 0,
        blocks: 0,
        paid: 0,
        hours_taken: 0,
        skills: progress::new_skills(),
        theory_passed: false,
        passed: false,
    });
    Ok(Vec::new())
}

/// Sells `hours` up front at the standard rate for the pupil's gearbox, paid at once.
#[ranvier::trace_fn]
pub fn prepay(school: &mut School, name: &str, hours: u32) -> Result<Vec<Msg>, String> {
    let pupil = pupil(school, name)?;
    let rate = fees::standard_rate(pupil.gearbox);
    let cost = fees::block_price(rate, hours);
    pupil.prepaid_hours += hours;
    pupil.blocks += cost;
    pupil.paid += cost;
    Ok(Vec::new())
}

/// Checks a booking of `hours` on `day` for `pupil` with `instructor`, and prices it: prepaid hours first, the
/// rest at the instructor's rate.
///
/// # Errors
///
/// Why it cannot be booked.
#[ranvier::trace_fn]
pub fn book(
    school: &School,
    pupil: &str,
    instructor: &str,
    day: u32,
    hours: u32,
) -> Result<Lesson, String> {
    let learner = school
        .pupils
        .iter()
        .find(|p| p.name == pupil)
        .ok_or_else(|| format!("no pupil called {pupil}"))?;
    let teacher = school
        .instructor(instructor)
        .ok_or_else(|| format!("no instructor called {instructor}"))?;
    if !(1..=2).contains(&hours) {
        return Err(format!("a lesson is 1 or 2 hours, not {hours}"));
    }
    if day < school.day {
        return Err(format!("day {day} has gone (today is day {})", school.day));
    }
    if teacher.gearbox != learner.gearbox {
        return Err(format!(
            "{instructor} does not teach in {pupil}'s kind of car"
        ));
    }
    let booked = school.hours_in_week(&teacher.name, lessons::week_of(day));
    lessons::can_teach(teacher, day, booked, hours)?;
    let prepaid = learner.prepaid_hours.min(hours);
    let price = fees::lesson_price(teacher.rate, hours - prepaid);
    Ok(Lesson {
        id: school.next_lesson,
        pupil: pupil.to_owned(),
        instructor: instructor.to_owned(),
        day,
        hours,
        prepaid,
        price,
        fee: 0,
        status: Status::Booked,
    })
}

/// Takes a new lesson's prepaid hours off its pupil's block.
#[ranvier::trace_fn]
fn take_prepaid(school: &mut School, lesson: &Lesson) {
    if let Some(pupil) = school.pupil_mut(&lesson.pupil) {
        pupil.prepaid_hours -= lesson.prepaid;
    }
}

/// Cancels a booked lesson, charging `fee`'s fee for its notice; with enough notice its prepaid hours go back.
#[ranvier::trace_fn]
pub fn cancel(school: &mut School, id: u32, fee: FeeRule) -> Result<Vec<Msg>, String> {
    let today = school.day;
    let lesson = school
        .lessons
        .iter_mut()
        .find(|l| l.id == id)
        .ok_or_else(|| format!("no lesson {id}"))?;
    if lesson.status != Status::Booked {
        return Err(format!("lesson {id} is not booked"));
    }
    let notice = lessons::notice_hours(today, lesson.day);
    lesson.fee = fee(notice, lesson.price);
    lesson.status = Status::Cancelled;
    let (name, prepaid) = (lesson.pupil.clone(), lesson.prepaid);
    if notice >= MIN_NOTICE_HOURS {
        pupil(school, &name)?.prepaid_hours += prepaid;
    }
    Ok(Vec::new())
}

/// The lessons still booked on a day before today: each to complete.
#[ranvier::trace_fn]
pub fn due_lessons(school: &School) -> Vec<Msg> {
    school
        .lessons
        .iter()
        .filter(|l| l.status == Status::Booked && l.day < school.day)
        .map(|l| Msg::Complete { lesson: l.id })
        .collect()
}

/// Marks a lesson driven: its hours count for the pupil, and its instructor's car drives its miles.
#[ranvier::trace_fn]
pub fn complete(school: &mut School, id: u32) -> Result<Vec<Msg>, String> {
    let lesson = school
        .lessons
        .iter_mut()
        .find(|l| l.id == id && l.status == Status::Booked)
        .ok_or_else(|| format!("no booked lesson {id}"))?;
    lesson.status = Status::Done;
    let lesson = lesson.clone();
    pupil(school, &lesson.pupil)?.hours_taken += lesson.hours;
    let car = school
        .instructor(&lesson.instructor)
        .map(|i| i.car.clone())
        .unwrap_or_default();
    Ok(vec![Msg::Drive {
        car,
        miles: lesson.hours * MILES_PER_HOUR,
    }])
}

/// Adds `miles` to a car's odometer and to what it drove on lessons.
#[ranvier::trace_fn]
pub fn drive(school: &mut School, reg: &str, miles: u32) -> Result<Vec<Msg>, String> {
    let car = school
        .cars
        .iter_mut()
        .find(|c| c.reg == reg)
        .ok_or_else(|| format!("no car {reg}"))?;
    car.miles += miles;
    car.driven += miles;
    Ok(Vec::new())
}

/// Records a car's service at its current odometer.
#[ranvier::trace_fn]
pub fn service(school: &mut School, reg: &str) -> Result<Vec<Msg>, String> {
    let car = school
        .cars
        .iter_mut()
        .find(|c| c.reg == reg)
        .ok_or_else(|| format!("no car {reg}"))?;
    car.serviced_at = car.miles;
    Ok(Vec::new())
}

/// Sets a pupil's score for a skill of the syllabus.
#[ranvier::trace_fn]
pub fn record_score(
    school: &mut School,
    name: &str,
    skill: &str,
    score: u8,
) -> Result<Vec<Msg>, String> {
    if !progress::SYLLABUS.contains(&skill) {
        return Err(format!("{skill} is not in the syllabus"));
    }
    let pupil = pupil(school, name)?;
    match pupil.skills.iter_mut().find(|(name, _)| name == skill) {
        Some(entry) => entry.1 = score,
        None => pupil.skills.push((skill.to_owned(), score)),
    }
    Ok(Vec::new())
}

/// Records a test sat today, with the instructor of the pupil's last lesson.
#[ranvier::trace_fn]
pub fn sit_test(
    school: &mut School,
    name: &str,
    practical: bool,
    passed: bool,
) -> Result<Vec<Msg>, String> {
    let instructor = school
        .lessons
        .iter()
        .filter(|l| l.pupil == name && l.status != Status::Cancelled)
        .max_by_key(|l| (l.day, l.id))
        .map(|l| l.instructor.clone())
        .ok_or_else(|| format!("{name} has had no lessons"))?;
    let day = school.day;
    let pupil = pupil(school, name)?;
    let kind = if practical {
        if !pupil.theory_passed {
            return Err(format!("{name} has not passed the theory test"));
        }
        pupil.passed = passed;
        TestKind::Practical
    } else {
        pupil.theory_passed = passed;
        TestKind::Theory
    };
    school.sittings.push(Sitting {
        pupil: name.to_owned(),
        instructor,
        kind,
        passed,
        day,
    });
    Ok(Vec::new())
}

/// Records a payment.
#[ranvier::trace_fn]
pub fn pay(school: &mut School, name: &str, pence: u64) -> Result<Vec<Msg>, String> {
    pupil(school, name)?.paid += pence;
    Ok(Vec::new())
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// The school after `msg`, and the messages it sends on; a message that cannot apply changes nothing but the notice.
    #[ranvier::trace_fn]
    pub fn update(msg: Msg, school: &School, book: BookFn, fee: FeeRule) -> (School, Vec<Msg>) {
        let mut next = school.clone();
        next.notice = None;
        let applied = match msg {
            Msg::Enrol { pupil, automatic } => enrol(&mut next, pupil, automatic),
            Msg::Prepay { pupil, hours } => prepay(&mut next, &pupil, hours),
            Msg::Book {
                pupil,
                instructor,
                day,
                hours,
            } => book(&next, &pupil, &instructor, day, hours).map(|lesson| {
                take_prepaid(&mut next, &lesson);
                next.next_lesson += 1;
                next.lessons.push(lesson);
                Vec::new()
            }),
            Msg::Cancel { lesson } => cancel(&mut next, lesson, fee),
            Msg::Advance { days } => {
                // BUG(advance_day)
                next.day = days;
                Ok(due_lessons(&next))
            }
            Msg::Complete { lesson } => complete(&mut next, lesson),
            Msg::Drive { car, miles } => drive(&mut next, &car, miles),
            Msg::Service { car } => service(&mut next, &car),
            Msg::Score {
                pupil,
                skill,
                score,
            } => record_score(&mut next, &pupil, &skill, score),
            Msg::SitTest {
                pupil,
                practical,
                passed,
            } => sit_test(&mut next, &pupil, practical, passed),
            Msg::Pay { pupil, pence } => pay(&mut next, &pupil, pence),
        };
        match applied {
            Ok(commands) => (next, commands),
            Err(why) => {
                let mut unchanged = school.clone();
                unchanged.notice = Some(why);
                (unchanged, Vec::new())
            }
        }
    }

    /// Checks a booking of `hours` on `day` for `pupil` with `instructor`, and prices it: prepaid hours first, the
    /// rest at the instructor's rate.
    ///
    /// # Errors
    ///
    /// Why it cannot be booked.
    #[ranvier::trace_fn]
    pub fn book(
        school: &School,
        pupil: &str,
        instructor: &str,
        day: u32,
        hours: u32,
    ) -> Result<Lesson, String> {
        let learner = school
            .pupils
            .iter()
            .find(|p| p.name == pupil)
            .ok_or_else(|| format!("no pupil called {pupil}"))?;
        let teacher = school
            .instructor(instructor)
            .ok_or_else(|| format!("no instructor called {instructor}"))?;
        if !(1..=2).contains(&hours) {
            return Err(format!("a lesson is 1 or 2 hours, not {hours}"));
        }
        if day < school.day {
            return Err(format!("day {day} has gone (today is day {})", school.day));
        }
        if teacher.gearbox != learner.gearbox {
            return Err(format!(
                "{instructor} does not teach in {pupil}'s kind of car"
            ));
        }
        // BUG(book_week)
        let booked = school.hours_in_week(&teacher.name, lessons::week_of(school.day));
        lessons::can_teach(teacher, day, booked, hours)?;
        let prepaid = learner.prepaid_hours.min(hours);
        let price = fees::lesson_price(teacher.rate, hours - prepaid);
        Ok(Lesson {
            id: school.next_lesson,
            pupil: pupil.to_owned(),
            instructor: instructor.to_owned(),
            day,
            hours,
            prepaid,
            price,
            fee: 0,
            status: Status::Booked,
        })
    }
}
