//! The services the office talks to over the network, simulated: the fuel-price feed, which quotes today's pump
//! price a litre, and the insurer, which says what it pays towards a repair.

use super::model::Fuel;
use std::time::Duration;

/// The fuel-price feed.
pub struct FuelFeed {
    latency: Duration,
}

impl Default for FuelFeed {
    fn default() -> Self {
        FuelFeed {
            latency: Duration::from_millis(20),
        }
    }
}

impl FuelFeed {
    /// Today's price of a litre of `fuel`, in pence.
    ///
    /// # Errors
    ///
    /// When the feed has no price for the fuel.
    pub async fn price(&self, fuel: Fuel) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        match fuel {
            Fuel::Petrol => Ok(145),
            Fuel::Diesel => Ok(152),
        }
    }
}

/// The insurer.
pub struct Insurer {
    latency: Duration,
    /// The cars on the policy.
    policy: Vec<&'static str>,
    /// The share of a repair the insurer pays, in percent.
    share: u32,
}

impl Default for Insurer {
    fn default() -> Self {
        Insurer {
            latency: Duration::from_millis(25),
            policy: vec![
                "YK21 AAA", "YK21 BBB", "YK22 CCC", "YK22 GGG", "YK20 DDD", "YK19 EEE",
            ],
            share: 80,
        }
    }
}

impl Insurer {
    /// What the insurer pays towards a repair costing `cost` on car `reg`, in pence.
    ///
    /// # Errors
    ///
    /// When the car is not on the policy.
    pub async fn claim(&self, reg: &str, cost: u32) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        if self.policy.contains(&reg) {
            Ok(cost * self.share / 100)
        } else {
            Err(format!("{reg} is not on the policy"))
        }
    }
}
