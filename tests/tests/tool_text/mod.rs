//! The text of an MCP tool result, for the tests that call tools (here and in `ranvier-mcp`'s tests).

/// The text parts of a tool result, one per line.
pub fn result_text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}
