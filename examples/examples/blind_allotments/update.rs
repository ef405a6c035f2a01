//! The society's `update`: what each message does to the society, and the rent, fines, lettings and letters it sends
//! on (as commands).

use super::fees;
use super::model::{
    Application, Entry, Grade, Loan, Member, Msg, Plot, Posting, Society, date, money, month_of,
};
use super::rules;

/// Who is first on the waiting list (see [`rules::next_applicant`]).
pub type NextApplicant = fn(&[Application]) -> Option<u32>;

/// A tenant's warnings after an inspection (see [`rules::warnings_after`]).
pub type WarningsAfter = fn(Grade, u32) -> u32;

/// The fine for a tool brought back late (see [`fees::late_fine`]).
pub type LateFine = fn(u32, i64) -> i64;

/// Who the secretary writes to about the site itself.
pub const COMMITTEE: &str = "the committee";

/// The next society, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, society: &Society) -> (Society, Vec<Msg>) {
    let mut next = society.clone();
    let commands = match msg {
        Msg::AddPlot { id, size, tenant } => add_plot(&mut next, id, size, tenant),
        Msg::Join { member, concession } => join(&mut next, member, concession),
        Msg::Apply { member } => apply(&mut next, &member),
        Msg::Let { plot } => let_plot(&mut next, plot, rules::next_applicant),
        Msg::GiveUp { plot } => give_up(&mut next, plot),
        Msg::Inspect { plot, grade } => inspect(&mut next, plot, &grade, rules::warnings_after),
        Msg::Borrow { member, tool } => borrow(&mut next, &member, &tool),
        Msg::Return { member, tool } => return_tool(&mut next, &member, &tool, fees::late_fine),
        Msg::Enter { member, class } => enter(&mut next, &member, &class),
        Msg::Judge { entry, points } => judge(&mut next, entry, points),
        Msg::Advance { days } => advance(&mut next, days),
        Msg::Post {
            member,
            what,
            pence,
        } => {
            next.ledger.push(Posting {
                member,
                what,
                pence,
            });
            Vec::new()
        }
        Msg::Letter { to, text } => {
            next.letters.push(format!("To {to}: {text}"));
            Vec::new()
        }
    };
    (next, commands)
}

/// One letter, as the only command.
#[ranvier::trace_fn]
pub fn letter(to: &str, text: String) -> Vec<Msg> {
    vec![Msg::Letter {
        to: to.to_owned(),
        text,
    }]
}

/// A plot goes in the books (once per number).
#[ranvier::trace_fn]
pub fn add_plot(society: &mut Society, id: u32, size: u32, tenant: Option<String>) -> Vec<Msg> {
    if society.plot(id).is_some() {
        return letter(COMMITTEE, format!("plot {id} is already in the books"));
    }
    society.plots.push(Plot {
        id,
        size,
        tenant,
        warnings: 0,
        notice_until: None,
    });
    Vec::new()
}

/// Someone joins the society.
#[ranvier::trace_fn]
pub fn join(society: &mut Society, name: String, concession: bool) -> Vec<Msg> {
    if society.member(&name).is_some() {
        return letter(&name, "you are already a member".to_owned());
    }
    society.members.push(Member {
        name: name.clone(),
        concession,
    });
    letter(&name, "welcome to the society".to_owned())
}

/// A member goes on the waiting list (once).
#[ranvier::trace_fn]
pub fn apply(society: &mut Society, name: &str) -> Vec<Msg> {
    if society.member(name).is_none() {
        return letter(name, "please join the society first".to_owned());
    }
    if society.waiting.iter().any(|a| a.name == name) {
        return letter(name, "you are already on the waiting list".to_owned());
    }
    let number = society.next_application;
    society.next_application += 1;
    society.waiting.push(Application {
        number,
        name: name.to_owned(),
        applied: society.today,
    });
    letter(
        name,
        format!(
            "you are number {} on the waiting list",
            society.waiting.len()
        ),
    )
}

/// A vacant plot goes to the applicant `next` chooses: they leave the waiting list, and are charged the rent for the
/// rest of the year, the month they start in included (commands).
#[ranvier::trace_fn]
pub fn let_plot(society: &mut Society, id: u32, next: NextApplicant) -> Vec<Msg> {
    let today = society.today;
    let rates = society.rates.clone();
    let Some(plot) = society.plot(id).cloned() else {
        return letter(COMMITTEE, format!("there is no plot {id}"));
    };
    if plot.tenant.is_some() {
        return letter(COMMITTEE, format!("plot {id} is not vacant"));
    }
    let Some(number) = next(&society.waiting) else {
        return letter(COMMITTEE, format!("plot {id} is vacant; nobody is waiting"));
    };
    let Some(at) = society.waiting.iter().position(|a| a.number == number) else {
        return Vec::new();
    };
    let name = society.waiting.remove(at).name;
    let concession = society.concession(&name);
    if let Some(plot) = society.plots.iter_mut().find(|p| p.id == id) {
        plot.tenant = Some(name.clone());
        plot.warnings = 0;
        plot.notice_until = None;
    }
    let months = 13 - month_of(today);
    let annual = fees::annual_rent(plot.size, &rates, concession);
    let rent = fees::prorate(annual, months);
    vec![
        Msg::Post {
            member: name.clone(),
            what: format!("rent, plot {id}, {months} months"),
            pence: rent,
        },
        Msg::Letter {
            to: name,
            text: format!(
                "plot {id} is yours from {}; the rent to December is {}",
                date(today),
                money(rent)
            ),
        },
    ]
}

