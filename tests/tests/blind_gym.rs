//! The blind gym timetable (`examples/examples/blind_gym/`): a gym's class timetable split over nine files, with
//! twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, two in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers, two in booking
//! rules and one in a charge helper of other modules, one in a hand-written `Default`, two in long memos). Two
//! halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct gym holds the expected value
//!   and the gym with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_gym::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer, the hit rule of issue 31.
//!   Written before the set's first scored run, which is not yet made.

use crate::examples::blind_gym as blind;
use crate::examples::values;

crate::examples::blind_harness!("gym");

/// Every mistake has one marker, in a file of the gym other than `main.rs`, and a case; every key and every slip is
/// distinct, and the mistakes sit in at least five files.
#[test]
fn values_every_mistake_has_its_line_and_case() {
    let mut keys: Vec<&str> = blind::SLIPS.iter().map(|s| s.0).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), blind::SLIPS.len(), "a key listed twice");
    let mut files = Vec::new();
    for (at, &(key, _, slip)) in blind::SLIPS.iter().enumerate() {
        assert!(
            blind::SLIPS[..at].iter().all(|s| s.2 != slip),
            "{key}: its slip {slip:?} is another key's"
        );
        assert_ne!(slip, blind::graph::Slip::None, "{key}: no slip");
        let faulty = blind::bug(key);
        let (file, line) = faulty.split_once(':').expect("file:line");
        assert!(
            [
                "model.rs",
                "update.rs",
                "booking.rs",
                "billing.rs",
                "graph.rs",
                "timetable.rs",
                "services.rs"
            ]
            .contains(&file),
            "{key}: {faulty}"
        );
        assert!(line.parse::<usize>().is_ok_and(|n| n > 1), "{faulty}");
        files.push(file.to_owned());
        let (_, messages) = blind::case(key);
        assert!(
            messages.as_array().is_some_and(|m| !m.is_empty()),
            "{key}: no messages"
        );
    }
    files.sort_unstable();
    files.dedup();
    assert!(files.len() >= 5, "the mistakes sit in {files:?}");
}

values!(
    values_fees_window => "fees_window",
    values_book_capacity => "book_capacity",
    values_cancel_no_promote => "cancel_no_promote",
    values_check_in_window => "check_in_window",
    values_next_in_line => "next_in_line",
    values_close_waitlisted => "close_waitlisted",
    values_coach_hours_overwrite => "coach_hours_overwrite",
    values_upcoming_day => "upcoming_day",
    values_fill_percent => "fill_percent",
    values_timetable_order => "timetable_order",
    values_outdoor_today => "outdoor_today",
    values_payroll_no_rate => "payroll_no_rate",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_fees_window => "fees_window",
        explain_book_capacity => "book_capacity",
        explain_cancel_no_promote => "cancel_no_promote",
        explain_check_in_window => "check_in_window",
        explain_next_in_line => "next_in_line",
        explain_close_waitlisted => "close_waitlisted",
        explain_coach_hours_overwrite => "coach_hours_overwrite",
        explain_upcoming_day => "upcoming_day",
        explain_fill_percent => "fill_percent",
        explain_timetable_order => "timetable_order",
        explain_outdoor_today => "outdoor_today",
        explain_payroll_no_rate => "payroll_no_rate",
    );
}
