//! JSON-RPC's error responses, as the stdio layer writes them: the codes it answers with and the response line. Below
//! the line reader (a line too long or not JSON is answered with a parse error) and the validation of a line.

use serde_json::Value;

use crate::mcp::text;

/// JSON-RPC's parse error.
pub(super) const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's invalid request.
pub(super) const INVALID_REQUEST: i32 = -32600;

/// The error response `{"jsonrpc":"2.0","id":id,"error":{"code":code,"message":message}}`.
pub(super) fn error_response(code: i32, message: &str, id: Value) -> String {
    text::compact(&serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    }))
}

/// The error response (see [`error_response`]) and its newline.
pub(super) fn error_line(code: i32, message: &str, id: Value) -> Vec<u8> {
    let mut line = error_response(code, message, id).into_bytes();
    line.push(b'\n');
    line
}
