//! Resident memory for the memory benchmarks (`http_memory`, `page_memory`): this process's RSS, and a meter that
//! prints it after each step with the growth since the step before.

/// The resident set of this process, in KiB.
pub fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status (Linux)");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}

/// Prints one line a step: its label (padded to `width`), the RSS now, and the change since the last line.
pub struct Meter {
    /// The RSS at the last line, in KiB.
    pub last: u64,
    /// The label column's width.
    pub width: usize,
}

impl Meter {
    /// A meter starting from the RSS now.
    pub fn new(width: usize) -> Self {
        Meter {
            last: rss_kib(),
            width,
        }
    }

    /// Prints `label`'s line and remembers the RSS.
    pub fn line(&mut self, label: &str) {
        let now = rss_kib();
        println!(
            "{label:<width$} RSS {:>7.1} MiB  ({:>+7.1} MiB)",
            now as f64 / 1024.0,
            (now as f64 - self.last as f64) / 1024.0,
            width = self.width
        );
        self.last = now;
    }
}
