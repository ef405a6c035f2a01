//! The payroll office's app: what an agent may see (`#[expose]`), and the graph that derives it (`#[node]`).

use super::model::{self, Contract, Msg, PERIOD_DAYS, PERIODS_PER_YEAR, Payroll, Payslip};
use super::remote::{Bank, TaxAuthority};
use super::services;
use super::staff::{self, Staff};
use super::tax::{self, money};
use super::timesheet::{self, hm, hours, split_overtime};
use super::update::{self, Handlers};
use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the payroll to build: the correct one, or one with a single mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    FirstPeriod,
    LeaveBalance,
    NoAccrual,
    NightWindow,
    BandSlice,
    PensionUnit,
    NightRate,
    YtdTotals,
    RowOvertime,
    BusiestOrder,
    TaxCodeLookup,
    BankRejection,
}

/// The rules the pay memos compute with.
#[derive(Clone, Copy)]
pub struct Rules {
    pub night_minutes: fn(u32, u32) -> u32,
    pub income_tax: fn(u64) -> u64,
    pub pension: fn(u64, u64) -> u64,
}

impl Rules {
    fn for_slip(slip: Slip) -> Self {
        Rules {
            night_minutes: if slip == Slip::NightWindow {
                timesheet::slipped::night_minutes
            } else {
                timesheet::night_minutes
            },
            income_tax: if slip == Slip::BandSlice {
                tax::slipped::income_tax
            } else {
                tax::income_tax
            },
            pension: if slip == Slip::PensionUnit {
                tax::slipped::pension
            } else {
                tax::pension
            },
        }
    }
}

/// The payroll office as an agent sees it.
#[expose]
pub struct PayrollDesk {
    /// The payroll and its messages.
    #[expose(messages)]
    pub payroll: Mvu<Payroll, Msg>,
    /// Where the clock stands: `Period 2, day 5 of 28`.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// The open period's hours, per employee who worked.
    #[expose]
    #[node]
    pub hours: Memo<Vec<String>>,
    /// Leave balances.
    #[expose]
    #[node]
    pub leave: Memo<Vec<String>>,
    /// Every closed period's payslips.
    #[expose]
    #[node]
    pub payslips: Memo<Vec<Payslip>>,
    /// The tax year's totals, per employee.
    #[expose]
    #[node]
    pub ytd: Memo<Vec<String>>,
    /// The staff list, each row with what it has earned so far this period.
    #[expose]
    #[node]
    pub staff: Staff,
    /// Ids, most minutes worked this period first.
    #[expose]
    #[node]
    pub busiest: Memo<Vec<String>>,
    /// How many are paid by the hour.
    #[expose]
    #[node]
    pub hourly: Memo<usize>,
    /// How many have no leave left.
    #[expose]
    #[node]
    pub out_of_leave: Memo<usize>,
    /// Each employee's tax code (the tax authority).
    #[expose]
    #[node]
    pub tax_codes: AsyncMemo<Vec<String>>,
    /// The last pay run's payments (the bank).
    #[expose]
    #[node]
    pub payments: AsyncMemo<Vec<String>>,
}

/// The firm's people when the payroll opens: hired as the initial commands.
fn first_staff() -> Vec<Msg> {
    let hire = |id: &str,
                name: &str,
                contract: &str,
                rate: u64,
                ni: &str,
                p45: Option<&str>,
                account: &str| Msg::Hire {
        id: id.to_owned(),
        name: name.to_owned(),
        contract: contract.to_owned(),
        rate,
        night_rate: None,
        ni: ni.to_owned(),
        p45_code: p45.map(str::to_owned),
        account: account.to_owned(),
    };
    vec![
        hire(
            "ada",
            "Ada Byron",
            "salaried",
            3_900_000,
            "AB123456A",
            Some("1257L"),
            "20-11-04 0001",
        ),
        hire(
            "ben",
            "Ben Okafor",
            "hourly",
            1_600,
            "BO654321B",
            None,
            "20-11-04 0002",
        ),
        hire("cleo", "Cleo Marsh", "hourly", 1_200, "CM111222C", None, ""),
    ]
}

