//! The reactive core end to end: signals, a memo with a cutoff, effects, a batch, and an Mvu.
//!
//! Run it with `cargo run --example counter`.

use ranvier::{Effect, Memo, Mvu, Signal, batch};

#[derive(Debug)]
enum Msg {
    Increment,
    Add(i64),
    Reset,
}

fn main() {
    // Signals hold what the program writes; memos derive from them; effects react.
    let count = Signal::new(0_i64).labelled("count");
    let step = Signal::new(1_i64).labelled("step");
    let next = Memo::new({
        let (count, step) = (count.clone(), step.clone());
        move |_| count.get() + step.get()
    })
    .labelled("next");
    // A memo that cuts off: it only changes when the count crosses a multiple of ten.
    let decade = Memo::new({
        let count = count.clone();
        move |_| count.get() / 10
    })
    .labelled("decade");

    let _show = Effect::new({
        let (count, next) = (count.clone(), next.clone());
        move || println!("effect saw: count = {}, next = {}", count.get(), next.get())
    });
    let _decades = Effect::new({
        let decade = decade.clone();
        move || println!("effect saw: decade {}", decade.get())
    });

    println!("-- count.set(5): both legs of `next` move together, the decade stays 0");
    count.set(5);
    println!("-- count.set(5) again: an equal write does nothing");
    count.set(5);
    println!("-- a batch of two writes: the effect runs once, at the end");
    batch(|| {
        count.set(12);
        step.set(3);
    });
    println!(
        "memo `next` ran {} times; memo `decade` ran {} times",
        next.runs(),
        decade.runs()
    );

    // An Mvu: the model changes only through messages, and `select` wakes readers only when its part changes.
    let counter = Mvu::new(0_i64, |msg, n| match msg {
        Msg::Increment => n + 1,
        Msg::Add(k) => n + k,
        Msg::Reset => 0,
    });
    let parity = counter.select(|n| if n % 2 == 0 { "even" } else { "odd" });
    let _parity = Effect::new({
        let parity = parity.clone();
        move || println!("effect saw: the counter is {}", parity.get())
    });
    for msg in [Msg::Increment, Msg::Add(2), Msg::Add(2), Msg::Reset] {
        println!("-- dispatch {msg:?}");
        counter.dispatch(msg).expect("update does not panic");
    }
    println!("final model: {}", counter.peek_model());
}
