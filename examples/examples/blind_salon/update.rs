//! `update` and its helpers: each message as the front desk handles it. A finished appointment sends an `Award`
//! command (its loyalty points), a retail sale a `CheckStock` command.

use super::model::{
    Booking, Length, Level, Msg, OPENS, Sale, SaleKind, Salon, Service, Status, TipShare, Voucher,
    pounds,
};
use super::pricing::{deposit, discounted, needs_reorder, no_show_fee, open_at, service_price};
use super::vouchers::{REWARD_AT, REWARD_VALUE, VALID_DAYS, points_for, redeem, reward_code};

/// The rules `update` calls through fn values: the price list, the loyalty rule, the vouchers' validity, the
/// cancellation policy and the tip split.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub price: fn(Service, Length, Level) -> u32,
    pub points: fn(u32) -> u32,
    pub usable: fn(&Voucher, u32) -> bool,
    pub cancel: fn(&mut Salon, u32),
    pub split_tips: fn(&Salon) -> Vec<TipShare>,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            price: service_price,
            points: points_for,
            usable: Voucher::usable,
            cancel,
            split_tips,
        }
    }
}

/// The commands run when the salon opens: a look at the shelf.
pub fn opening() -> Vec<Msg> {
    Salon::default()
        .products
        .iter()
        .map(|p| Msg::CheckStock {
            product: p.name.clone(),
        })
        .collect()
}

/// The next salon and the commands `msg` sends.
#[ranvier::trace_fn]
pub fn update(msg: Msg, salon: &Salon, helpers: &Helpers) -> (Salon, Vec<Msg>) {
    let mut next = salon.clone();
    let commands = match msg {
        Msg::Book {
            client,
            stylist,
            service,
            length,
            day,
            hour,
        } => {
            book(
                &mut next,
                (&client, &stylist, &service, &length),
                (day, hour),
                helpers.price,
            );
            Vec::new()
        }
        Msg::Cancel { booking } => {
            (helpers.cancel)(&mut next, booking);
            Vec::new()
        }
        Msg::Finish { booking, voucher } => {
            finish(&mut next, booking, voucher.as_deref(), helpers.usable)
        }
        Msg::NoShow { booking } => {
            no_show(&mut next, booking);
            Vec::new()
        }
        Msg::Sell {
            product,
            qty,
            stylist,
        } => sell(&mut next, &product, qty, &stylist),
        Msg::Tip { pence } => {
            next.tips_today += pence;
            Vec::new()
        }
        Msg::SellVoucher { code, pounds } => {
            sell_voucher(&mut next, code, pounds);
            Vec::new()
        }
        Msg::At { hour } => {
            next.hour = hour;
            Vec::new()
        }
        Msg::Advance { days } => {
            let shares = (helpers.split_tips)(&next);
            next.tip_shares.extend(shares);
            next.tips_today = 0;
            next.today += days;
            next.hour = OPENS;
            Vec::new()
        }
        Msg::Award { client, pence } => {
            award(&mut next, &client, pence, helpers.points);
            Vec::new()
        }
        Msg::CheckStock { product } => {
            check_stock(&mut next, &product);
            Vec::new()
        }
    };
    (next, commands)
}

/// Books an appointment at today's prices, taking the deposit; what cannot be booked is noted.
#[ranvier::trace_fn]
pub fn book(
    salon: &mut Salon,
    (client, stylist, service, length): (&str, &str, &str, &str),
    (day, hour): (u32, u32),
    price_of: fn(Service, Length, Level) -> u32,
) {
    let (Some(service), Some(length)) = (Service::parse(service), Length::parse(length)) else {
        salon
            .notices
            .push(format!("no {service} for {length} hair on the price list"));
        return;
    };
    let Some(level) = salon.stylist(stylist).map(|s| s.level) else {
        salon.notices.push(format!("no stylist {stylist}"));
        return;
    };
    if day < salon.today || !open_at(day, hour) {
        salon
            .notices
            .push(format!("cannot book day {day} at {hour}:00"));
        return;
    }
    let price = discounted(price_of(service, length, level), day, hour);
    let deposit = deposit(price);
    let no = salon.next_no;
    salon.next_no += 1;
    salon.bookings.push(Booking {
        no,
        client: client.to_owned(),
        stylist: stylist.to_owned(),
        service,
        length,
        day,
        hour,
        price,
        deposit,
        status: Status::Booked,
        refunded: false,
    });
    salon.sales.push(Sale {
        day: salon.today,
        kind: SaleKind::Deposit,
        stylist: stylist.to_owned(),
        gross: deposit,
    });
}

