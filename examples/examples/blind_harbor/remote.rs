//! The services the desk asks over the network: the hydrographic office's tide forecast and the customs office's
//! clearance of a ship's manifest. Each call takes a network hop (one turn of the executor) before it answers.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use ranvier::serde::Serialize;

/// One network hop: pending once, then ready.
struct Hop(bool);

impl Future for Hop {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

/// How far ahead the tide forecast goes, in hours.
pub const FORECAST_HOURS: u32 = 96;

/// The height of the tide above chart datum at port hour `hour`, in centimetres: a semi-diurnal tide, high water at
/// hour 3 and every 12 hours after.
///
/// # Errors
///
/// The office's answer for an hour beyond its forecast.
pub async fn tide_cm(hour: u32) -> Result<u32, String> {
    const CURVE: [u32; 12] = [180, 240, 290, 310, 290, 240, 180, 120, 70, 50, 70, 120];
    Hop(false).await;
    if hour > FORECAST_HOURS {
        return Err(format!(
            "no tide forecast for hour {hour} (the forecast goes to hour {FORECAST_HOURS})"
        ));
    }
    Ok(CURVE[(hour % 12) as usize])
}

/// What customs said about a ship's manifest.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Clearance {
    /// The ship.
    pub call_sign: String,
    /// `"cleared"`, or `"held for inspection"`.
    pub status: String,
}

/// Customs' answer for the manifest of `call_sign`: held for inspection when its risk score (the sum of the call
/// sign's letters and digits, modulo 5) is 0.
///
/// # Errors
///
/// The office's answer for an empty call sign.
pub async fn clearance(call_sign: String) -> Result<Clearance, String> {
    Hop(false).await;
    if call_sign.is_empty() {
        return Err("customs needs a call sign".to_owned());
    }
    let score = call_sign.bytes().map(u32::from).sum::<u32>() % 5;
    let status = if score == 0 {
        "held for inspection"
    } else {
        "cleared"
    };
    Ok(Clearance {
        call_sign,
        status: status.to_owned(),
    })
}
