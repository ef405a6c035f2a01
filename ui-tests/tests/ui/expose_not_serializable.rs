use ranvier::{Signal, expose};

#[derive(Clone, Debug, PartialEq)]
struct Secret(u8);

#[expose]
struct App {
    #[expose]
    secret: Signal<Secret>,
}

fn main() {}
