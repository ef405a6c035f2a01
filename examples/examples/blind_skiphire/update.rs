//! `update`, Elmish: a collection sends a `bill` for the customer, posted to their account (or taken in cash).

use super::charges;
use super::model::{Hire, Msg, Size, Yard};

/// Collects a skip and returns the bill to send, if there is one.
pub type Collector = fn(&mut Yard, &str, u32) -> Option<Msg>;
/// Posts a bill to a customer.
pub type Poster = fn(&mut Yard, &str, u64);

/// The yard after `msg`, and the messages it sends on.
pub fn update(msg: Msg, yard: &Yard) -> (Yard, Vec<Msg>) {
    update_with(msg, yard, collect, post)
}

/// [`update`], collecting with `collect` and posting bills with `post`.
pub fn update_with(msg: Msg, yard: &Yard, collect: Collector, post: Poster) -> (Yard, Vec<Msg>) {
    let mut next = yard.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Book {
            customer,
            size,
            on_day,
            on_road,
            hazardous,
        } => {
            let Some(size) = Size::parse(&size) else {
                return (next, commands);
            };
            let id = format!("S{}", next.next_id);
            next.next_id += 1;
            let placed_on = on_day.max(next.day);
            next.hires.push(Hire {
                id,
                customer,
                size,
                placed_on,
                on_road,
                hazardous,
                driver: None,
                collected_on: None,
                tenths: 0,
                billed: 0,
            });
        }
        Msg::Assign { id, driver } => {
            if let Some(hire) = next.hire_mut(&id)
                && hire.collected_on.is_none()
            {
                hire.driver = Some(driver);
            }
        }
        Msg::Collect { id, tenths } => {
            if let Some(bill) = collect(&mut next, &id, tenths) {
                commands.push(bill);
            }
        }
        Msg::Bill { customer, cents } => post(&mut next, &customer, cents),
        Msg::Pay { customer, cents } => {
            if let Some(account) = next.accounts.iter_mut().find(|a| a.customer == customer) {
                account.owed = account.owed.saturating_sub(cents);
            } else {
                next.cash_taken += cents;
            }
        }
        Msg::Advance { days } => next.day += days,
    }
    (next, commands)
}

/// Collects skip `id` with a load of `tenths` today, and bills it: nothing for a skip already collected or not yet
/// placed.
pub fn collect(yard: &mut Yard, id: &str, tenths: u32) -> Option<Msg> {
    let today = yard.day;
    let hire = yard.hire_mut(id)?;
    if hire.collected_on.is_some() || hire.placed_on > today {
        return None;
    }
    let days = charges::days_on_hire(hire.placed_on, today);
    let cents = charges::collection_bill(hire.size, days, tenths, hire.on_road, hire.hazardous);
    hire.collected_on = Some(today);
    hire.tenths = tenths;
    hire.billed = cents;
    Some(Msg::Bill {
        customer: hire.customer.clone(),
        cents,
    })
}

/// Posts a bill of `cents` to `customer`'s account, or to the cash taken for a customer not on account.
pub fn post(yard: &mut Yard, customer: &str, cents: u64) {
    match yard.accounts.iter_mut().find(|a| a.customer == customer) {
        Some(account) => account.owed += cents,
        None => yard.cash_taken += cents,
    }
}

pub mod slipped {
    use super::super::charges;
    use super::super::model::{Msg, Yard};

    pub fn collect(yard: &mut Yard, id: &str, tenths: u32) -> Option<Msg> {
        let today = yard.day;
        let hire = yard.hire_mut(id)?;
        if hire.collected_on.is_some() || hire.placed_on > today {
            return None;
        }
        let days = charges::days_on_hire(hire.placed_on, today);
        // BUG(collect_args_swapped)
        let cents = charges::collection_bill(hire.size, tenths, days, hire.on_road, hire.hazardous);
        hire.collected_on = Some(today);
        hire.tenths = tenths;
        hire.billed = cents;
        Some(Msg::Bill {
            customer: hire.customer.clone(),
            cents,
        })
    }

    pub fn post(yard: &mut Yard, customer: &str, cents: u64) {
        match yard.accounts.iter_mut().find(|a| a.customer == customer) {
            // BUG(post_overwrites)
            Some(account) => account.owed = cents,
            None => yard.cash_taken += cents,
        }
    }
}
