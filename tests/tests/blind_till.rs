//! The blind till (`examples/examples/blind_till.rs`): a shop till with ordinary mistakes written by someone who had
//! not read how `explain` diagnoses. For each mistake `explain` names, one call over MCP names the faulty `file:line`
//! within the first 600 characters after the node line. The till's `multiplier_default` mistake (a wrong value in a
//! `Default` impl reached through a function pointer) is not named: the report says so, and no test pretends it is.

#[cfg(any(debug_assertions, feature = "trace"))]
use crate::examples::blind_till as blind;

#[cfg(any(debug_assertions, feature = "trace"))]
mod traced {
    use super::blind;

    async fn check(name: &str) {
        let shape = blind::shapes()
            .into_iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no shape {name}"));
        let outcome = ranvier_examples::harness::run(&shape)
            .await
            .expect("explain answers");
        let position = outcome.position.unwrap_or_else(|| {
            panic!("{name}: {} is not named:\n{}", shape.faulty, outcome.answer)
        });
        assert!(
            position < 600,
            "{name}: {} first appears {position} characters after the node line:\n{}",
            shape.faulty,
            outcome.answer
        );
    }

    macro_rules! shapes {
        ($($test:ident => $name:literal),* $(,)?) => {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    check($name).await;
                }
            )*
        };
    }

    shapes!(
        discount_kept => "discount_kept",
        staff_sets_coupon => "staff_sets_coupon",
        staff_sets_coupon_seen_on_the_coupon => "staff_sets_coupon/coupon",
        void_keeps_only => "void_keeps_only",
        tax_rate_read_once => "tax_rate_read_once",
        change_untracked => "change_untracked",
        display_first => "display_first",
        cash_floor => "cash_floor",
        note_in_euros => "note_in_euros",
        bulk_boundary => "bulk_boundary",
        tax_before_discount => "tax_before_discount",
    );
}