/// Builds the payroll office with `slip`'s mistake (none for [`Slip::None`]).
#[node]
pub fn payroll_desk(slip: Slip) -> PayrollDesk {
    let handlers = Handlers {
        request_leave: if slip == Slip::LeaveBalance {
            update::slipped::request_leave
        } else {
            update::request_leave
        },
        advance: if slip == Slip::NoAccrual {
            update::slipped::advance
        } else {
            update::advance
        },
    };
    let empty = if slip == Slip::FirstPeriod {
        model::slipped::payroll()
    } else {
        Payroll::default()
    };
    let payroll = Mvu::with_commands((empty, first_staff()), move |msg, payroll: &Payroll| {
        update::update(&handlers, msg, payroll)
    });
    let rules = Rules::for_slip(slip);
    let clock = payroll.select(|p| {
        format!(
            "Period {}, day {} of {}",
            p.period,
            p.day % PERIOD_DAYS + 1,
            PERIOD_DAYS
        )
    });
    let hours = hours_worked(&payroll, rules.night_minutes);
    let leave = payroll.select(|p| {
        p.employees
            .iter()
            .map(|e| {
                let declined = p
                    .leave
                    .iter()
                    .filter(|r| r.id == e.id && !r.granted)
                    .count();
                let mut line = format!(
                    "{}: {} days left, {} taken",
                    e.id, e.leave_left, e.leave_taken
                );
                if declined > 0 {
                    line.push_str(&format!(", {declined} declined"));
                }
                line
            })
            .collect::<Vec<_>>()
    });
    let payslips = if slip == Slip::NightRate {
        slipped::payslips(&payroll, rules)
    } else {
        payslips(&payroll, rules)
    };
    let ytd = if slip == Slip::YtdTotals {
        slipped::year_to_date(&payroll, &payslips)
    } else {
        year_to_date(&payroll, &payslips)
    };
    let staff = Collection::keyed(
        payroll.select(staff::rows_of),
        |row: &staff::StaffRow| row.id.clone(),
        if slip == Slip::RowOvertime {
            staff::slipped::accrued_row
        } else {
            staff::accrued_row
        },
    );
    let views = if slip == Slip::BusiestOrder {
        staff::slipped::views(&staff)
    } else {
        staff::views(&staff)
    };
    let authority = Rc::new(TaxAuthority::default());
    let tax_codes = if slip == Slip::TaxCodeLookup {
        services::slipped::tax_codes(&payroll, authority)
    } else {
        services::tax_codes(&payroll, authority)
    };
    let bank = Rc::new(Bank::default());
    let payments = if slip == Slip::BankRejection {
        services::slipped::payments(&payroll, &payslips, bank)
    } else {
        services::payments(&payroll, &payslips, bank)
    };
    PayrollDesk {
        payroll,
        clock,
        hours,
        leave,
        payslips,
        ytd,
        staff,
        busiest: views.busiest,
        hourly: views.hourly,
        out_of_leave: views.out_of_leave,
        tax_codes,
        payments,
    }
}

/// The open period's hours per employee who worked: `ben: 9h00 worked, 1h00 overtime, 2h00 at night`.
fn hours_worked(
    payroll: &Mvu<Payroll, Msg>,
    night_minutes: fn(u32, u32) -> u32,
) -> Memo<Vec<String>> {
    let shifts = payroll.select(|p| p.shifts.clone());
    Memo::new(move |_| {
        shifts.with(|shifts| {
            let mut ids: Vec<&str> = Vec::new();
            for shift in shifts {
                if !ids.contains(&shift.id.as_str()) {
                    ids.push(&shift.id);
                }
            }
            ids.iter()
                .map(|id| {
                    let (mut worked, mut overtime, mut night) = (0, 0, 0);
                    for shift in shifts.iter().filter(|s| s.id == *id) {
                        let (_, extra) = split_overtime(shift.minutes, hours::SHIFT_LIMIT);
                        worked += shift.minutes;
                        overtime += extra;
                        night += night_minutes(shift.start, shift.minutes);
                    }
                    format!(
                        "{id}: {} worked, {} overtime, {} at night",
                        hm(worked),
                        hm(overtime),
                        hm(night)
                    )
                })
                .collect()
        })
    })
}

/// Every closed period's payslips: gross pay from the contract and the shifts, then pension, tax and deductions.
fn payslips(payroll: &Mvu<Payroll, Msg>, rules: Rules) -> Memo<Vec<Payslip>> {
    let runs = payroll.select(|p| p.runs.clone());
    Memo::new(move |_| {
        let mut slips = Vec::new();
        for run in runs.get() {
            for employee in &run.staff {
                let gross = match &employee.contract {
                    Contract::Salaried { annual } => annual / u64::from(PERIODS_PER_YEAR),
                    Contract::Hourly { rate, night_rate } => {
                        let mut cents = 0;
                        for shift in run.shifts.iter().filter(|s| s.id == employee.id) {
                            let night =
                                u64::from((rules.night_minutes)(shift.start, shift.minutes));
                            let (_, overtime) = split_overtime(shift.minutes, hours::SHIFT_LIMIT);
                            cents += (u64::from(shift.minutes) - night) * rate / 60;
                            cents += night * night_rate / 60;
                            cents += u64::from(overtime) * rate / 120;
                        }
                        cents
                    }
                };
                let pension = (rules.pension)(gross, employee.pension_bp);
                let tax = (rules.income_tax)(gross - pension);
                let deductions: u64 = run
                    .deductions
                    .iter()
                    .filter(|d| d.id == employee.id)
                    .map(|d| d.cents)
                    .sum();
                slips.push(Payslip {
                    period: run.period,
                    id: employee.id.clone(),
                    gross,
                    pension,
                    tax,
                    deductions,
                    net: gross.saturating_sub(pension + tax + deductions),
                });
            }
        }
        slips
    })
}

