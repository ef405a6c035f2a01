use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    #[message(rename = "add item")]
    Add,
}

fn main() {}
