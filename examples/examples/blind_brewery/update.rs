//! The brewery's `update`: one arm per message, each handing its work to a helper below; `brew` sends a `draw` per
//! ingredient and `ship` the deposit charge on the kegs that went out, as commands.

use super::brewing;
use super::graph::Slip;
use super::model::{
    self, Account, Batch, Brewery, Cellar, Lot, Msg, Order, Reading, Stage, day_name, units,
};
use super::trade;

/// The brewery the Monday it opens, and the deliveries waiting for it (its initial commands).
pub fn opening() -> (Brewery, Vec<Msg>) {
    let delivered = |lot: &str, ingredient: &str, grams: u32, days: u32| Msg::Receive {
        lot: lot.to_owned(),
        ingredient: ingredient.to_owned(),
        grams,
        days,
    };
    let deliveries = vec![
        delivered("MO-0411", "Maris Otter", 30_000, 3),
        delivered("MO-0502", "Maris Otter", 100_000, 60),
        delivered("CR-0107", "Crystal", 10_000, 90),
        delivered("RB-0220", "Roasted Barley", 3_000, 90),
        delivered("CA-2231", "Cascade", 2_000, 30),
        delivered("FU-2218", "Fuggles", 2_000, 30),
        delivered("US05-77", "US-05", 500, 120),
        delivered("S04-81", "S-04", 500, 120),
    ];
    (Brewery::default(), deliveries)
}

/// The brewery after `msg`, and the messages to send next. A message that cannot be carried out is refused, with
/// the reason, and nothing changes.
pub fn update(msg: Msg, brewery: &Brewery) -> (Brewery, Vec<Msg>) {
    let slip = Slip::current();
    let package = if slip == Slip::BottlesUnit {
        slipped::package
    } else {
        package
    };
    let ship = if slip == Slip::ShipNewCustomer {
        slipped::ship
    } else {
        ship
    };
    let mut next = brewery.clone();
    let mut commands = Vec::new();
    let done = match msg {
        Msg::Receive {
            lot,
            ingredient,
            grams,
            days,
        } => {
            let best_before = next.day + days;
            next.lots.push(Lot {
                id: lot,
                ingredient,
                grams,
                best_before,
            });
            Ok(())
        }
        Msg::Brew { recipe, litres } => brew(&mut next, &recipe, litres, &mut commands, slip),
        Msg::Draw {
            batch,
            ingredient,
            grams,
        } => draw(&mut next, batch, &ingredient, grams, slip),
        Msg::Advance { days } => {
            for _ in 0..days {
                next.day += 1;
                brewing::step_day(&mut next, slip);
            }
            Ok(())
        }
        Msg::Gravity { batch, reading } => {
            let day = next.day;
            next.batch_mut(batch).map(|batch| {
                batch.readings.push(Reading {
                    day,
                    gravity: reading,
                });
            })
        }
        Msg::Package { batch, kegs } => package(&mut next, batch, kegs),
        Msg::Order {
            customer,
            beer,
            kegs,
            bottles,
        } => take_order(&mut next, customer, beer, kegs, bottles),
        Msg::Ship { order } => ship(&mut next, order, &mut commands),
        Msg::ChargeDeposit { customer, kegs } => {
            let account = account_of(&mut next.accounts, &customer);
            account.kegs_out += kegs;
            account.deposits += trade::deposit(kegs);
            Ok(())
        }
        Msg::ReturnKegs { customer, kegs } => return_kegs(&mut next, &customer, kegs),
    };
    if let Err(reason) = done {
        refuse(reason);
    }
    (next, commands)
}

/// Refuses the message `update` is applying: the dispatcher answers `reason` and the brewery is unchanged. It
/// unwinds without the panic hook, so a refusal prints nothing.
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

