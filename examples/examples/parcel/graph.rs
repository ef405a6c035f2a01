//! The parcel desk's graph: selects over the model and the memos that price it with `rules`.

use super::model::{Msg, Parcel};
use super::rules::{self, premium};
use ranvier::exposure::{ExposeError, Exposure};
use ranvier::{Memo, Mvu};

/// Builds the desk's memos on `parcel` and exposes them; returns what must stay alive.
///
/// # Errors
///
/// When a name is exposed twice.
pub fn build(parcel: &Mvu<Parcel, Msg>, x: &mut Exposure) -> Result<Vec<Memo<u64>>, ExposeError> {
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
    Ok(vec![postage, insurance, total])
}
