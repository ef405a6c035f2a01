//! Who the live page lets in: the page's own credential, which MCP clients do not hold.
//!
//! With [`HttpOptions::page_credential`] on (the default) the page has a key: a random secret made when the server
//! starts (or [`HttpOptions::page_key`]), printed with the page's address on the terminal that started it
//! (`…/?key=<key>`), as notebook servers do. Opening that address trades the key for a session: an opaque random id
//! in an `HttpOnly`, `SameSite=Strict` cookie, which only the page's routes accept (`/mcp` never reads a cookie).
//! The bearer token of `/mcp` does not open the page: agents hold it.
//!
//! With the credential off and a bearer token set, `…/?token=<token>` trades the token for a session the same way,
//! and a request carrying `Authorization: Bearer <token>` passes too. With neither, the page is open to whoever
//! passes the guard of `/mcp`.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use axum::http::{HeaderMap, header};

use super::super::HttpOptions;
use super::super::guard::{Guard, constant_time_eq};

/// The query parameter a person's link carries the page key in (`/?key=<key>`).
pub(crate) const KEY_PARAM: &str = "key";

/// The query parameter the bearer token may arrive in when the page credential is off (`/?token=<token>`).
const TOKEN_PARAM: &str = "token";

/// How many page sessions live at once; a new one past it ends the oldest.
const MAX_SESSIONS: usize = 64;

/// A secret that never shows in `Debug`.
#[derive(Clone)]
pub(crate) struct Secret(String);

impl Secret {
    /// The secret itself.
    pub(crate) fn reveal(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// What opens the page.
enum Door {
    /// Whoever passes the guard of `/mcp`.
    Open,
    /// The page key, traded for a session.
    Key(Secret),
    /// The bearer token (the credential is off): traded for a session, or in the `Authorization` header.
    Token,
}

/// The page's door and its live sessions.
pub(super) struct Credential {
    door: Door,
    /// The session cookie's name, one per server (browsers send a cookie to every port of a host, and two servers
    /// on one host must not overwrite each other's sessions).
    cookie: String,
    /// The live sessions' ids, oldest first.
    sessions: Mutex<VecDeque<String>>,
}

/// What a link (`/?key=…` or `/?token=…`) asks for.
pub(super) enum Trade {
    /// The right secret: the `Set-Cookie` value of a new session.
    Session(String),
    /// A wrong secret.
    Wrong,
}

impl Credential {
    pub(super) fn new(options: &HttpOptions, guard: &Guard) -> Credential {
        let door = if options.page_credential {
            Door::Key(Secret(options.page_key.clone().unwrap_or_else(random)))
        } else if guard.token.is_some() {
            Door::Token
        } else {
            Door::Open
        };
        Credential {
            door,
            cookie: format!("ranvier-page-{}", &random()[..8]),
            sessions: Mutex::new(VecDeque::new()),
        }
    }

    /// The page key, when the page wants it.
    pub(super) fn key(&self) -> Option<Secret> {
        match &self.door {
            Door::Key(key) => Some(key.clone()),
            _ => None,
        }
    }

    /// A link's trade: `None` when `query` carries no secret for this door.
    pub(super) fn trade(&self, query: Option<&str>, guard: &Guard) -> Option<Trade> {
        let query = query?;
        let right = match &self.door {
            Door::Open => return None,
            Door::Key(key) => {
                let presented = super::query_param(query, KEY_PARAM)?;
                constant_time_eq(presented.as_bytes(), key.reveal().as_bytes())
            }
            Door::Token => {
                let presented = super::query_param(query, TOKEN_PARAM)?;
                let token = guard.token.as_deref().unwrap_or_default();
                constant_time_eq(format!("Bearer {presented}").as_bytes(), token)
            }
        };
        if !right {
            return Some(Trade::Wrong);
        }
        let id = format!("{}{}", random(), random());
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if sessions.len() >= MAX_SESSIONS {
            sessions.pop_front();
        }
        sessions.push_back(id.clone());
        Some(Trade::Session(format!(
            "{}={id}; HttpOnly; SameSite=Strict; Path=/",
            self.cookie
        )))
    }

    /// Whether a request may use the page: a live session's cookie, or (the credential off) the bearer token.
    pub(super) fn admits(&self, headers: &HeaderMap, guard: &Guard) -> bool {
        match &self.door {
            Door::Open => return true,
            Door::Token if guard.check_token(headers).is_ok() => return true,
            Door::Token | Door::Key(_) => {}
        }
        let Some(presented) = cookie_value(headers, &self.cookie) else {
            return false;
        };
        let sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        // every id is compared, in constant time each
        sessions.iter().fold(false, |found, id| {
            found | constant_time_eq(presented.as_bytes(), id.as_bytes())
        })
    }

    /// What a refused request is told: how a person gets in.
    pub(super) fn how_to_enter(&self) -> &'static str {
        match self.door {
            Door::Key(_) => {
                "Unauthorized: the live page wants its key; open the address printed where the server started \
                 (…/?key=<the page key>)"
            }
            _ => {
                "Unauthorized: this server wants its bearer token; open the page as /?token=<the token>"
            }
        }
    }
}

/// 32 random hex digits.
fn random() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The value of `name` in a `Cookie` header.
fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with_cookie(pair: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.append(header::COOKIE, HeaderValue::from_str(pair).unwrap());
        headers
    }

    #[test]
    fn the_key_trades_for_an_opaque_session_and_the_token_does_not() {
        let options = HttpOptions::new().bearer_token("t0ken").page_key("k3y");
        let guard = options.guard().unwrap();
        let credential = Credential::new(&options, &guard);
        assert!(credential.trade(Some("token=t0ken"), &guard).is_none());
        assert!(matches!(
            credential.trade(Some("key=wrong"), &guard),
            Some(Trade::Wrong)
        ));
        let Some(Trade::Session(set)) = credential.trade(Some("key=k3y"), &guard) else {
            panic!("the key opens a session");
        };
        assert!(!set.contains("k3y") && !set.contains("t0ken"), "{set}");
        let pair = set.split(';').next().unwrap();
        assert!(credential.admits(&with_cookie(pair), &guard));
        let mut bearer = HeaderMap::new();
        bearer.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer t0ken"),
        );
        assert!(!credential.admits(&bearer, &guard), "agents hold the token");
        let (name, _) = pair.split_once('=').unwrap();
        assert!(!credential.admits(&with_cookie(&format!("{name}=00")), &guard));
    }

    #[test]
    fn cookies_are_found_by_name() {
        let headers = with_cookie("a=1; ranvier-page-x=abc");
        assert_eq!(cookie_value(&headers, "ranvier-page-x"), Some("abc"));
        assert_eq!(cookie_value(&headers, "b"), None);
    }
}
