use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    Rename {
        #[message(range(min = 1))]
        name: String,
    },
}

fn main() {}
