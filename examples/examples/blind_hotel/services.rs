//! What the desk asks services over the network, as async memos: the bills of guests from abroad in their own
//! currency (an exchange-rate service), and which guests in the hotel get a welcome gift (the loyalty programme).

use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::model::{HOME_CURRENCY, Hotel, Msg, money};
use super::remote;

/// The loyalty tiers that get a welcome gift.
pub const GIFT_TIERS: [&str; 2] = ["gold", "platinum"];

/// The stays that left with a bill in another currency than the hotel's: guest, cents charged, their currency.
fn foreign_bills(hotel: &Hotel) -> Vec<(String, u64, String)> {
    hotel
        .stays
        .iter()
        .filter(|s| s.checked_out && s.currency != HOME_CURRENCY)
        .map(|s| (s.guest.clone(), hotel.bill(s.id), s.currency.clone()))
        .collect()
}

/// The guests in the hotel, by room: room, guest.
fn guests_in_house(hotel: &Hotel) -> Vec<(u32, String)> {
    let mut here: Vec<(u32, String)> = hotel
        .stays
        .iter()
        .filter(|s| s.in_house())
        .filter_map(|s| s.room.map(|room| (room, s.guest.clone())))
        .collect();
    here.sort();
    here
}

/// The services' memos.
pub struct Services {
    /// The bills of guests from abroad who left, in their currency.
    pub bills_abroad: AsyncMemo<Vec<String>>,
    /// The guests in the hotel who get a welcome gift.
    pub welcome_gifts: AsyncMemo<Vec<String>>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(desk: &Mvu<Hotel, Msg>, slip: Slip) -> Services {
    let bills_abroad = match slip {
        Slip::BillSwap => slipped::bills_abroad(desk),
        _ => bills_abroad(desk),
    };
    let welcome_gifts = match slip {
        Slip::GiftsNonMember => slipped::welcome_gifts(desk),
        _ => welcome_gifts(desk),
    };
    Services {
        bills_abroad,
        welcome_gifts,
    }
}

/// Each bill of a guest from abroad who left, converted from the hotel's currency into the guest's.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn bills_abroad(desk: &Mvu<Hotel, Msg>) -> AsyncMemo<Vec<String>> {
    let bills = desk.select(foreign_bills);
    let bills_abroad = AsyncMemo::try_new(move |_| {
        let bills = bills.get();
        async move {
            let mut lines = Vec::new();
            for (guest, cents, currency) in bills {
                let converted = remote::convert(cents, HOME_CURRENCY, &currency).await?;
                lines.push(format!(
                    "{guest}: {} {currency} ({} {HOME_CURRENCY})",
                    money(converted),
                    money(cents)
                ));
            }
            Ok::<_, String>(lines)
        }
    });
    bills_abroad
}

/// The guests in the hotel whose loyalty tier gets a welcome gift, by room; guests who are not members get none.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn welcome_gifts(desk: &Mvu<Hotel, Msg>) -> AsyncMemo<Vec<String>> {
    let guests = desk.select(guests_in_house);
    let welcome_gifts = AsyncMemo::try_new(move |_| {
        let guests = guests.get();
        async move {
            let mut gifts = Vec::new();
            for (room, guest) in guests {
                let Ok(tier) = remote::tier(&guest).await else {
                    continue;
                };
                if GIFT_TIERS.contains(&tier.as_str()) {
                    gifts.push(format!("{room} {guest} ({tier})"));
                }
            }
            Ok::<_, String>(gifts)
        }
    });
    welcome_gifts
}

/// The services' memos with a mistake.
mod slipped {
    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::model::{HOME_CURRENCY, Hotel, Msg, money};
    use super::super::remote;
    use super::{GIFT_TIERS, foreign_bills, guests_in_house};

    /// Each bill of a guest from abroad who left, in the guest's currency.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn bills_abroad(desk: &Mvu<Hotel, Msg>) -> AsyncMemo<Vec<String>> {
        let bills = desk.select(foreign_bills);
        let bills_abroad = AsyncMemo::try_new(move |_| {
            let bills = bills.get();
            async move {
                let mut lines = Vec::new();
                for (guest, cents, currency) in bills {
                    // BUG(bill_swap)
                    let converted = remote::convert(cents, &currency, HOME_CURRENCY).await?;
                    lines.push(format!(
                        "{guest}: {} {currency} ({} {HOME_CURRENCY})",
                        money(converted),
                        money(cents)
                    ));
                }
                Ok::<_, String>(lines)
            }
        });
        bills_abroad
    }

    /// The guests in the hotel who get a welcome gift.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn welcome_gifts(desk: &Mvu<Hotel, Msg>) -> AsyncMemo<Vec<String>> {
        let guests = desk.select(guests_in_house);
        let welcome_gifts = AsyncMemo::try_new(move |_| {
            let guests = guests.get();
            async move {
                let mut gifts = Vec::new();
                for (room, guest) in guests {
                    // BUG(gifts_non_member)
                    let tier = remote::tier(&guest).await?;
                    if GIFT_TIERS.contains(&tier.as_str()) {
                        gifts.push(format!("{room} {guest} ({tier})"));
                    }
                }
                Ok::<_, String>(gifts)
            }
        });
        welcome_gifts
    }
}
