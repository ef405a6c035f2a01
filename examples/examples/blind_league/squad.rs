//! The squad register: a keyed collection of the registered players, each row with the player's standing (his
//! availability and disciplinary record), and the lists the secretary reads off it.

use super::graph::Slip;
use super::model::{Player, Rules};
use ranvier::Memo;
use ranvier::collection::{Collection, Row};
use std::cmp::Reverse;
use std::rc::Rc;

/// The register: one row per player, keyed by name, its figure the player's standing (`"status"`).
pub type Squad = Collection<String, Player, (&'static str, Memo<String>)>;

/// The register over `players`; each row's standing reads the open matchday and the rules.
pub fn register(
    players: Memo<Vec<Player>>,
    matchday: &Memo<u32>,
    rules: &Memo<Rules>,
    slip: Slip,
) -> Squad {
    let (matchday, rules) = (matchday.clone(), rules.clone());
    Collection::keyed(
        players,
        |player: &Player| player.name.clone(),
        move |row| standing(row, &matchday, &rules, slip),
    )
}

/// A player's standing: "available, 1 pt", "misses matchdays 2-3, 3 pts", "available, 2 yellows: one more is a
/// ban, 2 pts".
fn standing(
    row: &Row<String, Player>,
    matchday: &Memo<u32>,
    rules: &Memo<Rules>,
    slip: Slip,
) -> (&'static str, Memo<String>) {
    let (row, matchday, rules) = (row.clone(), matchday.clone(), rules.clone());
    let status = Memo::new(move |_| {
        let day = matchday.get();
        let limit = rules.with(|rules| rules.yellow_limit);
        row.with(|player| {
            let mut parts = Vec::new();
            if player.ban > 0 {
                let first = player.ban_from.max(day);
                let last = if slip == Slip::StatusLastMatchday {
                    // BUG(status_last_matchday)
                    first + player.ban
                } else {
                    first + player.ban - 1
                };
                parts.push(if first == last {
                    format!("misses matchday {first}")
                } else {
                    format!("misses matchdays {first}-{last}")
                });
            } else {
                parts.push("available".to_owned());
            }
            if limit > 1 && player.yellows % limit == limit - 1 {
                parts.push(format!("{} yellows: one more is a ban", player.yellows));
            }
            let points = player.discipline_points();
            if points > 0 {
                parts.push(format!("{points} pt{}", if points == 1 { "" } else { "s" }));
            }
            parts.join(", ")
        })
    })
    .labelled("status");
    ("status", status)
}

/// The lines `line` writes for the players of `keys`, in that order (a player `line` skips is left out).
fn lines_for(
    keys: Memo<Rc<[String]>>,
    players: Memo<Vec<Player>>,
    line: impl Fn(&Player) -> Option<String> + 'static,
) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let keys = keys.get();
        players.with(|players| {
            keys.iter()
                .filter_map(|name| players.iter().find(|p| p.name == *name))
                .filter_map(&line)
                .collect()
        })
    })
}

/// The players serving or due to serve a ban: "Ade (ROV): 2 matches".
pub fn suspended(squad: &Squad, players: &Memo<Vec<Player>>) -> Memo<Vec<String>> {
    let banned = squad.filter(|player| player.ban > 0);
    lines_for(banned.keys(), players.clone(), |player| {
        let matches = if player.ban == 1 { "match" } else { "matches" };
        Some(format!(
            "{} ({}): {} {matches}",
            player.name, player.club, player.ban
        ))
    })
}

/// The disciplinary table: the players shown a card, most points first (ties by name): "Dev (ATH): 3 pts".
pub fn discipline(squad: &Squad, players: &Memo<Vec<Player>>, slip: Slip) -> Memo<Vec<String>> {
    let order = if slip == Slip::DisciplineOrder {
        // BUG(discipline_order)
        squad.sort_by(|player| (Reverse(player.cards()), player.name.clone()))
    } else {
        squad.sort_by(|player| (Reverse(player.discipline_points()), player.name.clone()))
    };
    lines_for(order, players.clone(), |player| {
        let points = player.discipline_points();
        (points > 0).then(|| {
            format!(
                "{} ({}): {points} pt{}",
                player.name,
                player.club,
                if points == 1 { "" } else { "s" }
            )
        })
    })
}

/// How many players have been shown a card this season.
pub fn carded(squad: &Squad) -> Memo<usize> {
    squad.count_by(|player| player.cards() > 0)
}
