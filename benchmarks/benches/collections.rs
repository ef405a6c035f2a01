//! Keyed collections: ranvier's `Collection` views and `Selector` beside plain memos over a `Vec`, in one process.
//!
//! Cases (each repetition checks its answer against totals the bench keeps itself, in O(1)):
//! - `row`: change one row of 10,000 and read a sum and a filtered count.
//!   - `collection`: a `Collection::new` holding its list, written with `update(&key, ..)`; `sum_by` and
//!     `filter(..).count()`.
//!   - `keyed-source`: a `Collection::keyed` following a `Signal<Vec<Item>>`, written with `Signal::update` (the
//!     collection compares the new list with its rows: O(n)).
//!   - `plain-memo`: a `Signal<Vec<Item>>` written with `Signal::update`, and two memos over it (a sum and a filtered
//!     count).
//!   - `plain-inplace`: the cheapest plain memo: the `Vec` changed in place, a version signal moved, and the same two
//!     memos reading the `Vec` again (no clone, no list comparison).
//! - `select`: move the selection among 10,000 rows, each row an effect asking whether it is the selected one.
//!   - `selector`: a `Selector`; exactly two rows re-run (checked).
//!   - `plain-compare`: each effect reads the selection signal and compares: every row re-runs (checked).
//! - `create1k`, `create10k`, `swap`, `remove10th`, `append1k`, `replace`: the js-framework-benchmark operations
//!   without the DOM, on 1,000 rows (10,000 for `create10k`). `keyed-source`: a `Collection::keyed` over a
//!   `Signal<Vec<Item>>`, each row a memo of its line total and an effect rendering it; `plain-memo`: a memo of every
//!   line total over the same signal, rendered by one effect.
//! - `--memory`: live heap bytes per row of a collection (no nodes of its own, and with one memo per row).
//!
//! With `--features compare`, the peers the issue names, in the same process:
//! - `row` / `reactive_stores`: Leptos' `reactive_stores`, the list a keyed field of a `#[derive(Store)]`, each write
//!   through the row's `AtKeyed` field, a sum and a filtered count as reactive_graph memos over the keyed field.
//! - `select` / `reactive_graph`: reactive_graph's `Selector`, 10,000 `ImmediateEffect`s asking `selected(key)`
//!   (the selector re-runs on its executor: a move is the write and one `Executor::poll_local`).
//! - the list operations / `sycamore`: sycamore-reactive's `map_keyed` over a signal of the list, each row a memo and
//!   an effect, and an effect over the mapped list (the `keyed-source` shape).
//! - `--memory`: bytes per row of sycamore's `map_keyed` and of a `reactive_stores` keyed field, a memo per row.
//!
//! ```sh
//! cargo bench -p ranvier-benchmarks --bench collections                  # time, every case
//! cargo bench -p ranvier-benchmarks --bench collections -- --ir          # and callgrind instructions per repetition
//! cargo bench -p ranvier-benchmarks --bench collections -- --memory
//! cargo bench -p ranvier-benchmarks --features compare --bench collections -- --ir   # with the peers
//! ```

use std::cell::{Cell, RefCell};
use std::hint::black_box;
use std::process::Command;
use std::rc::Rc;
use std::time::Duration;

use ranvier::collection::Collection;
use ranvier::{Effect, Memo, Selector, Signal, create_root};
use ranvier_benchmarks::harness::timed_region;
use ranvier_benchmarks::memory::{CountingAlloc, live_bytes};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Rows in every case.
const N: usize = 10_000;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Item {
    id: u32,
    price: i64,
    quantity: i64,
}

fn items() -> Vec<Item> {
    (0..N as u32)
        .map(|id| Item {
            id,
            price: i64::from(id % 97) + 1,
            quantity: i64::from(id % 7),
        })
        .collect()
}

fn line_total(item: &Item) -> i64 {
    item.price * item.quantity
}

fn is_big(item: &Item) -> bool {
    item.quantity > 3
}

/// The expected sum and big count, kept by the bench as it writes (O(1) per write).
struct Expected {
    items: Vec<Item>,
    sum: i64,
    big: usize,
}

