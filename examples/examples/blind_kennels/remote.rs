//! The services the kennels talk to over the network, simulated: the vets' surgery, which holds each pet's
//! vaccination record, and the card processor, which holds the deposits taken at booking.

use std::time::Duration;

/// The vets' surgery the regulars are registered with.
pub struct Surgery {
    latency: Duration,
    /// Pet, and the day its vaccinations run out.
    records: Vec<(&'static str, u32)>,
}

impl Default for Surgery {
    fn default() -> Self {
        Surgery {
            latency: Duration::from_millis(25),
            records: vec![
                ("Rex", 130),
                ("Bella", 104),
                ("Biscuit", 200),
                ("Tom", 150),
                ("Max", 90),
                ("Luna", 98),
            ],
        }
    }
}

impl Surgery {
    /// The day `pet`'s vaccinations run out, as the surgery's record has it.
    ///
    /// # Errors
    ///
    /// When the surgery has no record of the pet.
    pub async fn vaccinated_until(&self, pet: &str) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        self.records
            .iter()
            .find(|(name, _)| *name == pet)
            .map(|&(_, until)| until)
            .ok_or_else(|| format!("the surgery has no record of {pet}"))
    }
}

/// What the processor holds for a deposit.
#[derive(Clone, Debug, PartialEq)]
pub struct Hold {
    /// Pounds.
    pub amount: f64,
    /// Pounds.
    pub fee: f64,
}

/// The card processor: its API takes amounts in pounds.
pub struct Processor {
    latency: Duration,
    /// The most one hold may be, in pounds.
    limit: f64,
    /// Owners whose card is declined.
    declined: Vec<&'static str>,
}

impl Default for Processor {
    fn default() -> Self {
        Processor {
            latency: Duration::from_millis(30),
            limit: 500.0,
            declined: vec!["Jones"],
        }
    }
}

impl Processor {
    /// Per hold, pounds.
    pub const FEE: f64 = 0.20;
    /// Of the amount held.
    pub const FEE_RATE: f64 = 0.014;

    /// Holds `amount` pounds on `owner`'s card.
    ///
    /// # Errors
    ///
    /// When the card is declined or the amount is over the processor's limit.
    pub async fn hold(&self, owner: &str, amount: f64) -> Result<Hold, String> {
        tokio::time::sleep(self.latency).await;
        if self.declined.contains(&owner) {
            return Err(format!("{owner}'s card was declined"));
        }
        if amount > self.limit {
            return Err(format!("£{amount:.2} is over the £{:.2} limit", self.limit));
        }
        Ok(Hold {
            amount,
            fee: Self::FEE + amount * Self::FEE_RATE,
        })
    }
}
