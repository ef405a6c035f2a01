//! What the kennels learn over the network, as async memos: the booked pets whose vaccinations, as the vets' surgery
//! has them, run out before they go home, and the deposits the card processor holds.

use super::model::{Status, Stay};
use super::remote::{Processor, Surgery};
use ranvier::{AsyncMemo, Memo};
use std::rc::Rc;

/// The booked stays' pets whose vaccinations, by the surgery's record, will not last until they go home.
pub fn vet_checks(stays: &Memo<Vec<Stay>>, surgery: Rc<Surgery>) -> AsyncMemo<Vec<String>> {
    let stays = stays.clone();
    AsyncMemo::new(move |_| {
        let booked: Vec<Stay> = stays.with(|stays| {
            stays
                .iter()
                .filter(|stay| stay.status == Status::Booked)
                .cloned()
                .collect()
        });
        let surgery = surgery.clone();
        async move {
            let mut lines = Vec::new();
            for stay in &booked {
                for pet in &stay.pets {
                    let until = match surgery.vaccinated_until(pet).await {
                        Ok(until) => until,
                        Err(why) => {
                            lines.push(format!("{}: {why}", stay.title()));
                            continue;
                        }
                    };
                    if until >= stay.depart {
                        continue;
                    }
                    lines.push(format!(
                        "{}: {pet}'s vaccinations run out on day {until}, before day {}",
                        stay.title(),
                        stay.depart
                    ));
                }
            }
            if lines.is_empty() {
                lines.push("every booked pet is covered".to_owned());
            }
            lines
        }
    })
}

/// The deposits of the stays not cancelled, as the card processor holds them.
pub fn deposits(stays: &Memo<Vec<Stay>>, processor: Rc<Processor>) -> AsyncMemo<Vec<String>> {
    let stays = stays.clone();
    AsyncMemo::new(move |_| {
        let held: Vec<Stay> = stays.with(|stays| {
            stays
                .iter()
                .filter(|stay| stay.status != Status::Cancelled && stay.deposit > 0)
                .cloned()
                .collect()
        });
        let processor = processor.clone();
        async move {
            let mut lines = Vec::new();
            for stay in &held {
                let amount = f64::from(stay.deposit) / 100.0;
                match processor.hold(&stay.owner, amount).await {
                    Ok(hold) => lines.push(format!(
                        "{}: £{:.2} held, fee £{:.2}",
                        stay.title(),
                        hold.amount,
                        hold.fee
                    )),
                    Err(why) => lines.push(format!("{}: not held, {why}", stay.title())),
                }
            }
            lines
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Status, Stay};
    use super::super::remote::{Processor, Surgery};
    use ranvier::{AsyncMemo, Memo};
    use std::rc::Rc;

    /// [`super::vet_checks`].
    pub fn vet_checks(stays: &Memo<Vec<Stay>>, surgery: Rc<Surgery>) -> AsyncMemo<Vec<String>> {
        let stays = stays.clone();
        AsyncMemo::new(move |_| {
            let booked: Vec<Stay> = stays.with(|stays| {
                stays
                    .iter()
                    .filter(|stay| stay.status == Status::Booked)
                    .cloned()
                    .collect()
            });
            let surgery = surgery.clone();
            async move {
                let mut lines = Vec::new();
                for stay in &booked {
                    for pet in &stay.pets {
                        let until = match surgery.vaccinated_until(pet).await {
                            Ok(until) => until,
                            Err(why) => {
                                lines.push(format!("{}: {why}", stay.title()));
                                continue;
                            }
                        };
                        if until >= stay.depart {
                            // BUG(vet_second_pet)
                            break;
                        }
                        lines.push(format!(
                            "{}: {pet}'s vaccinations run out on day {until}, before day {}",
                            stay.title(),
                            stay.depart
                        ));
                    }
                }
                if lines.is_empty() {
                    lines.push("every booked pet is covered".to_owned());
                }
                lines
            }
        })
    }

    /// [`super::deposits`].
    pub fn deposits(stays: &Memo<Vec<Stay>>, processor: Rc<Processor>) -> AsyncMemo<Vec<String>> {
        let stays = stays.clone();
        AsyncMemo::new(move |_| {
            let held: Vec<Stay> = stays.with(|stays| {
                stays
                    .iter()
                    .filter(|stay| stay.status != Status::Cancelled && stay.deposit > 0)
                    .cloned()
                    .collect()
            });
            let processor = processor.clone();
            async move {
                let mut lines = Vec::new();
                for stay in &held {
                    // BUG(deposit_pence)
                    let amount = f64::from(stay.deposit);
                    match processor.hold(&stay.owner, amount).await {
                        Ok(hold) => lines.push(format!(
                            "{}: £{:.2} held, fee £{:.2}",
                            stay.title(),
                            hold.amount,
                            hold.fee
                        )),
                        Err(why) => lines.push(format!("{}: not held, {why}", stay.title())),
                    }
                }
                lines
            }
        })
    }
}
