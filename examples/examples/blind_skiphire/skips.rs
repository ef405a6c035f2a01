//! The skips out on hire, as a keyed collection: each row's running charge (a row memo), and the views the office
//! reads: how many stand on the road, how many no round lifts yet, and the longest out first.

use std::rc::Rc;

use ranvier::Memo;
use ranvier::collection::Collection;

use super::charges;
use super::model::Hire;

/// The skips out, keyed by ticket, each with its running charge.
pub type Skips = Collection<String, Hire, Memo<u64>>;

/// What skip `hire` would cost if it were collected `today` empty: the hire price, the days after the free period,
/// the road permit and the hazardous surcharge.
pub fn running_charge(hire: &Hire, today: u32) -> u64 {
    let days = charges::days_on_hire(hire.placed_on, today);
    let mut cents = charges::base_price(hire.size);
    cents += charges::daily_charge(hire.size, days);
    if hire.on_road {
        cents += charges::permit_cents(days);
    }
    if hire.hazardous {
        cents += charges::hazard_surcharge(hire.size);
    }
    cents
}

/// Whether a skip stands on the road.
pub fn stands_on_road(hire: &Hire) -> bool {
    hire.on_road
}

/// Whether a skip still needs a driver's round.
pub fn needs_round(hire: &Hire) -> bool {
    hire.driver.is_none()
}

/// The skips out, one row per ticket, each row's charge read with `charge` against `today`.
pub fn skips(open: &Memo<Vec<Hire>>, today: &Memo<u32>, charge: fn(&Hire, u32) -> u64) -> Skips {
    let today = today.clone();
    Collection::keyed(
        open.clone(),
        |hire: &Hire| hire.id.clone(),
        move |row| {
            let row = row.clone();
            let today = today.clone();
            Memo::new(move |_| {
                let today = today.get();
                row.with(|hire| charge(hire, today))
            })
        },
    )
}

/// The tickets, longest out first (ties by ticket).
pub fn longest_out(skips: &Skips) -> Memo<Vec<String>> {
    let order: Memo<Rc<[String]>> = skips.sort_by(|hire| hire.placed_on);
    Memo::new(move |_| order.get().to_vec())
}

pub mod slipped {
    use super::super::charges;
    use super::super::model::Hire;

    pub fn running_charge(hire: &Hire, today: u32) -> u64 {
        let days = charges::days_on_hire(hire.placed_on, today);
        let mut cents = charges::base_price(hire.size);
        cents += charges::daily_charge(hire.size, days);
        // BUG(row_permit_field)
        if hire.hazardous {
            cents += charges::permit_cents(days);
        }
        if hire.hazardous {
            cents += charges::hazard_surcharge(hire.size);
        }
        cents
    }

    pub fn needs_round(hire: &Hire) -> bool {
        // BUG(unrounded_inverted)
        hire.driver.is_some()
    }
}
