//! The greenhouse's graph: the `#[expose]` app (what the growers' screens and an agent see), the `#[node]` builder,
//! and the screens' memos: the clock, the open alarms, the pages sent, the water drawn, the irrigation plan for the
//! next 24 hours and the season's harvest plan.

use super::climate::{self, Band};
use super::irrigation;
use super::model::{self, Alarm, Crop, Greenhouse, Msg, Schedule, Stage, Zone, clock_text};
use super::services::{self, Bill};
use super::update::{self, Rules};
use super::zones::{self, ZoneRow, Zones};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

/// Which version of the controller to build: the correct one, or one with a mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct controller.
    None,
    /// See `SLIPS` in `main.rs`.
    AcknowledgedPaged,
    /// See `SLIPS` in `main.rs`.
    EscalateInPlace,
    /// See `SLIPS` in `main.rs`.
    ScheduleSwapped,
    /// See `SLIPS` in `main.rs`.
    LettuceCold,
    /// See `SLIPS` in `main.rs`.
    RunAtEnd,
    /// See `SLIPS` in `main.rs`.
    DryPoints,
    /// See `SLIPS` in `main.rs`.
    ThirstyInverted,
    /// See `SLIPS` in `main.rs`.
    BoardAlarmsLast,
    /// See `SLIPS` in `main.rs`.
    HarvestTotal,
    /// See `SLIPS` in `main.rs`.
    PlanHumidity,
    /// See `SLIPS` in `main.rs`.
    ShoulderFree,
    /// See `SLIPS` in `main.rs`.
    FrostTenths,
}

/// The greenhouse as the screens and an agent see it.
#[expose]
pub struct GreenhouseApp {
    /// The model and its messages.
    #[expose(messages)]
    pub greenhouse: Mvu<Greenhouse, Msg>,
    /// The clock (`Mon 06:00`).
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// The alarms waiting for a grower.
    #[expose]
    #[node]
    pub alarms: Memo<Vec<String>>,
    /// The pages sent to the on-call grower.
    #[expose]
    #[node]
    pub pages: Memo<Vec<String>>,
    /// Litres drawn this week.
    #[expose]
    #[node]
    pub water_used: Memo<u32>,
    /// The runs of the next 24 hours.
    #[expose]
    #[node]
    pub irrigation_plan: Memo<Vec<String>>,
    /// The season's yields per zone, and in all.
    #[expose]
    #[node]
    pub harvest_plan: Memo<Vec<String>>,
    /// The zones, one row per zone with its status line.
    #[expose]
    #[node]
    pub zones: Zones,
    /// The zones whose soil is below their band.
    #[expose]
    #[node]
    pub thirsty: Memo<Vec<String>>,
    /// How many zones have an alarm open.
    #[expose]
    #[node]
    pub zones_in_alarm: Memo<usize>,
    /// The zone board: status lines, most alarms first, then the driest.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// Tomorrow night's heating, from the weather service.
    #[expose]
    #[node]
    pub frost_watch: AsyncMemo<Vec<String>>,
    /// This week's water bill, from the utility.
    #[expose]
    #[node]
    pub water_bill: AsyncMemo<Bill>,
}

/// The rules the controller is built with.
fn rules(slip: Slip) -> Rules {
    let mut rules = Rules::default();
    match slip {
        Slip::AcknowledgedPaged => rules.overdue = model::slipped::overdue,
        Slip::EscalateInPlace => rules.on_advance = update::slipped::on_advance,
        Slip::ScheduleSwapped => rules.add_schedule = update::slipped::add_schedule,
        Slip::LettuceCold => rules.band = climate::slipped::band,
        Slip::RunAtEnd => rules.due_runs = irrigation::slipped::due_runs,
        _ => {}
    }
    rules
}

/// What the controller does when switched on: plants the four zones and sets their daily runs.
fn switched_on() -> Vec<Msg> {
    let plant = |zone: &str, crop, stage, area_m2| Msg::Plant {
        zone: zone.to_owned(),
        crop,
        stage,
        area_m2,
    };
    let schedule = |zone: &str, start: &str, minutes| Msg::Schedule {
        zone: zone.to_owned(),
        start: start.to_owned(),
        minutes,
    };
    vec![
        plant("A1", Crop::Tomato, Stage::Fruiting, 120),
        plant("A2", Crop::Lettuce, Stage::Vegetative, 80),
        plant("B1", Crop::Cucumber, Stage::Flowering, 100),
        plant("B2", Crop::Basil, Stage::Seedling, 40),
        schedule("A1", "06:30", 15),
        schedule("A2", "07:00", 10),
        schedule("B1", "06:30", 20),
        schedule("B1", "18:00", 10),
        schedule("B2", "08:00", 5),
    ]
}

