//! The simulated services: the insurer that checks the plan's claims and the lab that makes the crowns. Each answers
//! after a short wait, as a real one would over the network.

use std::time::Duration;

use ranvier::serde::Serialize;

/// How long the insurer takes to answer, in milliseconds.
pub const INSURER_MS: u64 = 25;
/// How long the lab takes to answer, in milliseconds.
pub const LAB_MS: u64 = 15;
/// Days after joining before the insurer pays a plan claim.
pub const WAITING_DAYS: u32 = 30;
/// The most claims the insurer takes in one batch.
pub const BATCH_LIMIT: usize = 200;
/// Working days the lab takes to make a crown.
pub const LAB_WORKING_DAYS: u32 = 5;

/// A claim sent to the insurer: the plan's discount on a treatment, which the insurer pays back.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Claim {
    /// Whose treatment.
    pub patient: String,
    /// The day it was done.
    pub day: u32,
    /// The day the patient joined.
    pub joined: u32,
    /// The list price, in pence.
    pub list: u64,
    /// What the patient was charged, in pence.
    pub amount: u64,
}

/// The insurer's answer: a verdict per claim, in order, and its batch reference.
#[derive(Debug, Clone)]
pub struct Verdicts {
    /// Whether each claim is paid.
    pub paid: Vec<bool>,
    /// The insurer's reference for the batch.
    pub reference: String,
}

/// Asks the insurer about `claims`: a claim for a treatment inside the waiting period is not paid.
///
/// # Errors
///
/// The insurer's refusal of a batch over [`BATCH_LIMIT`].
pub async fn insurer(claims: &[Claim]) -> Result<Verdicts, String> {
    tokio::time::sleep(Duration::from_millis(INSURER_MS)).await;
    if claims.len() > BATCH_LIMIT {
        return Err(format!(
            "the insurer takes at most {BATCH_LIMIT} claims a batch"
        ));
    }
    let paid = claims
        .iter()
        .map(|claim| claim.day >= claim.joined + WAITING_DAYS)
        .collect();
    let total: u64 = claims.iter().map(|c| c.list).sum();
    Ok(Verdicts {
        paid,
        reference: format!("INS-{}-{total}", claims.len()),
    })
}

/// A lab rule: the day a crown whose impression was taken on `taken` arrives.
pub type Arrival = fn(u32) -> u32;

/// The day the lab delivers a crown whose impression was taken on `taken`: five working days later (day 1 is a
/// Monday; the lab works neither Saturday nor Sunday).
pub fn crown_arrival(taken: u32) -> u32 {
    let mut day = taken;
    let mut left = LAB_WORKING_DAYS;
    while left > 0 {
        day += 1;
        let weekday = day % 7;
        if weekday == 6 || weekday == 0 {
            continue;
        }
        left -= 1;
    }
    day
}

/// Asks the lab when the crown from `taken`'s impression arrives, by its rule `arrival`.
pub async fn lab(taken: u32, arrival: Arrival) -> u32 {
    tokio::time::sleep(Duration::from_millis(LAB_MS)).await;
    arrival(taken)
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::crown_arrival`], with a mistake.
    pub fn crown_arrival(taken: u32) -> u32 {
        let mut day = taken;
        let mut left = LAB_WORKING_DAYS;
        while left > 0 {
            day += 1;
            let weekday = day % 7;
            // BUG(lab_saturday)
            if weekday == 0 {
                continue;
            }
            left -= 1;
        }
        day
    }
}
