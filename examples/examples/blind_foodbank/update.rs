//! The food bank's `update`: one arm per message, the helpers the arms call, and the commands they send.

use super::model::{Category, Delivery, Donation, Household, Intake, Msg, Pantry, Parcel, Shift};
use super::rules::{self, Portion};

/// The helpers `update` calls (the graph picks them).
#[derive(Clone, Copy)]
pub struct Helpers {
    /// Takes food off the shelves.
    pub take_stock: fn(&mut Vec<Donation>, Category, u32) -> u32,
    /// Closes the day.
    pub close_day: fn(&mut Pantry),
    /// A category's portion.
    pub portion: fn(Category) -> Portion,
}

/// The pantry after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(helpers: &Helpers, msg: Msg, pantry: &Pantry) -> (Pantry, Vec<Msg>) {
    let mut next = pantry.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Donate {
            donor,
            category,
            grams,
            best_before,
        } => {
            if let Some(category) = Category::parse(&category) {
                next.donations.push(Donation {
                    id: next.next_id,
                    donor,
                    category,
                    grams,
                    received: next.today,
                    best_before,
                });
                next.next_id += 1;
                next.intake.push(Intake {
                    day: next.today,
                    grams,
                });
            }
        }
        Msg::Register {
            household,
            people,
            zone,
            delivery,
        } => {
            next.households.retain(|h| h.name != household);
            next.households.push(Household {
                name: household,
                people,
                zone,
                delivery,
            });
        }
        Msg::Pack { household } => pack(helpers, &mut next, &household, &mut commands),
        Msg::BookDelivery { household } => {
            let zone = next.household(&household).map(|h| h.zone.clone());
            if let Some(zone) = zone {
                let day = next.today + 1;
                next.deliveries.push(Delivery {
                    household,
                    zone,
                    day,
                });
            }
        }
        Msg::Shift {
            volunteer,
            table,
            from,
            to,
        } => {
            if from < to {
                next.shifts.push(Shift {
                    volunteer,
                    table,
                    day: next.today,
                    from,
                    to,
                });
            }
        }
        Msg::NextDay => (helpers.close_day)(&mut next),
    }
    (next, commands)
}

/// Takes up to `grams` of `category` off the shelves, the food that goes off first first; returns what it took.
#[ranvier::trace_fn]
pub fn take_stock(donations: &mut Vec<Donation>, category: Category, grams: u32) -> u32 {
    let mut order: Vec<usize> = (0..donations.len())
        .filter(|&i| donations[i].category == category)
        .collect();
    order.sort_by_key(|&i| (donations[i].best_before, donations[i].id));
    let mut taken = 0;
    for i in order {
        if taken == grams {
            break;
        }
        let take = donations[i].grams.min(grams - taken);
        donations[i].grams -= take;
        taken += take;
    }
    donations.retain(|d| d.grams > 0);
    taken
}

/// Packs `household`'s parcel from the shelves; a household that cannot collect gets the van booked.
#[ranvier::trace_fn]
pub fn pack(helpers: &Helpers, next: &mut Pantry, household: &str, commands: &mut Vec<Msg>) {
    let Some(home) = next.household(household).cloned() else {
        return;
    };
    let wanted = rules::parcel_for(home.people, helpers.portion);
    let mut lines = Vec::new();
    for (category, grams) in wanted {
        let got = (helpers.take_stock)(&mut next.donations, category, grams);
        if got > 0 {
            lines.push((category, got));
        }
    }
    next.parcels.push(Parcel {
        household: home.name.clone(),
        day: next.today,
        people: home.people,
        lines,
    });
    commands.extend(home.delivery.then(|| Msg::BookDelivery {
        household: home.name.clone(),
    }));
}

/// Moves to the next day: food past its best-before day goes in the waste log.
#[ranvier::trace_fn]
pub fn close_day(next: &mut Pantry) {
    next.today += 1;
    let today = next.today;
    let (gone, kept): (Vec<Donation>, Vec<Donation>) = next
        .donations
        .drain(..)
        .partition(|d| d.best_before < today);
    next.wasted.extend(gone.iter().map(|d| (today, d.grams)));
    next.donations = kept;
}

/// The helpers as first written.
pub mod slipped {
    use super::{
        Category, Delivery, Donation, Helpers, Household, Intake, Msg, Pantry, Shift, pack,
    };

    /// [`super::update`].
    #[ranvier::trace_fn]
    pub fn update(helpers: &Helpers, msg: Msg, pantry: &Pantry) -> (Pantry, Vec<Msg>) {
        let mut next = pantry.clone();
        let mut commands = Vec::new();
        match msg {
            Msg::Donate {
                donor,
                category,
                grams,
                best_before,
            } => {
                if let Some(category) = Category::parse(&category) {
                    next.donations.push(Donation {
                        id: next.next_id,
                        donor,
                        category,
                        grams,
                        received: next.today,
                        best_before,
                    });
                    next.next_id += 1;
                    next.intake.push(Intake {
                        day: next.today,
                        grams,
                    });
                }
            }
            Msg::Register {
                household,
                people,
                zone,
                delivery,
            } => {
                next.households.retain(|h| h.name != household);
                next.households.push(Household {
                    name: household,
                    people,
                    zone,
                    delivery,
                });
            }
            Msg::Pack { household } => pack(helpers, &mut next, &household, &mut commands),
            Msg::BookDelivery { household } => {
                let zone = next.household(&household).map(|h| h.zone.clone());
                if let Some(zone) = zone {
                    let day = next.today + 1;
                    next.deliveries.push(Delivery {
                        household,
                        zone,
                        day,
                    });
                }
            }
            Msg::Shift {
                volunteer,
                table,
                from,
                to,
            } => {
                if from < to {
                    next.shifts.push(Shift {
                        volunteer,
                        table,
                        day: next.today,
                        from,
                        to,
                    });
                }
            }
            Msg::NextDay => (helpers.close_day)(&mut next),
        }
        // BUG(pack_no_van)
        (next, Vec::new())
    }

    /// [`super::take_stock`].
    #[ranvier::trace_fn]
    pub fn take_stock(donations: &mut Vec<Donation>, category: Category, grams: u32) -> u32 {
        let mut order: Vec<usize> = (0..donations.len())
            .filter(|&i| donations[i].category == category)
            .collect();
        order.sort_by_key(|&i| (donations[i].best_before, donations[i].id));
        let mut taken = 0;
        for i in order {
            if taken == grams {
                break;
            }
            let take = donations[i].grams.min(grams - taken);
            donations[i].grams -= take;
            // BUG(stock_taken)
            taken = take;
        }
        donations.retain(|d| d.grams > 0);
        taken
    }

    /// [`super::close_day`].
    #[ranvier::trace_fn]
    pub fn close_day(next: &mut Pantry) {
        next.today += 1;
        let today = next.today;
        let (gone, kept): (Vec<Donation>, Vec<Donation>) = next
            .donations
            .drain(..)
            // BUG(waste_on_the_day)
            .partition(|d| d.best_before <= today);
        next.wasted.extend(gone.iter().map(|d| (today, d.grams)));
        next.donations = kept;
    }
}