impl Expected {
    fn new() -> Self {
        let items = items();
        let sum = items.iter().map(line_total).sum();
        let big = items.iter().filter(|i| is_big(i)).count();
        Expected { items, sum, big }
    }

    /// The write of repetition `i`: the row it changes and that row's new quantity.
    fn write(&mut self, i: u64) -> (u32, i64) {
        let id = (i.wrapping_mul(7919) % N as u64) as u32;
        let item = &mut self.items[id as usize];
        let quantity = (item.quantity + 1 + (i % 5) as i64) % 9;
        self.sum += item.price * (quantity - item.quantity);
        self.big = self.big + usize::from(quantity > 3) - usize::from(is_big(item));
        item.quantity = quantity;
        (id, quantity)
    }

    fn check(&self, sum: i64, big: usize) {
        assert_eq!((sum, big), (self.sum, self.big), "a wrong sum or count");
    }
}

type Case = Box<dyn FnMut(u64)>;
/// What runs untimed before each timed repetition.
type Setup = Box<dyn FnMut(u64)>;

fn row_collection() -> Case {
    let rows = Collection::new(items(), |item: &Item| item.id, |_| ()).unwrap();
    let sum = rows.sum_by(line_total);
    let big = rows.filter(is_big).count();
    let mut expected = Expected::new();
    Box::new(move |i| {
        if i > 0 {
            let (id, quantity) = expected.write(i);
            rows.update(&id, |item| item.quantity = quantity).unwrap();
        }
        expected.check(sum.get(), big.get());
    })
}

fn row_keyed_source() -> Case {
    let list = Signal::new(items());
    let rows = Collection::keyed(list.clone(), |item: &Item| item.id, |_| ());
    let sum = rows.sum_by(line_total);
    let big = rows.filter(is_big).count();
    let mut expected = Expected::new();
    Box::new(move |i| {
        if i > 0 {
            let (id, quantity) = expected.write(i);
            list.update(|list| list[id as usize].quantity = quantity);
        }
        expected.check(sum.get(), big.get());
    })
}

fn row_plain_memo() -> Case {
    let list = Signal::new(items());
    let sum = Memo::new({
        let list = list.clone();
        move |_| list.with(|list| list.iter().map(line_total).sum::<i64>())
    });
    let big = Memo::new({
        let list = list.clone();
        move |_| list.with(|list| list.iter().filter(|i| is_big(i)).count())
    });
    let mut expected = Expected::new();
    Box::new(move |i| {
        if i > 0 {
            let (id, quantity) = expected.write(i);
            list.update(|list| list[id as usize].quantity = quantity);
        }
        expected.check(sum.get(), big.get());
    })
}

fn row_plain_inplace() -> Case {
    let list = Rc::new(RefCell::new(items()));
    let version = Signal::new(0_u64);
    let sum = Memo::new({
        let (list, version) = (list.clone(), version.clone());
        move |_| {
            version.get();
            list.borrow().iter().map(line_total).sum::<i64>()
        }
    });
    let big = Memo::new({
        let (list, version) = (list.clone(), version.clone());
        move |_| {
            version.get();
            list.borrow().iter().filter(|i| is_big(i)).count()
        }
    });
    let mut expected = Expected::new();
    Box::new(move |i| {
        if i > 0 {
            let (id, quantity) = expected.write(i);
            list.borrow_mut()[id as usize].quantity = quantity;
            version.set(i);
        }
        expected.check(sum.get(), big.get());
    })
}

/// 10,000 effects, each asking `selected(key)`; returns the selection signal and the count of effect runs.
fn select_case(selector: bool) -> Case {
    let selected = Signal::new(Some(0_u32));
    let runs = Rc::new(Cell::new(0_u64));
    let sel = Selector::new(selected.clone());
    for key in 0..N as u32 {
        let (sel, selected, runs) = (sel.clone(), selected.clone(), runs.clone());
        if selector {
            Effect::new(move || {
                black_box(sel.is_selected(&key));
                runs.set(runs.get() + 1);
            });
        } else {
            Effect::new(move || {
                black_box(selected.get() == Some(key));
                runs.set(runs.get() + 1);
            });
        }
    }
    let woken = if selector { 2 } else { N as u64 };
    Box::new(move |i| {
        if i > 0 {
            let before = runs.get();
            selected.set(Some(((i * 7919) % N as u64) as u32));
            let ran = runs.get() - before;
            assert!(
                ran == woken || ran == 0,
                "{ran} rows re-ran, expected {woken}"
            );
        }
    })
}

