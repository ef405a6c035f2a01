//! The terminal's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the booking
//! desk's `Mvu`, the rules, the departures and the services.

use super::model::{self, Booking, Ferry, Msg, Sailing, VehicleKind, clock, pounds};
use super::remote::{Forecast, Harbours};
use super::sailings::{self, Departures, RowFactory};
use super::tariffs::CABIN;
use super::update::{self, Desk};
use super::{limits, rules, services, tariffs};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the terminal to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    DuesTotal,
    CalmCrossing,
    SeatsLeft,
    BoardOrder,
    PromoteSailing,
    DelayAdds,
    MetreRounding,
    DeckUnits,
    CheckinArms,
    ManifestStandby,
    NetTakings,
    FootGap,
}

/// What an agent sees of the terminal.
#[expose]
pub struct FerryTerminal {
    #[expose(messages)]
    pub ferry: Mvu<Ferry, Msg>,
    /// The terminal's clock, `HH:MM`.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// Today's sailings with their bookings.
    #[expose]
    #[node]
    pub sailings: Departures,
    /// Each sailing's load, in the order they leave.
    #[expose]
    #[node]
    pub departures: Memo<Vec<String>>,
    /// The sailings still open for booking.
    #[expose]
    #[node]
    pub open_sailings: Memo<Vec<String>>,
    /// How many sailings have a standby list.
    #[expose]
    #[node]
    pub standby_sailings: Memo<usize>,
    /// The standby bookings.
    #[expose]
    #[node]
    pub standby: Memo<Vec<String>>,
    /// Every booking with its fare.
    #[expose]
    #[node]
    pub bookings: Memo<Vec<String>>,
    /// The bookings still to check in, and until when.
    #[expose]
    #[node]
    pub to_check_in: Memo<Vec<String>>,
    /// The day's manifest: who sails on each sailing.
    #[expose]
    #[node]
    pub manifest: Memo<Vec<String>>,
    /// The day's takings.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// What the desk has noted today.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The harbour dues of each sailing, as quoted.
    #[expose]
    #[node]
    pub harbour_dues: AsyncMemo<Vec<String>>,
    /// Wind warnings for the sailings with bookings.
    #[expose]
    #[node]
    pub wind_warnings: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s rules and helpers for this version.
    fn desk(self) -> Desk {
        let correct = Desk::default();
        match self {
            Slip::MetreRounding => Desk {
                vehicle_fare: tariffs::slipped::vehicle_fare,
                ..correct
            },
            Slip::DeckUnits => Desk {
                deck_fits: limits::slipped::deck_fits,
                ..correct
            },
            Slip::FootGap => Desk {
                lane_cm: model::slipped::lane_cm,
                ..correct
            },
            Slip::CheckinArms => Desk {
                check_in_closes: rules::slipped::check_in_closes,
                ..correct
            },
            Slip::PromoteSailing => Desk {
                cancel: update::slipped::cancel,
                ..correct
            },
            Slip::DelayAdds => Desk {
                delay: update::slipped::delay,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the terminal with `slip`.
#[node]
pub fn ferry_terminal(slip: Slip) -> FerryTerminal {
    let desk = slip.desk();
    let ferry = Mvu::with_commands((Ferry::default(), Vec::new()), move |msg, ferry: &Ferry| {
        update::update(msg, ferry, &desk)
    });
    let now = ferry.select(|ferry| ferry.now);
    let clock = ferry.select(|ferry| model::clock(ferry.now));
    let voyages = ferry.select(Ferry::voyages);

    let row: RowFactory = match slip {
        Slip::SeatsLeft => sailings::slipped::sailing_row,
        _ => sailings::sailing_row,
    };
    let sailings = sailings::departures(&voyages, row, desk.lane_cm);
    let order = match slip {
        Slip::BoardOrder => sailings::slipped::in_departure_order(&sailings),
        _ => sailings::in_departure_order(&sailings),
    };
    let departures = sailings::day_sheet(&sailings, &order);
    let open = sailings::open_for_booking(&sailings);
    let open_sailings = sailings::titles(&voyages, &open.keys());
    let standby_sailings = sailings::with_standby(&sailings);
    let standby = sailings::standby_list(&ferry);

    let bookings =
        ferry.select(|ferry| ferry.bookings.iter().map(booking_line).collect::<Vec<_>>());
    let to_check_in = check_in_list(&ferry, desk.check_in_closes);
    let manifest = match slip {
        Slip::ManifestStandby => slipped::manifest(&ferry),
        _ => manifest(&ferry),
    };
    let takings = match slip {
        Slip::NetTakings => slipped::takings(&ferry),
        _ => takings(&ferry),
    };
    let notices = ferry.select(|ferry| ferry.notices.clone());

    let harbours = Rc::new(Harbours::default());
    let forecast = Rc::new(Forecast::default());
    let harbour_dues = match slip {
        Slip::DuesTotal => services::slipped::harbour_dues(&voyages, harbours),
        _ => services::harbour_dues(&voyages, harbours),
    };
    let wind_warnings = match slip {
        Slip::CalmCrossing => services::slipped::wind_warnings(&voyages, &now, forecast),
        _ => services::wind_warnings(&voyages, &now, forecast),
    };

    FerryTerminal {
        ferry,
        clock,
        sailings,
        departures,
        open_sailings,
        standby_sailings,
        standby,
        bookings,
        to_check_in,
        manifest,
        takings,
        notices,
        harbour_dues,
        wind_warnings,
    }
}

/// `1001 Ross, sailing 1: 2 adults, car 4.3 m: £65.00 + £2.40 port fee`.
fn booking_line(booking: &Booking) -> String {
    let standby = if booking.standby { " (standby)" } else { "" };
    format!(
        "{} {}, sailing {}{standby}: {}: {} + {} port fee",
        booking.reference,
        booking.name,
        booking.sailing,
        booking.party(),
        pounds(booking.fare),
        pounds(booking.port_fee)
    )
}

/// The bookings not checked in on sailings still to leave, each with the time its check-in closes (or `closed`).
fn check_in_list(
    ferry: &Mvu<Ferry, Msg>,
    closes: fn(&Sailing, Option<VehicleKind>) -> u32,
) -> Memo<Vec<String>> {
    let ferry = ferry.clone();
    Memo::new(move |_| {
        ferry.with_model(|day| {
            let mut lines = Vec::new();
            for booking in day.bookings.iter().filter(|booking| !booking.checked_in) {
                let Some(sailing) = day.sailing(booking.sailing) else {
                    continue;
                };
                if sailing.cancelled || day.now >= sailing.departs_at() {
                    continue;
                }
                let kind = booking.vehicle.as_ref().map(|vehicle| vehicle.kind);
                let by = closes(sailing, kind);
                let how = kind.map_or("on foot", VehicleKind::name);
                let state = if day.now > by {
                    "closed".to_owned()
                } else {
                    format!("check in by {}", clock(by))
                };
                lines.push(format!(
                    "{} {} ({how}) for the {}: {state}",
                    booking.reference,
                    booking.name,
                    sailing.title()
                ));
            }
            lines
        })
    })
}

/// The day's manifest: per sailing with bookings confirmed on it, who sails, what is on the deck and how many
/// bookings have checked in.
fn manifest(ferry: &Mvu<Ferry, Msg>) -> Memo<Vec<String>> {
    let ferry = ferry.clone();
    Memo::new(move |_| {
        let day = ferry.model();
        let mut lines = Vec::new();
        for sailing in day.sailings.iter().filter(|sailing| !sailing.cancelled) {
            let (mut adults, mut children, mut seniors) = (0, 0, 0);
            let (mut vehicles, mut cabins, mut parties, mut checked_in) = (0, 0, 0, 0);
            let aboard = day
                .bookings
                .iter()
                .filter(|b| b.sailing == sailing.id && !b.standby);
            for booking in aboard {
                parties += 1;
                adults += booking.adults;
                children += booking.children;
                seniors += booking.seniors;
                vehicles += u32::from(booking.vehicle.is_some());
                cabins += u32::from(booking.cabin);
                checked_in += u32::from(booking.checked_in);
            }
            if parties == 0 {
                continue;
            }
            let passengers = adults + children + seniors;
            lines.push(format!(
                "{}: {passengers} passengers ({adults} adults, {children} children, {seniors} seniors), \
                 {vehicles} vehicles, {cabins} cabins; {checked_in} of {parties} bookings checked in",
                sailing.title()
            ));
        }
        lines
    })
}

/// The day's takings: the fares of every booking made (the cabins among them), the port fees collected for the
/// harbours, the refunds, and what the operator keeps.
fn takings(ferry: &Mvu<Ferry, Msg>) -> Memo<Vec<String>> {
    let ferry = ferry.clone();
    Memo::new(move |_| {
        let day = ferry.model();
        let made = day
            .bookings
            .iter()
            .chain(day.cancelled.iter().map(|cancelled| &cancelled.booking));
        let (mut count, mut fares, mut cabins) = (0, 0, 0);
        for booking in made {
            count += 1;
            fares += booking.fare;
            if booking.cabin {
                cabins += CABIN;
            }
        }
        let port_fees: u32 = day.bookings.iter().map(|booking| booking.port_fee).sum();
        let refunds: u32 = day.cancelled.iter().map(|cancelled| cancelled.refund).sum();
        let kept = fares - refunds;
        vec![
            format!("bookings made: {count}, cancelled: {}", day.cancelled.len()),
            format!("fares: {} (cabins {})", pounds(fares), pounds(cabins)),
            format!("port fees for the harbours: {}", pounds(port_fees)),
            format!("refunds: {}", pounds(refunds)),
            format!("kept: {}", pounds(kept)),
        ]
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Ferry, Msg, pounds};
    use super::super::tariffs::CABIN;
    use ranvier::{Memo, Mvu};

    /// [`super::manifest`].
    pub fn manifest(ferry: &Mvu<Ferry, Msg>) -> Memo<Vec<String>> {
        let ferry = ferry.clone();
        Memo::new(move |_| {
            let day = ferry.model();
            let mut lines = Vec::new();
            for sailing in day.sailings.iter().filter(|sailing| !sailing.cancelled) {
                let (mut adults, mut children, mut seniors) = (0, 0, 0);
                let (mut vehicles, mut cabins, mut parties, mut checked_in) = (0, 0, 0, 0);
                // BUG(manifest_standby)
                let aboard = day.bookings.iter().filter(|b| b.sailing == sailing.id);
                for booking in aboard {
                    parties += 1;
                    adults += booking.adults;
                    children += booking.children;
                    seniors += booking.seniors;
                    vehicles += u32::from(booking.vehicle.is_some());
                    cabins += u32::from(booking.cabin);
                    checked_in += u32::from(booking.checked_in);
                }
                if parties == 0 {
                    continue;
                }
                let passengers = adults + children + seniors;
                lines.push(format!(
                    "{}: {passengers} passengers ({adults} adults, {children} children, {seniors} seniors), \
                     {vehicles} vehicles, {cabins} cabins; {checked_in} of {parties} bookings checked in",
                    sailing.title()
                ));
            }
            lines
        })
    }

    /// [`super::takings`].
    pub fn takings(ferry: &Mvu<Ferry, Msg>) -> Memo<Vec<String>> {
        let ferry = ferry.clone();
        Memo::new(move |_| {
            let day = ferry.model();
            let made = day
                .bookings
                .iter()
                .chain(day.cancelled.iter().map(|cancelled| &cancelled.booking));
            let (mut count, mut fares, mut cabins) = (0, 0, 0);
            for booking in made {
                count += 1;
                fares += booking.fare;
                if booking.cabin {
                    cabins += CABIN;
                }
            }
            let port_fees: u32 = day.bookings.iter().map(|booking| booking.port_fee).sum();
            let refunds: u32 = day.cancelled.iter().map(|cancelled| cancelled.refund).sum();
            // BUG(net_takings)
            let kept = fares + refunds;
            vec![
                format!("bookings made: {count}, cancelled: {}", day.cancelled.len()),
                format!("fares: {} (cabins {})", pounds(fares), pounds(cabins)),
                format!("port fees for the harbours: {}", pounds(port_fees)),
                format!("refunds: {}", pounds(refunds)),
                format!("kept: {}", pounds(kept)),
            ]
        })
    }
}
