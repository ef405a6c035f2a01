//! The batches as a keyed collection, one row per batch number, each row with its line of the brew log; and the views
//! the brewers watch: the brew log itself, the batches brewed short of an ingredient, how many are fermenting, and the
//! strongest beers first.

use std::cmp::Reverse;

use super::brewing;
use super::graph::Slip;
use super::model::{Batch, Brewery, Msg, Stage, kilos};
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, Mvu, node};

/// The batches, keyed by number; each row's figure is its line of the brew log.
pub type Batches = Collection<u32, Batch, (&'static str, Memo<String>)>;

/// The batches of `brewery`, in brewing order.
pub fn batches(brewery: &Mvu<Brewery, Msg>, slip: Slip) -> Batches {
    let line = if slip == Slip::FinalGravity {
        slipped::log_line
    } else {
        log_line
    };
    Collection::keyed(
        brewery.select(|b| b.batches.clone()),
        |batch: &Batch| batch.id,
        line,
    )
}

/// A gravity in thousandths as the hydrometer reads: `1.048`.
fn gravity(thousandths: u32) -> String {
    format!("{}.{:03}", thousandths / 1000, thousandths % 1000)
}

/// A batch's line of the brew log: what it is doing and where, what was filled, and its gravities and strength
/// once there are two readings.
#[node]
fn log_line(row: &Row<u32, Batch>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|batch| {
            let mut line = format!(
                "{}, {} L: {}",
                batch.label(),
                batch.litres,
                batch.stage.doing()
            );
            if !batch.tank.is_empty() {
                line += &format!(" in {}", batch.tank);
            }
            if batch.packaged_on.is_some() {
                line += &format!(", {} kegs + {} bottles", batch.kegs, batch.bottles);
            }
            let (og, fg) = match batch.readings.as_slice() {
                [] => return format!("{line}, no gravity yet"),
                [only] => (only.gravity, None),
                [first, .., last] => (first.gravity, Some(last.gravity)),
            };
            match fg {
                None => format!("{line}, OG {}", gravity(og)),
                Some(fg) => {
                    let abv = brewing::abv(og, fg);
                    let (og, fg) = (gravity(og), gravity(fg));
                    format!("{line}, {og} → {fg}, {}.{}%", abv / 10, abv % 10)
                }
            }
        })
    });
    ("line", line)
}

/// The brew log: every batch's line, in brewing order.
pub fn brew_log(batches: &Batches) -> Memo<Vec<String>> {
    let batches = batches.clone();
    Memo::new(move |_| batches.rows().iter().map(|(_, line)| line.get()).collect())
}

/// The batches brewed short of an ingredient, with what the store could not give.
pub fn short_of(batches: &Batches) -> Memo<Vec<String>> {
    let short = batches.filter(|batch| !batch.short.is_empty());
    let batches = batches.clone();
    Memo::new(move |_| {
        let keys = short.keys().get();
        batches
            .items()
            .iter()
            .filter(|batch| keys.contains(&batch.id))
            .map(|batch| {
                let lacking: Vec<String> = batch
                    .short
                    .iter()
                    .map(|(name, grams)| format!("{name} ({})", kilos(*grams)))
                    .collect();
                format!("{}: short of {}", batch.label(), lacking.join(", "))
            })
            .collect()
    })
}

/// How many batches are fermenting.
pub fn fermenting(batches: &Batches) -> Memo<usize> {
    batches.count_by(|batch| batch.stage == Stage::Fermenting)
}

/// The batches whose strength is known, strongest first.
pub fn strongest(batches: &Batches) -> Memo<Vec<String>> {
    let order = batches.sort_by(|batch| Reverse(batch.abv().unwrap_or(0)));
    let batches = batches.clone();
    Memo::new(move |_| {
        let items = batches.items();
        order
            .get()
            .iter()
            .filter_map(|id| items.iter().find(|batch| batch.id == *id))
            .filter_map(|batch| {
                let abv = batch.abv()?;
                Some(format!("{} {}.{}%", batch.label(), abv / 10, abv % 10))
            })
            .collect()
    })
}

/// Copies of the rows' and views' code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Batch, kilos};
    use super::{Batches, brewing, gravity};
    use ranvier::collection::Row;
    use ranvier::{Memo, node};

    /// [`super::log_line`] with a mistake.
    #[node]
    pub fn log_line(row: &Row<u32, Batch>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|batch| {
                let mut line = format!(
                    "{}, {} L: {}",
                    batch.label(),
                    batch.litres,
                    batch.stage.doing()
                );
                if !batch.tank.is_empty() {
                    line += &format!(" in {}", batch.tank);
                }
                if batch.packaged_on.is_some() {
                    line += &format!(", {} kegs + {} bottles", batch.kegs, batch.bottles);
                }
                let (og, fg) = match batch.readings.as_slice() {
                    [] => return format!("{line}, no gravity yet"),
                    [only] => (only.gravity, None),
                    // BUG(final_gravity)
                    [first, second, ..] => (first.gravity, Some(second.gravity)),
                };
                match fg {
                    None => format!("{line}, OG {}", gravity(og)),
                    Some(fg) => {
                        let abv = brewing::abv(og, fg);
                        let (og, fg) = (gravity(og), gravity(fg));
                        format!("{line}, {og} → {fg}, {}.{}%", abv / 10, abv % 10)
                    }
                }
            })
        });
        ("line", line)
    }

    /// [`super::short_of`] with a mistake.
    pub fn short_of(batches: &Batches) -> Memo<Vec<String>> {
        // BUG(short_filter)
        let short = batches.filter(|batch| batch.short.is_empty());
        let batches = batches.clone();
        Memo::new(move |_| {
            let keys = short.keys().get();
            batches
                .items()
                .iter()
                .filter(|batch| keys.contains(&batch.id))
                .map(|batch| {
                    let lacking: Vec<String> = batch
                        .short
                        .iter()
                        .map(|(name, grams)| format!("{name} ({})", kilos(*grams)))
                        .collect();
                    format!("{}: short of {}", batch.label(), lacking.join(", "))
                })
                .collect()
        })
    }
}
