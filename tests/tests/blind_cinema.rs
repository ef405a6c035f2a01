//! The blind cinema box office (`examples/examples/blind_cinema/`): a box office split over eight files, with thirteen
//! ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, two
//! in a keyed collection's row memo and a `filter` view, three in `update`'s helpers, two in price helpers and one in
//! a rule of other modules, one in a hand-written `PartialEq`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct box office holds the expected
//!   value and the box office with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_cinema::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer, the hit rule of issue 31.
//!   Written before the set's first scored run. On that first run (before any change made for the set) four of
//!   thirteen were hits (`board_sort`, `band_order`, `nearly_full_edge`, `cert_string`, the last at 398 characters),
//!   two more were named past the 400 characters (`last_seats` at 551, `close_stale` at 680), and the median answer
//!   was 975 characters; the tests of the cases missed are ignored with what the answer quoted instead (`cargo test -p
//!   ranvier-tests --test main -- blind_cinema::explain --include-ignored` runs them all). After the classes it showed
//!   were mended (a select upstream kept by a hand-written `eq`, a `Debug` text cut short compared by what both
//!   texts hold, a future quoted by the lines that compare or choose nearest its end, a branch quoted with the
//!   `break` it left by, a short row memo without the arm its run did not take) seven of thirteen are hits
//!   (`showing_eq`, `sold_out_break`, `best_pick` added) and ten are named: those three tests are no longer ignored.
//!   Then a helper called through a fn value and quoted by its value when its writes did not run: `member_discount`
//!   is a hit too (eight of thirteen; twelve named, `exchange_order` at 562 characters). Then an `update` that sent
//!   commands quoted by the early `return` of a branch that ran, also one over several lines: `cancel_refund` is a hit
//!   (nine of thirteen; all thirteen named). Then an earlier cutoff of a source the explained node reads, when the
//!   node has not moved since, comes first: `occupancy_order` is a hit (ten of thirteen). Then an `update`'s `let`
//!   that reads a field the line just above it assigned is quoted first: `exchange_order` is a hit (eleven). In
//!   session 17 a rule that led an update's lines with a `let` copying a field the lines below it then assign, and
//!   ranked that message first, made `close_stale` a hit; it also led two unseen sets' answers with a correct id
//!   counter (`let id = next.next_id;` then `next.next_id += 1;`), so it was dropped: `close_stale` is named at 590.

use crate::examples::blind_cinema as blind;
use crate::examples::values;

crate::examples::blind_harness!("box office");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "rules.rs",
        "pricing.rs",
        "graph.rs",
        "seating.rs",
        "services.rs"
    ],
    at_least = 4
);

values!(
    values_showing_eq => "showing_eq",
    values_board_sort => "board_sort",
    values_sold_out_break => "sold_out_break",
    values_last_seats => "last_seats",
    values_band_order => "band_order",
    values_member_discount => "member_discount",
    values_cancel_refund => "cancel_refund",
    values_close_stale => "close_stale",
    values_exchange_order => "exchange_order",
    values_occupancy_order => "occupancy_order",
    values_nearly_full_edge => "nearly_full_edge",
    values_cert_string => "cert_string",
    values_best_pick => "best_pick",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_showing_eq => "showing_eq",
        explain_board_sort => "board_sort",
        explain_sold_out_break => "sold_out_break",
        #[ignore = "missed on first run: named at 551 characters, after the count_by view, the collection's row write and \
                    notify's line (update.rs:67) and seats_left (rules.rs:14)"]
        explain_last_seats => "last_seats",
        explain_band_order => "band_order",
        #[ignore = "a hit on its first run (373 characters); named at 400 since session 30, where an `else` that ran is \
                    quoted by the condition that sent the run there (`} else if start < EVENING { → false`, 27 characters \
                    longer than `} else {`)"]
        explain_member_discount => "member_discount",
        // missed on first run (quoted the takings select, notify's line and refund_for's branches (rules.rs:21-24),
        // then the Charge arm, not the early `return` of the notice in cancel); named since session 16
        explain_cancel_refund => "cancel_refund",
        #[ignore = "missed on first run: named at 680 characters, after the now_showing memo's body (graph.rs:187-207) \
                    and seats_left; a rule that led with the `let` copying the clock before it moved was dropped (a \
                    correct id counter looks the same), so it is named at 590"]
        explain_close_stale => "close_stale",
        // missed on first run (quoted the now_showing memo's body, has_room, notify and the two `if let Some(show)`
        // (update.rs:397, 401), not the `let from` read after the booking's showing was overwritten); a hit since
        // session 16 (389 characters)
        explain_exchange_order => "exchange_order",
        // missed on first run (quoted the fullest memo's reads of the row memos, the slipped factory's keyed line and
        // the row memo's `if show.seats == 0` arm (seating.rs:151-152), not the division line under it); a hit since
        // session 16
        explain_occupancy_order => "occupancy_order",
        explain_nearly_full_edge => "nearly_full_edge",
        explain_cert_string => "cert_string",
        explain_best_pick => "best_pick",
    );
}
