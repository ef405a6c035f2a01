//! The js-reactivity-benchmark port: every case on every library built in, plus the hand-written floor.
//!
//! ```text
//! cargo bench -p ranvier-benchmarks --features compare -- [FILTER...] [--framework NAME,...] [--repeats N]
//!     [--warmups N] [--quick] [--memory] [--allocs] [--ir] [--csv PATH]
//! ```
//! FILTERs select cases by case-insensitive substring of the case name, or by group (`kairo`, `cellx`, `sbench`,
//! `dynamic`); `--framework` selects libraries the same way (`floor` is
//! the hand-written floor). `--ir` also counts instructions of the timed region of each (library, case) under
//! `valgrind --tool=callgrind`. `--memory` prints bytes per signal, memo and edge. `--allocs` prints the heap
//! allocations each (library, case) made in its last timed repetition, per node run (a counting global allocator).

use std::io::Write as _;
use std::process::Command;
use std::time::Duration;

use ranvier_benchmarks::cases::{self, Case};
use ranvier_benchmarks::framework::ReactiveFramework;
use ranvier_benchmarks::harness::{self, Outcome, Params, Row};
use ranvier_benchmarks::memory::{self, CountingAlloc, Footprint};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

const FLOOR: &str = "floor";

#[derive(Clone, Debug, Default)]
struct Options {
    filters: Vec<String>,
    frameworks: Vec<String>,
    exact: bool,
    repeats: Option<usize>,
    warmups: Option<usize>,
    memory: bool,
    allocs: bool,
    ir: bool,
    timed_only: bool,
    csv: Option<String>,
    quiet: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options::default();
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, flag: &str| -> Result<usize, String> {
        v.and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{flag} expects a number"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" | "--nocapture" => {}
            "--framework" | "--frameworks" => {
                let v = args.next().ok_or("--framework expects a name list")?;
                o.frameworks
                    .extend(v.split(',').map(|s| s.trim().to_lowercase()));
            }
            "--repeats" => o.repeats = Some(number(args.next(), "--repeats")?),
            "--warmups" => o.warmups = Some(number(args.next(), "--warmups")?),
            "--quick" => {
                o.repeats.get_or_insert(2);
                o.warmups.get_or_insert(1);
            }
            "--memory" => o.memory = true,
            "--allocs" => o.allocs = true,
            "--ir" => o.ir = true,
            "--exact" => o.exact = true,
            "--timed-only" => o.timed_only = true,
            "--quiet" => o.quiet = true,
            "--csv" => o.csv = Some(args.next().ok_or("--csv expects a path")?),
            flag if flag.starts_with("--") => {
                return Err(format!(
                    "unknown option {flag}; expected --framework, --repeats, --warmups, --quick, --memory, --allocs, --ir, --csv"
                ));
            }
            filter => o.filters.push(filter.to_lowercase()),
        }
    }
    Ok(o)
}

fn selected(patterns: &[String], name: &str, exact: bool) -> bool {
    let name = name.to_lowercase();
    patterns.is_empty()
        || patterns.iter().any(|p| {
            if exact {
                name == *p
            } else {
                name.contains(p.as_str())
            }
        })
}

fn params(o: &Options) -> Params {
    Params::new(o.warmups.unwrap_or(3), o.repeats.unwrap_or(5))
}

