//! How long reading a dump of 100,000 events back takes (`trace::read_dump`), beside taking it (`trace::dump`), and
//! how long a post-mortem takes to answer from it: read, load into a fresh thread's log (`trace::load_dump`) and
//! `explain` one memo, and the same through `ranvier::mcp::Postmortem` (what `ranvier-mcp postmortem DUMP explain`
//! runs, without the process start). The issue's aim: under 1 s.
//!
//! Release builds trace only with the feature `trace`:
//!
//! ```text
//! cargo bench -p ranvier-rs --bench dump_read --features trace
//! ```
//!
//! A graph of 200 signals, each read by a memo that an effect reads, is written until the ring (sized to hold them
//! all) holds at least 100,000 events; it prints the dump's size and the best of 5 rounds of each step (each
//! post-mortem round on a thread of its own, from the dump's text).

use ranvier::{Effect, Memo, Signal, trace};
use std::time::Instant;

const EVENTS: usize = 100_000;

fn best(rounds: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    if !trace::TRACED {
        println!("untraced build: run with --features trace");
        return;
    }
    trace::set_capacity(EVENTS * 2);
    let cells: Vec<Signal<i64>> = (0..200).map(Signal::new).collect();
    let memos: Vec<Memo<i64>> = cells
        .iter()
        .map(|c| {
            let c = c.clone();
            Memo::new(move |_| c.get() * 2)
        })
        .collect();
    let _effects: Vec<Effect> = memos
        .iter()
        .map(|m| {
            let m = m.clone();
            Effect::new(move || {
                m.get();
            })
        })
        .collect();
    let mut round = 0;
    while trace::events().len() < EVENTS {
        round += 1;
        for c in &cells {
            c.set(c.peek() + round);
        }
    }
    let events = trace::events().len();
    let text = trace::dump().expect("traced");
    let dump_s = best(5, || {
        std::hint::black_box(trace::dump().expect("traced"));
    });
    let read_s = best(5, || {
        let read = trace::read_dump(&text).expect("reads back");
        assert_eq!(read.events.len(), events);
    });
    let explained = memos[100].id();
    let live = trace::explain(explained).expect("traced").to_string();
    let load_s = best(5, || {
        let text = text.clone();
        let answer = std::thread::spawn(move || {
            let dump = trace::read_dump(&text).expect("reads back");
            trace::load_dump(&dump).expect("loads");
            trace::explain(explained).expect("explains").to_string()
        })
        .join()
        .expect("the post-mortem thread");
        assert_eq!(answer, live);
    });
    println!(
        "dump of {events} events, {} bytes: dump {:.3} s, read_dump {:.3} s, read + load_dump + explain {:.3} s",
        text.len(),
        dump_s,
        read_s,
        load_s
    );
    #[cfg(feature = "mcp")]
    {
        let query = format!(r#"{{"node": "{explained}"}}"#);
        let served_s = best(5, || {
            let postmortem =
                ranvier::mcp::Postmortem::from_text("bench.dump", &text).expect("loads");
            let answer = postmortem
                .call_blocking("explain", &query)
                .expect("explains");
            assert!(
                answer.starts_with(&live[..live.find(' ').unwrap_or(0)]),
                "{answer}"
            );
        });
        println!("Postmortem::from_text + explain tool: {served_s:.3} s");
    }
}
