//! The services the pool talks to over the network, simulated: the card terminal provider, which settles each till's
//! card payments, and the council's leisure-card registry, which vouches for concessions.

use super::model::Kind;
use std::time::Duration;

/// What the terminal provider settled for one till.
#[derive(Clone, Debug, PartialEq)]
pub struct Settlement {
    pub payments: usize,
    pub gross: u32,
    pub fees: u32,
}

/// The card terminal provider.
pub struct Terminal {
    latency: Duration,
    /// Tills whose card reader is not answering.
    offline: Vec<u8>,
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal {
            latency: Duration::from_millis(30),
            offline: vec![3],
        }
    }
}

impl Terminal {
    /// Per payment, in pence.
    pub const FEE_PER_PAYMENT: u32 = 5;
    /// Per thousand pence taken.
    pub const FEE_PER_MILLE: u32 = 15;

    /// Settles `payments` (pence) taken on `till`'s card reader.
    ///
    /// # Errors
    ///
    /// When the till's reader does not answer.
    pub async fn settle(&self, till: u8, payments: Vec<u32>) -> Result<Settlement, String> {
        tokio::time::sleep(self.latency).await;
        if self.offline.contains(&till) {
            return Err(format!("the card reader of till {till} does not answer"));
        }
        let gross: u32 = payments.iter().sum();
        let fees =
            payments.len() as u32 * Self::FEE_PER_PAYMENT + gross * Self::FEE_PER_MILLE / 1_000;
        Ok(Settlement {
            payments: payments.len(),
            gross,
            fees,
        })
    }
}

/// A leisure card as the registry knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct CardHolder {
    pub card: String,
    /// The concession the card gives: `Senior` or `Student`.
    pub concession: Kind,
    /// Valid until this day of the year.
    pub expires: u32,
}

impl CardHolder {
    /// Whether the card gives a `kind` ticket on day `today`.
    ///
    /// # Errors
    ///
    /// Why it does not.
    pub fn check(&self, kind: Kind, today: u32) -> Result<(), String> {
        if self.concession != kind {
            Err(format!(
                "card {} is a {} card",
                self.card,
                self.concession.name()
            ))
        } else if self.expires < today {
            Err(format!(
                "card {} expired on day {}",
                self.card, self.expires
            ))
        } else {
            Ok(())
        }
    }
}

/// The council's leisure-card registry.
pub struct Registry {
    latency: Duration,
    cards: Vec<CardHolder>,
}

impl Default for Registry {
    fn default() -> Self {
        let card = |card: &str, concession, expires| CardHolder {
            card: card.to_owned(),
            concession,
            expires,
        };
        Registry {
            latency: Duration::from_millis(20),
            cards: vec![
                card("S-100", Kind::Student, 365),
                card("S-150", Kind::Student, 300),
                card("P-200", Kind::Senior, 500),
                card("P-210", Kind::Senior, 420),
            ],
        }
    }
}

impl Registry {
    /// The holder of `card`.
    ///
    /// # Errors
    ///
    /// When the registry has no such card.
    pub async fn lookup(&self, card: &str) -> Result<CardHolder, String> {
        tokio::time::sleep(self.latency).await;
        self.cards
            .iter()
            .find(|holder| holder.card == card)
            .cloned()
            .ok_or_else(|| format!("card {card} is not on the registry"))
    }
}
