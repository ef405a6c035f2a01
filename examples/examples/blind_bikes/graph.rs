//! The shop as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the counter's `Mvu` with its
//! opening stock as initial commands, the floor's memos, the fleet board and the services.

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::fleet::{self, FleetRow};
use super::model::{self, BikeState, Msg, Shop, clock};
use super::rules;
use super::services::{self, Deposit};
use super::update;

/// A bike this close to its service, in kilometres, is shown with "service soon".
pub const SERVICE_WARNING_KM: u32 = 10;

/// Which mistake the shop runs with (`None`: the correct shop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct shop.
    None,
    /// The kids' rate in the opening price list.
    KidsRate,
    /// The workshop check on a returned bike.
    ServiceAfter,
    /// The day price.
    DayCap,
    /// The late fee's quarter hours.
    LateBlocks,
    /// A rental's extension.
    ExtendHours,
    /// The order of the bikes on the floor.
    LeastWorn,
    /// The minutes a late rental is late.
    LateShadow,
    /// Which bikes may go out.
    RentDamaged,
    /// A row's kilometres left before its service.
    KmLeftSwap,
    /// The kilometres ridden today.
    KmTodayField,
    /// A club member's deposit.
    MemberHalf,
    /// The hours the rain forecast is read for.
    RainHour,
}

/// What an agent may see and send.
#[expose]
pub struct BikeShop {
    /// The counter: its messages.
    #[expose(messages)]
    pub shop: Mvu<Shop, Msg>,
    /// The time of day.
    #[expose]
    pub time: Memo<String>,
    /// The bikes ready to go out, by kind, the least ridden first.
    #[expose]
    #[node]
    pub available: Memo<Vec<String>>,
    /// The rentals past their due time and the grace, the latest first.
    #[expose]
    #[node]
    pub overdue: Memo<Vec<String>>,
    /// Cents taken today.
    #[expose]
    #[node]
    pub takings: Memo<u64>,
    /// What the counter was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The fleet board, one row per bike.
    #[expose]
    #[node]
    pub fleet: Collection<String, FleetRow, Memo<u32>>,
    /// Bikes out.
    #[expose]
    #[node]
    pub out_count: Memo<usize>,
    /// Bikes damaged or in their service.
    #[expose]
    #[node]
    pub workshop_count: Memo<usize>,
    /// Kilometres ridden today.
    #[expose]
    #[node]
    pub km_today: Memo<u32>,
    /// The bike due for its service first.
    #[expose]
    #[node]
    pub next_service: Memo<String>,
    /// The deposit held for the latest rental out.
    #[expose]
    #[node]
    pub deposit: AsyncMemo<Option<Deposit>>,
    /// The riders to phone about rain.
    #[expose]
    #[node]
    pub rain_alerts: AsyncMemo<Vec<String>>,
}

/// The fleet on the floor when the shop opens: number, kind, kilometres since the last service.
pub const OPENING_STOCK: [(&str, &str, u32); 6] = [
    ("b1", "city", 40),
    ("b2", "city", 95),
    ("b3", "city", 20),
    ("e1", "ebike", 120),
    ("e2", "ebike", 10),
    ("k1", "kids", 50),
];

/// Builds the shop as `slip` says: it opens with its fleet stocked (initial commands), then its memos.
#[node]
pub fn bike_shop(slip: Slip) -> BikeShop {
    let update = match slip {
        Slip::ServiceAfter => update::slipped::update_return,
        Slip::DayCap => update::slipped::update_day_cap,
        Slip::LateBlocks => update::slipped::update_late_fee,
        Slip::ExtendHours => update::slipped::update_extend,
        Slip::RentDamaged => update::slipped::update_rent,
        _ => update::update,
    };
    let opening = match slip {
        Slip::KidsRate => model::slipped::OpeningShop::default().0,
        _ => Shop::default(),
    };
    let stock: Vec<Msg> = OPENING_STOCK
        .iter()
        .map(|&(bike, kind, km)| Msg::Stock {
            bike: bike.to_owned(),
            kind: kind.to_owned(),
            km,
        })
        .collect();
    let shop = Mvu::with_commands((opening, stock), update);
    let time = shop.select(|shop| clock(shop.minute));
    let available = match slip {
        Slip::LeastWorn => slipped::available(&shop),
        _ => available(&shop),
    };
    let overdue = match slip {
        Slip::LateShadow => slipped::overdue(&shop),
        _ => overdue(&shop),
    };
    let takings = shop.select(|shop| shop.ledger.iter().map(|c| c.cents).sum::<u64>());
    let notices = shop.select(|shop| shop.notices.clone());
    let board = fleet::fleet(&shop, slip);
    let remote = services::services(&shop, slip);
    BikeShop {
        shop,
        time,
        available,
        overdue,
        takings,
        notices,
        fleet: board.fleet,
        out_count: board.out_count,
        workshop_count: board.workshop_count,
        km_today: board.km_today,
        next_service: board.next_service,
        deposit: remote.deposit,
        rain_alerts: remote.rain_alerts,
    }
}

