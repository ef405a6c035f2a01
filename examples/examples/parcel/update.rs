//! The parcel desk's `update`: one arm per message, and the commands (follow-up messages) an arm sends.

use super::model::{Msg, Parcel};

/// The parcel after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, parcel: &Parcel) -> (Parcel, Vec<Msg>) {
    let mut next = parcel.clone();
    let mut commands = Vec::new();
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
        Msg::Book => {
            next.booked = true;
            // FAULT(parcel_book_commands): only the labels are printed; the courier is never told
            commands.push(Msg::PrintLabels);
        }
        Msg::PrintLabels => next.printed += next.copies,
        Msg::NotifyCourier => next.courier_told = true,
    }
    (next, commands)
}
