//! The league's types: clubs, players, fixtures and referees, the rules of the competition, and the messages the
//! league secretary sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Money, in pence.
pub type Pence = i64;

/// Formats pence as pounds: `1500` is `15.00`.
pub fn pounds(pence: Pence) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    let pence = pence.abs();
    format!("{sign}{}.{:02}", pence / 100, pence % 100)
}

/// A club of the league.
#[derive(Clone, Debug, PartialEq)]
pub struct Club {
    /// Three letters, as the fixture list writes it (`ROV`).
    pub code: String,
    /// Its name.
    pub name: String,
    /// The ground it plays its home matches on.
    pub ground: String,
}

impl Club {
    fn new(code: &str, name: &str, ground: &str) -> Self {
        Club {
            code: code.to_owned(),
            name: name.to_owned(),
            ground: ground.to_owned(),
        }
    }
}

/// A registered player (a row of the squad register: `{"key": name, "club", "shirt", ...}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Player {
    /// The player's name (the row's key).
    #[serde(skip)]
    pub name: String,
    /// The code of the club he is registered with.
    pub club: String,
    /// His shirt number.
    pub shirt: u32,
    /// Yellow cards this season.
    pub yellows: u32,
    /// Red cards this season (a second yellow counts as a red).
    pub reds: u32,
    /// Matches still to miss.
    pub ban: u32,
    /// The first matchday the ban applies to (the matchday after the card).
    pub ban_from: u32,
}

/// Disciplinary points: a yellow card is 1, a red card 3.
pub const YELLOW_POINTS: u32 = 1;
/// See [`YELLOW_POINTS`].
pub const RED_POINTS: u32 = 3;

impl Player {
    /// The player's disciplinary points.
    pub fn discipline_points(&self) -> u32 {
        self.yellows * YELLOW_POINTS + self.reds * RED_POINTS
    }

    /// Every card he was shown.
    pub fn cards(&self) -> u32 {
        self.yellows + self.reds
    }

    /// Whether he may not play on `matchday`.
    pub fn suspended_on(&self, matchday: u32) -> bool {
        self.ban > 0 && self.ban_from <= matchday
    }
}

/// A final score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Goals of the home club.
    pub home: u32,
    /// Goals of the away club.
    pub away: u32,
}

/// A card shown by the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// A caution.
    Yellow,
    /// A sending-off.
    Red,
}

/// A card shown in a fixture.
#[derive(Clone, Debug, PartialEq)]
pub struct Booking {
    /// Who was shown it.
    pub player: String,
    /// Which card.
    pub card: Card,
}

/// A match of the fixture list.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// Its number in the fixture list.
    pub id: u32,
    /// The matchday it is played on.
    pub matchday: u32,
    /// The home club's code.
    pub home: String,
    /// The away club's code.
    pub away: String,
    /// The referee appointed.
    pub referee: String,
    /// The result, once entered.
    pub score: Option<Score>,
    /// Whether the result was corrected after it was entered.
    pub corrected: bool,
    /// The cards shown, in order.
    pub bookings: Vec<Booking>,
}

/// Two fixtures are the same when their number, teams, referee, result and cards are; whether the result was
/// corrected is the secretary's note and changes nothing in the league.
impl PartialEq for Fixture {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.matchday == other.matchday
            && self.home == other.home
            && self.away == other.away
            && self.referee == other.referee
            && self.score == other.score
            && self.bookings == other.bookings
    }
}

impl Fixture {
    fn new(id: u32, matchday: u32, home: &str, away: &str, referee: &str) -> Self {
        Fixture {
            id,
            matchday,
            home: home.to_owned(),
            away: away.to_owned(),
            referee: referee.to_owned(),
            score: None,
            corrected: false,
            bookings: Vec::new(),
        }
    }

    /// Whether `club` plays in it.
    pub fn involves(&self, club: &str) -> bool {
        self.home == club || self.away == club
    }
}

/// A referee on the league's panel, and what the league paid and fined them.
#[derive(Clone, Debug, PartialEq)]
pub struct Referee {
    /// Their name.
    pub name: String,
    /// Match fees paid, in pence.
    pub paid: Pence,
    /// Fines, in pence (taken off the next payment).
    pub fined: Pence,
}

/// The rules of the competition.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// Points for a win.
    pub win: u32,
    /// Points for a draw.
    pub draw: u32,
    /// Every this many yellow cards, a player misses a match.
    pub yellow_limit: u32,
    /// Matches missed for a straight red card.
    pub red_ban: u32,
    /// Matches missed for a second yellow in one match.
    pub second_yellow_ban: u32,
    /// What a club is fined when one of its players is shown a straight red, in pence.
    pub red_fine: Pence,
    /// What a club is fined for a sending-off by a second yellow, in pence.
    pub second_yellow_fine: Pence,
    /// A referee's fee for a match, in pence.
    pub referee_fee: Pence,
    /// What a referee is fined when the result they sent in has to be corrected, in pence.
    pub correction_fine: Pence,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            win: 3,
            draw: 1,
            yellow_limit: 3,
            red_ban: 2,
            second_yellow_ban: 1,
            red_fine: 1_500,
            second_yellow_fine: 1_000,
            referee_fee: 3_000,
            correction_fine: 500,
        }
    }
}

