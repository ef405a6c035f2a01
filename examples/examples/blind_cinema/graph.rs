//! The box office as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the box office's `Mvu`
//! with today's schedule as initial commands, the board's memos, the seating chart and the services.

use std::collections::BTreeMap;

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::model::{BoxOffice, Msg, Showing, clock};
use super::rules;
use super::seating::{self, SeatRow};
use super::services;
use super::update;

/// Which mistake the box office runs with (`None`: the correct box office).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct box office.
    None,
    /// When two listed showings are the same.
    ShowingEq,
    /// The order of the board.
    BoardSort,
    /// The next showing of each film.
    SoldOutBreak,
    /// Whether a showing has room.
    LastSeats,
    /// The discount by time of day.
    BandOrder,
    /// The club discount.
    MemberDiscount,
    /// A cancellation's refund.
    CancelRefund,
    /// Closing the sales of showings that started.
    CloseStale,
    /// Moving a booking to another showing.
    ExchangeOrder,
    /// A row's occupancy.
    OccupancyOrder,
    /// The nearly full showings.
    NearlyFullEdge,
    /// Which certificates are for children.
    CertString,
    /// The best-reviewed film on sale.
    BestPick,
}

/// What an agent may see and send.
#[expose]
pub struct Cinema {
    /// The box office: its messages.
    #[expose(messages)]
    pub office: Mvu<BoxOffice, Msg>,
    /// The time of day.
    #[expose]
    pub time: Memo<String>,
    /// The showings still on sale, in the order they start, with their seats left.
    #[expose]
    #[node]
    pub now_showing: Memo<Vec<String>>,
    /// Each film's next showing with seats left, by film.
    #[expose]
    #[node]
    pub film_board: Memo<Vec<String>>,
    /// Cents taken today, less refunds.
    #[expose]
    #[node]
    pub takings: Memo<i64>,
    /// What the box office was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The seating chart, one row per showing.
    #[expose]
    #[node]
    pub showings: Collection<String, SeatRow, Memo<u32>>,
    /// Seats sold today.
    #[expose]
    #[node]
    pub seats_sold: Memo<u32>,
    /// Showings sold out.
    #[expose]
    #[node]
    pub sold_out: Memo<usize>,
    /// Showings nearly full.
    #[expose]
    #[node]
    pub nearly_full: Memo<usize>,
    /// The showing with the most of its seats sold.
    #[expose]
    #[node]
    pub fullest: Memo<String>,
    /// Bookings with children for films not for children.
    #[expose]
    #[node]
    pub age_warnings: AsyncMemo<Vec<String>>,
    /// The best-reviewed film still on sale.
    #[expose]
    #[node]
    pub best_pick: AsyncMemo<String>,
}

/// Today's schedule: code, film, screen, start (minutes of the day), seats, 3D.
pub const SCHEDULE: [(&str, &str, &str, u32, u32, bool); 5] = [
    ("m1", "Paddington", "s2", 10 * 60 + 30, 40, false),
    ("m2", "Dune", "s1", 14 * 60, 60, true),
    ("m3", "Paddington", "s2", 16 * 60, 40, false),
    ("m4", "Alien", "s1", 20 * 60, 60, false),
    ("m5", "Dune", "s2", 21 * 60 + 30, 40, true),
];

/// Builds the box office as `slip` says: it opens with today's schedule (initial commands), then its memos.
#[node]
pub fn cinema(slip: Slip) -> Cinema {
    let update = match slip {
        Slip::LastSeats => update::slipped::update_room,
        Slip::BandOrder => update::slipped::update_band,
        Slip::MemberDiscount => update::slipped::update_member,
        Slip::CancelRefund => update::slipped::update_cancel,
        Slip::CloseStale => update::slipped::update_advance,
        Slip::ExchangeOrder => update::slipped::update_exchange,
        _ => update::update,
    };
    let schedule: Vec<Msg> = SCHEDULE
        .iter()
        .map(
            |&(showing, film, screen, start, seats, three_d)| Msg::Schedule {
                showing: showing.to_owned(),
                film: film.to_owned(),
                screen: screen.to_owned(),
                start,
                seats,
                three_d,
            },
        )
        .collect();
    let office = Mvu::with_commands((BoxOffice::default(), schedule), update);
    let time = office.select(|office| clock(office.minute));
    let now_showing = match slip {
        Slip::ShowingEq => slipped::now_showing_listed(&office),
        Slip::BoardSort => slipped::now_showing(&office),
        _ => now_showing(&office),
    };
    let film_board = match slip {
        Slip::SoldOutBreak => slipped::film_board(&office),
        _ => film_board(&office),
    };
    let takings = office.select(|office| office.ledger.iter().map(|e| e.cents).sum::<i64>());
    let notices = office.select(|office| office.notices.clone());
    let chart = seating::seating(&office, slip);
    let remote = services::services(&office, slip);
    Cinema {
        office,
        time,
        now_showing,
        film_board,
        takings,
        notices,
        showings: chart.showings,
        seats_sold: chart.seats_sold,
        sold_out: chart.sold_out,
        nearly_full: chart.nearly_full,
        fullest: chart.fullest,
        age_warnings: remote.age_warnings,
        best_pick: remote.best_pick,
    }
}

/// The screen of `show`, with ", 3D" for a 3D showing.
fn room(show: &Showing) -> String {
    if show.three_d {
        format!("{}, 3D", show.screen)
    } else {
        show.screen.clone()
    }
}

