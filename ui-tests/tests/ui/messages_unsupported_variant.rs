use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    Move(i32, i32),
    Clear,
}

fn main() {}
