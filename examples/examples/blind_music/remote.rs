//! The simulated services: the exam board, which checks entries and quotes their fees, and the instrument-hire
//! shop, which says how many days it needs to deliver each instrument. Each answers after a short delay.

use std::collections::BTreeMap;
use std::time::Duration;

use super::exams::Entry;

/// How long a service takes to answer.
const DELAY: Duration = Duration::from_millis(15);

/// The board's answer on one entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The pupil.
    pub name: String,
    /// The grade.
    pub grade: u8,
    /// Whether the board takes the entry: grades 6 to 8 need a theory pass the school has not sent.
    pub accepted: bool,
    /// The entry fee, in pence.
    pub fee: u64,
}

/// The board's fee for a grade, in pence.
fn board_fee(grade: u8) -> u64 {
    3_900 + 700 * u64::from(grade)
}

/// The exam board checks `entries`, in order.
pub async fn exam_board(entries: Vec<Entry>) -> Vec<Answer> {
    tokio::time::sleep(DELAY).await;
    entries
        .into_iter()
        .map(|entry| Answer {
            accepted: entry.grade <= 5,
            fee: board_fee(entry.grade),
            grade: entry.grade,
            name: entry.name,
        })
        .collect()
}

/// The hire shop's stock: the days it needs to deliver each instrument it keeps.
pub async fn hire_shop_stock() -> BTreeMap<String, u32> {
    tokio::time::sleep(DELAY).await;
    [
        ("violin", 2),
        ("flute", 3),
        ("clarinet", 3),
        ("trumpet", 4),
        ("cello", 6),
    ]
    .into_iter()
    .map(|(instrument, days)| (instrument.to_owned(), days))
    .collect()
}
