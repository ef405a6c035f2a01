//! `update`: the office sells, the gates scan, the lift staff report wind and lines, the clock moves on. Some
//! messages answer with commands: a gust over the limit sends `CloseLift`, a calm one `OpenLift`, a closed day a
//! `Refund` for every day pass it spoils.

use super::gates::{self, Denial};
use super::model::{Band, Lift, LiftState, Msg, Pass, PassKind, Refund, Resort, Scan, hours};
use super::tariff;

/// A gate's rule: whether a pass goes through the gate of a lift, given the closed days, the day and the minute.
pub type Admit = fn(&Pass, &Lift, &[u32], u32, u32) -> Result<(), Denial>;

/// The rules `update` goes by: the tariff's and the gates', and its own helpers for the messages that do most.
#[derive(Clone, Copy)]
pub struct Rules {
    pub band: fn(u32) -> Band,
    pub price: fn(Band, PassKind, u32) -> u64,
    pub admit: Admit,
    pub scan: fn(&mut Resort, u32, u32, &Rules),
    pub wind: fn(&mut Resort, u32, u32) -> Vec<Msg>,
    pub close_day: fn(&mut Resort) -> Vec<Msg>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            band: tariff::band,
            price: tariff::price,
            admit: gates::admit,
            scan,
            wind: wind_reading,
            close_day,
        }
    }
}

/// The lifts that run when the office opens (the T-bar waits for its mechanics).
pub fn opening() -> Vec<Msg> {
    (1..=4).map(|lift| Msg::OpenLift { lift }).collect()
}

/// The next resort, and the commands the message sends.
pub fn update(rules: &Rules, msg: Msg, resort: &Resort) -> (Resort, Vec<Msg>) {
    let mut next = resort.clone();
    let commands = match msg {
        Msg::Sell {
            holder,
            age,
            days,
            first_day,
            season,
        } => {
            sell(&mut next, rules, holder, age, days, first_day, season);
            Vec::new()
        }
        Msg::Scan { pass, lift } => {
            (rules.scan)(&mut next, pass, lift, rules);
            Vec::new()
        }
        Msg::Wind { lift, kmh } => (rules.wind)(&mut next, lift, kmh),
        Msg::CountQueue { lift, people } => {
            if let Some(lift) = next.lift_mut(lift) {
                lift.queue = people;
            }
            Vec::new()
        }
        Msg::CloseLift { lift } => {
            let time = next.time();
            if let Some(lift) = next.lift_mut(lift) {
                lift.state = LiftState::Wind;
                lift.queue = 0;
                let notice = format!("{time} {} closed: wind {} km/h", lift.name, lift.wind);
                next.notices.push(notice);
            }
            Vec::new()
        }
        Msg::OpenLift { lift } => {
            let time = next.time();
            if let Some(lift) = next.lift_mut(lift) {
                let was = std::mem::replace(&mut lift.state, LiftState::Open);
                if was == LiftState::Wind {
                    let notice = format!("{time} {} running again", lift.name);
                    next.notices.push(notice);
                }
            }
            Vec::new()
        }
        Msg::Advance { minutes } => {
            advance(&mut next, minutes);
            Vec::new()
        }
        Msg::CloseDay => (rules.close_day)(&mut next),
        Msg::Refund { pass } => {
            refund(&mut next, pass);
            Vec::new()
        }
    };
    (next, commands)
}

/// Sells a pass: the band from the age, the price from the tariff.
fn sell(
    next: &mut Resort,
    rules: &Rules,
    holder: String,
    age: u32,
    days: u32,
    first_day: u32,
    season: bool,
) {
    let band = (rules.band)(age);
    let (kind, first_day, days) = if season {
        (PassKind::Season, 1, hours::SEASON_DAYS)
    } else {
        (PassKind::Days, first_day, days)
    };
    let price = (rules.price)(band, kind, days);
    next.passes.push(Pass {
        id: next.next_pass,
        holder,
        band,
        kind,
        first_day,
        days,
        price,
        refunded: 0,
    });
    next.next_pass += 1;
}

/// A pass at a gate: let through (a ride, and a line in the gate log), or refused with the reason.
fn scan(next: &mut Resort, pass: u32, lift: u32, rules: &Rules) {
    let (day, minute, time) = (next.day, next.minute, next.time());
    let (Some(holder), Some(gate)) = (
        next.passes.iter().find(|p| p.id == pass),
        next.lifts.iter().find(|l| l.id == lift),
    ) else {
        next.gate_log.push(format!("{time} unknown pass or lift"));
        return;
    };
    let who = format!("{time} {}: #{pass} {}", gate.name, holder.holder);
    match (rules.admit)(holder, gate, &next.closed_days, day, minute) {
        Ok(()) => {
            next.gate_log.push(format!("{who} ok"));
            next.scans.push(Scan {
                pass,
                lift,
                day,
                minute,
            });
            if let Some(gate) = next.lift_mut(lift) {
                gate.rides += 1;
            }
        }
        Err(denial) => next.gate_log.push(format!("{who} refused: {denial}")),
    }
}

