//! The auction house's graph: the sale (`update` with commands, the catalogue consigned when the sale opens), the
//! catalogue collection and its views, the invoices and the consignors' settlements, and the services' async memos;
//! `#[expose]` publishes what the saleroom, the cashier and the agent see.

use super::bidding;
use super::catalogue::{self, Lots, RowFactory};
use super::charges;
use super::model::{Bidder, Invoice, Lot, Msg, Sale, Settlement, clock_text};
use super::remote::{CardProcessor, ShippingBroker};
use super::services;
use super::update::{self, House};
use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;

/// Which version of the house runs: the correct one, or one with a mistake (see `main.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The house as it should be.
    None,
    /// See `SLIPS` in `main.rs`.
    BandEdge,
    /// See `SLIPS` in `main.rs`.
    BookRunnerUp,
    /// See `SLIPS` in `main.rs`.
    CreditOthers,
    /// See `SLIPS` in `main.rs`.
    SoftCloseBook,
    /// See `SLIPS` in `main.rs`.
    NetFeesSign,
    /// See `SLIPS` in `main.rs`.
    WithdrawalFee,
    /// See `SLIPS` in `main.rs`.
    EstimateAbove,
    /// See `SLIPS` in `main.rs`.
    TopByCount,
    /// See `SLIPS` in `main.rs`.
    InvoiceVat,
    /// See `SLIPS` in `main.rs`.
    CommissionRunning,
    /// See `SLIPS` in `main.rs`.
    CardRefusedPaid,
    /// See `SLIPS` in `main.rs`.
    BrokerGrams,
}

/// What the saleroom, the cashier's desk and an agent see of the sale.
#[expose]
pub struct AuctionHouse {
    /// The sale: the rostrum's and the desk's messages.
    #[expose(messages)]
    pub sale: Mvu<Sale, Msg>,
    /// The saleroom clock.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// The lots, one row per lot number, each with its screen line.
    #[expose]
    #[node]
    pub lots: Lots,
    /// The screen lines, in catalogue order.
    #[expose]
    #[node]
    pub catalogue: Memo<Vec<String>>,
    /// The three lots bid highest.
    #[expose]
    #[node]
    pub top_lots: Memo<Vec<String>>,
    /// The lots sold and their buyers.
    #[expose]
    #[node]
    pub results: Memo<Vec<String>>,
    /// The hammer prices so far, in euros.
    #[expose]
    #[node]
    pub takings: Memo<u64>,
    /// How many lots were bought in.
    #[expose]
    #[node]
    pub bought_in: Memo<usize>,
    /// The clerk's book.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The buyers' invoices, in cents.
    #[expose]
    #[node]
    pub invoices: Memo<Vec<Invoice>>,
    /// What each consignor is owed, in cents.
    #[expose]
    #[node]
    pub settlements: Memo<Vec<Settlement>>,
    /// The card authorizations for the invoices.
    #[expose]
    #[node]
    pub payments: AsyncMemo<Vec<String>>,
    /// The shipping quotes for the buyers' lots.
    #[expose]
    #[node]
    pub shipping: AsyncMemo<Vec<String>>,
}

/// One lot of the printed catalogue, entered when the sale opens.
fn consign(
    title: &str,
    consignor: &str,
    reserve: u64,
    (low, high): (u64, u64),
    closes_at: Option<u32>,
    grams: u64,
) -> Msg {
    Msg::Consign {
        title: title.to_owned(),
        consignor: consignor.to_owned(),
        reserve,
        low,
        high,
        closes_at,
        grams,
    }
}

/// Today's catalogue: four lots sold from the rostrum, then three timed lots online.
pub fn catalogue_commands() -> Vec<Msg> {
    vec![
        consign(
            "Pair of Delft vases",
            "Mrs Hale",
            300,
            (400, 600),
            None,
            3_500,
        ),
        consign(
            "Georgian mantel clock",
            "Mr Okafor",
            800,
            (1_000, 1_500),
            None,
            12_000,
        ),
        consign(
            "Harbour at dusk, oil on canvas",
            "Mrs Hale",
            2_000,
            (2_500, 3_500),
            None,
            6_000,
        ),
        consign(
            "Silver card case",
            "Estate of J. Pryce",
            150,
            (200, 300),
            None,
            200,
        ),
        consign(
            "Art deco table lamp",
            "Mr Okafor",
            250,
            (300, 500),
            Some(11 * 60),
            4_200,
        ),
        consign(
            "Box of first editions",
            "Estate of J. Pryce",
            0,
            (100, 150),
            Some(11 * 60 + 5),
            9_000,
        ),
        consign(
            "Victorian writing slope",
            "Mrs Hale",
            400,
            (500, 700),
            Some(11 * 60 + 10),
            2_800,
        ),
    ]
}

