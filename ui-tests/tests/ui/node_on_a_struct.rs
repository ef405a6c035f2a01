use ranvier::node;

#[node]
struct Builder {
    count: u32,
}

#[node(name = "x")]
fn build() {}

fn main() {}
