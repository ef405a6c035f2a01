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
//! Written before the set's first scored run. That run (session 27) named four of twelve, four within the 400
//! characters (`on_hire` at 16, `week_takings` 320, `fuel_short` 329, `service_due` 346); `claim_total`, `row_days`,
//! `free_car`, `return_branch`, `late_fee`, `damage_excess`, `board_returns` and `hire_days` were not named (median
//! answer 840 characters).

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
        #[ignore = "first run: not named; the answer quoted services.rs:179, 180 (the totals' lets), 195, 203"]
        explain_claim_total => "claim_total",
        #[ignore = "first run: not named; the answer quoted bookings.rs:132, 134, 133 (the status arms), 75, 77, 78"]
        explain_row_days => "row_days",
        explain_on_hire => "on_hire",
        #[ignore = "first run: not named; the answer quoted fleet.rs:38, 48, 55, model.rs:325, then the deposit's update.rs:199, 200, 83"]
        explain_free_car => "free_car",
        #[ignore = "first run: not named; the answer quoted fleet.rs:48, 55, model.rs:325, fleet.rs:9, then update.rs:356, 355, 357, 349 around it"]
        explain_return_branch => "return_branch",
        #[ignore = "first run: not named; the answer quoted graph.rs:158, update.rs:227, 226, 228, 221, damage.rs:34, 32, tariffs.rs:81, 69"]
        explain_late_fee => "late_fee",
        #[ignore = "named at 526, past 400 (first run: not named)"]
        explain_damage_excess => "damage_excess",
        explain_service_due => "service_due",
        // first run: not named (the answer quoted graph.rs:347, the line after it, 360, 367, 368, 329); session 27: a
        // text made in a loop that filters is quoted with the loop's filter (154)
        explain_board_returns => "board_returns",
        explain_week_takings => "week_takings",
        #[ignore = "first run: not named; the answer quoted bookings.rs:46, 48, 47 (the row's status arms), 75, 77, 78"]
        explain_hire_days => "hire_days",
    );
}
