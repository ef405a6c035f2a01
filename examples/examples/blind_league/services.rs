//! What the league asks over the network, as async memos: the kick-off times the council booked for the open
//! matchday's matches, and whether the groundsmen find the pitches playable.

use super::graph::Slip;
use super::remote;
use ranvier::{AsyncMemo, Memo};

/// Rain over which a pitch is waterlogged, in millimetres.
pub const WATERLOGGED_MM: u32 = 20;

/// A fixture as the services need it.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// Its number.
    pub id: u32,
    /// Its matchday.
    pub matchday: u32,
    /// "Rovers v Athletic".
    pub title: String,
    /// The home club's ground.
    pub ground: String,
    /// Whether its result is in.
    pub played: bool,
}

/// The matches of `day` still to be played.
fn due(season: &[Listed], day: u32) -> Vec<Listed> {
    season
        .iter()
        .filter(|f| f.matchday == day && !f.played)
        .cloned()
        .collect()
}

/// The kick-off of each match of the open matchday still to be played, from the booking service: "Rovers v
/// Athletic: Sat 14:00 at Mill Lane", or why there is none.
pub fn kickoffs(
    matchday: &Memo<u32>,
    season: &Memo<Vec<Listed>>,
    slip: Slip,
) -> AsyncMemo<Vec<String>> {
    let (matchday, season) = (matchday.clone(), season.clone());
    AsyncMemo::new(move |_| {
        let day = matchday.get();
        let fixtures = season.with(|season| due(season, day));
        async move {
            let mut lines = Vec::with_capacity(fixtures.len());
            for fixture in &fixtures {
                let booked = remote::booking(&fixture.ground, day).await;
                let booked = if slip == Slip::KickoffUnbooked {
                    // BUG(kickoff_unbooked)
                    Ok(booked.unwrap_or_default())
                } else {
                    booked
                };
                let line = match booked {
                    Ok(slot) => format!(
                        "{}: {} {} at {}",
                        fixture.title, slot.day, slot.kickoff, fixture.ground
                    ),
                    Err(why) => format!("{}: {why} at {}", fixture.title, fixture.ground),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// The groundsmen's verdict on each pitch of the open matchday's matches still to be played: "Wanderers v United at
/// Heath Road: playable (6 mm)", "... waterlogged (24 mm)" or "... frozen".
pub fn inspections(
    matchday: &Memo<u32>,
    season: &Memo<Vec<Listed>>,
    slip: Slip,
) -> AsyncMemo<Vec<String>> {
    let (matchday, season) = (matchday.clone(), season.clone());
    AsyncMemo::new(move |_| {
        let day = matchday.get();
        let season = season.get();
        let due = due(&season, day);
        async move {
            let inspected: &[Listed] = if slip == Slip::InspectionSeason {
                // BUG(inspection_season)
                &season
            } else {
                &due
            };
            let mut verdicts = Vec::new();
            for fixture in inspected {
                let report = remote::inspect(&fixture.ground, day).await;
                let verdict = if report.frozen {
                    "frozen".to_owned()
                } else if report.rain_mm > WATERLOGGED_MM {
                    format!("waterlogged ({} mm)", report.rain_mm)
                } else {
                    format!("playable ({} mm)", report.rain_mm)
                };
                verdicts.push(format!(
                    "{} at {}: {verdict}",
                    fixture.title, fixture.ground
                ));
            }
            verdicts
        }
    })
}
