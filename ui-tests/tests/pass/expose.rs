use ranvier::{Effect, Expose, Memo, Messages, Mvu, Signal, expose};

#[derive(Debug, Messages)]
enum Msg {
    Add { amount: i64 },
}

#[expose]
struct App {
    #[expose(messages, value)]
    counter: Mvu<i64, Msg>,
    #[expose(name = "count.doubled")]
    #[node]
    doubled: Memo<i64>,
    #[expose]
    step: Signal<i64>,
    #[node]
    logger: Effect,
    plain: String,
}

#[expose]
struct Nothing {}

fn assert_expose<T: Expose>() {}

pub fn run() {
    assert_expose::<App>();
    assert_expose::<Nothing>();
    let _ = |app: App| app.plain;
}
