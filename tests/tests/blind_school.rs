//! The blind school gradebook (`examples/examples/blind_school/`): a school's term split over nine files, with twelve
//! ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, two
//! in a keyed collection's row memo and its `filter` view, two in `update`'s helpers, two in marking rules and two in
//! attendance rules of other modules (called from `update`, from a view's memo and from a long memo), two in long
//! memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct school holds the expected
//!   value and the school with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_school::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_school as blind;
use crate::examples::values;

crate::examples::blind_harness!("school");

/// Every mistake has one marker, in a file of the school other than `main.rs`, and a case; every key and every slip
/// is distinct, and the mistakes sit in at least five files.
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
                "marks.rs",
                "attendance.rs",
                "graph.rs",
                "gradebook.rs",
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
    values_late_days_swapped => "late_days_swapped",
    values_band_boundary => "band_boundary",
    values_message_other_forms => "message_other_forms",
    values_correct_no_penalty => "correct_no_penalty",
    values_holiday_excused => "holiday_excused",
    values_days_on_roll => "days_on_roll",
    values_missing_any_work => "missing_any_work",
    values_form_average_all => "form_average_all",
    values_row_average => "row_average",
    values_watch_all_absences => "watch_all_absences",
    values_boundary_unit => "boundary_unit",
    values_letter_read_swapped => "letter_read_swapped",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_late_days_swapped => "late_days_swapped",
        explain_band_boundary => "band_boundary",
        explain_message_other_forms => "message_other_forms",
        explain_correct_no_penalty => "correct_no_penalty",
        explain_holiday_excused => "holiday_excused",
        explain_days_on_roll => "days_on_roll",
        explain_missing_any_work => "missing_any_work",
        explain_form_average_all => "form_average_all",
        explain_row_average => "row_average",
        explain_watch_all_absences => "watch_all_absences",
        explain_boundary_unit => "boundary_unit",
        explain_letter_read_swapped => "letter_read_swapped",
    );
}
