//! Disciplinary rules: what a card costs a player and his club.

use super::model::{Card, Pence, Rules};

/// What a card brings with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sanction {
    /// Matches to miss.
    pub ban: u32,
    /// The club's fine, in pence.
    pub fine: Pence,
    /// Whether the player had to leave the field.
    pub sent_off: bool,
}

impl Sanction {
    fn straight_red(rules: &Rules) -> Self {
        Sanction {
            ban: rules.red_ban,
            fine: rules.red_fine,
            sent_off: true,
        }
    }

    fn second_yellow(rules: &Rules) -> Self {
        Sanction {
            ban: rules.second_yellow_ban,
            fine: rules.second_yellow_fine,
            sent_off: true,
        }
    }

    fn one_match() -> Self {
        Sanction {
            ban: 1,
            ..Sanction::default()
        }
    }
}

/// The sanction for `card`, given the yellows the player was already shown in this match (`earlier`) and his
/// yellows this season, this card included (`season_yellows`).
pub fn sanction(card: Card, earlier: usize, season_yellows: u32, rules: &Rules) -> Sanction {
    match card {
        Card::Red => Sanction::straight_red(rules),
        Card::Yellow if earlier > 0 => Sanction::second_yellow(rules),
        Card::Yellow if season_yellows.is_multiple_of(rules.yellow_limit) => Sanction::one_match(),
        Card::Yellow => Sanction::default(),
    }
}

/// The rules as first written, with a mistake, for the blind test.
pub mod slipped {
    use super::{Card, Rules, Sanction};

    /// [`super::sanction`], with a mistake.
    pub fn sanction(card: Card, earlier: usize, season_yellows: u32, rules: &Rules) -> Sanction {
        match card {
            Card::Red => Sanction::straight_red(rules),
            // BUG(second_yellow_arm)
            Card::Yellow if earlier > 0 => Sanction::straight_red(rules),
            Card::Yellow if season_yellows.is_multiple_of(rules.yellow_limit) => {
                Sanction::one_match()
            }
            Card::Yellow => Sanction::default(),
        }
    }
}

/// The line the secretary is told when a player is sent off.
pub fn sending_off_notice(player: &str, title: &str, sanction: &Sanction) -> String {
    let matches = if sanction.ban == 1 {
        "match"
    } else {
        "matches"
    };
    format!(
        "{player} sent off in {title}: misses {} {matches}",
        sanction.ban
    )
}
