//! The services the farm talks to over the network, simulated: the wholesale market, which quotes a price a tonne
//! for each fruit and grade, and the residue lab, which tests a sample from each block picked.

use super::model::{Grade, Variety};
use std::time::Duration;

/// The wholesale market's price board.
pub struct Market {
    latency: Duration,
}

impl Default for Market {
    fn default() -> Self {
        Market {
            latency: Duration::from_millis(25),
        }
    }
}

impl Market {
    /// Today's price of a tonne of `variety` of `grade`, in pence.
    ///
    /// # Errors
    ///
    /// When the market does not quote that fruit and grade.
    pub async fn quote(&self, variety: Variety, grade: Grade) -> Result<u32, String> {
        tokio::time::sleep(self.latency).await;
        match (variety, grade) {
            (Variety::Apple, Grade::ClassOne) => Ok(90_000),
            (Variety::Apple, Grade::ClassTwo) => Ok(52_000),
            (Variety::Pear, Grade::ClassOne) => Ok(105_000),
            (Variety::Pear, Grade::ClassTwo) => Ok(61_000),
            (Variety::Plum, Grade::ClassOne) => Ok(140_000),
            (_, Grade::Juice) => Ok(12_500),
            (variety, grade) => Err(format!(
                "no quote for {} of {}",
                variety.plural(),
                grade.name()
            )),
        }
    }
}

/// A residue test's result for a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Residue {
    /// Milligrams a kilogram.
    pub mg_per_kg: f64,
}

/// The residue lab.
pub struct Lab {
    latency: Duration,
    /// Results by block; a block missing has sent no sample yet.
    results: Vec<(u32, f64)>,
}

impl Default for Lab {
    fn default() -> Self {
        Lab {
            latency: Duration::from_millis(20),
            results: vec![(2, 0.62), (3, 0.08), (4, 0.21)],
        }
    }
}

impl Lab {
    /// The highest residue allowed, mg/kg.
    pub const LIMIT: f64 = 0.5;

    /// The result of block `block`'s sample.
    ///
    /// # Errors
    ///
    /// When the lab has no sample from the block.
    pub async fn result(&self, block: u32) -> Result<Residue, String> {
        tokio::time::sleep(self.latency).await;
        self.results
            .iter()
            .find(|(b, _)| *b == block)
            .map(|(_, mg)| Residue { mg_per_kg: *mg })
            .ok_or_else(|| format!("no sample from block {block} yet"))
    }
}
