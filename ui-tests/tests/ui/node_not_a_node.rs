use ranvier::{Signal, expose};

#[expose]
struct App {
    #[node]
    count: u32,
    #[node]
    ok: Signal<u32>,
}

fn main() {}