/// The league's season: its clubs, the registered players, the fixture list, the referees and the fines.
#[derive(Clone, Debug, PartialEq)]
pub struct League {
    /// The clubs, in the order they joined.
    pub clubs: Vec<Club>,
    /// The registered players, in the order registered.
    pub players: Vec<Player>,
    /// The fixture list.
    pub fixtures: Vec<Fixture>,
    /// The referees' panel.
    pub referees: Vec<Referee>,
    /// Fines owed by clubs: (club code, pence), in the order first fined.
    pub club_fines: Vec<(String, Pence)>,
    /// The matchday open for results (from 1).
    pub matchday: u32,
    /// What the secretary was told.
    pub notices: Vec<String>,
    /// The competition's rules.
    pub rules: Rules,
}

impl League {
    /// The season before its squads are registered: four clubs, each meeting each other once over three
    /// matchdays, then the return matches of the first round on a fourth, and three referees.
    pub fn season(rules: Rules) -> Self {
        let clubs = vec![
            Club::new("ROV", "Rovers", "Mill Lane"),
            Club::new("ATH", "Athletic", "Station Park"),
            Club::new("WAN", "Wanderers", "Heath Road"),
            Club::new("UTD", "United", "Canal Side"),
        ];
        let fixtures = vec![
            Fixture::new(1, 1, "ROV", "ATH", "Ives"),
            Fixture::new(2, 1, "WAN", "UTD", "Okafor"),
            Fixture::new(3, 2, "ATH", "WAN", "Marsh"),
            Fixture::new(4, 2, "UTD", "ROV", "Ives"),
            Fixture::new(5, 3, "ROV", "WAN", "Okafor"),
            Fixture::new(6, 3, "ATH", "UTD", "Marsh"),
            Fixture::new(7, 4, "ATH", "ROV", "Okafor"),
            Fixture::new(8, 4, "UTD", "WAN", "Ives"),
        ];
        let referees = ["Ives", "Okafor", "Marsh"]
            .into_iter()
            .map(|name| Referee {
                name: name.to_owned(),
                paid: 0,
                fined: 0,
            })
            .collect();
        League {
            clubs,
            players: Vec::new(),
            fixtures,
            referees,
            club_fines: Vec::new(),
            matchday: 1,
            notices: Vec::new(),
            rules,
        }
    }

    /// The club of `code`.
    pub fn club(&self, code: &str) -> Option<&Club> {
        self.clubs.iter().find(|club| club.code == code)
    }

    /// The name of the club of `code` (the code itself for a club the league does not know).
    pub fn club_name(&self, code: &str) -> String {
        self.club(code)
            .map_or_else(|| code.to_owned(), |club| club.name.clone())
    }

    /// "Rovers v Athletic".
    pub fn title(&self, fixture: &Fixture) -> String {
        format!(
            "{} v {}",
            self.club_name(&fixture.home),
            self.club_name(&fixture.away)
        )
    }
}

/// What the league secretary sends.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Registers `player` with the club of code `club`, wearing `shirt`.
    Register {
        /// The player's name.
        player: String,
        /// The club's code (`ROV`, `ATH`, `WAN`, `UTD`).
        club: String,
        /// The shirt number.
        #[message(range(min = 1, max = 99))]
        shirt: u32,
    },
    /// Enters the result of `fixture`.
    EnterResult {
        /// The fixture's number.
        fixture: u32,
        /// Goals of the home club.
        home: u32,
        /// Goals of the away club.
        away: u32,
    },
    /// Corrects the result entered for `fixture`; the referee who sent in the wrong one is fined.
    CorrectResult {
        /// The fixture's number.
        fixture: u32,
        /// Goals of the home club.
        home: u32,
        /// Goals of the away club.
        away: u32,
    },
    /// `player` was cautioned (a yellow card) in `fixture`.
    Caution {
        /// The fixture's number.
        fixture: u32,
        /// The player.
        player: String,
    },
    /// `player` was sent off (a straight red card) in `fixture`.
    SendOff {
        /// The fixture's number.
        fixture: u32,
        /// The player.
        player: String,
    },
    /// Closes the open matchday: referees of the matches played are paid, bans are served, and the next matchday
    /// opens.
    CloseMatchday,
    /// Pays the referee of `fixture` their match fee (sent by `close_matchday`).
    PayReferee {
        /// The fixture's number.
        fixture: u32,
    },
    /// Fines the club of code `club` `pence` (sent when one of its players is sent off).
    FineClub {
        /// The club's code.
        club: String,
        /// The fine, in pence.
        pence: i64,
    },
    /// Fines `referee` `pence` (sent when a result is corrected).
    FineReferee {
        /// The referee.
        referee: String,
        /// The fine, in pence.
        pence: i64,
    },
}

/// The rules as they were first typed in, with a mistake, for the blind test.
pub mod slipped {
    use super::Rules;

    /// The rules, one of them mistyped.
    pub fn rules() -> Rules {
        Rules {
            win: 3,
            draw: 1,
            yellow_limit: 3,
            red_ban: 2,
            second_yellow_ban: 1,
            red_fine: 1_500,
            second_yellow_fine: 1_000,
            referee_fee: 3_000,
            // BUG(correction_fine_unit)
            correction_fine: 5,
        }
    }
}
