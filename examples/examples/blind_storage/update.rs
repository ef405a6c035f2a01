//! `update`: what each message does to the warehouse, and the commands it sends (a move-in raises its first bill
//! and books the van; the calendar raises the bills that fell due).

use super::arrears::late_fee;
use super::model::{
    Enquiry, MoveInRequest, Msg, Plan, Rental, Rules, Stage, Tenant, VanBooking, Warehouse,
};
use super::pricing::{VAN_HIRE_CENTS, offer_discount, period_rent};

/// The next warehouse, and the commands that follow.
#[ranvier::trace_fn]
pub fn update(msg: Msg, warehouse: &Warehouse, rules: &Rules) -> (Warehouse, Vec<Msg>) {
    let mut next = warehouse.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::MoveIn {
            unit,
            tenant,
            plan,
            declared_value,
            offer,
            van,
        } => {
            let request = MoveInRequest {
                unit,
                tenant: Tenant::new(&tenant),
                plan,
                declared_cents: declared_value * 100,
                offer,
                van,
            };
            commands = (rules.move_in)(&mut next, request);
        }
        Msg::Charge { unit } => charge(&mut next, &unit, rules),
        Msg::Pay { unit, amount } => match next.rental_mut(&unit) {
            Some(rental) => {
                let taken = (rules.pay)(rental, amount);
                if taken < amount {
                    let back = amount - taken;
                    next.notices
                        .push(format!("{unit}: {back} cents handed back"));
                }
            }
            None => next.notices.push(format!("{unit} is not let")),
        },
        Msg::PassDays { days } => {
            next.day += days;
            commands = chase_arrears(&mut next, rules);
        }
        Msg::BookVan { unit } => book_van(&mut next, unit),
        Msg::MoveOut { unit } => move_out(&mut next, &unit),
        Msg::SellOff { unit, proceeds } => sell_off(&mut next, &unit, proceeds),
        Msg::Enquire {
            size,
            plan,
            weeks,
            declared_value,
            offer,
            van,
        } => {
            next.enquiry = Some(Enquiry {
                size,
                plan,
                weeks,
                declared_cents: declared_value * 100,
                offer,
                van,
            });
        }
    }
    (next, commands)
}

/// Lets a unit: refused to a tenant locked out of another unit, or for a unit already let.
#[ranvier::trace_fn]
pub fn move_in(next: &mut Warehouse, request: MoveInRequest) -> Vec<Msg> {
    let barred = next
        .units
        .iter()
        .filter_map(|unit| unit.rental.as_ref())
        .any(|rental| rental.tenant == request.tenant && rental.locked);
    if barred {
        let tenant = &request.tenant.0;
        next.notices
            .push(format!("{tenant} is locked out of another unit"));
        return Vec::new();
    }
    let today = next.day;
    let Some(unit) = next.units.iter_mut().find(|unit| unit.id == request.unit) else {
        next.notices.push(format!("no unit {}", request.unit));
        return Vec::new();
    };
    if unit.rental.is_some() {
        next.notices
            .push(format!("{} is already let", request.unit));
        return Vec::new();
    }
    unit.rental = Some(Rental::start(&request, today));
    let mut commands = vec![Msg::Charge {
        unit: request.unit.clone(),
    }];
    if request.van {
        commands.push(Msg::BookVan { unit: request.unit });
    }
    commands
}

/// Raises the next bill on a unit: the rent (less the offer, on the first), the insurance and the van hire.
#[ranvier::trace_fn]
pub fn charge(next: &mut Warehouse, id: &str, rules: &Rules) {
    let (today, policy) = (next.day, next.policy.clone());
    let Some(unit) = next.units.iter_mut().find(|unit| unit.id == id) else {
        return;
    };
    let size = unit.size;
    let Some(rental) = unit.rental.as_mut() else {
        return;
    };
    let first = rental.periods_billed == 0;
    let rent = period_rent(size, rental.plan, &policy);
    let mut bill = rent + (rules.premium)(rental.declared_cents, rental.plan);
    if first {
        bill -= offer_discount(rental.offer, size, rental.plan, &policy).min(rent);
        if rental.van && rental.plan == Plan::Weekly {
            bill += VAN_HIRE_CENTS;
        }
    }
    rental.balance_cents += bill;
    rental.periods_billed += 1;
    if rental.overdue_since.is_none() {
        rental.overdue_since = Some(today);
    }
}

/// Takes a payment (no more than the balance); a balance paid off ends the arrears and the lock-out.
#[ranvier::trace_fn]
pub fn apply_payment(rental: &mut Rental, amount: u64) -> u64 {
    let taken = amount.min(rental.balance_cents);
    rental.balance_cents -= taken;
    rental.paid_cents += taken;
    if rental.balance_cents == 0 {
        rental.overdue_since = None;
        rental.late_fee_charged = false;
        rental.locked = false;
    }
    taken
}

