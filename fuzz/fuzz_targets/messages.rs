//! Fuzzes the decoders `#[derive(Messages)]` generates: arbitrary JSON arguments for each message of an enum with
//! every kind of field (strings, integers of each width with ranges, floats, booleans, options, lists, nested
//! structs and enums, a renamed and a tuple variant). A decoder never panics; what it accepts is within its ranges,
//! and its wire form (`to_wire`) decodes back to the same message.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ranvier::Messages;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A nested argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    sku: String,
    unit_price: u64,
    note: Option<String>,
}

/// An enum argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Fast,
    Careful { retries: u8 },
}

/// The arguments of the tuple variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Move {
    x: i32,
    y: i32,
}

#[derive(Debug, Clone, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
enum Msg {
    /// Every integer width, with ranges.
    Add {
        sku: String,
        #[message(range(min = 0))]
        unit_price: u64,
        #[message(range(min = 1, max = 1000))]
        quantity: u32,
        #[message(range(min = -5, max = 5))]
        tilt: i8,
        #[message(range(min = -1000000))]
        delta: i64,
        small: u16,
        index: usize,
    },
    /// Floats with and without a range, a boolean.
    #[message(rename = "tune")]
    Tune {
        #[message(range(min = 0.0, max = 1.0))]
        ratio: f64,
        scale: f32,
        on: bool,
    },
    /// Options, lists, nested structs and enums.
    #[message(confirm = "Replace the lines with {lines}?")]
    Replace {
        lines: Vec<Line>,
        #[message(rename = "tag")]
        label: Option<String>,
        mode: Mode,
        tags: Vec<u32>,
        extra: Option<Line>,
        raw: Value,
    },
    /// A single-field tuple variant takes its field's own object.
    Shift(Move),
    /// No arguments.
    Clear,
    #[message(skip)]
    #[allow(dead_code)]
    Internal,
}

/// Asserts the ranges the decoder promised.
fn check_ranges(msg: &Msg) {
    match msg {
        Msg::Add {
            quantity,
            tilt,
            delta,
            ..
        } => {
            assert!((1..=1000).contains(quantity), "quantity {quantity}");
            assert!((-5..=5).contains(tilt), "tilt {tilt}");
            assert!(*delta >= -1_000_000, "delta {delta}");
        }
        Msg::Tune { ratio, .. } => assert!((0.0..=1.0).contains(ratio), "ratio {ratio}"),
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, json)) = data.split_first() else {
        return;
    };
    let Ok(args) = serde_json::from_slice::<Value>(json) else {
        return;
    };
    let decoders = Msg::decoders();
    let (name, decode) = &decoders[pick as usize % decoders.len()];
    let Ok(msg) = decode(&args) else {
        return;
    };
    check_ranges(&msg);
    let (wire_name, wire_args) = msg.to_wire();
    assert_eq!(
        &wire_name, name,
        "to_wire names the message its decoder has"
    );
    // the wire form is what the journal records and a replay decodes: it reads back as the same message
    let again = decode(&wire_args)
        .unwrap_or_else(|e| panic!("{name}'s wire form {wire_args} does not decode: {e}"));
    assert_eq!(
        again.to_wire(),
        (wire_name, wire_args),
        "the round trip changed {name}"
    );
});
