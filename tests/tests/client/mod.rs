//! Calling tools from an rmcp client, for the modules that drive an app over MCP: one call with a hang guard, and the
//! two expectations most tests state about its answer (it ran; it was refused).

use std::time::Duration;

use ranvier::mcp::McpAdapter;
use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, RunningService, serve_client_with_lifecycle};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;

use crate::tool_text::result_text as text;

/// How long one call may take before the test fails as hung.
pub const CALL_GUARD: Duration = Duration::from_secs(30);

/// A client (`handler`) of `adapter` over an in-memory pipe, in the legacy era (`initialize`) or the modern one
/// (`server/discover`).
pub async fn connect<H: ClientHandler>(
    adapter: &McpAdapter,
    handler: H,
    modern: bool,
) -> RunningService<RoleClient, H> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let adapter = adapter.clone();
    tokio::spawn(async move {
        if let Ok(running) = adapter.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let lifecycle = if modern {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    tokio::time::timeout(
        CALL_GUARD,
        serve_client_with_lifecycle(handler, client_io, lifecycle),
    )
    .await
    .expect("hang guard")
    .expect("the client connects")
}

/// Calls tool `name` with `args` (a JSON object); the protocol error, if any, is returned.
pub async fn try_call<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    args: Value,
) -> Result<CallToolResult, rmcp::ServiceError> {
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(
        args.as_object()
            .expect("the arguments are an object")
            .clone(),
    );
    tokio::time::timeout(CALL_GUARD, client.call_tool(params))
        .await
        .expect("hang guard")
}

/// Calls tool `name` with `args`, which must be answered (as a result, successful or not).
pub async fn call<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    args: Value,
) -> CallToolResult {
    try_call(client, name, args)
        .await
        .expect("the call is answered")
}

/// Calls tool `name` with `args`, which must succeed; the result's text.
pub async fn ok<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    args: Value,
) -> String {
    let result = call(client, name, args).await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    text(&result)
}

/// Calls tool `name` with `args`, which must be refused as a tool error with no structured content; the refusal's
/// text.
pub async fn rejected<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &str,
    args: Value,
) -> String {
    let result = call(client, name, args).await;
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a rejection, got {}",
        text(&result)
    );
    assert!(result.structured_content.is_none());
    text(&result)
}