/// A tenant gives up their plot: it is vacant, and let again (a `Let` command).
#[ranvier::trace_fn]
pub fn give_up(society: &mut Society, id: u32) -> Vec<Msg> {
    let Some(plot) = society.plots.iter_mut().find(|p| p.id == id) else {
        return letter(COMMITTEE, format!("there is no plot {id}"));
    };
    let Some(tenant) = plot.tenant.take() else {
        return letter(COMMITTEE, format!("plot {id} is already vacant"));
    };
    plot.warnings = 0;
    plot.notice_until = None;
    let mut commands = vec![Msg::Let { plot: id }];
    commands.extend(letter(
        &tenant,
        format!("we are sorry to see you leave plot {id}"),
    ));
    commands
}

/// The committee inspects a let plot: `after` gives the tenant's warnings; a new warning is written to the tenant,
/// and warnings enough bring a notice to quit (a letter).
#[ranvier::trace_fn]
pub fn inspect(society: &mut Society, id: u32, grade: &str, after: WarningsAfter) -> Vec<Msg> {
    let today = society.today;
    let notice_days = society.rates.notice_days;
    let Some(grade) = Grade::parse(grade) else {
        return letter(COMMITTEE, format!("no grade {grade:?}"));
    };
    let Some(plot) = society.plots.iter_mut().find(|p| p.id == id) else {
        return letter(COMMITTEE, format!("there is no plot {id}"));
    };
    let Some(tenant) = plot.tenant.clone() else {
        return Vec::new();
    };
    let before = plot.warnings;
    plot.warnings = after(grade, before);
    if rules::brings_notice(plot.warnings) && plot.notice_until.is_none() {
        let until = today + notice_days;
        plot.notice_until = Some(until);
        return letter(
            &tenant,
            format!(
                "notice to quit plot {id}: please leave it by {}",
                date(until)
            ),
        );
    }
    if plot.warnings > before {
        return letter(
            &tenant,
            format!(
                "plot {id} was found neglected: warning {} of {}",
                plot.warnings,
                rules::WARNINGS_FOR_NOTICE
            ),
        );
    }
    Vec::new()
}

/// A member borrows a tool that is in the shed.
#[ranvier::trace_fn]
pub fn borrow(society: &mut Society, member: &str, tool: &str) -> Vec<Msg> {
    if society.member(member).is_none() {
        return letter(member, "the shed is for members".to_owned());
    }
    if society.loans.iter().any(|l| l.tool == tool && !l.returned) {
        return letter(member, format!("the {tool} is out"));
    }
    let today = society.today;
    society.loans.push(Loan {
        tool: tool.to_owned(),
        member: member.to_owned(),
        out: today,
        due: today + society.rates.loan_days,
        returned: false,
        note: String::new(),
    });
    Vec::new()
}

/// A member brings a tool back; a late one is fined as `fine` says (a command).
#[ranvier::trace_fn]
pub fn return_tool(society: &mut Society, member: &str, tool: &str, fine: LateFine) -> Vec<Msg> {
    let today = society.today;
    let per_day = society.rates.fine_per_day;
    let Some(loan) = society
        .loans
        .iter_mut()
        .find(|l| l.tool == tool && l.member == member && !l.returned)
    else {
        return letter(member, format!("you have no {tool} out"));
    };
    let late = rules::days_overdue(loan, today);
    loan.returned = true;
    loan.note = format!("back on {}", date(today));
    if late == 0 {
        return Vec::new();
    }
    vec![Msg::Post {
        member: member.to_owned(),
        what: format!("{tool} back {late} days late"),
        pence: fine(late, per_day),
    }]
}

/// A member enters the produce show.
#[ranvier::trace_fn]
pub fn enter(society: &mut Society, member: &str, class: &str) -> Vec<Msg> {
    if society.member(member).is_none() {
        return letter(member, "the show is for members".to_owned());
    }
    let id = society.entries.len() as u32 + 1;
    society.entries.push(Entry {
        id,
        member: member.to_owned(),
        class: class.to_owned(),
        points: Vec::new(),
    });
    letter(member, format!("your {class} is entry {id}"))
}

/// A judge scores an entry.
#[ranvier::trace_fn]
pub fn judge(society: &mut Society, entry: u32, points: u32) -> Vec<Msg> {
    let Some(entry) = society.entries.iter_mut().find(|e| e.id == entry) else {
        return letter(COMMITTEE, format!("there is no entry {entry}"));
    };
    entry.points.push(points);
    Vec::new()
}

