use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    Set {
        #[message(range(min = 10, max = 1))]
        level: i64,
        #[message(range())]
        other: i64,
    },
}

fn main() {}
