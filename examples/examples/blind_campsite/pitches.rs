//! The field as a keyed collection: one row per pitch, each with what its party costs tonight, and the views the
//! warden's board and the office read (pitches taken, free hook-ups, the cleaning order).

use std::rc::Rc;

use ranvier::collection::{Collection, Row};
use ranvier::{Memo, node};

use super::graph::{Slip, slip};
use super::model::Pitch;
use super::pricing::night_charge;

/// The pitches, keyed by id; each row's figure is tonight's charge for its party, in pence (`tonight`).
pub type Pitches = Collection<String, Pitch, (&'static str, Memo<u64>)>;

/// The collection of `field` (the model's pitches), its rows priced on the night of `today`.
pub fn pitches(field: Memo<Vec<Pitch>>, today: &Memo<u32>) -> Pitches {
    let today = today.clone();
    Collection::keyed(
        field,
        |pitch: &Pitch| pitch.id.clone(),
        move |row| pitch_row(row, &today),
    )
}

/// A pitch's row: what its party pays for tonight (the node `pitches[H1]/tonight`), nothing while it is empty.
#[node]
fn pitch_row(row: &Row<String, Pitch>, today: &Memo<u32>) -> (&'static str, Memo<u64>) {
    let (row, today) = (row.clone(), today.clone());
    let tonight = Memo::new(move |_| {
        let night = today.get();
        row.with(|pitch| {
            let Some(party) = &pitch.party else {
                return 0;
            };
            let (kind, adults, dogs) = (pitch.kind, party.adults, party.dogs);
            match slip() {
                // BUG(child_rate)
                Slip::ChildRate => night_charge(kind, night, adults, party.adults, dogs),
                _ => night_charge(kind, night, adults, party.children, dogs),
            }
        })
    });
    ("tonight", tonight)
}

/// How many pitches have a party on them.
pub fn taken(pitches: &Pitches) -> Memo<usize> {
    pitches.count_by(|pitch| pitch.party.is_some())
}

/// How many pitches wait for the warden.
pub fn dirty(pitches: &Pitches) -> Memo<usize> {
    pitches.count_by(|pitch| pitch.to_clean)
}

/// The hook-ups a caravan arriving now could have: free and clean.
pub fn free_hookups(pitches: &Pitches) -> Memo<Rc<[String]>> {
    let free = match slip() {
        // BUG(free_hookups)
        Slip::FreeHookups => pitches.filter(|pitch| pitch.hookup && pitch.party.is_none()),
        _ => pitches.filter(|pitch| pitch.hookup && pitch.party.is_none() && !pitch.to_clean),
    };
    free.keys()
}

/// Every pitch in the warden's order: those to clean first, hardstandings before caravans before tents, then by id.
pub fn cleaning_order(pitches: &Pitches) -> Memo<Rc<[String]>> {
    pitches.sort_by(|pitch| (!pitch.to_clean, pitch.kind.cleaning_rank()))
}
