//! What the dispensary learns from the network, as async memos: whether each waiting prescription's token is
//! genuine (the prescription service), and when the wholesaler can bring what is owed, at what cost.

use super::charges::pounds;
use super::model::{Dispensary, Msg, Status, name_of};
use super::remote::{self, TokenStatus};
use ranvier::{AsyncMemo, Mvu};

/// A prescription waiting, as the token check needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToCheck {
    /// The prescription.
    pub id: u32,
    /// Whose it is.
    pub patient: String,
    /// Its token.
    pub token: String,
}

/// The prescriptions waiting to be dispensed, for the token check.
fn waiting(dispensary: &Mvu<Dispensary, Msg>) -> ranvier::Memo<Vec<ToCheck>> {
    dispensary.select(|d| {
        d.prescriptions
            .iter()
            .filter(|rx| rx.status == Status::Waiting)
            .map(|rx| ToCheck {
                id: rx.id,
                patient: rx.patient.clone(),
                token: rx.token.clone(),
            })
            .collect()
    })
}

/// Each waiting prescription's token, as the prescription service sees it; the patient at the counter is marked.
pub fn tokens(dispensary: &Mvu<Dispensary, Msg>) -> AsyncMemo<Vec<String>> {
    let waiting = waiting(dispensary);
    let counter = dispensary.select(|d| d.counter.clone());
    AsyncMemo::new(move |_| {
        let waiting = waiting.get();
        let patient = counter.get().unwrap_or_default();
        async move {
            let mut lines = Vec::with_capacity(waiting.len());
            for rx in &waiting {
                let answer = remote::check_token(&rx.token, &rx.patient).await;
                let state = match answer {
                    Ok(TokenStatus::Valid) => "valid".to_owned(),
                    Ok(TokenStatus::Cancelled) => "cancelled by the prescriber".to_owned(),
                    Ok(TokenStatus::OtherPatient) => "issued to another patient".to_owned(),
                    Err(e) => e.to_string(),
                };
                let here = if rx.patient == patient {
                    " (at the counter)"
                } else {
                    ""
                };
                lines.push(format!(
                    "Rx {} {}{here}: {} {state}",
                    rx.id, rx.patient, rx.token
                ));
            }
            lines
        }
    })
}

/// When each owing slip can be filled: the wholesaler's quote, or why it cannot supply.
pub fn deliveries(dispensary: &Mvu<Dispensary, Msg>) -> AsyncMemo<Vec<String>> {
    let owings = dispensary.select(|d| d.owings.clone());
    let today = dispensary.select(|d| d.today);
    AsyncMemo::new(move |_| {
        let (owings, today) = (owings.get(), today.get());
        async move {
            let mut lines = Vec::new();
            for owing in owings {
                let what = format!("{} × {}", owing.quantity, name_of(&owing.medicine));
                let line = match remote::quote(&owing.medicine, owing.quantity).await {
                    Ok(quote) => format!(
                        "{what}: {} pack(s), {}, due day {}",
                        quote.packs,
                        pounds(quote.pence),
                        today + quote.days
                    ),
                    Err(e) => format!("{what}: cannot order ({e})"),
                };
                lines.push(format!(
                    "Rx {} {}: {line}",
                    owing.prescription, owing.patient
                ));
            }
            lines
        }
    })
}

pub(crate) mod slipped {
    use super::{AsyncMemo, Dispensary, Msg, Mvu, TokenStatus, name_of, pounds, remote, waiting};

    /// [`super::tokens`], with the mistake.
    pub fn tokens(dispensary: &Mvu<Dispensary, Msg>) -> AsyncMemo<Vec<String>> {
        let waiting = waiting(dispensary);
        let counter = dispensary.select(|d| d.counter.clone());
        AsyncMemo::new(move |_| {
            let waiting = waiting.get();
            let patient = counter.get().unwrap_or_default();
            async move {
                let mut lines = Vec::with_capacity(waiting.len());
                for rx in &waiting {
                    // BUG(token_counter)
                    let answer = remote::check_token(&rx.token, &patient).await;
                    let state = match answer {
                        Ok(TokenStatus::Valid) => "valid".to_owned(),
                        Ok(TokenStatus::Cancelled) => "cancelled by the prescriber".to_owned(),
                        Ok(TokenStatus::OtherPatient) => "issued to another patient".to_owned(),
                        Err(e) => e.to_string(),
                    };
                    let here = if rx.patient == patient {
                        " (at the counter)"
                    } else {
                        ""
                    };
                    lines.push(format!(
                        "Rx {} {}{here}: {} {state}",
                        rx.id, rx.patient, rx.token
                    ));
                }
                lines
            }
        })
    }

    /// [`super::deliveries`], with the mistake.
    pub fn deliveries(dispensary: &Mvu<Dispensary, Msg>) -> AsyncMemo<Vec<String>> {
        let owings = dispensary.select(|d| d.owings.clone());
        let today = dispensary.select(|d| d.today);
        AsyncMemo::new(move |_| {
            let (owings, today) = (owings.get(), today.get());
            async move {
                let mut lines = Vec::new();
                for owing in owings {
                    let what = format!("{} × {}", owing.quantity, name_of(&owing.medicine));
                    let answer = remote::quote(&owing.medicine, owing.quantity).await;
                    // BUG(quote_default)
                    let quote = answer.unwrap_or_default();
                    let line = format!(
                        "{what}: {} pack(s), {}, due day {}",
                        quote.packs,
                        pounds(quote.pence),
                        today + quote.days
                    );
                    lines.push(format!(
                        "Rx {} {}: {line}",
                        owing.prescription, owing.patient
                    ));
                }
                lines
            }
        })
    }
}
