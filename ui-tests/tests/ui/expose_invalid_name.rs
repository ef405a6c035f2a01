use ranvier::{Signal, expose};

#[expose]
struct App {
    #[expose(name = "cart total")]
    total: Signal<i64>,
}

fn main() {}
