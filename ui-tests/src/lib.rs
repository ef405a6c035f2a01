//! Compile-error tests (trybuild) for the `ranvier` macros; see `tests/ui.rs`.
