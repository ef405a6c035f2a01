//! The two services the dispensary calls over the network, simulated: the national prescription service, which
//! says whether a prescription's token is genuine and whose it is, and the wholesaler, which quotes for an order.

use std::fmt;
use std::time::Duration;

/// How long a round trip takes.
const LATENCY: Duration = Duration::from_millis(15);

/// Why a service gave no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ServiceError {
    /// It does not know what was asked about.
    NotFound(String),
    /// It cannot do it.
    Refused(String),
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServiceError::NotFound(what) => write!(f, "{what} not found"),
            ServiceError::Refused(why) => write!(f, "refused: {why}"),
        }
    }
}

/// What the prescription service says about a token.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenStatus {
    /// Genuine, and the patient's.
    Valid,
    /// Cancelled by the prescriber.
    Cancelled,
    /// Genuine, issued to someone else.
    OtherPatient,
}

/// The tokens the prescription service knows: the token, its patient, and whether it was cancelled.
const TOKENS: [(&str, &str, bool); 5] = [
    ("RX-1001", "Ada", false),
    ("RX-1002", "Ben", false),
    ("RX-1003", "Cleo", false),
    ("RX-1004", "Ada", true),
    ("RX-1005", "Dev", false),
];

/// Asks the prescription service about `token`, handed in for `patient`.
///
/// # Errors
///
/// [`ServiceError::NotFound`] for a token it never issued.
pub async fn check_token(token: &str, patient: &str) -> Result<TokenStatus, ServiceError> {
    tokio::time::sleep(LATENCY).await;
    let &(_, owner, cancelled) = TOKENS
        .iter()
        .find(|(t, _, _)| *t == token)
        .ok_or_else(|| ServiceError::NotFound(format!("token {token}")))?;
    Ok(if cancelled {
        TokenStatus::Cancelled
    } else if owner != patient {
        TokenStatus::OtherPatient
    } else {
        TokenStatus::Valid
    })
}

/// The wholesaler's quote for an order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quote {
    /// Packs to order.
    pub packs: u32,
    /// Their price, in pence.
    pub pence: u64,
    /// Days until it arrives.
    pub days: u32,
}

/// The wholesaler's catalogue: the medicine, its pack size, a pack's price in pence, days to deliver.
const CATALOGUE: [(&str, u32, u64, u32); 7] = [
    ("amox", 21, 110, 1),
    ("penv", 28, 185, 1),
    ("warf", 28, 95, 1),
    ("aspi", 28, 60, 1),
    ("simv", 28, 80, 2),
    ("metf", 28, 70, 1),
    ("sert", 28, 150, 3),
];

/// Asks the wholesaler what `quantity` of `medicine` costs and when it comes, in whole packs.
///
/// # Errors
///
/// [`ServiceError::Refused`] for a medicine it no longer supplies.
pub async fn quote(medicine: &str, quantity: u32) -> Result<Quote, ServiceError> {
    tokio::time::sleep(LATENCY).await;
    let (_, pack, price, days) = CATALOGUE
        .iter()
        .copied()
        .find(|(code, ..)| *code == medicine)
        .ok_or_else(|| ServiceError::Refused(format!("{medicine} is discontinued")))?;
    let packs = quantity.div_ceil(pack);
    Ok(Quote {
        packs,
        pence: price * u64::from(packs),
        days,
    })
}
