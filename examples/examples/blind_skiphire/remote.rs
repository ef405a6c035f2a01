//! The simulated services: the weighbridge at the landfill and the council's permit desk, each answering after a
//! short delay.

use std::time::Duration;

use super::model::Size;

/// How long a service takes to answer.
pub const DELAY: Duration = Duration::from_millis(20);

/// A weighbridge ticket, in kilograms.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticket {
    /// The lorry's skip, full.
    pub gross_kg: u32,
    /// The empty skip.
    pub tare_kg: u32,
}

/// The empty weight of a skip.
fn tare_kg(size: Size) -> u32 {
    match size {
        Size::Mini => 180,
        Size::Midi => 290,
        Size::Builders => 520,
    }
}

/// Weighs a skip of `size` holding `load_kg`.
pub async fn weigh(size: Size, load_kg: u32) -> Ticket {
    tokio::time::sleep(DELAY).await;
    Ticket {
        gross_kg: tare_kg(size) + load_kg,
        tare_kg: tare_kg(size),
    }
}

/// The council's answer to a permit request.
#[derive(Clone, Debug, PartialEq)]
pub struct Permit {
    /// Whether the council grants it (never for more than four weeks).
    pub granted: bool,
    /// The fee, in pence.
    pub fee: u64,
}

/// Asks the council for a road permit for skip `id`, for `weeks` weeks at `per_week` pence.
///
/// # Errors
///
/// The council's desk refuses a request for no weeks.
pub async fn council_permit(id: &str, weeks: u32, per_week: u64) -> Result<Permit, String> {
    tokio::time::sleep(DELAY).await;
    if weeks == 0 {
        return Err(format!(
            "the council cannot issue a permit of no weeks for {id}"
        ));
    }
    Ok(Permit {
        granted: weeks <= 4,
        fee: u64::from(weeks) * per_week,
    })
}
