//! What a dispensing costs: the charge per item, and who is exempt from it.

use super::model::{Certificate, Exempt, Patient};

/// The charge per item, in pence.
pub const PER_ITEM: u64 = 990;

/// Patients under this age pay nothing.
pub const CHILD_UNDER: u32 = 16;

/// Patients of this age or over pay nothing.
pub const FREE_FROM_AGE: u32 = 60;

/// Why `patient` pays nothing, or `None` when they pay.
pub fn exemption(patient: &Patient) -> Option<Exempt> {
    if patient.age < CHILD_UNDER {
        return Some(Exempt::Child);
    }
    if patient.age >= FREE_FROM_AGE {
        return Some(Exempt::Age);
    }
    match patient.certificate {
        Certificate::None => None,
        Certificate::Prepayment => Some(Exempt::Prepayment),
        Certificate::Maternity => Some(Exempt::Maternity),
        Certificate::Medical => Some(Exempt::Medical),
    }
}

/// What `items` cost a patient exempt by `exempt` (nothing) or not.
pub fn charge(exempt: Option<Exempt>, items: u32) -> u64 {
    exempt.map_or(PER_ITEM * u64::from(items), |_| 0)
}

/// Pence as pounds: `£9.90`.
pub fn pounds(pence: u64) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

pub(crate) mod slipped {
    use super::{CHILD_UNDER, Certificate, Exempt, FREE_FROM_AGE, Patient};

    /// [`super::exemption`], with the age mistake.
    pub fn exemption_at_age(patient: &Patient) -> Option<Exempt> {
        if patient.age < CHILD_UNDER {
            return Some(Exempt::Child);
        }
        // BUG(age_exempt)
        if patient.age > FREE_FROM_AGE {
            return Some(Exempt::Age);
        }
        match patient.certificate {
            Certificate::None => None,
            Certificate::Prepayment => Some(Exempt::Prepayment),
            Certificate::Maternity => Some(Exempt::Maternity),
            Certificate::Medical => Some(Exempt::Medical),
        }
    }

    /// [`super::exemption`], with the certificate mistake.
    pub fn exemption_by_certificate(patient: &Patient) -> Option<Exempt> {
        if patient.age < CHILD_UNDER {
            return Some(Exempt::Child);
        }
        if patient.age >= FREE_FROM_AGE {
            return Some(Exempt::Age);
        }
        match patient.certificate {
            // BUG(prepayment_arm)
            Certificate::None | Certificate::Prepayment => None,
            Certificate::Maternity => Some(Exempt::Maternity),
            Certificate::Medical => Some(Exempt::Medical),
        }
    }
}
