//! What the gallery and the blind sets share: the harness that starts an app, asks `explain` about one of its
//! mistakes over MCP and scores the answer ([`harness`]).
//!
//! It is a library so that the test binary, which compiles every blind set as a module, compiles it once.

pub mod harness;