/// A gust read at the top of a lift: over the limit it stops a running lift, calm enough it restarts one the wind
/// stopped.
fn wind_reading(next: &mut Resort, lift: u32, kmh: u32) -> Vec<Msg> {
    let Some(top) = next.lift_mut(lift) else {
        return Vec::new();
    };
    top.wind = kmh;
    match top.state {
        LiftState::Open if gates::too_windy(top, kmh) => vec![Msg::CloseLift { lift }],
        LiftState::Wind if gates::calm_enough(top, kmh) => vec![Msg::OpenLift { lift }],
        LiftState::Open | LiftState::Wind | LiftState::Maintenance => Vec::new(),
    }
}

/// The clock moves on: the open lifts carry their lines away; at closing the day ends, and the next starts at
/// opening with empty lines and no rides.
fn advance(next: &mut Resort, minutes: u32) {
    let mut left = minutes;
    while left > 0 {
        let step = left.min(hours::CLOSES - next.minute);
        for lift in next.lifts.iter_mut() {
            if lift.state == LiftState::Open {
                lift.queue = lift.queue.saturating_sub(lift.per_minute() * step);
            }
        }
        next.minute += step;
        left -= step;
        if next.minute >= hours::CLOSES {
            next.day += 1;
            next.minute = hours::OPENS;
            for lift in next.lifts.iter_mut() {
                lift.queue = 0;
                lift.rides = 0;
            }
        }
    }
}

/// The resort stays shut today: a notice, and a refund for every day pass good today (a season pass is not
/// refunded by the day).
fn close_day(next: &mut Resort) -> Vec<Msg> {
    let today = next.day;
    if next.closed_days.contains(&today) {
        return Vec::new();
    }
    next.closed_days.push(today);
    next.notices
        .push(format!("Day {today}: the resort is closed"));
    let mut commands = Vec::new();
    for pass in &next.passes {
        match pass.kind {
            PassKind::Days if pass.covers(today) => commands.push(Msg::Refund { pass: pass.id }),
            PassKind::Days | PassKind::Season => {}
        }
    }
    commands
}

/// Gives a pass its share of today back.
fn refund(next: &mut Resort, id: u32) {
    let day = next.day;
    if let Some(pass) = next.passes.iter_mut().find(|p| p.id == id) {
        let cents = tariff::day_share(pass);
        pass.refunded += cents;
        next.refunds.push(Refund {
            pass: id,
            holder: pass.holder.clone(),
            day,
            cents,
        });
    }
}

/// `update`'s helpers with a mistake each.
pub mod slipped {
    use super::super::gates;
    use super::super::model::{LiftState, Msg, PassKind, Resort, Scan};
    use super::Rules;

    /// [`super::scan`], with a mistake.
    pub fn scan(next: &mut Resort, pass: u32, lift: u32, rules: &Rules) {
        let (day, minute, time) = (next.day, next.minute, next.time());
        let (Some(holder), Some(gate)) = (
            next.passes.iter().find(|p| p.id == pass),
            next.lifts.iter().find(|l| l.id == lift),
        ) else {
            next.gate_log.push(format!("{time} unknown pass or lift"));
            return;
        };
        let who = format!("{time} {}: #{pass} {}", gate.name, holder.holder);
        // BUG(scan_day_minute)
        match (rules.admit)(holder, gate, &next.closed_days, minute, day) {
            Ok(()) => {
                next.gate_log.push(format!("{who} ok"));
                next.scans.push(Scan {
                    pass,
                    lift,
                    day,
                    minute,
                });
                if let Some(gate) = next.lift_mut(lift) {
                    gate.rides += 1;
                }
            }
            Err(denial) => next.gate_log.push(format!("{who} refused: {denial}")),
        }
    }

    /// [`super::wind_reading`], with a mistake.
    pub fn wind_reading(next: &mut Resort, lift: u32, kmh: u32) -> Vec<Msg> {
        let Some(top) = next.lift_mut(lift) else {
            return Vec::new();
        };
        top.wind = kmh;
        match top.state {
            LiftState::Open if gates::too_windy(top, kmh) => {
                // BUG(wind_no_close)
                top.state = LiftState::Wind;
                Vec::new()
            }
            LiftState::Wind if gates::calm_enough(top, kmh) => vec![Msg::OpenLift { lift }],
            LiftState::Open | LiftState::Wind | LiftState::Maintenance => Vec::new(),
        }
    }

    /// [`super::close_day`], with a mistake.
    pub fn close_day(next: &mut Resort) -> Vec<Msg> {
        let today = next.day;
        if next.closed_days.contains(&today) {
            return Vec::new();
        }
        next.closed_days.push(today);
        next.notices
            .push(format!("Day {today}: the resort is closed"));
        let mut commands = Vec::new();
        for pass in &next.passes {
            match pass.kind {
                // BUG(refund_season)
                PassKind::Season if pass.covers(today) => {
                    commands.push(Msg::Refund { pass: pass.id })
                }
                PassKind::Days | PassKind::Season => {}
            }
        }
        commands
    }
}