/// The bikes ready to go out: by kind, then the least ridden since its service first (so the fleet wears evenly),
/// each with "service soon" when it is within [`SERVICE_WARNING_KM`] of its service.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn available(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let bikes = shop.select(|shop| shop.bikes.clone());
    let available = Memo::new(move |_| {
        let bikes = bikes.get();
        let mut ready: Vec<_> = bikes
            .iter()
            .filter(|bike| bike.state == BikeState::Ready)
            .collect();
        ready.sort_by(|a, b| a.kind.cmp(&b.kind).then(a.km.cmp(&b.km)));
        let mut lines = Vec::with_capacity(ready.len());
        for bike in ready {
            let limit = rules::service_km(&bike.kind);
            let line = if bike.km + SERVICE_WARNING_KM >= limit {
                format!("{} {} {} km, service soon", bike.id, bike.kind, bike.km)
            } else {
                format!("{} {} {} km", bike.id, bike.kind, bike.km)
            };
            lines.push(line);
        }
        lines
    });
    available
}

/// The rentals out past their due time and the grace, each with its minutes past the due time, the latest first
/// (they get the first phone call).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn overdue(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let out = shop.select(Shop::open_rentals);
    let minute = shop.select(|shop| shop.minute);
    let grace = shop.select(|shop| shop.rates.grace);
    let overdue = Memo::new(move |_| {
        let now = minute.get();
        let grace = grace.get();
        let mut late = Vec::new();
        for rental in out.get().iter() {
            let due = rental.due();
            if now <= due + grace {
                continue;
            }
            let minutes = now - due;
            late.push((
                minutes,
                format!("{} {}: {minutes} min late", rental.bike, rental.customer),
            ));
        }
        late.sort_by_key(|(minutes, _)| std::cmp::Reverse(*minutes));
        late.into_iter().map(|(_, line)| line).collect::<Vec<_>>()
    });
    overdue
}

/// The floor's memos with a mistake.
mod slipped {
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{BikeState, Msg, Shop};
    use super::super::rules;
    use super::SERVICE_WARNING_KM;

    /// The bikes ready to go out.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn available(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
        let bikes = shop.select(|shop| shop.bikes.clone());
        let available = Memo::new(move |_| {
            let bikes = bikes.get();
            let mut ready: Vec<_> = bikes
                .iter()
                .filter(|bike| bike.state == BikeState::Ready)
                .collect();
            // BUG(least_worn)
            ready.sort_by(|a, b| a.kind.cmp(&b.kind).then(b.km.cmp(&a.km)));
            let mut lines = Vec::with_capacity(ready.len());
            for bike in ready {
                let limit = rules::service_km(&bike.kind);
                let line = if bike.km + SERVICE_WARNING_KM >= limit {
                    format!("{} {} {} km, service soon", bike.id, bike.kind, bike.km)
                } else {
                    format!("{} {} {} km", bike.id, bike.kind, bike.km)
                };
                lines.push(line);
            }
            lines
        });
        available
    }

    /// The rentals out past their due time and the grace.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn overdue(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
        let out = shop.select(Shop::open_rentals);
        let minute = shop.select(|shop| shop.minute);
        let grace = shop.select(|shop| shop.rates.grace);
        let overdue = Memo::new(move |_| {
            let now = minute.get();
            let grace = grace.get();
            let mut late = Vec::new();
            for rental in out.get().iter() {
                let due = rental.due();
                // BUG(late_shadow)
                let due = due + grace;
                if now <= due {
                    continue;
                }
                let minutes = now - due;
                late.push((
                    minutes,
                    format!("{} {}: {minutes} min late", rental.bike, rental.customer),
                ));
            }
            late.sort_by_key(|(minutes, _)| std::cmp::Reverse(*minutes));
            late.into_iter().map(|(_, line)| line).collect::<Vec<_>>()
        });
        overdue
    }
}
