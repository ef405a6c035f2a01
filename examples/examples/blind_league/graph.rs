//! The league as an agent sees it: the `#[expose]` app, and the `#[node]` builder that derives the table, the
//! results, the referees' ledger, the fines, the squad register and what the services say.

use super::model::{League, Msg, Player, Rules, pounds};
use super::services::{self, Listed};
use super::squad::{self, Squad};
use super::standings::{self, Record};
use super::update;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

/// Which mistake the league is built with (`None`: the correct league).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct league.
    None,
    /// See `SLIPS` in `main.rs`.
    CorrectionFineUnit,
    /// See `SLIPS`.
    SendOffNoFine,
    /// See `SLIPS`.
    CorrectionSwapped,
    /// See `SLIPS`.
    BanServedPostponed,
    /// See `SLIPS`.
    SecondYellowArm,
    /// See `SLIPS`.
    TableGoalDifference,
    /// See `SLIPS`.
    TableAwayConceded,
    /// See `SLIPS`.
    LedgerNet,
    /// See `SLIPS`.
    StatusLastMatchday,
    /// See `SLIPS`.
    DisciplineOrder,
    /// See `SLIPS`.
    KickoffUnbooked,
    /// See `SLIPS`.
    InspectionSeason,
}

/// The league: its messages, and every value the secretary (or an agent) reads.
#[expose]
pub struct LeagueOffice {
    /// The season and its messages.
    #[expose(messages)]
    pub league: Mvu<League, Msg>,
    /// The matchday open for results.
    #[expose]
    #[node]
    pub matchday: Memo<u32>,
    /// The results entered, in fixture order: "MD1: Rovers 2-1 Athletic".
    #[expose]
    #[node]
    pub results: Memo<Vec<String>>,
    /// The league table, top first.
    #[expose]
    #[node]
    pub table: Memo<Vec<String>>,
    /// What each referee was paid and fined.
    #[expose]
    #[node]
    pub referees: Memo<Vec<String>>,
    /// The fines the clubs owe: "Rovers: 15.00".
    #[expose]
    #[node]
    pub club_fines: Memo<Vec<String>>,
    /// What the secretary was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The squad register, each player with his standing.
    #[expose]
    #[node]
    pub squad: Squad,
    /// The players serving or due to serve a ban.
    #[expose]
    #[node]
    pub suspended: Memo<Vec<String>>,
    /// The disciplinary table.
    #[expose]
    #[node]
    pub discipline: Memo<Vec<String>>,
    /// How many players were shown a card.
    #[expose]
    #[node]
    pub carded: Memo<usize>,
    /// The open matchday's kick-offs, from the booking service.
    #[expose]
    #[node]
    pub kickoffs: AsyncMemo<Vec<String>>,
    /// The open matchday's pitch inspections, from the inspection service.
    #[expose]
    #[node]
    pub inspections: AsyncMemo<Vec<String>>,
}

/// The squads registered when the season opens: (player, club, shirt).
const SQUADS: [(&str, &str, u32); 8] = [
    ("Ade", "ROV", 9),
    ("Bo", "ROV", 4),
    ("Cal", "ATH", 10),
    ("Dev", "ATH", 5),
    ("Eli", "WAN", 7),
    ("Finn", "WAN", 3),
    ("Gus", "UTD", 11),
    ("Hal", "UTD", 6),
];

/// The season's opening: the rules (as typed in, for `slip`) and the squads' registrations, sent as the first
/// commands.
fn opening(slip: Slip) -> (League, Vec<Msg>) {
    let rules = if slip == Slip::CorrectionFineUnit {
        super::model::slipped::rules()
    } else {
        Rules::default()
    };
    let registrations = SQUADS
        .iter()
        .map(|&(player, club, shirt)| Msg::Register {
            player: player.to_owned(),
            club: club.to_owned(),
            shirt,
        })
        .collect();
    (League::season(rules), registrations)
}

