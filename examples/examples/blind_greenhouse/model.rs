//! The greenhouse's model: zones and their crops, sensor readings, irrigation schedules and the water drawn, alarms
//! and the pages sent for them, the controller's settings; and the messages that change it.

use ranvier::Messages;
use ranvier::schemars::JsonSchema;
use ranvier::serde::{Deserialize, Serialize};

/// Minutes in a day: the clock counts minutes from Monday 00:00.
pub const DAY: u32 = 24 * 60;

const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// The name of day `day` (0 is Monday).
pub fn weekday(day: u32) -> &'static str {
    WEEKDAYS[(day % 7) as usize]
}

/// A time on the clock as the screens show it: `Mon 06:00`.
pub fn clock_text(minute: u32) -> String {
    let within = minute % DAY;
    format!(
        "{} {:02}:{:02}",
        weekday(minute / DAY),
        within / 60,
        within % 60
    )
}

/// What grows in a zone.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Crop {
    /// Vine tomatoes.
    Tomato,
    /// Butterhead lettuce.
    Lettuce,
    /// Long cucumbers.
    Cucumber,
    /// Potted basil.
    Basil,
}

impl Crop {
    /// The crop's name on the screens.
    pub fn name(self) -> &'static str {
        match self {
            Crop::Tomato => "tomato",
            Crop::Lettuce => "lettuce",
            Crop::Cucumber => "cucumber",
            Crop::Basil => "basil",
        }
    }

    /// What a square metre gives over the season, in kg.
    pub fn yield_kg_m2(self) -> u32 {
        match self {
            Crop::Tomato => 40,
            Crop::Lettuce => 12,
            Crop::Cucumber => 50,
            Crop::Basil => 3,
        }
    }

    /// Whether it is picked for its leaves (from the vegetative stage on) rather than its fruit.
    pub fn leafy(self) -> bool {
        matches!(self, Crop::Lettuce | Crop::Basil)
    }
}

/// Where a crop is in its growth.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Stage {
    /// Just transplanted.
    Seedling,
    /// Growing leaves.
    Vegetative,
    /// In flower.
    Flowering,
    /// Setting and ripening fruit.
    Fruiting,
}

impl Stage {
    /// The stage's name on the screens.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Seedling => "seedling",
            Stage::Vegetative => "vegetative",
            Stage::Flowering => "flowering",
            Stage::Fruiting => "fruiting",
        }
    }

    /// Weeks until `crop` at this stage can be picked (0: now).
    pub fn weeks_to_harvest(self, crop: Crop) -> u32 {
        match (crop.leafy(), self) {
            (true, Stage::Seedling) => 3,
            (true, _) => 0,
            (false, Stage::Seedling) => 8,
            (false, Stage::Vegetative) => 5,
            (false, Stage::Flowering) => 2,
            (false, Stage::Fruiting) => 0,
        }
    }
}

/// What an alarm is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum AlarmKind {
    /// Air above the crop's band.
    TooHot,
    /// Air below the crop's band.
    TooCold,
    /// Air too humid (mould).
    TooHumid,
    /// Soil below the crop's moisture minimum.
    DrySoil,
}

impl AlarmKind {
    /// `value` against `limit`, in words.
    pub fn describe(self, value: f64, limit: f64) -> String {
        match self {
            AlarmKind::TooHot => format!("too hot: {value:.1} °C, above {limit:.1} °C"),
            AlarmKind::TooCold => format!("too cold: {value:.1} °C, below {limit:.1} °C"),
            AlarmKind::TooHumid => format!("too humid: {value:.0} %, above {limit:.0} %"),
            AlarmKind::DrySoil => format!("soil dry: {value:.0} %, below {limit:.0} %"),
        }
    }
}

/// A zone's sensors at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Air temperature, °C.
    pub celsius: f64,
    /// Relative humidity, %.
    pub humidity: u32,
    /// Soil moisture, % of field capacity.
    pub soil: u32,
    /// When it was taken (clock minute).
    pub at: u32,
}

