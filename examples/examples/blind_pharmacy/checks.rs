//! The pharmacist's checks before a prescription is handed out: interactions between medicines, and allergies.

use super::model::{Patient, Prescription, medicine, name_of};

/// Pairs of medicines that interact, and what to warn about.
pub const INTERACTIONS: [(&str, &str, &str); 4] = [
    ("warf", "aspi", "bleeding risk"),
    ("simv", "clar", "muscle damage"),
    ("warf", "clar", "raised INR"),
    ("sert", "aspi", "bleeding risk"),
];

/// What the check found about one prescription.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// Two of the medicines interact.
    Interaction {
        /// The first.
        first: String,
        /// The second.
        second: String,
        /// Why it matters.
        why: &'static str,
    },
    /// The patient is allergic to a medicine's group.
    Allergy {
        /// The medicine.
        medicine: String,
        /// The group.
        group: String,
    },
}

impl Finding {
    /// The line the pharmacist reads.
    pub fn describe(&self) -> String {
        match self {
            Finding::Interaction { first, second, why } => {
                format!("{} with {}: {why}", name_of(first), name_of(second))
            }
            Finding::Allergy { medicine, group } => {
                format!("{}: allergic to {group}", name_of(medicine))
            }
        }
    }
}

/// Whether `a` and `b` interact, and why.
pub fn interaction(a: &str, b: &str) -> Option<&'static str> {
    INTERACTIONS
        .iter()
        .find(|(x, y, _)| (*x == a && *y == b) || (*x == b && *y == a))
        .map(|&(_, _, why)| why)
}

/// The findings on `rx` for `patient`, who takes `current` already, with `interacts` saying which pairs interact.
pub fn review(
    rx: &Prescription,
    patient: &Patient,
    current: &[String],
    interacts: impl Fn(&str, &str) -> Option<&'static str>,
) -> Vec<Finding> {
    let mut found = Vec::new();
    let new: Vec<&str> = rx.medicines().collect();
    for (at, first) in new.iter().enumerate() {
        let others = new[at + 1..]
            .iter()
            .copied()
            .chain(current.iter().map(String::as_str));
        for second in others {
            if let Some(why) = interacts(first, second) {
                found.push(Finding::Interaction {
                    first: (*first).to_owned(),
                    second: second.to_owned(),
                    why,
                });
            }
        }
        let group = medicine(first).and_then(|m| m.group);
        if let Some(group) = group.filter(|g| patient.allergies.iter().any(|a| a == g)) {
            found.push(Finding::Allergy {
                medicine: (*first).to_owned(),
                group: group.to_owned(),
            });
        }
    }
    found
}

pub(crate) mod slipped {
    use super::INTERACTIONS;

    /// [`super::interaction`], with the mistake.
    pub fn interaction(a: &str, b: &str) -> Option<&'static str> {
        INTERACTIONS
            .iter()
            // BUG(interaction_one_way)
            .find(|(x, y, _)| *x == a && *y == b)
            .map(|&(_, _, why)| why)
    }
}