/// Today's round: the bills that fell due, the late fees, the lock-outs.
#[ranvier::trace_fn]
pub fn chase_arrears(next: &mut Warehouse, rules: &Rules) -> Vec<Msg> {
    let (today, policy) = (next.day, next.policy.clone());
    let mut commands = Vec::new();
    let mut notices = Vec::new();
    for unit in &mut next.units {
        let Some(rental) = unit.rental.as_mut() else {
            continue;
        };
        for _ in rental.periods_billed..rental.periods_due(today) {
            commands.push(Msg::Charge {
                unit: unit.id.clone(),
            });
        }
        let stage = (rules.stage)(rental.days_overdue(today), &policy);
        if stage >= Stage::Late && !rental.late_fee_charged {
            let fee = late_fee(rental.balance_cents, &policy);
            rental.balance_cents += fee;
            rental.late_fees_cents += fee;
            rental.late_fee_charged = true;
        }
        if stage >= Stage::LockedOut && !rental.locked {
            rental.locked = true;
            notices.push(format!("{} locked out of {}", rental.tenant.0, unit.id));
        }
    }
    next.notices.extend(notices);
    commands
}

/// Books the van for a unit on the first day from today with a free slot.
#[ranvier::trace_fn]
pub fn book_van(next: &mut Warehouse, unit: String) {
    let slots = next.policy.van_slots_per_day.max(1) as usize;
    let mut day = next.day;
    while next.van.iter().filter(|booking| booking.day == day).count() >= slots {
        day += 1;
    }
    next.van.push(VanBooking { unit, day });
}

/// Ends a paid-up rental; its van bookings still to come are cancelled.
#[ranvier::trace_fn]
pub fn move_out(next: &mut Warehouse, id: &str) {
    let today = next.day;
    let Some(unit) = next.units.iter_mut().find(|unit| unit.id == id) else {
        next.notices.push(format!("no unit {id}"));
        return;
    };
    match unit.rental.take() {
        Some(rental) if rental.balance_cents > 0 => {
            let owed = rental.balance_cents;
            unit.rental = Some(rental);
            next.notices
                .push(format!("{id} owes {owed} cents: pay before moving out"));
        }
        Some(rental) => {
            next.past_takings_cents += rental.paid_cents;
            next.van
                .retain(|booking| booking.unit != id || booking.day < today);
        }
        None => next.notices.push(format!("{id} is not let")),
    }
}

/// Clears a unit sold at auction: the proceeds against the arrears, the rest written off.
#[ranvier::trace_fn]
pub fn sell_off(next: &mut Warehouse, id: &str, proceeds: u64) {
    let Some(unit) = next.units.iter_mut().find(|unit| unit.id == id) else {
        next.notices.push(format!("no unit {id}"));
        return;
    };
    match unit.rental.take() {
        Some(rental) => {
            let recovered = proceeds.min(rental.balance_cents);
            next.past_takings_cents += rental.paid_cents + recovered;
            next.written_off_cents += rental.balance_cents - recovered;
            next.notices
                .push(format!("{id} sold off for {proceeds} cents"));
        }
        None => next.notices.push(format!("{id} is not let")),
    }
}

pub mod slipped {
    use super::{MoveInRequest, Msg, Rental, Warehouse};

    #[ranvier::trace_fn]
    pub fn move_in(next: &mut Warehouse, request: MoveInRequest) -> Vec<Msg> {
        let barred = next
            .units
            .iter()
            .filter_map(|unit| unit.rental.as_ref())
            .any(|rental| rental.tenant == request.tenant && rental.locked);
        if barred {
            let tenant = &request.tenant.0;
            next.notices
                .push(format!("{tenant} is locked out of another unit"));
            return Vec::new();
        }
        let today = next.day;
        let Some(unit) = next.units.iter_mut().find(|unit| unit.id == request.unit) else {
            next.notices.push(format!("no unit {}", request.unit));
            return Vec::new();
        };
        if unit.rental.is_some() {
            next.notices
                .push(format!("{} is already let", request.unit));
            return Vec::new();
        }
        unit.rental = Some(Rental::start(&request, today));
        let mut commands = vec![Msg::Charge {
            unit: request.unit.clone(),
        }];
        // BUG(van_inverted)
        if !request.van {
            commands.push(Msg::BookVan { unit: request.unit });
        }
        commands
    }

    #[ranvier::trace_fn]
    pub fn apply_payment(rental: &mut Rental, amount: u64) -> u64 {
        let taken = amount.min(rental.balance_cents);
        rental.balance_cents -= taken;
        // BUG(payment_assign)
        rental.paid_cents = taken;
        if rental.balance_cents == 0 {
            rental.overdue_since = None;
            rental.late_fee_charged = false;
            rental.locked = false;
        }
        taken
    }
}
