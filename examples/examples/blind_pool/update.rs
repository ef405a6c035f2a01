//! The desk's `update`: one arm per message, the helpers the longer arms call, and the commands they send (a
//! promotion from a waiting list, a closure or reopening after a water test, a lifeguard's break).

use super::admissions;
use super::model::{
    Closure, Kind, LaneBooking, Member, Msg, Pool, Reading, Sale, Ticket, clock, parse_clock,
    pounds,
};
use super::rota;
use super::water::{self, Verdict};

/// The helpers `update` calls through fn values, so that the pool can be started with another version of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub price: fn(Kind, u32) -> u32,
    pub book_lane: fn(&mut Pool, String, u8, &str, u32),
    pub withdraw: fn(&mut Pool, &str, u32) -> Vec<Msg>,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            price: admissions::price,
            book_lane,
            withdraw,
        }
    }
}

/// The commands the desk starts the day with: the first two lifeguards on the poolside, and the opening water test.
pub fn opening() -> Vec<Msg> {
    vec![
        Msg::OnDuty {
            guard: "Ana".into(),
        },
        Msg::OnDuty {
            guard: "Ben".into(),
        },
        Msg::Reading {
            chlorine: 1.6,
            ph: 7.4,
            temp: 29.0,
        },
    ]
}

/// The pool after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, pool: &Pool, helpers: &Helpers) -> (Pool, Vec<Msg>) {
    let mut next = pool.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Admit {
            who,
            ticket,
            count,
            card,
        } => admit(&mut next, helpers, who, &ticket, count, card),
        Msg::Join { card, name, plan } => match admissions::plan_fee(&plan) {
            Some(fee) if next.members.iter().all(|m| m.card != card) => {
                next.note(format!("{name} joins on the {plan} plan ({})", pounds(fee)));
                next.members.push(Member {
                    card,
                    name,
                    plan,
                    fee,
                });
            }
            Some(_) => next.note(format!("card {card} is already a member's")),
            None => next.note(format!("no {plan} plan")),
        },
        Msg::BookLane {
            club,
            lane,
            from,
            half_hours,
        } => (helpers.book_lane)(&mut next, club, lane, &from, half_hours),
        Msg::Enrol { child, lesson } => enrol(&mut next, child, lesson),
        Msg::Withdraw { child, lesson } => commands = (helpers.withdraw)(&mut next, &child, lesson),
        Msg::Promote { lesson } => promote(&mut next, lesson),
        Msg::Reading { chlorine, ph, temp } => {
            let reading = Reading {
                at: next.now,
                chlorine,
                ph,
                temp,
            };
            commands = take_reading(&mut next, reading);
        }
        Msg::Close { reason } => {
            next.note(format!("closed: {reason}"));
            next.closed = Some(Closure {
                since: next.now,
                reason,
            });
        }
        Msg::Reopen => {
            if let Some(closure) = next.closed.take() {
                next.note(format!("reopened (closed since {})", clock(closure.since)));
            }
        }
        Msg::OnDuty { guard } => {
            let now = next.now;
            match next.guard_mut(&guard) {
                Some(on) => {
                    on.on_since = Some(now);
                    on.break_until = None;
                }
                None => next.note(format!("{guard} is not on today's rota")),
            }
        }
        Msg::OffDuty { guard } => {
            if let Some(off) = next.guard_mut(&guard) {
                off.on_since = None;
                off.break_until = None;
            }
        }
        Msg::Break { guard } => {
            let until = next.now + rota::BREAK_MINUTES;
            if let Some(resting) = next.guard_mut(&guard) {
                resting.break_until = Some(until);
            }
            next.note(format!("{guard} on a break until {}", clock(until)));
        }
        Msg::Advance { minutes } => commands = advance(&mut next, minutes),
        Msg::Sell {
            till,
            item,
            pence,
            card,
        } => next.sales.push(Sale {
            till,
            item,
            pence,
            card,
        }),
    }
    (next, commands)
}

/// Sells `count` tickets of `kind` to `who`.
#[ranvier::trace_fn]
fn admit(
    pool: &mut Pool,
    helpers: &Helpers,
    who: String,
    kind: &str,
    count: u32,
    card: Option<String>,
) {
    if let Some(closure) = &pool.closed {
        let why = closure.reason.clone();
        pool.note(format!("{who} turned away: the pool is closed ({why})"));
        return;
    }
    let Some(kind) = Kind::parse(kind) else {
        pool.note(format!("no {kind} ticket"));
        return;
    };
    let card_needed = kind.is_concession() || kind == Kind::Member;
    if card_needed && card.is_none() {
        pool.note(format!("{who}: a {} ticket needs a card", kind.name()));
        return;
    }
    if kind == Kind::Member && !pool.members.iter().any(|m| Some(&m.card) == card.as_ref()) {
        pool.note(format!(
            "{who}: card {} is no member's",
            card.unwrap_or_default()
        ));
        return;
    }
    let paid = (helpers.price)(kind, pool.now) * count;
    let no = pool.tickets.len() as u32 + 1;
    pool.tickets.push(Ticket {
        no,
        who,
        kind,
        count,
        card,
        paid,
        at: pool.now,
    });
}

