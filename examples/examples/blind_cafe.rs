//! A café bill an MCP client can read and drive, written against ranvier's public API, for a blind test of
//! `explain`: each variant of the app carries one ordinary mistake (the line after its `// BUG(<key>)` comment), and
//! `cargo run -p ranvier-examples --features blind --example blind_cafe` asks `explain`, once per variant over MCP, why the visibly wrong value is what it
//! is, and prints whether the answer names the faulty line and where (a debug build: only traced builds list
//! `explain`).
//!
//! The café: a table seats a party (`seat_table`), guests order menu items with options (`order`; an identical open
//! line of the same guest takes the extra quantity), lines can be voided or comped ("on the house": still cooked,
//! not billed), `send_to_kitchen` sends every open line to the kitchen display, `set_clock` sets the time of day
//! (happy hour, 16:00 to 18:00, takes 30% off drinks, not coffee or food), `set_tip` the tip percent, `scan_card` a
//! loyalty card and its stamps, and `pay` closes the bill: each coffee on a paid bill earns a stamp, and a card with
//! 10 stamps gets the cheapest coffee of the bill free. Exposed values: `happy_hour`, `subtotal` (lines at their
//! prices), `service_charge` (12.5% of the subtotal, to the nearest cent, half up), `tip` (percent of the subtotal,
//! to the nearest cent), `reward` (the free coffee), `total` (subtotal − reward + service + tip), `shares` (the total
//! split between the guests, the first ones paying the odd cents), `kitchen` (tickets of the sent lines, oldest
//! first), `stock` (opening stock minus what was sent to the kitchen), `stamps` and `receipt` (written on payment).

// Written as an app developer would, planted mistakes included (the reversed sort is one of them).
#![allow(clippy::type_complexity, clippy::unnecessary_sort_by)]

use ranvier_examples::harness;

use std::any::Any;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use harness::{Shape, Started};
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Effect, Memo, Messages, Mvu, Signal, batch, create_root, on_cleanup, untrack};
use serde_json::{Value, json};

// ---- the menu ---------------------------------------------------------------------------------------------------

/// What kind of thing a menu item is: happy hour only discounts drinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Espresso, latte: earn loyalty stamps.
    Coffee,
    /// Beer, wine, lemonade: discounted at happy hour.
    Drink,
    /// Croissants and sandwiches.
    Food,
}

/// One item of the menu.
pub struct MenuItem {
    /// Its name, as ordered.
    pub name: &'static str,
    /// Its price, in cents.
    pub price: u64,
    /// What it is.
    pub category: Category,
}

/// The menu.
pub const MENU: &[MenuItem] = &[
    MenuItem {
        name: "espresso",
        price: 250,
        category: Category::Coffee,
    },
    MenuItem {
        name: "latte",
        price: 380,
        category: Category::Coffee,
    },
    MenuItem {
        name: "lemonade",
        price: 300,
        category: Category::Drink,
    },
    MenuItem {
        name: "beer",
        price: 550,
        category: Category::Drink,
    },
    MenuItem {
        name: "wine",
        price: 700,
        category: Category::Drink,
    },
    MenuItem {
        name: "croissant",
        price: 320,
        category: Category::Food,
    },
    MenuItem {
        name: "sandwich",
        price: 850,
        category: Category::Food,
    },
];

/// Percent taken off drinks at happy hour.
pub const HAPPY_HOUR_OFF_PERCENT: u64 = 30;
/// Happy hour, in minutes since midnight: from 16:00 up to (not including) 18:00.
pub const HAPPY_HOUR: (u32, u32) = (16 * 60, 18 * 60);
/// Service charge, per mille of the subtotal.
pub const SERVICE_PERMILLE: u64 = 125;
/// Stamps a card needs for a free coffee.
pub const STAMPS_PER_FREE_COFFEE: u32 = 10;

/// The menu item called `name`.
pub fn menu_item(name: &str) -> Option<&'static MenuItem> {
    MENU.iter().find(|item| item.name == name)
}

/// What an option adds to the price of one unit, in cents.
pub fn option_price(option: &str) -> u64 {
    match option {
        "oat" => 50,
        "extra-shot" => 60,
        "large" => 80,
        _ => 0,
    }
}

/// The stock the day opens with (coffee and lemonade are not counted).
pub fn opening_stock() -> BTreeMap<String, u32> {
    [
        ("beer", 24),
        ("wine", 10),
        ("croissant", 6),
        ("sandwich", 4),
    ]
    .into_iter()
    .map(|(item, n)| (item.to_owned(), n))
    .collect()
}

/// Cents as `12.34`.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

// ---- the model ----------------------------------------------------------------------------------------------------

/// One line of the bill.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its number, from 1, in the order lines were opened.
    pub id: u32,
    /// The menu item.
    pub item: String,
    /// How many.
    pub qty: u32,
    /// Options, sorted, without repeats.
    pub options: Vec<String>,
    /// Which guest of the party ordered it, from 1.
    pub guest: u32,
    /// Sent to the kitchen.
    pub sent: bool,
    /// On the house: cooked, not billed.
    pub comped: bool,
}

