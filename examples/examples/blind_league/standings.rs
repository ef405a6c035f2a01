//! The league table's rules: a club's record, and the order of the table (points, goal difference, goals scored,
//! then the matches between the clubs level on all three).

use super::model::{Fixture, Rules};
use std::cmp::Ordering;

/// A club's record over the matches played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// The club's code.
    pub code: String,
    /// The club's name.
    pub name: String,
    /// Matches played.
    pub played: u32,
    /// Won.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
    /// Goals scored.
    pub scored: u32,
    /// Goals conceded.
    pub conceded: u32,
    /// Points.
    pub points: u32,
}

/// How a match went for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Outcome {
    /// The outcome for the side that scored `scored` and conceded `conceded`.
    pub fn of(scored: u32, conceded: u32) -> Self {
        match scored.cmp(&conceded) {
            Ordering::Greater => Outcome::Win,
            Ordering::Equal => Outcome::Draw,
            Ordering::Less => Outcome::Loss,
        }
    }

    /// The points it earns under `rules`.
    pub fn points(self, rules: &Rules) -> u32 {
        match self {
            Outcome::Win => rules.win,
            Outcome::Draw => rules.draw,
            Outcome::Loss => 0,
        }
    }
}

impl Record {
    /// A club that has played nothing yet.
    pub fn new(code: &str, name: &str) -> Self {
        Record {
            code: code.to_owned(),
            name: name.to_owned(),
            ..Record::default()
        }
    }

    /// Adds a match in which the club scored `scored` and conceded `conceded`.
    pub fn add(&mut self, scored: u32, conceded: u32, rules: &Rules) {
        let outcome = Outcome::of(scored, conceded);
        self.played += 1;
        self.scored += scored;
        self.conceded += conceded;
        self.points += outcome.points(rules);
        match outcome {
            Outcome::Win => self.won += 1,
            Outcome::Draw => self.drawn += 1,
            Outcome::Loss => self.lost += 1,
        }
    }

    /// Goals scored less goals conceded.
    pub fn goal_difference(&self) -> i64 {
        i64::from(self.scored) - i64::from(self.conceded)
    }

    /// The table's line for the club in `place`: `1. Rovers P1 W1 D0 L0 GF2 GA0 GD+2 Pts3`.
    pub fn line(&self, place: usize) -> String {
        format!(
            "{place}. {} P{} W{} D{} L{} GF{} GA{} GD{:+} Pts{}",
            self.name,
            self.played,
            self.won,
            self.drawn,
            self.lost,
            self.scored,
            self.conceded,
            self.goal_difference(),
            self.points
        )
    }
}

/// The order of two clubs in the table: more points first, then the better goal difference, then more goals scored,
/// then the points won in the matches between them (`played`), then by name.
pub fn compare(a: &Record, b: &Record, played: &[Fixture], rules: &Rules) -> Ordering {
    b.points
        .cmp(&a.points)
        .then_with(|| b.goal_difference().cmp(&a.goal_difference()))
        .then_with(|| b.scored.cmp(&a.scored))
        .then_with(|| head_to_head(a, b, played, rules))
        .then_with(|| a.name.cmp(&b.name))
}

/// The order of `a` and `b` by the points each won in the matches between them.
fn head_to_head(a: &Record, b: &Record, played: &[Fixture], rules: &Rules) -> Ordering {
    let (mut a_points, mut b_points) = (0, 0);
    let between = played
        .iter()
        .filter(|f| f.involves(&a.code) && f.involves(&b.code));
    for fixture in between {
        let Some(score) = fixture.score else {
            continue;
        };
        let (a_goals, b_goals) = if fixture.home == a.code {
            (score.home, score.away)
        } else {
            (score.away, score.home)
        };
        a_points += Outcome::of(a_goals, b_goals).points(rules);
        b_points += Outcome::of(b_goals, a_goals).points(rules);
    }
    b_points.cmp(&a_points)
}

/// The order of the table as first written, with a mistake, for the blind test.
pub mod slipped {
    use super::{Fixture, Ordering, Record, Rules, head_to_head};

    /// [`super::compare`], with a mistake.
    pub fn compare(a: &Record, b: &Record, played: &[Fixture], rules: &Rules) -> Ordering {
        b.points
            .cmp(&a.points)
            // BUG(table_goal_difference)
            .then_with(|| b.scored.cmp(&a.scored))
            .then_with(|| b.scored.cmp(&a.scored))
            .then_with(|| head_to_head(a, b, played, rules))
            .then_with(|| a.name.cmp(&b.name))
    }
}
