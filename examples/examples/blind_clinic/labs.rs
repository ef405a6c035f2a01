//! Answers from the services over the network, as async memos: the lab results flagged for the patient in the
//! consulting room, and what the insurer covers of the visit of the patient who checked in last.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::model::{Clinic, Msg, Stage};
use super::remote;

/// The results out of their normal range for a patient.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct LabFlags {
    /// The patient.
    pub patient: String,
    /// Each result out of range, as `"glucose 112 (70-99)"`.
    pub flagged: Vec<String>,
}

/// What the insurer covers of a visit.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Coverage {
    /// The patient.
    pub patient: String,
    /// The plan.
    pub plan: String,
    /// The insurer's part of the doctor's fee, in cents.
    pub insurer_pays: u64,
    /// The rest, in cents.
    pub patient_pays: u64,
}

/// Finds the patient in the room and the tests ordered for them.
pub type PatientOf = fn(&Clinic) -> Option<(String, Vec<String>)>;

/// The async memos of the services.
pub struct Labs {
    /// The flagged results of the patient in the room.
    pub flags: AsyncMemo<Option<LabFlags>>,
    /// The insurer's cover of the visit of the patient who checked in last.
    pub coverage: AsyncMemo<Option<Coverage>>,
}

/// Builds the services' async memos over `clinic`, as `slip` says.
#[node]
pub fn labs(clinic: &Mvu<Clinic, Msg>, slip: Slip) -> Labs {
    let flags = match slip {
        Slip::FlagsOr => slipped::flags(clinic, in_room),
        Slip::RoomLatest => flags(clinic, slipped::in_room),
        _ => flags(clinic, in_room),
    };
    let coverage = match slip {
        Slip::CoverageBasis => slipped::coverage(clinic),
        _ => coverage(clinic),
    };
    Labs { flags, coverage }
}

/// The patient called into a room last and still there, with the tests ordered for them.
fn in_room(c: &Clinic) -> Option<(String, Vec<String>)> {
    c.visits
        .iter()
        .filter(|v| v.stage() == Stage::InRoom)
        .max_by_key(|v| v.called)
        .map(|v| (v.patient.clone(), v.tests.clone()))
}

/// The patient who checked in last (and did not call the visit off), the plan, and the doctor's fee.
fn at_desk(c: &Clinic) -> Option<(String, String, u64)> {
    let visit = c
        .visits
        .iter()
        .filter(|v| v.checked_in.is_some() && !v.cancelled)
        .max_by_key(|v| v.checked_in)?;
    let fee = c.doctor(&visit.doctor).map_or(0, |d| d.fee_cents);
    Some((visit.patient.clone(), visit.plan.clone(), fee))
}

/// The lab results out of range for the patient `patient_of` finds in the room.
fn flags(clinic: &Mvu<Clinic, Msg>, patient_of: PatientOf) -> AsyncMemo<Option<LabFlags>> {
    let clinic = clinic.clone();
    AsyncMemo::try_new(move |_| {
        let patient = clinic.with_model(patient_of);
        async move {
            let Some((patient, tests)) = patient else {
                return Ok(None);
            };
            let results = remote::results(&patient, &tests).await?;
            let flagged = results
                .iter()
                .filter(|r| r.value < r.low || r.value > r.high)
                .map(|r| format!("{} {} ({}-{})", r.test, r.value, r.low, r.high))
                .collect();
            Ok::<_, String>(Some(LabFlags { patient, flagged }))
        }
    })
}

/// What the insurer covers of the visit of the patient who checked in last.
fn coverage(clinic: &Mvu<Clinic, Msg>) -> AsyncMemo<Option<Coverage>> {
    let clinic = clinic.clone();
    AsyncMemo::try_new(move |_| {
        let desk = clinic.with_model(at_desk);
        async move {
            let Some((patient, plan, fee)) = desk else {
                return Ok(None);
            };
            let basis_points = remote::authorise(&plan).await?;
            let insurer_pays = fee * u64::from(basis_points) / 10_000;
            let patient_pays = fee.saturating_sub(insurer_pays);
            Ok::<_, String>(Some(Coverage {
                patient,
                plan,
                insurer_pays,
                patient_pays,
            }))
        }
    })
}

/// The services' memos as first written.
mod slipped {
    use ranvier::{AsyncMemo, Mvu};

    use super::super::model::{Clinic, Msg, Stage};
    use super::super::remote;
    use super::{Coverage, LabFlags, PatientOf, at_desk};

    /// The patient in the room.
    pub fn in_room(c: &Clinic) -> Option<(String, Vec<String>)> {
        c.visits
            .iter()
            .filter(|v| v.stage() == Stage::InRoom)
            // BUG(room_latest)
            .max_by_key(|v| v.slot)
            .map(|v| (v.patient.clone(), v.tests.clone()))
    }

    /// The lab results out of range.
    pub fn flags(clinic: &Mvu<Clinic, Msg>, patient_of: PatientOf) -> AsyncMemo<Option<LabFlags>> {
        let clinic = clinic.clone();
        AsyncMemo::try_new(move |_| {
            let patient = clinic.with_model(patient_of);
            async move {
                let Some((patient, tests)) = patient else {
                    return Ok(None);
                };
                let results = remote::results(&patient, &tests).await?;
                let flagged = results
                    .iter()
                    // BUG(flags_or)
                    .filter(|r| r.value < r.low && r.value > r.high)
                    .map(|r| format!("{} {} ({}-{})", r.test, r.value, r.low, r.high))
                    .collect();
                Ok::<_, String>(Some(LabFlags { patient, flagged }))
            }
        })
    }

    /// What the insurer covers.
    pub fn coverage(clinic: &Mvu<Clinic, Msg>) -> AsyncMemo<Option<Coverage>> {
        let clinic = clinic.clone();
        AsyncMemo::try_new(move |_| {
            let desk = clinic.with_model(at_desk);
            async move {
                let Some((patient, plan, fee)) = desk else {
                    return Ok(None);
                };
                let basis_points = remote::authorise(&plan).await?;
                // BUG(coverage_basis)
                let insurer_pays = fee * u64::from(basis_points) / 100;
                let patient_pays = fee.saturating_sub(insurer_pays);
                Ok::<_, String>(Some(Coverage {
                    patient,
                    plan,
                    insurer_pays,
                    patient_pays,
                }))
            }
        })
    }
}
