//! The services the practice asks over the network, simulated: the pet insurers' policy lookup and the
//! wholesaler's price list. Each answers after a short delay, as a network call would.

use std::time::Duration;

/// How long a service takes to answer.
pub const LATENCY: Duration = Duration::from_millis(15);

/// A pet's insurance policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// The insurer.
    pub insurer: String,
    /// The share of a claim it pays, in percent.
    pub covers_percent: u32,
    /// What the owner pays on each claim before the insurer pays its share, in cents.
    pub excess: u32,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            insurer: "none".to_owned(),
            covers_percent: 0,
            excess: 0,
        }
    }
}

/// The insurers' shared lookup: the policy covering `pet`.
///
/// # Errors
///
/// The lookup's answer for a pet with no policy in force.
pub async fn policy(pet: &str) -> Result<Policy, String> {
    tokio::time::sleep(LATENCY).await;
    let (insurer, covers_percent, excess) = match pet {
        "Rex" => ("PetCover", 80, 20_00),
        "Bruno" => ("Paws Mutual", 90, 50_00),
        "Milo" => return Err("the policy lapsed".to_owned()),
        _ => return Err("no policy on file".to_owned()),
    };
    Ok(Policy {
        insurer: insurer.to_owned(),
        covers_percent,
        excess,
    })
}

/// The wholesaler's price for a pack of `drug`, in cents.
///
/// # Errors
///
/// The wholesaler's answer for a medicine it does not sell.
pub async fn pack_price(drug: &str) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    match drug {
        "Amoxicillin 250 mg" => Ok(32_00),
        "Carprofen 50 mg" => Ok(24_50),
        "Meloxicam 1 mg" => Ok(9_80),
        "Prednisolone 5 mg" => Ok(6_40),
        "Ketoprofen 10 mg" => Err("no longer made".to_owned()),
        "Methimazole 5 mg" => Err("not sold: order it from the compounding pharmacy".to_owned()),
        other => Err(format!("no product {other:?}")),
    }
}