/// The bill of one table.
#[derive(Clone, Debug, PartialEq)]
pub struct Cafe {
    /// The table number.
    pub table: u32,
    /// How many guests share the bill.
    pub guests: u32,
    /// The lines, in the order they were opened.
    pub lines: Vec<Line>,
    /// The id of the last line opened.
    pub last_id: u32,
    /// The time of day.
    pub hour: u32,
    /// The minute of the hour.
    pub minute: u32,
    /// Tip, percent of the subtotal.
    pub tip_percent: u32,
    /// The loyalty card scanned, if any.
    pub card: Option<String>,
    /// Stamps on that card.
    pub stamps: u32,
    /// The bill is paid.
    pub paid: bool,
}

impl Default for Cafe {
    fn default() -> Self {
        Cafe {
            table: 1,
            guests: 1,
            lines: Vec::new(),
            last_id: 0,
            hour: 12,
            minute: 0,
            tip_percent: 0,
            card: None,
            stamps: 0,
            paid: false,
        }
    }
}

/// What the till can be told.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Seats a party at a table.
    SeatTable {
        /// The table number.
        table: u32,
        /// The party's size, 1 to 12.
        #[message(range(min = 1, max = 12))]
        guests: u32,
    },
    /// Orders `qty` of a menu item for a guest.
    Order {
        /// The menu item.
        item: String,
        /// How many, at least 1.
        #[message(range(min = 1))]
        qty: u32,
        /// Options (`oat`, `extra-shot`, `large`).
        options: Vec<String>,
        /// The guest, from 1.
        #[message(range(min = 1))]
        guest: u32,
    },
    /// Removes a line.
    VoidLine {
        /// The line.
        id: u32,
    },
    /// Puts a line on the house: it is still cooked, but not billed.
    CompLine {
        /// The line.
        id: u32,
    },
    /// Sends every open line to the kitchen.
    SendToKitchen,
    /// Sets the time of day.
    SetClock {
        /// 0 to 23.
        #[message(range(min = 0, max = 23))]
        hour: u32,
        /// 0 to 59.
        #[message(range(min = 0, max = 59))]
        minute: u32,
    },
    /// Sets the tip percent.
    SetTip {
        /// 0 to 100.
        #[message(range(min = 0, max = 100))]
        percent: u32,
    },
    /// Scans a loyalty card.
    ScanCard {
        /// The card's number.
        card: String,
        /// The stamps already on it.
        stamps: u32,
    },
    /// Adds stamps to the scanned card (sent by the till itself when a bill with coffee is paid).
    AddStamps {
        /// How many.
        count: u32,
    },
    /// Closes the bill.
    Pay,
}

// ---- update variants: each replaces arms of `update` in its own app ------------------------------------------------

/// Seating takes the table number for the party size.
mod seat_guests {
    use super::*;

    #[ranvier::trace_fn]
    pub fn update(msg: Msg, cafe: &Cafe) -> Cafe {
        match msg {
            Msg::SeatTable { table, guests } => {
                let mut next = cafe.clone();
                assert!(guests <= 12, "a table seats at most 12, not {guests}");
                next.table = table;
                // BUG(seat_guests): the table number, not the party size
                next.guests = table.max(1);
                next
            }
            other => super::update(other, cafe),
        }
    }
}

/// An order merges into a line already sent to the kitchen.
mod merge_sent {
    use super::*;

    #[ranvier::trace_fn]
    pub fn update(msg: Msg, cafe: &Cafe) -> Cafe {
        let mut next = cafe.clone();
        match msg {
            Msg::Order {
                item,
                qty,
                options,
                guest,
            } => {
                assert!(!next.paid, "the bill of table {} is paid", next.table);
                assert!(menu_item(&item).is_some(), "{item:?} is not on the menu");
                let mut options = options;
                options.sort();
                options.dedup();
                let guest = guest.clamp(1, next.guests);
                let open = next.lines.iter_mut().find(|line| {
                    line.item == item
                        && line.options == options
                        && line.guest == guest
                        // BUG(merge_sent): merges into a sent line (should be !line.sent)
                        && line.sent
                });
                match open {
                    Some(line) => line.qty += qty,
                    None => {
                        next.last_id += 1;
                        next.lines.push(Line {
                            id: next.last_id,
                            item,
                            qty,
                            options,
                            guest,
                            sent: false,
                            comped: false,
                        });
                    }
                }
                next
            }
            other => super::update(other, cafe),
        }
    }
}

/// Comping a line voids it (arm copied from void_line).
mod comp_void {
    use super::*;

    #[ranvier::trace_fn]
    pub fn update(msg: Msg, cafe: &Cafe) -> Cafe {
        let mut next = cafe.clone();
        match msg {
            Msg::VoidLine { id } => next.lines.retain(|line| line.id != id),
            // BUG(comp_void): copied from VoidLine: removes the line instead of marking it comped
            Msg::CompLine { id } => next.lines.retain(|line| line.id != id),
            other => return super::update(other, cafe),
        }
        next
    }
}

// ---- the update -------------------------------------------------------------------------------------------------------

