use ranvier::{Signal, expose};

#[expose]
struct App {
    #[expose(messages)]
    count: Signal<i64>,
}

fn main() {}
