//! What the desk asks the network for, as async memos: where in the region to borrow a title more members wait for
//! than we have copies of, and the reminders sent for the loans past their grace days.

use super::fines::GRACE_DAYS;
use super::model::{Desk, LoanLine, day_label};
use super::policy;
use super::remote;
use ranvier::{AsyncMemo, Memo};

/// A title more members wait for than the library has copies of.
#[derive(Clone, Debug, PartialEq)]
pub struct Short {
    /// Its catalogue number.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// How many wait for it.
    pub waiting: usize,
    /// How many copies the library has.
    pub copies: usize,
}

/// The titles more members wait for than the library has copies of, in catalogue order.
pub fn short_titles(desk: &Desk) -> Vec<Short> {
    desk.titles
        .iter()
        .filter_map(|title| {
            let (waiting, _) = policy::waiting_for(&desk.holds, title.id);
            let copies = desk.copies.iter().filter(|c| c.title == title.id).count();
            (waiting > copies).then(|| Short {
                id: title.id,
                name: title.name.clone(),
                waiting,
                copies,
            })
        })
        .collect()
}

/// For each title short of copies, the library of the region that can send one soonest.
pub fn regional(short: &Memo<Vec<Short>>) -> AsyncMemo<Vec<String>> {
    let short = short.clone();
    AsyncMemo::new(move |_| {
        let wanted = short.get();
        async move {
            let mut lines = Vec::new();
            for title in wanted {
                let head = format!(
                    "{}: {} waiting for {} copies",
                    title.name, title.waiting, title.copies
                );
                let offers = match remote::regional_offers(title.id).await {
                    Ok(offers) => offers,
                    Err(why) => {
                        lines.push(format!("{head}, ask again later ({why})"));
                        continue;
                    }
                };
                match offers.iter().min_by_key(|offer| offer.days) {
                    Some(offer) => lines.push(format!(
                        "{head}, {} can send one in {} days",
                        offer.library, offer.days
                    )),
                    None => lines.push(format!("{head}, none in the region")),
                }
            }
            lines
        }
    })
}

/// The reminders for the loans past their grace days: to whom, and how they went out.
pub fn reminders(lines: &Memo<Vec<LoanLine>>) -> AsyncMemo<Vec<String>> {
    let lines = lines.clone();
    AsyncMemo::new(move |_| {
        let late: Vec<LoanLine> = lines
            .get()
            .into_iter()
            .filter(|line| line.days_late > GRACE_DAYS)
            .collect();
        async move {
            let mut sent = Vec::with_capacity(late.len());
            for line in late {
                let text = format!(
                    "{} was due back on {}: please return it",
                    line.title,
                    day_label(line.due)
                );
                let how = match remote::remind(&line.member, &text).await {
                    Ok(channel) => format!("sent by {channel}"),
                    Err(why) => format!("not sent: {why}"),
                };
                sent.push(format!(
                    "{}: {} is {} days late ({how})",
                    line.member, line.title, line.days_late
                ));
            }
            sent
        }
    })
}

/// Other versions of this file's code, chosen by `graph::Slip`.
pub mod slipped {
    use super::super::fines::GRACE_DAYS;
    use super::super::model::{LoanLine, day_label};
    use super::super::remote;
    use super::Short;
    use ranvier::{AsyncMemo, Memo};

    /// For each title short of copies, the library of the region that can send one soonest.
    pub fn regional(short: &Memo<Vec<Short>>) -> AsyncMemo<Vec<String>> {
        let short = short.clone();
        AsyncMemo::new(move |_| {
            let wanted = short.get();
            async move {
                let mut lines = Vec::new();
                for title in wanted {
                    let head = format!(
                        "{}: {} waiting for {} copies",
                        title.name, title.waiting, title.copies
                    );
                    let offers = match remote::regional_offers(title.id).await {
                        Ok(offers) => offers,
                        Err(why) => {
                            lines.push(format!("{head}, ask again later ({why})"));
                            continue;
                        }
                    };
                    // BUG(regional_most_copies)
                    match offers.iter().max_by_key(|offer| offer.copies) {
                        Some(offer) => lines.push(format!(
                            "{head}, {} can send one in {} days",
                            offer.library, offer.days
                        )),
                        None => lines.push(format!("{head}, none in the region")),
                    }
                }
                lines
            }
        })
    }

    /// The reminders for the loans past their grace days: to whom, and how they went out.
    pub fn reminders(lines: &Memo<Vec<LoanLine>>) -> AsyncMemo<Vec<String>> {
        let lines = lines.clone();
        AsyncMemo::new(move |_| {
            let lines = lines.clone();
            async move {
                // BUG(reminders_read_in_future)
                let late: Vec<LoanLine> = lines
                    .get()
                    .into_iter()
                    .filter(|line| line.days_late > GRACE_DAYS)
                    .collect();
                let mut sent = Vec::with_capacity(late.len());
                for line in late {
                    let text = format!(
                        "{} was due back on {}: please return it",
                        line.title,
                        day_label(line.due)
                    );
                    let how = match remote::remind(&line.member, &text).await {
                        Ok(channel) => format!("sent by {channel}"),
                        Err(why) => format!("not sent: {why}"),
                    };
                    sent.push(format!(
                        "{}: {} is {} days late ({how})",
                        line.member, line.title, line.days_late
                    ));
                }
                sent
            }
        })
    }
}
