//! The example apps the tests drive, each compiled once for the whole binary (their `main`s go unused).
//!
//! A standalone example includes the files of the examples it builds on (`gallery.rs` has `defects.rs`), so those files
//! are compiled again inside them here: clippy's `duplicate_mod` is allowed for that. The harness the gallery and the
//! blind sets share is the `ranvier_examples` library, compiled once.
#![allow(clippy::duplicate_mod)]

#[path = "../../../examples/examples/blind_allotments/main.rs"]
pub mod blind_allotments;
#[path = "../../../examples/examples/blind_auction/main.rs"]
pub mod blind_auction;
#[path = "../../../examples/examples/blind_bakery/main.rs"]
pub mod blind_bakery;
#[path = "../../../examples/examples/blind_bikes/main.rs"]
pub mod blind_bikes;
#[path = "../../../examples/examples/blind_bookshop/main.rs"]
pub mod blind_bookshop;
#[path = "../../../examples/examples/blind_brewery/main.rs"]
pub mod blind_brewery;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/blind_cafe.rs"]
pub mod blind_cafe;
#[path = "../../../examples/examples/blind_campsite/main.rs"]
pub mod blind_campsite;
#[path = "../../../examples/examples/blind_caterer/main.rs"]
pub mod blind_caterer;
#[path = "../../../examples/examples/blind_cinema/main.rs"]
pub mod blind_cinema;
#[path = "../../../examples/examples/blind_clinic/main.rs"]
pub mod blind_clinic;
#[path = "../../../examples/examples/blind_coach/main.rs"]
pub mod blind_coach;
#[path = "../../../examples/examples/blind_dental/main.rs"]
pub mod blind_dental;
#[path = "../../../examples/examples/blind_depot/main.rs"]
pub mod blind_depot;
#[path = "../../../examples/examples/blind_driving/main.rs"]
pub mod blind_driving;
#[path = "../../../examples/examples/blind_ferry/main.rs"]
pub mod blind_ferry;
#[path = "../../../examples/examples/blind_florist/main.rs"]
pub mod blind_florist;
#[path = "../../../examples/examples/blind_foodbank/main.rs"]
pub mod blind_foodbank;
#[path = "../../../examples/examples/blind_garage/main.rs"]
pub mod blind_garage;
#[path = "../../../examples/examples/blind_greenhouse/main.rs"]
pub mod blind_greenhouse;
#[path = "../../../examples/examples/blind_gym/main.rs"]
pub mod blind_gym;
#[path = "../../../examples/examples/blind_harbor/main.rs"]
pub mod blind_harbor;
#[path = "../../../examples/examples/blind_hotel/main.rs"]
pub mod blind_hotel;
#[path = "../../../examples/examples/blind_kennels/main.rs"]
pub mod blind_kennels;
#[path = "../../../examples/examples/blind_laundry/main.rs"]
pub mod blind_laundry;
#[path = "../../../examples/examples/blind_league/main.rs"]
pub mod blind_league;
#[path = "../../../examples/examples/blind_library/main.rs"]
pub mod blind_library;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/blind_loans/main.rs"]
pub mod blind_loans;
#[path = "../../../examples/examples/blind_music/main.rs"]
pub mod blind_music;
#[path = "../../../examples/examples/blind_orchard/main.rs"]
pub mod blind_orchard;
#[path = "../../../examples/examples/blind_payroll/main.rs"]
pub mod blind_payroll;
#[path = "../../../examples/examples/blind_pharmacy/main.rs"]
pub mod blind_pharmacy;
#[path = "../../../examples/examples/blind_pool/main.rs"]
pub mod blind_pool;
#[path = "../../../examples/examples/blind_printshop/main.rs"]
pub mod blind_printshop;
#[path = "../../../examples/examples/blind_removals/main.rs"]
pub mod blind_removals;
#[path = "../../../examples/examples/blind_rental/main.rs"]
pub mod blind_rental;
#[path = "../../../examples/examples/blind_roastery/main.rs"]
pub mod blind_roastery;
#[path = "../../../examples/examples/blind_salon/main.rs"]
pub mod blind_salon;
#[path = "../../../examples/examples/blind_school/main.rs"]
pub mod blind_school;
#[path = "../../../examples/examples/blind_skipass/main.rs"]
pub mod blind_skipass;
#[path = "../../../examples/examples/blind_skiphire/main.rs"]
pub mod blind_skiphire;
#[path = "../../../examples/examples/blind_storage/main.rs"]
pub mod blind_storage;
#[path = "../../../examples/examples/blind_theatre/main.rs"]
pub mod blind_theatre;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/blind_till.rs"]
pub mod blind_till;
#[path = "../../../examples/examples/blind_vet/main.rs"]
pub mod blind_vet;
#[path = "../../../examples/examples/cart.rs"]
pub mod cart;
#[path = "../../../examples/examples/defects.rs"]
pub mod defects;
#[cfg(any(debug_assertions, feature = "trace"))]
#[path = "../../../examples/examples/gallery.rs"]
pub mod gallery;
#[path = "../../../examples/examples/shipping.rs"]
pub mod shipping;