/// The showings still on sale, in the order they start (by screen at the same time), each with its seats left or
/// "sold out".
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn now_showing(office: &Mvu<BoxOffice, Msg>) -> Memo<Vec<String>> {
    let showings = office.select(|office| office.showings.clone());
    let now_showing = Memo::new(move |_| {
        let showings = showings.get();
        let mut on_sale: Vec<&Showing> = showings.iter().filter(|show| show.open).collect();
        on_sale.sort_by(|a, b| a.start.cmp(&b.start).then(a.screen.cmp(&b.screen)));
        let mut lines = Vec::with_capacity(on_sale.len());
        for show in on_sale {
            let left = rules::seats_left(show);
            let line = if left == 0 {
                format!(
                    "{} {} ({}): sold out",
                    clock(show.start),
                    show.film,
                    room(show)
                )
            } else {
                format!(
                    "{} {} ({}): {left} of {} left",
                    clock(show.start),
                    show.film,
                    room(show),
                    show.seats
                )
            };
            lines.push(line);
        }
        lines
    });
    now_showing
}

/// Each film's next showing that still has seats, by film: the first one to start.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn film_board(office: &Mvu<BoxOffice, Msg>) -> Memo<Vec<String>> {
    let showings = office.select(|office| office.showings.clone());
    let film_board = Memo::new(move |_| {
        let showings = showings.get();
        let mut by_start: Vec<&Showing> = showings.iter().filter(|show| show.open).collect();
        by_start.sort_by_key(|show| show.start);
        let mut next: BTreeMap<String, String> = BTreeMap::new();
        for show in by_start {
            let left = rules::seats_left(show);
            if left == 0 {
                continue;
            }
            if next.contains_key(&show.film) {
                continue;
            }
            let line = format!(
                "{}: {} ({}), {left} left",
                show.film,
                clock(show.start),
                room(show)
            );
            next.insert(show.film.clone(), line);
        }
        next.into_values().collect::<Vec<_>>()
    });
    film_board
}

/// The board's memos with a mistake.
mod slipped {
    use std::collections::BTreeMap;

    use ranvier::{Memo, Mvu, node};

    use super::super::model::slipped::Listed;
    use super::super::model::{BoxOffice, Msg, Showing, clock};
    use super::super::rules;
    use super::room;

    /// The showings still on sale, in the order they start.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn now_showing(office: &Mvu<BoxOffice, Msg>) -> Memo<Vec<String>> {
        let showings = office.select(|office| office.showings.clone());
        let now_showing = Memo::new(move |_| {
            let showings = showings.get();
            let mut on_sale: Vec<&Showing> = showings.iter().filter(|show| show.open).collect();
            // BUG(board_sort)
            on_sale.sort_by(|a, b| a.film.cmp(&b.film).then(a.start.cmp(&b.start)));
            let mut lines = Vec::with_capacity(on_sale.len());
            for show in on_sale {
                let left = rules::seats_left(show);
                let line = if left == 0 {
                    format!(
                        "{} {} ({}): sold out",
                        clock(show.start),
                        show.film,
                        room(show)
                    )
                } else {
                    format!(
                        "{} {} ({}): {left} of {} left",
                        clock(show.start),
                        show.film,
                        room(show),
                        show.seats
                    )
                };
                lines.push(line);
            }
            lines
        });
        now_showing
    }

    /// The showings still on sale, in the order they start, read as listed showings.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn now_showing_listed(office: &Mvu<BoxOffice, Msg>) -> Memo<Vec<String>> {
        let showings = office.select(|office| {
            office
                .showings
                .iter()
                .cloned()
                .map(Listed)
                .collect::<Vec<_>>()
        });
        let now_showing = Memo::new(move |_| {
            let showings = showings.get();
            let mut on_sale: Vec<&Showing> = showings
                .iter()
                .map(|listed| &listed.0)
                .filter(|show| show.open)
                .collect();
            on_sale.sort_by(|a, b| a.start.cmp(&b.start).then(a.screen.cmp(&b.screen)));
            let mut lines = Vec::with_capacity(on_sale.len());
            for show in on_sale {
                let left = rules::seats_left(show);
                let line = if left == 0 {
                    format!(
                        "{} {} ({}): sold out",
                        clock(show.start),
                        show.film,
                        room(show)
                    )
                } else {
                    format!(
                        "{} {} ({}): {left} of {} left",
                        clock(show.start),
                        show.film,
                        room(show),
                        show.seats
                    )
                };
                lines.push(line);
            }
            lines
        });
        now_showing
    }

    /// Each film's next showing that still has seats, by film.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn film_board(office: &Mvu<BoxOffice, Msg>) -> Memo<Vec<String>> {
        let showings = office.select(|office| office.showings.clone());
        let film_board = Memo::new(move |_| {
            let showings = showings.get();
            let mut by_start: Vec<&Showing> = showings.iter().filter(|show| show.open).collect();
            by_start.sort_by_key(|show| show.start);
            let mut next: BTreeMap<String, String> = BTreeMap::new();
            for show in by_start {
                let left = rules::seats_left(show);
                if left == 0 {
                    // BUG(sold_out_break)
                    break;
                }
                if next.contains_key(&show.film) {
                    continue;
                }
                let line = format!(
                    "{}: {} ({}), {left} left",
                    show.film,
                    clock(show.start),
                    room(show)
                );
                next.insert(show.film.clone(), line);
            }
            next.into_values().collect::<Vec<_>>()
        });
        film_board
    }
}
