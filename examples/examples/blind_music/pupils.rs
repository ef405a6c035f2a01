//! The pupils as a keyed collection: each row's term fee, and the views over them (who is ready for an exam, how
//! many hold a bursary).

use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, Mvu, node};

use super::exams::{MinLessons, PRACTICE_DAYS, TOP_GRADE};
use super::fees::{self, Price};
use super::model::{Msg, Pupil, School};

/// The pupils, one row a name, each with its term fee.
pub type Pupils = Collection<String, Pupil, Memo<u64>>;

/// The term's shape: (weeks, half-term week).
pub type Term = Memo<(u32, u32)>;

/// A row-fee rule: the memo of one row's term fee.
pub type RowFee = fn(&Row<String, Pupil>, &Term, Price) -> Memo<u64>;

/// One pupil's fee for the term, in pence: their lessons at `price` for each teaching week, less the bursary and
/// the credits.
#[node]
pub fn term_fee(row: &Row<String, Pupil>, term: &Term, price: Price) -> Memo<u64> {
    let (row, term) = (row.clone(), term.clone());
    let term_fee = Memo::new(move |_| {
        let pupil = row.get();
        let (weeks, half_term) = term.get();
        let lesson = price(pupil.minutes);
        if lesson == 0 {
            return 0;
        }
        let weeks = fees::teaching_weeks(weeks, half_term);
        let fee = fees::base_fee(lesson, weeks, pupil.bursary);
        fee.saturating_sub(pupil.credit)
    });
    term_fee
}

/// The pupils of `school`, keyed by name, each row with its fee from `row_fee`.
#[node]
pub fn pupils(school: &Mvu<School, Msg>, price: Price, row_fee: RowFee) -> Pupils {
    let list = school.select(|school| school.pupils.clone());
    let term = school.select(|school| (school.term_weeks, school.half_term_week));
    let pupils = Collection::keyed(
        list,
        |pupil: &Pupil| pupil.name.clone(),
        move |row| row_fee(row, &term, price),
    );
    pupils
}

/// The pupils who may be entered for their next grade: below the top grade, with the lessons it needs and the
/// practice logged.
#[node]
pub fn ready(pupils: &Pupils, needs: MinLessons) -> Filter<String> {
    let ready = pupils.filter(move |pupil| {
        pupil.grade < TOP_GRADE
            && pupil.lessons >= needs(pupil.grade + 1)
            && pupil.practice >= PRACTICE_DAYS
    });
    ready
}

/// How many pupils hold a bursary.
#[node]
pub fn bursaries(pupils: &Pupils) -> Memo<usize> {
    let bursaries = pupils.count_by(|pupil| pupil.bursary > 0);
    bursaries
}

/// The names in a view's keys, for publishing.
#[node]
pub fn names(keys: Memo<std::rc::Rc<[String]>>) -> Memo<Vec<String>> {
    let names = Memo::new(move |_| keys.with(|keys| keys.to_vec()));
    names
}

pub mod slipped {
    use super::*;

    /// [`term_fee`](super::term_fee), with the mistake.
    #[node]
    pub fn term_fee(row: &Row<String, Pupil>, term: &Term, price: Price) -> Memo<u64> {
        let (row, term) = (row.clone(), term.clone());
        let term_fee = Memo::new(move |_| {
            let pupil = row.get();
            let (weeks, half_term) = term.get();
            let lesson = price(pupil.minutes);
            if lesson == 0 {
                return 0;
            }
            // BUG(half_term_charged)
            let weeks = fees::teaching_weeks(half_term, weeks);
            let fee = fees::base_fee(lesson, weeks, pupil.bursary);
            fee.saturating_sub(pupil.credit)
        });
        term_fee
    }

    /// [`ready`](super::ready), with the mistake.
    #[node]
    pub fn ready(pupils: &Pupils, needs: MinLessons) -> Filter<String> {
        let ready = pupils.filter(move |pupil| {
            // BUG(top_grade_entered)
            pupil.grade <= TOP_GRADE
                && pupil.lessons >= needs(pupil.grade + 1)
                && pupil.practice >= PRACTICE_DAYS
        });
        ready
    }
}