type Runner = fn(&Case, Params, bool) -> Outcome;
/// A library: its name, its runner, and its footprint measurement (none for the floor).
type Entry = (&'static str, Runner, fn() -> Option<Footprint>);

fn runner<F: ReactiveFramework>(case: &Case, params: Params, timed_only: bool) -> Outcome {
    if timed_only {
        match cases::run::<F>(case, params) {
            Ok(time) => Outcome::Timed { time, node_runs: 0 },
            Err(e) => Outcome::Failed(e),
        }
    } else {
        harness::measure::<F>(case, params)
    }
}

fn floor_runner(case: &Case, params: Params, _timed_only: bool) -> Outcome {
    harness::measure_floor(case, params)
}

fn frameworks() -> Vec<Entry> {
    use ranvier_benchmarks::frameworks::ranvier::Ranvier;
    #[allow(unused_mut)]
    let mut list: Vec<Entry> = vec![(Ranvier::NAME, runner::<Ranvier>, || {
        Some(memory::footprint::<Ranvier>())
    })];
    #[cfg(feature = "compare")]
    {
        use ranvier_benchmarks::frameworks::{
            alien::Alien, leptos::Leptos, samara::Samara, sycamore::Sycamore,
        };
        list.push((Alien::NAME, runner::<Alien>, || {
            Some(memory::footprint::<Alien>())
        }));
        list.push((Samara::NAME, runner::<Samara>, || {
            Some(memory::footprint::<Samara>())
        }));
        list.push((Sycamore::NAME, runner::<Sycamore>, || {
            Some(memory::footprint::<Sycamore>())
        }));
        list.push((Leptos::NAME, runner::<Leptos>, || {
            Some(memory::footprint::<Leptos>())
        }));
    }
    list.push((FLOOR, floor_runner, || None));
    list
}

/// Instructions in the timed region of one (library, case), from a child run under callgrind.
fn instructions(framework: &str, case: &str) -> Result<u64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--toggle-collect=*timed_region*",
        ])
        .arg(exe)
        .args([
            "--exact",
            "--timed-only",
            "--quiet",
            "--repeats",
            "1",
            "--warmups",
            "1",
            "--framework",
            framework,
            case,
        ])
        .output()
        .map_err(|e| format!("running valgrind: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| {
            l.split("Collected :")
                .nth(1)
                .and_then(|n| n.trim().parse().ok())
        })
        .ok_or_else(|| {
            format!(
                "no instruction count from callgrind: {}",
                stderr.lines().last().unwrap_or("")
            )
        })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn cell(outcome: Option<&Outcome>) -> String {
    match outcome {
        Some(Outcome::Timed { time, .. }) => format!("{:.2}", ms(*time)),
        Some(Outcome::Failed(_)) => "FAILED".into(),
        Some(Outcome::Skipped(_)) => "skip".into(),
        None => "".into(),
    }
}

fn time_of(o: Option<&Outcome>) -> Option<Duration> {
    match o {
        Some(Outcome::Timed { time, .. }) => Some(*time),
        _ => None,
    }
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    // Deep chains recurse (cellx2500, 3-5x500): run everything on one thread with a big stack.
    let handle = std::thread::Builder::new()
        .name("bench".into())
        .stack_size(1 << 30)
        .spawn(move || run(o))
        .expect("spawn the benchmark thread");
    if handle.join().is_err() {
        std::process::exit(1);
    }
}

fn run(o: Options) {
    let params = params(&o);
    let cases: Vec<Case> = cases::all()
        .into_iter()
        .filter(|c| {
            selected(&o.filters, &c.name, o.exact)
                || (!o.exact && selected(&o.filters, c.group, true))
        })
        .collect();
    let fws: Vec<_> = frameworks()
        .into_iter()
        .filter(|(n, _, _)| selected(&o.frameworks, n, o.exact))
        .collect();
    let names: Vec<&'static str> = fws.iter().map(|f| f.0).collect();

    if o.memory {
        println!(
            "| library | bytes/signal | bytes/memo | bytes/edge | bytes/effect (incl. edge) |\n|---|---|---|---|---|"
        );
        for (name, _, fp) in &fws {
            // A fresh thread each: memory a library keeps for reuse after an earlier graph (ranvier's node pool)
            // would hide the allocations being counted.
            let fp = *fp;
            let measured = std::thread::spawn(fp)
                .join()
                .expect("the footprint measurement panicked");
            if let Some(f) = measured {
                println!(
                    "| {name} | {:.0} | {:.0} | {:.0} | {:.0} |",
                    f.signal, f.memo, f.edge, f.effect
                );
            }
        }
        println!();
        // `--memory` without case filters only measures memory.
        if o.filters.is_empty() {
            return;
        }
    }

    let mut rows: Vec<Row> = Vec::new();
    let mut ir: Vec<(String, String, Result<u64, String>)> = Vec::new();
    let mut allocations: Vec<(String, String, usize, u64)> = Vec::new();
    for case in &cases {
        for (name, run, _) in &fws {
            let outcome = run(case, params, o.timed_only);
            if let (true, Outcome::Timed { node_runs, .. }) = (o.allocs, &outcome) {
                allocations.push((
                    name.to_string(),
                    case.name.clone(),
                    harness::last_region_allocations(),
                    *node_runs,
                ));
            }
            let row = Row {
                framework: name,
                case: case.name.clone(),
                outcome,
            };
            if !o.quiet {
                println!("{}", harness::suite_line(&row));
                if let Outcome::Failed(msg) | Outcome::Skipped(msg) = &row.outcome {
                    println!("    ({msg})");
                }
                let _ = std::io::stdout().flush();
            }
            if o.ir && matches!(row.outcome, Outcome::Timed { .. }) {
                ir.push((
                    name.to_string(),
                    case.name.clone(),
                    instructions(name, &case.name),
                ));
            }
            rows.push(row);
        }
    }
    if o.allocs {
        println!(
            "\nheap allocations in the last timed repetition (a warmed-up graph)\n| case | library | allocations | node runs | per node run |\n|---|---|---|---|---|"
        );
        for (name, case, count, runs) in &allocations {
            let per = if *runs > 0 {
                format!("{:.4}", *count as f64 / *runs as f64)
            } else {
                "-".into()
            };
            println!("| {case} | {name} | {count} | {runs} | {per} |");
        }
    }
    if o.quiet || rows.is_empty() {
        return;
    }
    report(&names, &cases, &rows, &ir);
    if let Some(path) = &o.csv {
        let mut out = String::from("framework,test,time_ms,node_runs,status\n");
        for r in &rows {
            let (t, n, s) = match &r.outcome {
                Outcome::Timed { time, node_runs } => (
                    format!("{:.4}", ms(*time)),
                    node_runs.to_string(),
                    "ok".into(),
                ),
                Outcome::Failed(m) => (
                    String::new(),
                    String::new(),
                    format!("FAILED: {}", m.replace(',', ";")),
                ),
                Outcome::Skipped(m) => (String::new(), String::new(), format!("skipped: {m}")),
            };
            out.push_str(&format!("{},{},{t},{n},{s}\n", r.framework, r.case));
        }
        if let Err(e) = std::fs::write(path, out) {
            eprintln!("error: writing {path}: {e}");
        }
    }
}

