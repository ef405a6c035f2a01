//! The guard in front of every route: the allowed hosts and origins, and the bearer token (who gets in).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Response, StatusCode, header};
use std::time::Duration;

use super::plain;

/// The parsed, checked options.
pub(super) struct Guard {
    pub(super) hosts: Vec<(String, Option<u16>)>,
    pub(super) origins: Vec<AllowedOrigin>,
    /// `Bearer <token>`, compared in constant time.
    pub(super) token: Option<Vec<u8>>,
    pub(super) max_body_bytes: usize,
    pub(super) body_read_timeout: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum AllowedOrigin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        /// `None` for any port (`:*`).
        port: Option<u16>,
    },
}

impl Guard {
    /// A repeated Host, Origin or Authorization (400), then Host and the request target's host, then Origin (all
    /// 403), then the token (401).
    #[allow(clippy::result_large_err)]
    pub(super) fn check_headers(
        &self,
        headers: &HeaderMap,
        uri: &axum::http::Uri,
    ) -> Result<(), Response<Body>> {
        self.check_host_origin(headers, uri)?;
        self.check_token(headers)
    }

    /// [`check_headers`](Self::check_headers) without the token.
    #[allow(clippy::result_large_err)]
    pub(super) fn check_host_origin(
        &self,
        headers: &HeaderMap,
        uri: &axum::http::Uri,
    ) -> Result<(), Response<Body>> {
        for name in [header::HOST, header::ORIGIN, header::AUTHORIZATION] {
            if headers.get_all(&name).iter().nth(1).is_some() {
                return Err(plain(
                    StatusCode::BAD_REQUEST,
                    &format!(
                        "Bad Request: more than one {} header; send it once",
                        canonical_name(&name)
                    ),
                ));
            }
        }
        let allowed = |authority: &str| {
            axum::http::uri::Authority::try_from(authority)
                .ok()
                .is_some_and(|a| {
                    let name = normalize_host(a.host());
                    self.hosts.iter().any(|(allowed, port)| {
                        *allowed == name && port.is_none_or(|p| a.port_u16() == Some(p))
                    })
                })
        };
        let host = headers.get(header::HOST).map(|h| h.to_str().ok());
        // a request target in absolute form (`POST http://host/mcp`) names the host the request is for, whatever
        // the Host header says (RFC 9112, section 3.2.2): it must be allowed too
        let target = uri.authority().map(|a| a.as_str());
        let host_ok = match (host, target) {
            (None, None) => false,
            (host, target) => {
                host.is_none_or(|h| h.is_some_and(allowed)) && target.is_none_or(allowed)
            }
        };
        if !host_ok {
            let what = if target.is_some_and(|t| !allowed(t)) {
                "Forbidden: the request target's host is not allowed"
            } else {
                "Forbidden: Host header is not allowed"
            };
            return Err(plain(StatusCode::FORBIDDEN, what));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let allowed = origin
                .to_str()
                .ok()
                .and_then(parse_origin)
                .is_some_and(|origin| {
                    self.origins
                        .iter()
                        .any(|allowed| origin_matches(allowed, &origin))
                });
            if !allowed {
                return Err(plain(
                    StatusCode::FORBIDDEN,
                    "Forbidden: Origin header is not allowed",
                ));
            }
        }
        Ok(())
    }

    /// The bearer token, when one is set (401 without it).
    #[allow(clippy::result_large_err)]
    pub(super) fn check_token(&self, headers: &HeaderMap) -> Result<(), Response<Body>> {
        if let Some(token) = &self.token {
            let presented = headers
                .get(header::AUTHORIZATION)
                .map(HeaderValue::as_bytes);
            if !presented.is_some_and(|presented| constant_time_eq(presented, token)) {
                let mut response = Response::new(Body::empty());
                *response.status_mut() = StatusCode::UNAUTHORIZED;
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                return Err(response);
            }
        }
        Ok(())
    }
}

/// A header's name as people write it, for messages.
fn canonical_name(name: &header::HeaderName) -> &'static str {
    match *name {
        header::HOST => "Host",
        header::ORIGIN => "Origin",
        _ => "Authorization",
    }
}

pub(super) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn normalize_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// `name` or `name:port` (IPv6 bare, or bracketed with a port).
pub(super) fn parse_allowed_host(raw: &str) -> Option<(String, Option<u16>)> {
    let raw = raw.trim();
    if raw.is_empty() || raw.contains(['/', '@', ' ']) {
        return None;
    }
    if raw.parse::<std::net::Ipv6Addr>().is_ok() {
        return Some((raw.to_ascii_lowercase(), None));
    }
    let authority = axum::http::uri::Authority::try_from(raw).ok()?;
    Some((normalize_host(authority.host()), authority.port_u16()))
}

/// A present `Origin`: `null`, or `scheme://host[:port]` (port defaulted from the scheme).
fn parse_origin(raw: &str) -> Option<AllowedOrigin> {
    let raw = raw.trim();
    if raw.eq_ignore_ascii_case("null") {
        return Some(AllowedOrigin::Null);
    }
    let uri = axum::http::Uri::try_from(raw).ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?;
    let port = authority.port_u16().or_else(|| default_port(&scheme));
    Some(AllowedOrigin::Tuple {
        host: normalize_host(authority.host()),
        scheme,
        port,
    })
}