/// The till's update.
///
/// # Panics
///
/// On an item not on the menu, an order on a paid bill, or paying an empty bill (the dispatch is then rejected).
#[ranvier::trace_fn]
pub fn update(msg: Msg, cafe: &Cafe) -> Cafe {
    let mut next = cafe.clone();
    match msg {
        Msg::SeatTable { table, guests } => {
            assert!(guests <= 12, "a table seats at most 12, not {guests}");
            next.table = table;
            next.guests = guests.max(1);
        }
        Msg::Order {
            item,
            qty,
            options,
            guest,
        } => {
            assert!(!next.paid, "the bill of table {} is paid", next.table);
            assert!(menu_item(&item).is_some(), "{item:?} is not on the menu");
            let mut options = options;
            options.sort();
            options.dedup();
            let guest = guest.clamp(1, next.guests);
            let open = next.lines.iter_mut().find(|line| {
                line.item == item && line.options == options && line.guest == guest && !line.sent
            });
            match open {
                Some(line) => line.qty += qty,
                None => {
                    next.last_id += 1;
                    next.lines.push(Line {
                        id: next.last_id,
                        item,
                        qty,
                        options,
                        guest,
                        sent: false,
                        comped: false,
                    });
                }
            }
        }
        Msg::VoidLine { id } => next.lines.retain(|line| line.id != id),
        Msg::CompLine { id } => {
            if let Some(line) = next.lines.iter_mut().find(|line| line.id == id) {
                line.comped = true;
            }
        }
        Msg::SendToKitchen => {
            for line in &mut next.lines {
                line.sent = true;
            }
        }
        Msg::SetClock { hour, minute } => {
            next.hour = hour;
            next.minute = minute;
        }
        Msg::SetTip { percent } => next.tip_percent = percent,
        Msg::ScanCard { card, stamps } => {
            next.card = Some(card);
            next.stamps = stamps;
        }
        Msg::AddStamps { count } => next.stamps += count,
        Msg::Pay => {
            assert!(!next.lines.is_empty(), "nothing to pay");
            next.paid = true;
        }
    }
    next
}

// ---- helpers --------------------------------------------------------------------------------------------------------

/// Minutes since midnight.
#[ranvier::trace_fn]
pub fn minutes_of_day(hour: u32, minute: u32) -> u32 {
    hour * 60 + minute
}

/// Whether `minutes` since midnight fall in happy hour.
#[ranvier::trace_fn]
pub fn is_happy_hour(minutes: u32) -> bool {
    (HAPPY_HOUR.0..HAPPY_HOUR.1).contains(&minutes)
}

/// The price of one unit of a line, options included, in cents.
#[ranvier::trace_fn]
pub fn unit_price(line: &Line) -> u64 {
    let base = menu_item(&line.item).map_or(0, |item| item.price);
    base + line.options.iter().map(|o| option_price(o)).sum::<u64>()
}

/// What a line costs, in cents: nothing when comped; drinks at happy hour are 30% off (per unit, to the cent).
#[ranvier::trace_fn]
pub fn line_price(line: &Line, happy_hour: bool) -> u64 {
    if line.comped {
        return 0;
    }
    let mut unit = unit_price(line);
    let discounted = menu_item(&line.item).is_some_and(|item| item.category == Category::Drink);
    if happy_hour && discounted {
        unit = (unit * (100 - HAPPY_HOUR_OFF_PERCENT) + 50) / 100;
    }
    unit * u64::from(line.qty)
}

/// `total` split between `guests`: equal shares, the first guests paying one cent more until the cents run out.
#[ranvier::trace_fn]
pub fn split_evenly(total: u64, guests: u32) -> Vec<u64> {
    let guests = u64::from(guests.max(1));
    let base = total / guests;
    let remainder = total % guests;
    (0..guests)
        .map(|i| if i < remainder { base + 1 } else { base })
        .collect()
}

/// A kitchen ticket: `#3 2x latte +oat (guest 1)`.
#[ranvier::trace_fn]
pub fn ticket(line: &Line) -> String {
    let options: String = line.options.iter().map(|o| format!(" +{o}")).collect();
    let comped = if line.comped { " [on the house]" } else { "" };
    format!(
        "#{} {}x {}{} (guest {}){}",
        line.id, line.qty, line.item, options, line.guest, comped
    )
}

// ---- the nodes, as the app builds them ----------------------------------------------------------------------------

type Cafes = Mvu<Cafe, Msg>;

/// Whether the clock is in happy hour.
fn happy_hour(cafe: &Cafes) -> Memo<bool> {
    cafe.select(|cafe| is_happy_hour(minutes_of_day(cafe.hour, cafe.minute)))
}

/// The lines at their prices.
fn subtotal(lines: &Memo<Vec<Line>>, happy_hour: &Memo<bool>) -> Memo<u64> {
    let (lines, happy_hour) = (lines.clone(), happy_hour.clone());
    Memo::new(move |_| {
        let happy = happy_hour.get();
        lines.with(|lines| lines.iter().map(|line| line_price(line, happy)).sum())
    })
}

/// 12.5% of the subtotal, to the nearest cent.
fn service_charge(subtotal: &Memo<u64>) -> Memo<u64> {
    let subtotal = subtotal.clone();
    Memo::new(move |_| (subtotal.get() * SERVICE_PERMILLE + 500) / 1000)
}

