use ranvier::{Memo, Signal, node};

struct Builder;

impl Builder {
    #[node]
    fn build(&self) -> Memo<i32> {
        let base = Signal::new(1);
        let doubled = Memo::new(move |_| base.get() * 2);
        doubled
    }
}

#[node]
fn build(n: i32) -> (Signal<i32>, i32) {
    let text = "12";
    let parsed: i32 = text.parse().unwrap();
    let r = &parsed;
    let closure = |x: i32| x + 1;
    let signal = Signal::new(closure(*r) + n);
    let (a, b) = (1, 2);
    (signal, a + b)
}

pub fn run() {
    let (signal, sum) = build(1);
    assert_eq!((signal.get(), sum), (14, 3));
    assert_eq!(Builder.build().get(), 2);
}
