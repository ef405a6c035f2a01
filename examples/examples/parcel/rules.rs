//! The parcel desk's pricing rules: plain functions the graph's memos call.

/// Postage up to this weight is the small-parcel rate.
pub const SMALL_GRAMS: u64 = 2_000;

/// Postage for a parcel of `grams`, in cents: a small-parcel rate, then a heavy rate by the started kilogram.
#[ranvier::trace_fn]
pub fn postage(grams: u64) -> u64 {
    if grams == 0 {
        return 0;
    }
    let kilos = grams.div_ceil(1_000);
    // FAULT(parcel_postage_helper): `<` charges a parcel of exactly 2 kg the heavy rate
    if grams < SMALL_GRAMS {
        450
    } else {
        450 + kilos * 120
    }
}

/// The insurance premium for `cents` of cover: 1 %, at least 50 cents when insured at all.
#[ranvier::trace_fn]
pub fn premium(cents: u64) -> u64 {
    if cents == 0 { 0 } else { (cents / 100).max(50) }
}