/// Cancels a booking: the deposit goes back when it is 24 hours or more ahead, and is kept otherwise.
#[ranvier::trace_fn]
pub fn cancel(salon: &mut Salon, no: u32) {
    let now = salon.today * 24 + salon.hour;
    let Some(at) = salon
        .bookings
        .iter()
        .position(|b| b.no == no && b.status == Status::Booked)
    else {
        salon.notices.push(format!("booking {no} is not open"));
        return;
    };
    let booking = &mut salon.bookings[at];
    let hours_before = (booking.day * 24 + booking.hour).saturating_sub(now);
    booking.status = Status::Cancelled;
    if hours_before >= 24 {
        booking.refunded = true;
        let refund = Sale {
            day: salon.today,
            kind: SaleKind::Refund,
            stylist: booking.stylist.clone(),
            gross: booking.deposit,
        };
        salon.notices.push(format!(
            "booking {no} cancelled {hours_before} hours ahead: deposit {} refunded",
            pounds(refund.gross)
        ));
        salon.sales.push(refund);
    } else {
        let kept = booking.deposit;
        salon.notices.push(format!(
            "booking {no} cancelled {hours_before} hours ahead: deposit {} kept",
            pounds(kept)
        ));
    }
}

/// Closes an appointment: the rest is paid, from a gift voucher first when one is given and `usable`; the client's
/// points follow as a command.
#[ranvier::trace_fn]
pub fn finish(
    salon: &mut Salon,
    no: u32,
    voucher: Option<&str>,
    usable: fn(&Voucher, u32) -> bool,
) -> Vec<Msg> {
    let today = salon.today;
    let Some(at) = salon
        .bookings
        .iter()
        .position(|b| b.no == no && b.status == Status::Booked)
    else {
        salon.notices.push(format!("booking {no} is not open"));
        return Vec::new();
    };
    let (price, deposit) = (salon.bookings[at].price, salon.bookings[at].deposit);
    let mut due = price - deposit;
    if let Some(code) = voucher {
        match salon.vouchers.iter_mut().find(|v| v.code == code) {
            Some(v) if usable(v, today) => {
                let used = redeem(v, due);
                v.balance -= used;
                due -= used;
            }
            Some(_) => salon
                .notices
                .push(format!("voucher {code} cannot be used today")),
            None => salon.notices.push(format!("no voucher {code}")),
        }
    }
    let booking = &mut salon.bookings[at];
    booking.status = Status::Done;
    let (client, stylist) = (booking.client.clone(), booking.stylist.clone());
    salon.sales.push(Sale {
        day: today,
        kind: SaleKind::Service,
        stylist,
        gross: due,
    });
    vec![Msg::Award {
        client,
        pence: price,
    }]
}

/// Marks a booking a no-show and charges the fee, less the deposit already taken.
#[ranvier::trace_fn]
pub fn no_show(salon: &mut Salon, no: u32) {
    let today = salon.today;
    let Some(booking) = salon
        .bookings
        .iter_mut()
        .find(|b| b.no == no && b.status == Status::Booked)
    else {
        salon.notices.push(format!("booking {no} is not open"));
        return;
    };
    booking.status = Status::NoShow;
    let charge = no_show_fee(booking.price).saturating_sub(booking.deposit);
    let stylist = booking.stylist.clone();
    salon.sales.push(Sale {
        day: today,
        kind: SaleKind::NoShowFee,
        stylist,
        gross: charge,
    });
}

/// Sells from the shelf; a sale the stock cannot cover is noted instead.
#[ranvier::trace_fn]
pub fn sell(salon: &mut Salon, name: &str, qty: u32, stylist: &str) -> Vec<Msg> {
    let today = salon.today;
    let Some(product) = salon.products.iter_mut().find(|p| p.name == name) else {
        salon.notices.push(format!("no product {name}"));
        return Vec::new();
    };
    if product.stock < qty {
        let stock = product.stock;
        salon
            .notices
            .push(format!("only {stock} {name} on the shelf"));
        return Vec::new();
    }
    product.stock -= qty;
    let gross = product.price * qty;
    salon.sales.push(Sale {
        day: today,
        kind: SaleKind::Retail,
        stylist: stylist.to_owned(),
        gross,
    });
    vec![Msg::CheckStock {
        product: name.to_owned(),
    }]
}

/// Sells a gift voucher, valid for a year from today.
#[ranvier::trace_fn]
pub fn sell_voucher(salon: &mut Salon, code: String, pounds: u32) {
    if salon.vouchers.iter().any(|v| v.code == code) {
        salon.notices.push(format!("voucher {code} exists already"));
        return;
    }
    let value = pounds * 100;
    salon.vouchers.push(Voucher {
        code,
        value,
        balance: value,
        expires: salon.today + VALID_DAYS,
    });
    salon.sales.push(Sale {
        day: salon.today,
        kind: SaleKind::Voucher,
        stylist: String::new(),
        gross: value,
    });
}

