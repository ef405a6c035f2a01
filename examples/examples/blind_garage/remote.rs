//! The services the garage asks over the network, simulated: the suppliers' order desks (how many days a part takes
//! to come) and the MOT history register. Each answers after a short wait on tokio's timer.

use std::time::Duration;

/// How long a service takes to answer.
const ROUND_TRIP: Duration = Duration::from_millis(20);

/// Working days each supplier takes to deliver.
const LEAD_DAYS: [(&str, u32); 4] = [
    ("Motaparts", 1),
    ("Lubrico", 2),
    ("Brightway", 3),
    ("Tyreline", 2),
];

/// A car's MOT history, as the register keeps it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MotHistory {
    /// Tests taken.
    pub tests: u32,
    /// Whether the last one was a pass.
    pub passed: bool,
    /// Advisories noted at the last test.
    pub advisories: u32,
}

/// The register's cars (a car younger than three years has no history yet).
fn register(plate: &str) -> Option<MotHistory> {
    let history = |tests, passed, advisories| MotHistory {
        tests,
        passed,
        advisories,
    };
    match plate.replace(' ', "").as_str() {
        "AB12CDE" => Some(history(11, true, 2)),
        "CD34EFG" => Some(history(9, false, 4)),
        "LV63KTR" => Some(history(10, true, 0)),
        _ => None,
    }
}

/// How many days `supplier` takes to deliver `code`.
///
/// # Errors
///
/// A supplier the garage has no account with.
pub async fn lead_time(supplier: &str, code: &str) -> Result<u32, String> {
    tokio::time::sleep(ROUND_TRIP).await;
    LEAD_DAYS
        .iter()
        .find(|(name, _)| *name == supplier)
        .map(|&(_, days)| days)
        .ok_or_else(|| format!("{supplier} does not answer for {code}"))
}

/// The MOT history of the car with `plate`.
///
/// # Errors
///
/// A car the register has no test for.
pub async fn mot_history(plate: &str) -> Result<MotHistory, String> {
    tokio::time::sleep(ROUND_TRIP).await;
    register(plate).ok_or_else(|| "no MOT on record".to_owned())
}
