//! The blind set `blind_salon` (a hair salon, ten files): each mistake's case holds the expected value in the correct
//! salon and another in the salon with the mistake (`values_*`), and in traced builds one `explain` names the faulty
//! line within the first 400 characters of its answer (`explain_*`).
//!
//! Written before the set's first scored run.

use crate::examples::blind_salon as blind;
use crate::examples::values;

crate::examples::blind_harness!("salon");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "vouchers.rs",
        "stylists.rs",
        "bookings.rs",
        "graph.rs",
        "services.rs"
    ],
    at_least = 7
);

values!(
    values_supplier_order => "supplier_order",
    values_online_requests => "online_requests",
    values_row_due => "row_due",
    values_by_time => "by_time",
    values_free_cancel => "free_cancel",
    values_tip_split => "tip_split",
    values_length_price => "length_price",
    values_loyalty_points => "loyalty_points",
    values_commission => "commission",
    values_day_till => "day_till",
    values_week_takings => "week_takings",
    values_voucher_expiry => "voucher_expiry",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_supplier_order => "supplier_order",
        explain_online_requests => "online_requests",
        explain_row_due => "row_due",
        explain_by_time => "by_time",
        explain_free_cancel => "free_cancel",
        explain_tip_split => "tip_split",
        explain_length_price => "length_price",
        explain_loyalty_points => "loyalty_points",
        explain_commission => "commission",
        explain_day_till => "day_till",
        explain_week_takings => "week_takings",
        explain_voucher_expiry => "voucher_expiry",
    );
}
