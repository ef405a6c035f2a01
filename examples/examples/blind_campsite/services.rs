//! The two values the office gets from network services: the electricity bills of the stays that used a hook-up
//! (at the supplier's unit rate), and the card processor's payout of the week's payments (less its fees).

use ranvier::{AsyncMemo, Memo};

use super::model::{Booking, Stay, money, units_between};
use super::remote;

/// The week's card payments, as the processor settles them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardWeek {
    /// Payments taken, in pence.
    pub taken: u64,
    /// How many payments.
    pub payments: u32,
    /// Refunds paid out, in pence.
    pub refunds: u64,
}

/// A rate in tenths of a penny, as the office writes it: `34.5p`.
fn rate_text(tenths: u64) -> String {
    format!("{}.{}p", tenths / 10, tenths % 10)
}

/// The electricity of every stay that left a hook-up pitch, metered at arrival and at departure and priced at the
/// supplier's rate for `today`, then the total.
pub fn hookup_bills(stays: &Memo<Vec<Booking>>, today: &Memo<u32>) -> AsyncMemo<Vec<String>> {
    let (stays, today) = (stays.clone(), today.clone());
    AsyncMemo::try_new(move |_| {
        let metered: Vec<Booking> = stays
            .get()
            .into_iter()
            .filter(|stay| stay.status == Stay::Departed && stay.meter_out.is_some())
            .collect();
        let day = today.get();
        async move {
            if metered.is_empty() {
                return Ok(vec!["no metered stays yet".to_owned()]);
            }
            let rate = remote::unit_rate(day).await?;
            let mut lines = Vec::new();
            let mut total = 0;
            for stay in &metered {
                let (Some(first), Some(last)) = (stay.meter_in, stay.meter_out) else {
                    continue;
                };
                let units = units_between(first, last);
                // to the nearest penny
                let pence = (u64::from(units) * rate + 5) / 10;
                total += pence;
                lines.push(format!(
                    "#{} {} on {}: {units} units at {}, {}",
                    stay.id,
                    stay.name,
                    stay.pitch,
                    rate_text(rate),
                    money(pence)
                ));
            }
            lines.push(format!("electricity: {}", money(total)));
            Ok::<_, String>(lines)
        }
    })
}

/// What the card processor pays out for the week: the payments taken, less its share and its fee per payment, less
/// the refunds paid back.
pub fn payout(week: &Memo<CardWeek>) -> AsyncMemo<String> {
    let week = week.clone();
    AsyncMemo::try_new(move |_| {
        let week = week.get();
        async move {
            if week.payments == 0 {
                return Ok("no card payments this week".to_owned());
            }
            let terms = remote::card_terms().await?;
            // the share, to the nearest penny
            let share = (week.taken * terms.basis_points + 5_000) / 10_000;
            let fees = share + u64::from(week.payments) * terms.per_payment;
            let payout = week.taken.saturating_sub(fees).saturating_sub(week.refunds);
            let payments = if week.payments == 1 {
                "payment"
            } else {
                "payments"
            };
            Ok::<_, String>(format!(
                "{} {payments}, {}; fees {}; refunds {}; payout {}",
                week.payments,
                money(week.taken),
                money(fees),
                money(week.refunds),
                money(payout)
            ))
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use ranvier::{AsyncMemo, Memo};

    use super::super::model::{Booking, Stay, money, units_between};
    use super::super::remote;
    use super::{CardWeek, rate_text};

    /// [`super::hookup_bills`].
    pub fn hookup_bills(stays: &Memo<Vec<Booking>>, today: &Memo<u32>) -> AsyncMemo<Vec<String>> {
        let (stays, today) = (stays.clone(), today.clone());
        AsyncMemo::try_new(move |_| {
            let metered: Vec<Booking> = stays
                .get()
                .into_iter()
                .filter(|stay| stay.status == Stay::Departed && stay.meter_out.is_some())
                .collect();
            let day = today.get();
            async move {
                if metered.is_empty() {
                    return Ok(vec!["no metered stays yet".to_owned()]);
                }
                let rate = remote::unit_rate(day).await?;
                let mut lines = Vec::new();
                let mut total = 0;
                for stay in &metered {
                    let (Some(first), Some(last)) = (stay.meter_in, stay.meter_out) else {
                        continue;
                    };
                    // BUG(meter_units)
                    let units = units_between(last, first);
                    // to the nearest penny
                    let pence = (u64::from(units) * rate + 5) / 10;
                    total += pence;
                    lines.push(format!(
                        "#{} {} on {}: {units} units at {}, {}",
                        stay.id,
                        stay.name,
                        stay.pitch,
                        rate_text(rate),
                        money(pence)
                    ));
                }
                lines.push(format!("electricity: {}", money(total)));
                Ok::<_, String>(lines)
            }
        })
    }

    /// [`super::payout`].
    pub fn payout(week: &Memo<CardWeek>) -> AsyncMemo<String> {
        let week = week.clone();
        AsyncMemo::try_new(move |_| {
            let week = week.get();
            async move {
                if week.payments == 0 {
                    return Ok("no card payments this week".to_owned());
                }
                let terms = remote::card_terms().await?;
                // the share, to the nearest penny
                // BUG(card_fee)
                let share = (week.taken * terms.basis_points + 500) / 1_000;
                let fees = share + u64::from(week.payments) * terms.per_payment;
                let payout = week.taken.saturating_sub(fees).saturating_sub(week.refunds);
                let payments = if week.payments == 1 {
                    "payment"
                } else {
                    "payments"
                };
                Ok::<_, String>(format!(
                    "{} {payments}, {}; fees {}; refunds {}; payout {}",
                    week.payments,
                    money(week.taken),
                    money(fees),
                    money(week.refunds),
                    money(payout)
                ))
            }
        })
    }
}