/// The js-framework-benchmark operations, without the DOM: a list of rows, each rendered by an effect.
#[derive(Clone, Copy, PartialEq)]
enum ListOp {
    /// Make the rows (1,000 or 10,000) and render them; the previous set is disposed first (untimed).
    Create(usize),
    /// Swap the rows at 1 and 998 of 1,000.
    Swap,
    /// Remove every 10th row of 1,000 (the full list is put back untimed first).
    RemoveTenth,
    /// Append 1,000 rows to 1,000 (the list is cut back to 1,000 untimed first).
    Append,
    /// Replace all 1,000 rows with 1,000 new keys.
    Replace,
}

const ROWS: usize = 1_000;

/// A built list case: its source list, and the scope its nodes live in.
type Built = (Signal<Vec<Item>>, ranvier::Scope);

fn fresh(n: usize, from: u32) -> Vec<Item> {
    (from..from + n as u32)
        .map(|id| Item {
            id,
            price: i64::from(id % 97) + 1,
            quantity: i64::from(id % 7),
        })
        .collect()
}

/// Applies the list operation `op` (not `Create`) of repetition `i` to `list`.
fn apply(op: ListOp, i: u64, list: &mut Vec<Item>) {
    match op {
        ListOp::Swap => list.swap(1, 998),
        ListOp::RemoveTenth => {
            let mut at = 0;
            list.retain(|_| {
                at += 1;
                (at - 1) % 10 != 0
            })
        }
        ListOp::Append => list.extend(fresh(ROWS, ROWS as u32 * 10)),
        ListOp::Replace => *list = fresh(ROWS, (i as u32 % 2 + 1) * ROWS as u32 * 100),
        ListOp::Create(_) => unreachable!("Create builds a new list"),
    }
}

/// A list `op` on `keyed` (a `Collection::keyed` whose rows each hold a memo of the line total and an effect
/// rendering it) or on a plain memo of the line totals rendered by one effect; `renders` counts what rendered.
fn list_case(op: ListOp, keyed: bool) -> (Option<Setup>, Case) {
    let renders = Rc::new(Cell::new(0_u64));
    let build = {
        let renders = renders.clone();
        move |items: Vec<Item>| -> Built {
            let renders = renders.clone();
            let (list, scope) = create_root(|_| {
                let list = Signal::new(items);
                if keyed {
                    let row_renders = renders.clone();
                    let rows = Collection::keyed(
                        list.clone(),
                        |item: &Item| item.id,
                        move |row| {
                            let row = row.clone();
                            let total = Memo::new(move |_| row.with(line_total));
                            let renders = row_renders.clone();
                            Effect::new(move || {
                                black_box(total.get());
                                renders.set(renders.get() + 1);
                            });
                        },
                    );
                    // The list's own render: the order of its rows.
                    let renders = renders.clone();
                    let _render_list = Effect::new(move || {
                        black_box(rows.keys());
                        renders.set(renders.get() + 1);
                    });
                } else {
                    let totals = Memo::new({
                        let list = list.clone();
                        move |_| list.with(|list| list.iter().map(line_total).collect::<Vec<_>>())
                    });
                    Effect::new(move || {
                        renders.set(
                            renders.get() + totals.with(|totals| black_box(totals.len())) as u64,
                        );
                    });
                }
                list
            });
            (list, scope)
        }
    };
    let state: Rc<RefCell<Option<Built>>> = Rc::default();
    if let ListOp::Create(_) = op {
    } else {
        *state.borrow_mut() = Some(build(fresh(ROWS, 0)));
    }
    let setup: Option<Setup> = match op {
        ListOp::Create(_) => Some(Box::new({
            let state = state.clone();
            move |_| {
                if let Some((_, scope)) = state.borrow_mut().take() {
                    scope.dispose();
                }
            }
        })),
        ListOp::RemoveTenth | ListOp::Append => Some(Box::new({
            let state = state.clone();
            move |_| {
                if let Some((list, _)) = &*state.borrow() {
                    list.set(fresh(ROWS, 0));
                }
            }
        })),
        ListOp::Swap | ListOp::Replace => None,
    };
    let op_case: Case = Box::new(move |i| {
        let before = renders.get();
        let expected_len = match op {
            ListOp::Create(n) => {
                *state.borrow_mut() = Some(build(fresh(n, 0)));
                n
            }
            _ => {
                let guard = state.borrow();
                let (list, _) = guard.as_ref().expect("built");
                list.update(|list| apply(op, i, list));
                list.with_untracked(Vec::len)
            }
        };
        // Something rendered: the list's order and a row effect per new row (keyed), or the whole list (plain).
        let rendered = renders.get() - before;
        assert!(i == 0 || rendered > 0, "nothing rendered");
        black_box(expected_len);
    });
    (setup, op_case)
}