/// What the tests of every multi-file blind set share, in a module that imports its app `as blind`: `shows(key)`,
/// which runs a mistake's case in the correct app (it must hold the expected value) and in the app with the mistake
/// (it must not), and in traced builds `check(key)`, the hit rule (one `explain` names the faulty `file:line` within
/// the first 400 characters). [`values!`] and [`explains!`] write a test of each per mistake.
macro_rules! blind_harness {
    ($app:literal) => {
        /// Runs `key`'s messages in the correct app and in the app with the mistake: the first must hold the
        /// expected value, the second must not.
        async fn shows(key: &str) {
            let (node, messages) = blind::case(key);
            let slip = blind::SLIPS
                .iter()
                .find(|s| s.0 == key)
                .map(|s| s.2)
                .unwrap_or_else(|| panic!("no mistake {key}"));
            let expected = blind::expected(key);
            let correct = blind::settled_value(blind::graph::Slip::None, node, &messages)
                .await
                .unwrap_or_else(|e| panic!("{key}: the correct {}: {e}", $app));
            assert_eq!(correct, expected, "{key}: the correct {}'s {node}", $app);
            let slipped = blind::settled_value(slip, node, &messages)
                .await
                .unwrap_or_else(|e| panic!("{key}: the {} with the mistake: {e}", $app));
            assert_ne!(slipped, expected, "{key}: {node} does not show the mistake");
        }

        /// The hit rule: the faulty `file:line` within the first 400 characters of the answer.
        #[cfg(any(debug_assertions, feature = "trace"))]
        const WITHIN: usize = 400;

        #[cfg(any(debug_assertions, feature = "trace"))]
        async fn check(name: &str) {
            let shape = blind::shapes()
                .into_iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("no shape {name}"));
            let outcome = ranvier_examples::harness::run(&shape)
                .await
                .expect("explain answers");
            let position = outcome.from_start.unwrap_or_else(|| {
                panic!("{name}: {} is not named:\n{}", shape.faulty, outcome.answer)
            });
            assert!(
                position < WITHIN,
                "{name}: {} first appears {position} characters into the answer:\n{}",
                shape.faulty,
                outcome.answer
            );
        }
    };
}
pub(crate) use blind_harness;

/// The test that a multi-file blind set is well made, in a module that imports its app `as blind`:
/// `markers!(["model.rs", ..], at_least = 5)` writes `values_every_mistake_has_its_line_and_case`, which checks that
/// every mistake has one marker in one of those files (never `main.rs`: its doc names the keys), a line after it and a
/// case with messages; that every key and every slip is distinct and none is `Slip::None`; and that the mistakes sit in
/// at least `at_least` of the files.
macro_rules! markers {
    ([$($file:literal),+ $(,)?], at_least = $n:literal) => {
        /// Every mistake has one marker, in a file of the app other than `main.rs`, and a case; every key and every
        /// slip is distinct, and the mistakes sit in at least as many files as the set asks for.
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
                assert!([$($file),+].contains(&file), "{key}: {faulty}");
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
            assert!(files.len() >= $n, "the mistakes sit in {files:?}");
        }
    };
}
pub(crate) use markers;

/// A test per mistake that its case shows it (`shows`, from [`blind_harness!`]): `values!(test => "key", ..)`.
macro_rules! values {
    ($($test:ident => $key:literal),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                shows($key).await;
            }
        )*
    };
}
pub(crate) use values;

/// A test per mistake of the hit rule (`check`, from [`blind_harness!`], in the parent module), attributes such as
/// `#[ignore]` kept: `explains!(#[ignore = ".."] test => "key", ..)`.
#[cfg(any(debug_assertions, feature = "trace"))]
macro_rules! explains {
    ($($(#[$attr:meta])* $test:ident => $key:literal),* $(,)?) => {
        $(
            $(#[$attr])*
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                super::check($key).await;
            }
        )*
    };
}
#[cfg(any(debug_assertions, feature = "trace"))]
pub(crate) use explains;
