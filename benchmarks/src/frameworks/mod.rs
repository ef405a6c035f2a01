//! One [`ReactiveFramework`](crate::framework::ReactiveFramework) implementation per library.
//!
//! `ranvier` is always built; the comparison libraries only with the `compare` feature.

#[cfg(feature = "compare")]
pub mod alien;
#[cfg(feature = "compare")]
pub mod leptos;
pub mod ranvier;
#[cfg(feature = "compare")]
pub mod samara;
#[cfg(feature = "compare")]
pub mod sycamore;
