use ranvier::{Messages, Mvu, expose};

#[derive(Debug, Messages)]
enum Msg {
    Clear,
}

#[expose]
struct App {
    #[expose(messages, redact)]
    cart: Mvu<i64, Msg>,
}

fn main() {}