/// Every (case, library); the peers' rows are skipped unless built with `--features compare`.
const LIBS: [(&str, &str); 26] = [
    ("row", "collection"),
    ("row", "keyed-source"),
    ("row", "plain-memo"),
    ("row", "plain-inplace"),
    ("row", "reactive_stores"),
    ("select", "selector"),
    ("select", "plain-compare"),
    ("select", "reactive_graph"),
    ("create1k", "keyed-source"),
    ("create1k", "plain-memo"),
    ("create1k", "sycamore"),
    ("create10k", "keyed-source"),
    ("create10k", "plain-memo"),
    ("create10k", "sycamore"),
    ("swap", "keyed-source"),
    ("swap", "plain-memo"),
    ("swap", "sycamore"),
    ("remove10th", "keyed-source"),
    ("remove10th", "plain-memo"),
    ("remove10th", "sycamore"),
    ("append1k", "keyed-source"),
    ("append1k", "plain-memo"),
    ("append1k", "sycamore"),
    ("replace", "keyed-source"),
    ("replace", "plain-memo"),
    ("replace", "sycamore"),
];

/// Whether `lib` is a peer, built only with `--features compare`.
fn is_peer(lib: &str) -> bool {
    matches!(lib, "reactive_stores" | "reactive_graph" | "sycamore")
}

fn make(case: &str, lib: &str) -> Option<(Option<Setup>, Case)> {
    let op = match case {
        "create1k" => Some(ListOp::Create(ROWS)),
        "create10k" => Some(ListOp::Create(N)),
        "swap" => Some(ListOp::Swap),
        "remove10th" => Some(ListOp::RemoveTenth),
        "append1k" => Some(ListOp::Append),
        "replace" => Some(ListOp::Replace),
        _ => None,
    };
    if let Some(op) = op {
        return match lib {
            "keyed-source" => Some(list_case(op, true)),
            "plain-memo" => Some(list_case(op, false)),
            #[cfg(feature = "compare")]
            "sycamore" => Some(peers::list_sycamore(op)),
            _ => None,
        };
    }
    Some((
        None,
        match (case, lib) {
            ("row", "collection") => row_collection(),
            ("row", "keyed-source") => row_keyed_source(),
            ("row", "plain-memo") => row_plain_memo(),
            ("row", "plain-inplace") => row_plain_inplace(),
            ("select", "selector") => select_case(true),
            ("select", "plain-compare") => select_case(false),
            #[cfg(feature = "compare")]
            ("row", "reactive_stores") => peers::row_stores(),
            #[cfg(feature = "compare")]
            ("select", "reactive_graph") => peers::select_reactive_graph(),
            _ => return None,
        },
    ))
}

/// Runs repetition 0 (the first reads, untimed), then `reps` timed repetitions; the fastest and the mean.
fn run((mut setup, mut case): (Option<Setup>, Case), reps: u64) -> (Duration, Duration) {
    if let Some(setup) = &mut setup {
        setup(0);
    }
    case(0);
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    for i in 1..=reps {
        if let Some(setup) = &mut setup {
            setup(i);
        }
        let ((), took) = timed_region(|| case(i));
        best = best.min(took);
        total += took;
    }
    (best, total / reps as u32)
}

