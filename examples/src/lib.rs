//! Support package.
