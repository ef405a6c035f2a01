//! Brewing rules: how long each stage takes, where a batch goes next, how strong it came out, and which lot an
//! ingredient is drawn from.

use super::graph::Slip;
use super::model::{Brewery, Lot, Recipe, Stage, units};

/// Alcohol by volume in tenths of a percent, from the original and final gravities (thousandths): the usual
/// `(OG - FG) × 131.25`.
pub fn abv(og: u32, fg: u32) -> u32 {
    og.saturating_sub(fg) * 13_125 / 10_000
}

/// Days a batch of `recipe` spends in `stage` (0 for a stage it stays in until someone moves it).
pub fn stage_days(stage: Stage, recipe: &Recipe) -> u32 {
    match stage {
        Stage::Mash | Stage::Boil => 1,
        Stage::Fermenting => recipe.ferment_days,
        Stage::Conditioning => recipe.condition_days,
        Stage::Bright | Stage::Packaged => 0,
    }
}

/// Where a batch goes when its stage ends: the next stage, and the kind of tank it needs (`None`: it stays in its
/// tank).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The next stage.
    pub stage: Stage,
    /// The tank kind, by the start of its name (`FV`), or `None` to stay.
    pub tank: Option<&'static str>,
}

/// The step after `stage`; `None` for a batch nothing moves on its own.
pub fn next_stage(stage: Stage) -> Option<Step> {
    match stage {
        Stage::Mash => Some(Step {
            stage: Stage::Boil,
            tank: Some("KT"),
        }),
        Stage::Boil => Some(Step {
            stage: Stage::Fermenting,
            tank: Some("FV"),
        }),
        Stage::Fermenting => Some(Step {
            stage: Stage::Conditioning,
            tank: Some("CT"),
        }),
        Stage::Conditioning => Some(Step {
            stage: Stage::Bright,
            tank: None,
        }),
        Stage::Bright | Stage::Packaged => None,
    }
}

/// The first tank of `kind` no batch is in.
fn free_tank(brewery: &Brewery, kind: &str) -> Option<String> {
    units::TANKS
        .iter()
        .find(|name| name.starts_with(kind) && brewery.in_tank(name).is_none())
        .map(|name| (*name).to_owned())
}

/// The brewery's morning: every batch whose stage has ended by today moves on to its next stage, into a free tank of
/// the kind it needs; one with no free tank waits where it is. Older batches go first.
pub fn step_day(brewery: &mut Brewery, slip: Slip) {
    let next_stage = if slip == Slip::FermentArm {
        slipped::next_stage
    } else {
        next_stage
    };
    let today = brewery.day;
    for at in 0..brewery.batches.len() {
        let batch = &brewery.batches[at];
        let Some(recipe) = brewery.recipe(&batch.beer) else {
            continue;
        };
        if today - batch.stage_since < stage_days(batch.stage, recipe) {
            continue;
        }
        let Some(step) = next_stage(batch.stage) else {
            continue;
        };
        let tank = match step.tank {
            None => batch.tank.clone(),
            Some(kind) => match free_tank(brewery, kind) {
                Some(tank) => tank,
                None => continue,
            },
        };
        let batch = &mut brewery.batches[at];
        batch.stage = step.stage;
        batch.tank = tank;
        batch.stage_since = today;
    }
}

/// Takes up to `grams` of `ingredient` from the lots still good `today`, the lot that goes off first first; returns
/// the grams taken.
pub fn draw(lots: &mut [Lot], ingredient: &str, grams: u32, today: u32) -> u32 {
    let mut usable: Vec<&mut Lot> = lots
        .iter_mut()
        .filter(|lot| lot.ingredient == ingredient && lot.best_before >= today)
        .collect();
    usable.sort_by_key(|lot| lot.best_before);
    let mut taken = 0;
    for lot in usable {
        let take = lot.grams.min(grams - taken);
        lot.grams -= take;
        taken += take;
        if taken == grams {
            break;
        }
    }
    taken
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Lot, Stage};
    use super::Step;

    /// [`super::next_stage`] with a mistake.
    pub fn next_stage(stage: Stage) -> Option<Step> {
        match stage {
            Stage::Mash => Some(Step {
                stage: Stage::Boil,
                tank: Some("KT"),
            }),
            Stage::Boil => Some(Step {
                stage: Stage::Fermenting,
                tank: Some("FV"),
            }),
            Stage::Fermenting => Some(Step {
                stage: Stage::Conditioning,
                // BUG(ferment_arm)
                tank: None,
            }),
            Stage::Conditioning => Some(Step {
                stage: Stage::Bright,
                tank: None,
            }),
            Stage::Bright | Stage::Packaged => None,
        }
    }

    /// [`super::draw`] with a mistake.
    #[allow(unused_variables)]
    pub fn draw(lots: &mut [Lot], ingredient: &str, grams: u32, today: u32) -> u32 {
        let mut usable: Vec<&mut Lot> = lots
            .iter_mut()
            // BUG(draw_expired)
            .filter(|lot| lot.ingredient == ingredient)
            .collect();
        usable.sort_by_key(|lot| lot.best_before);
        let mut taken = 0;
        for lot in usable {
            let take = lot.grams.min(grams - taken);
            lot.grams -= take;
            taken += take;
            if taken == grams {
                break;
            }
        }
        taken
    }
}
