//! The services over the network: the courier company's rounds and the chain's loyalty server (simulated: each
//! answers after a short wait).

use std::time::Duration;

const LATENCY: Duration = Duration::from_millis(20);

/// The courier's van leaves on the hour and the half hour; its arrival at `postcode` on the first round at or after
/// `after` (minutes since midnight), or `None` for a postcode it does not serve.
pub async fn courier_round(postcode: &str, after: u32) -> Option<u32> {
    tokio::time::sleep(LATENCY).await;
    let travel = match postcode {
        "N1" => 20,
        "N4" => 35,
        "E8" => 25,
        _ => return None,
    };
    Some(after.div_ceil(30) * 30 + travel)
}

/// The stamps `customer` has on the chain's card from its other shops.
///
/// # Errors
///
/// A customer the chain does not know.
pub async fn chain_stamps(customer: &str) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    match customer {
        "Ada" => Ok(2),
        "Bo" => Ok(5),
        "Dee" => Ok(1),
        _ => Err("not a member of the chain's card".to_owned()),
    }
}
