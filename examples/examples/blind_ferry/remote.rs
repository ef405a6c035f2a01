//! The services the terminal talks to over the network, simulated: the harbour authorities, which quote the dues a
//! sailing owes its port of departure, and the marine forecast, which gives the wind on a route at an hour.

use super::model::Port;
use std::time::Duration;

/// The harbour authorities of the three ports.
pub struct Harbours {
    latency: Duration,
}

impl Default for Harbours {
    fn default() -> Self {
        Harbours {
            latency: Duration::from_millis(25),
        }
    }
}

impl Harbours {
    /// The dues a sailing from `port` owes for `passengers` and `vehicles`, in pence.
    ///
    /// # Errors
    ///
    /// When the port's office does not answer.
    pub async fn dues(&self, port: Port, passengers: u32, vehicles: u32) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        let (per_passenger, per_vehicle) = match port {
            Port::Oban => (85, 300),
            Port::Craignure => (60, 250),
            Port::Lismore => return Err("the Lismore pier office does not answer".to_owned()),
        };
        Ok(passengers * per_passenger + vehicles * per_vehicle)
    }
}

/// The marine forecast.
pub struct Forecast {
    latency: Duration,
}

impl Default for Forecast {
    fn default() -> Self {
        Forecast {
            latency: Duration::from_millis(15),
        }
    }
}

impl Forecast {
    /// The mean wind, in knots, between `from` and `to` at `minute` (since midnight) today.
    ///
    /// # Errors
    ///
    /// Past the forecast's end, 18:00.
    pub async fn wind(&self, from: Port, to: Port, minute: u32) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        if minute >= 18 * 60 {
            return Err("no forecast after 18:00".to_owned());
        }
        let lismore = from == Port::Lismore || to == Port::Lismore;
        Ok(match (lismore, minute >= 12 * 60, minute >= 9 * 60) {
            (false, false, _) => 22,
            (false, true, _) => 44,
            (true, _, false) => 18,
            (true, _, true) => 34,
        })
    }
}
