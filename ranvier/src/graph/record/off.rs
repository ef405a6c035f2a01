//! The untraced build's tracer: every hook is an empty inline function whose lazy arguments are never called, and
//! the log it describes is empty.

use super::log::Event;
use crate::graph::{CallSite, NodeId, NodeKind};
use std::panic::Location;

/// The tracer of an untraced build: nothing.
pub(crate) struct Tracer;

#[allow(clippy::unused_self)]
impl Tracer {
    pub fn new() -> Self {
        Tracer
    }
    #[inline(always)]
    pub fn enabled(&self) -> bool {
        false
    }
    #[inline(always)]
    pub fn reset(&self) {}
    #[inline(always)]
    pub fn node_new(
        &self,
        _: NodeId,
        _: NodeKind,
        _: &'static Location<'static>,
        _: Option<NodeId>,
        _: Option<NodeId>,
        _: impl FnOnce() -> crate::graph::WeakNode,
    ) {
    }
    #[inline(always)]
    pub fn label(&self, _: NodeId, _: &str) {}
    #[inline(always)]
    pub fn redact(&self, _: NodeId) {}
    #[inline(always)]
    pub fn write<V: super::Recordable + ?Sized>(
        &self,
        _: NodeId,
        _: Option<NodeId>,
        _: bool,
        _: &V,
        _: CallSite,
    ) {
    }
    #[inline(always)]
    pub fn mark(&self, _: NodeId, _: NodeId, _: bool) {}
    #[inline(always)]
    pub fn schedule(&self, _: NodeId) {}
    #[inline(always)]
    pub fn mark_scheduled(&self, _: NodeId, _: NodeId, _: bool) {}
    #[inline(always)]
    pub fn check_start(&self, _: NodeId) {}
    #[inline(always)]
    pub fn check_resolved(&self, _: NodeId, _: Option<NodeId>) {}
    #[inline(always)]
    pub fn run_start(&self, _: NodeId, _: u32, _: Option<NodeId>) {}
    #[inline(always)]
    pub fn kept_over<V: super::Recordable + ?Sized>(&self, _: NodeId, _: &V) {}
    #[inline(always)]
    pub fn memo_run_end<V: super::Recordable>(
        &self,
        _: NodeId,
        _: bool,
        _: Option<&str>,
        _: &std::cell::RefCell<Option<V>>,
    ) {
    }
    #[inline(always)]
    pub fn run_end<V: super::Recordable + ?Sized>(
        &self,
        _: NodeId,
        _: bool,
        _: Option<&str>,
        _: Option<&V>,
    ) {
    }
    #[inline(always)]
    pub fn stopped(&self, _: NodeId, _: &str) {}
    #[inline(always)]
    pub fn flush_start(&self, _: u32) {}
    #[inline(always)]
    pub fn flush_end(&self, _: u32) {}
    #[inline(always)]
    pub fn batch_enter(&self, _: u32, _: CallSite) {}
    #[inline(always)]
    pub fn custom_comparer(&self, _: NodeId) {}
    #[inline(always)]
    pub fn name_if_unnamed(&self, _: NodeId, _: &str) {}
    #[inline(always)]
    pub fn update_fn(&self, _: NodeId, _: &'static str) {}
    #[inline(always)]
    pub fn program_read(&self, _: NodeId, _: CallSite) {}
    #[inline(always)]
    pub fn batch_exit(&self, _: u32) {}
    #[inline(always)]
    pub fn dispose(&self, _: NodeId) {}
    #[inline(always)]
    pub fn message_start(
        &self,
        _: NodeId,
        _: &str,
        _: &str,
        _: Option<NodeId>,
        _: CallSite,
    ) -> u64 {
        0
    }
    #[inline(always)]
    pub fn message_end(&self, _: u64) {}
    #[inline(always)]
    pub fn message_commands(&self, _: u64, _: usize) {}
    #[inline(always)]
    pub fn message_model(&self, _: u64, _: &dyn std::fmt::Debug, _: &dyn std::fmt::Debug) {}
    #[inline(always)]
    pub fn message_model_equal(&self, _: u64, _: &dyn std::fmt::Debug, _: &dyn std::fmt::Debug) {}

    pub fn flight_start(&self, _: NodeId, _: u32) {}
    #[inline(always)]
    pub fn branch_ran(
        &self,
        _: Option<NodeId>,
        _: &'static str,
        _: u32,
        _: Option<&dyn std::fmt::Debug>,
    ) {
    }
    #[inline(always)]
    pub fn loop_ran(&self, _: Option<NodeId>, _: &'static str, _: u32, _: bool) {}
    #[inline(always)]
    pub fn default_taken(&self, _: Option<NodeId>, _: &'static str, _: u32) {}
    #[inline(always)]
    pub fn update_running(&self, _: Option<u64>) -> Option<u64> {
        None
    }
    #[inline(always)]
    pub fn flight_poll(&self, _: Option<NodeId>) -> Option<NodeId> {
        None
    }

    pub fn flight_end(&self, _: NodeId, _: u32, _: super::log::FlightEvent) {}
    #[inline(always)]
    pub fn timer(
        &self,
        _: NodeId,
        _: Option<NodeId>,
        _: super::log::TimerEvent,
        _: std::time::Duration,
        _: std::time::Duration,
        _: Option<&dyn std::fmt::Debug>,
    ) {
    }
    #[inline(always)]
    pub fn edge_read(&self, _: NodeId, _: NodeId, _: CallSite) {}
    #[inline(always)]
    pub fn edge_removed(&self, _: NodeId, _: NodeId) {}
    #[inline(always)]
    pub fn edges_removed_end(&self, _: NodeId) {}
    #[inline(always)]
    pub fn untracked_read(&self, _: Option<NodeId>, _: NodeId, _: CallSite) {}
    #[inline(always)]
    pub fn untracked_read_in_body(&self, _: Option<NodeId>, _: NodeId, _: CallSite) {}
    #[inline(always)]
    pub fn node_dropped(&self, _: NodeId, _: *const ()) {}

    // What the log functions of `log.rs` ask: an empty log that keeps nothing.
    pub fn records_held(&self) -> usize {
        0
    }
    pub fn capacity(&self) -> usize {
        0
    }
    pub fn set_capacity(&self, _: usize) {}
    pub fn events(&self) -> Vec<Event> {
        Vec::new()
    }
    #[cfg(test)]
    pub fn live(&self, _: NodeId) -> Option<crate::graph::DynNodeRc> {
        None
    }
}
