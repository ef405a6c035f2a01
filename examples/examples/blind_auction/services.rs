//! The values that come back over the network, as async memos over the invoices: the card authorizations the
//! cashier's desk waits for, and the shipping broker's quote for each buyer's consignment.

use super::model::{Invoice, money};
use super::remote::{CardProcessor, ShippingBroker};
use ranvier::{AsyncMemo, Memo};

/// What goes to the broker for one buyer.
#[derive(Clone, Debug)]
struct Consignment {
    paddle: u32,
    country: String,
    grams: u64,
    lots: usize,
}

impl Consignment {
    fn of(invoice: &Invoice) -> Self {
        Consignment {
            paddle: invoice.paddle,
            country: invoice.country.clone(),
            grams: invoice.grams,
            lots: invoice.lots.len(),
        }
    }
}

/// Each invoice's total authorized on the buyer's card: what the processor held, and what is left to pay at
/// collection (all of it when the card is refused).
pub fn payments(invoices: &Memo<Vec<Invoice>>, processor: CardProcessor) -> AsyncMemo<Vec<String>> {
    let invoices = invoices.clone();
    AsyncMemo::new(move |_| {
        let invoices = invoices.get();
        let processor = processor.clone();
        async move {
            let mut lines = Vec::with_capacity(invoices.len());
            for invoice in &invoices {
                let due = invoice.total;
                let held = processor.authorize(&invoice.card, due).await.unwrap_or(0);
                let who = format!("Paddle {} {}", invoice.paddle, invoice.buyer);
                lines.push(if held >= due {
                    format!("{who}: {} authorized", money(due))
                } else {
                    format!(
                        "{who}: {} of {} authorized, {} due at collection",
                        money(held),
                        money(due),
                        money(due - held)
                    )
                });
            }
            lines
        }
    })
}

/// The broker's quote to ship each buyer's lots home, or why there is none.
pub fn shipping(invoices: &Memo<Vec<Invoice>>, broker: ShippingBroker) -> AsyncMemo<Vec<String>> {
    let invoices = invoices.clone();
    AsyncMemo::new(move |_| {
        let consignments: Vec<Consignment> =
            invoices.with(|list| list.iter().map(Consignment::of).collect());
        let broker = broker.clone();
        async move {
            let mut lines = Vec::new();
            for consignment in consignments {
                let Consignment {
                    paddle,
                    country,
                    grams,
                    lots,
                } = consignment;
                let kilos = grams.div_ceil(1_000);
                let line = match broker.quote(&country, kilos).await {
                    Ok(cents) => format!(
                        "Paddle {paddle} to {country}: {lots} lot(s), {kilos} kg, {}",
                        money(cents)
                    ),
                    Err(why) => {
                        format!("Paddle {paddle} to {country}: no quote ({why}), collection only")
                    }
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// The services' memos as first written, kept beside the ones above.
pub mod slipped {
    use super::super::model::{Invoice, money};
    use super::super::remote::{CardProcessor, ShippingBroker};
    use super::Consignment;
    use ranvier::{AsyncMemo, Memo};

    /// Each invoice's total authorized on the buyer's card.
    pub fn payments(
        invoices: &Memo<Vec<Invoice>>,
        processor: CardProcessor,
    ) -> AsyncMemo<Vec<String>> {
        let invoices = invoices.clone();
        AsyncMemo::new(move |_| {
            let invoices = invoices.get();
            let processor = processor.clone();
            async move {
                let mut lines = Vec::with_capacity(invoices.len());
                for invoice in &invoices {
                    let due = invoice.total;
                    // BUG(card_refused_paid)
                    let held = processor.authorize(&invoice.card, due).await.unwrap_or(due);
                    let who = format!("Paddle {} {}", invoice.paddle, invoice.buyer);
                    lines.push(if held >= due {
                        format!("{who}: {} authorized", money(due))
                    } else {
                        format!(
                            "{who}: {} of {} authorized, {} due at collection",
                            money(held),
                            money(due),
                            money(due - held)
                        )
                    });
                }
                lines
            }
        })
    }

    /// The broker's quote to ship each buyer's lots home, or why there is none.
    pub fn shipping(
        invoices: &Memo<Vec<Invoice>>,
        broker: ShippingBroker,
    ) -> AsyncMemo<Vec<String>> {
        let invoices = invoices.clone();
        AsyncMemo::new(move |_| {
            let consignments: Vec<Consignment> =
                invoices.with(|list| list.iter().map(Consignment::of).collect());
            let broker = broker.clone();
            async move {
                let mut lines = Vec::new();
                for consignment in consignments {
                    let Consignment {
                        paddle,
                        country,
                        grams,
                        lots,
                    } = consignment;
                    let kilos = grams.div_ceil(1_000);
                    // BUG(broker_grams)
                    let line = match broker.quote(&country, grams).await {
                        Ok(cents) => format!(
                            "Paddle {paddle} to {country}: {lots} lot(s), {kilos} kg, {}",
                            money(cents)
                        ),
                        Err(why) => format!(
                            "Paddle {paddle} to {country}: no quote ({why}), collection only"
                        ),
                    };
                    lines.push(line);
                }
                lines
            }
        })
    }
}
