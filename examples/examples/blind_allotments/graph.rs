//! The allotment society as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the secretary's
//! `Mvu` with the members and the plots put in the books as initial commands, the secretary's lists (the waiting list,
//! the shed's overdue tools, the show's results), the plot list and the services.

use std::collections::BTreeMap;

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::fees;
use super::model::{Msg, Society, date, money};
use super::plots::{self, PlotRow};
use super::services;
use super::update;

/// Which mistake the society runs with (`None`: the correct society).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct society.
    None,
    /// How long a notice to quit runs.
    NoticePeriod,
    /// The rent for the rest of the year.
    RentMonths,
    /// A plot given up.
    GiveUpNoLet,
    /// Who is first on the waiting list.
    WaitingOrder,
    /// What an inspection does to the warnings.
    FairWarning,
    /// The fine for a late tool.
    FineCap,
    /// The shed's overdue tools.
    OverdueDays,
    /// The show's winners.
    ShowWinner,
    /// The rent at the concession rate.
    ConcessionRent,
    /// The vacant plots.
    VacantFilter,
    /// The water rota.
    RainUnit,
    /// Who is behind with payments.
    ArrearsSwapped,
}

/// What an agent may see and send.
#[expose]
pub struct Allotments {
    /// The secretary: the messages.
    #[expose(messages)]
    pub society: Mvu<Society, Msg>,
    /// The society's calendar.
    #[expose]
    pub today: Memo<String>,
    /// The waiting list, first in line first.
    #[expose]
    #[node]
    pub waiting_list: Memo<Vec<String>>,
    /// Pence charged, all members.
    #[expose]
    #[node]
    pub income: Memo<i64>,
    /// The secretary's letters.
    #[expose]
    #[node]
    pub letters: Memo<Vec<String>>,
    /// The tools out of the shed: when each is due back, or how late it is and its fine so far.
    #[expose]
    #[node]
    pub tools_out: Memo<Vec<String>>,
    /// The produce show: each class's leader.
    #[expose]
    #[node]
    pub show_results: Memo<Vec<String>>,
    /// The plots, one row each.
    #[expose]
    #[node]
    pub plots: Collection<u32, PlotRow, Memo<i64>>,
    /// How many plots are under notice to quit.
    #[expose]
    #[node]
    pub under_notice: Memo<usize>,
    /// The vacant plots.
    #[expose]
    #[node]
    pub vacant: Memo<Vec<String>>,
    /// Every plot, largest first.
    #[expose]
    #[node]
    pub plot_list: Memo<Vec<String>>,
    /// Who waters the communal beds on the coming week's dry days (from the rainfall forecast).
    #[expose]
    #[node]
    pub water_rota: AsyncMemo<Vec<String>>,
    /// Who is behind with payments (from the bank's feed).
    #[expose]
    #[node]
    pub arrears: AsyncMemo<Vec<String>>,
}

/// The members when the books open: name, concession.
pub const MEMBERS: [(&str, bool); 4] =
    [("Ana", false), ("Ben", false), ("Cy", true), ("Dee", false)];

/// The plots when the books open: number, size in square metres, tenant.
pub const PLOTS: [(u32, u32, Option<&str>); 6] = [
    (1, 250, Some("Ana")),
    (2, 125, Some("Ben")),
    (3, 250, None),
    (4, 60, Some("Cy")),
    (5, 125, Some("Dee")),
    (6, 60, None),
];

/// Builds the society as `slip` says: it puts the members and the plots in the books (initial commands), then its
/// memos.
#[node]
pub fn allotments(slip: Slip) -> Allotments {
    let update = match slip {
        Slip::RentMonths => update::slipped::update_let,
        Slip::WaitingOrder => update::slipped::update_next,
        Slip::GiveUpNoLet => update::slipped::update_give_up,
        Slip::FairWarning => update::slipped::update_inspect,
        Slip::FineCap => update::slipped::update_return,
        _ => update::update,
    };
    let model = match slip {
        Slip::NoticePeriod => Society {
            rates: super::model::slipped::RuleBook::default().0,
            ..Society::default()
        },
        _ => Society::default(),
    };
    let mut open: Vec<Msg> = MEMBERS
        .iter()
        .map(|&(name, concession)| Msg::Join {
            member: name.to_owned(),
            concession,
        })
        .collect();
    open.extend(PLOTS.iter().map(|&(id, size, tenant)| Msg::AddPlot {
        id,
        size,
        tenant: tenant.map(str::to_owned),
    }));
    let society = Mvu::with_commands((model, open), update);
    let today = society.select(|society| date(society.today));
    let waiting_list = waiting_list(&society);
    let income = society.select(|society| society.ledger.iter().map(|p| p.pence).sum::<i64>());
    let letters = society.select(|society| society.letters.clone());
    let tools_out = match slip {
        Slip::OverdueDays => slipped::tools_out(&society),
        _ => tools_out(&society),
    };
    let show_results = match slip {
        Slip::ShowWinner => slipped::show_results(&society),
        _ => show_results(&society),
    };
    let site = plots::plots(&society, slip);
    let remote = services::services(&society, slip);
    Allotments {
        society,
        today,
        waiting_list,
        income,
        letters,
        tools_out,
        show_results,
        plots: site.plots,
        under_notice: site.under_notice,
        vacant: site.vacant,
        plot_list: site.plot_list,
        water_rota: remote.water_rota,
        arrears: remote.arrears,
    }
}