/// Books `lane` for `club` from `from` for `half_hours`, unless another club has it then.
#[ranvier::trace_fn]
pub fn book_lane(pool: &mut Pool, club: String, lane: u8, from: &str, half_hours: u32) {
    let Some(from) = parse_clock(from).filter(|minute| minute % 30 == 0) else {
        pool.note(format!(
            "{club}: lanes are booked on the half hour, not at {from}"
        ));
        return;
    };
    let until = from + half_hours * 30;
    if let Some(taken) = pool.lanes.iter().find(|b| b.overlaps(lane, from, until)) {
        let notice = format!(
            "lane {lane} {}–{} is taken by {}: {club} not booked",
            clock(from),
            clock(until),
            taken.club
        );
        pool.note(notice);
        return;
    }
    pool.lanes.push(LaneBooking {
        club,
        lane,
        from,
        until,
    });
}

/// Enrols `child` in lesson `id`, or puts them on its waiting list.
#[ranvier::trace_fn]
fn enrol(pool: &mut Pool, child: String, id: u32) {
    let Some(lesson) = pool.lesson_mut(id) else {
        pool.note(format!("no lesson {id}"));
        return;
    };
    if lesson.enrolled.contains(&child) || lesson.waiting.contains(&child) {
        return;
    }
    if lesson.is_full() {
        lesson.waiting.push(child);
    } else {
        lesson.enrolled.push(child);
    }
}

/// Takes `child` out of lesson `id`; a place given up goes to the first child waiting.
#[ranvier::trace_fn]
pub fn withdraw(pool: &mut Pool, child: &str, id: u32) -> Vec<Msg> {
    let Some(lesson) = pool.lesson_mut(id) else {
        return Vec::new();
    };
    if let Some(at) = lesson.enrolled.iter().position(|c| c == child) {
        lesson.enrolled.remove(at);
        return if lesson.waiting.is_empty() {
            Vec::new()
        } else {
            vec![Msg::Promote { lesson: id }]
        };
    }
    lesson.waiting.retain(|c| c != child);
    Vec::new()
}

/// The first child waiting for lesson `id` takes the free place.
#[ranvier::trace_fn]
fn promote(pool: &mut Pool, id: u32) {
    let Some(lesson) = pool.lesson_mut(id) else {
        return;
    };
    if lesson.is_full() || lesson.waiting.is_empty() {
        return;
    }
    let child = lesson.waiting.remove(0);
    let title = lesson.title();
    lesson.enrolled.push(child.clone());
    pool.note(format!("{child} has a place in {title}"));
}

/// Records `reading`; a figure out of limits closes the pool, and a good test reopens a pool it closed.
#[ranvier::trace_fn]
fn take_reading(pool: &mut Pool, reading: Reading) -> Vec<Msg> {
    let verdict = water::verdict(&reading);
    pool.readings.push(reading);
    match verdict {
        Verdict::Close(reason) if pool.closed.is_none() => vec![Msg::Close { reason }],
        Verdict::Fine if pool.closed.is_some() => vec![Msg::Reopen],
        _ => Vec::new(),
    }
}

/// Moves the clock on: guards back from their breaks, and a break for each guard due one.
#[ranvier::trace_fn]
fn advance(pool: &mut Pool, minutes: u32) -> Vec<Msg> {
    pool.now += minutes;
    let now = pool.now;
    let mut breaks = Vec::new();
    for guard in pool.guards.iter_mut().filter(|g| g.on_duty()) {
        if let Some(until) = guard.break_until.filter(|&until| until <= now) {
            guard.break_until = None;
            guard.on_since = Some(until);
        }
        let since = guard.on_since.unwrap_or(now);
        if guard.break_until.is_none() && rota::break_due(since, now) {
            breaks.push(Msg::Break {
                guard: guard.name.clone(),
            });
        }
    }
    breaks
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{LaneBooking, Msg, Pool, clock, parse_clock};

    /// [`super::book_lane`].
    #[ranvier::trace_fn]
    pub fn book_lane(pool: &mut Pool, club: String, lane: u8, from: &str, half_hours: u32) {
        let Some(from) = parse_clock(from).filter(|minute| minute % 30 == 0) else {
            pool.note(format!(
                "{club}: lanes are booked on the half hour, not at {from}"
            ));
            return;
        };
        let until = from + half_hours * 30;
        // BUG(lane_clash)
        if let Some(taken) = pool.lanes.iter().find(|b| b.overlaps(lane, until, from)) {
            let notice = format!(
                "lane {lane} {}–{} is taken by {}: {club} not booked",
                clock(from),
                clock(until),
                taken.club
            );
            pool.note(notice);
            return;
        }
        pool.lanes.push(LaneBooking {
            club,
            lane,
            from,
            until,
        });
    }

    /// [`super::withdraw`].
    #[ranvier::trace_fn]
    pub fn withdraw(pool: &mut Pool, child: &str, id: u32) -> Vec<Msg> {
        let Some(lesson) = pool.lesson_mut(id) else {
            return Vec::new();
        };
        if let Some(at) = lesson.enrolled.iter().position(|c| c == child) {
            lesson.enrolled.remove(at);
            // BUG(withdraw_promote)
            return Vec::new();
        }
        lesson.waiting.retain(|c| c != child);
        Vec::new()
    }
}
