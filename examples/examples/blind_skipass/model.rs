//! The resort's model: passes, lifts, runs, the clock, and the messages the office and the lift staff send.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Opening and closing of the lifts, minutes after midnight (08:30 to 16:30).
pub mod hours {
    /// The first gate opens.
    pub const OPENS: u32 = 8 * 60 + 30;
    /// The last chair leaves.
    pub const CLOSES: u32 = 16 * 60 + 30;
    /// Days in the season (what a season pass covers).
    pub const SEASON_DAYS: u32 = 120;
}

/// An age band: what the tariff charges for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Band {
    /// Twelve and under.
    Child,
    /// Thirteen to sixty-four.
    Adult,
    /// Sixty-five and over.
    Senior,
}

impl Band {
    /// The band's name on a receipt.
    pub fn name(self) -> &'static str {
        match self {
            Band::Child => "child",
            Band::Adult => "adult",
            Band::Senior => "senior",
        }
    }
}

/// What kind of pass was sold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassKind {
    /// One or more consecutive days.
    Days,
    /// The whole season.
    Season,
}

/// A lift pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub id: u32,
    pub holder: String,
    pub band: Band,
    pub kind: PassKind,
    /// The first day it is good for (days of the season, from 1).
    pub first_day: u32,
    /// How many days it covers from `first_day`.
    pub days: u32,
    /// What was paid, in cents.
    pub price: u64,
    /// What was given back for closed days, in cents.
    pub refunded: u64,
}

impl Pass {
    /// Whether the pass is good on `day`.
    pub fn covers(&self, day: u32) -> bool {
        (self.first_day..self.first_day + self.days).contains(&day)
    }

    /// The pass as the office's list shows it.
    pub fn line(&self) -> String {
        let span = match self.kind {
            PassKind::Season => "season".to_owned(),
            PassKind::Days if self.days == 1 => format!("day {}", self.first_day),
            PassKind::Days => format!("days {}-{}", self.first_day, self.first_day + self.days - 1),
        };
        format!(
            "#{} {} ({}), {span}: {}",
            self.id,
            self.holder,
            self.band.name(),
            super::tariff::euros(self.price)
        )
    }
}

/// What kind of lift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum LiftKind {
    Gondola,
    Chair,
    Drag,
}

/// Whether a lift runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum LiftState {
    Open,
    /// Stopped because the wind is over its limit.
    Wind,
    /// Stopped for the mechanics.
    Maintenance,
}

/// A lift and its line (a row of the `lifts` value).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Lift {
    #[serde(skip)]
    pub id: u32,
    pub name: String,
    pub kind: LiftKind,
    /// Riders carried per hour.
    pub per_hour: u32,
    /// Gusts at or over this close it, km/h.
    pub wind_limit: u32,
    /// The last gust read at the top station, km/h.
    pub wind: u32,
    pub state: LiftState,
    /// People in the line, as the liftie last counted them.
    pub queue: u32,
    /// Rides scanned today.
    pub rides: u32,
}

impl Lift {
    fn new(id: u32, name: &str, kind: LiftKind, per_hour: u32, wind_limit: u32) -> Lift {
        Lift {
            id,
            name: name.to_owned(),
            kind,
            per_hour,
            wind_limit,
            wind: 0,
            state: LiftState::Maintenance,
            queue: 0,
            rides: 0,
        }
    }

    /// Riders carried per minute.
    pub fn per_minute(&self) -> u32 {
        self.per_hour / 60
    }
}

/// How hard a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grade {
    Green,
    Blue,
    Red,
    Black,
}

/// A run, and the lift that serves it.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub name: &'static str,
    pub grade: Grade,
    pub lift: u32,
}

/// A gate scan that let someone through.
#[derive(Clone, Debug, PartialEq)]
pub struct Scan {
    pub pass: u32,
    pub lift: u32,
    pub day: u32,
    pub minute: u32,
}