/// Builds the controller with `slip`; `#[node]` names each node after its `let`.
#[node]
pub fn greenhouse_app(slip: Slip) -> GreenhouseApp {
    let rules = rules(slip);
    let greenhouse = Mvu::with_commands((Greenhouse::default(), switched_on()), move |msg, gh| {
        update::update(&rules, msg, gh)
    });
    let clock = greenhouse.select(|gh| clock_text(gh.now));
    let alarms = greenhouse.select(|gh| {
        gh.alarms
            .iter()
            .filter(|alarm| !alarm.acknowledged)
            .map(Alarm::line)
            .collect::<Vec<_>>()
    });
    let pages = greenhouse.select(|gh| gh.pages.clone());
    let water_used = greenhouse.select(|gh| gh.draws.iter().map(|draw| draw.litres).sum::<u32>());
    let irrigation_plan = if slip == Slip::PlanHumidity {
        slipped::irrigation_plan(&greenhouse, rules.band)
    } else {
        irrigation_plan(&greenhouse, rules.band)
    };
    let harvest_plan = if slip == Slip::HarvestTotal {
        slipped::harvest_plan(&greenhouse)
    } else {
        harvest_plan(&greenhouse)
    };
    let rows = zones::zone_rows(&greenhouse, rules.band);
    let zones: Zones = if slip == Slip::DryPoints {
        Zones::keyed(
            rows,
            |z: &ZoneRow| z.zone.clone(),
            zones::slipped::status_row,
        )
    } else {
        Zones::keyed(rows, |z: &ZoneRow| z.zone.clone(), zones::status_row)
    };
    let dry = if slip == Slip::ThirstyInverted {
        zones::slipped::thirsty(&zones)
    } else {
        zones::thirsty(&zones)
    };
    let thirsty = {
        let keys = dry.keys();
        Memo::new(move |_| keys.get().to_vec())
    };
    let zones_in_alarm = zones.count_by(|z| z.open_alarms > 0);
    let order = if slip == Slip::BoardAlarmsLast {
        zones::slipped::by_need(&zones)
    } else {
        zones::by_need(&zones)
    };
    let board = zones::board(&zones, &order);
    let frost_watch = if slip == Slip::FrostTenths {
        services::slipped::frost_watch(&greenhouse, rules.band)
    } else {
        services::frost_watch(&greenhouse, rules.band)
    };
    let water_bill = if slip == Slip::ShoulderFree {
        services::slipped::water_bill(&greenhouse)
    } else {
        services::water_bill(&greenhouse)
    };
    GreenhouseApp {
        greenhouse,
        clock,
        alarms,
        pages,
        water_used,
        irrigation_plan,
        harvest_plan,
        zones,
        thirsty,
        zones_in_alarm,
        board,
        frost_watch,
        water_bill,
    }
}

/// The runs of the next 24 hours in time order, each with the water it will draw, or skipped when the zone's last
/// reading found its soil at the top of its band; then the litres in all.
pub fn irrigation_plan(
    greenhouse: &Mvu<Greenhouse, Msg>,
    band: fn(Crop, Stage) -> Band,
) -> Memo<Vec<String>> {
    greenhouse.select(move |gh| {
        let mut runs: Vec<(u32, &Schedule)> = gh
            .schedules
            .iter()
            .filter(|schedule| schedule.enabled)
            .map(|schedule| (irrigation::next_run(schedule, gh.now), schedule))
            .collect();
        runs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.zone.cmp(&b.1.zone)));
        let mut lines = Vec::with_capacity(runs.len() + 1);
        let mut total_l = 0;
        for (at, schedule) in runs {
            let Some(zone) = gh.zone(&schedule.zone) else {
                continue;
            };
            let soil_max = band(zone.crop, zone.stage).soil_max;
            let wet = zone.reading.as_ref().filter(|r| r.soil >= soil_max);
            lines.push(match wet {
                Some(reading) => format!(
                    "{} {}: skipped, soil {} %",
                    clock_text(at),
                    zone.id,
                    reading.soil
                ),
                None => {
                    let litres = schedule.minutes * gh.settings.flow_l_per_min;
                    total_l += litres;
                    format!(
                        "{} {}: {} min, {litres} L",
                        clock_text(at),
                        zone.id,
                        schedule.minutes
                    )
                }
            });
        }
        lines.push(format!("next 24 h: {total_l} L"));
        lines
    })
}

/// The season's totals over the zones.
#[derive(Debug, Default)]
pub struct Season {
    /// What the zones should give, kg.
    pub expected_kg: u32,
    /// What has been picked, kg.
    pub harvested_kg: u32,
}