/// Instructions per timed repetition of (case, lib), from a child run under callgrind.
fn instructions(case: &str, lib: &str, reps: u64) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--toggle-collect=*timed_region*",
        ])
        .arg(exe)
        .args(["--child", case, lib, "--reps", &reps.to_string()])
        .output()
        .map_err(|e| format!("running valgrind: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| {
            l.split("Collected :")
                .nth(1)
                .and_then(|n| n.trim().parse::<u64>().ok())
        })
        .map(|collected| collected as f64 / reps as f64)
        .ok_or_else(|| {
            format!(
                "no instruction count from callgrind: {}",
                stderr.lines().last().unwrap_or("")
            )
        })
}

/// Live heap bytes per row of a collection holding `N` rows, made by `factory`.
fn bytes_per_row(with_memo: bool) -> f64 {
    let build = || {
        create_root(|_| {
            let rows = Collection::new(
                items(),
                |item: &Item| item.id,
                move |row| {
                    with_memo.then(|| {
                        let row = row.clone();
                        Memo::new(move |_| row.with(line_total))
                    })
                },
            )
            .unwrap();
            assert_eq!(rows.len(), N);
            rows
        })
    };
    let (rows, scope) = build();
    scope.dispose();
    drop(rows);
    // Disposed nodes go back to a per-thread pool, which the next build would reuse unseen: empty it first.
    ranvier::graph::dispose_current();
    let list = items();
    let before = live_bytes();
    let kept = build();
    let after = live_bytes();
    drop(list);
    kept.1.dispose();
    (after - before) as f64 / N as f64
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let reps: u64 = args
        .iter()
        .position(|a| a == "--reps")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    if args.first().is_some_and(|a| a == "--child") {
        let (case, lib) = (&args[1], &args[2]);
        run(make(case, lib).expect("a known case and library"), reps);
        return;
    }
    if args.iter().any(|a| a == "--memory") {
        println!(
            "collection: {:.0} bytes per row (no nodes of its own)",
            bytes_per_row(false)
        );
        println!(
            "collection: {:.0} bytes per row (one memo per row)",
            bytes_per_row(true)
        );
        #[cfg(feature = "compare")]
        {
            println!(
                "sycamore map_keyed: {:.0} bytes per row (one memo per row)",
                peers::bytes_per_row_sycamore()
            );
            println!(
                "reactive_stores keyed field: {:.0} bytes per row (one reactive_graph memo per row)",
                peers::bytes_per_row_stores()
            );
        }
        return;
    }
    let ir = args.iter().any(|a| a == "--ir");
    println!(
        "case , library , best µs , mean µs ({reps} repetitions){}",
        if ir {
            " , instructions per repetition"
        } else {
            ""
        }
    );
    let mut counts = Vec::new();
    for (case, lib) in LIBS {
        if is_peer(lib) && !cfg!(feature = "compare") {
            continue;
        }
        let (best, mean) = run(make(case, lib).expect("a known case"), reps);
        let mut line = format!(
            "{case} , {lib} , {:.2} , {:.2}",
            best.as_secs_f64() * 1e6,
            mean.as_secs_f64() * 1e6
        );
        if ir {
            // Under callgrind a repetition of the O(n) cases is slow: fewer of them.
            match instructions(case, lib, reps.min(20)) {
                Ok(n) => {
                    line += &format!(" , {n:.0}");
                    counts.push((case, lib, n));
                }
                Err(e) => line += &format!(" , {e}"),
            }
        }
        println!("{line}");
    }
    let of = |case: &str, lib: &str| {
        counts
            .iter()
            .find(|c| c.0 == case && c.1 == lib)
            .map(|c| c.2)
    };
    for (case, ours, theirs) in [
        ("row", "collection", "plain-inplace"),
        ("row", "collection", "plain-memo"),
        ("row", "keyed-source", "plain-memo"),
        ("row", "collection", "reactive_stores"),
        ("select", "selector", "plain-compare"),
        ("select", "selector", "reactive_graph"),
        ("create1k", "keyed-source", "plain-memo"),
        ("create1k", "keyed-source", "sycamore"),
        ("create10k", "keyed-source", "plain-memo"),
        ("create10k", "keyed-source", "sycamore"),
        ("swap", "keyed-source", "plain-memo"),
        ("swap", "keyed-source", "sycamore"),
        ("remove10th", "keyed-source", "plain-memo"),
        ("remove10th", "keyed-source", "sycamore"),
        ("append1k", "keyed-source", "plain-memo"),
        ("append1k", "keyed-source", "sycamore"),
        ("replace", "keyed-source", "plain-memo"),
        ("replace", "keyed-source", "sycamore"),
    ] {
        if let (Some(a), Some(b)) = (of(case, ours), of(case, theirs)) {
            if b >= a {
                println!("{case}: {theirs} ÷ {ours} = {:.1}× the instructions", b / a);
            } else {
                println!(
                    "{case}: {ours} ÷ {theirs} = {:.1}× the instructions (more)",
                    a / b
                );
            }
        }
    }
}