/// Puts a batch of `beer` into the mash tun, and asks the store for its ingredients, scaled to `litres`.
fn brew(
    next: &mut Brewery,
    beer: &str,
    litres: u32,
    commands: &mut Vec<Msg>,
    slip: Slip,
) -> Result<(), String> {
    let recipe = next
        .recipe(beer)
        .cloned()
        .ok_or_else(|| format!("no recipe for {beer}"))?;
    if let Some(busy) = next.in_tank("MT") {
        return Err(format!("the mash tun still holds {}", busy.label()));
    }
    let id = next.batches.last().map_or(1, |last| last.id + 1);
    let blank = if slip == Slip::BatchStage {
        model::slipped::batch
    } else {
        Batch::default
    };
    let blank = blank();
    next.batches.push(Batch {
        id,
        beer: recipe.name.clone(),
        litres,
        brewed_on: next.day,
        stage_since: next.day,
        tank: "MT".to_owned(),
        ..blank
    });
    commands.extend(recipe.ingredients.iter().map(|ingredient| Msg::Draw {
        batch: id,
        ingredient: ingredient.name.clone(),
        grams: ingredient.grams * litres / units::RECIPE_LITRES,
    }));
    Ok(())
}

/// Draws `grams` of `ingredient` for batch `id`; what the store cannot give is noted on the batch.
fn draw(
    next: &mut Brewery,
    id: u32,
    ingredient: &str,
    grams: u32,
    slip: Slip,
) -> Result<(), String> {
    let take = if slip == Slip::DrawExpired {
        brewing::slipped::draw
    } else {
        brewing::draw
    };
    let today = next.day;
    let taken = take(&mut next.lots, ingredient, grams, today);
    let batch = next.batch_mut(id)?;
    if taken < grams {
        batch.short.push((ingredient.to_owned(), grams - taken));
    }
    Ok(())
}

/// The cellar's line for `beer`, made empty when it has none yet.
fn cellar_of<'a>(cellar: &'a mut Vec<Cellar>, beer: &str) -> &'a mut Cellar {
    match cellar.iter().position(|c| c.beer == beer) {
        Some(at) => &mut cellar[at],
        None => {
            cellar.push(Cellar {
                beer: beer.to_owned(),
                ..Cellar::default()
            });
            cellar.last_mut().expect("just pushed")
        }
    }
}

/// Fills `kegs` kegs from bright batch `id`, and bottles with the rest; they go to the cellar, and the tank is free.
fn package(next: &mut Brewery, id: u32, kegs: u32) -> Result<(), String> {
    let today = next.day;
    let batch = next.batch_mut(id)?;
    if batch.stage != Stage::Bright {
        return Err(format!(
            "{} is {}, not bright",
            batch.label(),
            batch.stage.doing()
        ));
    }
    let keg_litres = kegs * units::KEG_LITRES;
    if keg_litres > batch.litres {
        return Err(format!(
            "{} holds {} L: not {kegs} kegs",
            batch.label(),
            batch.litres
        ));
    }
    let left_ml = (batch.litres - keg_litres) * 1000;
    let bottles = left_ml / units::BOTTLE_ML;
    batch.stage = Stage::Packaged;
    batch.tank.clear();
    batch.packaged_on = Some(today);
    batch.kegs = kegs;
    batch.bottles = bottles;
    let beer = batch.beer.clone();
    let stock = cellar_of(&mut next.cellar, &beer);
    stock.kegs += kegs;
    stock.bottles += bottles;
    Ok(())
}

/// Takes an order for a beer the brewery makes.
fn take_order(
    next: &mut Brewery,
    customer: String,
    beer: String,
    kegs: u32,
    bottles: u32,
) -> Result<(), String> {
    if next.recipe(&beer).is_none() {
        return Err(format!("we do not brew {beer}"));
    }
    if kegs == 0 && bottles == 0 {
        return Err("an order of nothing".to_owned());
    }
    let id = next.orders.len() as u32 + 1;
    next.orders.push(Order {
        id,
        customer,
        beer,
        kegs,
        bottles,
        taken_on: next.day,
        shipped_on: None,
    });
    Ok(())
}

