//! The box office's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the box
//! office's `Mvu`, the rules, the week's performances and the services.

use super::accounts;
use super::limits;
use super::model::{
    self, BarOrder, Booking, DAY, DAYS, Hold, Msg, Office, Performance, State, pounds, time_of_day,
};
use super::performances::{self, Order, RowFactory, Week};
use super::remote::{Acquirer, Agency};
use super::services;
use super::tariff;
use super::update::{self, Helpers};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Which version of the box office to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    HeldBatch,
    RoyaltyRate,
    HeldSeats,
    DateOrder,
    ConfirmHold,
    ExchangeSeats,
    PeakConcession,
    HoldLapse,
    VatOut,
    TakingsExchanged,
    HouseToday,
    FridayMatinee,
}

/// What an agent sees of the box office.
#[expose]
pub struct BoxOffice {
    #[expose(messages)]
    pub office: Mvu<Office, Msg>,
    /// The box office's clock, `Mon 10:00`.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// The week's performances, each with its seats left.
    #[expose]
    #[node]
    pub week: Week,
    /// The performances' lines in date order.
    #[expose]
    #[node]
    pub programme: Memo<Vec<String>>,
    /// The performances with a seat left, in date order.
    #[expose]
    #[node]
    pub on_sale: Memo<Vec<String>>,
    /// How many performances are sold out.
    #[expose]
    #[node]
    pub sold_out: Memo<usize>,
    /// Every booking.
    #[expose]
    #[node]
    pub bookings: Memo<Vec<String>>,
    /// The holds standing.
    #[expose]
    #[node]
    pub holds: Memo<Vec<String>>,
    /// The waiting lists of sold-out performances.
    #[expose]
    #[node]
    pub waiting: Memo<Vec<String>>,
    /// The house manager's counts for today's performances.
    #[expose]
    #[node]
    pub house: Memo<Vec<String>>,
    /// The bar's interval orders, performance by performance.
    #[expose]
    #[node]
    pub interval_orders: Memo<Vec<String>>,
    /// The week's takings.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// What the box office has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Each performance's card takings, as the acquirer settles them.
    #[expose]
    #[node]
    pub settlements: AsyncMemo<Vec<String>>,
    /// The royalties owed on each show.
    #[expose]
    #[node]
    pub royalties: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s rules and helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::FridayMatinee => Helpers {
                is_peak: model::slipped::is_peak,
                ..correct
            },
            Slip::PeakConcession => Helpers {
                concession_price: tariff::slipped::concession_price,
                ..correct
            },
            Slip::HoldLapse => Helpers {
                hold_expired: limits::slipped::hold_expired,
                ..correct
            },
            Slip::ConfirmHold => Helpers {
                confirm: update::slipped::confirm,
                ..correct
            },
            Slip::ExchangeSeats => Helpers {
                exchange: update::slipped::exchange,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the box office with `slip`.
#[node]
pub fn box_office(slip: Slip) -> BoxOffice {
    let helpers = slip.helpers();
    let office = Mvu::with_commands(
        (Office::default(), update::opening()),
        move |msg, office: &Office| update::update(msg, office, &helpers),
    );
    let clock = office.select(|office| model::clock(office.now));
    let today = office.select(|office| office.now / DAY);

    let performances = office.select(|office| office.performances.clone());
    let row: RowFactory = match slip {
        Slip::HeldSeats => performances::slipped::seats_row,
        _ => performances::seats_row,
    };
    let week = performances::week(&performances, row);
    let by_date: Order = match slip {
        Slip::DateOrder => performances::slipped::by_date,
        _ => performances::by_date,
    };
    let order = by_date(&week);
    let programme = performances::programme(&week, &order);
    let open = performances::on_sale(&week);
    let on_sale = performances::titles(&performances, &order, &open.keys());
    let sold_out = performances::sold_out(&week);

    let bookings_made = office.select(|office| office.bookings.clone());
    let bookings = booking_lines(&office);
    let holds = hold_lines(&office);
    let waiting = office.select(|office| {
        office
            .performances
            .iter()
            .filter(|perf| !perf.waiting.is_empty())
            .map(|perf| {
                let names: Vec<String> = perf
                    .waiting
                    .iter()
                    .map(|w| format!("{} ({})", w.customer, w.seats))
                    .collect();
                format!("{}: {}", perf.title(), names.join(", "))
            })
            .collect::<Vec<_>>()
    });

    let bar = office.select(|office| office.bar.clone());
    let house = match slip {
        Slip::HouseToday => slipped::house(&today, &performances, &bar),
        _ => house(&today, &performances, &bar),
    };
    let interval_orders = bar_lines(&office);

    let net_of_vat: fn(u32) -> u32 = match slip {
        Slip::VatOut => accounts::slipped::net_of_vat,
        _ => accounts::net_of_vat,
    };
    let takings = match slip {
        Slip::TakingsExchanged => slipped::takings(&bookings_made, &bar, net_of_vat),
        _ => takings(&bookings_made, &bar, net_of_vat),
    };
    let notices = office.select(|office| office.notices.clone());

    let acquirer = Rc::new(Acquirer::default());
    let agency = Rc::new(Agency::default());
    let settlements = match slip {
        Slip::HeldBatch => services::slipped::settlements(&bookings_made, &performances, acquirer),
        _ => services::settlements(&bookings_made, &performances, acquirer),
    };
    let royalties = match slip {
        Slip::RoyaltyRate => {
            services::slipped::royalties(&bookings_made, &performances, agency, net_of_vat)
        }
        _ => services::royalties(&bookings_made, &performances, agency, net_of_vat),
    };

    BoxOffice {
        office,
        clock,
        week,
        programme,
        on_sale,
        sold_out,
        bookings,
        holds,
        waiting,
        house,
        interval_orders,
        takings,
        notices,
        settlements,
        royalties,
    }
}

/// `1 Ann: 2 stalls (student), Tue 19:30 Private Lives, £30.00 + £1.50 fee`, and what became of it.
fn booking_lines(office: &Mvu<Office, Msg>) -> Memo<Vec<String>> {
    office.select(|office| {
        office
            .bookings
            .iter()
            .map(|b: &Booking| {
                let concession = b
                    .concession
                    .map(|c| format!(" ({})", c.name()))
                    .unwrap_or_default();
                let mut line = format!(
                    "{} {}: {} {}{concession}, {}, {} + {} fee",
                    b.no,
                    b.customer,
                    b.seats,
                    b.section.name(),
                    office.title_of(b.perf),
                    pounds(b.paid),
                    pounds(b.fee)
                );
                match b.state {
                    State::Booked => {}
                    State::Returned { refund } => {
                        line.push_str(&format!(", returned ({} refunded)", pounds(refund)));
                    }
                    State::Exchanged { to } => line.push_str(&format!(", exchanged for {to}")),
                }
                line
            })
            .collect::<Vec<_>>()
    })
}

/// `hold 1 Ann: 2 stalls, Tue 19:30 Private Lives, until Mon 10:15`.
fn hold_lines(office: &Mvu<Office, Msg>) -> Memo<Vec<String>> {
    office.select(|office| {
        office
            .holds
            .iter()
            .map(|h: &Hold| {
                format!(
                    "hold {} {}: {} {}, {}, until {}",
                    h.id,
                    h.customer,
                    h.seats,
                    h.section.name(),
                    office.title_of(h.perf),
                    model::clock(h.placed + limits::HOLD_MINUTES)
                )
            })
            .collect::<Vec<_>>()
    })
}

/// `Mon 19:30 Hamlet: 2 wine, 1 ice cream, £17.00`, for each performance with orders.
fn bar_lines(office: &Mvu<Office, Msg>) -> Memo<Vec<String>> {
    office.select(|office| {
        let mut by_perf: BTreeMap<u32, BTreeMap<String, (u32, u32)>> = BTreeMap::new();
        for order in &office.bar {
            let line = by_perf.entry(order.perf).or_default();
            let (qty, pence) = line.entry(order.item.clone()).or_default();
            *qty += order.qty;
            *pence += order.pence;
        }
        by_perf
            .into_iter()
            .map(|(perf, items)| {
                let total: u32 = items.values().map(|(_, pence)| pence).sum();
                let items: Vec<String> = items
                    .iter()
                    .map(|(item, (qty, _))| format!("{qty} {item}"))
                    .collect();
                format!(
                    "{}: {}, {}",
                    office.title_of(perf),
                    items.join(", "),
                    pounds(total)
                )
            })
            .collect::<Vec<_>>()
    })
}

/// The house manager's counts for each of today's performances: seats sold, held and free, who is waiting, and the
/// interval orders to have ready.
fn house(
    today: &Memo<u32>,
    performances: &Memo<Vec<Performance>>,
    bar: &Memo<Vec<BarOrder>>,
) -> Memo<Vec<String>> {
    let (today, performances, bar) = (today.clone(), performances.clone(), bar.clone());
    Memo::new(move |_| {
        let today = today.get();
        let bar = bar.get();
        performances.with(|performances| {
            let mut lines = Vec::new();
            for perf in performances.iter().filter(|perf| perf.day == today) {
                let orders: u32 = bar
                    .iter()
                    .filter(|order| order.perf == perf.id)
                    .map(|order| order.qty)
                    .sum();
                let waiting: u32 = perf.waiting.iter().map(|w| w.seats).sum();
                let mut line = format!(
                    "{} {}: {} sold, {} held, {} free",
                    time_of_day(perf.at),
                    perf.show,
                    perf.sold_total(),
                    perf.held_total(),
                    perf.free_total()
                );
                if waiting > 0 {
                    line.push_str(&format!(", {waiting} waiting"));
                }
                line.push_str(&format!(", {orders} interval orders"));
                lines.push(line);
            }
            if lines.is_empty() {
                lines.push(format!("no performance on {}", DAYS[today as usize % 7]));
            }
            lines
        })
    })
}

/// What the week took so far.
#[derive(Default)]
struct Tally {
    tickets: u32,
    refunds: u32,
    fees: u32,
    bar: u32,
}

/// The week's takings: tickets, refunds, fees and the bar, the total, and the total net of VAT.
fn takings(
    bookings: &Memo<Vec<Booking>>,
    bar: &Memo<Vec<BarOrder>>,
    net_of_vat: fn(u32) -> u32,
) -> Memo<Vec<String>> {
    let (bookings, bar) = (bookings.clone(), bar.clone());
    Memo::new(move |_| {
        let mut tally = Tally::default();
        bookings.with(|bookings| {
            for booking in bookings {
                tally.fees += booking.fee;
                match booking.state {
                    State::Booked => tally.tickets += booking.paid,
                    State::Returned { refund } => {
                        tally.tickets += booking.paid;
                        tally.refunds += refund;
                    }
                    State::Exchanged { .. } => {}
                }
            }
        });
        tally.bar = bar.with(|orders| orders.iter().map(|order| order.pence).sum());
        let total = tally.tickets - tally.refunds + tally.fees + tally.bar;
        let net = net_of_vat(total);
        vec![
            format!("tickets: {}", pounds(tally.tickets)),
            format!("refunds: {}", pounds(tally.refunds)),
            format!("fees: {}", pounds(tally.fees)),
            format!("bar: {}", pounds(tally.bar)),
            format!("total: {}", pounds(total)),
            format!("net of VAT: {}", pounds(net)),
            format!("VAT: {}", pounds(total - net)),
        ]
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{BarOrder, Booking, DAYS, Performance, State, pounds, time_of_day};
    use super::Tally;
    use ranvier::Memo;

    /// [`super::house`].
    pub fn house(
        today: &Memo<u32>,
        performances: &Memo<Vec<Performance>>,
        bar: &Memo<Vec<BarOrder>>,
    ) -> Memo<Vec<String>> {
        let (today, performances, bar) = (today.clone(), performances.clone(), bar.clone());
        Memo::new(move |_| {
            // BUG(house_today)
            let today = today.peek();
            let bar = bar.get();
            performances.with(|performances| {
                let mut lines = Vec::new();
                for perf in performances.iter().filter(|perf| perf.day == today) {
                    let orders: u32 = bar
                        .iter()
                        .filter(|order| order.perf == perf.id)
                        .map(|order| order.qty)
                        .sum();
                    let waiting: u32 = perf.waiting.iter().map(|w| w.seats).sum();
                    let mut line = format!(
                        "{} {}: {} sold, {} held, {} free",
                        time_of_day(perf.at),
                        perf.show,
                        perf.sold_total(),
                        perf.held_total(),
                        perf.free_total()
                    );
                    if waiting > 0 {
                        line.push_str(&format!(", {waiting} waiting"));
                    }
                    line.push_str(&format!(", {orders} interval orders"));
                    lines.push(line);
                }
                if lines.is_empty() {
                    lines.push(format!("no performance on {}", DAYS[today as usize % 7]));
                }
                lines
            })
        })
    }

    /// [`super::takings`].
    pub fn takings(
        bookings: &Memo<Vec<Booking>>,
        bar: &Memo<Vec<BarOrder>>,
        net_of_vat: fn(u32) -> u32,
    ) -> Memo<Vec<String>> {
        let (bookings, bar) = (bookings.clone(), bar.clone());
        Memo::new(move |_| {
            let mut tally = Tally::default();
            bookings.with(|bookings| {
                for booking in bookings {
                    tally.fees += booking.fee;
                    match booking.state {
                        // BUG(takings_exchanged)
                        State::Booked | State::Exchanged { .. } => tally.tickets += booking.paid,
                        State::Returned { refund } => {
                            tally.tickets += booking.paid;
                            tally.refunds += refund;
                        }
                    }
                }
            });
            tally.bar = bar.with(|orders| orders.iter().map(|order| order.pence).sum());
            let total = tally.tickets - tally.refunds + tally.fees + tally.bar;
            let net = net_of_vat(total);
            vec![
                format!("tickets: {}", pounds(tally.tickets)),
                format!("refunds: {}", pounds(tally.refunds)),
                format!("fees: {}", pounds(tally.fees)),
                format!("bar: {}", pounds(tally.bar)),
                format!("total: {}", pounds(total)),
                format!("net of VAT: {}", pounds(net)),
                format!("VAT: {}", pounds(total - net)),
            ]
        })
    }
}
