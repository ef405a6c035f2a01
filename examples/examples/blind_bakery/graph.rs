//! The bakery as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the bakery's `Mvu` with its
//! range added as initial commands, today's lists, the bakehouse's plan and the services.

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::model::{Bakery, Msg, Product, weekday};
use super::oven::{self, Plan};
use super::recipes;
use super::services;
use super::update;

/// Which mistake the bakery runs with (`None`: the correct bakery).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct bakery.
    None,
    /// The free delivery's threshold.
    FeeDefault,
    /// The notice an order needs.
    LeadTime,
    /// The flour a product takes.
    FlourField,
    /// The volume discount.
    VolumeDiscount,
    /// The pieces a bake adds.
    BakeTrays,
    /// The delivery fee's invoice.
    DeliveryFee,
    /// What is left to bake.
    LeftSwapped,
    /// Today's open orders.
    OrdersPeek,
    /// A product's trays.
    TrayCeil,
    /// The products short.
    ShortCount,
    /// The oven's order.
    BakeOrder,
    /// The flour's cost.
    FlourCost,
    /// The van's stops.
    StopsDefault,
}

/// What an agent may see and send.
#[expose]
pub struct BakeryApp {
    /// The bakery: its messages.
    #[expose(messages)]
    pub bakery: Mvu<Bakery, Msg>,
    /// Today.
    #[expose]
    pub today: Memo<String>,
    /// What is left to bake today, by product: pieces and trays.
    #[expose]
    #[node]
    pub to_bake: Memo<Vec<String>>,
    /// Today's orders not yet delivered, by number.
    #[expose]
    #[node]
    pub open_orders: Memo<Vec<String>>,
    /// The flour today's orders take.
    #[expose]
    #[node]
    pub flour_kg: Memo<String>,
    /// Cents invoiced, all customers.
    #[expose]
    #[node]
    pub revenue: Memo<u64>,
    /// What the bakery was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The bakehouse's plan for today, one row per product.
    #[expose]
    #[node]
    pub plan: Plan,
    /// Products with fewer pieces baked than ordered.
    #[expose]
    #[node]
    pub short: Memo<usize>,
    /// The oven's run: the products with trays to bake, in the order they go in.
    #[expose]
    #[node]
    pub oven_run: Memo<Vec<String>>,
    /// The trays left and the oven's minutes for them.
    #[expose]
    #[node]
    pub oven_time: Memo<String>,
    /// What today's flour costs at the mill's prices.
    #[expose]
    #[node]
    pub flour_cost: AsyncMemo<String>,
    /// The van's stops today, nearest first.
    #[expose]
    #[node]
    pub stops: AsyncMemo<Vec<String>>,
}

/// The range: code, name, cents a piece, pieces a tray, minutes, °C, flour and dough grams a piece, flour, days'
/// notice.
#[allow(clippy::type_complexity)]
pub const RANGE: [(&str, &str, u64, u32, u32, u32, u32, u32, &str, u32); 5] = [
    ("BAG", "baguette", 120, 12, 25, 250, 160, 270, "wheat", 0),
    ("CRO", "croissant", 150, 20, 18, 190, 45, 80, "wheat", 0),
    ("SOU", "sourdough", 450, 8, 45, 230, 500, 850, "wheat", 1),
    ("RYE", "rye loaf", 400, 8, 50, 220, 450, 780, "rye", 1),
    ("BUN", "bun", 60, 30, 15, 200, 50, 85, "wheat", 0),
];

/// The flour pieces of a product take (see [`recipes::flour_for`]).
pub type FlourFor = fn(&Product, u32) -> u64;

/// Builds the bakery as `slip` says: it adds its range (initial commands), then its memos.
#[node]
pub fn bakery_app(slip: Slip) -> BakeryApp {
    let update = match slip {
        Slip::LeadTime => update::slipped::update_lead,
        Slip::VolumeDiscount => update::slipped::update_discount,
        Slip::BakeTrays => update::slipped::update_bake,
        Slip::DeliveryFee => update::slipped::update_deliver,
        _ => update::update,
    };
    let model = match slip {
        Slip::FeeDefault => Bakery {
            settings: super::model::slipped::PriceList::default().0,
            ..Bakery::default()
        },
        _ => Bakery::default(),
    };
    let range: Vec<Msg> = RANGE
        .iter()
        .map(
            |&(
                code,
                name,
                price,
                per_tray,
                minutes,
                temperature,
                flour_grams,
                dough_grams,
                flour,
                lead,
            )| {
                Msg::AddProduct(Product {
                    code: code.to_owned(),
                    name: name.to_owned(),
                    price,
                    per_tray,
                    bake_minutes: minutes,
                    temperature,
                    flour_grams,
                    dough_grams,
                    flour: flour.to_owned(),
                    lead_days: lead,
                })
            },
        )
        .collect();
    let bakery = Mvu::with_commands((model, range), update);
    let today = bakery.select(|bakery| weekday(bakery.day));
    let to_bake = match slip {
        Slip::LeftSwapped => slipped::to_bake(&bakery),
        _ => to_bake(&bakery),
    };
    let open_orders = match slip {
        Slip::OrdersPeek => slipped::open_orders(&bakery),
        _ => open_orders(&bakery),
    };
    let flour_kg = match slip {
        Slip::FlourField => flour_kg(&bakery, recipes::slipped::flour_for),
        _ => flour_kg(&bakery, recipes::flour_for),
    };
    let revenue = bakery.select(|bakery| bakery.invoices.iter().map(|i| i.cents).sum::<u64>());
    let notices = bakery.select(|bakery| bakery.notices.clone());
    let oven = oven::oven(&bakery, slip);
    let remote = services::services(&bakery, slip);
    BakeryApp {
        bakery,
        today,
        to_bake,
        open_orders,
        flour_kg,
        revenue,
        notices,
        plan: oven.plan,
        short: oven.short,
        oven_run: oven.oven_run,
        oven_time: oven.oven_time,
        flour_cost: remote.flour_cost,
        stops: remote.stops,
    }
}

