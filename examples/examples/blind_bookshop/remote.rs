//! The two network services the shop asks, simulated: the distributor's availability feed and the courier's postage
//! quote. Each answers after a short delay on tokio's timer.

use std::collections::HashMap;
use std::time::Duration;

/// How long a service takes to answer.
const DELAY: Duration = Duration::from_millis(15);

/// The distributor's feed: the copies it can send today, by book code.
pub struct Distributor {
    available: HashMap<&'static str, u32>,
}

impl Default for Distributor {
    fn default() -> Self {
        Distributor {
            available: HashMap::from([("hobbit", 20), ("dune", 3), ("lighthouse", 40)]),
        }
    }
}

impl Distributor {
    /// The copies of `code` the distributor can send, or `None` when its feed does not carry the book.
    pub async fn available(&self, code: &str) -> Option<u32> {
        tokio::time::sleep(DELAY).await;
        self.available.get(code).copied()
    }
}

/// The courier's tracked service, priced by weight band.
#[derive(Default)]
pub struct Courier;

impl Courier {
    /// The courier's price for a parcel of `grams`, in pence.
    pub async fn quote(&self, grams: u32) -> u32 {
        tokio::time::sleep(DELAY).await;
        match grams {
            0..=500 => 395,
            501..=1_000 => 495,
            1_001..=2_000 => 695,
            2_001..=5_000 => 995,
            _ => 1_495,
        }
    }
}
