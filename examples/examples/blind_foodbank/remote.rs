//! The services the food bank asks over the network (simulated: each answers after a short wait): the van's
//! driving times, and the regional warehouse's surplus.

use super::model::Category;
use std::time::Duration;

/// Where the van starts.
pub const DEPOT: &str = "depot";

/// The van leaves the depot at 10:00 (minutes since midnight).
pub const VAN_LEAVES: u32 = 600;

/// How long a service takes to answer.
const LATENCY: Duration = Duration::from_millis(15);

/// Driving times between zones, in minutes, either way.
const DRIVES: [(&str, &str, u32); 6] = [
    ("depot", "north", 12),
    ("depot", "east", 9),
    ("depot", "south", 15),
    ("north", "east", 7),
    ("north", "south", 20),
    ("east", "south", 11),
];

/// Minutes the van takes from `from` to `to`.
///
/// # Errors
///
/// A zone the routing service does not know.
pub async fn drive_minutes(from: &str, to: &str) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    if from == to {
        return Ok(0);
    }
    DRIVES
        .iter()
        .find(|&&(a, b, _)| (a == from && b == to) || (a == to && b == from))
        .map(|&(_, _, minutes)| minutes)
        .ok_or_else(|| format!("no route from {from} to {to}"))
}

/// Grams of `category` the regional warehouse can give this week.
///
/// # Errors
///
/// A category the warehouse has none of.
pub async fn surplus(category: Category) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    match category {
        Category::Tins => Ok(5_000),
        Category::Pasta => Ok(1_000),
        Category::Dairy => Ok(2_000),
        Category::Fresh => Err("no fresh surplus this week".to_owned()),
    }
}