impl Season {
    /// `season: 10880 kg expected, 35 kg in (0.3 %)`.
    pub fn line(&self) -> String {
        let share = if self.expected_kg == 0 {
            0.0
        } else {
            f64::from(self.harvested_kg) * 100.0 / f64::from(self.expected_kg)
        };
        format!(
            "season: {} kg expected, {} kg in ({share:.1} %)",
            self.expected_kg, self.harvested_kg
        )
    }
}

/// Each zone's season: what its area should give, what is in, what is to come and when it can be picked; then the
/// greenhouse's totals.
pub fn harvest_plan(greenhouse: &Mvu<Greenhouse, Msg>) -> Memo<Vec<String>> {
    greenhouse.select(|gh| {
        let mut lines = Vec::with_capacity(gh.zones.len() + 1);
        let mut season = Season::default();
        for zone in &gh.zones {
            let Zone {
                id,
                crop,
                stage,
                area_m2,
                harvested_kg: picked,
                ..
            } = zone;
            let expected = area_m2 * crop.yield_kg_m2();
            let when = match stage.weeks_to_harvest(*crop) {
                0 => "picking now".to_owned(),
                1 => "ready next week".to_owned(),
                weeks => format!("ready in {weeks} weeks"),
            };
            let left = expected.saturating_sub(*picked);
            lines.push(format!(
                "{id} {}: {expected} kg expected, {picked} kg in, {left} kg to come, {when}",
                crop.name()
            ));
            season.expected_kg += expected;
            season.harvested_kg += picked;
        }
        lines.push(season.line());
        lines
    })
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::super::climate::Band;
    use super::super::irrigation;
    use super::super::model::{Crop, Greenhouse, Msg, Schedule, Stage, Zone, clock_text};
    use super::Season;
    use ranvier::{Memo, Mvu};

    /// [`irrigation_plan`](super::irrigation_plan) with a mistake.
    pub fn irrigation_plan(
        greenhouse: &Mvu<Greenhouse, Msg>,
        band: fn(Crop, Stage) -> Band,
    ) -> Memo<Vec<String>> {
        greenhouse.select(move |gh| {
            let mut runs: Vec<(u32, &Schedule)> = gh
                .schedules
                .iter()
                .filter(|schedule| schedule.enabled)
                .map(|schedule| (irrigation::next_run(schedule, gh.now), schedule))
                .collect();
            runs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.zone.cmp(&b.1.zone)));
            let mut lines = Vec::with_capacity(runs.len() + 1);
            let mut total_l = 0;
            for (at, schedule) in runs {
                let Some(zone) = gh.zone(&schedule.zone) else {
                    continue;
                };
                let soil_max = band(zone.crop, zone.stage).soil_max;
                // BUG(plan_humidity)
                let wet = zone.reading.as_ref().filter(|r| r.humidity >= soil_max);
                lines.push(match wet {
                    Some(reading) => format!(
                        "{} {}: skipped, soil {} %",
                        clock_text(at),
                        zone.id,
                        reading.soil
                    ),
                    None => {
                        let litres = schedule.minutes * gh.settings.flow_l_per_min;
                        total_l += litres;
                        format!(
                            "{} {}: {} min, {litres} L",
                            clock_text(at),
                            zone.id,
                            schedule.minutes
                        )
                    }
                });
            }
            lines.push(format!("next 24 h: {total_l} L"));
            lines
        })
    }

    /// [`harvest_plan`](super::harvest_plan) with a mistake.
    pub fn harvest_plan(greenhouse: &Mvu<Greenhouse, Msg>) -> Memo<Vec<String>> {
        greenhouse.select(|gh| {
            let mut lines = Vec::with_capacity(gh.zones.len() + 1);
            let mut season = Season::default();
            for zone in &gh.zones {
                let Zone {
                    id,
                    crop,
                    stage,
                    area_m2,
                    harvested_kg: picked,
                    ..
                } = zone;
                let expected = area_m2 * crop.yield_kg_m2();
                let when = match stage.weeks_to_harvest(*crop) {
                    0 => "picking now".to_owned(),
                    1 => "ready next week".to_owned(),
                    weeks => format!("ready in {weeks} weeks"),
                };
                let left = expected.saturating_sub(*picked);
                lines.push(format!(
                    "{id} {}: {expected} kg expected, {picked} kg in, {left} kg to come, {when}",
                    crop.name()
                ));
                season.expected_kg += expected;
                // BUG(harvest_total)
                season.expected_kg += picked;
            }
            lines.push(season.line());
            lines
        })
    }
}
