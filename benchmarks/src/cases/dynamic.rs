//! The dynamic dependency graphs (milomg `benches/reactively/dependencyGraph.ts` and `config.ts`).
//!
//! A rectangular graph: `width` signals, then `total_layers - 1` rows of `width` computeds; node `j` of a row reads
//! `prev[(j + k) % width]` for `k < n_sources`. A node is static when `random() < static_fraction`; a dynamic node
//! reads `first` and, when `first` is odd, skips `tail[first % tail.len()]`. `read_fraction` of the last row is
//! kept (random leaves removed) and one effect reads the kept leaves. An iteration batch-writes
//! `sources[i % width] = i + i % width` and reads every kept leaf. The graph uses `sfc32` seeded by
//! `xmur3a("seed")` (one generator for node kinds, a fresh one for leaf removal), so the suite's expected `sum`
//! and `count` (computed executions in one run) hold. Values are `f64` as in JavaScript: `3-5x500` reaches 3e241.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use crate::framework::{ReactiveFramework, Read, Src, Write};
use crate::harness::{Params, check, timed_region};
use crate::random::Sfc32;

/// One dynamic-graph configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Signals, and computeds per row.
    pub width: usize,
    /// Rows including the signal row.
    pub total_layers: usize,
    /// Fraction of static nodes.
    pub static_fraction: f64,
    /// Sources each node reads.
    pub n_sources: usize,
    /// Fraction of the last row the effect reads.
    pub read_fraction: f64,
    /// Iterations in one run.
    pub iterations: usize,
    /// Expected sum of the kept leaves after a run.
    pub expected_sum: f64,
    /// Expected computed executions in a run (checked for `read_fraction == 1`, or for lazy libraries).
    pub expected_count: u64,
}

impl Config {
    /// The six graphs of milomg's `config.ts`.
    pub fn all() -> Vec<Config> {
        let c = |width,
                 total_layers,
                 static_fraction,
                 n_sources,
                 read_fraction,
                 iterations,
                 sum,
                 count| Config {
            width,
            total_layers,
            static_fraction,
            n_sources,
            read_fraction,
            iterations,
            expected_sum: sum,
            expected_count: count,
        };
        vec![
            c(10, 5, 1.0, 2, 0.2, 600_000, 19_199_968.0, 3_480_000),
            c(10, 10, 0.75, 6, 0.2, 15_000, 302_310_782_860.0, 1_155_000),
            c(
                1000,
                12,
                0.95,
                4,
                1.0,
                7_000,
                29_355_933_696_000.0,
                1_463_000,
            ),
            c(1000, 5, 1.0, 25, 1.0, 3_000, 1_171_484_375_000.0, 732_000),
            c(
                5,
                500,
                1.0,
                3,
                1.0,
                500,
                3.023_964_267_689_846_4e241,
                1_246_500,
            ),
            c(
                100,
                15,
                0.5,
                6,
                1.0,
                2_000,
                15_664_996_402_790_400.0,
                1_078_000,
            ),
        ]
    }

    /// milomg's `makeTitle`, e.g. `6-10x10 - dyn25% - lazy80%`.
    pub fn title(&self) -> String {
        let pct = |f: f64| format!("{}%", (f * 100.0).round());
        let dyn_ = if self.static_fraction < 1.0 {
            format!(" - dyn{}", pct(1.0 - self.static_fraction))
        } else {
            String::new()
        };
        let read = if self.read_fraction < 1.0 {
            format!(" - lazy{}", pct(1.0 - self.read_fraction))
        } else {
            String::new()
        };
        format!(
            "{}-{}x{}{dyn_}{read}",
            self.n_sources, self.width, self.total_layers
        )
    }

    fn check_count(&self, pull: bool) -> bool {
        self.read_fraction == 1.0 || pull
    }
}

/// Parity the way JavaScript's `x & 1` sees a (non-negative, integral) number: `f64 % 2` is exact at any size.
#[inline]
fn is_odd(x: f64) -> bool {
    x % 2.0 != 0.0
}

/// The node kinds (true = static) drawn for `config`, row by row.
fn kinds(config: &Config) -> Vec<bool> {
    let mut random = Sfc32::from_seed("seed");
    (0..(config.total_layers - 1) * config.width)
        .map(|_| random.next_f64() < config.static_fraction)
        .collect()
}

/// Indices (into the last row) of the leaves kept after `removeElems`, in order.
fn kept_leaves(config: &Config) -> Vec<usize> {
    let mut rand = Sfc32::from_seed("seed");
    let mut copy: Vec<usize> = (0..config.width).collect();
    let skip = (config.width as f64 * (1.0 - config.read_fraction)).round() as usize;
    for _ in 0..skip {
        let at = (rand.next_f64() * copy.len() as f64).floor() as usize;
        copy.remove(at);
    }
    copy
}

