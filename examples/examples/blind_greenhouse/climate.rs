//! Climate rules: the band each crop wants at each stage, and how a reading falls outside it.

use super::model::{AlarmKind, Crop, Reading, Stage};
use ranvier::serde::Serialize;

/// What a crop at a stage wants.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Band {
    /// Lowest air temperature, °C.
    pub min_c: f64,
    /// Highest air temperature, °C.
    pub max_c: f64,
    /// Highest relative humidity, %.
    pub humidity_max: u32,
    /// Driest soil, %.
    pub soil_min: u32,
    /// Wettest soil, %.
    pub soil_max: u32,
}

/// A reading outside the band: what, the value read and the limit it crossed.
#[derive(Clone, Debug, PartialEq)]
pub struct Breach {
    /// What is wrong.
    pub kind: AlarmKind,
    /// The value read.
    pub value: f64,
    /// The limit.
    pub limit: f64,
}

/// The band `crop` wants at `stage`: the stage sets the temperatures, the crop shifts them and sets the rest.
pub fn band(crop: Crop, stage: Stage) -> Band {
    let (min_c, max_c) = match stage {
        Stage::Seedling => (20.0, 26.0),
        Stage::Vegetative => (16.0, 25.0),
        Stage::Flowering | Stage::Fruiting => (18.0, 28.0),
    };
    let (warmer, humidity_max, soil_min, soil_max) = match crop {
        Crop::Tomato => (0.0, 80, 35, 60),
        Crop::Lettuce => (-4.0, 85, 45, 70),
        Crop::Cucumber => (2.0, 90, 40, 65),
        Crop::Basil => (1.0, 75, 30, 55),
    };
    Band {
        min_c: min_c + warmer,
        max_c: max_c + warmer,
        humidity_max,
        soil_min,
        soil_max,
    }
}

/// Where `reading` falls outside `band`, air first.
pub fn assess(band: &Band, reading: &Reading) -> Vec<Breach> {
    let mut breaches = Vec::new();
    let mut breach = |kind, value, limit| breaches.push(Breach { kind, value, limit });
    if reading.celsius > band.max_c {
        breach(AlarmKind::TooHot, reading.celsius, band.max_c);
    } else if reading.celsius < band.min_c {
        breach(AlarmKind::TooCold, reading.celsius, band.min_c);
    }
    if reading.humidity > band.humidity_max {
        breach(
            AlarmKind::TooHumid,
            f64::from(reading.humidity),
            f64::from(band.humidity_max),
        );
    }
    if reading.soil < band.soil_min {
        breach(
            AlarmKind::DrySoil,
            f64::from(reading.soil),
            f64::from(band.soil_min),
        );
    }
    breaches
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::super::model::{Crop, Stage};
    use super::Band;

    /// [`band`](super::band) with a mistake.
    pub fn band(crop: Crop, stage: Stage) -> Band {
        let (min_c, max_c) = match stage {
            // BUG(lettuce_cold)
            Stage::Seedling | Stage::Vegetative => (20.0, 26.0),
            Stage::Flowering | Stage::Fruiting => (18.0, 28.0),
        };
        let (warmer, humidity_max, soil_min, soil_max) = match crop {
            Crop::Tomato => (0.0, 80, 35, 60),
            Crop::Lettuce => (-4.0, 85, 45, 70),
            Crop::Cucumber => (2.0, 90, 40, 65),
            Crop::Basil => (1.0, 75, 30, 55),
        };
        Band {
            min_c: min_c + warmer,
            max_c: max_c + warmer,
            humidity_max,
            soil_min,
            soil_max,
        }
    }
}
