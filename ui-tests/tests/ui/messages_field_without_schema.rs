use ranvier::Messages;

struct Opaque;

#[derive(Messages)]
enum Msg {
    Set { value: Opaque },
}

fn main() {}
