use ranvier::Messages;

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Discount {
    percent: u8,
}

#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
enum Msg {
    /// Adds an item.
    AddItem {
        sku: String,
        unit_price: i64,
        #[message(range(min = 1))]
        quantity: u32,
    },
    Clear,
    SetDiscount(Discount),
    #[message(rename = "percent-off", rename_all = "snake_case")]
    PercentOff {
        #[message(range(min = 0, max = 100.0))]
        off_by: f64,
    },
    #[message(skip)]
    Tick,
}

#[derive(Messages)]
enum Empty {}

pub fn run() {
    assert_eq!(Msg::decoders().len(), 4);
    assert_eq!(Msg::shapes()[3].1, "{off_by: number 0..=100}");
    assert_eq!(Msg::Tick.to_wire().0, "tick");
    assert!(Empty::schemas().is_empty());
}
