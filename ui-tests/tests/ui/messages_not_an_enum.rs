use ranvier::Messages;

#[derive(Messages)]
struct Msg {
    amount: i64,
}

fn main() {}
