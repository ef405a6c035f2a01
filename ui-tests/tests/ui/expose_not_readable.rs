use ranvier::expose;

#[expose]
struct App {
    #[expose]
    count: u32,
}

fn main() {}
