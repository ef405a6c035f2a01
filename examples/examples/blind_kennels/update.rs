//! The front desk's `update`: one arm per message, the helpers the longer arms call, and the commands they send (the
//! walks planned at check-in, a refund after a cancellation).

use super::limits;
use super::model::{
    Addon, Kennels, Msg, PayKind, Payment, Size, Species, Status, Stay, Walk, pounds,
};
use super::rules;
use super::tariffs::{self, Season};

/// The helpers `update` calls through fn values, so that the kennels can be started with another version of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub nightly_rate: fn(Size, Season) -> u32,
    pub pen_takes: fn(Size, usize) -> bool,
    pub refund: fn(u32, u32) -> u32,
    pub check_in: fn(&mut Kennels, u32) -> Vec<Msg>,
    pub cancel: fn(&mut Kennels, &Helpers, u32) -> Vec<Msg>,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            nightly_rate: tariffs::nightly_rate,
            pen_takes: limits::pen_takes,
            refund: rules::refund,
            check_in,
            cancel,
        }
    }
}

/// The kennels after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, kennels: &Kennels, helpers: &Helpers) -> (Kennels, Vec<Msg>) {
    let mut next = kennels.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Book {
            owner,
            pets,
            pen,
            arrive,
            nights,
        } => book(&mut next, helpers, owner, pets, pen, arrive, nights),
        Msg::CheckIn { stay } => commands = (helpers.check_in)(&mut next, stay),
        Msg::CheckOut { stay } => check_out(&mut next, helpers, stay),
        Msg::Cancel { stay } => commands = (helpers.cancel)(&mut next, helpers, stay),
        Msg::Refund { stay, pence } => {
            let day = next.today;
            next.payments.push(Payment {
                day,
                stay,
                kind: PayKind::Refund,
                pence,
            });
            next.note(format!(
                "stay {stay}: {} of the deposit refunded",
                pounds(pence)
            ));
        }
        Msg::PlanWalks { stay } => plan_walks(&mut next, stay),
        Msg::AddOn { stay, addon } => commands = add_on(&mut next, stay, &addon),
        Msg::Vaccinate { pet, until } => match next.pets.iter_mut().find(|p| p.name == pet) {
            Some(on_file) => on_file.vaccinated_until = until,
            None => next.note(format!("no pet {pet} on file")),
        },
        Msg::Advance { days } => next.today += days,
    }
    (next, commands)
}

/// Books `pets` into pen `pen_id` from `arrive` for `nights`, taking the deposit, unless the pen cannot have them.
#[ranvier::trace_fn]
fn book(
    kennels: &mut Kennels,
    helpers: &Helpers,
    owner: String,
    pets: Vec<String>,
    pen_id: u32,
    arrive: u32,
    nights: u32,
) {
    let Some(pen) = kennels.pen(pen_id).cloned() else {
        kennels.note(format!("{owner}: there is no pen {pen_id}"));
        return;
    };
    if arrive < kennels.today {
        kennels.note(format!("{owner}: day {arrive} has gone"));
        return;
    }
    if pets.is_empty() {
        kennels.note(format!("{owner}: a booking needs a pet"));
        return;
    }
    for name in &pets {
        let refusal = match kennels.pet(name) {
            None => Some(format!("{owner}: no pet {name} on file")),
            Some(pet) if pet.owner != owner => Some(format!("{owner}: {name} is {}'s", pet.owner)),
            Some(pet) if !limits::fits(pet, pen.size) => Some(format!(
                "{owner}: {name} cannot board in a {} pen",
                pen.size.name()
            )),
            Some(_) => None,
        };
        if let Some(refusal) = refusal {
            kennels.note(refusal);
            return;
        }
    }
    if !(helpers.pen_takes)(pen.size, pets.len()) {
        kennels.note(format!(
            "{owner}: pen {pen_id} takes at most {} pets",
            limits::pen_capacity(pen.size)
        ));
        return;
    }
    let depart = arrive + nights;
    let clash = kennels
        .stays
        .iter()
        .find(|s| s.pen == pen_id && s.holds_pen() && s.arrive < depart && arrive < s.depart);
    if let Some(taken) = clash {
        let notice = format!("{owner}: pen {pen_id} is taken by {}", taken.title());
        kennels.note(notice);
        return;
    }
    let count = pets.len() as u32;
    let boarding = tariffs::boarding(pen.size, count, arrive, depart, helpers.nightly_rate);
    let due = boarding - tariffs::multi_pet_discount(boarding, count);
    let deposit = tariffs::deposit(due);
    let id = kennels.stays.len() as u32 + 1;
    let today = kennels.today;
    kennels.payments.push(Payment {
        day: today,
        stay: id,
        kind: PayKind::Deposit,
        pence: deposit,
    });
    kennels.stays.push(Stay {
        id,
        owner,
        pets,
        pen: pen_id,
        size: pen.size,
        arrive,
        depart,
        booked_on: today,
        deposit,
        addons: Vec::new(),
        status: Status::Booked,
    });
}