struct Graph<F: ReactiveFramework> {
    sources: Vec<F::Signal<f64>>,
    leaves: Vec<F::Computed<f64>>,
    counter: Rc<Cell<u64>>,
}

fn make_graph<F: ReactiveFramework>(config: &Config) -> Graph<F> {
    F::with_build(|| {
        let sources: Vec<F::Signal<f64>> = (0..config.width).map(|i| F::signal(i as f64)).collect();
        let counter = Rc::new(Cell::new(0u64));
        let kinds = kinds(config);
        let mut prev: Vec<Src<F, f64>> = sources.iter().cloned().map(Src::Signal).collect();
        let mut row: Vec<F::Computed<f64>> = Vec::new();
        for l in 0..config.total_layers - 1 {
            row = (0..config.width)
                .map(|j| {
                    let mine: Vec<Src<F, f64>> = (0..config.n_sources)
                        .map(|k| prev[(j + k) % config.width].clone())
                        .collect();
                    let counter = counter.clone();
                    if kinds[l * config.width + j] {
                        F::computed(move || {
                            counter.set(counter.get() + 1);
                            let mut sum = 0.0;
                            for src in &mine {
                                sum += src.read();
                            }
                            sum
                        })
                    } else {
                        F::computed(move || {
                            counter.set(counter.get() + 1);
                            let (first, tail) = mine.split_first().expect("n_sources >= 1");
                            let mut sum = first.read();
                            let drop = is_odd(sum);
                            let drop_at = sum % tail.len() as f64;
                            for (i, src) in tail.iter().enumerate() {
                                if drop && i as f64 == drop_at {
                                    continue;
                                }
                                sum += src.read();
                            }
                            sum
                        })
                    }
                })
                .collect();
            prev = row.iter().cloned().map(Src::Computed).collect();
        }
        let leaves: Vec<F::Computed<f64>> = kept_leaves(config)
            .into_iter()
            .map(|i| row[i].clone())
            .collect();
        let read = leaves.clone();
        F::effect(move || {
            for leaf in &read {
                leaf.read();
            }
        });
        Graph {
            sources,
            leaves,
            counter,
        }
    })
}

fn run_graph<F: ReactiveFramework>(graph: &Graph<F>, iterations: usize) -> f64 {
    let width = graph.sources.len();
    for i in 0..iterations {
        F::with_batch(|| {
            let at = i % width;
            graph.sources[at].write((i + at) as f64);
        });
        for leaf in &graph.leaves {
            leaf.read();
        }
    }
    graph
        .leaves
        .iter()
        .fold(0.0, |total, leaf| leaf.read() + total)
}

/// Runs the graph `config` on `F`: build once, warm up, then the fastest of `params.repeats` runs; every run's
/// sum (and count, where the suite checks it) must match.
pub fn run<F: ReactiveFramework>(config: &Config, params: Params) -> Result<Duration, String> {
    let graph = make_graph::<F>(config);
    let result = (|| {
        for _ in 0..params.warmups {
            run_graph(&graph, config.iterations);
        }
        let mut best = Duration::MAX;
        for _ in 0..params.repeats.max(1) {
            graph.counter.set(0);
            let (sum, elapsed) = timed_region(|| run_graph(&graph, config.iterations));
            verify(config, sum, graph.counter.get(), F::PULL_COUNTS)?;
            best = best.min(elapsed);
        }
        Ok(best)
    })();
    drop(graph);
    F::cleanup();
    result
}

