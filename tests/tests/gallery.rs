//! The defect gallery (`examples/examples/gallery.rs`): for each shape of mistake, one `explain` call over MCP names
//! the faulty `file:line` within the first 600 characters after the node line, and within the first 400 of the
//! answer. Traced builds only (an untraced build lists no `explain`).

#[cfg(any(debug_assertions, feature = "trace"))]
use crate::examples::gallery;

#[cfg(any(debug_assertions, feature = "trace"))]
mod traced {
    use super::gallery;

    /// The first 600 characters after the node line hold the top finding with its `file:line`.
    const WITHIN: usize = 600;
    /// Every hit names the faulty `file:line` within the answer's first 400 characters.
    const FROM_START: usize = 400;

    async fn check(name: &str) {
        let shape = gallery::shapes()
            .into_iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no shape {name}"));
        let outcome = gallery::run(&shape).await.expect("explain answers");
        assert!(
            outcome.named,
            "{name}: {} is not named:\n{}",
            shape.faulty, outcome.answer
        );
        let position = outcome.position.expect("named after the node line");
        let from_start = outcome.from_start.expect("named");
        assert!(
            from_start < FROM_START,
            "{name}: {} first appears {from_start} characters from the answer's start:\n{}",
            shape.faulty,
            outcome.answer
        );
        assert!(
            position < WITHIN,
            "{name}: {} first appears {position} characters after the node line:\n{}",
            shape.faulty,
            outcome.answer
        );
        // the short form quotes each line once (`  file.rs:12: text` or `  at file.rs:12`)
        let mut quoted = std::collections::HashSet::new();
        for line in outcome.answer.lines() {
            let Some(rest) = line.strip_prefix("  ") else {
                continue;
            };
            let rest = rest.strip_prefix("at ").unwrap_or(rest);
            let place: String = rest.split(": ").next().unwrap_or(rest).to_owned();
            assert!(
                quoted.insert(place.clone()),
                "{name}: {place} is quoted twice:\n{}",
                outcome.answer
            );
        }
        assert!(
            outcome.answer.chars().count()
                <= ranvier::mcp::EXPLAIN_MAX_CHARS + ranvier::mcp::STEPS_MAX_CHARS + 1,
            "{name}: too long:\n{}",
            outcome.answer
        );
    }

    macro_rules! shapes {
        ($($name:ident),* $(,)?) => {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    check(stringify!($name)).await;
                }
            )*

            #[test]
            fn every_shape_has_a_test() {
                let tested = [$(stringify!($name)),*];
                let shapes = gallery::shapes();
                for shape in &shapes {
                    assert!(tested.contains(&shape.name), "{} has no test", shape.name);
                }
                assert!(shapes.len() >= 14, "at least 14 shapes, got {}", shapes.len());
            }
        };
    }

    shapes!(
        peek_in_an_effect,
        untrack_in_a_memo,
        an_effect_writes_a_wrong_value,
        a_setup_write,
        a_captured_value,
        a_wrong_row_factory,
        a_comparer_over_a_collection,
        the_wrong_of_two_sources,
        a_select_of_the_wrong_part,
        a_disposed_source,
        a_previous_value_kept,
        peeked_before_a_later_write,
        a_batch_hides_a_value,
        comparer_cuts_off_a_real_change,
        peek_goes_stale,
        nobody_observes_it,
        a_cutoff_upstream,
        parcel_insure_arm,
        parcel_postage_helper,
        parcel_label_written_elsewhere,
        parcel_quote_equality,
        parcel_book_commands,
        a_read_inside_a_future,
        a_failure_turned_into_a_default,
    );
}