/// The day's tips, split evenly among the stylists who finished an appointment today (all of them on a day
/// nobody did); the odd pence go to the first.
#[ranvier::trace_fn]
pub fn split_tips(salon: &Salon) -> Vec<TipShare> {
    if salon.tips_today == 0 {
        return Vec::new();
    }
    let mut staff: Vec<&str> = salon
        .stylists
        .iter()
        .filter(|s| {
            salon
                .bookings
                .iter()
                .any(|b| b.stylist == s.name && b.status == Status::Done && b.day == salon.today)
        })
        .map(|s| s.name.as_str())
        .collect();
    if staff.is_empty() {
        staff = salon.stylists.iter().map(|s| s.name.as_str()).collect();
    }
    let share = salon.tips_today / staff.len() as u32;
    let odd = salon.tips_today - share * staff.len() as u32;
    staff
        .iter()
        .enumerate()
        .map(|(i, name)| TipShare {
            day: salon.today,
            stylist: (*name).to_owned(),
            pence: if i == 0 { share + odd } else { share },
        })
        .collect()
}

/// Adds the points `pence` earns to `client`'s card; at a reward's worth of points, a reward voucher.
#[ranvier::trace_fn]
pub fn award(salon: &mut Salon, client: &str, pence: u32, points_for: fn(u32) -> u32) {
    let earned = points_for(pence);
    let at = match salon.loyalty.iter().position(|(c, _)| c == client) {
        Some(at) => at,
        None => {
            salon.loyalty.push((client.to_owned(), 0));
            salon.loyalty.len() - 1
        }
    };
    salon.loyalty[at].1 += earned;
    if salon.loyalty[at].1 >= REWARD_AT {
        salon.loyalty[at].1 -= REWARD_AT;
        let code = reward_code(client, salon.vouchers.len() + 1);
        salon.notices.push(format!(
            "{client} earned a {} reward voucher, {code}",
            pounds(REWARD_VALUE)
        ));
        salon.vouchers.push(Voucher {
            code,
            value: REWARD_VALUE,
            balance: REWARD_VALUE,
            expires: salon.today + 90,
        });
    }
}

/// Notes a product at or below its reorder point.
#[ranvier::trace_fn]
pub fn check_stock(salon: &mut Salon, name: &str) {
    let Some(product) = salon.products.iter().find(|p| p.name == name) else {
        return;
    };
    if needs_reorder(product) {
        let line = format!(
            "{name}: {} left, reorder {}",
            product.stock, product.reorder_qty
        );
        salon.notices.push(line);
    }
}

pub mod slipped {
    use super::super::model::pounds;
    use super::super::model::{Sale, SaleKind, Salon, Status, TipShare};

    /// [`super::cancel`], with the mistake.
    #[ranvier::trace_fn]
    pub fn cancel(salon: &mut Salon, no: u32) {
        let now = salon.today * 24 + salon.hour;
        let Some(at) = salon
            .bookings
            .iter()
            .position(|b| b.no == no && b.status == Status::Booked)
        else {
            salon.notices.push(format!("booking {no} is not open"));
            return;
        };
        let booking = &mut salon.bookings[at];
        let hours_before = (booking.day * 24 + booking.hour).saturating_sub(now);
        booking.status = Status::Cancelled;
        // BUG(free_cancel)
        if hours_before <= 24 {
            booking.refunded = true;
            let refund = Sale {
                day: salon.today,
                kind: SaleKind::Refund,
                stylist: booking.stylist.clone(),
                gross: booking.deposit,
            };
            salon.notices.push(format!(
                "booking {no} cancelled {hours_before} hours ahead: deposit {} refunded",
                pounds(refund.gross)
            ));
            salon.sales.push(refund);
        } else {
            let kept = booking.deposit;
            salon.notices.push(format!(
                "booking {no} cancelled {hours_before} hours ahead: deposit {} kept",
                pounds(kept)
            ));
        }
    }

    /// [`super::split_tips`], with the mistake.
    #[ranvier::trace_fn]
    pub fn split_tips(salon: &Salon) -> Vec<TipShare> {
        if salon.tips_today == 0 {
            return Vec::new();
        }
        let mut staff: Vec<&str> = salon
            .stylists
            .iter()
            .filter(|s| {
                salon.bookings.iter().any(|b| {
                    // BUG(tip_split)
                    b.stylist == s.name && b.status == Status::Done
                })
            })
            .map(|s| s.name.as_str())
            .collect();
        if staff.is_empty() {
            staff = salon.stylists.iter().map(|s| s.name.as_str()).collect();
        }
        let share = salon.tips_today / staff.len() as u32;
        let odd = salon.tips_today - share * staff.len() as u32;
        staff
            .iter()
            .enumerate()
            .map(|(i, name)| TipShare {
                day: salon.today,
                stylist: (*name).to_owned(),
                pence: if i == 0 { share + odd } else { share },
            })
            .collect()
    }
}
