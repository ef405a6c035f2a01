//! The drivers' collection rounds: each driver lifts at most [`MAX_LIFTS`] skips a day, and every load goes over
//! the landfill's weighbridge at a tip fee per tonne.

use ranvier::serde::Serialize;

use super::charges::weight_limit;
use super::model::{Hire, Size};

/// The most skips one driver lifts in a day.
pub const MAX_LIFTS: usize = 3;
/// The landfill's tip fee, in pence per tonne.
pub const TIP_PER_TONNE: u64 = 11_500;
/// The landfill's tip fee for hazardous waste, in pence per tonne.
pub const HAZARD_TIP_PER_TONNE: u64 = 32_000;

/// One driver's round.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Round {
    /// The driver.
    pub driver: String,
    /// The tickets lifted, in booking order.
    pub lifts: Vec<String>,
    /// The loads expected, in tenths of a tonne.
    pub tenths: u32,
}

/// Today's plan: the rounds, the skips left waiting, and the tip fees expected.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct RoundPlan {
    /// The rounds, by driver.
    pub rounds: Vec<Round>,
    /// Skips no round lifts today.
    pub waiting: Vec<String>,
    /// The tip fees expected at the landfill, in pence.
    pub tip_fees: u64,
}

/// Two plans are the same plan when they lift the same skips and leave the same ones waiting: the tip fees follow
/// from the rounds.
impl PartialEq for RoundPlan {
    fn eq(&self, other: &Self) -> bool {
        self.rounds == other.rounds && self.waiting == other.waiting
    }
}

/// What a full skip is expected to weigh: its limit, less for a mini (they are rarely filled).
fn expected_load(size: Size) -> u32 {
    match size {
        Size::Mini => weight_limit(size) * 8 / 10,
        Size::Midi | Size::Builders => weight_limit(size),
    }
}

/// Plans today's rounds over the skips out.
pub fn round_plan(open: &[Hire]) -> RoundPlan {
    let mut rounds: Vec<Round> = Vec::new();
    let mut waiting = Vec::new();
    let mut tip_fees = 0;
    for hire in open {
        let Some(driver) = hire.driver.as_deref() else {
            waiting.push(hire.id.clone());
            continue;
        };
        let at = match rounds.iter().position(|round| round.driver == driver) {
            Some(at) => at,
            None => {
                rounds.push(Round {
                    driver: driver.to_owned(),
                    lifts: Vec::new(),
                    tenths: 0,
                });
                rounds.len() - 1
            }
        };
        let round = &mut rounds[at];
        if round.lifts.len() >= MAX_LIFTS {
            waiting.push(hire.id.clone());
            continue;
        }
        let load = expected_load(hire.size);
        let rate = if hire.hazardous {
            HAZARD_TIP_PER_TONNE
        } else {
            TIP_PER_TONNE
        };
        tip_fees += u64::from(load) * rate / 10;
        round.lifts.push(hire.id.clone());
        round.tenths += load;
    }
    rounds.sort_by(|a, b| a.driver.cmp(&b.driver));
    RoundPlan {
        rounds,
        waiting,
        tip_fees,
    }
}

pub mod slipped {
    use super::super::model::Hire;
    use super::{HAZARD_TIP_PER_TONNE, MAX_LIFTS, Round, RoundPlan, TIP_PER_TONNE, expected_load};

    pub fn round_plan(open: &[Hire]) -> RoundPlan {
        let mut rounds: Vec<Round> = Vec::new();
        let mut waiting = Vec::new();
        let mut tip_fees = 0;
        for hire in open {
            let Some(driver) = hire.driver.as_deref() else {
                waiting.push(hire.id.clone());
                continue;
            };
            let at = match rounds.iter().position(|round| round.driver == driver) {
                Some(at) => at,
                None => {
                    rounds.push(Round {
                        driver: driver.to_owned(),
                        lifts: Vec::new(),
                        tenths: 0,
                    });
                    rounds.len() - 1
                }
            };
            let round = &mut rounds[at];
            // BUG(round_cap_off_by_one)
            if round.lifts.len() > MAX_LIFTS {
                waiting.push(hire.id.clone());
                continue;
            }
            let load = expected_load(hire.size);
            let rate = if hire.hazardous {
                HAZARD_TIP_PER_TONNE
            } else {
                TIP_PER_TONNE
            };
            tip_fees += u64::from(load) * rate / 10;
            round.lifts.push(hire.id.clone());
            round.tenths += load;
        }
        rounds.sort_by(|a, b| a.driver.cmp(&b.driver));
        RoundPlan {
            rounds,
            waiting,
            tip_fees,
        }
    }
}
