//! The blind laundry (`examples/examples/blind_laundry/`): a laundry's day split over nine files, with twelve
//! ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, two
//! in a keyed collection's row memo and its `filter` view, three in `update`'s helpers, two in the floor's and the
//! price list's rules called from `update`, one in a model method's match, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct laundry holds the expected
//!   value and the laundry with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_laundry::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run; the explain tests its first run did not pass are ignored, each
//! saying what the answer quoted.

use crate::examples::blind_laundry as blind;
use crate::examples::values;

crate::examples::blind_harness!("laundry");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "machines.rs",
        "graph.rs",
        "floor.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_fits_full_drum => "fits_full_drum",
    values_dry_per_kilo => "dry_per_kilo",
    values_load_swapped => "load_swapped",
    values_fault_ignored => "fault_ignored",
    values_finish_no_fill => "finish_no_fill",
    values_full_skips_iron => "full_skips_iron",
    values_takings_quoted => "takings_quoted",
    values_cards_spent_overwrite => "cards_spent_overwrite",
    values_minutes_left => "minutes_left",
    values_free_inverted => "free_inverted",
    values_courier_after_now => "courier_after_now",
    values_loyalty_not_member => "loyalty_not_member",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        #[ignore = "first run: not named; the answer quoted floor.rs:44, floor.rs:43, floor.rs:37, floor.rs:68"]
        explain_fits_full_drum => "fits_full_drum",
        #[ignore = "first run: not named; the answer quoted graph.rs:228, update.rs:58, update.rs:61, update.rs:74"]
        explain_dry_per_kilo => "dry_per_kilo",
        #[ignore = "first run: named at 1483, past 400; at 772 since a call giving two arguments by each other's \
                    parameter names is quoted (in one of the fns a field holds, so its message is not put first)"]
        explain_load_swapped => "load_swapped",
        #[ignore = "first run: not named; the answer quoted floor.rs:44, floor.rs:43, floor.rs:37, floor.rs:68"]
        explain_fault_ignored => "fault_ignored",
        #[ignore = "first run: not named; the answer quoted floor.rs:44, floor.rs:43, floor.rs:37, floor.rs:68; named \
                    since session 31 at 1360 characters (a command a helper would have sent in a branch that did not run)"]
        explain_finish_no_fill => "finish_no_fill",
        #[ignore = "first run: not named; the answer quoted update.rs:89, update.rs:90, update.rs:147, update.rs:244"]
        explain_full_skips_iron => "full_skips_iron",
        explain_takings_quoted => "takings_quoted",
        explain_cards_spent_overwrite => "cards_spent_overwrite",
        #[ignore = "first run: not named; the answer quoted floor.rs:89, floor.rs:97, floor.rs:103, floor.rs:68"]
        explain_minutes_left => "minutes_left",
        explain_free_inverted => "free_inverted",
        explain_courier_after_now => "courier_after_now",
        explain_loyalty_not_member => "loyalty_not_member",
    );
}
