//! The request body reader: a body within the limit and its timeout, and (for JSON) one JSON-RPC message.

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderMap, HeaderValue, Response, StatusCode, header};
use http_body_util::BodyExt;
use rmcp::model::ClientJsonRpcMessage;

use super::guard::Guard;
use super::{json_response, plain};

/// How many times the body limit a refused body is read (and dropped) before the 413 goes out.
const DRAIN_FACTOR: usize = 8;

/// A POST body the guard read.
pub(super) struct ReadBody {
    pub(super) bytes: Bytes,
    /// Whether it is an `initialize` request.
    pub(super) initialize: bool,
}

impl Guard {
    /// Reads a POST body within the limit (413 past it, at once for `Expect: 100-continue`) and the body-read
    /// timeout (408 past it); a JSON body must parse as a JSON-RPC message (400).
    #[allow(clippy::result_large_err)]
    pub(super) async fn read_body<B>(
        &self,
        headers: &HeaderMap,
        body: B,
    ) -> Result<ReadBody, Response<Body>>
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        let bytes = self.read_bytes(headers, body).await?;
        let is_json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
            });
        // the stdio layer's answer to the same bytes, in its words: the reason in the message, and the request's id
        // when it can be read (a body that is not one message, or that names a key twice in an object)
        if is_json && let Some(answer) = crate::mcp::stdio::answer_to(&bytes) {
            return Err(json_response(StatusCode::BAD_REQUEST, answer));
        }
        // rmcp answers other content types with 415
        let message = if is_json {
            serde_json::from_slice::<ClientJsonRpcMessage>(&bytes)
        } else {
            return Ok(ReadBody {
                bytes,
                initialize: false,
            });
        };
        if let Err(error) = message {
            // the stdio layer's answer to the same bytes, in its words: the reason in the message, and the request's
            // id when it can be read
            if let Some(answer) = crate::mcp::stdio::answer_to(&bytes) {
                return Err(json_response(StatusCode::BAD_REQUEST, answer));
            }
            // a blank body, or a notification rmcp's stdio transport would ignore: the reason in `data`
            let (code, message, reason) = match error.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => (
                    -32700,
                    "Parse error",
                    format!("the body is not JSON: {error}"),
                ),
                _ => (
                    -32600,
                    "Invalid request",
                    format!(
                        "the body is JSON but not one JSON-RPC 2.0 request, notification or response: {error}"
                    ),
                ),
            };
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": code, "message": message, "data": {"reason": reason}}
            });
            return Err(json_response(
                StatusCode::BAD_REQUEST,
                body.to_string().into_bytes(),
            ));
        }
        let initialize = matches!(
            message,
            Ok(ClientJsonRpcMessage::Request(ref request))
                if matches!(request.request, rmcp::model::ClientRequest::InitializeRequest(_))
        );
        Ok(ReadBody { bytes, initialize })
    }

    /// Reads a body within the limit (413 past it, at once for `Expect: 100-continue`) and the body-read timeout
    /// (408 past it): the one rule of `/mcp` and the page's routes.
    #[allow(clippy::result_large_err)]
    pub(super) async fn read_bytes<B>(
        &self,
        headers: &HeaderMap,
        body: B,
    ) -> Result<Bytes, Response<Body>>
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        let too_large = || {
            plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "Payload Too Large: the request body exceeds {} bytes",
                    self.max_body_bytes
                ),
            )
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        // A refused body is still read (and dropped) up to a few times the limit before the 413 goes out, so a client
        // that is still writing it sees the status instead of a broken pipe; past that the connection is closed.
        let drain_cap = self.max_body_bytes.saturating_mul(DRAIN_FACTOR);
        let too_long = declared.is_some_and(|len| len > self.max_body_bytes as u64);
        let expects_continue = headers
            .get(header::EXPECT)
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
        if too_long && expects_continue {
            // the client waits for `100 Continue` before sending the body: it never needs to
            let mut response = too_large();
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return Err(response);
        }
        let mut body = std::pin::pin!(body);
        let read = async {
            let mut bytes = Vec::new();
            let (mut seen, mut over) = (0_usize, too_long);
            while let Some(frame) = body.frame().await {
                let frame = match frame {
                    Ok(frame) => frame,
                    Err(_) if over => break,
                    Err(error) => {
                        return Err(plain(
                            StatusCode::BAD_REQUEST,
                            &format!("Bad Request: cannot read the body: {}", error.into()),
                        ));
                    }
                };
                let Ok(data) = frame.into_data() else {
                    continue;
                };
                seen = seen.saturating_add(data.len());
                if !over && bytes.len() + data.len() > self.max_body_bytes {
                    over = true;
                    bytes = Vec::new();
                }
                if !over {
                    bytes.extend_from_slice(&data);
                }
                if over && seen > drain_cap {
                    break;
                }
            }
            if over { Err(too_large()) } else { Ok(bytes) }
        };
        match tokio::time::timeout(self.body_read_timeout, read).await {
            Ok(read) => Ok(Bytes::from(read?)),
            Err(_) => {
                let mut response = plain(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "Request Timeout: the body did not arrive within {} ms of the request's head (HttpOptions::body_read_timeout)",
                        self.body_read_timeout.as_millis()
                    ),
                );
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                Err(response)
            }
        }
    }
}
