//! The salon's graph: the `#[expose]` app an agent sees, the `#[node]` builder that makes it from the salon's `Mvu`,
//! the rules, the bookings' collection and the services, and the till's two long memos (the day's till and the
//! week's takings).
#![allow(clippy::let_and_return)] // `#[node]` names each node after the `let` that binds it

use super::bookings::{self, Bookings, RowFactory};
use super::model::{
    Length, Level, Msg, SaleKind, Salon, Service, monday_of, pounds, signed, weekday_name,
};
use super::pricing::vat_in;
use super::remote::{BookingFeed, Supplier};
use super::services;
use super::stylists;
use super::update::{self, Helpers};
use super::vouchers;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the salon to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    SupplierOrder,
    OnlineRequests,
    RowDue,
    ByTime,
    FreeCancel,
    TipSplit,
    LengthPrice,
    LoyaltyPoints,
    Commission,
    DayTill,
    WeekTakings,
    VoucherExpiry,
}

/// What an agent sees of the salon.
#[expose]
pub struct SalonApp {
    #[expose(messages)]
    pub salon: Mvu<Salon, Msg>,
    /// The day and the hour.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The bookings, each with its line in the appointment book.
    #[expose]
    #[node]
    pub bookings: Bookings,
    /// The appointments still to come, in time order.
    #[expose]
    #[node]
    pub appointment_book: Memo<Vec<String>>,
    /// How many appointments are still to come.
    #[expose]
    #[node]
    pub still_booked: Memo<usize>,
    /// The clients who did not come.
    #[expose]
    #[node]
    pub no_shows: Memo<Vec<String>>,
    /// The price list, before the weekday-morning discount.
    #[expose]
    #[node]
    pub price_list: Memo<Vec<String>>,
    /// The gift vouchers.
    #[expose]
    #[node]
    pub vouchers: Memo<Vec<String>>,
    /// The clients' loyalty cards.
    #[expose]
    #[node]
    pub loyalty: Memo<Vec<String>>,
    /// The tips paid out, day by day.
    #[expose]
    #[node]
    pub tip_sheet: Memo<Vec<String>>,
    /// The retail shelf.
    #[expose]
    #[node]
    pub stock_sheet: Memo<Vec<String>>,
    /// What the front desk has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Today's till.
    #[expose]
    #[node]
    pub day_till: Memo<Vec<String>>,
    /// This week's takings, day by day.
    #[expose]
    #[node]
    pub week_takings: Memo<Vec<String>>,
    /// The stylists' commission this week.
    #[expose]
    #[node]
    pub commission_sheet: Memo<Vec<String>>,
    /// The reorder at the supplier's prices.
    #[expose]
    #[node]
    pub supplier_order: AsyncMemo<Vec<String>>,
    /// Tomorrow's online booking requests.
    #[expose]
    #[node]
    pub online_requests: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::FreeCancel => Helpers {
                cancel: update::slipped::cancel,
                ..correct
            },
            Slip::TipSplit => Helpers {
                split_tips: update::slipped::split_tips,
                ..correct
            },
            Slip::LengthPrice => Helpers {
                price: super::pricing::slipped::service_price,
                ..correct
            },
            Slip::LoyaltyPoints => Helpers {
                points: vouchers::slipped::points_for,
                ..correct
            },
            Slip::VoucherExpiry => Helpers {
                usable: super::model::slipped::usable,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the salon with `slip`.
#[node]
pub fn salon_graph(slip: Slip) -> SalonApp {
    let helpers = slip.helpers();
    let salon = Mvu::with_commands(
        (Salon::default(), update::opening()),
        move |msg, salon: &Salon| update::update(msg, salon, &helpers),
    );
    let today =
        salon.select(|s| format!("{} day {}, {}:00", weekday_name(s.today), s.today, s.hour));

    let list = salon.select(|s| s.bookings.clone());
    let row: RowFactory = match slip {
        Slip::RowDue => bookings::slipped::booking_row,
        _ => bookings::booking_row,
    };
    let bookings = bookings::bookings(&list, row);
    let order = match slip {
        Slip::ByTime => bookings::slipped::by_time(&bookings),
        _ => bookings::by_time(&bookings),
    };
    let appointment_book = bookings::appointment_book(&bookings, &order);
    let still_booked = bookings::still_booked(&bookings);
    let no_shows = bookings::no_shows(&bookings);

    let price_list = price_list(&salon, helpers.price);
    let vouchers = vouchers::voucher_list(&salon, helpers.usable);
    let loyalty = vouchers::loyalty(&salon);
    let tip_sheet = salon.select(|s| {
        s.tip_shares
            .iter()
            .map(|t| format!("day {}: {} {}", t.day, t.stylist, pounds(t.pence)))
            .collect()
    });
    let stock_sheet = salon.select(|s| {
        s.products
            .iter()
            .map(|p| {
                format!(
                    "{}: {} on the shelf at {}, reorder at {}",
                    p.name,
                    p.stock,
                    pounds(p.price),
                    p.reorder_point
                )
            })
            .collect()
    });
    let notices = salon.select(|s| s.notices.clone());

    let day_till = match slip {
        Slip::DayTill => slipped::day_till(&salon),
        _ => day_till(&salon),
    };
    let week_takings = match slip {
        Slip::WeekTakings => slipped::week_takings(&salon),
        _ => week_takings(&salon),
    };
    let commission: fn(Level, u32, u32) -> u32 = match slip {
        Slip::Commission => stylists::slipped::commission,
        _ => stylists::commission,
    };
    let commission_sheet = stylists::commission_sheet(&salon, commission);

    let products = salon.select(|s| s.products.clone());
    let day = salon.select(|s| s.today);
    let stylists = salon.select(|s| s.stylists.clone());
    let supplier = Rc::new(Supplier::default());
    let feed = Rc::new(BookingFeed);
    let supplier_order = match slip {
        Slip::SupplierOrder => services::slipped::supplier_order(&products, supplier),
        _ => services::supplier_order(&products, supplier),
    };
    let online_requests = match slip {
        Slip::OnlineRequests => {
            services::slipped::online_requests(&list, &day, &stylists, feed, helpers.price)
        }
        _ => services::online_requests(&list, &day, &stylists, feed, helpers.price),
    };

    SalonApp {
        salon,
        today,
        bookings,
        appointment_book,
        still_booked,
        no_shows,
        price_list,
        vouchers,
        loyalty,
        tip_sheet,
        stock_sheet,
        notices,
        day_till,
        week_takings,
        commission_sheet,
        supplier_order,
        online_requests,
    }
}

/// The price list: each service and length at each level (`price_of` prices it).
#[node]
pub fn price_list(
    salon: &Mvu<Salon, Msg>,
    price_of: fn(Service, Length, Level) -> u32,
) -> Memo<Vec<String>> {
    let list = salon.select(move |salon| {
        let mut lines = Vec::new();
        for service in [Service::Cut, Service::Colour, Service::BlowDry] {
            for length in [Length::Short, Length::Medium, Length::Long] {
                let prices: Vec<String> = [Level::Junior, Level::Senior, Level::Director]
                    .iter()
                    .filter(|level| salon.stylists.iter().any(|s| s.level == **level))
                    .map(|level| {
                        format!(
                            "{} {}",
                            level.name(),
                            pounds(price_of(service, length, *level))
                        )
                    })
                    .collect();
                lines.push(format!(
                    "{} ({}): {}",
                    service.name(),
                    length.name(),
                    prices.join(", ")
                ));
            }
        }
        lines
    });
    list
}

/// Today's till: what came in by kind, the refunds paid out, the tips in the jar, the takings and the VAT in them (a
/// gift voucher carries no VAT until it is spent).
#[node]
pub fn day_till(salon: &Mvu<Salon, Msg>) -> Memo<Vec<String>> {
    let till = salon.select(|salon| {
        let kinds = [
            (SaleKind::Deposit, "deposits"),
            (SaleKind::Service, "services"),
            (SaleKind::Retail, "retail"),
            (SaleKind::NoShowFee, "no-show fees"),
            (SaleKind::Voucher, "gift vouchers"),
            (SaleKind::Refund, "refunds"),
        ];
        let mut by_kind = [0_u32; 6];
        let (mut takings, mut vat) = (0_i64, 0_i64);
        for sale in salon.sales_on(salon.today) {
            let gross = i64::from(sale.gross);
            match sale.kind {
                SaleKind::Refund => {
                    takings -= gross;
                    vat -= i64::from(vat_in(sale.gross));
                }
                SaleKind::Voucher => takings += gross,
                _ => {
                    takings += gross;
                    vat += i64::from(vat_in(sale.gross));
                }
            }
            let at = kinds
                .iter()
                .position(|(kind, _)| *kind == sale.kind)
                .unwrap_or(0);
            by_kind[at] += sale.gross;
        }
        let mut lines: Vec<String> = kinds
            .iter()
            .zip(by_kind)
            .filter(|(_, pence)| *pence > 0)
            .map(|((_, name), pence)| format!("{name}: {}", pounds(pence)))
            .collect();
        lines.push(format!("tips in the jar: {}", pounds(salon.tips_today)));
        lines.push(format!("takings: {}, VAT {}", signed(takings), signed(vat)));
        lines
    });
    till
}

/// This week's takings, Monday to today: each day's (refunds taken off) with its number of till lines, then the
/// week's with its VAT.
#[node]
pub fn week_takings(salon: &Mvu<Salon, Msg>) -> Memo<Vec<String>> {
    let week = salon.select(|salon| {
        let monday = monday_of(salon.today);
        let mut lines = Vec::new();
        let (mut week_total, mut week_vat) = (0_i64, 0_i64);
        for day in monday..=salon.today {
            let (mut total, mut count) = (0_i64, 0);
            for sale in salon.sales_on(day) {
                let (gross, vat) = (i64::from(sale.gross), i64::from(vat_in(sale.gross)));
                match sale.kind {
                    SaleKind::Refund => (total, week_vat) = (total - gross, week_vat - vat),
                    SaleKind::Voucher => total += gross,
                    _ => (total, week_vat) = (total + gross, week_vat + vat),
                }
                count += 1;
            }
            if count == 0 {
                continue;
            }
            let what = if count == 1 { "line" } else { "lines" };
            lines.push(format!(
                "{} day {day}: {} ({count} till {what})",
                weekday_name(day),
                signed(total)
            ));
            week_total += total;
        }
        lines.push(format!(
            "week: {}, VAT {}",
            signed(week_total),
            signed(week_vat)
        ));
        lines
    });
    week
}

pub mod slipped {
    use super::super::model::{Msg, SaleKind, Salon, monday_of, pounds, signed, weekday_name};
    use super::super::pricing::vat_in;
    use ranvier::{Memo, Mvu, node};

    /// [`super::day_till`], with the mistake.
    #[node]
    pub fn day_till(salon: &Mvu<Salon, Msg>) -> Memo<Vec<String>> {
        let till = salon.select(|salon| {
            let kinds = [
                (SaleKind::Deposit, "deposits"),
                (SaleKind::Service, "services"),
                (SaleKind::Retail, "retail"),
                (SaleKind::NoShowFee, "no-show fees"),
                (SaleKind::Voucher, "gift vouchers"),
                (SaleKind::Refund, "refunds"),
            ];
            let mut by_kind = [0_u32; 6];
            let (mut takings, mut vat) = (0_i64, 0_i64);
            for sale in salon.sales_on(salon.today) {
                let gross = i64::from(sale.gross);
                match sale.kind {
                    SaleKind::Refund => {
                        // BUG(day_till)
                        takings += gross;
                        vat -= i64::from(vat_in(sale.gross));
                    }
                    SaleKind::Voucher => takings += gross,
                    _ => {
                        takings += gross;
                        vat += i64::from(vat_in(sale.gross));
                    }
                }
                let at = kinds
                    .iter()
                    .position(|(kind, _)| *kind == sale.kind)
                    .unwrap_or(0);
                by_kind[at] += sale.gross;
            }
            let mut lines: Vec<String> = kinds
                .iter()
                .zip(by_kind)
                .filter(|(_, pence)| *pence > 0)
                .map(|((_, name), pence)| format!("{name}: {}", pounds(pence)))
                .collect();
            lines.push(format!("tips in the jar: {}", pounds(salon.tips_today)));
            lines.push(format!("takings: {}, VAT {}", signed(takings), signed(vat)));
            lines
        });
        till
    }

    /// [`super::week_takings`], with the mistake.
    #[node]
    pub fn week_takings(salon: &Mvu<Salon, Msg>) -> Memo<Vec<String>> {
        let week = salon.select(|salon| {
            let monday = monday_of(salon.today);
            let mut lines = Vec::new();
            let (mut week_total, mut week_vat) = (0_i64, 0_i64);
            // BUG(week_takings)
            for day in monday..salon.today {
                let (mut total, mut count) = (0_i64, 0);
                for sale in salon.sales_on(day) {
                    let (gross, vat) = (i64::from(sale.gross), i64::from(vat_in(sale.gross)));
                    match sale.kind {
                        SaleKind::Refund => (total, week_vat) = (total - gross, week_vat - vat),
                        SaleKind::Voucher => total += gross,
                        _ => (total, week_vat) = (total + gross, week_vat + vat),
                    }
                    count += 1;
                }
                if count == 0 {
                    continue;
                }
                let what = if count == 1 { "line" } else { "lines" };
                lines.push(format!(
                    "{} day {day}: {} ({count} till {what})",
                    weekday_name(day),
                    signed(total)
                ));
                week_total += total;
            }
            lines.push(format!(
                "week: {}, VAT {}",
                signed(week_total),
                signed(week_vat)
            ));
            lines
        });
        week
    }
}
