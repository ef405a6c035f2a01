//! The services the box office talks to over the network, simulated: the card acquirer, which settles each
//! performance's card takings, and the rights agency, which licenses the shows and sets their royalty rates.

use std::time::Duration;

/// What the acquirer settled for one performance.
#[derive(Clone, Debug, PartialEq)]
pub struct Settlement {
    pub payments: usize,
    pub gross: u32,
    pub charges: u32,
}

/// The card acquirer.
pub struct Acquirer {
    latency: Duration,
    /// Performances whose batch the acquirer holds for review.
    review: Vec<u32>,
}

impl Default for Acquirer {
    fn default() -> Self {
        Acquirer {
            latency: Duration::from_millis(25),
            review: vec![2],
        }
    }
}

impl Acquirer {
    /// Per payment, pence.
    pub const PER_PAYMENT: u32 = 20;
    /// Per thousand pence taken.
    pub const PER_MILLE: u32 = 12;

    /// Settles the card `payments` (pence) taken for performance `perf`.
    ///
    /// # Errors
    ///
    /// When the acquirer holds the batch for review.
    pub async fn settle(&self, perf: u32, payments: Vec<u32>) -> Result<Settlement, String> {
        tokio::time::sleep(self.latency).await;
        if self.review.contains(&perf) {
            return Err("the acquirer holds the batch for review".to_owned());
        }
        let gross: u32 = payments.iter().sum();
        let charges = payments.len() as u32 * Self::PER_PAYMENT + gross * Self::PER_MILLE / 1_000;
        Ok(Settlement {
            payments: payments.len(),
            gross,
            charges,
        })
    }
}

/// A show's licence from the rights agency.
#[derive(Clone, Debug, PartialEq)]
pub struct Licence {
    pub show: String,
    pub holder: String,
    /// The royalty, in basis points (hundredths of a per cent) of the net box office receipts.
    pub rate_bp: u32,
}

/// The rights agency.
pub struct Agency {
    latency: Duration,
    licences: Vec<Licence>,
}

impl Default for Agency {
    fn default() -> Self {
        let licence = |show: &str, holder: &str, rate_bp| Licence {
            show: show.to_owned(),
            holder: holder.to_owned(),
            rate_bp,
        };
        Agency {
            latency: Duration::from_millis(20),
            licences: vec![
                licence("Private Lives", "the Coward estate", 1_000),
                licence("The Pirates", "Penzance Music Ltd", 1_250),
            ],
        }
    }
}

impl Agency {
    /// The licence for `show`.
    ///
    /// # Errors
    ///
    /// When the agency licenses no such show (it is out of copyright).
    pub async fn licence(&self, show: &str) -> Result<Licence, String> {
        tokio::time::sleep(self.latency).await;
        self.licences
            .iter()
            .find(|licence| licence.show == show)
            .cloned()
            .ok_or_else(|| format!("{show} is out of copyright"))
    }
}
