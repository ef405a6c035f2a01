//! The greenhouse's `update`: one arm per message, the helpers the longer arms call, and the commands they send
//! (valves to open, alarms to raise, pages to send), dispatched by `Mvu::with_commands` after the model is written.

use super::climate::{self, Band};
use super::irrigation::{self, Run};
use super::model::{Alarm, Crop, Greenhouse, Msg, Reading, Schedule, Stage, Zone, clock_text};

/// The rules `update` and the graph apply, as the controller was built with them.
#[derive(Clone, Copy)]
pub struct Rules {
    /// The band a crop wants at a stage.
    pub band: fn(Crop, Stage) -> Band,
    /// The scheduled runs that fall due while the clock moves.
    pub due_runs: fn(&[Schedule], u32, u32) -> Vec<Run>,
    /// Whether an alarm is overdue for a page.
    pub overdue: fn(&Alarm, u32, u32) -> bool,
    /// What `advance` does.
    pub on_advance: fn(&mut Greenhouse, u32, &Rules) -> Vec<Msg>,
    /// What `schedule` does.
    pub add_schedule: fn(&mut Greenhouse, &str, &str, u32),
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            band: climate::band,
            due_runs: irrigation::due_runs,
            overdue: Alarm::overdue,
            on_advance,
            add_schedule,
        }
    }
}

/// The greenhouse after `msg`, and the messages to dispatch next.
pub fn update(rules: &Rules, msg: Msg, greenhouse: &Greenhouse) -> (Greenhouse, Vec<Msg>) {
    let mut next = greenhouse.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Plant {
            zone,
            crop,
            stage,
            area_m2,
        } => match next.zone_mut(&zone) {
            Some(bed) => *bed = Zone::planted(&zone, crop, stage, area_m2),
            None => next.zones.push(Zone::planted(&zone, crop, stage, area_m2)),
        },
        Msg::SetStage { zone, stage } => zone_or_refuse(&mut next, &zone).stage = stage,
        Msg::Reading {
            zone,
            celsius,
            humidity,
            soil,
        } => {
            let reading = Reading {
                celsius,
                humidity,
                soil,
                at: next.now,
            };
            commands = on_reading(&mut next, &zone, reading, rules);
        }
        Msg::Schedule {
            zone,
            start,
            minutes,
        } => (rules.add_schedule)(&mut next, &zone, &start, minutes),
        Msg::Advance { minutes } => commands = (rules.on_advance)(&mut next, minutes, rules),
        Msg::OpenValve { zone, minutes } => open_valve(&mut next, &zone, minutes),
        Msg::Acknowledge { alarm } => match next.alarms.iter_mut().find(|a| a.id == alarm) {
            Some(alarm) => alarm.acknowledged = true,
            None => refuse(format!("no alarm #{alarm}")),
        },
        Msg::Harvest { zone, kg } => zone_or_refuse(&mut next, &zone).harvested_kg += kg,
        Msg::RaiseAlarm {
            zone,
            kind,
            value,
            limit,
        } => {
            let id = next.next_alarm;
            next.next_alarm += 1;
            next.alarms.push(Alarm {
                id,
                zone,
                kind,
                value,
                limit,
                raised_at: next.now,
                acknowledged: false,
                escalated: false,
            });
        }
        Msg::Escalate { alarm } => escalate(&mut next, alarm),
    }
    (next, commands)
}

/// The zone named `id`, or the message is refused.
fn zone_or_refuse<'a>(greenhouse: &'a mut Greenhouse, id: &str) -> &'a mut Zone {
    match greenhouse.zone_mut(id) {
        Some(zone) => zone,
        None => refuse(format!("no zone {id:?}")),
    }
}

/// Stores a zone's reading; raises an alarm for each breach of its band not already open, and opens the valve of a
/// dry zone that is not being watered.
fn on_reading(next: &mut Greenhouse, id: &str, reading: Reading, rules: &Rules) -> Vec<Msg> {
    let now = next.now;
    let flow = next.settings.flow_l_per_min;
    let zone = zone_or_refuse(next, id);
    zone.reading = Some(reading.clone());
    let band = (rules.band)(zone.crop, zone.stage);
    let top_up = if zone.irrigating(now) {
        None
    } else {
        irrigation::top_up_minutes(&band, reading.soil, zone.area_m2, flow)
    };
    let mut commands: Vec<Msg> = climate::assess(&band, &reading)
        .into_iter()
        .filter(|breach| next.open_alarm(id, breach.kind).is_none())
        .map(|breach| Msg::RaiseAlarm {
            zone: id.to_owned(),
            kind: breach.kind,
            value: breach.value,
            limit: breach.limit,
        })
        .collect();
    if let Some(minutes) = top_up {
        commands.push(Msg::OpenValve {
            zone: id.to_owned(),
            minutes,
        });
    }
    commands
}

