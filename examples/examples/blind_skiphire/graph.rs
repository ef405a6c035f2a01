//! The app an agent sees, and the builder that wires the yard's graph.

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::accounts::{self, CreditLine};
use super::charges;
use super::model::{self, Hire, Msg, Yard};
use super::rounds::{self, RoundPlan};
use super::services;
use super::skips::{self, Skips};
use super::update;

/// Which mistake the app is built with (`None`: the correct app).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slip {
    None,
    WeighGross,
    CouncilEarlyReturn,
    RowPermitField,
    UnroundedInverted,
    PostOverwrites,
    CollectArgsSwapped,
    OverweightUnit,
    PermitWeeksFloor,
    RoundCapOffByOne,
    CreditWrongField,
    OpenTodayExcluded,
    DefaultLimit,
}

/// The skip hire firm.
#[expose]
pub struct SkipApp {
    /// The yard, and the office's messages.
    #[expose(messages, value)]
    pub yard: Mvu<Yard, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub day: Memo<u32>,
    /// The skips out, each with its running charge.
    #[expose]
    pub skips: Skips,
    /// How many skips stand on the road.
    #[expose]
    #[node]
    pub on_road: Memo<usize>,
    /// How many skips no round lifts yet.
    #[expose]
    #[node]
    pub unrounded: Memo<usize>,
    /// The tickets, longest out first.
    #[expose]
    #[node]
    pub longest_out: Memo<Vec<String>>,
    /// Today's rounds.
    #[expose]
    #[node]
    pub round_plan: Memo<RoundPlan>,
    /// The accounts' standing.
    #[expose]
    #[node]
    pub credit: Memo<Vec<CreditLine>>,
    /// Today's overweight charges.
    #[expose]
    #[node]
    pub overweight: Memo<Vec<(String, u64)>>,
    /// The permit weeks the skips on the road need.
    #[expose]
    #[node]
    pub permit_weeks: Memo<u32>,
    /// The weighbridge's net load of the last skip collected, in tenths of a tonne.
    #[expose]
    #[node]
    pub weighed: AsyncMemo<u32>,
    /// The council's permit fees for the skips on the road.
    #[expose]
    #[node]
    pub permit_fees: AsyncMemo<u64>,
}

/// Builds the yard's graph, with the mistake `slip` (or none).
#[node]
pub fn skip_app(slip: Slip) -> SkipApp {
    let init = if slip == Slip::DefaultLimit {
        model::slipped::default_yard()
    } else {
        Yard::default()
    };
    let collect: update::Collector = if slip == Slip::CollectArgsSwapped {
        update::slipped::collect
    } else {
        update::collect
    };
    let post: update::Poster = if slip == Slip::PostOverwrites {
        update::slipped::post
    } else {
        update::post
    };
    let yard = Mvu::with_commands((init, Vec::new()), move |msg, yard: &Yard| {
        update::update_with(msg, yard, collect, post)
    });
    let day = yard.select(|yard| yard.day);
    let open_hires: fn(&Yard) -> Vec<Hire> = if slip == Slip::OpenTodayExcluded {
        model::slipped::open_hires
    } else {
        Yard::open_hires
    };
    let open = yard.select(open_hires);

    let charge: fn(&Hire, u32) -> u64 = if slip == Slip::RowPermitField {
        skips::slipped::running_charge
    } else {
        skips::running_charge
    };
    let skips = skips::skips(&open, &day, charge);
    let on_road = skips.filter(skips::stands_on_road).count();
    let needs_round: fn(&Hire) -> bool = if slip == Slip::UnroundedInverted {
        skips::slipped::needs_round
    } else {
        skips::needs_round
    };
    let unrounded = skips.count_by(needs_round);
    let longest_out = skips::longest_out(&skips);

    let plan: fn(&[Hire]) -> RoundPlan = if slip == Slip::RoundCapOffByOne {
        rounds::slipped::round_plan
    } else {
        rounds::round_plan
    };
    let round_plan = Memo::new({
        let open = open.clone();
        move |_| open.with(|open| plan(open))
    });
    let credit_lines: fn(&Yard) -> Vec<CreditLine> = if slip == Slip::CreditWrongField {
        accounts::slipped::credit_lines
    } else {
        accounts::credit_lines
    };
    let credit = yard.select(credit_lines);
    let overweight_rule: fn(model::Size, u32) -> u64 = if slip == Slip::OverweightUnit {
        charges::slipped::overweight_cents
    } else {
        charges::overweight_cents
    };
    let overweight = yard.select(move |yard| accounts::overweight_today(yard, overweight_rule));

    let road = Memo::new({
        let (open, day) = (open.clone(), day.clone());
        move |_| {
            let today = day.get();
            open.with(|open| {
                open.iter()
                    .filter(|hire| hire.on_road)
                    .map(|hire| {
                        (
                            hire.id.clone(),
                            charges::days_on_hire(hire.placed_on, today),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        }
    });
    let weeks: fn(u32) -> u32 = if slip == Slip::PermitWeeksFloor {
        charges::slipped::permit_weeks
    } else {
        charges::permit_weeks
    };
    let permit_weeks = Memo::new({
        let road = road.clone();
        move |_| road.with(|road| road.iter().map(|(_, days)| weeks(*days)).sum::<u32>())
    });

    let lifted = yard.select(|yard| {
        yard.hires
            .iter()
            .filter(|hire| hire.collected_on.is_some())
            .max_by_key(|hire| hire.collected_on)
            .map(|hire| (hire.size, hire.tenths))
    });
    let weighed = AsyncMemo::new({
        let lifted = lifted.clone();
        move |_| {
            let lifted = lifted.get();
            async move {
                if slip == Slip::WeighGross {
                    services::slipped::weighed(lifted).await
                } else {
                    services::weighed(lifted).await
                }
            }
        }
    });
    let permit_fees = AsyncMemo::try_new({
        let road = road.clone();
        move |_| {
            let road = road.get();
            async move {
                if slip == Slip::CouncilEarlyReturn {
                    services::slipped::permit_fees(road).await
                } else {
                    services::permit_fees(road).await
                }
            }
        }
    });

    SkipApp {
        yard,
        day,
        skips,
        on_road,
        unrounded,
        longest_out,
        round_plan,
        credit,
        overweight,
        permit_weeks,
        weighed,
        permit_fees,
    }
}
