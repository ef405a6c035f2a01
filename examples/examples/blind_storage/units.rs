//! The units as a keyed collection: one row per unit with its next bill, the order the desk chases balances in, and
//! what the next bills come to.

use super::model::{Msg, Plan, Policy, Rules, Unit, Warehouse};
use super::pricing::period_rent;
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, Mvu, node};
use std::cmp::Reverse;

/// A unit's row: its next bill.
pub type UnitRow = (&'static str, Memo<u64>);

/// The units, keyed by id.
pub type Units = Collection<String, Unit, UnitRow>;

/// Makes a unit's row.
pub type RowFactory = fn(&Row<String, Unit>, &Memo<Policy>, &Rules) -> Memo<u64>;

/// The units of the warehouse, each row with the memo `make_row` builds.
#[node]
pub fn units(
    warehouse: &Mvu<Warehouse, Msg>,
    policy: &Memo<Policy>,
    rules: Rules,
    make_row: RowFactory,
) -> Units {
    let policy = policy.clone();
    let list = warehouse.select(|w| w.units.clone());
    let units = Collection::keyed(
        list,
        |unit: &Unit| unit.id.clone(),
        move |row| ("next_charge", make_row(row, &policy, &rules)),
    );
    units
}

/// A unit's next bill: rent and insurance for a let unit; the advertised weekly rate for an empty one.
#[node]
pub fn next_charge(row: &Row<String, Unit>, policy: &Memo<Policy>, rules: &Rules) -> Memo<u64> {
    let (row, policy, premium) = (row.clone(), policy.clone(), rules.premium);
    let next_charge = Memo::new(move |_| {
        let policy = policy.get();
        row.with(|unit| match &unit.rental {
            None => period_rent(unit.size, Plan::Weekly, &policy),
            Some(rental) => {
                let rent = period_rent(unit.size, rental.plan, &policy);
                rent + premium(rental.declared_cents, rental.plan)
            }
        })
    });
    next_charge
}

/// The unit ids, largest balance first (empty units last).
#[node]
pub fn by_balance(units: &Units) -> Memo<Vec<String>> {
    let order = units.sort_by(|unit| Reverse(unit.rental.as_ref().map_or(0, |r| r.balance_cents)));
    let by_balance = Memo::new(move |_| order.with(|ids| ids.to_vec()));
    by_balance
}

/// What the next bills on the let units come to.
#[node]
pub fn billing_due(units: &Units) -> Memo<u64> {
    let units = units.clone();
    let billing_due = Memo::new(move |_| {
        let mut total = 0;
        units.for_each(|_, unit, (_, next_charge)| {
            if unit.rental.is_some() {
                total += next_charge.get();
            }
        });
        total
    });
    billing_due
}

pub mod slipped {
    use super::{Memo, Plan, Policy, Reverse, Row, Rules, Unit, Units, node, period_rent};

    #[node]
    pub fn next_charge(row: &Row<String, Unit>, policy: &Memo<Policy>, rules: &Rules) -> Memo<u64> {
        let (row, policy, premium) = (row.clone(), policy.clone(), rules.premium);
        let next_charge = Memo::new(move |_| {
            let policy = policy.get();
            row.with(|unit| match &unit.rental {
                None => period_rent(unit.size, Plan::Weekly, &policy),
                Some(rental) => {
                    // BUG(row_weekly_plan)
                    let rent = period_rent(unit.size, Plan::Weekly, &policy);
                    rent + premium(rental.declared_cents, rental.plan)
                }
            })
        });
        next_charge
    }

    #[node]
    pub fn by_balance(units: &Units) -> Memo<Vec<String>> {
        // BUG(chase_by_paid)
        let order = units.sort_by(|unit| Reverse(unit.rental.as_ref().map_or(0, |r| r.paid_cents)));
        let by_balance = Memo::new(move |_| order.with(|ids| ids.to_vec()));
        by_balance
    }
}