pub(super) fn parse_allowed_origin(raw: &str) -> Option<AllowedOrigin> {
    let raw = raw.trim();
    if let Some(base) = raw.strip_suffix(":*") {
        let uri = axum::http::Uri::try_from(base).ok()?;
        let authority = uri.authority()?;
        if authority.port().is_some() || uri.path().len() > 1 {
            return None;
        }
        return Some(AllowedOrigin::Tuple {
            scheme: uri.scheme_str()?.to_ascii_lowercase(),
            host: normalize_host(authority.host()),
            port: None,
        });
    }
    let uri = axum::http::Uri::try_from(raw).ok();
    if uri.as_ref().is_some_and(|uri| uri.path().len() > 1) {
        return None;
    }
    match parse_origin(raw)? {
        AllowedOrigin::Tuple { port: None, .. } => None, // a scheme without a default port needs one
        origin => Some(origin),
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

fn origin_matches(allowed: &AllowedOrigin, origin: &AllowedOrigin) -> bool {
    match (allowed, origin) {
        (AllowedOrigin::Null, AllowedOrigin::Null) => true,
        (
            AllowedOrigin::Tuple { scheme, host, port },
            AllowedOrigin::Tuple {
                scheme: o_scheme,
                host: o_host,
                port: o_port,
            },
        ) => scheme == o_scheme && host == o_host && port.is_none_or(|p| *o_port == Some(p)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::http::{HttpOptions, check_path};

    fn guard(options: HttpOptions) -> Guard {
        options.guard().expect("valid options")
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn status(guard: &Guard, pairs: &[(&'static str, &str)]) -> Option<StatusCode> {
        guard
            .check_headers(&headers(pairs), &axum::http::Uri::from_static("/mcp"))
            .err()
            .map(|r| r.status())
    }

    #[test]
    fn hosts_are_checked_against_the_allow_list() {
        let g = guard(HttpOptions::new());
        assert_eq!(status(&g, &[("host", "127.0.0.1:8900")]), None);
        assert_eq!(status(&g, &[("host", "localhost")]), None);
        assert_eq!(status(&g, &[("host", "[::1]:1")]), None);
        assert_eq!(
            status(&g, &[("host", "evil.example:8900")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(status(&g, &[]), Some(StatusCode::FORBIDDEN));
        let pinned = guard(HttpOptions::new().allow_host("app.internal:8443"));
        assert_eq!(status(&pinned, &[("host", "app.internal:8443")]), None);
        assert_eq!(
            status(&pinned, &[("host", "app.internal:9000")]),
            Some(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn origins_are_validated_when_present() {
        let g = guard(HttpOptions::new());
        let host = ("host", "127.0.0.1:8900");
        assert_eq!(
            status(&g, &[host, ("origin", "http://localhost:3000")]),
            None
        );
        assert_eq!(status(&g, &[host, ("origin", "http://[::1]:3000")]), None);
        assert_eq!(
            status(&g, &[host, ("origin", "https://localhost:3000")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(
            status(&g, &[host, ("origin", "http://evil.example")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(
            status(&g, &[host, ("origin", "null")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(
            status(&g, &[host, ("origin", "not an origin")]),
            Some(StatusCode::FORBIDDEN)
        );
        let exact = guard(HttpOptions::new().allow_origin("https://app.example"));
        assert_eq!(
            status(&exact, &[host, ("origin", "https://app.example")]),
            None
        );
        assert_eq!(
            status(&exact, &[host, ("origin", "https://app.example:443")]),
            None
        );
        assert_eq!(
            status(&exact, &[host, ("origin", "https://app.example:8443")]),
            Some(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn the_token_is_required_when_set() {
        let g = guard(HttpOptions::new().bearer_token("s3cret"));
        let host = ("host", "127.0.0.1:1");
        assert_eq!(status(&g, &[host]), Some(StatusCode::UNAUTHORIZED));
        assert_eq!(
            status(&g, &[host, ("authorization", "Bearer wrong")]),
            Some(StatusCode::UNAUTHORIZED)
        );
        assert_eq!(
            status(&g, &[host, ("authorization", "Bearer s3cret")]),
            None
        );
        // Host and Origin are judged first
        assert_eq!(
            status(&g, &[("host", "evil.example")]),
            Some(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn malformed_options_are_named() {
        for (options, expected) in [
            (
                HttpOptions::new().allow_origin("localhost:3000"),
                "allowed origin \"localhost:3000\"",
            ),
            (
                HttpOptions::new().allow_origin("http://a:1:*"),
                "allowed origin \"http://a:1:*\"",
            ),
            (
                HttpOptions::new().allow_host("http://x/"),
                "allowed host \"http://x/\"",
            ),
            (HttpOptions::new().bearer_token(" "), "bearer token"),
            (HttpOptions::new().max_body_bytes(0), "at least 1 byte"),
        ] {
            let error = options.guard().err().expect("rejected").to_string();
            assert!(error.contains(expected), "{error}");
        }
        assert!(check_path("mcp").is_err());
        assert!(check_path("/mcp").is_ok());
    }
}
