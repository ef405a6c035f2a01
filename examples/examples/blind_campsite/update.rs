//! The campsite's `update`: each message's change to the model, in helpers per message, and the follow-up messages
//! (commands) some of them send. A message that cannot apply is refused with the reason, and nothing changes.

use super::model::{Booking, Campsite, Entry, Msg, Party, Sale, Stay, Takes};
use super::pricing::{self, SeasonOf};
use super::{policy, shop};

/// What `qty` of an item cost, in pence, if the shop sells it ([`shop::price`]).
pub type Price = fn(&str, u32) -> Option<u64>;

/// What goes back on cancelling a stay paid for, with a notice in days ([`policy::refund`]).
pub type Refund = fn(u64, u32) -> u64;

/// Rings up a sale of a quantity of an item at the shop's prices ([`sell`]).
pub type Sell = fn(&mut Campsite, &str, u32, Price) -> Result<Vec<Msg>, String>;

/// The helpers and rules `update` calls through fn values, so that the campsite can be started with another version
/// of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    /// The season of a night.
    pub season: SeasonOf,
    /// The shop's prices.
    pub price: Price,
    /// The cancellation refund.
    pub refund: Refund,
    /// Rings up a sale.
    pub sell: Sell,
    /// The night passes.
    pub next_day: fn(&mut Campsite) -> Result<Vec<Msg>, String>,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            season: pricing::season,
            price: shop::price,
            refund: policy::refund,
            sell,
            next_day,
        }
    }
}

/// A booking as asked for, before it is checked.
pub struct Enquiry {
    /// The pitch.
    pub pitch: String,
    /// The name it is under.
    pub name: String,
    /// The day they arrive.
    pub arrive: u32,
    /// How many nights.
    pub nights: u32,
    /// Adults.
    pub adults: u32,
    /// Children.
    pub children: u32,
    /// Dogs.
    pub dogs: u32,
}

/// The campsite after `msg`, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, site: &Campsite, helpers: &Helpers) -> (Campsite, Vec<Msg>) {
    let mut next = site.clone();
    let applied = match msg {
        Msg::Book {
            pitch,
            name,
            arrive,
            nights,
            adults,
            children,
            dogs,
        } => book(
            &mut next,
            Enquiry {
                pitch,
                name,
                arrive,
                nights,
                adults,
                children,
                dogs,
            },
            helpers.season,
        ),
        Msg::Arrive { booking, meter } => arrive(&mut next, booking, meter),
        Msg::Depart {
            booking,
            meter,
            late,
        } => depart(&mut next, booking, meter, late.unwrap_or(false)),
        Msg::Cancel { booking } => cancel(&mut next, booking, helpers.refund),
        Msg::Cleaned { pitch } => cleaned(&mut next, &pitch),
        Msg::Sell { item, qty } => (helpers.sell)(&mut next, &item, qty, helpers.price),
        Msg::Restock { item, qty } => restock(&mut next, &item, qty),
        Msg::NextDay => (helpers.next_day)(&mut next),
        Msg::MarkToClean { pitch } => mark_to_clean(&mut next, &pitch),
        Msg::CloseTill => close_till(&mut next),
    };
    match applied {
        Ok(commands) => (next, commands),
        Err(reason) => refuse(reason),
    }
}

/// Refuses the message `update` is applying: the dispatcher answers `reason`, and the model stays as it was. It
/// unwinds as a panic does, without the panic hook, so a refusal prints nothing.
#[ranvier::trace_fn]
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

