use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    Login {
        #[message(redact = 1)]
        pin: u32,
    },
}

fn main() {}
