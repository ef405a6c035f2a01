//! The campsite's graph: what an agent may see (`#[expose]`) and the memos that make it, the warden's board, the
//! office's lists of bookings, the shop and the week's takings among them.

use std::rc::Rc;

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::model::{
    self, Booking, Campsite, Entry, Msg, Pitch, Sale, SameAs, Stay, Takes, money, signed,
};
use super::pitches::{self, Pitches, RowFactory};
use super::pricing::{self, SeasonOf};
use super::services::{self, CardWeek};
use super::update::{self, Helpers};
use super::{policy, shop};

/// Which mistake the campsite is built with (`None`: the correct campsite).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct campsite.
    None,
    /// See `SLIPS` in `main.rs`.
    MeterUnits,
    /// See `SLIPS`.
    CardFee,
    /// See `SLIPS`.
    ChildRate,
    /// See `SLIPS`.
    FreeHookups,
    /// See `SLIPS`.
    CloseTill,
    /// See `SLIPS`.
    StockLeft,
    /// See `SLIPS`.
    RefundNotice,
    /// See `SLIPS`.
    PeakNights,
    /// See `SLIPS`.
    TokenBundles,
    /// See `SLIPS`.
    BoardDay,
    /// See `SLIPS`.
    DayTotals,
    /// See `SLIPS`.
    PitchEq,
}

impl Slip {
    /// `update`'s helpers and rules for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::PeakNights => Helpers {
                season: pricing::slipped::season,
                ..correct
            },
            Slip::TokenBundles => Helpers {
                price: shop::slipped::price,
                ..correct
            },
            Slip::RefundNotice => Helpers {
                refund: policy::slipped::refund,
                ..correct
            },
            Slip::StockLeft => Helpers {
                sell: update::slipped::sell,
                ..correct
            },
            Slip::CloseTill => Helpers {
                next_day: update::slipped::next_day,
                ..correct
            },
            _ => correct,
        }
    }
}

/// "1 sale", "2 sales".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The campsite as an agent sees it.
#[expose]
pub struct CampsiteApp {
    /// The model and its messages.
    #[expose(messages)]
    pub site: Mvu<Campsite, Msg>,
    /// Today, as a day of the year.
    #[expose]
    #[node]
    pub today: Memo<u32>,
    /// The field: one row per pitch, with its party and what they pay tonight.
    #[expose]
    #[node]
    pub pitches: Pitches,
    /// The warden's board for today: arrivals, departures, pitches to clean, who is on site.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// Pitches taken tonight.
    #[expose]
    #[node]
    pub occupancy: Memo<String>,
    /// Hook-ups free and clean for a caravan arriving now.
    #[expose]
    #[node]
    pub hookups: Memo<String>,
    /// What each party pays for tonight, and the night's total.
    #[expose]
    #[node]
    pub night_audit: Memo<Vec<String>>,
    /// Every booking and where it stands.
    #[expose]
    #[node]
    pub bookings: Memo<Vec<String>>,
    /// The shop's stock and till.
    #[expose]
    #[node]
    pub shop: Memo<Vec<String>>,
    /// The week's takings, day by day.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// The electricity of the stays that used a hook-up, at the supplier's rate.
    #[expose]
    #[node]
    pub hookup_bills: AsyncMemo<Vec<String>>,
    /// The card processor's payout for the week.
    #[expose]
    #[node]
    pub payout: AsyncMemo<String>,
}

