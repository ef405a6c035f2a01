use ranvier::trace_fn;

struct Desk {
    open: u32,
}

impl Desk {
    #[trace_fn]
    fn may_borrow(&self, limit: u32) -> bool {
        let open = self.open;
        let open = open + 1;
        match open {
            0 => true,
            n if n <= limit => {
                if n == limit {
                    true
                } else {
                    n < limit
                }
            }
            _ => false,
        }
    }
}

#[trace_fn]
fn limit_of(kind: u8) -> u32 {
    let rules = |k: u8| if k == 0 { 6 } else { 3 };
    rules(kind)
}

pub fn run() {
    let desk = Desk { open: 2 };
    assert!(desk.may_borrow(limit_of(0)));
}
