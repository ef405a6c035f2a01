//! ranvier's behaviour tests, across layers and through real clients: one test binary per profile, so each profile
//! links once. Each module is one area (the old one-file-per-binary layout, kept file for file); the helpers they
//! share live in `client`, `http_client`, `tool_text` and `cart_binary`, and the example apps they drive are compiled
//! once, in `examples`.
//!
//! Run one area with `cargo test -p ranvier-tests --test main approval::`. A new area is a new module declared here
//! (the `every_test_file_is_a_module` test below fails when a file in this folder is not).

#[allow(dead_code)]
mod examples;

mod cart_binary;
mod client;
mod http_client;
mod layout;
mod tool_text;

mod approval;
mod blind_allotments;
mod blind_auction;
mod blind_bakery;
mod blind_bikes;
mod blind_bookshop;
mod blind_brewery;
mod blind_cafe;
mod blind_campsite;
mod blind_caterer;
mod blind_cinema;
mod blind_clinic;
mod blind_coach;
mod blind_dental;
mod blind_depot;
mod blind_driving;
mod blind_ferry;
mod blind_florist;
mod blind_foodbank;
mod blind_garage;
mod blind_greenhouse;
mod blind_gym;
mod blind_harbor;
mod blind_hotel;
mod blind_kennels;
mod blind_laundry;
mod blind_league;
mod blind_library;
mod blind_loans;
mod blind_music;
mod blind_orchard;
mod blind_payroll;
mod blind_pharmacy;
mod blind_pool;
mod blind_printshop;
mod blind_removals;
mod blind_rental;
mod blind_roastery;
mod blind_salon;
mod blind_school;
mod blind_skipass;
mod blind_skiphire;
mod blind_storage;
mod blind_theatre;
mod blind_till;
mod blind_vet;
mod conformance;
mod errors;
mod exposure;
mod forks;
mod gallery;
mod history;
mod host;
mod hostile_input;
mod http_load;
mod http_transport;
mod limits;
mod live_page;
mod macros;
mod mcp_adapter;
mod mcp_async;
mod mcp_kinds;
mod mcp_traced;
mod names_without_sources;
mod redaction;
mod trace;

/// A file here that is not declared above would never be compiled, and its tests would silently not run.
#[test]
fn every_test_file_is_a_module() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let missing = layout::undeclared_modules(&here, include_str!("main.rs"));
    assert!(
        missing.is_empty(),
        "declare these in tests/tests/main.rs: {missing:?}"
    );
}

/// A blind set's own binary is built only with the `blind` feature, because this binary compiles the set as a module
/// (`examples/mod.rs`): a set missing from either place would be built twice by `cargo test`, or not at all.
#[test]
fn every_blind_set_is_a_module_here_and_a_blind_feature_example() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let manifest =
        std::fs::read_to_string(examples.join("Cargo.toml")).expect("examples/Cargo.toml");
    let modules = include_str!("examples/mod.rs");
    let mut sets: Vec<String> = std::fs::read_dir(examples.join("examples"))
        .expect("examples/examples")
        .map(|entry| {
            entry
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with("blind_"))
        .map(|name| name.trim_end_matches(".rs").to_owned())
        .collect();
    sets.sort();
    assert!(!sets.is_empty(), "no blind set found in examples/examples");
    for set in &sets {
        let entry = format!("[[example]]\nname = \"{set}\"\nrequired-features = [\"blind\"]\n");
        assert!(
            manifest.contains(&entry),
            "examples/Cargo.toml needs:\n{entry}"
        );
        assert!(
            modules.contains(&format!("pub mod {set};")),
            "tests/tests/examples/mod.rs does not compile {set}"
        );
    }
}