/// Sends order `id` out of the cellar; the customer is charged the deposit on its kegs (a command).
fn ship(next: &mut Brewery, id: u32, commands: &mut Vec<Msg>) -> Result<(), String> {
    let today = next.day;
    let order = next
        .orders
        .iter_mut()
        .find(|o| o.id == id)
        .ok_or_else(|| format!("no order {id}"))?;
    if let Some(day) = order.shipped_on {
        return Err(format!("order {id} went out on {}", day_name(day)));
    }
    let stock = next
        .cellar
        .iter_mut()
        .find(|c| c.beer == order.beer)
        .filter(|c| c.kegs >= order.kegs && c.bottles >= order.bottles)
        .ok_or_else(|| format!("the cellar has not enough {} for order {id}", order.beer))?;
    stock.kegs -= order.kegs;
    stock.bottles -= order.bottles;
    order.shipped_on = Some(today);
    if order.kegs > 0 {
        commands.push(Msg::ChargeDeposit {
            customer: order.customer.clone(),
            kegs: order.kegs,
        });
    }
    Ok(())
}

/// The keg account of `customer`, opened when they have none.
fn account_of<'a>(accounts: &'a mut Vec<Account>, customer: &str) -> &'a mut Account {
    if let Some(at) = accounts.iter().position(|a| a.customer == customer) {
        return &mut accounts[at];
    }
    accounts.push(Account {
        customer: customer.to_owned(),
        ..Account::default()
    });
    accounts.last_mut().expect("just pushed")
}

/// Takes `kegs` empties back from `customer` and refunds their deposits.
fn return_kegs(next: &mut Brewery, customer: &str, kegs: u32) -> Result<(), String> {
    let account = next
        .accounts
        .iter_mut()
        .find(|a| a.customer == customer)
        .ok_or_else(|| format!("{customer} has no kegs of ours"))?;
    let refund = trade::refund(account, kegs);
    account.kegs_out -= refund.kegs;
    account.deposits -= refund.pence;
    Ok(())
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Brewery, Msg, Stage, day_name, units};
    use super::cellar_of;

    /// [`super::package`] with a mistake.
    pub fn package(next: &mut Brewery, id: u32, kegs: u32) -> Result<(), String> {
        let today = next.day;
        let batch = next.batch_mut(id)?;
        if batch.stage != Stage::Bright {
            return Err(format!(
                "{} is {}, not bright",
                batch.label(),
                batch.stage.doing()
            ));
        }
        let keg_litres = kegs * units::KEG_LITRES;
        if keg_litres > batch.litres {
            return Err(format!(
                "{} holds {} L: not {kegs} kegs",
                batch.label(),
                batch.litres
            ));
        }
        // BUG(bottles_unit)
        let left_ml = batch.litres - keg_litres;
        let bottles = left_ml / units::BOTTLE_ML;
        batch.stage = Stage::Packaged;
        batch.tank.clear();
        batch.packaged_on = Some(today);
        batch.kegs = kegs;
        batch.bottles = bottles;
        let beer = batch.beer.clone();
        let stock = cellar_of(&mut next.cellar, &beer);
        stock.kegs += kegs;
        stock.bottles += bottles;
        Ok(())
    }

    /// [`super::ship`] with a mistake.
    pub fn ship(next: &mut Brewery, id: u32, commands: &mut Vec<Msg>) -> Result<(), String> {
        let today = next.day;
        let order = next
            .orders
            .iter_mut()
            .find(|o| o.id == id)
            .ok_or_else(|| format!("no order {id}"))?;
        if let Some(day) = order.shipped_on {
            return Err(format!("order {id} went out on {}", day_name(day)));
        }
        let stock = next
            .cellar
            .iter_mut()
            .find(|c| c.beer == order.beer)
            .filter(|c| c.kegs >= order.kegs && c.bottles >= order.bottles)
            .ok_or_else(|| format!("the cellar has not enough {} for order {id}", order.beer))?;
        stock.kegs -= order.kegs;
        stock.bottles -= order.bottles;
        order.shipped_on = Some(today);
        // BUG(ship_new_customer)
        if order.kegs > 0 && next.accounts.iter().any(|a| a.customer == order.customer) {
            commands.push(Msg::ChargeDeposit {
                customer: order.customer.clone(),
                kegs: order.kegs,
            });
        }
        Ok(())
    }
}
