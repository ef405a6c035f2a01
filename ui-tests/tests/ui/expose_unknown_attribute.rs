use ranvier::{Signal, expose};

#[expose]
struct App {
    #[expose(nmae = "total")]
    total: Signal<i64>,
}

fn main() {}