/// A bed of the greenhouse, with its crop.
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    /// Its name (`A1`).
    pub id: String,
    /// What grows there.
    pub crop: Crop,
    /// How far it is.
    pub stage: Stage,
    /// Its area, m².
    pub area_m2: u32,
    /// The last reading of its sensors.
    pub reading: Option<Reading>,
    /// Until when its valve is open (clock minute).
    pub valve_until: Option<u32>,
    /// Picked so far this season, kg.
    pub harvested_kg: u32,
}

impl Zone {
    /// A zone just planted with `crop` at `stage`.
    pub fn planted(id: &str, crop: Crop, stage: Stage, area_m2: u32) -> Self {
        Zone {
            id: id.to_owned(),
            crop,
            stage,
            area_m2,
            reading: None,
            valve_until: None,
            harvested_kg: 0,
        }
    }

    /// Whether its valve is open at `now`.
    pub fn irrigating(&self, now: u32) -> bool {
        self.valve_until.is_some_and(|until| now < until)
    }
}

/// A daily irrigation run of one zone.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The zone watered.
    pub zone: String,
    /// Start, in minutes after midnight.
    pub start: u32,
    /// How long the valve stays open.
    pub minutes: u32,
    /// Off schedules stay listed but do not run.
    pub enabled: bool,
}

impl Schedule {
    /// A run of `zone` every day at `start` (minutes after midnight) for `minutes`.
    pub fn new(zone: &str, start: u32, minutes: u32) -> Self {
        Schedule {
            zone: zone.to_owned(),
            start,
            minutes,
            enabled: true,
        }
    }
}

/// Water drawn from the mains for a zone.
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    /// The zone watered.
    pub zone: String,
    /// When (clock minute).
    pub at: u32,
    /// Litres.
    pub litres: u32,
}

/// A reading outside a crop's band, until a grower acknowledges it.
#[derive(Clone, Debug, PartialEq)]
pub struct Alarm {
    /// Its number.
    pub id: u32,
    /// The zone.
    pub zone: String,
    /// What is wrong.
    pub kind: AlarmKind,
    /// The value read.
    pub value: f64,
    /// The band's limit it crossed.
    pub limit: f64,
    /// When it was raised (clock minute).
    pub raised_at: u32,
    /// A grower has seen it.
    pub acknowledged: bool,
    /// The on-call grower was paged.
    pub escalated: bool,
}

impl Alarm {
    /// Whether the alarm waited `after` minutes at `now` with nobody acknowledging it, and was not escalated yet.
    pub fn overdue(&self, now: u32, after: u32) -> bool {
        !self.acknowledged && !self.escalated && now.saturating_sub(self.raised_at) >= after
    }

    /// `#3 A1 too hot: 31.0 °C, above 28.0 °C`.
    pub fn summary(&self) -> String {
        format!(
            "#{} {} {}",
            self.id,
            self.zone,
            self.kind.describe(self.value, self.limit)
        )
    }

    /// The alarm's line on the alarm screen.
    pub fn line(&self) -> String {
        let mut line = format!("{}, since {}", self.summary(), clock_text(self.raised_at));
        if self.escalated {
            line.push_str(", escalated");
        }
        line
    }
}

/// How the controller runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// What an open valve delivers, litres per minute.
    pub flow_l_per_min: u32,
    /// Minutes an alarm may stay unacknowledged before the on-call grower is paged.
    pub escalate_after: u32,
    /// The site the weather service forecasts for.
    pub site: String,
    /// The account at the water utility.
    pub account: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            flow_l_per_min: 12,
            escalate_after: 30,
            site: "westland-3".to_owned(),
            account: "WL-0042".to_owned(),
        }
    }
}

/// The whole greenhouse.
#[derive(Clone, Debug, PartialEq)]
pub struct Greenhouse {
    /// The clock, minutes from Monday 00:00.
    pub now: u32,
    /// The zones, in the order planted.
    pub zones: Vec<Zone>,
    /// The irrigation schedules.
    pub schedules: Vec<Schedule>,
    /// Water drawn this week.
    pub draws: Vec<Draw>,
    /// Every alarm raised, oldest first.
    pub alarms: Vec<Alarm>,
    /// The number the next alarm gets.
    pub next_alarm: u32,
    /// Pages sent to the on-call grower.
    pub pages: Vec<String>,
    /// How the controller runs.
    pub settings: Settings,
}

