use ranvier::{Signal, expose};

#[expose]
struct App {
    #[expose(redact = "yes")]
    pin: Signal<i64>,
}

fn main() {}