/// The pets of stay `id` arrive: each one's vaccinations must last the stay; the dogs go on the walk rota.
#[ranvier::trace_fn]
pub fn check_in(kennels: &mut Kennels, id: u32) -> Vec<Msg> {
    let Some(stay) = kennels.stay(id).cloned() else {
        kennels.note(format!("no stay {id}"));
        return Vec::new();
    };
    if stay.status != Status::Booked || stay.arrive != kennels.today {
        kennels.note(format!("{} is not due in today", stay.title()));
        return Vec::new();
    }
    let lapsed: Vec<String> = stay
        .pets
        .iter()
        .filter(|name| {
            kennels
                .pet(name)
                .is_none_or(|pet| !limits::vaccinated_for(pet, stay.depart))
        })
        .cloned()
        .collect();
    if !lapsed.is_empty() {
        let names = lapsed.join(", ");
        kennels.note(format!(
            "{}: vaccinations out of date: {names}",
            stay.title()
        ));
        return Vec::new();
    }
    let dogs = stay
        .pets
        .iter()
        .filter(|name| {
            kennels
                .pet(name)
                .is_some_and(|pet| pet.species == Species::Dog)
        })
        .count();
    if let Some(arrived) = kennels.stay_mut(id) {
        arrived.status = Status::CheckedIn;
    }
    if dogs > 0 {
        vec![Msg::PlanWalks { stay: stay.id }]
    } else {
        Vec::new()
    }
}

/// The pets of stay `id` go home: the balance of the bill after the deposit is paid.
#[ranvier::trace_fn]
fn check_out(kennels: &mut Kennels, helpers: &Helpers, id: u32) {
    let Some(stay) = kennels.stay(id).cloned() else {
        kennels.note(format!("no stay {id}"));
        return;
    };
    if stay.status != Status::CheckedIn {
        kennels.note(format!("{} is not in the kennels", stay.title()));
        return;
    }
    let count = stay.pets.len() as u32;
    let boarding = tariffs::boarding(
        stay.size,
        count,
        stay.arrive,
        stay.depart,
        helpers.nightly_rate,
    );
    let extras: u32 = stay.addons.iter().map(|a| tariffs::addon_price(*a)).sum();
    let bill = boarding - tariffs::multi_pet_discount(boarding, count) + extras;
    let balance = bill.saturating_sub(stay.deposit);
    let today = kennels.today;
    kennels.payments.push(Payment {
        day: today,
        stay: id,
        kind: PayKind::Balance,
        pence: balance,
    });
    kennels.walks.retain(|walk| walk.stay != id);
    if let Some(gone) = kennels.stay_mut(id) {
        gone.status = Status::CheckedOut;
    }
    kennels.note(format!(
        "{} went home, {} paid",
        stay.title(),
        pounds(balance)
    ));
}

/// The owner cancels stay `id`: the deposit comes back by the notice given, as a `Refund` command.
#[ranvier::trace_fn]
pub fn cancel(kennels: &mut Kennels, helpers: &Helpers, id: u32) -> Vec<Msg> {
    let today = kennels.today;
    let Some(stay) = kennels.stay_mut(id) else {
        return Vec::new();
    };
    if stay.status != Status::Booked {
        return Vec::new();
    }
    stay.status = Status::Cancelled;
    let notice = stay.arrive.saturating_sub(today);
    let back = (helpers.refund)(stay.deposit, notice);
    let title = stay.title();
    kennels.note(format!("{title} cancelled with {notice} days' notice"));
    if back > 0 {
        vec![Msg::Refund {
            stay: id,
            pence: back,
        }]
    } else {
        Vec::new()
    }
}