/// The buyers' invoices: per buyer, in paddle order, the lots won with the premium and the VAT on it.
pub fn invoices(lots: &Memo<Vec<Lot>>, bidders: &Memo<Vec<Bidder>>) -> Memo<Vec<Invoice>> {
    let (lots, bidders) = (lots.clone(), bidders.clone());
    Memo::new(move |_| {
        let bidders = bidders.get();
        let mut by_paddle: BTreeMap<u32, Invoice> = BTreeMap::new();
        for lot in lots.get().iter() {
            let Some((paddle, hammer)) = lot.sold() else {
                continue;
            };
            let Some(buyer) = bidders.iter().find(|bidder| bidder.paddle == paddle) else {
                continue;
            };
            let invoice = by_paddle
                .entry(paddle)
                .or_insert_with(|| Invoice::for_bidder(buyer));
            let hammer = hammer * 100;
            let premium = charges::buyers_premium(hammer);
            invoice.lots.push(lot.number);
            invoice.grams += lot.grams;
            invoice.hammer += hammer;
            invoice.premium += premium;
            invoice.vat += charges::vat_on(premium, &buyer.country);
        }
        by_paddle
            .into_values()
            .map(|mut invoice| {
                invoice.total = invoice.hammer + invoice.premium + invoice.vat;
                invoice
            })
            .collect()
    })
}

/// What each consignor is owed, in the order their first lot comes in the catalogue.
pub fn settlements(
    lots: &Memo<Vec<Lot>>,
    fee: fn(&Lot) -> u64,
    net: fn(u64, u64, u64) -> i64,
) -> Memo<Vec<Settlement>> {
    let lots = lots.clone();
    Memo::new(move |_| {
        let mut settlements: Vec<Settlement> = Vec::new();
        for lot in lots.get().iter() {
            let at = match settlements
                .iter()
                .position(|s| s.consignor == lot.consignor)
            {
                Some(at) => at,
                None => {
                    settlements.push(Settlement {
                        consignor: lot.consignor.clone(),
                        ..Settlement::default()
                    });
                    settlements.len() - 1
                }
            };
            let entry = &mut settlements[at];
            entry.fees += fee(lot);
            if let Some((_, hammer)) = lot.sold() {
                let hammer = hammer * 100;
                entry.sold += 1;
                entry.hammer += hammer;
                entry.commission += charges::commission(hammer);
            }
        }
        for entry in &mut settlements {
            entry.net = net(entry.hammer, entry.commission, entry.fees);
        }
        settlements
    })
}

/// Builds the house with `slip` (none: the correct house); `#[node]` names each node after its `let`.
#[node]
pub fn auction_house(slip: Slip) -> AuctionHouse {
    let house = House {
        increment: if slip == Slip::BandEdge {
            bidding::slipped::increment
        } else {
            bidding::increment
        },
        from_book: if slip == Slip::BookRunnerUp {
            bidding::slipped::bid_from_book
        } else {
            bidding::bid_from_book
        },
        committed: if slip == Slip::CreditOthers {
            update::slipped::committed
        } else {
            update::committed
        },
        place_bid: if slip == Slip::SoftCloseBook {
            update::slipped::place_bid
        } else {
            update::place_bid
        },
    };
    let sale = Mvu::with_commands(
        (Sale::default(), catalogue_commands()),
        move |msg, sale: &Sale| update::update(msg, sale, &house),
    );
    let clock = sale.select(|sale| clock_text(sale.clock));
    let lot_list = sale.select(|sale| sale.lots.clone());
    let bidders = sale.select(|sale| sale.bidders.clone());
    let notices = sale.select(|sale| sale.notices.clone());

    let row: RowFactory = if slip == Slip::EstimateAbove {
        catalogue::slipped::lot_row
    } else {
        catalogue::lot_row
    };
    let increment = house.increment;
    let lots = Collection::keyed(
        lot_list.clone(),
        |lot: &Lot| lot.number,
        move |lot| row(lot, increment),
    );
    let catalogue = Memo::new({
        let lots = lots.clone();
        move |_| lots.rows().iter().map(|(_, line)| line.get()).collect()
    });
    let order = if slip == Slip::TopByCount {
        catalogue::slipped::by_top_bid(&lots)
    } else {
        catalogue::by_top_bid(&lots)
    };
    let top_lots = catalogue::top_lots(&lots, order);
    let results = catalogue::results(&lots);
    let takings = catalogue::takings(&lots);
    let bought_in = catalogue::bought_in(&lots);

    let invoices = if slip == Slip::InvoiceVat {
        slipped::invoices(&lot_list, &bidders)
    } else {
        invoices(&lot_list, &bidders)
    };
    let fee = if slip == Slip::WithdrawalFee {
        charges::slipped::vendor_fee
    } else {
        charges::vendor_fee
    };
    let net = if slip == Slip::NetFeesSign {
        charges::slipped::net_proceeds
    } else {
        charges::net_proceeds
    };
    let settlements = if slip == Slip::CommissionRunning {
        slipped::settlements(&lot_list, fee, net)
    } else {
        settlements(&lot_list, fee, net)
    };
    let payments = if slip == Slip::CardRefusedPaid {
        services::slipped::payments(&invoices, CardProcessor)
    } else {
        services::payments(&invoices, CardProcessor)
    };
    let shipping = if slip == Slip::BrokerGrams {
        services::slipped::shipping(&invoices, ShippingBroker)
    } else {
        services::shipping(&invoices, ShippingBroker)
    };
    AuctionHouse {
        sale,
        clock,
        lots,
        catalogue,
        top_lots,
        results,
        takings,
        bought_in,
        notices,
        invoices,
        settlements,
        payments,
        shipping,
    }
}