/// The tip, percent of the subtotal, to the nearest cent.
fn tip(cafe: &Cafes, subtotal: &Memo<u64>) -> Memo<u64> {
    let percent = cafe.select(|cafe| cafe.tip_percent);
    let subtotal = subtotal.clone();
    Memo::new(move |_| (subtotal.get() * u64::from(percent.get()) + 50) / 100)
}

/// The free coffee a full card earns: the cheapest coffee of the bill.
fn reward(cafe: &Cafes, lines: &Memo<Vec<Line>>) -> Memo<u64> {
    let stamps = cafe.select(|cafe| cafe.stamps);
    let lines = lines.clone();
    Memo::new(move |_| {
        if stamps.get() < STAMPS_PER_FREE_COFFEE {
            return 0;
        }
        lines.with(|lines| {
            lines
                .iter()
                .filter(|line| !line.comped)
                .filter_map(|line| menu_item(&line.item))
                .filter(|item| item.category == Category::Coffee)
                .map(|item| item.price)
                .min()
                .unwrap_or(0)
        })
    })
}

/// What the table pays.
fn total(
    subtotal: &Memo<u64>,
    service: &Memo<u64>,
    tip: &Memo<u64>,
    reward: &Memo<u64>,
) -> Memo<u64> {
    let (subtotal, service, tip, reward) = (
        subtotal.clone(),
        service.clone(),
        tip.clone(),
        reward.clone(),
    );
    Memo::new(move |_| {
        let subtotal = subtotal.get();
        let credit = reward.get().min(subtotal);
        let payable = subtotal.saturating_sub(credit);
        let service = service.get();
        let tip = tip.get();
        payable + service + tip
    })
}

/// The total split between the guests.
fn shares(cafe: &Cafes, total: &Memo<u64>) -> Memo<Vec<u64>> {
    let guests = cafe.select(|cafe| cafe.guests);
    let total = total.clone();
    Memo::new(move |_| split_evenly(total.get(), guests.get()))
}

/// The kitchen display: the sent lines, oldest first.
fn kitchen(sent: &Memo<Vec<Line>>) -> Memo<Vec<String>> {
    let sent = sent.clone();
    Memo::new(move |_| {
        let mut lines = sent.get();
        lines.sort_by_key(|line| line.id);
        lines.iter().map(ticket).collect()
    })
}

/// Keeps `stock` at the opening stock minus what was sent to the kitchen.
fn stock_keeper(sent: &Memo<Vec<Line>>, stock: &Signal<BTreeMap<String, u32>>) -> Effect {
    let (sent, stock) = (sent.clone(), stock.clone());
    Effect::new(move || {
        let sent = sent.get();
        let mut left = opening_stock();
        for line in &sent {
            if let Some(n) = left.get_mut(&line.item) {
                *n = n.saturating_sub(line.qty);
            }
        }
        stock.set(left);
    })
}

/// Stamps the card when a bill with coffee is paid, with a follow-up `add_stamps`.
fn loyalty(cafe: &Cafes) -> Effect {
    let paid = cafe.select(|cafe| cafe.paid);
    let lines = cafe.select(|cafe| cafe.lines.clone());
    let card = cafe.select(|cafe| cafe.card.clone());
    let cafe = cafe.clone();
    Effect::new(move || {
        if !paid.get() {
            return;
        }
        // a card scanned after payment does not stamp the bill again
        if untrack(|| card.get()).is_none() {
            return;
        }
        let coffees: u32 = lines.with(|lines| {
            lines
                .iter()
                .filter(|line| {
                    menu_item(&line.item).is_some_and(|i| i.category == Category::Coffee)
                })
                .map(|line| line.qty)
                .sum()
        });
        if coffees > 0 {
            let _ = cafe.dispatch(Msg::AddStamps { count: coffees });
        }
    })
}

/// Prints the receipt once the bill is paid.
fn receipt_printer(
    cafe: &Cafes,
    total: &Memo<u64>,
    _subtotal: &Memo<u64>,
    receipt: &Signal<Option<String>>,
) -> Effect {
    let paid = cafe.select(|cafe| cafe.paid);
    let table = cafe.select(|cafe| cafe.table);
    let (total, receipt) = (total.clone(), receipt.clone());
    Effect::new(move || {
        if paid.get() {
            let text = format!("table {}: {} paid", table.get(), money(total.get()));
            receipt.set(Some(text));
        }
    })
}

/// The parts of the app a variant may replace with a faulty one.
#[derive(Clone, Copy)]
struct Parts {
    update: fn(Msg, &Cafe) -> Cafe,
    happy_hour: fn(&Cafes) -> Memo<bool>,
    subtotal: fn(&Memo<Vec<Line>>, &Memo<bool>) -> Memo<u64>,
    service_charge: fn(&Memo<u64>) -> Memo<u64>,
    tip: fn(&Cafes, &Memo<u64>) -> Memo<u64>,
    total: fn(&Memo<u64>, &Memo<u64>, &Memo<u64>, &Memo<u64>) -> Memo<u64>,
    shares: fn(&Cafes, &Memo<u64>) -> Memo<Vec<u64>>,
    kitchen: fn(&Memo<Vec<Line>>) -> Memo<Vec<String>>,
    stock_keeper: fn(&Memo<Vec<Line>>, &Signal<BTreeMap<String, u32>>) -> Effect,
    loyalty: fn(&Cafes) -> Effect,
    receipt_printer: fn(&Cafes, &Memo<u64>, &Memo<u64>, &Signal<Option<String>>) -> Effect,
}

