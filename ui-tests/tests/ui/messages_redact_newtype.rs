use ranvier::Messages;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Credentials {
    user: String,
    password: String,
}

#[derive(Messages)]
enum Msg {
    Login(#[message(redact)] Credentials),
}

fn main() {}
