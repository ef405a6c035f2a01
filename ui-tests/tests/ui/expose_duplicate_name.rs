use ranvier::{Signal, expose};

#[expose]
struct App {
    #[expose]
    total: Signal<i64>,
    #[expose(name = "total")]
    other: Signal<i64>,
}

fn main() {}
