//! The async memos: the exam board's check of the entries (what is entered and what it costs), and the hire shop's
//! delivery estimate for each instrument out on hire.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Memo, node};

use super::exams::Entry;
use super::model::Hire;
use super::remote;

/// Entries sent after this day of the term pay the late surcharge.
pub const CLOSING_DAY: u32 = 28;

/// Days the shop needs for an instrument it does not keep (ordered in).
pub const BACK_ORDER_DAYS: u32 = 21;

/// What the board entered, and the fees.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Entered {
    /// The pupils entered, in order.
    pub pupils: Vec<String>,
    /// The fees, in pence, late surcharge included.
    pub fee: u64,
}

/// When a hired instrument arrives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Eta {
    /// The pupil.
    pub pupil: String,
    /// The instrument.
    pub instrument: String,
    /// The day of the term it arrives.
    pub day: u32,
}

/// The board's check of the exam list: the entries it takes and their fees, a fifth more after the closing day.
#[node]
pub fn exam_entry(exam_list: &Memo<Vec<Entry>>, today: &Memo<u32>) -> AsyncMemo<Entered> {
    let (exam_list, today) = (exam_list.clone(), today.clone());
    let exam_entry = AsyncMemo::new(move |_| {
        let (entries, day) = (exam_list.get(), today.get());
        async move {
            let answers = remote::exam_board(entries).await;
            let mut entered = Entered {
                pupils: Vec::new(),
                fee: 0,
            };
            for answer in answers {
                if !answer.accepted {
                    continue;
                }
                entered.pupils.push(answer.name);
                entered.fee += answer.fee;
            }
            if day > CLOSING_DAY {
                entered.fee += entered.fee / 5;
            }
            entered
        }
    });
    exam_entry
}

/// The shop's delivery day for each open hire: the day of the hire plus the shop's days, none on a Sunday.
#[node]
pub fn delivery(hires: &Memo<Vec<Hire>>) -> AsyncMemo<Vec<Eta>> {
    let hires = hires.clone();
    let delivery = AsyncMemo::new(move |_| {
        let hires = hires.get();
        async move {
            let stock = remote::hire_shop_stock().await;
            let mut etas = Vec::with_capacity(hires.len());
            for hire in hires {
                let days = stock
                    .get(&hire.instrument)
                    .copied()
                    .unwrap_or(BACK_ORDER_DAYS);
                let mut day = hire.from_day + days;
                if day % 7 == 0 {
                    day += 1;
                }
                etas.push(Eta {
                    pupil: hire.pupil,
                    instrument: hire.instrument,
                    day,
                });
            }
            etas
        }
    });
    delivery
}

pub mod slipped {
    use super::*;

    /// [`exam_entry`](super::exam_entry), with the mistake.
    #[node]
    pub fn exam_entry(exam_list: &Memo<Vec<Entry>>, today: &Memo<u32>) -> AsyncMemo<Entered> {
        let (exam_list, today) = (exam_list.clone(), today.clone());
        let exam_entry = AsyncMemo::new(move |_| {
            let (entries, day) = (exam_list.get(), today.get());
            async move {
                let answers = remote::exam_board(entries).await;
                let mut entered = Entered {
                    pupils: Vec::new(),
                    fee: 0,
                };
                for answer in answers {
                    if !answer.accepted {
                        // BUG(board_stops_at_refusal)
                        break;
                    }
                    entered.pupils.push(answer.name);
                    entered.fee += answer.fee;
                }
                if day > CLOSING_DAY {
                    entered.fee += entered.fee / 5;
                }
                entered
            }
        });
        exam_entry
    }

    /// [`delivery`](super::delivery), with the mistake.
    #[node]
    pub fn delivery(hires: &Memo<Vec<Hire>>) -> AsyncMemo<Vec<Eta>> {
        let hires = hires.clone();
        let delivery = AsyncMemo::new(move |_| {
            let hires = hires.get();
            async move {
                let stock = remote::hire_shop_stock().await;
                let mut etas = Vec::with_capacity(hires.len());
                for hire in hires {
                    // BUG(back_order_default)
                    let days = stock.get(&hire.instrument).copied().unwrap_or_default();
                    let mut day = hire.from_day + days;
                    if day % 7 == 0 {
                        day += 1;
                    }
                    etas.push(Eta {
                        pupil: hire.pupil,
                        instrument: hire.instrument,
                        day,
                    });
                }
                etas
            }
        });
        delivery
    }
}
