use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    Login {
        #[message(redact, redact = false)]
        pin: u32,
    },
}

fn main() {}