/// The calendar moves on; each plot whose notice to quit ran out is taken back and let again (commands).
#[ranvier::trace_fn]
pub fn advance(society: &mut Society, days: u32) -> Vec<Msg> {
    society.today += days;
    let today = society.today;
    let mut commands = Vec::new();
    for plot in society.plots.iter_mut() {
        if plot.notice_until.is_none_or(|until| until > today) {
            continue;
        }
        if let Some(tenant) = plot.tenant.take() {
            commands.extend(letter(
                &tenant,
                format!("plot {} has been taken back", plot.id),
            ));
        }
        plot.warnings = 0;
        plot.notice_until = None;
        commands.push(Msg::Let { plot: plot.id });
    }
    commands
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::fees;
    use super::super::model::{Msg, Society, date, money, month_of};
    use super::super::rules;
    use super::{COMMITTEE, NextApplicant, inspect, let_plot, letter, return_tool, update};

    /// `update`, letting plots with the first rent.
    #[ranvier::trace_fn]
    pub fn update_let(msg: Msg, society: &Society) -> (Society, Vec<Msg>) {
        match msg {
            Msg::Let { plot } => {
                let mut next = society.clone();
                let commands = let_plot_first(&mut next, plot, rules::next_applicant);
                (next, commands)
            }
            other => update(other, society),
        }
    }

    /// `update`, letting plots with the first waiting-list rule.
    #[ranvier::trace_fn]
    pub fn update_next(msg: Msg, society: &Society) -> (Society, Vec<Msg>) {
        match msg {
            Msg::Let { plot } => {
                let mut next = society.clone();
                let commands = let_plot(&mut next, plot, rules::slipped::next_applicant);
                (next, commands)
            }
            other => update(other, society),
        }
    }

    /// `update`, with the first way of giving a plot up.
    #[ranvier::trace_fn]
    pub fn update_give_up(msg: Msg, society: &Society) -> (Society, Vec<Msg>) {
        match msg {
            Msg::GiveUp { plot } => {
                let mut next = society.clone();
                let commands = give_up(&mut next, plot);
                (next, commands)
            }
            other => update(other, society),
        }
    }

    /// `update`, inspecting with the first rule for warnings.
    #[ranvier::trace_fn]
    pub fn update_inspect(msg: Msg, society: &Society) -> (Society, Vec<Msg>) {
        match msg {
            Msg::Inspect { plot, grade } => {
                let mut next = society.clone();
                let commands = inspect(&mut next, plot, &grade, rules::slipped::warnings_after);
                (next, commands)
            }
            other => update(other, society),
        }
    }

    /// `update`, fining late tools with the first fine.
    #[ranvier::trace_fn]
    pub fn update_return(msg: Msg, society: &Society) -> (Society, Vec<Msg>) {
        match msg {
            Msg::Return { member, tool } => {
                let mut next = society.clone();
                let commands = return_tool(&mut next, &member, &tool, fees::slipped::late_fine);
                (next, commands)
            }
            other => update(other, society),
        }
    }

    #[ranvier::trace_fn]
    fn let_plot_first(society: &mut Society, id: u32, next: NextApplicant) -> Vec<Msg> {
        let today = society.today;
        let rates = society.rates.clone();
        let Some(plot) = society.plot(id).cloned() else {
            return letter(COMMITTEE, format!("there is no plot {id}"));
        };
        if plot.tenant.is_some() {
            return letter(COMMITTEE, format!("plot {id} is not vacant"));
        }
        let Some(number) = next(&society.waiting) else {
            return letter(COMMITTEE, format!("plot {id} is vacant; nobody is waiting"));
        };
        let Some(at) = society.waiting.iter().position(|a| a.number == number) else {
            return Vec::new();
        };
        let name = society.waiting.remove(at).name;
        let concession = society.concession(&name);
        if let Some(plot) = society.plots.iter_mut().find(|p| p.id == id) {
            plot.tenant = Some(name.clone());
            plot.warnings = 0;
            plot.notice_until = None;
        }
        // BUG(rent_months)
        let months = 12 - month_of(today);
        let annual = fees::annual_rent(plot.size, &rates, concession);
        let rent = fees::prorate(annual, months);
        vec![
            Msg::Post {
                member: name.clone(),
                what: format!("rent, plot {id}, {months} months"),
                pence: rent,
            },
            Msg::Letter {
                to: name,
                text: format!(
                    "plot {id} is yours from {}; the rent to December is {}",
                    date(today),
                    money(rent)
                ),
            },
        ]
    }

    #[ranvier::trace_fn]
    fn give_up(society: &mut Society, id: u32) -> Vec<Msg> {
        let Some(plot) = society.plots.iter_mut().find(|p| p.id == id) else {
            return letter(COMMITTEE, format!("there is no plot {id}"));
        };
        let Some(tenant) = plot.tenant.take() else {
            return letter(COMMITTEE, format!("plot {id} is already vacant"));
        };
        plot.warnings = 0;
        plot.notice_until = None;
        // BUG(give_up_no_let)
        let mut commands = Vec::new();
        commands.extend(letter(
            &tenant,
            format!("we are sorry to see you leave plot {id}"),
        ));
        commands
    }
}
