//! `update` and its helpers: each message changes a copy of the firm; completing a job may send `reorder` commands
//! for the materials it used up.

use super::crews;
use super::model::{Firm, Job, Material, Msg, Quote, Status, Unit, pounds};
use super::quotes::{self, CancelRule, StairsRule};
use super::storage;

/// Boxes used per cubic metre packed, boxes per roll of tape, cubic metres per roll of wrap.
pub const BOXES_PER_M3: u32 = 4;
pub const BOXES_PER_TAPE: u32 = 8;
pub const M3_PER_WRAP: u32 = 5;

/// The rules and helpers `update` calls, as fn values.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub stairs: StairsRule,
    pub cancellation: CancelRule,
    pub needs_reorder: fn(&Material) -> bool,
    pub book: fn(&mut Firm, u32, StairsRule),
    pub receive: fn(&mut Firm, &str, u32),
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            stairs: quotes::stairs_charge,
            cancellation: quotes::cancellation_fee,
            needs_reorder: Material::needs_reorder,
            book,
            receive,
        }
    }
}

/// The commands the firm opens with: none.
pub fn opening() -> Vec<Msg> {
    Vec::new()
}

/// The firm after `msg`, and the commands it sends.
#[ranvier::trace_fn]
pub fn update(msg: Msg, firm: &Firm, helpers: &Helpers) -> (Firm, Vec<Msg>) {
    let mut next = firm.clone();
    let commands = match msg {
        Msg::Quote {
            customer,
            items,
            from,
            to,
            miles,
            floor,
            lift,
            day,
            declared,
        } => {
            let no = next.quotes.len() as u32 + 1;
            next.quotes.push(Quote {
                no,
                customer,
                items: quotes::parse_items(&items),
                from,
                to,
                miles,
                floor,
                lift,
                day,
                declared,
            });
            Vec::new()
        }
        Msg::Book { quote } => {
            (helpers.book)(&mut next, quote, helpers.stairs);
            Vec::new()
        }
        Msg::Cancel { job } => {
            cancel(&mut next, job, helpers.cancellation);
            Vec::new()
        }
        Msg::Complete { job, hours } => complete(&mut next, job, hours, helpers.needs_reorder),
        Msg::Invoice { job } => {
            invoice(&mut next, job);
            Vec::new()
        }
        Msg::Receive { material, qty } => {
            (helpers.receive)(&mut next, &material, qty);
            Vec::new()
        }
        Msg::Reorder { material } => {
            reorder(&mut next, &material);
            Vec::new()
        }
        Msg::Rent {
            customer,
            weeks,
            large,
        } => {
            rent(&mut next, customer, weeks, large);
            Vec::new()
        }
        Msg::PayStorage { unit, weeks } => {
            pay_storage(&mut next, unit, weeks);
            Vec::new()
        }
        Msg::Advance { days } => {
            for _ in 0..days {
                next_day(&mut next);
            }
            Vec::new()
        }
    };
    (next, commands)
}

/// Books quote `no`: prices it, finds a crew for the day and takes the deposit.
#[ranvier::trace_fn]
pub fn book(firm: &mut Firm, no: u32, stairs: StairsRule) {
    let Some(quote) = firm.quotes.iter().find(|q| q.no == no).cloned() else {
        firm.notices.push(format!("no quote {no}"));
        return;
    };
    if firm.jobs.iter().any(|job| job.quote == no) {
        firm.notices.push(format!("quote {no} is already booked"));
        return;
    }
    let price = quotes::price(&quote, stairs);
    let Some(crew) = crews::crew_for(&firm.crews, &firm.jobs, price.m3, quote.day) else {
        firm.notices
            .push(format!("no crew free on day {} for quote {no}", quote.day));
        return;
    };
    let job = Job {
        no: firm.jobs.len() as u32 + 1,
        quote: no,
        customer: quote.customer.clone(),
        day: quote.day,
        crew,
        m3: price.m3,
        quoted: price.total,
        deposit: quotes::deposit(price.total),
        status: Status::Booked,
        fee: 0,
        invoiced: None,
    };
    firm.notices.push(format!(
        "job {} booked for {}: deposit {}",
        job.no,
        job.customer,
        pounds(job.deposit)
    ));
    firm.jobs.push(job);
}

/// Cancels job `no`, charging the fee its notice calls for.
#[ranvier::trace_fn]
pub fn cancel(firm: &mut Firm, no: u32, cancellation: CancelRule) {
    let today = firm.today;
    let Some(job) = firm.job_mut(no).filter(|job| job.status == Status::Booked) else {
        firm.notices.push(format!("no booked job {no}"));
        return;
    };
    let notice = job.day.saturating_sub(today);
    job.fee = cancellation(notice, job.quoted);
    job.status = Status::Cancelled;
}

