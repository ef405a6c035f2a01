//! The driving school's blind set (`examples/examples/blind_driving/`): twelve ordinary mistakes in an app split over
//! ten files, each shown by its case (`values_*`: the correct app holds the expected value, the app with the mistake
//! another) and each to be named by one `explain` call within the first 400 characters of the answer (`explain_*`,
//! traced builds).
//!
//! Written before the set's first scored run.

use crate::examples::blind_driving as blind;
use crate::examples::values;

crate::examples::blind_harness!("driving school");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "fees.rs",
        "lessons.rs",
        "progress.rs",
        "pupils.rs",
        "graph.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_slot_notice => "slot_notice",
    values_fuel_litres => "fuel_litres",
    values_next_skill => "next_skill",
    values_awaiting_test => "awaiting_test",
    values_advance_day => "advance_day",
    values_book_week => "book_week",
    values_late_notice => "late_notice",
    values_service_miles => "service_miles",
    values_week_bounds => "week_bounds",
    values_theory_skip => "theory_skip",
    values_billable_cancel => "billable_cancel",
    values_default_gearbox => "default_gearbox",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_slot_notice => "slot_notice",
        explain_fuel_litres => "fuel_litres",
        explain_next_skill => "next_skill",
        explain_awaiting_test => "awaiting_test",
        explain_advance_day => "advance_day",
        explain_book_week => "book_week",
        explain_late_notice => "late_notice",
        explain_service_miles => "service_miles",
        explain_week_bounds => "week_bounds",
        explain_theory_skip => "theory_skip",
        explain_billable_cancel => "billable_cancel",
        explain_default_gearbox => "default_gearbox",
    );
}
