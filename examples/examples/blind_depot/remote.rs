//! The services the depot calls over the network, simulated: the carrier's tariff and the suppliers' lead times.
//! Each call takes a few milliseconds, as a round trip would.

use std::collections::HashMap;
use std::time::Duration;

/// How long a round trip to a service takes.
const ROUND_TRIP: Duration = Duration::from_millis(15);

/// The carrier's rate service.
#[derive(Clone, Debug)]
pub struct Carrier {
    /// Per zone: cents per parcel, and cents per started kilogram.
    tariff: HashMap<&'static str, (u64, u64)>,
}

impl Default for Carrier {
    fn default() -> Self {
        Carrier {
            tariff: HashMap::from([("N1", (450, 80)), ("S2", (600, 110)), ("EU", (1_400, 260))]),
        }
    }
}

impl Carrier {
    /// The price of sending `parcels` parcels weighing `kilos` kilograms in all to `zone`, in cents.
    ///
    /// # Errors
    ///
    /// A zone the carrier does not serve.
    pub async fn quote(&self, zone: &str, kilos: u32, parcels: u32) -> Result<u64, String> {
        tokio::time::sleep(ROUND_TRIP).await;
        let (per_parcel, per_kilo) = self
            .tariff
            .get(zone)
            .copied()
            .ok_or_else(|| format!("the carrier does not serve zone {zone}"))?;
        Ok(per_parcel * u64::from(parcels) + per_kilo * u64::from(kilos))
    }
}

/// The suppliers' portal: how many days each takes to deliver.
#[derive(Clone, Debug)]
pub struct Suppliers {
    lead_days: Vec<(&'static str, u32)>,
}

impl Suppliers {
    /// The suppliers the portal knows.
    pub fn portal() -> Self {
        Suppliers {
            lead_days: vec![("Ferro", 2), ("Ignis", 5), ("Klar", 3)],
        }
    }

    /// Days from a reorder to its delivery, for `supplier`.
    ///
    /// # Errors
    ///
    /// A supplier the portal does not list.
    pub async fn lead_days(&self, supplier: &str) -> Result<u32, String> {
        tokio::time::sleep(ROUND_TRIP).await;
        self.lead_days
            .iter()
            .find(|(name, _)| *name == supplier)
            .map(|&(_, days)| days)
            .ok_or_else(|| format!("{supplier} is not on the portal"))
    }
}
