//! The zone board: the zones as a keyed collection (`ranvier::collection`), one row per zone with its status line as
//! the row's memo, and the views the board is made of: the zones that need water, how many are in alarm, and the
//! order the board lists them in (most alarms first, then the driest).

use super::climate::Band;
use super::model::{Crop, Greenhouse, Stage};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu};
use std::cmp::Reverse;
use std::rc::Rc;

/// A zone as the board sees it (a row of the `zones` value).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct ZoneRow {
    /// The zone (the row's key).
    #[serde(skip)]
    pub zone: String,
    /// What grows there.
    pub crop: Crop,
    /// How far it is.
    pub stage: Stage,
    /// Its area, m².
    pub area_m2: u32,
    /// The band its crop wants now.
    pub band: Band,
    /// Last air temperature, °C.
    pub celsius: Option<f64>,
    /// Last relative humidity, %.
    pub humidity: Option<u32>,
    /// Last soil moisture, %.
    pub soil: Option<u32>,
    /// Alarms waiting for a grower.
    pub open_alarms: u32,
}

impl ZoneRow {
    /// Whether its last reading found the soil below the band.
    pub fn is_dry(&self) -> bool {
        self.soil.is_some_and(|soil| soil < self.band.soil_min)
    }
}

/// The zones, keyed by name, each row's memo its status line.
pub type Zones = Collection<String, ZoneRow, (&'static str, Memo<String>)>;

/// The zones of `greenhouse` as board rows, each with the band `band` gives its crop.
pub fn zone_rows(
    greenhouse: &Mvu<Greenhouse, super::model::Msg>,
    band: fn(Crop, Stage) -> Band,
) -> Memo<Vec<ZoneRow>> {
    greenhouse.select(move |gh| {
        gh.zones
            .iter()
            .map(|zone| {
                let reading = zone.reading.as_ref();
                ZoneRow {
                    zone: zone.id.clone(),
                    crop: zone.crop,
                    stage: zone.stage,
                    area_m2: zone.area_m2,
                    band: band(zone.crop, zone.stage),
                    celsius: reading.map(|r| r.celsius),
                    humidity: reading.map(|r| r.humidity),
                    soil: reading.map(|r| r.soil),
                    open_alarms: gh.open_alarms(&zone.id),
                }
            })
            .collect()
    })
}

/// A zone's row: its status line (the node `zones[A1]/status`).
pub fn status_row(row: &Row<String, ZoneRow>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let status = Memo::new(move |_| {
        row.with(|z| {
            let head = format!("{} {} ({})", z.zone, z.crop.name(), z.stage.name());
            let (Some(celsius), Some(humidity), Some(soil)) = (z.celsius, z.humidity, z.soil)
            else {
                return format!("{head}: no reading yet");
            };
            let band = &z.band;
            let air = if celsius > band.max_c {
                format!("{celsius:.1} °C, too hot")
            } else if celsius < band.min_c {
                format!("{celsius:.1} °C, too cold")
            } else {
                format!("{celsius:.1} °C")
            };
            let ground = if soil < band.soil_min {
                let short = band.soil_min.saturating_sub(soil);
                format!("soil {soil} %, {short} points dry")
            } else if soil > band.soil_max {
                format!("soil {soil} %, waterlogged")
            } else {
                format!("soil {soil} %")
            };
            let alarms = match z.open_alarms {
                0 => String::new(),
                1 => ", 1 alarm".to_owned(),
                n => format!(", {n} alarms"),
            };
            format!("{head}: {air}, {humidity} % humidity, {ground}{alarms}")
        })
    })
    .labelled("status");
    ("status", status)
}

/// The zones whose soil is below their band.
pub fn thirsty(zones: &Zones) -> Filter<String> {
    zones.filter(|z| z.is_dry())
}

/// The board's order: most open alarms first, then the driest soil (zones not read yet last).
pub fn by_need(zones: &Zones) -> Memo<Rc<[String]>> {
    zones.sort_by(|z| (Reverse(z.open_alarms), z.soil.unwrap_or(u32::MAX)))
}

/// The board: each zone's status line, in `order`.
pub fn board(zones: &Zones, order: &Memo<Rc<[String]>>) -> Memo<Vec<String>> {
    let (zones, order) = (zones.clone(), order.clone());
    Memo::new(move |_| {
        order
            .get()
            .iter()
            .filter_map(|key| zones.row(key))
            .map(|(_, status)| status.get())
            .collect()
    })
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::{ZoneRow, Zones};
    use ranvier::Memo;
    use ranvier::collection::{Filter, Row};
    use std::rc::Rc;

    /// [`status_row`](super::status_row) with a mistake.
    pub fn status_row(row: &Row<String, ZoneRow>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let status = Memo::new(move |_| {
            row.with(|z| {
                let head = format!("{} {} ({})", z.zone, z.crop.name(), z.stage.name());
                let (Some(celsius), Some(humidity), Some(soil)) = (z.celsius, z.humidity, z.soil)
                else {
                    return format!("{head}: no reading yet");
                };
                let band = &z.band;
                let air = if celsius > band.max_c {
                    format!("{celsius:.1} °C, too hot")
                } else if celsius < band.min_c {
                    format!("{celsius:.1} °C, too cold")
                } else {
                    format!("{celsius:.1} °C")
                };
                let ground = if soil < band.soil_min {
                    // BUG(dry_points)
                    let short = band.soil_min.saturating_sub(humidity);
                    format!("soil {soil} %, {short} points dry")
                } else if soil > band.soil_max {
                    format!("soil {soil} %, waterlogged")
                } else {
                    format!("soil {soil} %")
                };
                let alarms = match z.open_alarms {
                    0 => String::new(),
                    1 => ", 1 alarm".to_owned(),
                    n => format!(", {n} alarms"),
                };
                format!("{head}: {air}, {humidity} % humidity, {ground}{alarms}")
            })
        })
        .labelled("status");
        ("status", status)
    }

    /// [`thirsty`](super::thirsty) with a mistake.
    pub fn thirsty(zones: &Zones) -> Filter<String> {
        // BUG(thirsty_inverted)
        zones.filter(|z| !z.is_dry())
    }

    /// [`by_need`](super::by_need) with a mistake.
    pub fn by_need(zones: &Zones) -> Memo<Rc<[String]>> {
        // BUG(board_alarms_last)
        zones.sort_by(|z| (z.open_alarms, z.soil.unwrap_or(u32::MAX)))
    }
}
