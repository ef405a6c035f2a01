//! Prices: retail bags, and the wholesale tiers for kilo bags bought by the case.

use super::model::Bag;

/// A 250 g bag at retail, in cents.
pub const QUARTER_CENTS: u32 = 950;

/// A 1 kg bag at retail, in cents.
pub const KILO_CENTS: u32 = 3_200;

/// The fewest kilo bags priced on the wholesale tiers.
pub const WHOLESALE_MIN_BAGS: u32 = 5;

/// Whether `qty` bags of `bag` are a wholesale order (kilo bags only, at least [`WHOLESALE_MIN_BAGS`]).
#[ranvier::trace_fn]
pub fn is_wholesale(bag: Bag, qty: u32) -> bool {
    match bag {
        Bag::Kilo => qty >= WHOLESALE_MIN_BAGS,
        Bag::Quarter => false,
    }
}

/// What one kilo costs on the wholesale tiers for an order of `bags` kilo bags, in cents: 5 to 9 bags at 26.00, 10
/// to 19 at 23.00, 20 or more at 20.00.
#[ranvier::trace_fn]
pub fn wholesale_kilo_cents(bags: u32) -> u32 {
    if bags >= 20 {
        return 2_000;
    }
    if bags >= 10 {
        return 2_300;
    }
    2_600
}

/// What `qty` bags of `bag` cost, in cents: at retail, or on the wholesale tiers for a wholesale order.
#[ranvier::trace_fn]
pub fn order_price(bag: Bag, qty: u32, wholesale: bool) -> u32 {
    if wholesale && bag == Bag::Kilo {
        return qty * wholesale_kilo_cents(qty);
    }
    let each = match bag {
        Bag::Quarter => QUARTER_CENTS,
        Bag::Kilo => KILO_CENTS,
    };
    qty * each
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use super::super::model::Bag;
    use super::{KILO_CENTS, QUARTER_CENTS};

    /// [`super::wholesale_kilo_cents`], with a mistake.
    #[ranvier::trace_fn]
    pub fn wholesale_kilo_cents(bags: u32) -> u32 {
        if bags >= 20 {
            return 2_000;
        }
        // BUG(wholesale_tier)
        if bags > 10 {
            return 2_300;
        }
        2_600
    }

    /// [`super::order_price`], calling the copy of the tiers.
    #[ranvier::trace_fn]
    pub fn order_price(bag: Bag, qty: u32, wholesale: bool) -> u32 {
        if wholesale && bag == Bag::Kilo {
            return qty * wholesale_kilo_cents(qty);
        }
        let each = match bag {
            Bag::Quarter => QUARTER_CENTS,
            Bag::Kilo => KILO_CENTS,
        };
        qty * each
    }
}
