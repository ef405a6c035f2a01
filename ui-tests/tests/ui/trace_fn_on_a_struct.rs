use ranvier::trace_fn;

#[trace_fn]
struct Rules {
    limit: u32,
}

#[trace_fn(all)]
fn limit() -> u32 {
    6
}

#[trace_fn]
const fn cap() -> u32 {
    3
}

fn main() {}