fn report(
    names: &[&'static str],
    cases: &[Case],
    rows: &[Row],
    ir: &[(String, String, Result<u64, String>)],
) {
    let get = |fw: &str, case: &str| {
        rows.iter()
            .find(|r| r.framework == fw && r.case == case)
            .map(|r| &r.outcome)
    };
    let ranvier = names.iter().copied().find(|n| n.starts_with("ranvier"));
    let others: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| Some(*n) != ranvier && *n != FLOOR)
        .collect();

    println!("\n### Time (ms, fastest of N; cellx: sum of 10 builds)\n");
    print!("| case |");
    for n in names {
        print!(" {n} |");
    }
    println!(" ranvier ÷ best other | ranvier ÷ floor |");
    println!("|---|{}---|---|", "---|".repeat(names.len()));
    for c in cases {
        print!("| {} |", c.name);
        for n in names {
            print!(" {} |", cell(get(n, &c.name)));
        }
        let rt = ranvier.and_then(|r| time_of(get(r, &c.name)));
        let best = others
            .iter()
            .filter_map(|n| time_of(get(n, &c.name)).map(|t| (t, *n)))
            .min_by(|a, b| a.0.cmp(&b.0));
        let floor = time_of(get(FLOOR, &c.name));
        match (rt, best) {
            (Some(r), Some((b, who))) => {
                print!(" {:.2} ({who}) |", r.as_secs_f64() / b.as_secs_f64())
            }
            _ => print!(" – |"),
        }
        match (rt, floor) {
            (Some(r), Some(f)) => println!(" {:.1} |", r.as_secs_f64() / f.as_secs_f64()),
            _ => println!(" – |"),
        }
    }

    println!("\n### ns per node execution (computed + effect runs in the reported time)\n");
    print!("| case | runs |");
    for n in names {
        print!(" {n} |");
    }
    println!("\n|---|---|{}", "---|".repeat(names.len()));
    for c in cases {
        let runs = ranvier.and_then(|r| match get(r, &c.name) {
            Some(Outcome::Timed { node_runs, .. }) => Some(*node_runs),
            _ => None,
        });
        print!(
            "| {} | {} |",
            c.name,
            runs.map(|r| r.to_string()).unwrap_or_default()
        );
        for n in names {
            match get(n, &c.name) {
                Some(Outcome::Timed { time, node_runs }) if *node_runs > 0 => {
                    print!(" {:.1} |", time.as_nanos() as f64 / *node_runs as f64)
                }
                other => print!(
                    " {} |",
                    if matches!(other, Some(Outcome::Timed { .. })) {
                        "–".into()
                    } else {
                        cell(other)
                    }
                ),
            }
        }
        println!();
    }

    if !ir.is_empty() {
        println!("\n### Instructions in the timed region (callgrind Ir, one timed repetition)\n");
        print!("| case |");
        for n in names {
            print!(" {n} |");
        }
        println!("\n|---|{}", "---|".repeat(names.len()));
        for c in cases {
            print!("| {} |", c.name);
            for n in names {
                match ir.iter().find(|(f, k, _)| f == n && *k == c.name) {
                    Some((_, _, Ok(count))) => print!(" {:.3}M |", *count as f64 / 1e6),
                    Some((_, _, Err(_))) => print!(" err |"),
                    None => print!(" |"),
                }
            }
            println!();
        }
    }
}
