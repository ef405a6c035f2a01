//! The two network services the office asks, simulated: a route planner (road miles between postcode areas) and a
//! fuel-price feed (diesel, pence a litre). Each answers after a short delay, as a real one would.

use std::time::Duration;

/// How long a service takes to answer.
const LATENCY: Duration = Duration::from_millis(15);

/// The route planner.
pub struct RouteService {
    /// (from, to, road miles), either way round.
    roads: Vec<(&'static str, &'static str, u32)>,
}

impl Default for RouteService {
    fn default() -> Self {
        RouteService {
            roads: vec![
                ("LS", "YO", 26),
                ("LS", "M", 44),
                ("LS", "HG", 16),
                ("YO", "HG", 21),
                ("M", "SK", 9),
            ],
        }
    }
}

impl RouteService {
    /// Road miles from `from` to `to`, or `None` for a pair the planner does not know.
    pub async fn miles(&self, from: &str, to: &str) -> Option<u32> {
        tokio::time::sleep(LATENCY).await;
        if from == to {
            return Some(3);
        }
        self.roads
            .iter()
            .find(|(a, b, _)| (*a == from && *b == to) || (*a == to && *b == from))
            .map(|road| road.2)
    }
}

/// The fuel-price feed.
pub struct FuelFeed {
    pence: u32,
}

impl Default for FuelFeed {
    fn default() -> Self {
        FuelFeed { pence: 162 }
    }
}

impl FuelFeed {
    /// Today's diesel price, pence a litre.
    pub async fn diesel_pence(&self) -> u32 {
        tokio::time::sleep(LATENCY).await;
        self.pence
    }
}
