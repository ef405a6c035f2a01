//! The league's `update`: the secretary's messages, and the follow-up messages (commands) they send.

use super::discipline::{self, Sanction};
use super::graph::Slip;
use super::model::{Booking, Card, Fixture, League, Msg, Score};

/// The league after `msg`, and the messages to dispatch next. A message naming no fixture, club or player is
/// refused.
pub fn update(msg: Msg, league: &League, slip: Slip) -> (League, Vec<Msg>) {
    let mut next = league.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Register {
            player,
            club,
            shirt,
        } => register(&mut next, player, club, shirt),
        Msg::EnterResult {
            fixture,
            home,
            away,
        } => {
            let fixture = fixture_mut(&mut next, fixture);
            if fixture.score.is_some() {
                refuse(format!(
                    "fixture {} has a result already: correct it with correct_result",
                    fixture.id
                ));
            }
            set_score(fixture, home, away);
        }
        Msg::CorrectResult {
            fixture,
            home,
            away,
        } => commands = correct(&mut next, fixture, home, away, slip),
        Msg::Caution { fixture, player } => {
            commands = show_card(&mut next, fixture, &player, Card::Yellow, slip);
        }
        Msg::SendOff { fixture, player } => {
            if slip == Slip::SendOffNoFine {
                // BUG(send_off_no_fine)
                show_card(&mut next, fixture, &player, Card::Red, slip);
            } else {
                commands = show_card(&mut next, fixture, &player, Card::Red, slip);
            }
        }
        Msg::CloseMatchday => commands = close_matchday(&mut next, slip),
        Msg::PayReferee { fixture } => {
            let referee = fixture_mut(&mut next, fixture).referee.clone();
            let fee = next.rules.referee_fee;
            match next.referees.iter_mut().find(|r| r.name == referee) {
                Some(referee) => referee.paid += fee,
                None => refuse(format!("no referee {referee} on the panel")),
            }
        }
        Msg::FineClub { club, pence } => {
            if next.club(&club).is_none() {
                refuse(format!("no club {club}"));
            }
            match next.club_fines.iter_mut().find(|(code, _)| *code == club) {
                Some((_, owed)) => *owed += pence,
                None => next.club_fines.push((club, pence)),
            }
        }
        Msg::FineReferee { referee, pence } => {
            match next.referees.iter_mut().find(|r| r.name == referee) {
                Some(referee) => referee.fined += pence,
                None => refuse(format!("no referee {referee} on the panel")),
            }
        }
    }
    (next, commands)
}

/// Refuses the message being applied: the dispatcher answers `reason`, and the league is unchanged.
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

fn fixture_mut(league: &mut League, id: u32) -> &mut Fixture {
    match league.fixtures.iter_mut().find(|f| f.id == id) {
        Some(fixture) => fixture,
        None => refuse(format!("no fixture {id}")),
    }
}

fn set_score(fixture: &mut Fixture, home: u32, away: u32) {
    fixture.score = Some(Score { home, away });
}

fn register(league: &mut League, player: String, club: String, shirt: u32) {
    let Some(known) = league.club(&club) else {
        refuse(format!("no club {club}"));
    };
    let club_name = known.name.clone();
    if league.players.iter().any(|p| p.name == player) {
        refuse(format!("{player} is registered already"));
    }
    if let Some(taken) = league
        .players
        .iter()
        .find(|p| p.club == club && p.shirt == shirt)
    {
        refuse(format!("{club_name}'s number {shirt} is {}'s", taken.name));
    }
    league.players.push(super::model::Player {
        name: player,
        club,
        shirt,
        yellows: 0,
        reds: 0,
        ban: 0,
        ban_from: 0,
    });
}

