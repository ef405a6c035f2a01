//! The blind car-hire office (`examples/examples/blind_rental/`): a car-hire office split over ten files, with twelve
//! ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, an
//! early `return` where the loop meant `continue` and the wrong amount added to a total; two in a keyed collection,
//! its row memo's arguments swapped and its `count_by` view missing a condition; two in `update`'s helpers, `max_by_key`
//! for `min_by_key` and a wrong field; three in rule modules, `>=` for `>` in the late fee `update` and the board
//! call, a wrong default in `unwrap_or` for the excess `update` calls, a missing term in the service rule the fleet
//! list and `update` call; two in long memos, a missing condition and `+` for `-`; one in a model type's method, a
//! missing `max(1)`). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct office holds the expected
//!   value and the office with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_rental::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_rental as blind;
use crate::examples::values;

crate::examples::blind_harness!("office");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "tariffs.rs",
        "damage.rs",
        "fleet.rs",
        "graph.rs",
        "bookings.rs",
        "services.rs"
    ],
    at_least = 7
);

values!(
    values_fuel_short => "fuel_short",
    values_claim_total => "claim_total",
    values_row_days => "row_days",
    values_on_hire => "on_hire",
    values_free_car => "free_car",
    values_return_branch => "return_branch",
    values_late_fee => "late_fee",
    values_damage_excess => "damage_excess",
    values_service_due => "service_due",
    values_board_returns => "board_returns",
    values_week_takings => "week_takings",
    values_hire_days => "hire_days",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_fuel_short => "fuel_short",
        explain_claim_total => "claim_total",
        explain_row_days => "row_days",
        explain_on_hire => "on_hire",
        explain_free_car => "free_car",
        explain_return_branch => "return_branch",
        explain_late_fee => "late_fee",
        explain_damage_excess => "damage_excess",
        explain_service_due => "service_due",
        explain_board_returns => "board_returns",
        explain_week_takings => "week_takings",
        explain_hire_days => "hire_days",
    );
}
