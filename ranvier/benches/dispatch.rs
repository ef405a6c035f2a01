//! In-process dispatch round trip: another thread → graph thread → published snapshot, in µs, with the cost of a
//! bare cross-thread hop measured beside it in the same run.
//!
//! Run with `cargo bench -p ranvier-rs --bench dispatch` (`RANVIER_BENCH_SAMPLES=N` to change the sample count).

use std::hint::black_box;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use ranvier::Mvu;
use ranvier::exposure::{Exposure, ExposureHandle};
use ranvier::host::{GraphHost, block_on};
use serde_json::{Value, json};

#[derive(Debug)]
enum Msg {
    Add(i64),
}

#[derive(Clone, Debug, PartialEq)]
struct Cart {
    items: i64,
    percent: i64,
}

fn main() {
    let samples: usize = std::env::var("RANVIER_BENCH_SAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let warmup = samples / 10;
    println!(
        "dispatch round trips, {samples} samples each (after {warmup} warm-up), times per round trip"
    );

    // 1. A bare cross-thread hop: a ping to a parked thread and its pong back, over std channels.
    let (ping_tx, ping_rx) = mpsc::channel::<u64>();
    let (pong_tx, pong_rx) = mpsc::channel::<u64>();
    let echo = thread::spawn(move || {
        for n in ping_rx {
            pong_tx.send(n).unwrap();
        }
    });
    report(
        "cross-thread hop (std mpsc ping-pong)",
        measure(samples, warmup, |i| {
            ping_tx.send(i as u64).unwrap();
            black_box(pong_rx.recv().unwrap());
        }),
    );
    drop(ping_tx);
    echo.join().unwrap();

    let host = GraphHost::start(|| exposed_cart(None)).expect("setup");
    let exposure: ExposureHandle = host.invoke(|exposure| exposure.clone()).wait().unwrap();

    // 2. The host's own hop: empty work, sent with `invoke` and waited for.
    report(
        "GraphHost::invoke(no-op).wait()",
        measure(samples, warmup, |_| host.invoke(|_| ()).wait().unwrap()),
    );

    // 3. The full round trip: decode, update, memos, the publishing effect, the snapshot back.
    let args = json!({"amount": 1});
    report(
        "ExposureHandle::dispatch (3 values)",
        measure(samples, warmup, |_| {
            black_box(block_on(exposure.dispatch("add", args.clone())).unwrap());
        }),
    );

    // 4. The same work done on the graph thread, without a hop: what the round trip adds it to.
    report(
        "dispatch on the graph thread (no hop)",
        host.invoke(move |exposure| {
            let exposure = exposure.clone();
            let args = json!({"amount": 1});
            measure(samples, warmup, |_| {
                black_box(block_on(exposure.dispatch("add", args.clone())).unwrap());
            })
        })
        .wait()
        .unwrap(),
    );

    // 5. Publication with and without the history of versions: two carts on one graph thread, dispatched to in
    // turn so that both see the same machine.
    let (with, without) = host
        .invoke(move |_| {
            let with = exposed_cart(None).expect("the cart with history");
            let without = exposed_cart(Some(0)).expect("the cart without");
            let args = json!({"amount": 1});
            let (mut a, mut b) = (Vec::with_capacity(samples), Vec::with_capacity(samples));
            for i in 0..samples + warmup {
                let start = Instant::now();
                black_box(block_on(with.dispatch("add", args.clone())).unwrap());
                let middle = Instant::now();
                black_box(block_on(without.dispatch("add", args.clone())).unwrap());
                if i >= warmup {
                    a.push(middle - start);
                    b.push(middle.elapsed());
                }
            }
            (a, b)
        })
        .wait()
        .unwrap();
    let median = |times: &mut Vec<Duration>| {
        times.sort_unstable();
        times[times.len() / 2].as_secs_f64() * 1e6
    };
    let (mut with, mut without) = (with, without);
    let (a, b) = (median(&mut with), median(&mut without));
    report("dispatch on the graph thread, history kept", with);
    report("dispatch on the graph thread, no history", without);
    println!("history kept ÷ none (medians): {:.3}", a / b);

    // 6. Reading the current snapshot from another thread (never enters the graph).
    report(
        "ExposureHandle::snapshot()",
        measure(samples, warmup, |_| _ = black_box(exposure.snapshot())),
    );
}

/// A cart of three exposed values and one message, exposed on the current graph thread; `history` sets how many
/// earlier versions the exposure keeps (`None`: the default).
fn exposed_cart(history: Option<usize>) -> Result<ExposureHandle, ranvier::exposure::ExposeError> {
    let cart = Mvu::new(
        Cart {
            items: 0,
            percent: 0,
        },
        |Msg::Add(n), cart: &Cart| Cart {
            items: cart.items + n,
            ..cart.clone()
        },
    );
    let items = cart.select(|cart| cart.items);
    let discount = cart.select(|cart| cart.percent);
    let total = ranvier::Memo::new({
        let cart = cart.clone();
        move |_| cart.with_model(|cart| cart.items * 250 * (100 - cart.percent) / 100)
    });
    let mut exposure = Exposure::new();
    exposure
        .value("items", move || items.get())?
        .value("discount", move || discount.get())?
        .value("total", move || total.get())?
        .messages(
            &cart,
            vec![(
                "add".to_owned(),
                Box::new(|args: &Value| {
                    args["amount"]
                        .as_i64()
                        .map(Msg::Add)
                        .ok_or("`amount`".into())
                }),
            )],
        )?;
    if let Some(versions) = history {
        exposure.history(versions, usize::MAX);
    }
    exposure.start()
}

fn measure(samples: usize, warmup: usize, mut op: impl FnMut(usize)) -> Vec<Duration> {
    for i in 0..warmup {
        op(i);
    }
    let mut times = Vec::with_capacity(samples);
    for i in 0..samples {
        let start = Instant::now();
        op(i);
        times.push(start.elapsed());
    }
    times
}

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e6;
    let mean = times.iter().sum::<Duration>().as_secs_f64() * 1e6 / times.len() as f64;
    println!(
        "{name:<40} median {:>8.2} µs   p90 {:>8.2} µs   p99 {:>8.2} µs   mean {:>8.2} µs",
        at(0.5),
        at(0.9),
        at(0.99),
        mean
    );
}
