//! The services the desk asks over the network: the laboratory's results for a patient's tests, and the insurer's
//! authorisation of a visit under a plan. Each call takes a network hop (one turn of the executor) before it answers.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// One network hop: pending once, then ready.
struct Hop(bool);

impl Future for Hop {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

/// The tests the laboratory runs: name, and the low and high ends of the normal range (glucose in mg/dL,
/// potassium in tenths of mmol/L, hemoglobin in g/L).
pub const TESTS: [(&str, u32, u32); 3] = [
    ("glucose", 70, 99),
    ("potassium", 35, 50),
    ("hemoglobin", 120, 160),
];

/// One result from the laboratory.
#[derive(Clone, Debug, PartialEq)]
pub struct LabResult {
    /// The test.
    pub test: String,
    /// The value measured.
    pub value: u32,
    /// The low end of the normal range.
    pub low: u32,
    /// The high end of the normal range.
    pub high: u32,
}

/// The laboratory's results of `tests` for `patient`, in the order asked (a stand-in for the lab: each value is
/// worked out from the patient's name and the test's).
///
/// # Errors
///
/// The laboratory's answer for a test it does not run.
pub async fn results(patient: &str, tests: &[String]) -> Result<Vec<LabResult>, String> {
    Hop(false).await;
    let person = patient.bytes().map(u32::from).sum::<u32>();
    tests
        .iter()
        .map(|test| {
            let &(name, low, high) = TESTS
                .iter()
                .find(|t| t.0 == test)
                .ok_or_else(|| format!("the laboratory does not run {test:?}"))?;
            let spread = high - low + 20;
            let mix = name.bytes().map(u32::from).sum::<u32>();
            Ok(LabResult {
                test: name.to_owned(),
                value: low - 10 + (person + mix) % spread,
                low,
                high,
            })
        })
        .collect()
}

/// The insurer's authorisation of a visit under `plan`: the part of the fee it pays, in basis points (1/100 of a
/// percent).
///
/// # Errors
///
/// The insurer's answer for a plan it does not know.
pub async fn authorise(plan: &str) -> Result<u32, String> {
    Hop(false).await;
    match plan {
        "basic" => Ok(7000),
        "plus" => Ok(9000),
        "gold" => Ok(10000),
        "none" => Ok(0),
        other => Err(format!("no plan {other:?}")),
    }
}
