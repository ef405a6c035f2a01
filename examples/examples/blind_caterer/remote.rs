//! The services the caterer asks and waits for, simulated: the hire company's price list and the card processor's
//! fees. Each answers after a short delay, as a call over the network would.

use std::time::Duration;

/// The hire company's prices, in cents per item hired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceList {
    /// A plate.
    pub plate: u64,
    /// A cutlery set.
    pub cutlery: u64,
    /// A glass.
    pub glass: u64,
    /// A tablecloth.
    pub tablecloth: u64,
    /// A marquee, put up and taken down.
    pub marquee: u64,
    /// A delivery (and the collection after).
    pub delivery: u64,
}

/// The hire company's current price list.
pub async fn hire_prices() -> PriceList {
    tokio::time::sleep(Duration::from_millis(40)).await;
    PriceList {
        plate: 45,
        cutlery: 60,
        glass: 35,
        tablecloth: 600,
        marquee: 95_000,
        delivery: 7_500,
    }
}

/// What the card processor keeps of each payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardFees {
    /// A share of the amount, in basis points (hundredths of a percent).
    pub rate_bps: u64,
    /// And a fixed fee per payment, in cents.
    pub fixed: u64,
}

/// The card processor's fees on the caterer's account.
pub async fn card_fees() -> CardFees {
    tokio::time::sleep(Duration::from_millis(25)).await;
    CardFees {
        rate_bps: 140,
        fixed: 20,
    }
}
