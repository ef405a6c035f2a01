//! The parcel desk's `update`: one arm per message.

use super::model::{Msg, Parcel};

/// The parcel after `msg`.
pub fn update(msg: Msg, parcel: &Parcel) -> Parcel {
    let mut next = parcel.clone();
    match msg {
        Msg::Weigh { grams } => next.grams = grams,
        Msg::Declare { cents } => next.declared = cents,
        Msg::Insure => {
            // insured up to the declared value, at most 5,000 euros
            let cover = next.declared.min(500_000);
            // FAULT(parcel_insure_arm): the cover is written to the declared value, so `insured` stays 0
            next.declared = cover;
        }
        Msg::SetCopies { copies } => next.copies = copies.max(1),
        Msg::SetExpress { express } => next.express = express,
    }
    next
}