/// Puts the dogs of stay `id` on the walk rota: their usual walks and one more for each extra walk booked.
#[ranvier::trace_fn]
fn plan_walks(kennels: &mut Kennels, id: u32) {
    let Some(stay) = kennels.stay(id).cloned() else {
        kennels.note(format!("no stay {id} to plan walks for"));
        return;
    };
    let extra = stay
        .addons
        .iter()
        .filter(|a| **a == Addon::ExtraWalk)
        .count();
    let mut walks = Vec::new();
    for pet in stay.pets.iter().filter_map(|name| kennels.pet(name)) {
        if pet.species != Species::Dog {
            continue;
        }
        for &at in rules::walk_times(pet.size) {
            walks.push(Walk {
                stay: id,
                dog: pet.name.clone(),
                at,
            });
        }
        for _ in 0..extra {
            walks.push(Walk {
                stay: id,
                dog: pet.name.clone(),
                at: rules::EXTRA_WALK,
            });
        }
    }
    kennels.walks.retain(|walk| walk.stay != id);
    kennels.walks.extend(walks);
}

/// Books `addon` on stay `id`; an extra walk for dogs already in re-plans their walks.
#[ranvier::trace_fn]
fn add_on(kennels: &mut Kennels, id: u32, addon: &str) -> Vec<Msg> {
    let Some(addon) = Addon::parse(addon) else {
        kennels.note(format!("no add-on {addon}"));
        return Vec::new();
    };
    let Some(stay) = kennels.stay_mut(id).filter(|s| s.holds_pen()) else {
        kennels.note(format!("stay {id} is not booked"));
        return Vec::new();
    };
    stay.addons.push(addon);
    if addon == Addon::ExtraWalk && stay.status == Status::CheckedIn {
        vec![Msg::PlanWalks { stay: id }]
    } else {
        Vec::new()
    }
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::limits;
    use super::super::model::{Kennels, Msg, Species, Status};
    use super::Helpers;

    /// [`super::check_in`].
    #[ranvier::trace_fn]
    pub fn check_in(kennels: &mut Kennels, id: u32) -> Vec<Msg> {
        let Some(stay) = kennels.stay(id).cloned() else {
            kennels.note(format!("no stay {id}"));
            return Vec::new();
        };
        if stay.status != Status::Booked || stay.arrive != kennels.today {
            kennels.note(format!("{} is not due in today", stay.title()));
            return Vec::new();
        }
        let lapsed: Vec<String> = stay
            .pets
            .iter()
            .filter(|name| {
                kennels
                    .pet(name)
                    .is_none_or(|pet| !limits::vaccinated_for(pet, stay.depart))
            })
            .cloned()
            .collect();
        if !lapsed.is_empty() {
            let names = lapsed.join(", ");
            kennels.note(format!(
                "{}: vaccinations out of date: {names}",
                stay.title()
            ));
            return Vec::new();
        }
        let dogs = stay
            .pets
            .iter()
            .filter(|name| {
                kennels
                    .pet(name)
                    .is_some_and(|pet| pet.species == Species::Dog)
            })
            .count();
        if let Some(arrived) = kennels.stay_mut(id) {
            arrived.status = Status::CheckedIn;
        }
        if dogs > 0 {
            // BUG(walks_for_pen)
            vec![Msg::PlanWalks { stay: stay.pen }]
        } else {
            Vec::new()
        }
    }

    /// [`super::cancel`].
    #[ranvier::trace_fn]
    pub fn cancel(kennels: &mut Kennels, helpers: &Helpers, id: u32) -> Vec<Msg> {
        let today = kennels.today;
        let Some(stay) = kennels.stay_mut(id) else {
            return Vec::new();
        };
        if stay.status != Status::Booked {
            return Vec::new();
        }
        stay.status = Status::Cancelled;
        let notice = stay.arrive.saturating_sub(today);
        // BUG(cancel_refund)
        let back = (helpers.refund)(notice, stay.deposit);
        let title = stay.title();
        kennels.note(format!("{title} cancelled with {notice} days' notice"));
        if back > 0 {
            vec![Msg::Refund {
                stay: id,
                pence: back,
            }]
        } else {
            Vec::new()
        }
    }
}
