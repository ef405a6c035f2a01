use ranvier::expose;

#[expose]
enum App {
    One,
}

fn main() {}
