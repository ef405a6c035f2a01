//! An amateur football league's season (four clubs and their registered players, eight fixtures over four
//! matchdays, results entered and corrected, the league table, cards and the suspensions served over matchdays,
//! referees' fees and fines, and two services over the network), split over nine files as an app developer would
//! write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one
//! `explain` call over MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The league: the season opens on matchday 1 with its clubs (Rovers, Athletic, Wanderers, United), its fixture list
//! and its three referees, and the squads are registered as the first commands of `Mvu::with_commands` (two players
//! a club). The secretary registers a player (`register`), enters a result (`enter_result`) and corrects one
//! (`correct_result`: the referee who sent in the wrong score is fined, as a `FineReferee` command), and records the
//! cards (`caution`, `send_off`): a straight red bans a player for two matches and fines his club 15.00, a second
//! yellow in one match for one match and 10.00 (the fines as `FineClub` commands), and every third yellow of the
//! season costs a match. `close_matchday` closes the open matchday: the referees of the matches played are paid their
//! 30.00 fee (`PayReferee` commands), a banned player serves a match when his club played, a match not played is
//! noted as postponed, and the next matchday opens. Derived: the open matchday, the results, the league table
//! (points, goal difference, goals scored, then the matches between the clubs level), the referees' ledger, the
//! clubs' fines and the notices; the squad register, a keyed collection (`ranvier::collection`) with each player's
//! standing as a row memo and views over it (the players suspended, from a `filter`, the disciplinary table, from a
//! `sort_by`, and how many were carded, from a `count_by`); and from two services over the network, as async memos:
//! the kick-off times the council booked for the open matchday (a booking service), and the groundsmen's verdicts on
//! its pitches (an inspection service).
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default` and `PartialEq`), `update.rs` (`update`, with
//! commands), `discipline.rs` (what a card costs) and `standings.rs` (the table's rules), `graph.rs` (the `#[expose]`
//! app, the `#[node]` builder, the table and the ledger), `squad.rs` (the collection, its row factory and views),
//! `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module or an `if slip
//! == ...` branch next to the correct code. `--slip <key>` (or `BLIND_LEAGUE_SLIP=<key>`) runs the league with that
//! one mistake; without it the league is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and
//! the `explain` arguments that show it (`BLIND_LEAGUE_SLIP=<key> ranvier-mcp call target/debug/examples/blind_league
//! explain '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_league -- --report` (a debug build: only traced
//! builds list `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's
//! length (`--answers` adds each answer). Otherwise the league serves MCP over stdio.

use ranvier_examples::harness;

pub mod discipline;
pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod squad;
pub mod standings;
pub mod update;

use graph::{LeagueOffice, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the league that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "correction_fine_unit",
        "a hand-written rules value with the wrong unit: the correction fine in pounds where pence are meant",
        Slip::CorrectionFineUnit,
    ),
    (
        "send_off_no_fine",
        "a command not sent: `update`'s arm for a sending-off drops the commands its helper returned (the club's fine)",
        Slip::SendOffNoFine,
    ),
    (
        "correction_swapped",
        "swapped arguments in an `update` helper: a corrected score written away-home",
        Slip::CorrectionSwapped,
    ),
    (
        "ban_served_postponed",
        "a missing condition in an `update` helper: a ban is served on a matchday the player's club did not play",
        Slip::BanServedPostponed,
    ),
    (
        "second_yellow_arm",
        "a wrong match arm in a rule of another module: a second yellow sanctioned as a straight red",
        Slip::SecondYellowArm,
    ),
    (
        "table_goal_difference",
        "the wrong field in a rule of another module called from a memo: the table orders level clubs by goals \
         scored before goal difference",
        Slip::TableGoalDifference,
    ),
    (
        "table_away_conceded",
        "the wrong variable in a long memo: the away side's goals counted as the goals it conceded",
        Slip::TableAwayConceded,
    ),
    (
        "ledger_net",
        "a wrong operator in a long memo: a referee's fines added to his fees, not taken off",
        Slip::LedgerNet,
    ),
    (
        "status_last_matchday",
        "an off-by-one in a row factory's memo: the last matchday a ban covers is one too far",
        Slip::StatusLastMatchday,
    ),
    (
        "discipline_order",
        "a wrong sort key in a `sort_by` view: the disciplinary table by cards shown, not by points",
        Slip::DisciplineOrder,
    ),
    (
        "kickoff_unbooked",
        "a failure turned into a default in an async memo's future: a pitch nobody booked gets the usual Saturday \
         slot",
        Slip::KickoffUnbooked,
    ),
    (
        "inspection_season",
        "the wrong capture in an async memo's future: the whole season's fixtures inspected, not the matchday's \
         matches still to play",
        Slip::InspectionSeason,
    ),
];

