//! Two services over the network, faked with a timer: the film classification board's certificates, and a review
//! site's scores.

use std::time::Duration;

/// How long each service takes to answer: `BLIND_CINEMA_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_CINEMA_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The certificate of `film`: `U`, `PG`, `12A`, `15` or `18`.
///
/// # Errors
///
/// A film the board has not classified.
pub async fn certificate(film: &str) -> Result<String, String> {
    tokio::time::sleep(latency()).await;
    let certificate = match film {
        "Paddington" => "PG",
        "Dune" => "12A",
        "Alien" => "15",
        other => return Err(format!("the board has not classified {other:?}")),
    };
    Ok(certificate.to_owned())
}

/// The review site's score of each film it lists, out of 100.
///
/// # Errors
///
/// Never, here; a real service would.
pub async fn review_scores() -> Result<Vec<(String, u8)>, String> {
    tokio::time::sleep(latency()).await;
    Ok([
        ("Napoleon", 64),
        ("Alien", 97),
        ("Dune", 83),
        ("Paddington", 88),
    ]
    .into_iter()
    .map(|(film, score)| (film.to_owned(), score))
    .collect())
}
