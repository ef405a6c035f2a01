use ranvier::Messages;

#[derive(Messages)]
#[message(rename_al = "camelCase")]
enum Msg {
    #[message(renam = "add")]
    Add {
        #[message(rnage(min = 1))]
        amount: i64,
    },
}

fn main() {}