/// The app without mistakes.
const CORRECT: Parts = Parts {
    update,
    happy_hour,
    subtotal,
    service_charge,
    tip,
    total,
    shares,
    kitchen,
    stock_keeper,
    loyalty,
    receipt_printer,
};

/// Handles the app keeps alive on the graph thread.
type Keep = Vec<Box<dyn Any>>;

/// What the graph thread keeps.
pub struct CafeApp {
    /// The bill.
    pub cafe: Cafes,
    /// Its exposure.
    pub exposure: ExposureHandle,
    _keep: Keep,
}

/// Builds the app's nodes and exposes them.
fn build(cafe: &Cafes, x: &mut Exposure, parts: &Parts) -> Result<Keep, ExposeError> {
    let lines = cafe.select(|cafe| cafe.lines.clone());
    let sent = cafe.select(|cafe| {
        cafe.lines
            .iter()
            .filter(|l| l.sent)
            .cloned()
            .collect::<Vec<_>>()
    });
    let happy_hour = (parts.happy_hour)(cafe);
    let subtotal = (parts.subtotal)(&lines, &happy_hour);
    let service = (parts.service_charge)(&subtotal);
    let tip = (parts.tip)(cafe, &subtotal);
    let reward = reward(cafe, &lines);
    let total = (parts.total)(&subtotal, &service, &tip, &reward);
    let shares = (parts.shares)(cafe, &total);
    let stamps = cafe.select(|cafe| cafe.stamps);
    let (stock, receipt) = batch(|| (Signal::new(opening_stock()), Signal::new(None::<String>)));
    let keeper = (parts.stock_keeper)(&sent, &stock);
    let loyalty = (parts.loyalty)(cafe);
    let printer = (parts.receipt_printer)(cafe, &total, &subtotal, &receipt);
    // the kitchen display lives in its own scope, so the screen can be switched off on its own
    let screen = Rc::new(RefCell::new(Vec::<String>::new()));
    let ((kitchen, display), display_scope) = create_root(|_| {
        let kitchen = (parts.kitchen)(&sent);
        let display = Effect::new({
            let (kitchen, screen) = (kitchen.clone(), screen.clone());
            move || {
                *screen.borrow_mut() = kitchen.get();
                let screen = screen.clone();
                on_cleanup(move || screen.borrow_mut().clear());
            }
        });
        (kitchen, display)
    });

    macro_rules! expose {
        ($name:literal, $node:expr) => {{
            let node = $node.clone();
            x.value($name, move || node.get())?;
            x.node($name, &$node)?;
        }};
    }
    expose!("happy_hour", happy_hour);
    expose!("subtotal", subtotal);
    expose!("service_charge", service);
    expose!("tip", tip);
    expose!("reward", reward);
    expose!("total", total);
    expose!("shares", shares);
    expose!("kitchen", kitchen);
    expose!("stock", stock);
    expose!("stamps", stamps);
    expose!("receipt", receipt);
    Ok(vec![
        Box::new(keeper),
        Box::new(loyalty),
        Box::new(printer),
        Box::new(display),
        Box::new(display_scope),
        Box::new(screen),
    ])
}

/// Starts the app built from `parts` on its own graph thread, and its MCP adapter.
fn start_cafe(parts: Parts) -> Result<Started, HostError> {
    let host = GraphHost::start(move || {
        let cafe = Mvu::new(Cafe::default(), parts.update).labelled("cafe");
        let mut exposure = Exposure::new();
        let keep = build(&cafe, &mut exposure, &parts)?;
        exposure.messages_of(&cafe)?;
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>(CafeApp {
            cafe,
            exposure,
            _keep: keep,
        })
    })?;
    let adapter = host
        .invoke(|app| {
            McpAdapter::new(
                app.exposure.clone(),
                McpAdapterOptions::new("ranvier-cafe", "1.0.0"),
            )
        })
        .wait()?;
    Ok((adapter, Box::new(move || host.dispose())))
}

// ---- the faulty variants ------------------------------------------------------------------------------------------

/// The clock read as HHMM.
mod clock_units {
    use super::*;

    #[ranvier::trace_fn]
    fn minutes_of_day(hour: u32, minute: u32) -> u32 {
        // BUG(clock_units): hours times 100 (HHMM), not 60: 16:30 is 1630 "minutes"
        hour * 100 + minute
    }

    pub fn happy_hour(cafe: &Cafes) -> Memo<bool> {
        cafe.select(|cafe| is_happy_hour(minutes_of_day(cafe.hour, cafe.minute)))
    }
}

/// Happy hour discounts food instead of drinks.
mod happy_food {
    use super::*;

    #[ranvier::trace_fn]
    fn line_price(line: &Line, happy_hour: bool) -> u64 {
        if line.comped {
            return 0;
        }
        let mut unit = unit_price(line);
        // BUG(happy_food): compares with Food, not Drink
        let discounted = menu_item(&line.item).is_some_and(|item| item.category == Category::Food);
        if happy_hour && discounted {
            unit = (unit * (100 - HAPPY_HOUR_OFF_PERCENT) + 50) / 100;
        }
        unit * u64::from(line.qty)
    }

