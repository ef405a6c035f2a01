//! The shop's `update`: one arm per message, the helpers the arms call, and the commands they send (a sale stamps
//! the customer's card; a delivery or publication day makes the waiting orders ready).

use super::loyalty;
use super::model::{Book, Card, Entry, Msg, Order, RETURN_DAYS, Sale, Shop, Status};
use super::pricing;

/// The rules `update` calls through fn values (the graph picks them).
#[derive(Clone, Copy)]
pub struct Helpers {
    pub unit_price: fn(&Book, &str, bool) -> u32,
    pub stamps_for: fn(u32) -> u32,
    pub card_stamps: fn(&mut Card, u32),
    pub take_return: fn(&mut Shop, u32),
    pub published: fn(&Book, u32) -> bool,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            unit_price: pricing::unit_price,
            stamps_for: loyalty::stamps_for,
            card_stamps,
            take_return,
            published: Book::is_published,
        }
    }
}

/// The messages the shop starts with: none.
pub fn opening() -> Vec<Msg> {
    Vec::new()
}

/// The shop after `msg`, and the messages to send next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, shop: &Shop, helpers: &Helpers) -> (Shop, Vec<Msg>) {
    let mut next = shop.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Sell {
            code,
            qty,
            customer,
            member,
        } => {
            if let Some(pence) = sell(&mut next, &code, qty, &customer, member, helpers) {
                if !customer.is_empty() {
                    commands.push(Msg::Stamp { customer, pence });
                }
            }
        }
        Msg::Stamp { customer, pence } => {
            let earned = (helpers.stamps_for)(pence);
            let at = match next.cards.iter().position(|c| c.customer == customer) {
                Some(at) => at,
                None => {
                    next.cards.push(Card {
                        customer,
                        stamps: 0,
                        free_books: 0,
                    });
                    next.cards.len() - 1
                }
            };
            (helpers.card_stamps)(&mut next.cards[at], earned);
        }
        Msg::Return { sale } => (helpers.take_return)(&mut next, sale),
        Msg::Order {
            customer,
            code,
            qty,
            mail,
        } => place_order(&mut next, customer, &code, qty, mail, helpers),
        Msg::Ready { order } => {
            if let Some(order) = next.orders.iter_mut().find(|o| o.no == order) {
                if order.status == Status::Waiting {
                    order.status = Status::Ready;
                }
            }
        }
        Msg::Collect { order } => collect(&mut next, order),
        Msg::Receive { code, qty } => {
            commands = receive(&mut next, &code, qty);
        }
        Msg::Advance { days } => {
            next.today += days;
            commands = published_today(&next, helpers.published);
        }
    }
    (next, commands)
}

/// Sells `qty` copies of `code` at the till; the pence taken, or `None` (and a notice) when the shelf is short.
#[ranvier::trace_fn]
pub fn sell(
    shop: &mut Shop,
    code: &str,
    qty: u32,
    customer: &str,
    member: bool,
    helpers: &Helpers,
) -> Option<u32> {
    let today = shop.today;
    let pick = shop.club_pick.clone();
    let book = shop.book_mut(code)?;
    if book.stock < qty || !(helpers.published)(book, today) {
        let notice = format!("day {today}: cannot sell {qty} × {}", book.title);
        shop.notices.push(notice);
        return None;
    }
    book.stock -= qty;
    let unit = (helpers.unit_price)(book, &pick, member);
    let title = book.title.clone();
    let no = shop.sales.len() as u32 + 1;
    shop.sales.push(Sale {
        no,
        day: today,
        code: code.to_owned(),
        qty,
        unit,
        customer: customer.to_owned(),
        returned: false,
    });
    let pence = unit * qty;
    shop.till.push(Entry {
        day: today,
        pence: i64::from(pence),
        what: format!("sale {no}, {qty} × {title}"),
    });
    Some(pence)
}

/// Adds `earned` stamps to `card`, turning each ten into a free book.
#[ranvier::trace_fn]
pub fn card_stamps(card: &mut Card, earned: u32) {
    card.stamps += earned;
    let free = loyalty::free_books(card.stamps);
    card.free_books += free;
    card.stamps -= free * loyalty::STAMPS_FOR_A_BOOK;
}

/// Takes back the books of sale `no` within the return window, refunding what was paid for them.
#[ranvier::trace_fn]
pub fn take_return(shop: &mut Shop, no: u32) {
    let today = shop.today;
    let Some(sale) = shop.sales.iter_mut().find(|s| s.no == no && !s.returned) else {
        shop.notices
            .push(format!("day {today}: no sale {no} to take back"));
        return;
    };
    if today > sale.day + RETURN_DAYS {
        shop.notices.push(format!(
            "day {today}: sale {no} is past its {RETURN_DAYS} days"
        ));
        return;
    }
    sale.returned = true;
    let (code, qty, unit) = (sale.code.clone(), sale.qty, sale.unit);
    let refund = unit * qty;
    if let Some(book) = shop.book_mut(&code) {
        book.stock += qty;
    }
    shop.till.push(Entry {
        day: today,
        pence: -i64::from(refund),
        what: format!("refund of sale {no}"),
    });
}

