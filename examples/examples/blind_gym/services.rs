//! What the gym asks services over the network, as async memos: the weather for its outdoor classes (a forecast
//! service), and what each coach is paid (the payroll's rates).

use std::collections::BTreeMap;

use ranvier::{AsyncMemo, Mvu, node};

use super::billing;
use super::graph::Slip;
use super::model::{Gym, MINUTES_PER_DAY, Msg, Status, clock, money};
use super::remote;

/// Rain, in millimetres, from which an outdoor class moves indoors.
pub const RAIN_LIMIT: u32 = 5;

/// The studio an outdoor class moves to.
pub const RAIN_STUDIO: &str = "A";

/// Today (0 is Monday), and the outdoor classes still to come: day, start, name, places taken.
fn outdoor_classes(gym: &Gym) -> (u32, Vec<(u32, u32, String, usize)>) {
    let classes = gym
        .classes
        .iter()
        .filter(|c| c.studio == "park" && !c.cancelled && !c.closed)
        .map(|c| {
            let booked = gym
                .bookings
                .iter()
                .filter(|b| b.class == c.id && b.holds_place())
                .count();
            (c.day, c.start, c.name.clone(), booked)
        })
        .collect();
    (gym.now / MINUTES_PER_DAY, classes)
}

/// The minutes each coach taught in classes held (closed, with someone who came), by coach.
fn minutes_taught(gym: &Gym) -> Vec<(String, u32)> {
    let mut taught: BTreeMap<String, u32> = BTreeMap::new();
    for class in gym.classes.iter().filter(|c| c.closed) {
        let came = gym
            .bookings
            .iter()
            .any(|b| b.class == class.id && b.status == Status::Attended);
        if came {
            *taught.entry(class.coach.clone()).or_default() += class.length;
        }
    }
    taught.into_iter().collect()
}

/// The services' memos.
pub struct Services {
    /// The outdoor classes and whether the weather moves them indoors.
    pub outdoor: AsyncMemo<Vec<String>>,
    /// What each coach is paid for the classes held.
    pub payroll: AsyncMemo<Vec<String>>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(gym: &Mvu<Gym, Msg>, slip: Slip) -> Services {
    let outdoor = match slip {
        Slip::OutdoorToday => slipped::outdoor(gym),
        _ => outdoor(gym),
    };
    let payroll = match slip {
        Slip::PayrollNoRate => slipped::payroll(gym),
        _ => payroll(gym),
    };
    Services { outdoor, payroll }
}

/// Each outdoor class still to come, with the places taken and the forecast for its day: moved indoors when rain is
/// forecast, in the park otherwise, and left open when the service has no forecast for that day yet.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn outdoor(gym: &Mvu<Gym, Msg>) -> AsyncMemo<Vec<String>> {
    let classes = gym.select(outdoor_classes);
    let outdoor = AsyncMemo::try_new(move |_| {
        let (_today, classes) = classes.get();
        async move {
            let mut lines = Vec::new();
            for (day, start, name, booked) in classes {
                let when = format!(
                    "{} {name}, {booked} booked",
                    clock(day * MINUTES_PER_DAY + start)
                );
                let line = match remote::forecast(day).await {
                    Ok(rain) if rain >= RAIN_LIMIT => {
                        format!("{when}: moved to studio {RAIN_STUDIO} ({rain} mm)")
                    }
                    Ok(rain) => format!("{when}: in the park ({rain} mm)"),
                    Err(_) => format!("{when}: no forecast yet"),
                };
                lines.push(line);
            }
            Ok::<_, String>(lines)
        }
    });
    outdoor
}

/// What each coach is paid for the classes held, at the payroll's hourly rate; a coach the payroll has no rate for
/// (a guest coach, paid on invoice) is listed as such.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn payroll(gym: &Mvu<Gym, Msg>) -> AsyncMemo<Vec<String>> {
    let taught = gym.select(minutes_taught);
    let payroll = AsyncMemo::try_new(move |_| {
        let taught = taught.get();
        async move {
            let mut lines = Vec::new();
            for (coach, minutes) in taught {
                let line = match remote::hourly_rate(&coach).await {
                    Ok(rate) => format!("{coach}: {}", money(billing::pay(rate, minutes))),
                    Err(_) => format!("{coach}: no rate, paid on invoice"),
                };
                lines.push(line);
            }
            Ok::<_, String>(lines)
        }
    });
    payroll
}

/// The services' memos with a mistake.
mod slipped {
    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::billing;
    use super::super::model::{Gym, MINUTES_PER_DAY, Msg, clock, money};
    use super::super::remote;
    use super::{RAIN_LIMIT, RAIN_STUDIO, minutes_taught, outdoor_classes};

    /// Each outdoor class still to come, with the forecast.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn outdoor(gym: &Mvu<Gym, Msg>) -> AsyncMemo<Vec<String>> {
        let classes = gym.select(outdoor_classes);
        let outdoor = AsyncMemo::try_new(move |_| {
            let (today, classes) = classes.get();
            async move {
                let mut lines = Vec::new();
                for (day, start, name, booked) in classes {
                    let when = format!(
                        "{} {name}, {booked} booked",
                        clock(day * MINUTES_PER_DAY + start)
                    );
                    // BUG(outdoor_today)
                    let line = match remote::forecast(today).await {
                        Ok(rain) if rain >= RAIN_LIMIT => {
                            format!("{when}: moved to studio {RAIN_STUDIO} ({rain} mm)")
                        }
                        Ok(rain) => format!("{when}: in the park ({rain} mm)"),
                        Err(_) => format!("{when}: no forecast yet"),
                    };
                    lines.push(line);
                }
                Ok::<_, String>(lines)
            }
        });
        outdoor
    }

    /// What each coach is paid for the classes held.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn payroll(gym: &Mvu<Gym, Msg>) -> AsyncMemo<Vec<String>> {
        let taught = gym.select(minutes_taught);
        let payroll = AsyncMemo::try_new(move |_| {
            let taught = taught.get();
            async move {
                let mut lines = Vec::new();
                for (coach, minutes) in taught {
                    // BUG(payroll_no_rate)
                    let rate = remote::hourly_rate(&coach).await.unwrap_or(0);
                    lines.push(format!("{coach}: {}", money(billing::pay(rate, minutes))));
                }
                Ok::<_, String>(lines)
            }
        });
        payroll
    }
}