/// Builds the league with `slip`.
#[node]
pub fn league_office(slip: Slip) -> LeagueOffice {
    let league = Mvu::with_commands(opening(slip), move |msg, league: &League| {
        update::update(msg, league, slip)
    });
    let matchday = league.select(|l| l.matchday);
    let rules = league.select(|l| l.rules.clone());
    let fixtures = league.select(|l| l.fixtures.clone());
    let clubs = league.select(|l| l.clubs.clone());
    let panel = league.select(|l| l.referees.clone());
    let players: Memo<Vec<Player>> = league.select(|l| l.players.clone());
    let results = league.select(|l| {
        l.fixtures
            .iter()
            .filter_map(|f| {
                let score = f.score?;
                let note = if f.corrected { " (corrected)" } else { "" };
                Some(format!(
                    "MD{}: {} {}-{} {}{note}",
                    f.matchday,
                    l.club_name(&f.home),
                    score.home,
                    score.away,
                    l.club_name(&f.away)
                ))
            })
            .collect::<Vec<_>>()
    });
    let table = Memo::new({
        let (fixtures, clubs, rules) = (fixtures.clone(), clubs.clone(), rules.clone());
        move |_| {
            let rules = rules.get();
            let mut records: Vec<Record> = clubs.with(|clubs| {
                clubs
                    .iter()
                    .map(|club| Record::new(&club.code, &club.name))
                    .collect()
            });
            let played: Vec<_> = fixtures
                .get()
                .into_iter()
                .filter(|f| f.score.is_some())
                .collect();
            for fixture in &played {
                let Some(score) = fixture.score else { continue };
                for record in records.iter_mut() {
                    if record.code == fixture.home {
                        record.add(score.home, score.away, &rules);
                    } else if record.code == fixture.away {
                        if slip == Slip::TableAwayConceded {
                            // BUG(table_away_conceded)
                            record.add(score.away, score.away, &rules);
                        } else {
                            record.add(score.away, score.home, &rules);
                        }
                    }
                }
            }
            let compare = if slip == Slip::TableGoalDifference {
                standings::slipped::compare
            } else {
                standings::compare
            };
            records.sort_by(|a, b| compare(a, b, &played, &rules));
            records
                .iter()
                .enumerate()
                .map(|(at, record)| record.line(at + 1))
                .collect::<Vec<_>>()
        }
    });
    let referees = Memo::new({
        let (fixtures, panel) = (fixtures.clone(), panel.clone());
        move |_| {
            let fixtures = fixtures.get();
            let mut ledger = Vec::new();
            for referee in panel.get() {
                let (mut officiated, mut corrected) = (0, 0);
                for fixture in fixtures
                    .iter()
                    .filter(|f| f.referee == referee.name && f.score.is_some())
                {
                    officiated += 1;
                    corrected += usize::from(fixture.corrected);
                }
                if officiated == 0 && referee.paid == 0 && referee.fined == 0 {
                    continue;
                }
                let matches = if officiated == 1 { "match" } else { "matches" };
                let mut line = format!(
                    "{}: {officiated} {matches}, paid {}",
                    referee.name,
                    pounds(referee.paid)
                );
                if referee.fined > 0 {
                    line.push_str(&format!(
                        ", fined {} ({corrected} corrected)",
                        pounds(referee.fined)
                    ));
                }
                let net = if slip == Slip::LedgerNet {
                    // BUG(ledger_net)
                    referee.paid + referee.fined
                } else {
                    referee.paid - referee.fined
                };
                line.push_str(&format!(", net {}", pounds(net)));
                ledger.push(line);
            }
            ledger
        }
    });
    let club_fines = league.select(|l| {
        l.club_fines
            .iter()
            .map(|(club, owed)| format!("{}: {}", l.club_name(club), pounds(*owed)))
            .collect::<Vec<_>>()
    });
    let notices = league.select(|l| l.notices.clone());
    let squad = squad::register(players.clone(), &matchday, &rules, slip);
    let suspended = squad::suspended(&squad, &players);
    let discipline = squad::discipline(&squad, &players, slip);
    let carded = squad::carded(&squad);
    let season: Memo<Vec<Listed>> = league.select(|l| {
        l.fixtures
            .iter()
            .map(|f| Listed {
                id: f.id,
                matchday: f.matchday,
                title: l.title(f),
                ground: l
                    .club(&f.home)
                    .map_or_else(String::new, |club| club.ground.clone()),
                played: f.score.is_some(),
            })
            .collect()
    });
    let kickoffs = services::kickoffs(&matchday, &season, slip);
    let inspections = services::inspections(&matchday, &season, slip);
    LeagueOffice {
        league,
        matchday,
        results,
        table,
        referees,
        club_fines,
        notices,
        squad,
        suspended,
        discipline,
        carded,
        kickoffs,
        inspections,
    }
}
