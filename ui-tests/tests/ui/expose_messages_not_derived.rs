use ranvier::{Mvu, expose};

#[derive(Debug)]
enum Msg {
    Add,
}

#[expose]
struct App {
    #[expose(messages)]
    count: Mvu<i64, Msg>,
}

fn main() {}
