//! The blind ski resort (`examples/examples/blind_skipass/`): a ski resort's lift-pass office and lifts split over
//! nine files, with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in
//! async memos' futures, two in a keyed collection's row memo and its `sort_by` view, three in `update`'s helpers,
//! two in tariff rules and one in a gate rule called from `update`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct resort holds the expected
//!   value and the resort with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_skipass::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run; the explain tests its first run did not pass are ignored, each
//! saying what the answer quoted.

use crate::examples::blind_skipass as blind;
use crate::examples::values;

crate::examples::blind_harness!("resort");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "tariff.rs",
        "gates.rs",
        "graph.rs",
        "lifts.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_child_age => "child_age",
    values_multi_day_discount => "multi_day_discount",
    values_admit_before_start => "admit_before_start",
    values_scan_day_minute => "scan_day_minute",
    values_wind_no_close => "wind_no_close",
    values_refund_season => "refund_season",
    values_wait_per_hour => "wait_per_hour",
    values_busiest_by_rides => "busiest_by_rides",
    values_outlook_today => "outlook_today",
    values_snow_no_reading => "snow_no_reading",
    values_takings_refunds => "takings_refunds",
    values_skiers_by_lift => "skiers_by_lift",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        #[ignore = "first run: not named; the answer quoted graph.rs:224, model.rs:74, model.rs:75, model.rs:77"]
        explain_child_age => "child_age",
        #[ignore = "first run: not named; the answer quoted graph.rs:158, graph.rs:155, graph.rs:156, graph.rs:159"]
        explain_multi_day_discount => "multi_day_discount",
        #[ignore = "first run: not named; the answer quoted graph.rs:225, update.rs:56, update.rs:57, update.rs:137"]
        explain_admit_before_start => "admit_before_start",
        // missed on first run: not named (quoted graph.rs:225, update.rs:56, update.rs:57, update.rs:137); named at 626
        // since a helper's write whose template made the new text is quoted with its match; within 400 (326) since
        // session 25, when the swapped-arguments smell reads the parameters of the fns a field holds
        // (`(rules.admit)(.., minute, day)`)
        explain_scan_day_minute => "scan_day_minute",
        #[ignore = "first run: not named; the answer quoted graph.rs:226, graph.rs:221"]
        explain_wind_no_close => "wind_no_close",
        #[ignore = "first run: not named; the answer quoted graph.rs:228, update.rs:91, update.rs:203, update.rs:289"]
        explain_refund_season => "refund_season",
        explain_wait_per_hour => "wait_per_hour",
        #[ignore = "within 400 (366) until session 25; at 784 since the swapped-arguments smell reads the fns a field holds: `(rules.scan)` may reach the correct `scan` or its slipped copy, and the slipped copy's swapped `(rules.admit)(.., minute, day)` (this set's other mistake, not run in this case) is quoted first"]
        explain_busiest_by_rides => "busiest_by_rides",
        #[ignore = "first run: not named; the answer quoted services.rs:102, services.rs:108, services.rs:110, services.rs:112"]
        explain_outlook_today => "outlook_today",
        explain_snow_no_reading => "snow_no_reading",
        explain_takings_refunds => "takings_refunds",
        #[ignore = "first run: not named; the answer quoted graph.rs:334, graph.rs:353, model.rs:67, graph.rs:346; named \
                    at 429 since a branch a run took comes with the deciding line of the `let` it tests"]
        explain_skiers_by_lift => "skiers_by_lift",
    );
}