/// The peers the issue names, built with `--features compare`: sycamore-reactive's `map_keyed`, Leptos'
/// `reactive_stores` keyed fields and reactive_graph's `Selector`, each doing what the ranvier case beside it does.
#[cfg(feature = "compare")]
mod peers {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use any_spawner::Executor;
    use reactive_graph::computed::Memo as RgMemo;
    use reactive_graph::effect::ImmediateEffect;
    use reactive_graph::owner::Owner;
    use reactive_graph::signal::RwSignal;
    use reactive_graph::traits::{Get, Read, Set, Write};
    use reactive_stores::{AtKeyed, Store};

    /// A list of items as a store, its rows keyed by id (reactive_stores' keyed field).
    #[derive(Store)]
    pub struct Rows {
        #[store(key: u32 = |item| item.id)]
        rows: Vec<Item>,
    }

    // reactive_graph's `Selector` runs on a render effect, which re-runs from a spawned task (`Executor::poll_local`
    // drains it).
    use ranvier_benchmarks::single_thread::init_executor;

    /// `row` with reactive_stores: the list in a store, each write through the row's keyed field
    /// (`AtKeyed::write`), and two memos reading the keyed field (a write to a row notifies its parents, so both
    /// re-run over the list: reactive_stores has no incremental aggregate).
    pub fn row_stores() -> Case {
        let owner = Owner::new();
        let (store, sum, big) = owner.with(|| {
            let store = Store::new(Rows { rows: items() });
            // the keys are made on the first iteration, as rendering the rows would; a keyed write cannot make
            // them (it holds the store's write lock, and making them reads it)
            store.rows().update_keys();
            let sum = RgMemo::new(move |_| store.rows().read().iter().map(line_total).sum::<i64>());
            let big =
                RgMemo::new(move |_| store.rows().read().iter().filter(|i| is_big(i)).count());
            (store, sum, big)
        });
        let mut expected = Expected::new();
        Box::new(move |i| {
            if i > 0 {
                let (id, quantity) = expected.write(i);
                AtKeyed::new(store.rows(), id).write().quantity = quantity;
            }
            expected.check(sum.get(), big.get());
            // the owner holds the store and the memos: keep it as long as the case
            black_box(&owner);
        })
    }

    /// `select` with reactive_graph's `Selector`: 10,000 `ImmediateEffect`s asking `selected(key)`; a move is the
    /// write and the executor's turn that runs the selector's render effect. Exactly two rows re-run (checked).
    pub fn select_reactive_graph() -> Case {
        init_executor();
        let owner = Owner::new();
        let runs = Arc::new(AtomicU64::new(0));
        let selected = owner.with(|| {
            let selected = RwSignal::new(0_u32);
            let sel = reactive_graph::computed::Selector::new(move || selected.get());
            for key in 0..N as u32 {
                let (sel, runs) = (sel.clone(), runs.clone());
                ImmediateEffect::new_scoped(move || {
                    black_box(sel.selected(&key));
                    runs.fetch_add(1, Ordering::Relaxed);
                });
            }
            // The selector lives as long as the owner (its effects hold clones too).
            std::mem::forget(sel);
            selected
        });
        Executor::poll_local();
        Box::new(move |i| {
            if i > 0 {
                let before = runs.load(Ordering::Relaxed);
                selected.set(((i * 7919) % N as u64) as u32);
                Executor::poll_local();
                let ran = runs.load(Ordering::Relaxed) - before;
                assert!(ran == 2 || ran == 0, "{ran} rows re-ran, expected 2");
            }
            // the owner holds the signal, the selector's effect and the rows' effects
            black_box(&owner);
        })
    }

