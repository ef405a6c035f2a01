//! Tax and pension rules, per pay period, in cents.

/// A slice of taxable pay and the rate on it.
#[derive(Clone, Copy, Debug)]
pub struct Band {
    pub from: u64,
    pub upto: u64,
    /// Basis points.
    pub rate_bp: u64,
}

/// The period's bands: the first 1,000.00 free, 20 % to 4,000.00, 40 % above.
pub const BANDS: [Band; 3] = [
    Band {
        from: 0,
        upto: 100_000,
        rate_bp: 0,
    },
    Band {
        from: 100_000,
        upto: 400_000,
        rate_bp: 2_000,
    },
    Band {
        from: 400_000,
        upto: u64::MAX,
        rate_bp: 4_000,
    },
];

/// The income tax on `taxable` pay for one period.
#[ranvier::trace_fn]
pub fn income_tax(taxable: u64) -> u64 {
    let mut tax = 0;
    for band in &BANDS {
        let top = taxable.min(band.upto);
        if top <= band.from {
            break;
        }
        tax += (top - band.from) * band.rate_bp / 10_000;
    }
    tax
}

/// The pension contribution on `gross` pay at `rate_bp` basis points.
#[ranvier::trace_fn]
pub fn pension(gross: u64, rate_bp: u64) -> u64 {
    gross * rate_bp / 10_000
}

/// Cents as `1234.56`.
#[ranvier::trace_fn]
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The versions with the mistakes.
pub mod slipped {
    use super::BANDS;

    /// The income tax on `taxable` pay for one period.
    #[ranvier::trace_fn]
    pub fn income_tax(taxable: u64) -> u64 {
        let mut tax = 0;
        for band in &BANDS {
            let top = taxable.min(band.upto);
            if top <= band.from {
                break;
            }
            // BUG(band_slice)
            tax += (taxable - band.from) * band.rate_bp / 10_000;
        }
        tax
    }

    /// The pension contribution on `gross` pay at `rate_bp` basis points.
    #[ranvier::trace_fn]
    pub fn pension(gross: u64, rate_bp: u64) -> u64 {
        // BUG(pension_unit)
        gross * rate_bp / 1_000
    }
}
