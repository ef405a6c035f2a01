//! `waiting_on`: what an async node waits for (its flights, or a settle from outside), and why its newest flight
//! started; `flights`: every pending flight of the thread's graph.

use super::TraceError;
use crate::graph::flights::{FlightInfo, FlightStage, all_flights, flights_of_node};
use crate::graph::{AnyNode, NodeId};
use std::fmt;

/// What a node waits for: the answer of [`waiting_on`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingOn {
    /// The node, as `name#id`.
    pub node: String,
    /// What it waits for.
    pub kind: WaitKind,
    /// For an async memo: its flights not yet applied, oldest first.
    pub flights: Vec<FlightInfo>,
    /// For an async memo with flights: the root of the cause chain of the run that started the newest (`message
    /// set_weight {..} #30`, `program write to weight#1 #7`, ...).
    pub started_by: Option<String>,
}

/// What a node waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WaitKind {
    /// An async memo whose flights are not all applied.
    Flights,
    /// A pending async source: it waits for a settle from the program or another thread.
    Settle,
    /// Nothing async: it is not pending.
    Nothing,
}

impl WaitKind {
    /// The kind as the raw tools name it: `flight`, `settle` or `nothing`.
    pub fn name(self) -> &'static str {
        match self {
            WaitKind::Flights => "flight",
            WaitKind::Settle => "settle",
            WaitKind::Nothing => "nothing",
        }
    }
}

impl fmt::Display for WaitingOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            WaitKind::Flights => {
                write!(
                    f,
                    "{} waits on {} flight(s):",
                    self.node,
                    self.flights.len()
                )?;
                for flight in &self.flights {
                    write!(
                        f,
                        "\n  flight {} started by run {} {} ms ago: {}",
                        flight.number,
                        flight.run,
                        flight.age.as_millis(),
                        flight.stage.text()
                    )?;
                    if flight.stage == FlightStage::InTheAir {
                        f.write_str(
                            " (suspended in its future, woken when what it awaits is ready)",
                        )?;
                    }
                }
                if let Some(root) = &self.started_by {
                    write!(f, "\n  the newest run started because of: {root}")?;
                }
                Ok(())
            }
            WaitKind::Settle => write!(
                f,
                "{} is a pending async source: it waits for a settle (AsyncSource::settle on the graph thread, or a \
                 Settler from another thread)",
                self.node
            ),
            WaitKind::Nothing => write!(f, "{} waits on nothing async", self.node),
        }
    }
}

/// What `node` waits for: an async memo's flights (with when and by which run each started, and the cause of the
/// newest run), a pending async source's settle, or nothing.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build, and the errors of [`info`](super::info) for a node the trace does not know.
///
/// # Examples
///
/// ```
/// use ranvier::{AsyncMemo, graph, trace};
///
/// let quote = AsyncMemo::new(|_| async { 400 });
/// let _ = quote.get();
/// if let Ok(waiting) = trace::waiting_on(&quote) {
///     assert_eq!(waiting.kind, trace::WaitKind::Flights);
///     assert_eq!(waiting.flights[0].run, 1);
/// }
/// graph::run_flights();
/// if let Ok(waiting) = trace::waiting_on(&quote) {
///     assert_eq!(waiting.kind, trace::WaitKind::Nothing);
/// }
/// ```
pub fn waiting_on(node: impl AnyNode) -> Result<WaitingOn, TraceError> {
    let id = node.node_id();
    super::view(|ctx| waiting_on_in(ctx, id))?
}

/// [`waiting_on`] in a view of the trace the caller already holds.
pub(crate) fn waiting_on_in(ctx: &super::Ctx<'_>, id: NodeId) -> Result<WaitingOn, TraceError> {
    let info = ctx.info(id).ok_or_else(|| ctx.missing(id))?;
    let name = info.node.to_string();
    if let Some(flights) = flights_of_node(id).filter(|f| !f.is_empty()) {
        let started_by = ctx.why(id).ok().map(|why| why.root_text());
        return Ok(WaitingOn {
            node: name,
            kind: WaitKind::Flights,
            flights,
            started_by,
        });
    }
    let pending_source = info.kind == crate::graph::NodeKind::Signal
        && info
            .value
            .as_deref()
            .is_some_and(|v| v.starts_with("(pending"));
    Ok(WaitingOn {
        node: name,
        kind: if pending_source {
            WaitKind::Settle
        } else {
            WaitKind::Nothing
        },
        flights: Vec::new(),
        started_by: None,
    })
}

/// Every flight of this thread's async memos that is not yet applied, oldest first.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build.
pub fn flights() -> Result<Vec<FlightInfo>, TraceError> {
    super::with_log(|_| ())?;
    Ok(all_flights())
}
