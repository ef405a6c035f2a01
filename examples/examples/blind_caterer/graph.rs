//! The app: what an agent may see and send, and the builder that wires the graph, with the correct fns or, for one
//! mistake, its copy.

use super::events::{self, Events, PerHead};
use super::hire::{self, HireList};
use super::menus::{self, KitchenSheet};
use super::model::{self, Book, Event, Msg, Terms};
use super::services;
use super::staffing::{self, Crew};
use super::update::{self, Policy};
use ranvier::collection::{Collection, Row};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which mistake the app is built with (`None`: the correct app).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slip {
    /// The correct app.
    None,
    /// `Terms::default`: the tasting fee in pounds.
    TastingFeePounds,
    /// `Book::covers_this_week`: held dates left out.
    CoversHeldLeftOut,
    /// `menus::per_head`: the very large party discount from one guest too many.
    PerHeadBreak,
    /// `menus::required_deposit`: rounded down to the pound.
    DepositRoundedDown,
    /// `events::event_row`: the balance falls due a day late.
    BalanceDueDay,
    /// `events::running_order`: sorted by guests.
    RunningOrderKey,
    /// `staffing::staff_cost`: the minimum call as a maximum.
    MinimumCall,
    /// `hire::hire_list`: marquees for the settings, spares and all.
    MarqueesForSettings,
    /// `services::hire_quote`: the bulk discount from one plate too many.
    BulkPlatesThreshold,
    /// `services::net_deposits`: the card rate read per mille.
    CardFeePerMille,
    /// `update::take_payment`: a payment replaces what was paid.
    PaymentOverwrites,
    /// `update::update`: a deposit paid exactly does not confirm.
    ConfirmAtDeposit,
}

/// What an agent may see and send.
#[expose]
pub struct CatererApp {
    /// The book, and its messages.
    #[expose(messages, value)]
    pub book: Mvu<Book, Msg>,
    /// Every event, with its balance due.
    #[expose]
    #[node]
    pub events: Events,
    /// The balance due over every event, in cents.
    #[expose]
    #[node]
    pub balance_due: Memo<u64>,
    /// The deposits still to come in, in cents.
    #[expose]
    #[node]
    pub deposits_due: Memo<u64>,
    /// How many events are confirmed.
    #[expose]
    #[node]
    pub confirmed: Memo<usize>,
    /// The references, soonest first.
    #[expose]
    #[node]
    pub running_order: Memo<Rc<[String]>>,
    /// How many tastings are booked and not yet held.
    #[expose]
    #[node]
    pub tastings_due: Memo<usize>,
    /// The guests of the coming week.
    #[expose]
    #[node]
    pub covers_this_week: Memo<u32>,
    /// The covers of the coming window, by diet.
    #[expose]
    #[node]
    pub kitchen_sheet: Memo<KitchenSheet>,
    /// The crew the confirmed events need.
    #[expose]
    #[node]
    pub crew_needed: Memo<Crew>,
    /// What the rostered shifts cost, in cents.
    #[expose]
    #[node]
    pub staff_cost: Memo<u64>,
    /// What to hire.
    #[expose]
    #[node]
    pub hire_list: Memo<HireList>,
    /// The hire company's quote, in cents.
    #[expose]
    #[node]
    pub hire_quote: AsyncMemo<u64>,
    /// What the card processor pays out of the deposits, in cents.
    #[expose]
    #[node]
    pub net_deposits: AsyncMemo<u64>,
}

type Update = fn(Msg, &Book, &Policy) -> (Book, Vec<Msg>);
type EventRow =
    fn(&Row<String, Event>, &Memo<Terms>, &Memo<u32>, PerHead) -> (&'static str, Memo<u64>);

/// The rules `update` and the memos price by, with `slip`'s copy in place.
fn policy(slip: Slip) -> Policy {
    let mut policy = Policy::HOUSE;
    match slip {
        Slip::PerHeadBreak => policy.per_head = menus::slipped::per_head,
        Slip::DepositRoundedDown => policy.required_deposit = menus::slipped::required_deposit,
        Slip::PaymentOverwrites => policy.take_payment = update::slipped::take_payment,
        _ => {}
    }
    policy
}

/// Builds the caterer's graph with `slip`'s mistake (none for [`Slip::None`]).
#[node]
pub fn caterer_app(slip: Slip) -> CatererApp {
    let policy = policy(slip);
    let house_terms = if slip == Slip::TastingFeePounds {
        model::slipped::default()
    } else {
        Terms::default()
    };
    let update_book: Update = if slip == Slip::ConfirmAtDeposit {
        update::slipped::update
    } else {
        update::update
    };
    let book = Mvu::with_commands((Book::new(house_terms), Vec::new()), move |msg, book| {
        update_book(msg, book, &policy)
    });
    let terms = book.select(|book| book.terms.clone());
    let today = book.select(|book| book.today);
    let event_row: EventRow = if slip == Slip::BalanceDueDay {
        events::slipped::event_row
    } else {
        events::event_row
    };
    let per_head = policy.per_head;
    let events: Events = Collection::keyed(
        book.select(|book| book.events.clone()),
        |event: &Event| event.id.clone(),
        move |row| event_row(row, &terms, &today, per_head),
    );
    let balance_due = events::balance_due(&events);
    let deposits_due = menus::deposits_due(&book, policy.per_head, policy.required_deposit);
    let confirmed = events::confirmed(&events);
    let running_order = if slip == Slip::RunningOrderKey {
        events::slipped::running_order(&events)
    } else {
        events::running_order(&events)
    };
    let tastings_due = events::tastings_due(&events);
    let covers: fn(&Book) -> u32 = if slip == Slip::CoversHeldLeftOut {
        model::slipped::covers_this_week
    } else {
        Book::covers_this_week
    };
    let covers_this_week = book.select(covers);
    let kitchen_sheet = menus::kitchen_sheet(&book);
    let crew_needed = staffing::crew_needed(&book);
    let staff_cost = if slip == Slip::MinimumCall {
        staffing::slipped::staff_cost(&book)
    } else {
        staffing::staff_cost(&book)
    };
    let hire_list = if slip == Slip::MarqueesForSettings {
        hire::slipped::hire_list(&book)
    } else {
        hire::hire_list(&book)
    };
    let hire_quote = if slip == Slip::BulkPlatesThreshold {
        services::slipped::hire_quote(&hire_list)
    } else {
        services::hire_quote(&hire_list)
    };
    let net_deposits = if slip == Slip::CardFeePerMille {
        services::slipped::net_deposits(&book)
    } else {
        services::net_deposits(&book)
    };
    CatererApp {
        book,
        events,
        balance_due,
        deposits_due,
        confirmed,
        running_order,
        tastings_due,
        covers_this_week,
        kitchen_sheet,
        crew_needed,
        staff_cost,
        hire_list,
        hire_quote,
        net_deposits,
    }
}