/// Builds the campsite with `slip`; `#[node]` names each node after its `let`.
#[node]
pub fn campsite(slip: Slip) -> CampsiteApp {
    let helpers = slip.helpers();
    let same: SameAs = match slip {
        Slip::PitchEq => model::slipped::same_as,
        _ => Pitch::same_as,
    };
    let site = Mvu::with_commands(
        (Campsite::opening(same), Vec::new()),
        move |msg, site: &Campsite| update::update(msg, site, &helpers),
    );
    let today = site.select(|site| site.today);
    let stays = site.select(|site| site.bookings.clone());
    let ledger = site.select(|site| site.ledger.clone());
    let till = site.select(|site| site.till.clone());
    let stock = site.select(|site| site.stock.clone());
    let field = site.select(|site| site.pitches.clone());
    let row: RowFactory = match slip {
        Slip::ChildRate => pitches::slipped::pitch_row,
        _ => pitches::pitch_row,
    };
    let pitches = pitches::pitches(field, &today, row, helpers.season);
    let taken = pitches::taken(&pitches);
    let dirty = pitches::dirty(&pitches);
    let free_hookups = match slip {
        Slip::FreeHookups => pitches::slipped::free_hookups(&pitches),
        _ => pitches::free_hookups(&pitches),
    };
    let cleaning = pitches::cleaning_order(&pitches);

    let board = match slip {
        Slip::BoardDay => slipped::board(&today, &stays, &cleaning, &dirty, helpers.season),
        _ => board(&today, &stays, &cleaning, &dirty, helpers.season),
    };

    let occupancy = Memo::new({
        let (taken, pitches) = (taken.clone(), pitches.clone());
        move |_| {
            let (taken, all) = (taken.get(), pitches.len());
            format!(
                "{taken} of {all} pitches taken tonight ({}%)",
                taken * 100 / all.max(1)
            )
        }
    });

    let hookups = Memo::new({
        let free_hookups = free_hookups.clone();
        move |_| {
            let free = free_hookups.get();
            if free.is_empty() {
                "no free hook-ups".to_owned()
            } else {
                format!("free hook-ups: {}", free.join(", "))
            }
        }
    });

    let night_audit = Memo::new({
        let pitches = pitches.clone();
        move |_| {
            let mut parties = Vec::new();
            pitches.for_each(|id, pitch, (_, tonight)| {
                if let Some(party) = &pitch.party {
                    parties.push((id.clone(), party.clone(), tonight.clone()));
                }
            });
            let mut lines = Vec::new();
            let mut total = 0;
            for (id, party, tonight) in parties {
                let pence = tonight.get();
                total += pence;
                lines.push(format!(
                    "{id}: {}, {}, {}, {}: {}",
                    party.name,
                    count(party.adults as usize, "adult", "adults"),
                    count(party.children as usize, "child", "children"),
                    count(party.dogs as usize, "dog", "dogs"),
                    money(pence)
                ));
            }
            lines.push(format!("tonight: {}", money(total)));
            lines
        }
    });

    let bookings = Memo::new({
        let (stays, today, refund) = (stays.clone(), today.clone(), helpers.refund);
        move |_| {
            let today = today.get();
            let stays = stays.get();
            if stays.is_empty() {
                return vec!["no bookings".to_owned()];
            }
            stays
                .iter()
                .map(|stay| {
                    let state = match stay.status {
                        Stay::Booked => format!(
                            "booked; cancelled today it would refund {}",
                            money(refund(stay.paid, stay.arrive.saturating_sub(today)))
                        ),
                        Stay::Arrived => "on site".to_owned(),
                        Stay::Departed if stay.late_fee > 0 => {
                            format!("left late, fee {}", money(stay.late_fee))
                        }
                        Stay::Departed => "left".to_owned(),
                        Stay::Cancelled => format!("cancelled, refunded {}", money(stay.refund)),
                    };
                    format!(
                        "#{} {}, {}, days {}–{}, {} and {}: {} paid, {state}",
                        stay.id,
                        stay.name,
                        stay.pitch,
                        stay.arrive,
                        stay.leaves(),
                        count(stay.guests() as usize, "guest", "guests"),
                        count(stay.dogs as usize, "dog", "dogs"),
                        money(stay.paid)
                    )
                })
                .collect()
        }
    });

    let shop = Memo::new({
        let (stock, till, price) = (stock.clone(), till.clone(), helpers.price);
        move |_| {
            let mut lines: Vec<String> = stock
                .get()
                .iter()
                .map(|line| {
                    let each = price(&line.item, 1).unwrap_or(0);
                    let mut text =
                        format!("{}: {} left, {} each", line.item, line.left, money(each));
                    if line.item == shop::TOKEN {
                        let bundle = price(&line.item, shop::BUNDLE).unwrap_or(0);
                        text.push_str(&format!(", {} for {}", shop::BUNDLE, money(bundle)));
                    }
                    if shop::reorder(&line.item, line.left) {
                        text.push_str(" (reorder)");
                    }
                    text
                })
                .collect();
            let till = till.get();
            lines.push(if till.is_empty() {
                "till: empty".to_owned()
            } else {
                let amount: u64 = till.iter().map(|sale| sale.amount).sum();
                format!(
                    "till: {}, {}",
                    count(till.len(), "sale", "sales"),
                    money(amount)
                )
            });
            lines
        }
    });

    let takings = match slip {
        Slip::DayTotals => slipped::takings(&ledger, &till, &today),
        _ => takings(&ledger, &till, &today),
    };

    let card_week = Memo::new({
        let (ledger, today) = (ledger.clone(), today.clone());
        move |_| {
            let today = today.get();
            let mut week = CardWeek::default();
            for entry in ledger.get().iter().filter(|entry| entry.day + 7 > today) {
                match entry.what {
                    Takes::Refund => week.refunds += entry.amount,
                    _ => {
                        week.taken += entry.amount;
                        week.payments += 1;
                    }
                }
            }
            week
        }
    });

    let hookup_bills = match slip {
        Slip::MeterUnits => services::slipped::hookup_bills(&stays, &today),
        _ => services::hookup_bills(&stays, &today),
    };
    let payout = match slip {
        Slip::CardFee => services::slipped::payout(&card_week),
        _ => services::payout(&card_week),
    };
    CampsiteApp {
        site,
        today,
        pitches,
        board,
        occupancy,
        hookups,
        night_audit,
        bookings,
        shop,
        takings,
        hookup_bills,
        payout,
    }
}

