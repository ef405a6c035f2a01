//! The two values that come from elsewhere: the hire company's quote for the hire list, and the deposits the card
//! processor pays out once its fees are taken. Each is an async memo whose future asks `remote`.

use super::hire::HireList;
use super::model::{Book, Msg};
use super::remote;
use ranvier::{AsyncMemo, Memo, Mvu, node};

/// From this many plates the hire company takes a tenth off the crockery.
pub const BULK_PLATES: u32 = 500;

/// The hire company's quote for `hire_list`, in cents: the crockery (a tenth off in bulk), the linen, the marquees,
/// and a delivery (two when marquees come too). Nothing to hire costs nothing.
#[node]
pub fn hire_quote(hire_list: &Memo<HireList>) -> AsyncMemo<u64> {
    let hire_list = hire_list.clone();
    let hire_quote = AsyncMemo::new(move |_| {
        let list = hire_list.get();
        async move {
            if list == HireList::default() {
                return 0;
            }
            let prices = remote::hire_prices().await;
            let crockery = u64::from(list.plates) * prices.plate
                + u64::from(list.cutlery) * prices.cutlery
                + u64::from(list.glasses) * prices.glass;
            let crockery = if list.plates >= BULK_PLATES {
                crockery - crockery / 10
            } else {
                crockery
            };
            let linen = u64::from(list.tablecloths) * prices.tablecloth;
            let marquees = u64::from(list.marquees) * prices.marquee;
            // marquees come on a lorry of their own
            let deliveries = if list.marquees > 0 { 2 } else { 1 };
            crockery + linen + marquees + deliveries * prices.delivery
        }
    });
    hire_quote
}

/// What the card processor pays out of every deposit taken, in cents: each payment less its fee (the rate, rounded
/// up to the cent, and the fixed fee).
#[node]
pub fn net_deposits(book: &Mvu<Book, Msg>) -> AsyncMemo<u64> {
    let payments = book.select(|book| book.payments.clone());
    let net_deposits = AsyncMemo::new(move |_| {
        let payments = payments.get();
        async move {
            let fees = remote::card_fees().await;
            let mut net = 0;
            for payment in &payments {
                let fee = (payment.amount * fees.rate_bps).div_ceil(10_000) + fees.fixed;
                net += payment.amount.saturating_sub(fee);
            }
            net
        }
    });
    net_deposits
}

pub mod slipped {
    use super::{BULK_PLATES, Book, HireList, Msg, remote};
    use ranvier::{AsyncMemo, Memo, Mvu, node};

    #[node]
    pub fn hire_quote(hire_list: &Memo<HireList>) -> AsyncMemo<u64> {
        let hire_list = hire_list.clone();
        let hire_quote = AsyncMemo::new(move |_| {
            let list = hire_list.get();
            async move {
                if list == HireList::default() {
                    return 0;
                }
                let prices = remote::hire_prices().await;
                let crockery = u64::from(list.plates) * prices.plate
                    + u64::from(list.cutlery) * prices.cutlery
                    + u64::from(list.glasses) * prices.glass;
                // BUG(bulk_plates_threshold)
                let crockery = if list.plates > BULK_PLATES {
                    crockery - crockery / 10
                } else {
                    crockery
                };
                let linen = u64::from(list.tablecloths) * prices.tablecloth;
                let marquees = u64::from(list.marquees) * prices.marquee;
                // marquees come on a lorry of their own
                let deliveries = if list.marquees > 0 { 2 } else { 1 };
                crockery + linen + marquees + deliveries * prices.delivery
            }
        });
        hire_quote
    }

    #[node]
    pub fn net_deposits(book: &Mvu<Book, Msg>) -> AsyncMemo<u64> {
        let payments = book.select(|book| book.payments.clone());
        let net_deposits = AsyncMemo::new(move |_| {
            let payments = payments.get();
            async move {
                let fees = remote::card_fees().await;
                let mut net = 0;
                for payment in &payments {
                    // BUG(card_fee_per_mille)
                    let fee = (payment.amount * fees.rate_bps).div_ceil(1_000) + fees.fixed;
                    net += payment.amount.saturating_sub(fee);
                }
                net
            }
        });
        net_deposits
    }
}
