//! The values that come from over the network: each employee's tax code, from the tax authority, and the bank's
//! confirmation of the last pay run's payments.

use super::model::{Msg, Payroll, Payslip};
use super::remote::{Bank, TaxAuthority};
use super::tax::money;
use ranvier::{AsyncMemo, Memo, Mvu};
use std::rc::Rc;

/// The code to use while the authority has none on record.
pub const EMERGENCY_CODE: &str = "0T";

/// Who the tax authority is asked about.
#[derive(Clone, Debug, PartialEq)]
pub struct Person {
    pub id: String,
    pub ni: String,
    pub p45_code: Option<String>,
}

/// A payment for the bank: to whom, where, how much.
#[derive(Clone, Debug, PartialEq)]
pub struct Payment {
    pub id: String,
    pub account: String,
    pub cents: u64,
}

/// Each employee's tax code, `ada: 1257L (P45)`: the code on a P45 they brought, else the one the authority holds
/// (the emergency code when it holds none).
pub fn tax_codes(
    payroll: &Mvu<Payroll, Msg>,
    authority: Rc<TaxAuthority>,
) -> AsyncMemo<Vec<String>> {
    let people = payroll.select(|p| {
        p.employees
            .iter()
            .map(|e| Person {
                id: e.id.clone(),
                ni: e.ni.clone(),
                p45_code: e.p45_code.clone(),
            })
            .collect::<Vec<_>>()
    });
    AsyncMemo::new(move |_| {
        let people = people.get();
        let authority = authority.clone();
        async move {
            let mut codes = Vec::with_capacity(people.len());
            for person in &people {
                if let Some(code) = &person.p45_code {
                    codes.push(format!("{}: {code} (P45)", person.id));
                }
            }
            let to_ask: Vec<&Person> = people.iter().filter(|p| p.p45_code.is_none()).collect();
            for person in to_ask {
                let code = match authority.code_for(&person.ni).await {
                    Ok(code) => code,
                    Err(_) => format!("{EMERGENCY_CODE} (emergency)"),
                };
                codes.push(format!("{}: {code}", person.id));
            }
            codes.sort();
            codes
        }
    })
}

/// The bank's answer for each payment of the last pay run: `ada: 2480.00 paid, BACS-0001-248000`, or why it was
/// not paid.
pub fn payments(
    payroll: &Mvu<Payroll, Msg>,
    payslips: &Memo<Vec<Payslip>>,
    bank: Rc<Bank>,
) -> AsyncMemo<Vec<String>> {
    let last_run = payroll.select(|p| p.runs.last().map(|run| (run.period, run.staff.clone())));
    let payslips = payslips.clone();
    AsyncMemo::new(move |_| {
        let batch: Vec<Payment> = match last_run.get() {
            None => Vec::new(),
            Some((period, staff)) => payslips.with(|slips| {
                slips
                    .iter()
                    .filter(|slip| slip.period == period)
                    .filter_map(|slip| {
                        let employee = staff.iter().find(|e| e.id == slip.id)?;
                        Some(Payment {
                            id: slip.id.clone(),
                            account: employee.account.clone(),
                            cents: slip.net,
                        })
                    })
                    .collect()
            }),
        };
        let bank = bank.clone();
        async move {
            let mut lines = Vec::new();
            for payment in &batch {
                let paid = bank.pay(&payment.account, payment.cents).await;
                let line = match paid {
                    Ok(reference) => {
                        format!("{}: {} paid, {reference}", payment.id, money(payment.cents))
                    }
                    Err(why) => format!("{}: {} not paid: {why}", payment.id, money(payment.cents)),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// The versions with the mistakes.
pub mod slipped {
    use super::super::model::{Msg, Payroll, Payslip};
    use super::super::remote::{Bank, TaxAuthority};
    use super::super::tax::money;
    use super::{EMERGENCY_CODE, Payment, Person};
    use ranvier::{AsyncMemo, Memo, Mvu};
    use std::rc::Rc;

    /// Each employee's tax code: the code on a P45 they brought, else the one the authority holds.
    pub fn tax_codes(
        payroll: &Mvu<Payroll, Msg>,
        authority: Rc<TaxAuthority>,
    ) -> AsyncMemo<Vec<String>> {
        let people = payroll.select(|p| {
            p.employees
                .iter()
                .map(|e| Person {
                    id: e.id.clone(),
                    ni: e.ni.clone(),
                    p45_code: e.p45_code.clone(),
                })
                .collect::<Vec<_>>()
        });
        AsyncMemo::new(move |_| {
            let people = people.get();
            let authority = authority.clone();
            async move {
                let mut codes = Vec::with_capacity(people.len());
                for person in &people {
                    if let Some(code) = &person.p45_code {
                        codes.push(format!("{}: {code} (P45)", person.id));
                    }
                }
                // BUG(tax_code_lookup)
                let to_ask: Vec<&Person> = people.iter().filter(|p| p.p45_code.is_some()).collect();
                for person in to_ask {
                    let code = match authority.code_for(&person.ni).await {
                        Ok(code) => code,
                        Err(_) => format!("{EMERGENCY_CODE} (emergency)"),
                    };
                    codes.push(format!("{}: {code}", person.id));
                }
                codes.sort();
                codes
            }
        })
    }

    /// The bank's answer for each payment of the last pay run.
    pub fn payments(
        payroll: &Mvu<Payroll, Msg>,
        payslips: &Memo<Vec<Payslip>>,
        bank: Rc<Bank>,
    ) -> AsyncMemo<Vec<String>> {
        let last_run = payroll.select(|p| p.runs.last().map(|run| (run.period, run.staff.clone())));
        let payslips = payslips.clone();
        AsyncMemo::new(move |_| {
            let batch: Vec<Payment> = match last_run.get() {
                None => Vec::new(),
                Some((period, staff)) => payslips.with(|slips| {
                    slips
                        .iter()
                        .filter(|slip| slip.period == period)
                        .filter_map(|slip| {
                            let employee = staff.iter().find(|e| e.id == slip.id)?;
                            Some(Payment {
                                id: slip.id.clone(),
                                account: employee.account.clone(),
                                cents: slip.net,
                            })
                        })
                        .collect()
                }),
            };
            let bank = bank.clone();
            async move {
                let mut lines = Vec::new();
                for payment in &batch {
                    let paid = bank.pay(&payment.account, payment.cents).await;
                    // BUG(bank_rejection)
                    let reference = paid.unwrap_or_default();
                    let line =
                        format!("{}: {} paid, {reference}", payment.id, money(payment.cents));
                    lines.push(line);
                }
                lines
            }
        })
    }
}