/// A corrected result: the new score, and a fine for the referee who sent in the old one.
fn correct(league: &mut League, id: u32, home: u32, away: u32, slip: Slip) -> Vec<Msg> {
    let fine = league.rules.correction_fine;
    let fixture = fixture_mut(league, id);
    let Some(old) = fixture.score else {
        refuse(format!(
            "fixture {id} has no result yet: enter it with enter_result"
        ));
    };
    if old == (Score { home, away }) {
        return Vec::new();
    }
    if slip == Slip::CorrectionSwapped {
        // BUG(correction_swapped)
        set_score(fixture, away, home);
    } else {
        set_score(fixture, home, away);
    }
    fixture.corrected = true;
    vec![Msg::FineReferee {
        referee: fixture.referee.clone(),
        pence: fine,
    }]
}

/// A card shown to `name` in fixture `id`: it goes on the fixture and the player's record, and its sanction is
/// applied; a sending-off is noted, and the club's fine is sent as a command.
fn show_card(league: &mut League, id: u32, name: &str, card: Card, slip: Slip) -> Vec<Msg> {
    let rules = league.rules.clone();
    let day = league.matchday;
    let Some(club) = league
        .players
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.club.clone())
    else {
        refuse(format!("{name} is not registered"));
    };
    let fixture = fixture_mut(league, id);
    if !fixture.involves(&club) {
        refuse(format!("{name}'s club does not play in fixture {id}"));
    }
    if fixture.matchday > day {
        refuse(format!(
            "fixture {id} is on matchday {}, not played yet",
            fixture.matchday
        ));
    }
    let earlier = fixture
        .bookings
        .iter()
        .filter(|b| b.player == name && b.card == Card::Yellow)
        .count();
    fixture.bookings.push(Booking {
        player: name.to_owned(),
        card,
    });
    let played_on = fixture.matchday;
    let fixture = fixture.clone();
    let title = league.title(&fixture);
    let player = league
        .players
        .iter_mut()
        .find(|p| p.name == name)
        .expect("found above");
    match card {
        Card::Yellow => player.yellows += 1,
        Card::Red => player.reds += 1,
    }
    let sanction: Sanction = if slip == Slip::SecondYellowArm {
        discipline::slipped::sanction(card, earlier, player.yellows, &rules)
    } else {
        discipline::sanction(card, earlier, player.yellows, &rules)
    };
    if sanction.sent_off && card == Card::Yellow {
        // the second yellow is a red
        player.reds += 1;
        player.yellows -= 1;
    }
    if sanction.ban > 0 {
        player.ban += sanction.ban;
        player.ban_from = played_on.max(day) + 1;
    }
    let mut commands = Vec::new();
    if sanction.sent_off {
        league
            .notices
            .push(discipline::sending_off_notice(name, &title, &sanction));
    }
    if sanction.fine > 0 {
        commands.push(Msg::FineClub {
            club,
            pence: sanction.fine,
        });
    }
    commands
}

/// Closes the open matchday: the referees of the matches played are paid (commands), a player banned serves a
/// match when his club played, a match not played is noted as postponed, and the next matchday opens.
fn close_matchday(league: &mut League, slip: Slip) -> Vec<Msg> {
    let day = league.matchday;
    let mut commands = Vec::new();
    let mut played: Vec<String> = Vec::new();
    let mut postponed = Vec::new();
    for fixture in league.fixtures.iter().filter(|f| f.matchday == day) {
        if fixture.score.is_some() {
            played.push(fixture.home.clone());
            played.push(fixture.away.clone());
            commands.push(Msg::PayReferee {
                fixture: fixture.id,
            });
        } else {
            postponed.push(league.title(fixture));
        }
    }
    for title in postponed {
        league
            .notices
            .push(format!("matchday {day}: {title} postponed"));
    }
    for player in &mut league.players {
        let serves = if slip == Slip::BanServedPostponed {
            // BUG(ban_served_postponed)
            player.suspended_on(day)
        } else {
            player.suspended_on(day) && played.contains(&player.club)
        };
        if serves {
            player.ban -= 1;
        }
    }
    league.matchday += 1;
    commands
}
