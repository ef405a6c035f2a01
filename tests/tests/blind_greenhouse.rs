//! The blind greenhouse controller (`examples/examples/blind_greenhouse/`): a greenhouse's controller split over nine
//! files, with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async
//! memos' futures, three in a keyed collection's row memo and its `filter` and `sort_by` views, two in `update`'s
//! helpers, two in rule modules called from `update`, one in a method of a model type, two in long memos). Two
//! halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct greenhouse holds the expected
//!   value and the greenhouse with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_greenhouse::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run; the explain tests its first run (and session 20's rules after it)
//! did not pass are ignored, each saying what the answer quoted.

use crate::examples::blind_greenhouse as blind;
use crate::examples::values;

crate::examples::blind_harness!("greenhouse");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "climate.rs",
        "irrigation.rs",
        "graph.rs",
        "zones.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_acknowledged_paged => "acknowledged_paged",
    values_escalate_in_place => "escalate_in_place",
    values_schedule_swapped => "schedule_swapped",
    values_lettuce_cold => "lettuce_cold",
    values_run_at_end => "run_at_end",
    values_dry_points => "dry_points",
    values_thirsty_inverted => "thirsty_inverted",
    values_board_alarms_last => "board_alarms_last",
    values_harvest_total => "harvest_total",
    values_plan_humidity => "plan_humidity",
    values_shoulder_free => "shoulder_free",
    values_frost_tenths => "frost_tenths",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        #[ignore = "first run: not named; quoted the `advance` arm calling `(rules.on_advance)(..)`; named since fns held in a field are followed to the fns put there, but at 447 (the correct `overdue` after the slipped one)"]
        explain_acknowledged_paged => "acknowledged_paged",
        // missed on first run (quoted the `advance` arm); a hit since a reached helper's write to a field the message
        // changed is quoted first (`alarm.escalated = true;`, 349 characters)
        explain_escalate_in_place => "escalate_in_place",
        #[ignore = "first run: not named; quoted the `schedule` arm; named since (the push its slipped fn made, a write to a field the message changed) but at 874"]
        explain_schedule_swapped => "schedule_swapped",
        #[ignore = "first run: not named; quoted the `reading` arm and `on_reading`'s lines, not the slipped `band` rule the field holds (called two helpers deep)"]
        explain_lettuce_cold => "lettuce_cold",
        #[ignore = "first run: not named; quoted the `advance` arm; now its fns are followed, but the `overdue` lines are picked, not the slipped `due_runs` filter"]
        explain_run_at_end => "run_at_end",
        #[ignore = "first run: not named; quoted the row memo's last `format!`, not the `let short` inside the `if` that made the text's `points dry`"]
        explain_dry_points => "dry_points",
        explain_thirsty_inverted => "thirsty_inverted",
        explain_board_alarms_last => "board_alarms_last",
        explain_harvest_total => "harvest_total",
        // missed on first run (quoted the memo's sort and pushes); a hit since a text made in a match arm brings the
        // let its match matched on (236 characters)
        explain_plan_humidity => "plan_humidity",
        explain_shoulder_free => "shoulder_free",
        #[ignore = "first run: named at 696 (after the future's request lines); still 696"]
        explain_frost_tenths => "frost_tenths",
    );
}