fn verify(config: &Config, sum: f64, count: u64, pull: bool) -> Result<(), String> {
    check(sum == config.expected_sum, || {
        format!("sum {sum:e}, expected {:e}", config.expected_sum)
    })?;
    if config.check_count(pull) {
        check(count == config.expected_count, || {
            format!("count {count}, expected {}", config.expected_count)
        })?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// Floor: the same graph as plain arrays. A write walks only the cone below the changed source, row by row, through
// precomputed subscriber lists (a dynamic node counts as a subscriber of what it read last time), recomputing
// with the same equality cutoff. On partially-read graphs it keeps every node that could feed a kept leaf.

struct Floor {
    width: usize,
    n_sources: usize,
    layers: usize,
    statics: Vec<bool>,
    needed: Vec<bool>,
    values: Vec<f64>,
    /// For each computed node, the tail index it skipped last time (`usize::MAX`: none).
    dropped: Vec<usize>,
    mark: Vec<u32>,
    generation: u32,
    work: Vec<Vec<u32>>,
    leaves: Vec<usize>,
    /// Computed executions (the suite's `count`).
    count: u64,
    /// Effect executions.
    effect_runs: u64,
}

impl Floor {
    fn new(config: &Config) -> Floor {
        let (width, layers) = (config.width, config.total_layers);
        let statics = kinds(config);
        let leaves: Vec<usize> = kept_leaves(config)
            .into_iter()
            .map(|i| (layers - 1) * width + i)
            .collect();
        let mut needed = vec![false; layers * width];
        for &leaf in &leaves {
            needed[leaf] = true;
        }
        for l in (1..layers).rev() {
            for j in 0..width {
                if needed[l * width + j] {
                    for k in 0..config.n_sources {
                        needed[(l - 1) * width + (j + k) % width] = true;
                    }
                }
            }
        }
        let mut floor = Floor {
            width,
            n_sources: config.n_sources,
            layers,
            statics,
            needed,
            values: vec![0.0; layers * width],
            dropped: vec![usize::MAX; layers * width],
            mark: vec![0; layers * width],
            generation: 0,
            work: vec![Vec::new(); layers],
            leaves,
            count: 0,
            effect_runs: 0,
        };
        for j in 0..width {
            floor.values[j] = j as f64;
        }
        for l in 1..layers {
            for j in 0..width {
                if floor.needed[l * width + j] {
                    floor.eval(l, j);
                }
            }
        }
        floor
    }

    #[inline]
    fn source(&self, l: usize, j: usize, k: usize) -> f64 {
        self.values[(l - 1) * self.width + (j + k) % self.width]
    }

    fn eval(&mut self, l: usize, j: usize) -> f64 {
        self.count += 1;
        let id = l * self.width + j;
        let sum = if self.statics[(l - 1) * self.width + j] {
            let mut sum = 0.0;
            for k in 0..self.n_sources {
                sum += self.source(l, j, k);
            }
            sum
        } else {
            let mut sum = self.source(l, j, 0);
            let tail = self.n_sources - 1;
            let drop = is_odd(sum);
            let drop_at = sum % tail as f64;
            self.dropped[id] = if drop { drop_at as usize } else { usize::MAX };
            for i in 0..tail {
                if drop && i as f64 == drop_at {
                    continue;
                }
                sum += self.source(l, j, i + 1);
            }
            sum
        };
        self.values[id] = sum;
        sum
    }

    /// Queues the subscribers of node `(l, s)` that read it last time.
    fn push_subscribers(&mut self, l: usize, s: usize) {
        if l + 1 >= self.layers {
            return;
        }
        for k in 0..self.n_sources {
            let j = (s + self.width - k % self.width) % self.width;
            let id = (l + 1) * self.width + j;
            if !self.needed[id] || self.mark[id] == self.generation {
                continue;
            }
            let static_ = self.statics[l * self.width + j];
            if !static_ && k >= 1 && self.dropped[id] == k - 1 {
                continue;
            }
            self.mark[id] = self.generation;
            self.work[l + 1].push(j as u32);
        }
    }

    fn write(&mut self, s: usize, value: f64) {
        if self.values[s] == value {
            return;
        }
        self.values[s] = value;
        self.generation += 1;
        self.push_subscribers(0, s);
        let mut leaf_changed = false;
        for l in 1..self.layers {
            let mut work = std::mem::take(&mut self.work[l]);
            for &j in &work {
                let j = j as usize;
                let old = self.values[l * self.width + j];
                if self.eval(l, j) != old {
                    if l + 1 == self.layers {
                        leaf_changed = true;
                    } else {
                        self.push_subscribers(l, j);
                    }
                }
            }
            work.clear();
            self.work[l] = work;
        }
        if leaf_changed {
            // The effect re-reads every kept leaf.
            self.effect_runs += 1;
            for &leaf in &self.leaves {
                std::hint::black_box(self.values[leaf]);
            }
        }
    }

    fn run(&mut self, iterations: usize) -> f64 {
        for i in 0..iterations {
            let at = i % self.width;
            self.write(at, std::hint::black_box((i + at) as f64));
            for &leaf in &self.leaves {
                std::hint::black_box(self.values[leaf]);
            }
        }
        self.leaves
            .iter()
            .fold(0.0, |total, &leaf| self.values[leaf] + total)
    }
}

/// Runs the floor of graph `config`: the reported time and the node executions in it. The computed-execution
/// count is checked against the suite's on fully-read graphs (the floor is eager, so on lazy graphs it may run
/// nodes a lazy library would not).
pub fn run_floor(config: &Config, params: Params) -> Result<(Duration, u64), String> {
    let mut floor = Floor::new(config);
    for _ in 0..params.warmups {
        floor.run(config.iterations);
    }
    let mut best = Duration::MAX;
    let mut best_runs = 0;
    for _ in 0..params.repeats.max(1) {
        floor.count = 0;
        floor.effect_runs = 0;
        let (sum, elapsed) = timed_region(|| floor.run(config.iterations));
        verify(config, sum, floor.count, false).map_err(|e| format!("floor: {e}"))?;
        if elapsed < best {
            best = elapsed;
            best_runs = floor.count + floor.effect_runs;
        }
    }
    Ok((best, best_runs))
}