/// The waiting list, first in line first (by the day applied, then the number): place, name and the day applied.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn waiting_list(society: &Mvu<Society, Msg>) -> Memo<Vec<String>> {
    let waiting = society.select(|society| society.waiting.clone());
    let waiting_list = Memo::new(move |_| {
        let mut waiting = waiting.get();
        waiting.sort_by_key(|a| (a.applied, a.number));
        waiting
            .iter()
            .enumerate()
            .map(|(at, a)| format!("{}. {}, applied {}", at + 1, a.name, date(a.applied)))
            .collect::<Vec<_>>()
    });
    waiting_list
}

/// The tools out of the shed, by tool: who has each and when it is due back, or, once it is late, how many days and
/// the fine so far.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn tools_out(society: &Mvu<Society, Msg>) -> Memo<Vec<String>> {
    let today = society.select(|society| society.today);
    let loans = society.select(|society| society.loans.clone());
    let per_day = society.select(|society| society.rates.fine_per_day);
    let tools_out = Memo::new(move |_| {
        let today = today.get();
        let loans = loans.get();
        let per_day = per_day.get();
        let mut out: BTreeMap<&str, String> = BTreeMap::new();
        for loan in loans.iter() {
            if loan.returned {
                continue;
            }
            let line = if loan.due >= today {
                format!(
                    "{} ({}): due back {}",
                    loan.tool,
                    loan.member,
                    date(loan.due)
                )
            } else {
                let over = today - loan.due;
                let fine = fees::late_fine(over, per_day);
                format!(
                    "{} ({}): {over} days late, {} so far",
                    loan.tool,
                    loan.member,
                    money(fine)
                )
            };
            out.insert(loan.tool.as_str(), line);
        }
        out.into_values().collect::<Vec<_>>()
    });
    tools_out
}

/// The produce show: each class with judged entries, its number of entries and the entry with the most points (on
/// a tie, the one entered first).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn show_results(society: &Mvu<Society, Msg>) -> Memo<Vec<String>> {
    let entries = society.select(|society| society.entries.clone());
    let show_results = Memo::new(move |_| {
        let entries = entries.get();
        let mut entered: BTreeMap<&str, usize> = BTreeMap::new();
        let mut leaders: BTreeMap<&str, (u32, &str)> = BTreeMap::new();
        for entry in entries.iter() {
            *entered.entry(entry.class.as_str()).or_default() += 1;
            if entry.points.is_empty() {
                continue;
            }
            let total: u32 = entry.points.iter().sum();
            match leaders.get(entry.class.as_str()) {
                Some(&(top, _)) if top >= total => {}
                _ => {
                    leaders.insert(entry.class.as_str(), (total, entry.member.as_str()));
                }
            }
        }
        leaders
            .into_iter()
            .map(|(class, (points, member))| {
                let count = entered.get(class).copied().unwrap_or(0);
                let entries = if count == 1 { "entry" } else { "entries" };
                format!("{class} ({count} {entries}): {member}, {points} points")
            })
            .collect::<Vec<_>>()
    });
    show_results
}

/// The secretary's lists with a mistake.
mod slipped {
    use std::collections::BTreeMap;

    use ranvier::{Memo, Mvu, node};

    use super::super::fees;
    use super::super::model::{Msg, Society, date, money};

    /// The tools out of the shed.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn tools_out(society: &Mvu<Society, Msg>) -> Memo<Vec<String>> {
        let today = society.select(|society| society.today);
        let loans = society.select(|society| society.loans.clone());
        let per_day = society.select(|society| society.rates.fine_per_day);
        let tools_out = Memo::new(move |_| {
            let today = today.get();
            let loans = loans.get();
            let per_day = per_day.get();
            let mut out: BTreeMap<&str, String> = BTreeMap::new();
            for loan in loans.iter() {
                if loan.returned {
                    continue;
                }
                let line = if loan.due >= today {
                    format!(
                        "{} ({}): due back {}",
                        loan.tool,
                        loan.member,
                        date(loan.due)
                    )
                } else {
                    // BUG(overdue_days)
                    let over = today - loan.out;
                    let fine = fees::late_fine(over, per_day);
                    format!(
                        "{} ({}): {over} days late, {} so far",
                        loan.tool,
                        loan.member,
                        money(fine)
                    )
                };
                out.insert(loan.tool.as_str(), line);
            }
            out.into_values().collect::<Vec<_>>()
        });
        tools_out
    }

    /// The produce show's leaders.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn show_results(society: &Mvu<Society, Msg>) -> Memo<Vec<String>> {
        let entries = society.select(|society| society.entries.clone());
        let show_results = Memo::new(move |_| {
            let entries = entries.get();
            let mut entered: BTreeMap<&str, usize> = BTreeMap::new();
            let mut leaders: BTreeMap<&str, (u32, &str)> = BTreeMap::new();
            for entry in entries.iter() {
                *entered.entry(entry.class.as_str()).or_default() += 1;
                if entry.points.is_empty() {
                    continue;
                }
                let total: u32 = entry.points.iter().sum();
                match leaders.get(entry.class.as_str()) {
                    // BUG(show_winner)
                    Some(&(top, _)) if top <= total => {}
                    _ => {
                        leaders.insert(entry.class.as_str(), (total, entry.member.as_str()));
                    }
                }
            }
            leaders
                .into_iter()
                .map(|(class, (points, member))| {
                    let count = entered.get(class).copied().unwrap_or(0);
                    let entries = if count == 1 { "entry" } else { "entries" };
                    format!("{class} ({count} {entries}): {member}, {points} points")
                })
                .collect::<Vec<_>>()
        });
        show_results
    }
}