/// One employee's running totals over the tax year.
#[derive(Clone, Debug, Default)]
struct Totals {
    periods: u32,
    gross: u64,
    tax: u64,
    pension: u64,
    net: u64,
}

/// The tax year's totals per employee: `ada: 2 periods, gross 6000.00, tax 740.00, pension 300.00, net 4960.00`.
fn year_to_date(payroll: &Mvu<Payroll, Msg>, payslips: &Memo<Vec<Payslip>>) -> Memo<Vec<String>> {
    let year = payroll.select(Payroll::tax_year);
    let payslips = payslips.clone();
    Memo::new(move |_| {
        let first = (year.get() - 1) * PERIODS_PER_YEAR + 1;
        let mut totals: Vec<(String, Totals)> = Vec::new();
        payslips.with(|slips| {
            for slip in slips.iter().filter(|s| s.period >= first) {
                let at = match totals.iter().position(|(id, _)| *id == slip.id) {
                    Some(at) => at,
                    None => {
                        totals.push((slip.id.clone(), Totals::default()));
                        totals.len() - 1
                    }
                };
                let sum = &mut totals[at].1;
                sum.periods += 1;
                sum.gross += slip.gross;
                sum.tax += slip.tax;
                sum.pension += slip.pension;
                sum.net += slip.net;
            }
        });
        totals
            .iter()
            .map(|(id, t)| {
                format!(
                    "{id}: {} periods, gross {}, tax {}, pension {}, net {}",
                    t.periods,
                    money(t.gross),
                    money(t.tax),
                    money(t.pension),
                    money(t.net)
                )
            })
            .collect()
    })
}

/// The versions with the mistakes.
mod slipped {
    use super::super::model::{Contract, Msg, PERIODS_PER_YEAR, Payroll, Payslip};
    use super::super::tax::money;
    use super::super::timesheet::{hours, split_overtime};
    use super::{Rules, Totals};
    use ranvier::{Memo, Mvu};

    /// Every closed period's payslips: gross pay from the contract and the shifts, then pension, tax and deductions.
    pub fn payslips(payroll: &Mvu<Payroll, Msg>, rules: Rules) -> Memo<Vec<Payslip>> {
        let runs = payroll.select(|p| p.runs.clone());
        Memo::new(move |_| {
            let mut slips = Vec::new();
            for run in runs.get() {
                for employee in &run.staff {
                    let gross = match &employee.contract {
                        Contract::Salaried { annual } => annual / u64::from(PERIODS_PER_YEAR),
                        Contract::Hourly { rate, .. } => {
                            let mut cents = 0;
                            for shift in run.shifts.iter().filter(|s| s.id == employee.id) {
                                let night =
                                    u64::from((rules.night_minutes)(shift.start, shift.minutes));
                                let (_, overtime) =
                                    split_overtime(shift.minutes, hours::SHIFT_LIMIT);
                                cents += (u64::from(shift.minutes) - night) * rate / 60;
                                // BUG(night_rate)
                                cents += night * rate / 60;
                                cents += u64::from(overtime) * rate / 120;
                            }
                            cents
                        }
                    };
                    let pension = (rules.pension)(gross, employee.pension_bp);
                    let tax = (rules.income_tax)(gross - pension);
                    let deductions: u64 = run
                        .deductions
                        .iter()
                        .filter(|d| d.id == employee.id)
                        .map(|d| d.cents)
                        .sum();
                    slips.push(Payslip {
                        period: run.period,
                        id: employee.id.clone(),
                        gross,
                        pension,
                        tax,
                        deductions,
                        net: gross.saturating_sub(pension + tax + deductions),
                    });
                }
            }
            slips
        })
    }

    /// The tax year's totals per employee.
    pub fn year_to_date(
        payroll: &Mvu<Payroll, Msg>,
        payslips: &Memo<Vec<Payslip>>,
    ) -> Memo<Vec<String>> {
        let year = payroll.select(Payroll::tax_year);
        let payslips = payslips.clone();
        Memo::new(move |_| {
            let first = (year.get() - 1) * PERIODS_PER_YEAR + 1;
            let mut totals: Vec<(String, Totals)> = Vec::new();
            payslips.with(|slips| {
                for slip in slips.iter().filter(|s| s.period >= first) {
                    let at = match totals.iter().position(|(id, _)| *id == slip.id) {
                        Some(at) => at,
                        None => {
                            totals.push((slip.id.clone(), Totals::default()));
                            totals.len() - 1
                        }
                    };
                    let sum = &mut totals[at].1;
                    sum.periods += 1;
                    sum.gross += slip.gross;
                    // BUG(ytd_tax)
                    sum.tax = slip.tax;
                    sum.pension += slip.pension;
                    sum.net += slip.net;
                }
            });
            totals
                .iter()
                .map(|(id, t)| {
                    format!(
                        "{id}: {} periods, gross {}, tax {}, pension {}, net {}",
                        t.periods,
                        money(t.gross),
                        money(t.tax),
                        money(t.pension),
                        money(t.net)
                    )
                })
                .collect()
        })
    }
}