/// The long memos as first written, kept beside the ones above.
pub mod slipped {
    use super::super::charges;
    use super::super::model::{Bidder, Invoice, Lot, Settlement};
    use ranvier::Memo;
    use std::collections::BTreeMap;

    /// The buyers' invoices: per buyer, in paddle order, the lots won with the premium and the VAT on it.
    pub fn invoices(lots: &Memo<Vec<Lot>>, bidders: &Memo<Vec<Bidder>>) -> Memo<Vec<Invoice>> {
        let (lots, bidders) = (lots.clone(), bidders.clone());
        Memo::new(move |_| {
            let bidders = bidders.get();
            let mut by_paddle: BTreeMap<u32, Invoice> = BTreeMap::new();
            for lot in lots.get().iter() {
                let Some((paddle, hammer)) = lot.sold() else {
                    continue;
                };
                let Some(buyer) = bidders.iter().find(|bidder| bidder.paddle == paddle) else {
                    continue;
                };
                let invoice = by_paddle
                    .entry(paddle)
                    .or_insert_with(|| Invoice::for_bidder(buyer));
                let hammer = hammer * 100;
                let premium = charges::buyers_premium(hammer);
                invoice.lots.push(lot.number);
                invoice.grams += lot.grams;
                invoice.hammer += hammer;
                invoice.premium += premium;
                // BUG(invoice_vat)
                invoice.premium += charges::vat_on(premium, &buyer.country);
            }
            by_paddle
                .into_values()
                .map(|mut invoice| {
                    invoice.total = invoice.hammer + invoice.premium + invoice.vat;
                    invoice
                })
                .collect()
        })
    }

    /// What each consignor is owed, in the order their first lot comes in the catalogue.
    pub fn settlements(
        lots: &Memo<Vec<Lot>>,
        fee: fn(&Lot) -> u64,
        net: fn(u64, u64, u64) -> i64,
    ) -> Memo<Vec<Settlement>> {
        let lots = lots.clone();
        Memo::new(move |_| {
            let mut settlements: Vec<Settlement> = Vec::new();
            for lot in lots.get().iter() {
                let at = match settlements
                    .iter()
                    .position(|s| s.consignor == lot.consignor)
                {
                    Some(at) => at,
                    None => {
                        settlements.push(Settlement {
                            consignor: lot.consignor.clone(),
                            ..Settlement::default()
                        });
                        settlements.len() - 1
                    }
                };
                let entry = &mut settlements[at];
                entry.fees += fee(lot);
                if let Some((_, hammer)) = lot.sold() {
                    let hammer = hammer * 100;
                    entry.sold += 1;
                    entry.hammer += hammer;
                    // BUG(commission_running)
                    entry.commission += charges::commission(entry.hammer);
                }
            }
            for entry in &mut settlements {
                entry.net = net(entry.hammer, entry.commission, entry.fees);
            }
            settlements
        })
    }
}