/// What is left to bake today, by product in the range's order: the pieces ordered and not yet baked, and the trays
/// they fill (`baguette: 24 (2 trays)`); products with nothing left are left out.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn to_bake(bakery: &Mvu<Bakery, Msg>) -> Memo<Vec<String>> {
    let day = bakery.select(|bakery| bakery.day);
    let products = bakery.select(|bakery| bakery.products.clone());
    let orders = bakery.select(|bakery| bakery.orders.clone());
    let batches = bakery.select(|bakery| bakery.batches.clone());
    let to_bake = Memo::new(move |_| {
        let today = day.get();
        let orders = orders.get();
        let batches = batches.get();
        let mut lines = Vec::new();
        for product in products.get().iter() {
            let ordered: u32 = orders
                .iter()
                .filter(|o| o.product == product.code && o.due_on(today))
                .map(|o| o.pieces)
                .sum();
            let baked: u32 = batches
                .iter()
                .filter(|b| b.product == product.code && b.day == today)
                .map(|b| b.pieces)
                .sum();
            let left = ordered.saturating_sub(baked);
            if left == 0 {
                continue;
            }
            let trays = left.div_ceil(product.per_tray.max(1));
            let unit = if trays == 1 { "tray" } else { "trays" };
            lines.push(format!("{}: {left} ({trays} {unit})", product.name));
        }
        lines
    });
    to_bake
}

/// Today's orders not delivered (nor cancelled), by number: `#1 Cafe Nord: 24 BAG`.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn open_orders(bakery: &Mvu<Bakery, Msg>) -> Memo<Vec<String>> {
    let day = bakery.select(|bakery| bakery.day);
    let orders = bakery.select(|bakery| bakery.orders.clone());
    let open_orders = Memo::new(move |_| {
        let today = day.get();
        orders
            .get()
            .iter()
            .filter(|o| o.due_on(today) && !o.delivered)
            .map(|o| format!("#{} {}: {} {}", o.id, o.customer, o.pieces, o.product))
            .collect::<Vec<_>>()
    });
    open_orders
}

/// The flour today's orders take, all flours together (`flour` says what a product's pieces take).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn flour_kg(bakery: &Mvu<Bakery, Msg>, flour: FlourFor) -> Memo<String> {
    let day = bakery.select(|bakery| bakery.day);
    let products = bakery.select(|bakery| bakery.products.clone());
    let orders = bakery.select(|bakery| bakery.orders.clone());
    let flour_kg = Memo::new(move |_| {
        let today = day.get();
        let products = products.get();
        let mut grams = 0;
        for order in orders.get().iter().filter(|o| o.due_on(today)) {
            if let Some(product) = products.iter().find(|p| p.code == order.product) {
                grams += flour(product, order.pieces);
            }
        }
        recipes::kilos(grams)
    });
    flour_kg
}

/// Today's lists with a mistake.
mod slipped {
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Bakery, Msg};

    /// What is left to bake today, by product.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn to_bake(bakery: &Mvu<Bakery, Msg>) -> Memo<Vec<String>> {
        let day = bakery.select(|bakery| bakery.day);
        let products = bakery.select(|bakery| bakery.products.clone());
        let orders = bakery.select(|bakery| bakery.orders.clone());
        let batches = bakery.select(|bakery| bakery.batches.clone());
        let to_bake = Memo::new(move |_| {
            let today = day.get();
            let orders = orders.get();
            let batches = batches.get();
            let mut lines = Vec::new();
            for product in products.get().iter() {
                let ordered: u32 = orders
                    .iter()
                    .filter(|o| o.product == product.code && o.due_on(today))
                    .map(|o| o.pieces)
                    .sum();
                let baked: u32 = batches
                    .iter()
                    .filter(|b| b.product == product.code && b.day == today)
                    .map(|b| b.pieces)
                    .sum();
                // BUG(left_swapped)
                let left = baked.saturating_sub(ordered);
                if left == 0 {
                    continue;
                }
                let trays = left.div_ceil(product.per_tray.max(1));
                let unit = if trays == 1 { "tray" } else { "trays" };
                lines.push(format!("{}: {left} ({trays} {unit})", product.name));
            }
            lines
        });
        to_bake
    }

    /// Today's orders not delivered, by number.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn open_orders(bakery: &Mvu<Bakery, Msg>) -> Memo<Vec<String>> {
        let orders = bakery.select(|bakery| bakery.orders.clone());
        let desk = bakery.clone();
        let open_orders = Memo::new(move |_| {
            // BUG(orders_peek)
            let today = desk.peek_model().day;
            orders
                .get()
                .iter()
                .filter(|o| o.due_on(today) && !o.delivered)
                .map(|o| format!("#{} {}: {} {}", o.id, o.customer, o.pieces, o.product))
                .collect::<Vec<_>>()
        });
        open_orders
    }
}
