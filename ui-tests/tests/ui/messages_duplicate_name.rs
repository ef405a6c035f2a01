use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    Add,
    #[message(rename = "add")]
    AddAgain,
}

fn main() {}
