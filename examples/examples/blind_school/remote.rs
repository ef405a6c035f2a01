//! Two services over the network, faked with a timer: the exam board's grade boundaries, and the parents' portal.

use std::time::Duration;

/// How long each service takes to answer: `BLIND_SCHOOL_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_SCHOOL_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// An exam board's paper: its total marks, and the marks each grade needs on it, best grade first.
#[derive(Clone, Debug, PartialEq)]
pub struct Paper {
    /// The marks the paper is out of.
    pub total: u32,
    /// Each grade and the marks it needs.
    pub grades: Vec<(&'static str, u32)>,
}

/// The exam board's grade boundaries for `subject`, in marks on its paper.
///
/// # Errors
///
/// A subject whose boundaries the board has not published yet.
pub async fn boundaries(subject: &str) -> Result<Paper, String> {
    tokio::time::sleep(latency()).await;
    match subject {
        "Maths" => Ok(Paper {
            total: 80,
            grades: vec![("A", 60), ("B", 50), ("C", 40), ("D", 30)],
        }),
        "English" => Ok(Paper {
            total: 60,
            grades: vec![("A", 45), ("B", 39), ("C", 30), ("D", 21)],
        }),
        other => Err(format!("no boundaries for {other} yet")),
    }
}

/// The school day parent `login` last logged in to the portal.
///
/// # Errors
///
/// A parent without an account.
pub async fn last_login(login: &str) -> Result<u32, String> {
    tokio::time::sleep(latency()).await;
    match login {
        "mrs.ames" => Ok(4),
        "mr.bell" => Ok(1),
        "mr.diaz" => Ok(2),
        other => Err(format!("{other} has no account")),
    }
}
