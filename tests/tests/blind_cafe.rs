//! The blind café (`examples/examples/blind_cafe.rs`): a café bill app with fifteen ordinary mistakes, written by
//! someone who had not read how `explain` diagnoses. For each mistake `explain` names, one call over MCP names the
//! faulty `file:line` within the first 600 characters after the node line. Its `merge_sent` mistake (an inverted
//! condition in a `find` deep inside a thirty-line `update` arm) is not named: the report says so, and no test
//! pretends it is.

#[cfg(any(debug_assertions, feature = "trace"))]
use crate::examples::blind_cafe as blind;

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
        clock_units => "clock_units",
        happy_food => "happy_food",
        happy_percent => "happy_percent",
        service_round => "service_round",
        tip_once => "tip_once",
        credit_added => "credit_added",
        split_remainder => "split_remainder",
        guests_peek => "guests_peek",
        seat_guests => "seat_guests",
        comp_void => "comp_void",
        kitchen_order => "kitchen_order",
        stock_twice => "stock_twice",
        stamps_filter => "stamps_filter",
        receipt_subtotal => "receipt_subtotal",
    );
}
