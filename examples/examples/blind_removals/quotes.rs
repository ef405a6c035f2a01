//! Pricing a move: the volume from the inventory, the distance, the stairs, the weekend or bank-holiday surcharge and
//! the insurance cover; the deposit on booking and the cancellation fee. The rules are called from the quote sheet
//! and from `update`.

use super::model::{BANK_HOLIDAYS, Firm, Msg, Quote, pounds, weekday, weekday_name};
use ranvier::{Memo, Mvu, node};

/// Pence per started cubic metre.
pub const PER_M3: u64 = 3_000;
/// Miles included in the price.
pub const FREE_MILES: u32 = 10;
/// Pence per mile past the free ones.
pub const PER_MILE: u64 = 150;
/// Pence per floor climbed, per cubic metre.
pub const PER_FLOOR_M3: u64 = 500;
/// The insurance excess, in pence.
pub const EXCESS: u64 = 10_000;

/// The stairs rule: (floor, lift, cubic metres) to pence.
pub type StairsRule = fn(u32, bool, u32) -> u64;

/// The cancellation rule: (days of notice, quoted price) to the fee.
pub type CancelRule = fn(u32, u64) -> u64;

/// A quote's price, part by part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub m3: u32,
    pub volume: u64,
    pub distance: u64,
    pub stairs: u64,
    pub surcharge: u64,
    pub cover: u64,
    pub total: u64,
}

/// Litres an item takes in the van.
#[ranvier::trace_fn]
pub fn item_litres(item: &str) -> u32 {
    match item {
        "sofa" => 1_500,
        "bed" => 1_200,
        "wardrobe" => 1_000,
        "fridge" => 700,
        "table" => 600,
        "washer" => 400,
        "chair" => 150,
        "box" => 60,
        _ => 250,
    }
}

/// The inventory's volume, in litres.
#[ranvier::trace_fn]
pub fn volume_litres(items: &[(String, u32)]) -> u32 {
    items
        .iter()
        .map(|(item, qty)| item_litres(item) * qty)
        .sum()
}

/// The charge for `miles`: the first ten are free.
#[ranvier::trace_fn]
pub fn distance_charge(miles: u32) -> u64 {
    u64::from(miles.saturating_sub(FREE_MILES)) * PER_MILE
}

/// Carrying `m3` down the stairs from `floor`: nothing from the ground floor or with a lift.
#[ranvier::trace_fn]
pub fn stairs_charge(floor: u32, lift: bool, m3: u32) -> u64 {
    if floor == 0 || lift {
        return 0;
    }
    u64::from(floor) * u64::from(m3) * PER_FLOOR_M3
}

/// The surcharge for moving on `day`, in percent: a quarter more at weekends and on bank holidays.
#[ranvier::trace_fn]
pub fn day_surcharge_percent(day: u32) -> u64 {
    if weekday(day) >= 5 || BANK_HOLIDAYS.contains(&day) {
        25
    } else {
        0
    }
}

/// Insurance cover: 2% of the declared value (in pounds), in pence.
#[ranvier::trace_fn]
pub fn cover_premium(declared: u64) -> u64 {
    declared * 100 * 2 / 100
}

/// What a claim pays: the loss up to the declared value, less the excess.
#[ranvier::trace_fn]
pub fn claim_payout(loss: u64, declared: u64) -> u64 {
    loss.min(declared * 100).saturating_sub(EXCESS)
}

/// The deposit taken on booking: a fifth of the price, at least £50.
#[ranvier::trace_fn]
pub fn deposit(total: u64) -> u64 {
    (total / 5).max(5_000)
}

/// The fee for cancelling with `notice` days to go: nothing from two weeks, a quarter from a week, half from two
/// days, the whole price after that.
#[ranvier::trace_fn]
pub fn cancellation_fee(notice: u32, quoted: u64) -> u64 {
    match notice {
        14.. => 0,
        7..=13 => quoted / 4,
        2..=6 => quoted / 2,
        _ => quoted,
    }
}

/// `quote`'s price with `stairs` as the stairs rule.
#[ranvier::trace_fn]
pub fn price(quote: &Quote, stairs: StairsRule) -> Price {
    let m3 = volume_litres(&quote.items).div_ceil(1_000);
    let volume = u64::from(m3) * PER_M3;
    let distance = distance_charge(quote.miles);
    let stairs = stairs(quote.floor, quote.lift, m3);
    let base = volume + distance + stairs;
    let surcharge = base * day_surcharge_percent(quote.day) / 100;
    let cover = cover_premium(quote.declared);
    Price {
        m3,
        volume,
        distance,
        stairs,
        surcharge,
        cover,
        total: base + surcharge + cover,
    }
}

/// Reads an inventory written `sofa:1 bed:2 box:20` (an item without a count is one).
#[ranvier::trace_fn]
pub fn parse_items(text: &str) -> Vec<(String, u32)> {
    text.split([' ', ','])
        .filter(|word| !word.is_empty())
        .map(|word| match word.split_once(':') {
            Some((item, qty)) => (item.to_owned(), qty.parse().unwrap_or(1)),
            None => (word.to_owned(), 1),
        })
        .collect()
}

/// The quote sheet: each open quote priced part by part, and what a claim on it would pay.
#[node]
pub fn quote_sheet(firm: &Mvu<Firm, Msg>, stairs: StairsRule) -> Memo<Vec<String>> {
    let quote_sheet = firm.select(move |firm| {
        let mut lines = Vec::new();
        for quote in &firm.quotes {
            if firm.jobs.iter().any(|job| job.quote == quote.no) {
                continue;
            }
            let price = price(quote, stairs);
            let mut parts = vec![format!("{} m³ {}", price.m3, pounds(price.volume))];
            if price.distance > 0 {
                parts.push(format!("{} miles {}", quote.miles, pounds(price.distance)));
            }
            if price.stairs > 0 {
                parts.push(format!(
                    "floor {} stairs {}",
                    quote.floor,
                    pounds(price.stairs)
                ));
            }
            if price.surcharge > 0 {
                parts.push(format!(
                    "{} surcharge {}",
                    weekday_name(quote.day),
                    pounds(price.surcharge)
                ));
            }
            let most = claim_payout(u64::MAX, quote.declared);
            parts.push(format!(
                "cover {} pays up to {}",
                pounds(price.cover),
                pounds(most)
            ));
            lines.push(format!(
                "quote {}, {}, day {}: {} ({}); deposit {}",
                quote.no,
                quote.customer,
                quote.day,
                pounds(price.total),
                parts.join(", "),
                pounds(deposit(price.total))
            ));
        }
        if lines.is_empty() {
            lines.push("no open quotes".to_owned());
        }
        lines
    });
    quote_sheet
}

pub mod slipped {
    use super::PER_FLOOR_M3;

    /// Carrying `m3` down the stairs from `floor`: nothing from the ground floor or with a lift.
    #[ranvier::trace_fn]
    pub fn stairs_charge(floor: u32, lift: bool, m3: u32) -> u64 {
        // BUG(stairs_lift)
        if floor == 0 && lift {
            return 0;
        }
        u64::from(floor) * u64::from(m3) * PER_FLOOR_M3
    }

    /// The fee for cancelling with `notice` days to go: nothing from two weeks, a quarter from a week, half from two
    /// days, the whole price after that.
    #[ranvier::trace_fn]
    pub fn cancellation_fee(notice: u32, quoted: u64) -> u64 {
        match notice {
            14.. => 0,
            // BUG(cancel_fee)
            7..=13 => quoted / 2,
            2..=6 => quoted / 2,
            _ => quoted,
        }
    }
}