/// Books a pitch, if it is free for those nights and the party fits, and takes the payment (each night priced in the
/// season `season` gives it).
#[ranvier::trace_fn]
fn book(site: &mut Campsite, enquiry: Enquiry, season: SeasonOf) -> Result<Vec<Msg>, String> {
    let pitch = site
        .pitch(&enquiry.pitch)
        .ok_or_else(|| format!("no pitch {:?}", enquiry.pitch))?
        .clone();
    policy::check_party(&pitch, enquiry.adults + enquiry.children, enquiry.dogs)?;
    if enquiry.arrive < site.today {
        return Err(format!(
            "day {} has passed: today is day {}",
            enquiry.arrive, site.today
        ));
    }
    if let Some(other) = site
        .bookings
        .iter()
        .find(|b| b.pitch == pitch.id && policy::clash(b, enquiry.arrive, enquiry.nights))
    {
        return Err(format!(
            "{} is booked by {} (#{}) from day {} to day {}",
            pitch.id,
            other.name,
            other.id,
            other.arrive,
            other.leaves()
        ));
    }
    let paid = pricing::stay_charge(
        pitch.kind,
        enquiry.arrive,
        enquiry.nights,
        enquiry.adults,
        enquiry.children,
        enquiry.dogs,
        season,
    );
    let id = site.next_booking;
    site.next_booking += 1;
    site.bookings.push(Booking {
        id,
        pitch: pitch.id,
        name: enquiry.name,
        booked_on: site.today,
        arrive: enquiry.arrive,
        nights: enquiry.nights,
        adults: enquiry.adults,
        children: enquiry.children,
        dogs: enquiry.dogs,
        status: Stay::Booked,
        paid,
        meter_in: None,
        meter_out: None,
        late_fee: 0,
        refund: 0,
    });
    site.ledger.push(Entry {
        day: site.today,
        what: Takes::Pitch,
        amount: paid,
    });
    Ok(Vec::new())
}

/// Checks a party in on its arrival day: the pitch is theirs, and a hook-up's meter is read.
#[ranvier::trace_fn]
fn arrive(site: &mut Campsite, booking: u32, meter: Option<u32>) -> Result<Vec<Msg>, String> {
    let today = site.today;
    let stay = site
        .booking_mut(booking)
        .ok_or_else(|| format!("no booking #{booking}"))?;
    if stay.status != Stay::Booked {
        return Err(format!(
            "booking #{booking} is {:?}, not booked",
            stay.status
        ));
    }
    if stay.arrive != today {
        return Err(format!(
            "booking #{booking} arrives on day {}, not today (day {today})",
            stay.arrive
        ));
    }
    stay.status = Stay::Arrived;
    stay.meter_in = meter;
    let stay = stay.clone();
    let pitch = site
        .pitch_mut(&stay.pitch)
        .ok_or_else(|| format!("no pitch {:?}", stay.pitch))?;
    if let Some(party) = &pitch.party {
        return Err(format!("{} is still taken by {}", pitch.id, party.name));
    }
    if pitch.hookup && meter.is_none() {
        return Err(format!("{} has a hook-up: read its meter", pitch.id));
    }
    pitch.party = Some(Party {
        booking,
        name: stay.name.clone(),
        adults: stay.adults,
        children: stay.children,
        dogs: stay.dogs,
        leaves: stay.leaves(),
    });
    Ok(Vec::new())
}

/// Checks a party out: the meter is read, a late checkout is charged, and the pitch waits for the warden.
#[ranvier::trace_fn]
fn depart(
    site: &mut Campsite,
    booking: u32,
    meter: Option<u32>,
    late: bool,
) -> Result<Vec<Msg>, String> {
    let today = site.today;
    let stay = site
        .booking_mut(booking)
        .ok_or_else(|| format!("no booking #{booking}"))?;
    if stay.status != Stay::Arrived {
        return Err(format!(
            "booking #{booking} is {:?}, not on site",
            stay.status
        ));
    }
    if let (Some(first), Some(last)) = (stay.meter_in, meter)
        && last < first
    {
        return Err(format!("the meter read {first} at arrival: {last} is less"));
    }
    if stay.meter_in.is_some() && meter.is_none() {
        return Err(format!("booking #{booking} has a hook-up: read its meter"));
    }
    stay.status = Stay::Departed;
    stay.meter_out = meter;
    let pitch_id = stay.pitch.clone();
    let pitch = site
        .pitch_mut(&pitch_id)
        .ok_or_else(|| format!("no pitch {pitch_id:?}"))?;
    pitch.party = None;
    let fee = if late {
        policy::late_fee(pitch.kind)
    } else {
        0
    };
    if fee > 0 {
        if let Some(stay) = site.booking_mut(booking) {
            stay.late_fee = fee;
        }
        site.ledger.push(Entry {
            day: today,
            what: Takes::LateFee,
            amount: fee,
        });
    }
    Ok(vec![Msg::MarkToClean { pitch: pitch_id }])
}