    pub fn subtotal(lines: &Memo<Vec<Line>>, happy_hour: &Memo<bool>) -> Memo<u64> {
        let (lines, happy_hour) = (lines.clone(), happy_hour.clone());
        Memo::new(move |_| {
            let happy = happy_hour.get();
            lines.with(|lines| lines.iter().map(|line| line_price(line, happy)).sum())
        })
    }
}

/// Happy hour takes 70% off, not 30%.
mod happy_percent {
    use super::*;

    /// Percent taken off drinks at happy hour.
    // BUG(happy_percent): 70 is the percent paid, not the percent off
    const HAPPY_HOUR_OFF_PERCENT: u64 = 70;

    #[ranvier::trace_fn]
    fn line_price(line: &Line, happy_hour: bool) -> u64 {
        if line.comped {
            return 0;
        }
        let mut unit = unit_price(line);
        let discounted = menu_item(&line.item).is_some_and(|item| item.category == Category::Drink);
        if happy_hour && discounted {
            unit = (unit * (100 - HAPPY_HOUR_OFF_PERCENT) + 50) / 100;
        }
        unit * u64::from(line.qty)
    }

    pub fn subtotal(lines: &Memo<Vec<Line>>, happy_hour: &Memo<bool>) -> Memo<u64> {
        let (lines, happy_hour) = (lines.clone(), happy_hour.clone());
        Memo::new(move |_| {
            let happy = happy_hour.get();
            lines.with(|lines| lines.iter().map(|line| line_price(line, happy)).sum())
        })
    }
}

/// The service charge truncates instead of rounding.
mod service_round {
    use super::*;

    pub fn service_charge(subtotal: &Memo<u64>) -> Memo<u64> {
        let subtotal = subtotal.clone();
        // BUG(service_round): truncates (no + 500), 47.5 cents becomes 47
        Memo::new(move |_| subtotal.get() * SERVICE_PERMILLE / 1000)
    }
}

/// The tip percent read once, when the app starts.
mod tip_once {
    use super::*;

    pub fn tip(cafe: &Cafes, subtotal: &Memo<u64>) -> Memo<u64> {
        // BUG(tip_once): read once at setup; the memo never sees set_tip
        let percent = u64::from(cafe.model().tip_percent);
        let subtotal = subtotal.clone();
        Memo::new(move |_| (subtotal.get() * percent + 50) / 100)
    }
}

/// The loyalty credit added instead of taken off.
mod credit_added {
    use super::*;

    pub fn total(
        subtotal: &Memo<u64>,
        service: &Memo<u64>,
        tip: &Memo<u64>,
        reward: &Memo<u64>,
    ) -> Memo<u64> {
        let (subtotal, service, tip, reward) = (
            subtotal.clone(),
            service.clone(),
            tip.clone(),
            reward.clone(),
        );
        Memo::new(move |_| {
            let subtotal = subtotal.get();
            let credit = reward.get().min(subtotal);
            // BUG(credit_added): saturating_add, not saturating_sub
            let payable = subtotal.saturating_add(credit);
            let service = service.get();
            let tip = tip.get();
            payable + service + tip
        })
    }
}

/// The odd cents of a split go to one guest too many.
mod split_remainder {
    use super::*;

    #[ranvier::trace_fn]
    fn split_evenly(total: u64, guests: u32) -> Vec<u64> {
        let guests = u64::from(guests.max(1));
        let base = total / guests;
        let remainder = total % guests;
        (0..guests)
            // BUG(split_remainder): <= gives the extra cent to remainder + 1 guests
            .map(|i| if i <= remainder { base + 1 } else { base })
            .collect()
    }

    pub fn shares(cafe: &Cafes, total: &Memo<u64>) -> Memo<Vec<u64>> {
        let guests = cafe.select(|cafe| cafe.guests);
        let total = total.clone();
        Memo::new(move |_| split_evenly(total.get(), guests.get()))
    }
}

/// The party size read without tracking it.
mod guests_peek {
    use super::*;

    pub fn shares(cafe: &Cafes, total: &Memo<u64>) -> Memo<Vec<u64>> {
        let (cafe, total) = (cafe.clone(), total.clone());
        Memo::new(move |_| {
            // BUG(guests_peek): peek_model does not track the guests; seating a party does not re-split
            let guests = cafe.peek_model().guests;
            split_evenly(total.get(), guests)
        })
    }
}

/// The kitchen display sorted newest first.
mod kitchen_order {
    use super::*;

    pub fn kitchen(sent: &Memo<Vec<Line>>) -> Memo<Vec<String>> {
        let sent = sent.clone();
        Memo::new(move |_| {
            let mut lines = sent.get();
            // BUG(kitchen_order): newest first; the kitchen works oldest first
            lines.sort_by(|a, b| b.id.cmp(&a.id));
            lines.iter().map(ticket).collect()
        })
    }
}

/// The stock keeper deducts from the current stock on every run.
mod stock_twice {
    use super::*;