/// Money given back for a closed day.
#[derive(Clone, Debug, PartialEq)]
pub struct Refund {
    pub pass: u32,
    pub holder: String,
    pub day: u32,
    pub cents: u64,
}

/// The resort: the office's passes, the lifts, the runs and the day.
#[derive(Clone, Debug, PartialEq)]
pub struct Resort {
    pub day: u32,
    /// Minutes after midnight.
    pub minute: u32,
    pub passes: Vec<Pass>,
    pub lifts: Vec<Lift>,
    pub runs: Vec<Run>,
    pub scans: Vec<Scan>,
    /// Every scan, let through or refused, as the gates print it.
    pub gate_log: Vec<String>,
    pub notices: Vec<String>,
    pub refunds: Vec<Refund>,
    /// Days the whole resort stayed shut.
    pub closed_days: Vec<u32>,
    pub next_pass: u32,
}

impl Default for Resort {
    fn default() -> Self {
        Resort {
            day: 1,
            minute: hours::OPENS,
            passes: Vec::new(),
            lifts: vec![
                Lift::new(1, "Village Gondola", LiftKind::Gondola, 2400, 70),
                Lift::new(2, "Eagle Chair", LiftKind::Chair, 1800, 55),
                Lift::new(3, "Summit Chair", LiftKind::Chair, 1200, 45),
                Lift::new(4, "Nursery Drag", LiftKind::Drag, 600, 60),
                Lift::new(5, "Ridge T-bar", LiftKind::Drag, 900, 60),
            ],
            runs: vec![
                Run {
                    name: "Meadow",
                    grade: Grade::Green,
                    lift: 4,
                },
                Run {
                    name: "Gondola Trail",
                    grade: Grade::Red,
                    lift: 1,
                },
                Run {
                    name: "Eagle Bowl",
                    grade: Grade::Blue,
                    lift: 2,
                },
                Run {
                    name: "Summit Face",
                    grade: Grade::Black,
                    lift: 3,
                },
                Run {
                    name: "Ridge Couloir",
                    grade: Grade::Black,
                    lift: 5,
                },
            ],
            scans: Vec::new(),
            gate_log: Vec::new(),
            notices: Vec::new(),
            refunds: Vec::new(),
            closed_days: Vec::new(),
            next_pass: 1,
        }
    }
}

impl Resort {
    /// The clock as the boards show it.
    pub fn time(&self) -> String {
        format!("{:02}:{:02}", self.minute / 60, self.minute % 60)
    }

    pub fn lift(&self, id: u32) -> Option<&Lift> {
        self.lifts.iter().find(|lift| lift.id == id)
    }

    pub fn lift_mut(&mut self, id: u32) -> Option<&mut Lift> {
        self.lifts.iter_mut().find(|lift| lift.id == id)
    }
}

/// What the office, the gates and the lift staff send.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Sells a pass to `holder`, aged `age`: `days` days from `first_day`, or the season with `season`.
    Sell {
        holder: String,
        age: u32,
        #[message(range(min = 1, max = 14))]
        days: u32,
        #[message(range(min = 1))]
        first_day: u32,
        season: bool,
    },
    /// A pass held to the gate of `lift`.
    Scan { pass: u32, lift: u32 },
    /// A gust of `kmh` read at the top of `lift`.
    Wind { lift: u32, kmh: u32 },
    /// The liftie counted `people` in the line of `lift`.
    CountQueue { lift: u32, people: u32 },
    /// Stops `lift` for the wind (sent by a reading over the limit).
    CloseLift { lift: u32 },
    /// Runs `lift` again.
    OpenLift { lift: u32 },
    /// The clock moves on `minutes`; at closing the day ends and the next one starts at opening.
    Advance { minutes: u32 },
    /// The whole resort stays shut today: day passes get today's share back.
    CloseDay,
    /// Gives `pass` back its share of today (sent by `close_day`).
    Refund { pass: u32 },
}