/// Places an order: ready at once from the shelf, else a special order or a preorder, which takes a deposit.
#[ranvier::trace_fn]
pub fn place_order(
    shop: &mut Shop,
    customer: String,
    code: &str,
    qty: u32,
    mail: bool,
    helpers: &Helpers,
) {
    let today = shop.today;
    let no = shop.orders.len() as u32 + 1;
    let Some(book) = shop.book_mut(code) else {
        shop.notices.push(format!("day {today}: no book {code:?}"));
        return;
    };
    let out = (helpers.published)(book, today);
    let from_shelf = out && book.stock >= qty;
    if from_shelf {
        book.stock -= qty;
    }
    let unit = book.price();
    let deposit = pricing::deposit(unit * qty, !from_shelf);
    let order = Order {
        no,
        customer,
        code: code.to_owned(),
        title: book.title.clone(),
        qty,
        unit,
        mail,
        special: !from_shelf,
        deposit,
        grams: book.grams * qty,
        due: if out { today } else { book.published },
        status: if from_shelf {
            Status::Ready
        } else {
            Status::Waiting
        },
    };
    if deposit > 0 {
        shop.till.push(Entry {
            day: today,
            pence: i64::from(deposit),
            what: format!("deposit on order {no}"),
        });
    }
    shop.orders.push(order);
}

/// The customer collects order `no` (or it is posted): the balance goes in the till.
#[ranvier::trace_fn]
pub fn collect(shop: &mut Shop, no: u32) {
    let today = shop.today;
    let Some(order) = shop.orders.iter_mut().find(|o| o.no == no) else {
        shop.notices.push(format!("day {today}: no order {no}"));
        return;
    };
    if order.status != Status::Ready {
        shop.notices
            .push(format!("day {today}: order {no} is not ready"));
        return;
    }
    order.status = Status::Collected;
    let postage = if order.mail {
        pricing::postage(order.grams + pricing::PACKING_GRAMS)
    } else {
        0
    };
    let balance = order.unit * order.qty + postage - order.deposit;
    shop.till.push(Entry {
        day: today,
        pence: i64::from(balance),
        what: format!("balance of order {no}"),
    });
}

/// Puts `qty` copies of `code` on the shelf; the waiting special orders it covers are made ready.
#[ranvier::trace_fn]
pub fn receive(shop: &mut Shop, code: &str, qty: u32) -> Vec<Msg> {
    let mut ready = Vec::new();
    let Some(book) = shop.book_mut(code) else {
        return ready;
    };
    book.stock += qty;
    for order in shop
        .orders
        .iter()
        .filter(|o| o.code == code && o.status == Status::Waiting)
    {
        let Some(book) = shop.books.iter_mut().find(|b| b.code == code) else {
            break;
        };
        if book.stock < order.qty {
            break;
        }
        book.stock -= order.qty;
        ready.push(Msg::Ready { order: order.no });
    }
    ready
}

/// The preorders whose book is out today: a `ready` for each (the publisher sends preorders on the day).
#[ranvier::trace_fn]
pub fn published_today(shop: &Shop, published: fn(&Book, u32) -> bool) -> Vec<Msg> {
    shop.orders
        .iter()
        .filter(|o| o.status == Status::Waiting)
        .filter(|o| {
            shop.book(&o.code)
                .is_some_and(|b| b.published > 0 && published(b, shop.today))
        })
        .map(|o| Msg::Ready { order: o.no })
        .collect()
}

pub mod slipped {
    use super::*;

    #[ranvier::trace_fn]
    pub fn card_stamps(card: &mut Card, earned: u32) {
        // BUG(card_stamps)
        card.stamps = earned;
        let free = loyalty::free_books(card.stamps);
        card.free_books += free;
        card.stamps -= free * loyalty::STAMPS_FOR_A_BOOK;
    }

    #[ranvier::trace_fn]
    pub fn take_return(shop: &mut Shop, no: u32) {
        let today = shop.today;
        let Some(sale) = shop.sales.iter_mut().find(|s| s.no == no && !s.returned) else {
            shop.notices
                .push(format!("day {today}: no sale {no} to take back"));
            return;
        };
        if today > sale.day + RETURN_DAYS {
            shop.notices.push(format!(
                "day {today}: sale {no} is past its {RETURN_DAYS} days"
            ));
            return;
        }
        sale.returned = true;
        let (code, qty) = (sale.code.clone(), sale.qty);
        // BUG(refund)
        let refund = shop.book(&code).map_or(0, |b| b.price()) * qty;
        if let Some(book) = shop.book_mut(&code) {
            book.stock += qty;
        }
        shop.till.push(Entry {
            day: today,
            pence: -i64::from(refund),
            what: format!("refund of sale {no}"),
        });
    }
}