    pub fn stock_keeper(sent: &Memo<Vec<Line>>, stock: &Signal<BTreeMap<String, u32>>) -> Effect {
        let (sent, stock) = (sent.clone(), stock.clone());
        Effect::new(move || {
            let sent = sent.get();
            // BUG(stock_twice): deducts every sent line again from what is left, not from the opening stock
            stock.update(|left| {
                for line in &sent {
                    if let Some(n) = left.get_mut(&line.item) {
                        *n = n.saturating_sub(line.qty);
                    }
                }
            });
        })
    }
}

/// Loyalty stamps counted on everything but coffee.
mod stamps_filter {
    use super::*;

    pub fn loyalty(cafe: &Cafes) -> Effect {
        let paid = cafe.select(|cafe| cafe.paid);
        let lines = cafe.select(|cafe| cafe.lines.clone());
        let card = cafe.select(|cafe| cafe.card.clone());
        let cafe = cafe.clone();
        Effect::new(move || {
            if !paid.get() {
                return;
            }
            // a card scanned after payment does not stamp the bill again
            if untrack(|| card.get()).is_none() {
                return;
            }
            let coffees: u32 = lines.with(|lines| {
                lines
                    .iter()
                    // BUG(stamps_filter): != counts everything but coffee
                    .filter(|line| {
                        menu_item(&line.item).is_some_and(|i| i.category != Category::Coffee)
                    })
                    .map(|line| line.qty)
                    .sum()
            });
            if coffees > 0 {
                let _ = cafe.dispatch(Msg::AddStamps { count: coffees });
            }
        })
    }
}

/// The receipt prints the subtotal.
mod receipt_subtotal {
    use super::*;

    pub fn receipt_printer(
        cafe: &Cafes,
        _total: &Memo<u64>,
        subtotal: &Memo<u64>,
        receipt: &Signal<Option<String>>,
    ) -> Effect {
        let paid = cafe.select(|cafe| cafe.paid);
        let table = cafe.select(|cafe| cafe.table);
        let (subtotal, receipt) = (subtotal.clone(), receipt.clone());
        Effect::new(move || {
            if paid.get() {
                // BUG(receipt_subtotal): prints the subtotal, not the total
                let text = format!("table {}: {} paid", table.get(), money(subtotal.get()));
                receipt.set(Some(text));
            }
        })
    }
}

// ---- the shapes -----------------------------------------------------------------------------------------------------

/// `blind_cafe.rs:<n>` for the first code line after `// BUG(key)`.
fn bug(key: &str) -> String {
    let source = include_str!("blind_cafe.rs");
    let marker = format!("// BUG({key})");
    let lines: Vec<&str> = source.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&marker))
        .unwrap_or_else(|| panic!("no {marker}"));
    let line = (at + 1..lines.len())
        .find(|i| !lines[*i].trim_start().starts_with("//"))
        .expect("a line after the marker");
    format!("blind_cafe.rs:{}", line + 1)
}

fn order(item: &str, qty: u32, guest: u32) -> Value {
    json!({"message": "order", "args": {"item": item, "qty": qty, "options": [], "guest": guest}})
}

fn msg(name: &str, args: Value) -> Value {
    json!({"message": name, "args": args})
}

