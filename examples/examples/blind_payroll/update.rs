//! The payroll's `update`: the office's messages, and the commands the clock sends when a period ends.

use super::model::{
    Contract, DEFAULT_PENSION_BP, Deduction, Employee, LEAVE_PER_PERIOD, LeaveRequest, Msg,
    PERIOD_DAYS, PayRun, Payroll, STARTING_LEAVE, Shift,
};

/// The helpers `update` hands its work to.
#[derive(Clone, Copy)]
pub struct Handlers {
    /// Grants or declines a leave request.
    pub request_leave: fn(&mut Payroll, &str, u32),
    /// Moves the clock on, and says which periods to close.
    pub advance: fn(&mut Payroll, u32) -> Vec<Msg>,
}

impl Default for Handlers {
    fn default() -> Self {
        Handlers {
            request_leave,
            advance,
        }
    }
}

/// The payroll after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(handlers: &Handlers, msg: Msg, payroll: &Payroll) -> (Payroll, Vec<Msg>) {
    let mut next = payroll.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Hire {
            id,
            name,
            contract,
            rate,
            night_rate,
            ni,
            p45_code,
            account,
        } => {
            if next.employees.iter().all(|e| e.id != id) {
                let contract = contract_from(&contract, rate, night_rate);
                next.employees.push(Employee {
                    id,
                    name,
                    contract,
                    pension_bp: DEFAULT_PENSION_BP,
                    ni,
                    p45_code,
                    account,
                    leave_left: STARTING_LEAVE,
                    leave_taken: 0,
                });
            }
        }
        Msg::SetPension { id, bp } => {
            if let Some(employee) = next.employee_mut(&id) {
                employee.pension_bp = bp;
            }
        }
        Msg::LogShift { id, start, minutes } => {
            if next.employees.iter().any(|e| e.id == id) {
                next.shifts.push(Shift { id, start, minutes });
            }
        }
        Msg::RequestLeave { id, days } => (handlers.request_leave)(&mut next, &id, days),
        Msg::Deduct { id, cents, reason } => next.deductions.push(Deduction { id, cents, reason }),
        Msg::Advance { days } => commands = (handlers.advance)(&mut next, days),
        Msg::ClosePeriod => close_period(&mut next),
        Msg::AccrueLeave => {
            for employee in &mut next.employees {
                employee.leave_left += LEAVE_PER_PERIOD;
            }
        }
    }
    (next, commands)
}

/// The contract a `hire` names: by the hour (night hours a quarter more unless given), or a yearly salary.
#[ranvier::trace_fn]
fn contract_from(kind: &str, rate: u64, night_rate: Option<u64>) -> Contract {
    match kind {
        "salaried" => Contract::Salaried { annual: rate },
        _ => Contract::Hourly {
            rate,
            night_rate: night_rate.unwrap_or(rate + rate / 4),
        },
    }
}

/// Grants `days` of leave to `id` when their balance covers them, else records the request as declined.
#[ranvier::trace_fn]
pub fn request_leave(payroll: &mut Payroll, id: &str, days: u32) {
    let Some(employee) = payroll.employee_mut(id) else {
        return;
    };
    let granted = days <= employee.leave_left;
    if granted {
        employee.leave_left -= days;
        employee.leave_taken += days;
    }
    payroll.leave.push(LeaveRequest {
        id: id.to_owned(),
        days,
        granted,
    });
}

/// Moves the clock on by `days`: each period that ends on the way is closed, then everyone earns its leave.
#[ranvier::trace_fn]
pub fn advance(payroll: &mut Payroll, days: u32) -> Vec<Msg> {
    let mut commands = Vec::new();
    for _ in 0..days {
        payroll.day += 1;
        if payroll.day.is_multiple_of(PERIOD_DAYS) {
            commands.push(Msg::ClosePeriod);
            commands.push(Msg::AccrueLeave);
        }
    }
    commands
}

/// Closes the open period into a pay run and opens the next one.
#[ranvier::trace_fn]
fn close_period(payroll: &mut Payroll) {
    let run = PayRun {
        period: payroll.period,
        staff: payroll.employees.clone(),
        shifts: std::mem::take(&mut payroll.shifts),
        deductions: std::mem::take(&mut payroll.deductions),
    };
    payroll.runs.push(run);
    payroll.period += 1;
}

/// The versions with the mistakes.
pub mod slipped {
    use super::super::model::{LeaveRequest, Msg, PERIOD_DAYS, Payroll};

    /// Grants `days` of leave to `id` when their balance covers them, else records the request as declined.
    #[ranvier::trace_fn]
    pub fn request_leave(payroll: &mut Payroll, id: &str, days: u32) {
        let Some(employee) = payroll.employee_mut(id) else {
            return;
        };
        // BUG(leave_balance)
        let granted = days < employee.leave_left;
        if granted {
            employee.leave_left -= days;
            employee.leave_taken += days;
        }
        payroll.leave.push(LeaveRequest {
            id: id.to_owned(),
            days,
            granted,
        });
    }

    /// Moves the clock on by `days`: each period that ends on the way is closed, then everyone earns its leave.
    #[ranvier::trace_fn]
    pub fn advance(payroll: &mut Payroll, days: u32) -> Vec<Msg> {
        let mut commands = Vec::new();
        for _ in 0..days {
            payroll.day += 1;
            if payroll.day.is_multiple_of(PERIOD_DAYS) {
                // BUG(no_accrual)
                commands.push(Msg::ClosePeriod);
            }
        }
        commands
    }
}