impl Default for Greenhouse {
    /// The controller switched on: Monday 06:00, nothing planted.
    fn default() -> Self {
        Greenhouse {
            now: 6 * 60,
            zones: Vec::new(),
            schedules: Vec::new(),
            draws: Vec::new(),
            alarms: Vec::new(),
            next_alarm: 1,
            pages: Vec::new(),
            settings: Settings::default(),
        }
    }
}

impl Greenhouse {
    /// The zone named `id`.
    pub fn zone(&self, id: &str) -> Option<&Zone> {
        self.zones.iter().find(|zone| zone.id == id)
    }

    /// The zone named `id`, to change.
    pub fn zone_mut(&mut self, id: &str) -> Option<&mut Zone> {
        self.zones.iter_mut().find(|zone| zone.id == id)
    }

    /// The unacknowledged alarm of `kind` in `zone`, if any.
    pub fn open_alarm(&self, zone: &str, kind: AlarmKind) -> Option<&Alarm> {
        self.alarms
            .iter()
            .find(|alarm| alarm.zone == zone && alarm.kind == kind && !alarm.acknowledged)
    }

    /// How many alarms of `zone` wait for a grower.
    pub fn open_alarms(&self, zone: &str) -> u32 {
        let open = self
            .alarms
            .iter()
            .filter(|alarm| alarm.zone == zone && !alarm.acknowledged)
            .count();
        u32::try_from(open).unwrap_or(u32::MAX)
    }
}

/// What the growers (and the controller itself) send.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Plants `crop` at `stage` in `zone` (a new zone, or replanting one).
    Plant {
        /// The zone.
        zone: String,
        /// What is planted.
        crop: Crop,
        /// How far the plants are.
        stage: Stage,
        /// The zone's area, m².
        #[message(range(min = 1))]
        area_m2: u32,
    },
    /// Moves a zone's crop to `stage`.
    SetStage {
        /// The zone.
        zone: String,
        /// The new stage.
        stage: Stage,
    },
    /// A zone's sensors report.
    Reading {
        /// The zone.
        zone: String,
        /// Air temperature, °C.
        celsius: f64,
        /// Relative humidity, %.
        #[message(range(min = 0, max = 100))]
        humidity: u32,
        /// Soil moisture, %.
        #[message(range(min = 0, max = 100))]
        soil: u32,
    },
    /// Waters `zone` every day at `start` (`HH:MM`) for `minutes`.
    Schedule {
        /// The zone.
        zone: String,
        /// `HH:MM`.
        start: String,
        /// How long, 1 to 240 minutes.
        #[message(range(min = 1, max = 240))]
        minutes: u32,
    },
    /// The clock moves on `minutes`: schedules that fall due run, unacknowledged alarms escalate.
    Advance {
        /// Minutes.
        #[message(range(min = 1))]
        minutes: u32,
    },
    /// Opens a zone's valve for `minutes` (by hand, or sent by a schedule or a dry reading).
    OpenValve {
        /// The zone.
        zone: String,
        /// How long, 1 to 240 minutes.
        #[message(range(min = 1, max = 240))]
        minutes: u32,
    },
    /// A grower has seen alarm `alarm`.
    Acknowledge {
        /// The alarm's number.
        alarm: u32,
    },
    /// `kg` picked in `zone`.
    Harvest {
        /// The zone.
        zone: String,
        /// Kilograms.
        #[message(range(min = 1))]
        kg: u32,
    },
    /// Raises an alarm (sent by a reading outside the band).
    RaiseAlarm {
        /// The zone.
        zone: String,
        /// What is wrong.
        kind: AlarmKind,
        /// The value read.
        value: f64,
        /// The limit crossed.
        limit: f64,
    },
    /// Pages the on-call grower about an alarm (sent by the clock).
    Escalate {
        /// The alarm's number.
        alarm: u32,
    },
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::Alarm;

    /// [`Alarm::overdue`] with a mistake.
    pub fn overdue(alarm: &Alarm, now: u32, after: u32) -> bool {
        // BUG(acknowledged_paged)
        !alarm.escalated && now.saturating_sub(alarm.raised_at) >= after
    }
}
