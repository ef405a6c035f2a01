use ranvier::Signal;

fn main() {
    let s = Signal::new(1);
    std::thread::spawn(move || s.get());
}
