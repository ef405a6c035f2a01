use ranvier::Messages;

#[derive(Messages)]
enum Msg {
    #[message(confirm = "Refund {amount} to {customer}?")]
    Refund { amount: i64 },
    #[message(confirm = "Empty the cart ({count} items)?")]
    Clear,
    #[message(skip, confirm = "Tick?")]
    Tick,
    #[message(confirm = "Note {text")]
    Note { text: String },
}

fn main() {}
