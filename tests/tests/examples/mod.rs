//! The example apps the tests drive, each compiled once for the whole binary (their `main`s go unused).
//!
//! A standalone example includes the files of the examples it builds on (`gallery.rs` has `defects.rs`, the blind apps
//! have `gallery.rs`), so those files are compiled again inside them here: clippy's `duplicate_mod` is allowed for that.
#![allow(clippy::duplicate_mod)]

#[path = "../../../examples/examples/blind_bikes/main.rs"]
pub mod blind_bikes;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/blind_cafe.rs"]
pub mod blind_cafe;
#[path = "../../../examples/examples/blind_cinema/main.rs"]
pub mod blind_cinema;
#[path = "../../../examples/examples/blind_clinic/main.rs"]
pub mod blind_clinic;
#[path = "../../../examples/examples/blind_harbor/main.rs"]
pub mod blind_harbor;
#[path = "../../../examples/examples/blind_hotel/main.rs"]
pub mod blind_hotel;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/blind_loans/main.rs"]
pub mod blind_loans;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/blind_till.rs"]
pub mod blind_till;
#[path = "../../../examples/examples/cart.rs"]
pub mod cart;
#[path = "../../../examples/examples/defects.rs"]
pub mod defects;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/gallery.rs"]
pub mod gallery;
#[path = "../../../examples/examples/shipping.rs"]
pub mod shipping;