/// The warden's board for today: arrivals, departures, pitches to clean (in the warden's order), who is on site.
fn board(
    today: &Memo<u32>,
    stays: &Memo<Vec<Booking>>,
    cleaning: &Memo<Rc<[String]>>,
    dirty: &Memo<usize>,
    season: SeasonOf,
) -> Memo<Vec<String>> {
    let (today, stays) = (today.clone(), stays.clone());
    let (cleaning, dirty) = (cleaning.clone(), dirty.clone());
    Memo::new(move |_| {
        let day = today.get();
        let stays = stays.get();
        let mut lines = vec![format!("day {day}, {} season", season(day).name())];
        for stay in stays
            .iter()
            .filter(|s| s.status == Stay::Booked && s.arrive == day)
        {
            let nights = count(stay.nights as usize, "night", "nights");
            lines.push(format!(
                "arriving: {} on {}, {nights} (#{})",
                stay.name, stay.pitch, stay.id
            ));
        }
        for stay in stays
            .iter()
            .filter(|s| s.status == Stay::Arrived && s.leaves() == day)
        {
            lines.push(format!(
                "leaving: {} from {} (#{})",
                stay.name, stay.pitch, stay.id
            ));
        }
        let to_clean: Vec<String> = cleaning.get().iter().take(dirty.get()).cloned().collect();
        lines.push(match to_clean.as_slice() {
            [] => "nothing to clean".to_owned(),
            pitches => format!("to clean: {}", pitches.join(", ")),
        });
        let on_site = stays.iter().filter(|stay| stay.status == Stay::Arrived);
        let (guests, dogs) = on_site.fold((0, 0), |(g, d), s| (g + s.guests(), d + s.dogs));
        lines.push(format!("on site: {guests} guests, {dogs} dogs"));
        lines
    })
}

