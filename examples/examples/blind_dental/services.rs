//! The async memos: the insurer's check of the plan's claims, and the lab's delivery estimate for each crown.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Mvu, node};

use super::model::{Msg, Practice};
use super::remote::{self, Arrival, Claim};

/// What the insurer's check came to.
#[derive(Debug, Clone, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct ClaimSummary {
    /// Claims sent.
    pub claims: usize,
    /// What the insurer pays back, in pence.
    pub repaid: u64,
    /// Patients with a claim refused, each once.
    pub refused: Vec<String>,
    /// The insurer's batch reference.
    pub reference: String,
}

/// Two checks are the same outcome whatever reference the insurer gave the batch.
impl PartialEq for ClaimSummary {
    fn eq(&self, other: &Self) -> bool {
        self.claims == other.claims && self.repaid == other.repaid && self.refused == other.refused
    }
}

/// A crown on its way from the lab.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct CrownEta {
    /// Whose crown.
    pub patient: String,
    /// The day the impression was taken.
    pub taken: u32,
    /// The day the lab delivers it.
    pub arrives: u32,
    /// Days until then.
    pub days_left: u32,
}

/// The claims for plan treatment: every charge whose list price is above what the patient paid.
fn open_claims(practice: &Practice) -> Vec<Claim> {
    practice
        .charges
        .iter()
        .filter(|c| c.list > c.amount)
        .filter_map(|c| {
            let patient = practice.patient(&c.patient)?;
            Some(Claim {
                patient: c.patient.clone(),
                day: c.day,
                joined: patient.joined,
                list: c.list,
                amount: c.amount,
            })
        })
        .collect()
}

/// The insurer's check of the open claims.
#[node]
pub fn claim_check(practice: &Mvu<Practice, Msg>) -> AsyncMemo<ClaimSummary> {
    let claims = practice.select(open_claims);
    let claim_check = AsyncMemo::try_new(move |_| {
        let claims = claims.get();
        async move {
            let verdicts = remote::insurer(&claims).await?;
            let mut repaid = 0;
            let mut refused: Vec<String> = Vec::new();
            for (claim, paid) in claims.iter().zip(&verdicts.paid) {
                if !paid {
                    if !refused.contains(&claim.patient) {
                        refused.push(claim.patient.clone());
                    }
                    continue;
                }
                repaid += claim.list.saturating_sub(claim.amount);
            }
            Ok::<_, String>(ClaimSummary {
                claims: claims.len(),
                repaid,
                refused,
                reference: verdicts.reference,
            })
        }
    });
    claim_check
}

/// When each crown at the lab arrives.
#[node]
pub fn crown_etas(practice: &Mvu<Practice, Msg>, arrival: Arrival) -> AsyncMemo<Vec<CrownEta>> {
    let impressions = practice.select(|practice| practice.impressions.clone());
    let today = practice.select(|practice| practice.day);
    let crowns = AsyncMemo::new(move |_| {
        let (impressions, today) = (impressions.get(), today.get());
        async move {
            let mut etas = Vec::new();
            for impression in impressions {
                let arrives = remote::lab(impression.taken, arrival).await;
                etas.push(CrownEta {
                    patient: impression.patient,
                    taken: impression.taken,
                    arrives,
                    days_left: arrives.saturating_sub(today),
                });
            }
            etas
        }
    });
    crowns
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::claim_check`], with a mistake.
    #[node]
    pub fn claim_check(practice: &Mvu<Practice, Msg>) -> AsyncMemo<ClaimSummary> {
        let claims = practice.select(open_claims);
        let claim_check = AsyncMemo::try_new(move |_| {
            let claims = claims.get();
            async move {
                let verdicts = remote::insurer(&claims).await?;
                let mut repaid = 0;
                let mut refused: Vec<String> = Vec::new();
                for (claim, paid) in claims.iter().zip(&verdicts.paid) {
                    if !paid {
                        if !refused.contains(&claim.patient) {
                            refused.push(claim.patient.clone());
                        }
                        continue;
                    }
                    // BUG(claim_swapped)
                    repaid += claim.amount.saturating_sub(claim.list);
                }
                Ok::<_, String>(ClaimSummary {
                    claims: claims.len(),
                    repaid,
                    refused,
                    reference: verdicts.reference,
                })
            }
        });
        claim_check
    }
}
