//! The services the shop talks to over the network, simulated: the wholesaler's price feed, which quotes today's
//! price of a bunch of each flower, and the courier, which quotes a delivery by zone and boxes.

use std::time::Duration;

/// The wholesaler's morning price feed.
pub struct Wholesaler {
    latency: Duration,
}

impl Default for Wholesaler {
    fn default() -> Self {
        Wholesaler {
            latency: Duration::from_millis(25),
        }
    }
}

impl Wholesaler {
    /// Today's price of a bunch of `flower`, in pence.
    ///
    /// # Errors
    ///
    /// When the feed has no price for the flower today.
    pub async fn price(&self, flower: &str) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        match flower {
            "rose" => Ok(1_100),
            "tulip" => Ok(420),
            "lily" => Ok(800),
            "gypsophila" => Ok(480),
            other => Err(format!("no {other} in today's feed")),
        }
    }
}

/// The courier the shop sends zone 3 with.
pub struct Courier {
    latency: Duration,
}

impl Default for Courier {
    fn default() -> Self {
        Courier {
            latency: Duration::from_millis(20),
        }
    }
}

impl Courier {
    /// A delivery to `zone` of `boxes` boxes, in pence: £4.00 a zone and £1.50 a box.
    ///
    /// # Errors
    ///
    /// When the courier does not go to the zone.
    pub async fn quote(&self, zone: u32, boxes: u32) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        if !(1..=4).contains(&zone) {
            return Err(format!("the courier does not go to zone {zone}"));
        }
        Ok(400 * zone + 150 * boxes)
    }
}