/// Cancels a booking before arrival, refunding by the notice given (by `refund_for`).
#[ranvier::trace_fn]
fn cancel(site: &mut Campsite, booking: u32, refund_for: Refund) -> Result<Vec<Msg>, String> {
    let today = site.today;
    let stay = site
        .booking_mut(booking)
        .ok_or_else(|| format!("no booking #{booking}"))?;
    if stay.status != Stay::Booked {
        return Err(format!(
            "booking #{booking} is {:?}, not booked",
            stay.status
        ));
    }
    let notice = stay.arrive.saturating_sub(today);
    let refund = refund_for(stay.paid, notice);
    stay.status = Stay::Cancelled;
    stay.refund = refund;
    if refund > 0 {
        site.ledger.push(Entry {
            day: today,
            what: Takes::Refund,
            amount: refund,
        });
    }
    Ok(Vec::new())
}

/// The warden has cleaned a pitch.
#[ranvier::trace_fn]
fn cleaned(site: &mut Campsite, pitch: &str) -> Result<Vec<Msg>, String> {
    let today = site.today;
    let pitch = site
        .pitch_mut(pitch)
        .ok_or_else(|| format!("no pitch {pitch:?}"))?;
    pitch.to_clean = false;
    pitch.cleaned_on = Some(today);
    Ok(Vec::new())
}

/// Marks a pitch for the warden.
#[ranvier::trace_fn]
fn mark_to_clean(site: &mut Campsite, pitch: &str) -> Result<Vec<Msg>, String> {
    let pitch = site
        .pitch_mut(pitch)
        .ok_or_else(|| format!("no pitch {pitch:?}"))?;
    pitch.to_clean = true;
    Ok(Vec::new())
}

/// Rings up a sale at the shop: the stock goes down and the till takes the price (by `price`).
#[ranvier::trace_fn]
pub fn sell(site: &mut Campsite, item: &str, qty: u32, price: Price) -> Result<Vec<Msg>, String> {
    let today = site.today;
    let amount = price(item, qty).ok_or_else(|| format!("the shop sells no {item:?}"))?;
    let stock = site
        .stock_mut(item)
        .ok_or_else(|| format!("the shop sells no {item:?}"))?;
    if stock.left < qty {
        return Err(format!("only {} {item} left, not {qty}", stock.left));
    }
    stock.left -= qty;
    site.till.push(Sale {
        day: today,
        item: item.to_owned(),
        qty,
        amount,
    });
    Ok(Vec::new())
}

/// A delivery for the shop.
#[ranvier::trace_fn]
fn restock(site: &mut Campsite, item: &str, qty: u32) -> Result<Vec<Msg>, String> {
    let stock = site
        .stock_mut(item)
        .ok_or_else(|| format!("the shop sells no {item:?}"))?;
    stock.left = stock.left.saturating_add(qty);
    Ok(Vec::new())
}

/// The night passes, and the till is banked.
#[ranvier::trace_fn]
pub fn next_day(site: &mut Campsite) -> Result<Vec<Msg>, String> {
    site.today += 1;
    let commands = vec![Msg::CloseTill];
    Ok(commands)
}

/// Banks the till: each sale goes into the ledger on its own day, and the till is empty.
#[ranvier::trace_fn]
fn close_till(site: &mut Campsite) -> Result<Vec<Msg>, String> {
    for sale in std::mem::take(&mut site.till) {
        site.ledger.push(Entry {
            day: sale.day,
            what: Takes::Shop,
            amount: sale.amount,
        });
    }
    Ok(Vec::new())
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Campsite, Msg, Sale};
    use super::Price;

    /// [`super::sell`].
    #[ranvier::trace_fn]
    pub fn sell(
        site: &mut Campsite,
        item: &str,
        qty: u32,
        price: Price,
    ) -> Result<Vec<Msg>, String> {
        let today = site.today;
        let amount = price(item, qty).ok_or_else(|| format!("the shop sells no {item:?}"))?;
        let stock = site
            .stock_mut(item)
            .ok_or_else(|| format!("the shop sells no {item:?}"))?;
        if stock.left < qty {
            return Err(format!("only {} {item} left, not {qty}", stock.left));
        }
        // BUG(stock_left)
        stock.left += qty;
        site.till.push(Sale {
            day: today,
            item: item.to_owned(),
            qty,
            amount,
        });
        Ok(Vec::new())
    }

    /// [`super::next_day`].
    #[ranvier::trace_fn]
    pub fn next_day(site: &mut Campsite) -> Result<Vec<Msg>, String> {
        site.today += 1;
        // BUG(close_till)
        let commands = Vec::new();
        Ok(commands)
    }
}