/// The variants, each with its mistake, the messages that show it and the value that is visibly wrong.
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            name: "clock_units",
            class: "units in a helper a select calls",
            node: "happy_hour",
            messages: json!([msg("set_clock", json!({"hour": 16, "minute": 30}))]),
            faulty: bug("clock_units"),
            start: || {
                start_cafe(Parts {
                    happy_hour: clock_units::happy_hour,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "happy_food",
            class: "wrong enum variant in a helper a memo calls",
            node: "subtotal",
            messages: json!([
                msg("set_clock", json!({"hour": 17, "minute": 0})),
                order("beer", 2, 1)
            ]),
            faulty: bug("happy_food"),
            start: || {
                start_cafe(Parts {
                    subtotal: happy_food::subtotal,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "happy_percent",
            class: "wrong constant",
            node: "subtotal",
            messages: json!([
                msg("set_clock", json!({"hour": 16, "minute": 15})),
                order("wine", 1, 1)
            ]),
            faulty: bug("happy_percent"),
            start: || {
                start_cafe(Parts {
                    subtotal: happy_percent::subtotal,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "service_round",
            class: "rounding",
            node: "service_charge",
            messages: json!([order("latte", 1, 1)]),
            faulty: bug("service_round"),
            start: || {
                start_cafe(Parts {
                    service_charge: service_round::service_charge,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "tip_once",
            class: "value computed once at setup",
            node: "tip",
            messages: json!([order("latte", 1, 1), msg("set_tip", json!({"percent": 10}))]),
            faulty: bug("tip_once"),
            start: || {
                start_cafe(Parts {
                    tip: tip_once::tip,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "credit_added",
            class: "sign (add for sub) mid-body of a longer memo",
            node: "total",
            messages: json!([
                msg("scan_card", json!({"card": "C-17", "stamps": 10})),
                order("latte", 1, 1),
                order("croissant", 1, 1)
            ]),
            faulty: bug("credit_added"),
            start: || {
                start_cafe(Parts {
                    total: credit_added::total,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "split_remainder",
            class: "off-by-one in a helper a memo calls",
            node: "shares",
            messages: json!([
                msg("seat_table", json!({"table": 4, "guests": 3})),
                order("latte", 1, 1)
            ]),
            faulty: bug("split_remainder"),
            start: || {
                start_cafe(Parts {
                    shares: split_remainder::shares,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "guests_peek",
            class: "dependency not tracked (peek_model in a memo)",
            node: "shares",
            messages: json!([
                order("latte", 1, 1),
                msg("seat_table", json!({"table": 4, "guests": 2}))
            ]),
            faulty: bug("guests_peek"),
            start: || {
                start_cafe(Parts {
                    shares: guests_peek::shares,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "seat_guests",
            class: "wrong variable in an update arm",
            node: "shares",
            messages: json!([
                msg("seat_table", json!({"table": 4, "guests": 2})),
                order("latte", 1, 1)
            ]),
            faulty: bug("seat_guests"),
            start: || {
                start_cafe(Parts {
                    update: seat_guests::update,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "merge_sent",
            class: "inverted condition deep in a multi-line update arm",
            node: "kitchen",
            messages: json!([
                order("latte", 1, 1),
                msg("send_to_kitchen", json!({})),
                order("latte", 1, 1)
            ]),
            faulty: bug("merge_sent"),
            start: || {
                start_cafe(Parts {
                    update: merge_sent::update,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "comp_void",
            class: "wrong match arm body (copy-paste)",
            node: "kitchen",
            messages: json!([
                order("sandwich", 1, 1),
                msg("send_to_kitchen", json!({})),
                msg("comp_line", json!({"id": 1}))
            ]),
            faulty: bug("comp_void"),
            start: || {
                start_cafe(Parts {
                    update: comp_void::update,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "kitchen_order",
            class: "sort reversed",
            node: "kitchen",
            messages: json!([
                order("latte", 1, 1),
                order("croissant", 1, 1),
                msg("send_to_kitchen", json!({}))
            ]),
            faulty: bug("kitchen_order"),
            start: || {
                start_cafe(Parts {
                    kitchen: kitchen_order::kitchen,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "stock_twice",
            class: "effect accumulates instead of recomputing",
            node: "stock",
            messages: json!([
                order("croissant", 2, 1),
                msg("send_to_kitchen", json!({})),
                order("croissant", 1, 1),
                msg("send_to_kitchen", json!({}))
            ]),
            faulty: bug("stock_twice"),
            start: || {
                start_cafe(Parts {
                    stock_keeper: stock_twice::stock_keeper,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "stamps_filter",
            class: "inverted filter in an effect that dispatches a follow-up message",
            node: "stamps",
            messages: json!([
                msg("scan_card", json!({"card": "C-17", "stamps": 3})),
                order("latte", 2, 1),
                order("croissant", 1, 1),
                msg("pay", json!({}))
            ]),
            faulty: bug("stamps_filter"),
            start: || {
                start_cafe(Parts {
                    loyalty: stamps_filter::loyalty,
                    ..CORRECT
                })
            },
        },
        Shape {
            name: "receipt_subtotal",
            class: "effect writes the wrong value",
            node: "receipt",
            messages: json!([order("latte", 2, 1), msg("pay", json!({}))]),
            faulty: bug("receipt_subtotal"),
            start: || {
                start_cafe(Parts {
                    receipt_printer: receipt_subtotal::receipt_printer,
                    ..CORRECT
                })
            },
        },
    ]
}

#[tokio::main]
async fn main() {
    if !ranvier::trace::TRACED {
        eprintln!(
            "blind_cafe: this build records no trace: run it in a debug build (without --release)"
        );
        std::process::exit(1);
    }
    let shapes = shapes();
    let mut rows = Vec::new();
    let (mut named, mut first_400) = (0, 0);
    let mut lengths = Vec::new();
    for shape in &shapes {
        match harness::run(shape).await {
            Ok(outcome) => {
                named += usize::from(outcome.named);
                first_400 += usize::from(outcome.from_start.is_some_and(|p| p < 400));
                lengths.push(outcome.answer.chars().count());
                let position = outcome
                    .position
                    .map_or_else(|| "-".to_owned(), |p| p.to_string());
                let from_start = outcome
                    .from_start
                    .map_or_else(|| "-".to_owned(), |p| p.to_string());
                println!(
                    "== {} ({}) node {} faulty {}: named {}, position {}\n{}\n",
                    shape.name,
                    shape.class,
                    shape.node,
                    shape.faulty,
                    if outcome.named { "yes" } else { "no" },
                    position,
                    outcome.answer
                );
                rows.push(format!(
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    shape.name,
                    shape.class,
                    shape.faulty,
                    if outcome.named { "yes" } else { "no" },
                    position,
                    from_start,
                    outcome.answer.chars().count()
                ));
            }
            Err(error) => rows.push(format!(
                "| {} | {} | {} | error: {error} | |",
                shape.name, shape.class, shape.faulty
            )),
        }
    }
    println!(
        "| key | class | faulty line | named | position | from the start | answer (chars) |\n\
         |---|---|---|---|---|---|---|"
    );
    for row in rows {
        println!("{row}");
    }
    println!(
        "\n{named} of {} named in one call; {first_400} within the first 400 characters of the answer; median \
         answer {} characters",
        shapes.len(),
        harness::median(&mut lengths)
    );
}
