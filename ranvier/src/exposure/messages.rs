//! The two traits the macros implement: [`Messages`] for an app's message enum and [`Expose`] for its app struct.
//!
//! Write neither by hand: `#[derive(Messages)]` implements [`Messages`] and `#[expose]` implements [`Expose`], so
//! the decoders, shapes and JSON Schemas an MCP client sees are generated at compile time from the Rust types.
//!
//! # Examples
//!
//! ```
//! use ranvier::Messages;
//!
//! #[derive(Debug, Messages)]
//! #[message(rename_all = "camelCase")]
//! enum Msg {
//!     /// Adds `quantity` items of `sku` to the cart.
//!     AddItem {
//!         sku: String,
//!         unit_price: i64,
//!         #[message(range(min = 1))]
//!         quantity: u32,
//!     },
//!     /// Empties the cart.
//!     Clear,
//! }
//!
//! let shapes = Msg::shapes();
//! assert_eq!(shapes[0].0, "add_item");
//! assert_eq!(shapes[0].1, "{sku: string, unitPrice: integer, quantity: integer ≥ 1}");
//!
//! let decoders = Msg::decoders();
//! let err = (decoders[0].1)(&serde_json::json!({"sku": "a", "unitPrice": 250})).err().unwrap();
//! assert_eq!(err, "missing property `quantity`");
//!
//! let (name, args) = Msg::AddItem { sku: "a".into(), unit_price: 250, quantity: 2 }.to_wire();
//! assert_eq!(name, "add_item");
//! assert_eq!(args, serde_json::json!({"sku": "a", "unitPrice": 250, "quantity": 2}));
//! ```

use crate::Mvu;
use crate::exposure::{ExposeError, Exposure};
use std::fmt::Debug;

pub use super::Decoder;

/// An app's message enum, as an MCP client sees it: one named message per variant.
///
/// Implemented by `#[derive(Messages)]`; register it with `Exposure::messages_of`. Messages marked
/// `#[message(skip)]` are left out of [`decoders`](Messages::decoders), [`shapes`](Messages::shapes) and
/// [`schemas`](Messages::schemas) but still have a wire form in [`to_wire`](Messages::to_wire).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a set of messages: it does not derive `Messages`",
    label = "`{Self}` needs `#[derive(Messages)]`",
    note = "add `#[derive(Debug, ranvier::Messages)]` to the enum `{Self}` (each variant is a message an agent may send)"
)]
pub trait Messages: Sized + 'static {
    /// One decoder per exposed message, keyed by its wire name, in declaration order.
    fn decoders() -> Vec<(String, Decoder<Self>)>;
    /// The one-line shape of each exposed message's arguments, e.g. `{sku: string, quantity: integer}`.
    fn shapes() -> Vec<(String, String)>;
    /// The JSON Schema of each exposed message's arguments (always an object schema with no `true` subschema).
    fn schemas() -> Vec<(String, serde_json::Value)>;
    /// This message's wire name and JSON arguments: the reverse of its decoder, for journals and traces.
    fn to_wire(&self) -> (String, serde_json::Value);
    /// The approval prompt template of each message that needs a person's approval (`#[message(confirm =
    /// "Refund {amount}?")]`), for [`Exposure::confirms`]. None by default.
    fn confirms() -> Vec<(String, String)> {
        Vec::new()
    }
    /// Per message, the argument properties marked `#[message(redact)]` (`true`) or `#[message(redact = false)]`
    /// (`false`), for [`Exposure::redact_args`] and [`Exposure::reveal_args`]. None by default (names that look like
    /// secrets are redacted anyway: see [`redact`](super::redact)).
    fn redactions() -> Vec<(String, Vec<(String, bool)>)> {
        Vec::new()
    }
}

/// An app struct whose `#[expose]` fields register themselves with an [`Exposure`] in one call.
///
/// Implemented by `#[expose]` on the struct.
pub trait Expose {
    /// Registers every exposed value, message source and node of `self` with `exposure`.
    ///
    /// # Errors
    ///
    /// The first [`ExposeError`] the exposure returns, e.g. a name already taken by an earlier registration.
    fn expose(&self, exposure: &mut Exposure) -> Result<(), ExposeError>;
}

impl Exposure {
    /// Registers the messages of `mvu` from its [`Messages`] impl: decoders, shapes, schemas and approval prompts
    /// in one call.
    ///
    /// The same as [`messages`](Exposure::messages), [`message_shapes`](Exposure::message_shapes),
    /// [`message_schemas`](Exposure::message_schemas) and [`confirms`](Exposure::confirms) with `Msg::decoders()`,
    /// `Msg::shapes()`, `Msg::schemas()` and `Msg::confirms()`.
    ///
    /// # Errors
    ///
    /// As [`messages`](Exposure::messages): an invalid or already registered message name.
    pub fn messages_of<Model, Msg>(
        &mut self,
        mvu: &Mvu<Model, Msg>,
    ) -> Result<&mut Self, ExposeError>
    where
        Model: Clone + PartialEq + Debug + 'static,
        Msg: Messages + Debug,
    {
        self.messages(mvu, Msg::decoders())?;
        self.message_shapes(Msg::shapes())?;
        self.message_schemas(Msg::schemas())?;
        self.confirms(Msg::confirms())?;
        for (message, fields) in Msg::redactions() {
            let redacted: Vec<&str> = fields
                .iter()
                .filter(|(_, on)| *on)
                .map(|(f, _)| f.as_str())
                .collect();
            let revealed: Vec<&str> = fields
                .iter()
                .filter(|(_, on)| !*on)
                .map(|(f, _)| f.as_str())
                .collect();
            self.redact_args(&message, &redacted)?;
            self.reveal_args(&message, &revealed)?;
        }
        Ok(self)
    }
}
