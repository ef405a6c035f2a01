//! The payroll's types and messages.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Days in a pay period (four weeks).
pub const PERIOD_DAYS: u32 = 28;
/// Pay periods in a tax year.
pub const PERIODS_PER_YEAR: u32 = 13;
/// Days of leave a new employee starts with.
pub const STARTING_LEAVE: u32 = 3;
/// Days of leave earned per closed period.
pub const LEAVE_PER_PERIOD: u32 = 2;
/// The pension contribution of a new employee, in basis points (5 %).
pub const DEFAULT_PENSION_BP: u64 = 500;

/// How an employee is paid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contract {
    /// Paid by the hour, in cents; hours between 22:00 and 06:00 at the night rate.
    Hourly { rate: u64, night_rate: u64 },
    /// A yearly salary in cents, paid in thirteen equal parts.
    Salaried { annual: u64 },
}

impl Contract {
    /// `hourly` or `salaried`.
    pub fn kind(&self) -> &'static str {
        match self {
            Contract::Hourly { .. } => "hourly",
            Contract::Salaried { .. } => "salaried",
        }
    }
}

/// Someone on the payroll.
#[derive(Clone, Debug, PartialEq)]
pub struct Employee {
    pub id: String,
    pub name: String,
    pub contract: Contract,
    /// The share of gross pay paid into the pension, in basis points.
    pub pension_bp: u64,
    /// National insurance number: what the tax authority knows them by.
    pub ni: String,
    /// The tax code on the P45 from their last employer, if they brought one.
    pub p45_code: Option<String>,
    /// The bank account their pay goes to (empty: none given yet).
    pub account: String,
    pub leave_left: u32,
    pub leave_taken: u32,
}

/// A shift worked in the open period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shift {
    pub id: String,
    /// The hour it started (0 to 23).
    pub start: u32,
    pub minutes: u32,
}

/// A deduction from one period's pay (a uniform, an advance paid back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduction {
    pub id: String,
    pub cents: u64,
    pub reason: String,
}

/// A request for days of leave, granted or declined when made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveRequest {
    pub id: String,
    pub days: u32,
    pub granted: bool,
}

/// A closed pay period: what was worked and deducted, and the staff as they were when it closed.
#[derive(Clone, Debug, PartialEq)]
pub struct PayRun {
    pub period: u32,
    pub staff: Vec<Employee>,
    pub shifts: Vec<Shift>,
    pub deductions: Vec<Deduction>,
}

/// The firm's payroll.
#[derive(Clone, Debug, PartialEq)]
pub struct Payroll {
    /// Days since the tax year began.
    pub day: u32,
    /// The open pay period, from 1.
    pub period: u32,
    pub employees: Vec<Employee>,
    pub shifts: Vec<Shift>,
    pub deductions: Vec<Deduction>,
    pub leave: Vec<LeaveRequest>,
    pub runs: Vec<PayRun>,
}

impl Default for Payroll {
    fn default() -> Self {
        Payroll {
            day: 0,
            period: 1,
            employees: Vec::new(),
            shifts: Vec::new(),
            deductions: Vec::new(),
            leave: Vec::new(),
            runs: Vec::new(),
        }
    }
}

impl Payroll {
    /// The employee `id`, to change.
    pub fn employee_mut(&mut self, id: &str) -> Option<&mut Employee> {
        self.employees.iter_mut().find(|e| e.id == id)
    }

    /// The tax year the open period is in, from 1.
    pub fn tax_year(&self) -> u32 {
        self.period.saturating_sub(1) / PERIODS_PER_YEAR + 1
    }
}

/// One employee's pay for one period, in cents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Payslip {
    pub period: u32,
    pub id: String,
    pub gross: u64,
    pub pension: u64,
    pub tax: u64,
    pub deductions: u64,
    pub net: u64,
}

/// What the payroll office may send.
#[derive(Clone, Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Takes someone on: `contract` is `hourly` (`rate` in cents an hour, `nightRate` for night hours, a quarter
    /// more when not given) or `salaried` (`rate` in cents a year).
    Hire {
        id: String,
        name: String,
        contract: String,
        #[message(range(min = 0))]
        rate: u64,
        night_rate: Option<u64>,
        ni: String,
        p45_code: Option<String>,
        account: String,
    },
    /// Sets the pension contribution, in basis points of gross pay.
    SetPension {
        id: String,
        #[message(range(min = 0, max = 10000))]
        bp: u64,
    },
    /// Records a shift of the open period: the hour it started, and how long it was.
    LogShift {
        id: String,
        #[message(range(min = 0, max = 23))]
        start: u32,
        #[message(range(min = 1, max = 1440))]
        minutes: u32,
    },
    /// Asks for days of leave: granted when the balance covers them.
    RequestLeave {
        id: String,
        #[message(range(min = 1))]
        days: u32,
    },
    /// Deducts `cents` from this period's pay.
    Deduct {
        id: String,
        #[message(range(min = 1))]
        cents: u64,
        reason: String,
    },
    /// Moves the clock on by `days`; each period that ends is closed and paid.
    Advance {
        #[message(range(min = 1, max = 400))]
        days: u32,
    },
    /// Closes the open period into a pay run (a command of `advance`).
    #[message(skip)]
    ClosePeriod,
    /// Adds a period's leave to everyone's balance (a command of `advance`).
    #[message(skip)]
    AccrueLeave,
}

/// The version with the mistake.
pub mod slipped {
    use super::Payroll;

    /// The empty payroll.
    pub fn payroll() -> Payroll {
        Payroll {
            day: 0,
            // BUG(first_period)
            period: 0,
            employees: Vec::new(),
            shifts: Vec::new(),
            deductions: Vec::new(),
            leave: Vec::new(),
            runs: Vec::new(),
        }
    }
}
