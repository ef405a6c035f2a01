//! The blind bike-rental shop (`examples/examples/blind_bikes/`): a bike-rental counter split over eight files, with
//! twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos, two in
//! a keyed collection's row memo and views, five in `update` and its helpers in other modules, one in a hand-written
//! `Default`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct shop holds the expected value
//!   and the shop with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_bikes::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer, the hit rule of issue 31.
//!   Written before the set's first scored run. On that first run (before any change made for the set) four of
//!   twelve were hits and two more were named past the 400 characters; the tests of the cases missed are ignored with
//!   what the answer quoted instead (`cargo test -p ranvier-tests --test main -- blind_bikes::explain --include-ignored` runs
//!   them all). Since session 16 an earlier cutoff of a source the explained node reads, when the node has not moved
//!   since, comes first: `km_left_swap` is a hit.

use crate::examples::blind_bikes as blind;
use crate::examples::values;

crate::examples::blind_harness!("shop");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "rules.rs",
        "pricing.rs",
        "graph.rs",
        "fleet.rs",
        "services.rs"
    ],
    at_least = 4
);

values!(
    values_kids_rate => "kids_rate",
    values_service_after => "service_after",
    values_day_cap => "day_cap",
    values_late_blocks => "late_blocks",
    values_extend_hours => "extend_hours",
    values_least_worn => "least_worn",
    values_late_shadow => "late_shadow",
    values_rent_damaged => "rent_damaged",
    values_km_left_swap => "km_left_swap",
    values_km_today_field => "km_today_field",
    values_member_half => "member_half",
    values_rain_hour => "rain_hour",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        // missed on first run (quoted the takings select, then return_bike's service and late-fee lines
        // (rules.rs:10-18,
        // pricing.rs:39-40) and the Charge arm, not the hand-written `Default` of model.rs's price list); a hit since
        // a constant set only by a hand-written `Default` is quoted where an `update` read it (221 characters)
        explain_kids_rate => "kids_rate",
        #[ignore = "missed on first run: quoted the available memo's body (graph.rs:178-187), rules.rs's service_km arms and \
                    return_bike's late-fee lines, not the `let` in update.rs that reads needs_service before the km are added"]
        explain_service_after => "service_after",
        #[ignore = "missed on first run: quoted the takings select, rules.rs's service lines, late_fee's grace check \
                    (pricing.rs:39-40) and the Charge, Notify and ToService arms, not the `max` of ride_charge"]
        explain_day_cap => "day_cap",
        // missed on first run (quoted the takings select, rules.rs's service lines and late_fee's grace check,
        // pricing.rs:68-69, not the line that counts the quarter hours); since session 14 a hit: the helpers whose
        // values flow into the charge come first, each by its tail and the `let` the tail reads
        explain_late_blocks => "late_blocks",
        #[ignore = "missed on first run: named at 787 characters, after the overdue memo's body (graph.rs:203-218) and the \
                    advance arm (832 after session 14)"]
        explain_extend_hours => "extend_hours",
        explain_least_worn => "least_worn",
        explain_late_shadow => "late_shadow",
        // missed on first run (quoted the count_by view and the row's write, then can_rent's `return Err` and
        // `Ok(())`,
        // rules.rs:47, 49, not its `if` that tests only the state `Out`); named since session 14, within 400 since
        // session 15: a kept value with nothing to quote and a helper's value that only wraps its arguments are left
        // out of the short form
        explain_rent_damaged => "rent_damaged",
        // missed on first run (named at 963 characters, in an earlier cutoff of the row memo, after the next_service
        // memo's loop (fleet.rs:114-131) and return_bike's rules and pricing lines); a hit since session 16
        explain_km_left_swap => "km_left_swap",
        explain_km_today_field => "km_today_field",
        explain_member_half => "member_half",
        #[ignore = "missed on first run: answered with the flight still pending and quoted the future's other lines \
                    (services.rs:169-179) and the rent arm, not the line that picks the hours to read; since \
                    session 14 explain waits for the flight and quotes the settled future, still not that line"]
        explain_rain_hour => "rain_hour",
    );
}
