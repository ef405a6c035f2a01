use ranvier::Messages;

#[derive(Messages)]
#[message(rename_all = "camel")]
enum Msg {
    #[message(rename = "a/b", skip, skip)]
    One,
    Two(u8, u8),
    Three {
        #[message(rename = "x")]
        a: i64,
        #[message(rename = "x")]
        b: i64,
    },
}

fn main() {}
