//! The parcel desk's graph: selects over the model, the memos that price it with `rules`, and the effect that writes
//! the labels the counter screen shows.

use super::model::{Msg, Parcel, Quote};
use super::rules::{self, premium};
use ranvier::exposure::{ExposeError, Exposure};
use ranvier::{Effect, Memo, Mvu, Signal};
use std::any::Any;

/// Builds the desk's memos on `parcel` and exposes them; returns what must stay alive.
///
/// # Errors
///
/// When a name is exposed twice.
pub fn build(
    parcel: &Mvu<Parcel, Msg>,
    x: &mut Exposure,
) -> Result<Vec<Box<dyn Any>>, ExposeError> {
    let grams = parcel.select(|p| p.grams);
    let insured = parcel.select(|p| p.insured);
    let postage = Memo::new({
        let grams = grams.clone();
        move |_| rules::postage(grams.get())
    });
    let insurance = Memo::new({
        let insured = insured.clone();
        move |_| premium(insured.get())
    });
    let total = Memo::new({
        let (postage, insurance) = (postage.clone(), insurance.clone());
        move |_| postage.get() + insurance.get()
    });
    for (name, memo) in [
        ("postage", &postage),
        ("insurance", &insurance),
        ("total", &total),
    ] {
        let read = memo.clone();
        x.value(name, move || read.get())?;
        x.node(name, memo)?;
    }
    // the quote the desk offers, and its line on the counter screen
    let express = parcel.select(|p| p.express);
    let quote = Memo::new({
        let total = total.clone();
        move |_| Quote {
            cents: total.get(),
            days: if express.get() { 1 } else { 3 },
        }
    });
    let delivery = Memo::new({
        let quote = quote.clone();
        move |_| {
            let q = quote.get();
            format!("{} cents, {} days", q.cents, q.days)
        }
    });
    let shown = delivery.clone();
    x.value("delivery", move || shown.get())?;
    x.node("delivery", &delivery)?;
    // whether the courier comes: the screen shows it once the parcel is booked
    let collection = parcel.select(|p| p.courier_told);
    let shown = collection.clone();
    x.value("collection", move || shown.get())?;
    x.node("collection", &collection)?;
    // the screen's two labels, written by an effect when the parcel is weighed or priced
    let weight_label = Signal::new(String::new());
    let price_label = Signal::new(String::new());
    let labels = Effect::new({
        let (weight_label, total) = (weight_label.clone(), total.clone());
        move || {
            weight_label.set(format!("{} g", grams.get()));
            // FAULT(parcel_label_written_elsewhere): the price is written to the weight's label
            weight_label.set(format!("{} cents", total.get()));
        }
    });
    for (name, label) in [
        ("weight_label", &weight_label),
        ("price_label", &price_label),
    ] {
        let read = label.clone();
        x.value(name, move || read.get())?;
        x.node(name, label)?;
    }
    Ok(vec![
        Box::new(postage),
        Box::new(insurance),
        Box::new(total),
        Box::new(quote),
        Box::new(delivery),
        Box::new(collection),
        Box::new(weight_label),
        Box::new(price_label),
        Box::new(labels),
    ])
}
