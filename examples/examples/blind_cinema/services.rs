//! What the box office asks the services over the network, as async memos: which bookings bring children to a film
//! not for children, and the best-reviewed film still on sale.

use std::cmp::Reverse;

use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::model::{BoxOffice, Msg, Showing, clock};
use super::remote;

/// Children under this age may not see a film whose certificate says so.
pub const CHILD_LIMIT: u32 = 12;

/// The youngest age a certificate admits without a warning.
pub fn min_age(certificate: &str) -> u32 {
    match certificate {
        "U" | "PG" => 0,
        "12A" | "12" => 12,
        "15" => 15,
        _ => 18,
    }
}

/// The bookings still standing that have child tickets: number, customer, film.
fn family_bookings(office: &BoxOffice) -> Vec<(u32, String, String)> {
    office
        .bookings
        .iter()
        .filter(|b| !b.cancelled && b.children > 0)
        .map(|b| {
            let film = office
                .showing(&b.showing)
                .map(|s| s.film.clone())
                .unwrap_or_default();
            (b.id, b.customer.clone(), film)
        })
        .collect()
}

/// The showings on sale with seats left.
fn on_sale(office: &BoxOffice) -> Vec<Showing> {
    office
        .showings
        .iter()
        .filter(|s| s.open && s.sold < s.seats)
        .cloned()
        .collect()
}

/// The services' memos.
pub struct Services {
    /// Bookings with children for films not for children.
    pub age_warnings: AsyncMemo<Vec<String>>,
    /// The best-reviewed film still on sale.
    pub best_pick: AsyncMemo<String>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(office: &Mvu<BoxOffice, Msg>, slip: Slip) -> Services {
    let age_warnings = match slip {
        Slip::CertString => slipped::age_warnings(office),
        _ => age_warnings(office),
    };
    let best_pick = match slip {
        Slip::BestPick => slipped::best_pick(office),
        _ => best_pick(office),
    };
    Services {
        age_warnings,
        best_pick,
    }
}

/// The bookings with child tickets for a film whose certificate is for ages [`CHILD_LIMIT`] and up (the board is
/// asked for each film's certificate).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn age_warnings(office: &Mvu<BoxOffice, Msg>) -> AsyncMemo<Vec<String>> {
    let family = office.select(family_bookings);
    let age_warnings = AsyncMemo::try_new(move |_| {
        let family = family.get();
        async move {
            let mut warnings = Vec::new();
            for (id, customer, film) in family {
                let certificate = remote::certificate(&film).await?;
                if min_age(&certificate) >= CHILD_LIMIT {
                    warnings.push(format!(
                        "booking {id} {customer}: children at {film}, rated {certificate}"
                    ));
                }
            }
            Ok::<_, String>(warnings)
        }
    });
    age_warnings
}

/// The best-reviewed film among the showings on sale with seats left, at its earliest such showing.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn best_pick(office: &Mvu<BoxOffice, Msg>) -> AsyncMemo<String> {
    let showings = office.select(on_sale);
    let best_pick = AsyncMemo::try_new(move |_| {
        let showings = showings.get();
        async move {
            if showings.is_empty() {
                return Ok("nothing left on sale".to_owned());
            }
            let scores = remote::review_scores().await?;
            let mut candidates = Vec::new();
            for show in &showings {
                let Some(&(_, score)) = scores.iter().find(|(film, _)| *film == show.film) else {
                    continue;
                };
                candidates.push((score, Reverse(show.start), show));
            }
            let best = candidates
                .into_iter()
                .max_by_key(|(score, start, _)| (*score, *start));
            Ok::<_, String>(match best {
                Some((score, _, show)) => {
                    format!(
                        "{} ({score}): {} in {}",
                        show.film,
                        clock(show.start),
                        show.screen
                    )
                }
                None => "no reviews for what is on sale".to_owned(),
            })
        }
    });
    best_pick
}

/// The services' memos with a mistake.
mod slipped {
    use std::cmp::Reverse;

    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::model::{BoxOffice, Msg, clock};
    use super::super::remote;
    use super::{family_bookings, on_sale};

    /// The bookings with child tickets for a film not for children.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn age_warnings(office: &Mvu<BoxOffice, Msg>) -> AsyncMemo<Vec<String>> {
        let family = office.select(family_bookings);
        let age_warnings = AsyncMemo::try_new(move |_| {
            let family = family.get();
            async move {
                let mut warnings = Vec::new();
                for (id, customer, film) in family {
                    let certificate = remote::certificate(&film).await?;
                    // BUG(cert_string)
                    if certificate.as_str() >= "12A" {
                        warnings.push(format!(
                            "booking {id} {customer}: children at {film}, rated {certificate}"
                        ));
                    }
                }
                Ok::<_, String>(warnings)
            }
        });
        age_warnings
    }

    /// The best-reviewed film among the showings on sale with seats left.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn best_pick(office: &Mvu<BoxOffice, Msg>) -> AsyncMemo<String> {
        let showings = office.select(on_sale);
        let best_pick = AsyncMemo::try_new(move |_| {
            let showings = showings.get();
            async move {
                if showings.is_empty() {
                    return Ok("nothing left on sale".to_owned());
                }
                let scores = remote::review_scores().await?;
                let mut candidates = Vec::new();
                for show in &showings {
                    let Some(&(_, score)) = scores.iter().find(|(film, _)| *film == show.film)
                    else {
                        continue;
                    };
                    candidates.push((score, Reverse(show.start), show));
                }
                let best = candidates
                    .into_iter()
                    // BUG(best_pick)
                    .min_by_key(|(score, start, _)| (*score, *start));
                Ok::<_, String>(match best {
                    Some((score, _, show)) => {
                        format!(
                            "{} ({score}): {} in {}",
                            show.film,
                            clock(show.start),
                            show.screen
                        )
                    }
                    None => "no reviews for what is on sale".to_owned(),
                })
            }
        });
        best_pick
    }
}
