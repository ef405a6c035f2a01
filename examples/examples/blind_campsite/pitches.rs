//! The field as a keyed collection: one row per pitch, each with what its party costs tonight, and the views the
//! warden's board and the office read (pitches taken, free hook-ups, the cleaning order).

use std::rc::Rc;

use ranvier::collection::{Collection, Row};
use ranvier::{Memo, node};

use super::model::Pitch;
use super::pricing::{SeasonOf, night_charge};

/// The pitches, keyed by id; each row's figure is tonight's charge for its party, in pence (`tonight`).
pub type Pitches = Collection<String, Pitch, (&'static str, Memo<u64>)>;

/// What a row factory makes of a pitch, priced on the night of a day in the season a rule gives it.
pub type RowFactory = fn(&Row<String, Pitch>, &Memo<u32>, SeasonOf) -> (&'static str, Memo<u64>);

/// The collection of `field` (the model's pitches), each row made by `row` and priced on the night of `today` (its
/// season by `season`).
pub fn pitches(
    field: Memo<Vec<Pitch>>,
    today: &Memo<u32>,
    row: RowFactory,
    season: SeasonOf,
) -> Pitches {
    let today = today.clone();
    Collection::keyed(
        field,
        |pitch: &Pitch| pitch.id.clone(),
        move |pitch| row(pitch, &today, season),
    )
}

/// A pitch's row: what its party pays for tonight (the node `pitches[H1]/tonight`), nothing while it is empty.
#[node]
pub fn pitch_row(
    row: &Row<String, Pitch>,
    today: &Memo<u32>,
    season: SeasonOf,
) -> (&'static str, Memo<u64>) {
    let (row, today) = (row.clone(), today.clone());
    let tonight = Memo::new(move |_| {
        let night = today.get();
        row.with(|pitch| {
            let Some(party) = &pitch.party else {
                return 0;
            };
            let (kind, adults, dogs) = (pitch.kind, party.adults, party.dogs);
            night_charge(kind, night, adults, party.children, dogs, season)
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
    let free = pitches.filter(|pitch| pitch.hookup && pitch.party.is_none() && !pitch.to_clean);
    free.keys()
}

/// Every pitch in the warden's order: those to clean first, hardstandings before caravans before tents, then by id.
pub fn cleaning_order(pitches: &Pitches) -> Memo<Rc<[String]>> {
    pitches.sort_by(|pitch| (!pitch.to_clean, pitch.kind.cleaning_rank()))
}

/// Copies of the collection's code with one mistake each, for the blind test.
pub mod slipped {
    use std::rc::Rc;

    use ranvier::collection::Row;
    use ranvier::{Memo, node};

    use super::super::model::Pitch;
    use super::super::pricing::{SeasonOf, night_charge};
    use super::Pitches;

    /// [`super::pitch_row`].
    #[node]
    pub fn pitch_row(
        row: &Row<String, Pitch>,
        today: &Memo<u32>,
        season: SeasonOf,
    ) -> (&'static str, Memo<u64>) {
        let (row, today) = (row.clone(), today.clone());
        let tonight = Memo::new(move |_| {
            let night = today.get();
            row.with(|pitch| {
                let Some(party) = &pitch.party else {
                    return 0;
                };
                let (kind, adults, dogs) = (pitch.kind, party.adults, party.dogs);
                // BUG(child_rate)
                night_charge(kind, night, adults, party.adults, dogs, season)
            })
        });
        ("tonight", tonight)
    }

    /// [`super::free_hookups`].
    pub fn free_hookups(pitches: &Pitches) -> Memo<Rc<[String]>> {
        // BUG(free_hookups)
        let free = pitches.filter(|pitch| pitch.hookup && pitch.party.is_none());
        free.keys()
    }
}
