//! Compile tests for the `ranvier` macros.
//!
//! - `tests/ui.rs` (trybuild): every `tests/ui/*.rs` must fail to compile with the error in the `.stderr` beside it.
//!   With no case expected to pass, trybuild only type-checks (`cargo check`), so its copy of the dependencies is
//!   never code-generated. The cases that must compile (and run), each `tests/pass/*.rs`, are modules of the same
//!   test binary.
//! - [`reexports`]: an app whose only dependency is ranvier.

pub mod reexports;