/// Job `no` is done: its crew's hours, and the materials packing it used; a `reorder` for each material that fell
/// to its reorder point.
#[ranvier::trace_fn]
pub fn complete(
    firm: &mut Firm,
    no: u32,
    hours: u32,
    needs_reorder: fn(&Material) -> bool,
) -> Vec<Msg> {
    let Some(job) = firm.job_mut(no).filter(|job| job.status == Status::Booked) else {
        firm.notices.push(format!("no booked job {no}"));
        return Vec::new();
    };
    job.status = Status::Done;
    let (crew, m3) = (job.crew.clone(), job.m3);
    if let Some(crew) = firm.crews.iter_mut().find(|c| c.name == crew) {
        crew.hours_today += hours;
    }
    let boxes = m3 * BOXES_PER_M3;
    let used = [
        ("boxes", boxes),
        ("tape", boxes.div_ceil(BOXES_PER_TAPE)),
        ("wrap", m3.div_ceil(M3_PER_WRAP)),
    ];
    let mut commands = Vec::new();
    for (name, qty) in used {
        if let Some(material) = firm.material_mut(name) {
            material.stock = material.stock.saturating_sub(qty);
            if needs_reorder(material) && material.on_order == 0 {
                commands.push(Msg::Reorder {
                    material: name.to_owned(),
                });
            }
        }
    }
    commands
}

/// Invoices job `no`, done or cancelled, once.
#[ranvier::trace_fn]
pub fn invoice(firm: &mut Firm, no: u32) {
    let today = firm.today;
    let refused = match firm.job_mut(no) {
        Some(job) if job.status != Status::Booked && job.invoiced.is_none() => {
            job.invoiced = Some(today);
            None
        }
        Some(_) => Some(format!("job {no} cannot be invoiced")),
        None => Some(format!("no job {no}")),
    };
    firm.notices.extend(refused);
}

/// A delivery of `qty` of `name`: into stock, and off what is on order.
#[ranvier::trace_fn]
pub fn receive(firm: &mut Firm, name: &str, qty: u32) {
    let Some(material) = firm.material_mut(name) else {
        firm.notices.push(format!("no material {name}"));
        return;
    };
    material.stock += qty;
    material.on_order = material.on_order.saturating_sub(qty);
}

/// Orders the material's reorder quantity from the supplier.
#[ranvier::trace_fn]
pub fn reorder(firm: &mut Firm, name: &str) {
    let Some(material) = firm.material_mut(name) else {
        return;
    };
    material.on_order = material.reorder_qty;
    let cost = u64::from(material.reorder_qty) * material.price;
    let line = format!(
        "ordered {} {}: {}",
        material.reorder_qty,
        material.name,
        pounds(cost)
    );
    firm.notices.push(line);
}

/// Rents a unit to `customer`, paid for the first term.
#[ranvier::trace_fn]
pub fn rent(firm: &mut Firm, customer: String, weeks: u32, large: bool) {
    let weeks = storage::first_term(weeks);
    let no = firm.units.len() as u32 + 1;
    firm.units.push(Unit {
        no,
        customer,
        large,
        start: firm.today,
        paid_until: firm.today + weeks * 7 - 1,
    });
}

/// Unit `no`'s rent for `weeks` more.
#[ranvier::trace_fn]
pub fn pay_storage(firm: &mut Firm, no: u32, weeks: u32) {
    match firm.units.iter_mut().find(|unit| unit.no == no) {
        Some(unit) => unit.paid_until += weeks * 7,
        None => firm.notices.push(format!("no unit {no}")),
    }
}

/// The next day: the crews' hours start again.
#[ranvier::trace_fn]
pub fn next_day(firm: &mut Firm) {
    firm.today += 1;
    for crew in &mut firm.crews {
        crew.hours_today = 0;
    }
}

pub mod slipped {
    use super::super::crews;
    use super::super::model::{Firm, Job, Status, pounds};
    use super::super::quotes::{self, StairsRule};

    /// Books quote `no`: prices it, finds a crew for the day and takes the deposit.
    #[ranvier::trace_fn]
    pub fn book(firm: &mut Firm, no: u32, stairs: StairsRule) {
        let Some(quote) = firm.quotes.iter().find(|q| q.no == no).cloned() else {
            firm.notices.push(format!("no quote {no}"));
            return;
        };
        if firm.jobs.iter().any(|job| job.quote == no) {
            firm.notices.push(format!("quote {no} is already booked"));
            return;
        }
        let price = quotes::price(&quote, stairs);
        let Some(crew) = crews::crew_for(&firm.crews, &firm.jobs, price.m3, quote.day) else {
            firm.notices
                .push(format!("no crew free on day {} for quote {no}", quote.day));
            return;
        };
        let job = Job {
            no: firm.jobs.len() as u32 + 1,
            quote: no,
            customer: quote.customer.clone(),
            // BUG(book_day)
            day: firm.today,
            crew,
            m3: price.m3,
            quoted: price.total,
            deposit: quotes::deposit(price.total),
            status: Status::Booked,
            fee: 0,
            invoiced: None,
        };
        firm.notices.push(format!(
            "job {} booked for {}: deposit {}",
            job.no,
            job.customer,
            pounds(job.deposit)
        ));
        firm.jobs.push(job);
    }

    /// A delivery of `qty` of `name`: into stock, and off what is on order.
    #[ranvier::trace_fn]
    pub fn receive(firm: &mut Firm, name: &str, qty: u32) {
        let Some(material) = firm.material_mut(name) else {
            firm.notices.push(format!("no material {name}"));
            return;
        };
        // BUG(receive_stock)
        material.stock = qty;
        material.on_order = material.on_order.saturating_sub(qty);
    }
}
