//! The services the house calls over the network, simulated: the card processor and the shipping broker. Each answer
//! takes a little while (a tokio timer), as a real round trip would.

use std::fmt;
use std::time::Duration;

/// How long a call takes.
pub const LATENCY: Duration = Duration::from_millis(15);

/// Why the card processor could not authorize.
#[derive(Clone, Debug, PartialEq)]
pub enum CardError {
    /// The processor does not take this card's network.
    Network(String),
    /// The number is not a card.
    Invalid,
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::Network(name) => write!(f, "{name} cards are not accepted"),
            CardError::Invalid => f.write_str("not a card number"),
        }
    }
}

/// The card processor: it authorizes an amount on a card, up to what the card has available.
#[derive(Clone, Debug, Default)]
pub struct CardProcessor;

impl CardProcessor {
    /// Authorizes `cents` on `card`: the amount held, which is less when the card has less available.
    ///
    /// # Errors
    ///
    /// A card of a network the processor does not take, or no card number at all.
    pub async fn authorize(&self, card: &str, cents: u64) -> Result<u64, CardError> {
        tokio::time::sleep(LATENCY).await;
        let digits: String = card.chars().filter(|c| !c.is_whitespace()).collect();
        if digits.len() < 12 || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(CardError::Invalid);
        }
        let available = match digits.as_bytes()[0] {
            b'4' => 500_000,
            b'5' => 200_000,
            b'3' => return Err(CardError::Network("American Express".to_owned())),
            _ => return Err(CardError::Network("this".to_owned())),
        };
        Ok(cents.min(available))
    }
}

/// The shipping broker: a courier's price for a consignment to a country.
#[derive(Clone, Debug, Default)]
pub struct ShippingBroker;

/// The heaviest consignment a courier takes, in kilograms.
pub const COURIER_MAX_KG: u64 = 30;

impl ShippingBroker {
    /// The price, in cents, of sending `kilos` kilograms to `country`.
    ///
    /// # Errors
    ///
    /// A country no courier serves, or a consignment too heavy for a courier.
    pub async fn quote(&self, country: &str, kilos: u64) -> Result<u64, String> {
        tokio::time::sleep(LATENCY).await;
        let (base, per_kilo) = match country {
            "FR" => (1_200, 250),
            "DE" | "BE" | "NL" => (1_500, 300),
            "GB" => (2_500, 450),
            other => return Err(format!("no courier to {other}")),
        };
        if kilos > COURIER_MAX_KG {
            return Err(format!("over {COURIER_MAX_KG} kg, freight only"));
        }
        Ok(base + per_kilo * kilos)
    }
}
