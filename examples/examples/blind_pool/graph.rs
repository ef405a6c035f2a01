//! The pool's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the desk's
//! `Mvu`, the rules, the timetable and the services.

use super::admissions::LANE_HALF_HOUR;
use super::lessons::{self, RowFactory, Timetable};
use super::model::{self, Guard, LANES, LaneBooking, Msg, Pool, Qual, Reading, Ticket, pounds};
use super::remote::{Registry, Terminal};
use super::services;
use super::update::{self, Helpers};
use super::water::{self, Verdict};
use super::{admissions, rota};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the pool to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    CardPayments,
    UnlistedCard,
    PlacesLeft,
    OpenLessons,
    WithdrawPromote,
    LaneClash,
    ReadingDue,
    EarlyChild,
    GuardsNeeded,
    PoolsideBreak,
    ReportCafe,
    LaneBoard,
}

/// What an agent sees of the pool.
#[expose]
pub struct PoolDesk {
    #[expose(messages)]
    pub pool: Mvu<Pool, Msg>,
    /// The pool's clock, `HH:MM`.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// Open, or closed since when and why.
    #[expose]
    #[node]
    pub status: Memo<String>,
    /// The last water test, and whether the next is due.
    #[expose]
    #[node]
    pub water: Memo<String>,
    /// Who has each lane now.
    #[expose]
    #[node]
    pub lanes: Memo<Vec<String>>,
    /// Every lane booked today.
    #[expose]
    #[node]
    pub bookings: Memo<Vec<String>>,
    /// The lifeguards watching the water, against the bathers in it.
    #[expose]
    #[node]
    pub poolside: Memo<String>,
    /// Today's lessons, each with its places.
    #[expose]
    #[node]
    pub timetable: Timetable,
    /// The lessons' lines in time order.
    #[expose]
    #[node]
    pub lessons_today: Memo<Vec<String>>,
    /// The lessons with a place left.
    #[expose]
    #[node]
    pub open_lessons: Memo<Vec<String>>,
    /// The waiting lists.
    #[expose]
    #[node]
    pub waiting: Memo<Vec<String>>,
    /// How many lessons have a waiting list.
    #[expose]
    #[node]
    pub waiting_lists: Memo<usize>,
    /// What the desk has noted today.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The day's report: bathers and takings.
    #[expose]
    #[node]
    pub report: Memo<Vec<String>>,
    /// The café's card payments, settled till by till.
    #[expose]
    #[node]
    pub card_takings: AsyncMemo<Vec<String>>,
    /// Concession tickets on a card the registry does not vouch for.
    #[expose]
    #[node]
    pub concession_checks: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::EarlyChild => Helpers {
                price: admissions::slipped::price,
                ..correct
            },
            Slip::LaneClash => Helpers {
                book_lane: update::slipped::book_lane,
                ..correct
            },
            Slip::WithdrawPromote => Helpers {
                withdraw: update::slipped::withdraw,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the pool with `slip`.
#[node]
pub fn pool_desk(slip: Slip) -> PoolDesk {
    let helpers = slip.helpers();
    let pool = Mvu::with_commands(
        (Pool::default(), update::opening()),
        move |msg, pool: &Pool| update::update(msg, pool, &helpers),
    );
    let now = pool.select(|pool| pool.now);
    let clock = pool.select(|pool| model::clock(pool.now));
    let status = pool.select(|pool| match &pool.closed {
        None => "open".to_owned(),
        Some(closure) => format!(
            "closed since {}: {}",
            model::clock(closure.since),
            closure.reason
        ),
    });

    let readings = pool.select(|pool| pool.readings.clone());
    let test_due: fn(&Reading, u32) -> bool = match slip {
        Slip::ReadingDue => water::slipped::test_due,
        _ => water::test_due,
    };
    let water = Memo::new({
        let (readings, now) = (readings.clone(), now.clone());
        move |_| {
            let now = now.get();
            readings.with(|readings| match readings.last() {
                None => "not tested yet".to_owned(),
                Some(last) => {
                    let verdict = match water::verdict(last) {
                        Verdict::Fine => "within limits".to_owned(),
                        Verdict::Close(why) => why,
                    };
                    let due = if test_due(last, now) {
                        "; a test is due"
                    } else {
                        ""
                    };
                    format!(
                        "{}: chlorine {:.1} mg/l, pH {:.1}, {:.1} °C, {verdict}{due}",
                        model::clock(last.at),
                        last.chlorine,
                        last.ph,
                        last.temp
                    )
                }
            })
        }
    });

    let booked = pool.select(|pool| pool.lanes.clone());
    let covers: fn(&LaneBooking, u32) -> bool = match slip {
        Slip::LaneBoard => model::slipped::covers,
        _ => LaneBooking::covers,
    };
    let lanes = Memo::new({
        let (booked, now) = (booked.clone(), now.clone());
        move |_| {
            let now = now.get();
            booked.with(|booked| {
                (1..=LANES)
                    .map(|lane| {
                        let club = booked.iter().find(|b| b.lane == lane && covers(b, now));
                        match club {
                            Some(b) => {
                                format!("lane {lane}: {} until {}", b.club, model::clock(b.until))
                            }
                            None => format!("lane {lane}: public swim"),
                        }
                    })
                    .collect::<Vec<_>>()
            })
        }
    });
    let bookings = pool.select(|pool| {
        let mut lines: Vec<(u8, u32, String)> = pool
            .lanes
            .iter()
            .map(|b| {
                let line = format!(
                    "lane {} {}–{} {}",
                    b.lane,
                    model::clock(b.from),
                    model::clock(b.until),
                    b.club
                );
                (b.lane, b.from, line)
            })
            .collect();
        lines.sort();
        lines
            .into_iter()
            .map(|(_, _, line)| line)
            .collect::<Vec<_>>()
    });

    let guards = pool.select(|pool| pool.guards.clone());
    let tickets = pool.select(|pool| pool.tickets.clone());
    let needed: fn(u32) -> u32 = match slip {
        Slip::GuardsNeeded => rota::slipped::guards_needed,
        _ => rota::guards_needed,
    };
    let poolside = match slip {
        Slip::PoolsideBreak => slipped::poolside(&guards, &tickets, &now, needed),
        _ => poolside(&guards, &tickets, &now, needed),
    };

    let lesson_list = pool.select(|pool| pool.lessons.clone());
    let row: RowFactory = match slip {
        Slip::PlacesLeft => lessons::slipped::lesson_row,
        _ => lessons::lesson_row,
    };
    let timetable = lessons::timetable(&lesson_list, row);
    let order = lessons::in_time_order(&timetable);
    let lessons_today = lessons::day_sheet(&timetable, &order);
    let open = match slip {
        Slip::OpenLessons => lessons::slipped::open_for_enrolment(&timetable),
        _ => lessons::open_for_enrolment(&timetable),
    };
    let open_lessons = lessons::titles(&lesson_list, &open.keys());
    let waiting = lessons::waiting_lists(&pool);
    let waiting_lists = lessons::with_waiting_list(&timetable);

    let notices = pool.select(|pool| pool.notices.clone());
    let report = match slip {
        Slip::ReportCafe => slipped::day_report(&pool),
        _ => day_report(&pool),
    };

    let sales = pool.select(|pool| pool.sales.clone());
    let today = pool.select(|pool| pool.today);
    let terminal = Rc::new(Terminal::default());
    let registry = Rc::new(Registry::default());
    let card_takings = match slip {
        Slip::CardPayments => services::slipped::card_takings(&sales, terminal),
        _ => services::card_takings(&sales, terminal),
    };
    let concession_checks = match slip {
        Slip::UnlistedCard => services::slipped::concession_checks(&tickets, &today, registry),
        _ => services::concession_checks(&tickets, &today, registry),
    };

    PoolDesk {
        pool,
        clock,
        status,
        water,
        lanes,
        bookings,
        poolside,
        timetable,
        lessons_today,
        open_lessons,
        waiting,
        waiting_lists,
        notices,
        report,
        card_takings,
        concession_checks,
    }
}

/// The guards on the poolside (on duty, not on a break) against the bathers in the water: enough of them, and one
/// qualified for the deep end.
fn poolside(
    guards: &Memo<Vec<Guard>>,
    tickets: &Memo<Vec<Ticket>>,
    now: &Memo<u32>,
    needed_for: fn(u32) -> u32,
) -> Memo<String> {
    let (guards, tickets, now) = (guards.clone(), tickets.clone(), now.clone());
    Memo::new(move |_| {
        let now = now.get();
        let in_water = tickets.with(|tickets| model::bathers(tickets, now));
        let mut watching = Vec::new();
        let mut deep_water = false;
        for guard in guards
            .get()
            .iter()
            .filter(|g| g.on_duty() && !g.on_break(now))
        {
            deep_water |= guard.has(Qual::DeepWater);
            watching.push(guard.name.clone());
        }
        let needed = needed_for(in_water) as usize;
        let cover = if watching.len() < needed {
            format!("short by {}", needed - watching.len())
        } else if !deep_water {
            "no deep-water guard".to_owned()
        } else {
            "covered".to_owned()
        };
        let who = if watching.is_empty() {
            "nobody".to_owned()
        } else {
            watching.join(", ")
        };
        format!("{who} for {in_water} bathers, {needed} needed: {cover}")
    })
}

/// What the day added up to so far.
#[derive(Default)]
struct Tally {
    bathers: u32,
    tickets: u32,
    cafe: u32,
    memberships: u32,
    lane_hire: u32,
}

/// The day's report: bathers, each kind of takings and their total, and how often the pool closed.
fn day_report(pool: &Mvu<Pool, Msg>) -> Memo<Vec<String>> {
    let pool = pool.clone();
    Memo::new(move |_| {
        let day = pool.model();
        let mut tally = Tally::default();
        for ticket in &day.tickets {
            tally.bathers += ticket.count;
            tally.tickets += ticket.paid;
        }
        for sale in &day.sales {
            tally.cafe += sale.pence;
        }
        tally.memberships = day.members.iter().map(|member| member.fee).sum();
        tally.lane_hire = day
            .lanes
            .iter()
            .map(|b| b.half_hours() * LANE_HALF_HOUR)
            .sum();
        let total = tally.tickets + tally.cafe + tally.memberships + tally.lane_hire;
        let closures = day
            .notices
            .iter()
            .filter(|n| n.contains(" closed: "))
            .count();
        vec![
            format!("bathers: {}", tally.bathers),
            format!("tickets: {}", pounds(tally.tickets)),
            format!("café: {}", pounds(tally.cafe)),
            format!("memberships: {}", pounds(tally.memberships)),
            format!("lane hire: {}", pounds(tally.lane_hire)),
            format!("total: {}", pounds(total)),
            format!("closures: {closures}"),
        ]
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::admissions::LANE_HALF_HOUR;
    use super::super::model::{self, Guard, Msg, Pool, Qual, Ticket, pounds};
    use super::Tally;
    use ranvier::{Memo, Mvu};

    /// [`super::poolside`].
    pub fn poolside(
        guards: &Memo<Vec<Guard>>,
        tickets: &Memo<Vec<Ticket>>,
        now: &Memo<u32>,
        needed_for: fn(u32) -> u32,
    ) -> Memo<String> {
        let (guards, tickets, now) = (guards.clone(), tickets.clone(), now.clone());
        Memo::new(move |_| {
            let now = now.get();
            let in_water = tickets.with(|tickets| model::bathers(tickets, now));
            let mut watching = Vec::new();
            let mut deep_water = false;
            // BUG(poolside_break)
            for guard in guards.get().iter().filter(|g| g.on_duty()) {
                deep_water |= guard.has(Qual::DeepWater);
                watching.push(guard.name.clone());
            }
            let needed = needed_for(in_water) as usize;
            let cover = if watching.len() < needed {
                format!("short by {}", needed - watching.len())
            } else if !deep_water {
                "no deep-water guard".to_owned()
            } else {
                "covered".to_owned()
            };
            let who = if watching.is_empty() {
                "nobody".to_owned()
            } else {
                watching.join(", ")
            };
            format!("{who} for {in_water} bathers, {needed} needed: {cover}")
        })
    }

    /// [`super::day_report`].
    pub fn day_report(pool: &Mvu<Pool, Msg>) -> Memo<Vec<String>> {
        let pool = pool.clone();
        Memo::new(move |_| {
            let day = pool.model();
            let mut tally = Tally::default();
            for ticket in &day.tickets {
                tally.bathers += ticket.count;
                tally.tickets += ticket.paid;
            }
            for sale in &day.sales {
                // BUG(report_cafe)
                tally.tickets += sale.pence;
            }
            tally.memberships = day.members.iter().map(|member| member.fee).sum();
            tally.lane_hire = day
                .lanes
                .iter()
                .map(|b| b.half_hours() * LANE_HALF_HOUR)
                .sum();
            let total = tally.tickets + tally.cafe + tally.memberships + tally.lane_hire;
            let closures = day
                .notices
                .iter()
                .filter(|n| n.contains(" closed: "))
                .count();
            vec![
                format!("bathers: {}", tally.bathers),
                format!("tickets: {}", pounds(tally.tickets)),
                format!("café: {}", pounds(tally.cafe)),
                format!("memberships: {}", pounds(tally.memberships)),
                format!("lane hire: {}", pounds(tally.lane_hire)),
                format!("total: {}", pounds(total)),
                format!("closures: {closures}"),
            ]
        })
    }
}
