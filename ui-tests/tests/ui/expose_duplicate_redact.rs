use ranvier::{Signal, expose};

#[expose]
struct App {
    #[expose(redact, redact = false)]
    pin: Signal<i64>,
}

fn main() {}
