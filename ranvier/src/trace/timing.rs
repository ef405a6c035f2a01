//! `timing`: what a timed node holds, the value its timer waits to pass and when it fires, and when it last fired,
//! read from the trace's timer events.

use super::TraceError;
use super::log::{EventKind, TimerEvent};
use crate::graph::{AnyNode, NodeId};
use std::fmt;
use std::rc::Rc;
use std::time::Duration;

/// A timer event as [`Timing`] names it: its sequence number, the clock's time then, and the value's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerMark {
    /// The event's sequence number.
    pub seq: u64,
    /// The time on the node's clock when it happened.
    pub at: Duration,
    /// The value the timer passes or passed (`None` when the trace's text ring no longer holds it).
    pub value: Option<Rc<str>>,
}

/// The answer of [`timing`]: what a timed node holds, what its timer waits to pass and when, from the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// The node, as `name#id`.
    pub node: String,
    /// The value it holds now, as `Debug` text.
    pub holds: Option<String>,
    /// The timer that waits, if one does: when it was scheduled (or last given a newer value) and the value it
    /// passes, and when it fires (on the node's clock).
    pub waiting: Option<(TimerMark, Duration)>,
    /// Its latest firing the log holds.
    pub last_fired: Option<TimerMark>,
    /// How many of its timer events the log holds (0: not a timed node, or its events were dropped).
    pub events: usize,
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let holds = self.holds.as_deref().unwrap_or("(no value)");
        if self.events == 0 {
            return write!(
                f,
                "{} holds {holds}; the log holds no timer event of it (not a timed node, or its events were dropped)",
                self.node
            );
        }
        write!(f, "{} holds {holds}; ", self.node)?;
        match &self.waiting {
            Some((mark, due)) => write!(
                f,
                "its timer waits to pass {} at {} ms on its clock (set at {} ms, #{})",
                value_text(&mark.value),
                due.as_millis(),
                mark.at.as_millis(),
                mark.seq
            )?,
            None => f.write_str("no timer waits")?,
        }
        if let Some(fired) = &self.last_fired {
            write!(
                f,
                "\n  last fired at {} ms, passing {} (#{})",
                fired.at.as_millis(),
                value_text(&fired.value),
                fired.seq
            )?;
        }
        Ok(())
    }
}

fn value_text(value: &Option<Rc<str>>) -> String {
    value.as_deref().map_or_else(
        || "(a value the log no longer holds)".into(),
        |v| v.replace('\n', " "),
    )
}

/// What the timed node `node` ([`Debounced`](crate::timed::Debounced) or [`Throttled`](crate::timed::Throttled))
/// holds, the value its timer waits to pass and when it fires (on its clock), and when it last fired, from the
/// timer events of the trace.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build, and the errors of [`info`](super::info) for a node the trace
/// does not know.
///
/// # Examples
///
/// ```
/// use ranvier::{Signal, trace};
/// use ranvier::timed::{Debounced, TestClock};
/// use std::time::Duration;
///
/// let clock = TestClock::new();
/// let query = Signal::new("r");
/// let search = Debounced::new(&clock.clock(), Duration::from_millis(300), {
///     let query = query.clone();
///     move || query.get()
/// });
/// query.set("ru");
/// if let Ok(timing) = trace::timing(&search) {
///     let text = timing.to_string();
///     assert!(text.contains("holds \"r\"; its timer waits to pass \"ru\" at 300 ms"), "{text}");
/// }
/// ```
pub fn timing(node: impl AnyNode) -> Result<Timing, TraceError> {
    let id = node.node_id();
    super::view(|ctx| timing_in(ctx, id))?
}

/// [`timing`] in a view of the trace the caller already holds.
pub(crate) fn timing_in(ctx: &super::Ctx<'_>, id: NodeId) -> Result<Timing, TraceError> {
    let info = ctx.info(id).ok_or_else(|| ctx.missing(id))?;
    let events = ctx.tracer.timer_events_of(id);
    let mut timing = Timing {
        node: info.node.to_string(),
        holds: info.value,
        waiting: None,
        last_fired: None,
        events: 0,
    };
    for event in &events {
        let EventKind::Timer {
            node,
            what,
            at,
            due,
            value,
        } = &event.kind
        else {
            continue;
        };
        if *node != id {
            continue;
        }
        timing.events += 1;
        let mark = TimerMark {
            seq: event.seq,
            at: *at,
            value: value.clone(),
        };
        match what {
            TimerEvent::Schedule | TimerEvent::Replace => timing.waiting = Some((mark, *due)),
            TimerEvent::Fire => {
                timing.waiting = None;
                timing.last_fired = Some(mark);
            }
            TimerEvent::Cancel => timing.waiting = None,
        }
    }
    Ok(timing)
}
