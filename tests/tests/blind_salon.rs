//! The blind set `blind_salon` (a hair salon, ten files): each mistake's case holds the expected value in the correct
//! salon and another in the salon with the mistake (`values_*`), and in traced builds one `explain` names the faulty
//! line within the first 400 characters of its answer (`explain_*`).
//!
//! Written before the set's first scored run. That run named 5 of twelve, 5 within the 400 characters
//! (`supplier_order` at 292, `row_due` at 271, `by_time` at 390, `day_till` at 179, `voucher_expiry` at 251); the
//! seven it did not name are ignored below with the lines its answer quoted first. Since session 30: 8 named, 7
//! within 400 (`free_cancel` a hit at 329, `online_requests` at 395; `loyalty_points` named at 485).

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
        // missed on first run (quoted services.rs:182, 212, 218: not the `let clash` whose `.any` decided the `if
        // clash` the value's text was made in); a hit since session 30 (395 characters)
        explain_online_requests => "online_requests",
        explain_row_due => "row_due",
        explain_by_time => "by_time",
        // missed on first run (quoted graph.rs:186, update.rs:103, update.rs:416: the `} else {` that ran, not the
        // `if` that sent the run there); a hit since session 30 (329 characters)
        explain_free_cancel => "free_cancel",
        #[ignore = "first run: not named; the answer quoted update.rs:103, update.rs:443, graph.rs:169"]
        explain_tip_split => "tip_split",
        #[ignore = "first run: not named; the answer quoted bookings.rs:25, bookings.rs:31, bookings.rs:58"]
        explain_length_price => "length_price",
        #[ignore = "first run: not named; the answer quoted vouchers.rs:70, vouchers.rs:9, update.rs:103 (a line of an \
                    arm that did not run); named since session 30, at 485 characters"]
        explain_loyalty_points => "loyalty_points",
        #[ignore = "first run: not named; the answer quoted stylists.rs:40, stylists.rs:41, stylists.rs:33"]
        explain_commission => "commission",
        explain_day_till => "day_till",
        explain_week_takings => "week_takings",
        explain_voucher_expiry => "voucher_expiry",
    );
}
