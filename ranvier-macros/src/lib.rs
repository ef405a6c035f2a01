//! Proc macros for ranvier (see the `ranvier` crate).