    /// A list `op` on sycamore-reactive's `map_keyed` over a signal of the list, each row a memo of its line total
    /// and an effect rendering it, and an effect rendering the mapped list (the ranvier `keyed-source` case's shape).
    pub fn list_sycamore(op: ListOp) -> (Option<Setup>, Case) {
        use sycamore_reactive::{
            RootHandle, Signal as SySignal, create_effect, create_memo, create_root, create_signal,
            map_keyed,
        };
        type Built = (SySignal<Vec<Item>>, RootHandle);
        let renders = Rc::new(Cell::new(0_u64));
        let build = {
            let renders = renders.clone();
            move |items: Vec<Item>| -> Built {
                let renders = renders.clone();
                let mut list = None;
                let root = create_root(|| {
                    let source = create_signal(items);
                    let row_renders = renders.clone();
                    let rows = map_keyed(
                        source,
                        move |item: Item| {
                            let total = create_memo(move || line_total(&item));
                            let renders = row_renders.clone();
                            create_effect(move || {
                                black_box(total.get());
                                renders.set(renders.get() + 1);
                            });
                            item.id
                        },
                        |item: &Item| item.id,
                    );
                    create_effect(move || {
                        rows.with(|rows| black_box(rows.len()));
                        renders.set(renders.get() + 1);
                    });
                    list = Some(source);
                });
                (list.expect("built"), root)
            }
        };
        let state: Rc<RefCell<Option<Built>>> = Rc::default();
        if !matches!(op, ListOp::Create(_)) {
            *state.borrow_mut() = Some(build(fresh(ROWS, 0)));
        }
        let setup: Option<Setup> = match op {
            ListOp::Create(_) => Some(Box::new({
                let state = state.clone();
                move |_| {
                    if let Some((_, root)) = state.borrow_mut().take() {
                        root.dispose();
                    }
                }
            })),
            ListOp::RemoveTenth | ListOp::Append => Some(Box::new({
                let state = state.clone();
                move |_| {
                    if let Some((list, _)) = &*state.borrow() {
                        list.set(fresh(ROWS, 0));
                    }
                }
            })),
            ListOp::Swap | ListOp::Replace => None,
        };
        let case: Case = Box::new(move |i| {
            let before = renders.get();
            if let ListOp::Create(n) = op {
                *state.borrow_mut() = Some(build(fresh(n, 0)));
            } else {
                let guard = state.borrow();
                let (list, _) = guard.as_ref().expect("built");
                list.update(|list| apply(op, i, list));
            }
            let rendered = renders.get() - before;
            assert!(i == 0 || rendered > 0, "nothing rendered");
        });
        (setup, case)
    }

    /// Live heap bytes per row of sycamore's `map_keyed` over a signal of `N` items, a memo per row.
    pub fn bytes_per_row_sycamore() -> f64 {
        use sycamore_reactive::{create_memo, create_root, create_signal, map_keyed};
        let build = || {
            create_root(|| {
                let source = create_signal(items());
                let rows = map_keyed(
                    source,
                    |item: Item| create_memo(move || line_total(&item)),
                    |item: &Item| item.id,
                );
                assert_eq!(rows.with(Vec::len), N);
            })
        };
        build().dispose();
        let before = live_bytes();
        let root = build();
        let after = live_bytes();
        root.dispose();
        (after - before) as f64 / N as f64
    }

    /// Live heap bytes per row of a reactive_stores store of `N` items with its keys made (one iteration of the
    /// keyed field), and a reactive_graph memo per row reading its keyed row.
    pub fn bytes_per_row_stores() -> f64 {
        let build = || {
            let owner = Owner::new();
            owner.with(|| {
                let store = Store::new(Rows { rows: items() });
                // Each memo is owned by `owner` (reactive_graph's arena), so only their count is kept here.
                let mut rows = 0;
                for row in store.rows() {
                    black_box(RgMemo::new(move |_| line_total(&row.read())).get());
                    rows += 1;
                }
                assert_eq!(rows, N);
            });
            owner
        };
        build().cleanup();
        let before = live_bytes();
        let owner = build();
        let after = live_bytes();
        owner.cleanup();
        (after - before) as f64 / N as f64
    }
}