/// What the graph thread keeps: the league and its exposure.
pub type LeagueHost = harness::ExposedHost<LeagueOffice>;

/// Starts the league with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_league(slip: Slip) -> Result<LeagueHost, HostError> {
    harness::start_exposed(move || graph::league_office(slip))
}

/// The league with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::league_office(slip), "blind-league")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the league, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("discipline.rs", include_str!("discipline.rs")),
    ("standings.rs", include_str!("standings.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("squad.rs", include_str!("squad.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the league holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the league")
}

fn enter_result(fixture: u32, home: u32, away: u32) -> Value {
    msg(
        "enter_result",
        json!({"fixture": fixture, "home": home, "away": away}),
    )
}
fn correct_result(fixture: u32, home: u32, away: u32) -> Value {
    msg(
        "correct_result",
        json!({"fixture": fixture, "home": home, "away": away}),
    )
}
fn caution(fixture: u32, player: &str) -> Value {
    msg("caution", json!({"fixture": fixture, "player": player}))
}
fn send_off(fixture: u32, player: &str) -> Value {
    msg("send_off", json!({"fixture": fixture, "player": player}))
}
fn close_matchday() -> Value {
    msg("close_matchday", json!({}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the season opens on matchday 1; fixtures 1 Rovers v Athletic (Ives, at Mill Lane) and 2 Wanderers v
/// United (Okafor, at Heath Road) on matchday 1, 3 Athletic v Wanderers (Marsh, at Station Park) and 4 United v
/// Rovers (Ives, at Canal Side) on matchday 2, 5 and 6 on matchday 3, 7 and 8 on matchday 4; players Ade and Bo
/// (Rovers), Cal and Dev (Athletic), Eli and Finn (Wanderers), Gus and Hal (United); a referee's fee 30.00, a
/// correction fine 5.00, a straight red 15.00 and two matches, a second yellow 10.00 and one match).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ives's 2-1 corrected to 3-1, matchday 1 closed: paid 30.00, fined 5.00, net 25.00; shows fined 0.05
        "correction_fine_unit" => (
            "referees",
            json!([
                enter_result(1, 2, 1),
                correct_result(1, 3, 1),
                close_matchday()
            ]),
        ),
        // Dev sent off: Athletic owe 15.00; shows no fine
        "send_off_no_fine" => ("club_fines", json!([send_off(1, "Dev")])),
        // Rovers 2-1 Athletic corrected to 3-1; shows 1-3
        "correction_swapped" => (
            "results",
            json!([enter_result(1, 2, 1), correct_result(1, 3, 1)]),
        ),
        // Ade sent off on matchday 1; Rovers' match on matchday 2 not played: he still has two to miss; shows one
        "ban_served_postponed" => (
            "suspended",
            json!([
                send_off(1, "Ade"),
                enter_result(1, 1, 0),
                enter_result(2, 0, 0),
                close_matchday(),
                enter_result(3, 2, 2),
                close_matchday()
            ]),
        ),
        // Bo's second yellow: one match; shows two
        "second_yellow_arm" => ("suspended", json!([caution(1, "Bo"), caution(1, "Bo")])),
        // Rovers 2-0 and Wanderers 4-3 both on 3 points: Rovers top on goal difference; shows Wanderers top
        "table_goal_difference" => (
            "table",
            json!([enter_result(1, 2, 0), enter_result(2, 4, 3)]),
        ),
        // Athletic win 2-0 at Rovers: 3 points; shows a draw, 1 point
        "table_away_conceded" => ("table", json!([enter_result(1, 0, 2)])),
        // Okafor's 1-2 corrected to 2-1, matchday 1 closed: net 25.00; shows 35.00
        "ledger_net" => (
            "referees",
            json!([
                enter_result(1, 0, 0),
                enter_result(2, 1, 2),
                correct_result(2, 2, 1),
                close_matchday()
            ]),
        ),
        // Bo's second yellow: misses matchday 2; shows matchdays 2-3
        "status_last_matchday" => ("squad", json!([caution(1, "Bo"), caution(1, "Bo")])),
        // Dev's red (3 points) above Bo's and Cal's yellows; shows Bo, Cal, Dev
        "discipline_order" => (
            "discipline",
            json!([caution(1, "Bo"), caution(1, "Cal"), send_off(1, "Dev")]),
        ),
        // matchday 2 opens: Canal Side is not booked; shows it at Sat 14:00
        "kickoff_unbooked" => ("kickoffs", json!([close_matchday()])),
        // Rovers v Athletic played: only Heath Road left to inspect; shows all eight fixtures
        "inspection_season" => ("inspections", json!([enter_result(1, 1, 1)])),
        other => panic!("no mistake {other}"),
    }
}

/// A row of the squad register as published: the player's fields and his standing.
fn row(
    name: &str,
    club: &str,
    shirt: u32,
    cards: (u32, u32),
    ban: (u32, u32),
    status: &str,
) -> Value {
    json!({
        "key": name,
        "club": club,
        "shirt": shirt,
        "yellows": cards.0,
        "reds": cards.1,
        "ban": ban.0,
        "banFrom": ban.1,
        "status": status
    })
}

/// The value `key`'s node holds in the correct league after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "correction_fine_unit" => {
            json!(["Ives: 1 match, paid 30.00, fined 5.00 (1 corrected), net 25.00"])
        }
        "send_off_no_fine" => json!(["Athletic: 15.00"]),
        "correction_swapped" => json!(["MD1: Rovers 3-1 Athletic (corrected)"]),
        "ban_served_postponed" => json!(["Ade (ROV): 2 matches"]),
        "second_yellow_arm" => json!(["Bo (ROV): 1 match"]),
        "table_goal_difference" => json!([
            "1. Rovers P1 W1 D0 L0 GF2 GA0 GD+2 Pts3",
            "2. Wanderers P1 W1 D0 L0 GF4 GA3 GD+1 Pts3",
            "3. United P1 W0 D0 L1 GF3 GA4 GD-1 Pts0",
            "4. Athletic P1 W0 D0 L1 GF0 GA2 GD-2 Pts0"
        ]),
        "table_away_conceded" => json!([
            "1. Athletic P1 W1 D0 L0 GF2 GA0 GD+2 Pts3",
            "2. United P0 W0 D0 L0 GF0 GA0 GD+0 Pts0",
            "3. Wanderers P0 W0 D0 L0 GF0 GA0 GD+0 Pts0",
            "4. Rovers P1 W0 D0 L1 GF0 GA2 GD-2 Pts0"
        ]),
        "ledger_net" => json!([
            "Ives: 1 match, paid 30.00, net 30.00",
            "Okafor: 1 match, paid 30.00, fined 5.00 (1 corrected), net 25.00"
        ]),
        "status_last_matchday" => json!([
            row("Ade", "ROV", 9, (0, 0), (0, 0), "available"),
            row("Bo", "ROV", 4, (1, 1), (1, 2), "misses matchday 2, 4 pts"),
            row("Cal", "ATH", 10, (0, 0), (0, 0), "available"),
            row("Dev", "ATH", 5, (0, 0), (0, 0), "available"),
            row("Eli", "WAN", 7, (0, 0), (0, 0), "available"),
            row("Finn", "WAN", 3, (0, 0), (0, 0), "available"),
            row("Gus", "UTD", 11, (0, 0), (0, 0), "available"),
            row("Hal", "UTD", 6, (0, 0), (0, 0), "available")
        ]),
        "discipline_order" => json!(["Dev (ATH): 3 pts", "Bo (ROV): 1 pt", "Cal (ATH): 1 pt"]),
        "kickoff_unbooked" => json!([
            "Athletic v Wanderers: Sat 15:00 at Station Park",
            "United v Rovers: no pitch booked at Canal Side"
        ]),
        "inspection_season" => json!(["Wanderers v United at Heath Road: playable (6 mm)"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a league started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the league does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_league(slip)?, node, messages).await
}

/// Every mistake, as a gallery shape.
pub fn shapes() -> Vec<Shape> {
    SLIPS
        .iter()
        .zip(STARTS)
        .map(|(&(key, class, _), start)| {
            let (node, messages) = case(key);
            Shape {
                name: key,
                class,
                node,
                messages,
                faulty: bug(key),
                start,
            }
        })
        .collect()
}

/// The starters of [`SLIPS`], in order (a shape's `start` is a plain `fn`).
const STARTS: [fn() -> Result<Started, HostError>; 12] = [
    || start(Slip::CorrectionFineUnit),
    || start(Slip::SendOffNoFine),
    || start(Slip::CorrectionSwapped),
    || start(Slip::BanServedPostponed),
    || start(Slip::SecondYellowArm),
    || start(Slip::TableGoalDifference),
    || start(Slip::TableAwayConceded),
    || start(Slip::LedgerNet),
    || start(Slip::StatusLastMatchday),
    || start(Slip::DisciplineOrder),
    || start(Slip::KickoffUnbooked),
    || start(Slip::InspectionSeason),
];

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--cases") {
        for shape in shapes() {
            let explain = json!({"node": shape.node, "messages": shape.messages});
            println!("{}\t{}\t{explain}", shape.name, shape.faulty);
        }
        return;
    }
    if args.iter().any(|a| a == "--report") {
        if !ranvier::trace::TRACED {
            eprintln!(
                "blind_league: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_LEAGUE_SLIP", &SLIPS, Slip::None)?;
        let host = start_league(slip)?;
        let options = McpAdapterOptions::new("blind-league", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_league: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_league: {error}");
        std::process::exit(1);
    }
}
