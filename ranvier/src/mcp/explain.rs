//! The one `explain`: why a node holds its value, as the `explain` tool answers it and the live page's
//! `/page/explain` shows it. Both call [`explain`] here, and the traced tools name nodes with [`resolve`].

use crate::exposure::ExposureHandle;
use crate::graph::NodeId;
use crate::host::HostError;
use crate::trace;

use super::traced::answers;

/// The longest `explain` answer, in characters, without the dispatched steps after it.
pub const EXPLAIN_MAX_CHARS: usize = 2_000;
/// The longest `why:` chain in an `explain` answer, in characters.
pub(crate) const WHY_MAX_CHARS: usize = 600;

/// An explanation: its text, and the exposed nodes in the explained node's cone (what `explain` keeps of the
/// dispatched steps).
pub(crate) struct Explained {
    /// The explanation, within [`EXPLAIN_MAX_CHARS`]; for a pending async node, what it waits for too.
    pub(crate) text: String,
    /// The exposed names of the nodes the explained node reads, directly or not, and itself.
    pub(crate) cone: Vec<String>,
}

/// Explains the node `query` names (see [`resolve`]), on the graph thread: the brief form (findings and their
/// lines), or with `full` the long one (the `why:` chain too).
///
/// # Errors
///
/// The outer error when the host is gone; the inner one (the text a client reads) when `query` names no node or the
/// trace cannot answer (an untraced build).
pub(crate) async fn explain(
    handle: &ExposureHandle,
    query: &str,
    full: bool,
) -> Result<Result<Explained, String>, HostError> {
    let exposed = handle.node_names();
    let query = query.to_owned();
    handle
        .on_graph(move || explain_on_graph(&query, &exposed, full))
        .await
}

pub(crate) fn explain_on_graph(
    query: &str,
    exposed: &[(String, NodeId)],
    full: bool,
) -> Result<Explained, String> {
    let id = resolve(query, exposed)?;
    // one view of the trace for the whole answer
    trace::view(|ctx| {
        let mut explanation = ctx
            .explain(id)
            .map(|e| {
                if full {
                    e.render(WHY_MAX_CHARS)
                } else {
                    e.brief(WHY_MAX_CHARS)
                }
            })
            .map_err(|e| e.to_string())?;
        // An async node that is pending says what it waits for, and why its newest flight started.
        if let Ok(waiting) = trace::waiting_on_in(ctx, id)
            && waiting.kind != trace::WaitKind::Nothing
        {
            explanation = format!("{explanation}\npending: {waiting}");
        }
        let cone: std::collections::HashSet<NodeId> = trace::cone_in(ctx, id).into_iter().collect();
        Ok(Explained {
            text: answers::clip_lines(&explanation, EXPLAIN_MAX_CHARS),
            cone: exposed
                .iter()
                .filter(|(_, node)| cone.contains(node))
                .map(|(name, _)| name.clone())
                .collect(),
        })
    })
    .map_err(|e| e.to_string())?
}

/// Resolves `query` on the graph thread: an exposed name first, then [`trace::lookup`]. A miss names what was
/// expected, the close candidates and every exposed node.
pub(crate) fn resolve(query: &str, exposed: &[(String, NodeId)]) -> Result<NodeId, String> {
    if let Some((_, id)) = exposed.iter().find(|(name, _)| name == query.trim()) {
        return Ok(*id);
    }
    trace::lookup(query).map_err(|miss| format!("{miss}\n{}", exposed_list(exposed)))
}

/// `exposed nodes: subtotal (subtotal#4), total#5`, or that there are none.
fn exposed_list(exposed: &[(String, NodeId)]) -> String {
    if exposed.is_empty() {
        return "this app exposes no nodes (Exposure::node); pass a node name, `#id` or an identity path".to_owned();
    }
    let names: Vec<String> = exposed
        .iter()
        .map(|(name, id)| match trace::name(*id) {
            Ok(node) if *node.name == **name => node.to_string(),
            Ok(node) => format!("{name} ({node})"),
            Err(_) => format!("{name} ({id})"),
        })
        .collect();
    format!("exposed nodes: {}", names.join(", "))
}