/// The week's takings, day by day: pitch fees, the shop (today's sales still in the till), late fees and refunds,
/// each day's net, and the week's.
fn takings(
    ledger: &Memo<Vec<Entry>>,
    till: &Memo<Vec<Sale>>,
    today: &Memo<u32>,
) -> Memo<Vec<String>> {
    let (ledger, till, today) = (ledger.clone(), till.clone(), today.clone());
    Memo::new(move |_| {
        let today = today.get();
        let (ledger, till) = (ledger.get(), till.get());
        let (mut lines, mut week) = (Vec::new(), 0_i64);
        for day in today.saturating_sub(6)..=today {
            let (mut pitch_fees, mut sales, mut late_fees, mut refunds) = (0, 0, 0, 0);
            for entry in ledger.iter().filter(|entry| entry.day == day) {
                match entry.what {
                    Takes::Pitch => pitch_fees += entry.amount,
                    Takes::Shop => sales += entry.amount,
                    Takes::LateFee => late_fees += entry.amount,
                    Takes::Refund => refunds += entry.amount,
                }
            }
            // today's sales are still in the till
            sales += till
                .iter()
                .filter(|s| s.day == day)
                .map(|s| s.amount)
                .sum::<u64>();
            if pitch_fees + sales + late_fees + refunds == 0 {
                continue;
            }
            let net = (pitch_fees + sales + late_fees) as i64 - refunds as i64;
            week += net;
            let (pitch_fees, sales) = (money(pitch_fees), money(sales));
            let (late_fees, refunds) = (money(late_fees), money(refunds));
            lines.push(format!(
                "day {day}: pitches {pitch_fees}, shop {sales}, late fees {late_fees}, refunds {refunds}: {}",
                signed(net)
            ));
        }
        lines.push(format!("week: {}", signed(week)));
        lines
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use std::rc::Rc;

    use ranvier::Memo;

    use super::super::model::{Booking, Entry, Sale, Stay, Takes, money, signed};
    use super::super::pricing::SeasonOf;
    use super::count;

    /// [`super::board`].
    pub fn board(
        today: &Memo<u32>,
        stays: &Memo<Vec<Booking>>,
        cleaning: &Memo<Rc<[String]>>,
        dirty: &Memo<usize>,
        season: SeasonOf,
    ) -> Memo<Vec<String>> {
        let (today, stays) = (today.clone(), stays.clone());
        let (cleaning, dirty) = (cleaning.clone(), dirty.clone());
        Memo::new(move |_| {
            // BUG(board_day)
            let day = today.peek();
            let stays = stays.get();
            let mut lines = vec![format!("day {day}, {} season", season(day).name())];
            for stay in stays
                .iter()
                .filter(|s| s.status == Stay::Booked && s.arrive == day)
            {
                let nights = count(stay.nights as usize, "night", "nights");
                lines.push(format!(
                    "arriving: {} on {}, {nights} (#{})",
                    stay.name, stay.pitch, stay.id
                ));
            }
            for stay in stays
                .iter()
                .filter(|s| s.status == Stay::Arrived && s.leaves() == day)
            {
                lines.push(format!(
                    "leaving: {} from {} (#{})",
                    stay.name, stay.pitch, stay.id
                ));
            }
            let to_clean: Vec<String> = cleaning.get().iter().take(dirty.get()).cloned().collect();
            lines.push(match to_clean.as_slice() {
                [] => "nothing to clean".to_owned(),
                pitches => format!("to clean: {}", pitches.join(", ")),
            });
            let on_site = stays.iter().filter(|stay| stay.status == Stay::Arrived);
            let (guests, dogs) = on_site.fold((0, 0), |(g, d), s| (g + s.guests(), d + s.dogs));
            lines.push(format!("on site: {guests} guests, {dogs} dogs"));
            lines
        })
    }

    /// [`super::takings`].
    pub fn takings(
        ledger: &Memo<Vec<Entry>>,
        till: &Memo<Vec<Sale>>,
        today: &Memo<u32>,
    ) -> Memo<Vec<String>> {
        let (ledger, till, today) = (ledger.clone(), till.clone(), today.clone());
        Memo::new(move |_| {
            let today = today.get();
            let (ledger, till) = (ledger.get(), till.get());
            let (mut lines, mut week) = (Vec::new(), 0_i64);
            // BUG(day_totals)
            let (mut pitch_fees, mut sales, mut late_fees, mut refunds) = (0, 0, 0, 0);
            for day in today.saturating_sub(6)..=today {
                for entry in ledger.iter().filter(|entry| entry.day == day) {
                    match entry.what {
                        Takes::Pitch => pitch_fees += entry.amount,
                        Takes::Shop => sales += entry.amount,
                        Takes::LateFee => late_fees += entry.amount,
                        Takes::Refund => refunds += entry.amount,
                    }
                }
                // today's sales are still in the till
                sales += till
                    .iter()
                    .filter(|s| s.day == day)
                    .map(|s| s.amount)
                    .sum::<u64>();
                if pitch_fees + sales + late_fees + refunds == 0 {
                    continue;
                }
                let net = (pitch_fees + sales + late_fees) as i64 - refunds as i64;
                week += net;
                let (pitch_fees, sales) = (money(pitch_fees), money(sales));
                let (late_fees, refunds) = (money(late_fees), money(refunds));
                lines.push(format!(
                    "day {day}: pitches {pitch_fees}, shop {sales}, late fees {late_fees}, refunds {refunds}: {}",
                    signed(net)
                ));
            }
            lines.push(format!("week: {}", signed(week)));
            lines
        })
    }
}