/// Moves the clock on `minutes`: valves whose time is up close, the schedules that fall due open theirs, and each
/// alarm nobody acknowledged in time is escalated.
pub fn on_advance(next: &mut Greenhouse, minutes: u32, rules: &Rules) -> Vec<Msg> {
    let (from, to) = (next.now, next.now + minutes);
    next.now = to;
    for zone in &mut next.zones {
        if zone.valve_until.is_some_and(|until| until <= to) {
            zone.valve_until = None;
        }
    }
    let mut commands: Vec<Msg> = (rules.due_runs)(&next.schedules, from, to)
        .into_iter()
        .map(|run| Msg::OpenValve {
            zone: run.zone,
            minutes: run.minutes,
        })
        .collect();
    let after = next.settings.escalate_after;
    for alarm in &next.alarms {
        if (rules.overdue)(alarm, to, after) {
            commands.push(Msg::Escalate { alarm: alarm.id });
        }
    }
    commands
}

/// Adds a daily run of `zone` at `start` (`HH:MM`) for `minutes`, in place of one at the same time.
pub fn add_schedule(next: &mut Greenhouse, zone: &str, start: &str, minutes: u32) {
    if next.zone(zone).is_none() {
        refuse(format!("no zone {zone:?}"));
    }
    let start = parse_start(start).unwrap_or_else(|why| refuse(why));
    next.schedules
        .retain(|schedule| !(schedule.zone == zone && schedule.start == start));
    next.schedules.push(Schedule::new(zone, start, minutes));
}

/// `HH:MM` as minutes after midnight.
fn parse_start(text: &str) -> Result<u32, String> {
    let bad = || format!("start must be HH:MM, 00:00 to 23:59, got {text:?}");
    let (hours, minutes) = text.split_once(':').ok_or_else(bad)?;
    let hours: u32 = hours.parse().map_err(|_| bad())?;
    let minutes: u32 = minutes.parse().map_err(|_| bad())?;
    if hours > 23 || minutes > 59 {
        return Err(bad());
    }
    Ok(hours * 60 + minutes)
}

/// Opens `zone`'s valve for `minutes` and books the water drawn.
fn open_valve(next: &mut Greenhouse, zone: &str, minutes: u32) {
    let now = next.now;
    let litres = minutes * next.settings.flow_l_per_min;
    zone_or_refuse(next, zone).valve_until = Some(now + minutes);
    next.draws.push(super::model::Draw {
        zone: zone.to_owned(),
        at: now,
        litres,
    });
}

/// Marks alarm `id` escalated and pages the on-call grower.
fn escalate(next: &mut Greenhouse, id: u32) {
    let now = next.now;
    let Some(alarm) = next.alarms.iter_mut().find(|alarm| alarm.id == id) else {
        refuse(format!("no alarm #{id}"))
    };
    alarm.escalated = true;
    let page = format!("{} paged the grower: {}", clock_text(now), alarm.summary());
    next.pages.push(page);
}

/// Refuses the message being applied: the dispatcher answers `reason` and the greenhouse is unchanged.
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::super::model::{Greenhouse, Msg, Schedule};
    use super::{Rules, parse_start, refuse};

    /// [`on_advance`](super::on_advance) with a mistake.
    pub fn on_advance(next: &mut Greenhouse, minutes: u32, rules: &Rules) -> Vec<Msg> {
        let (from, to) = (next.now, next.now + minutes);
        next.now = to;
        for zone in &mut next.zones {
            if zone.valve_until.is_some_and(|until| until <= to) {
                zone.valve_until = None;
            }
        }
        let commands: Vec<Msg> = (rules.due_runs)(&next.schedules, from, to)
            .into_iter()
            .map(|run| Msg::OpenValve {
                zone: run.zone,
                minutes: run.minutes,
            })
            .collect();
        let after = next.settings.escalate_after;
        for alarm in &mut next.alarms {
            if (rules.overdue)(alarm, to, after) {
                // BUG(escalate_in_place)
                alarm.escalated = true;
            }
        }
        commands
    }

    /// [`add_schedule`](super::add_schedule) with a mistake.
    pub fn add_schedule(next: &mut Greenhouse, zone: &str, start: &str, minutes: u32) {
        if next.zone(zone).is_none() {
            refuse(format!("no zone {zone:?}"));
        }
        let start = parse_start(start).unwrap_or_else(|why| refuse(why));
        next.schedules
            .retain(|schedule| !(schedule.zone == zone && schedule.start == start));
        // BUG(schedule_swapped)
        next.schedules.push(Schedule::new(zone, minutes, start));
    }
}
