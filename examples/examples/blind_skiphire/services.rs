//! The two answers that come later: the weighbridge's net load of the last skip collected, and the council's fees
//! for the road permits of the skips standing on the road.

use super::charges::{PERMIT_PER_WEEK, permit_weeks};
use super::model::Size;
use super::remote;

/// The last skip collected, as the weighbridge needs it: its size and the driver's reading.
pub type Lifted = Option<(Size, u32)>;

/// The net load of the last skip collected, in tenths of a tonne, from the weighbridge's ticket (0 before any).
pub async fn weighed(lifted: Lifted) -> u32 {
    let Some((size, tenths)) = lifted else {
        return 0;
    };
    // the driver's reading rounds down: the bridge sees a little more
    let load_kg = tenths * 100 + 40;
    let ticket = remote::weigh(size, load_kg).await;
    let net_kg = ticket.gross_kg.saturating_sub(ticket.tare_kg);
    net_kg / 100
}

/// The council's fees for the permits of the skips on the road (`(ticket, days on the road)`), in pence. A permit
/// the council refuses (over four weeks) is not charged: the skip must move.
///
/// # Errors
///
/// The council's refusal of a request.
pub async fn permit_fees(road: Vec<(String, u32)>) -> Result<u64, String> {
    let mut total = 0;
    for (id, days) in road {
        let weeks = permit_weeks(days);
        let permit = remote::council_permit(&id, weeks, PERMIT_PER_WEEK).await?;
        if !permit.granted {
            continue;
        }
        total += permit.fee;
    }
    Ok(total)
}

pub mod slipped {
    use super::super::charges::{PERMIT_PER_WEEK, permit_weeks};
    use super::super::remote;
    use super::Lifted;

    pub async fn weighed(lifted: Lifted) -> u32 {
        let Some((size, tenths)) = lifted else {
            return 0;
        };
        let load_kg = tenths * 100 + 40;
        let ticket = remote::weigh(size, load_kg).await;
        // BUG(weigh_gross)
        let net_kg = ticket.gross_kg;
        net_kg / 100
    }

    pub async fn permit_fees(road: Vec<(String, u32)>) -> Result<u64, String> {
        let mut total = 0;
        for (id, days) in road {
            let weeks = permit_weeks(days);
            let permit = remote::council_permit(&id, weeks, PERMIT_PER_WEEK).await?;
            if !permit.granted {
                // BUG(council_early_return)
                return Ok(total);
            }
            total += permit.fee;
        }
        Ok(total)
    }
}
