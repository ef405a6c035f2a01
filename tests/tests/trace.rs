//! The trace log and its queries: causes, why/why_not/unread, names, lookup, the bounded ring, the dump.
//!
//! Traced builds only (debug, or `--features ranvier/trace`); in an untraced build this file checks that the same
//! API answers that nothing is recorded.

#[cfg(not(any(debug_assertions, feature = "trace")))]
#[test]
fn an_untraced_build_answers_not_traced() {
    use ranvier::trace::{self, TraceError};
    use ranvier::{Memo, Signal};

    assert!(!trace::TRACED);
    let price = Signal::new(2).labelled("price");
    let total = Memo::new({
        let price = price.clone();
        move |_| price.get() * 10
    })
    .labelled("total");
    price.set(3);
    assert_eq!(total.get(), 30);
    assert_eq!(trace::why(&total).unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::why_not(&total).unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::explain(&total).unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::history(&price).unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::info(&price).unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::snapshot().unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::summary().unwrap_err(), TraceError::NotTraced);
    assert_eq!(trace::dump().unwrap_err(), TraceError::NotTraced);
    let lookup = trace::lookup("price").unwrap_err();
    assert_eq!(lookup.reason, TraceError::NotTraced.to_string());
    assert!(TraceError::NotTraced.to_string().contains("ranvier/trace"));
    // The log functions describe an empty log.
    trace::set_capacity(64);
    assert_eq!((trace::capacity(), trace::records_held()), (0, 0));
    assert!(trace::events().is_empty());
}

#[cfg(any(debug_assertions, feature = "trace"))]
mod traced {
    use ranvier::trace::{self, EventKind, RunStatus, WhyNot, WhyRoot, Writer};
    use ranvier::{AnyNode, Effect, Memo, Mvu, NodeId, Signal, batch, untrack};
    use std::cell::RefCell;
    use std::rc::Rc;

    fn kinds(events: &[trace::Event]) -> Vec<&'static str> {
        events
            .iter()
            .map(|e| match e.kind {
                EventKind::Message { .. } => "Message",
                EventKind::Write { .. } => "Write",
                EventKind::Mark { .. } => "Mark",
                EventKind::RunStart { .. } => "RunStart",
                EventKind::RunEnd { .. } => "RunEnd",
                EventKind::NodeNew { .. } => "NodeNew",
                _ => "other",
            })
            .collect()
    }

    #[derive(Debug)]
    enum Msg {
        Add(i64),
        Noop,
    }

    #[test]
    fn why_follows_a_message_through_memos_to_an_effect() {
        let cart = Mvu::new(0_i64, |msg, total| match msg {
            Msg::Add(n) => total + n,
            Msg::Noop => *total,
        })
        .labelled("cart");
        let doubled = cart.select(|t| t * 2);
        let seen = Rc::new(RefCell::new(Vec::new()));
        let show = Effect::new({
            let (doubled, seen) = (doubled.clone(), seen.clone());
            move || seen.borrow_mut().push(doubled.get())
        });
        cart.dispatch(Msg::Add(5)).unwrap();
        assert_eq!(*seen.borrow(), [0, 10]);

        let why = trace::why(&show).unwrap();
        assert_eq!(why.run, 2);
        // Newest first: the effect's run, the mark from the memo, the memo's move, its run, its mark, the write, the
        // message.
        assert_eq!(
            kinds(&why.steps),
            [
                "RunStart", "Mark", "RunEnd", "RunStart", "Mark", "Write", "Message"
            ]
        );
        match &why.root {
            WhyRoot::Message {
                name, args, target, ..
            } => {
                assert_eq!(&**name, "Add");
                assert_eq!(&**args, "(5)");
                assert_eq!(*target, cart.id());
            }
            other => panic!("expected a message root, got {other:?}"),
        }
        let EventKind::Write {
            by: Writer::Message(m),
            moved: true,
            value,
            ..
        } = &why.steps[5].kind
        else {
            panic!("expected the model write, got {:?}", why.steps[5]);
        };
        assert_eq!(*m, why.steps[6].seq);
        assert_eq!(&**value, "5");
        // Every step's cause is the next step.
        for pair in why.steps.windows(2) {
            assert_eq!(pair[0].cause, pair[1].seq);
        }
        let text = why.to_string();
        assert!(text.starts_with("why show#3 run 2\n"), "{text}");
        assert!(text.contains("end doubled#2 moved = 10"), "{text}");
        assert!(text.contains("write cart#1 = 5 by message"), "{text}");
        assert!(
            text.ends_with("root: message Add (5) #".to_string().as_str())
                || text.contains("root: message Add (5) #")
        );
        assert_eq!(text.lines().count(), 1 + 7 + 1);
    }

    #[test]
    fn roots_program_write_creation_and_pull() {
        let a = Signal::new(1);
        let m = Memo::new({
            let a = a.clone();
            move |_| a.get() + 1
        });
        assert_eq!(trace::why(&m).unwrap().root, WhyRoot::NeverRan);
        assert_eq!(m.get(), 2);
        assert!(matches!(
            trace::why(&m).unwrap().root,
            WhyRoot::Pulled { by: None, .. }
        ));
        let e = Effect::new({
            let m = m.clone();
            move || {
                m.get();
            }
        });
        assert!(
            matches!(trace::why(&e).unwrap().root, WhyRoot::Created { node, .. } if node == e.id())
        );
        // A signal never written holds its initial value: its root is its creation.
        assert!(
            matches!(trace::why(&a).unwrap().root, WhyRoot::Created { node, .. } if node == a.id())
        );
        a.set(5);
        assert!(
            matches!(trace::why(&m).unwrap().root, WhyRoot::ProgramWrite { node, .. } if node == a.id())
        );
        assert!(
            matches!(trace::why(&a).unwrap().root, WhyRoot::ProgramWrite { node, .. } if node == a.id())
        );

        // A memo first read by an effect is pulled by it.
        let late = Memo::new({
            let a = a.clone();
            move |_| a.get() * 10
        });
        let reader = Effect::new({
            let late = late.clone();
            move || {
                late.get();
            }
        });
        assert!(
            matches!(trace::why(&late).unwrap().root, WhyRoot::Pulled { by: Some(by), .. } if by == reader.id())
        );
    }

    #[test]
    fn writes_name_the_line_that_wrote_them_and_their_writer() {
        let rate = Signal::new(0).labelled("rate");
        let set_line = line!() + 1;
        rate.set(20);
        // why of a value that came from setup code reaches the line that wrote it
        let why = trace::why(&rate).unwrap();
        match &why.root {
            WhyRoot::ProgramWrite { at: Some(at), .. } => {
                assert_eq!((at.file_name(), at.line), ("trace.rs", set_line));
            }
            other => panic!("expected a program write with its line, got {other:?}"),
        }
        assert!(
            why.to_string().contains(&format!(
                "root: program write to rate#1 at trace.rs:{set_line} #"
            )),
            "{why}"
        );
        // a signal written by an effect: explain names the effect and the line of its write
        let doubled = Signal::new(0).labelled("doubled");
        let write_line = line!() + 3;
        let copy = Effect::new({
            let (rate, doubled) = (rate.clone(), doubled.clone());
            move || doubled.set(rate.get() * 2)
        })
        .labelled("copy");
        let text = trace::explain(&doubled).unwrap().to_string();
        assert!(
            text.contains("\nwritten: doubled#2 = 40 by copy#3 #")
                && text.contains(&format!(
                    "\n  trace.rs:{write_line}: move || doubled.set(rate.get() * 2)"
                )),
            "{text}"
        );
        // an untracked read in the writer is found through it
        let bonus = Signal::new(1).labelled("bonus");
        let total = Signal::new(0).labelled("total");
        let peek_line = line!() + 3;
        let _sum = Effect::new({
            let (rate, bonus, total) = (rate.clone(), bonus.clone(), total.clone());
            move || total.set(rate.get() + bonus.peek())
        });
        bonus.set(5);
        let text = trace::explain(&total).unwrap().to_string();
        // the top finding, right under the node's own line
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[2].starts_with("unread: bonus#4 = 5 moved #")
                && lines[3].starts_with(&format!("  trace.rs:{peek_line}: ")),
            "{text}"
        );
        drop(copy);
        // `name#id:line`, as answers print a node, finds the node
        assert_eq!(trace::lookup("rate#1:12").unwrap(), rate.id());
    }

    #[test]
    fn a_write_by_a_computation_continues_to_that_computations_cause() {
        let input = Signal::new(1);
        let mirror = Signal::new(0);
        let _copy = Effect::new({
            let (input, mirror) = (input.clone(), mirror.clone());
            move || mirror.set(input.get())
        });
        input.set(7);
        let why = trace::why(&mirror).unwrap();
        assert!(matches!(
            why.steps[0].kind,
            EventKind::Write {
                by: Writer::Computation(_),
                ..
            }
        ));
        assert!(
            matches!(why.root, WhyRoot::ProgramWrite { node, .. } if node == input.id()),
            "{why}"
        );
    }

    /// A graph `#[node]` builds: the memo's branches are recorded in traced builds (`fare` is bound to be labelled).
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn fares(age: &Signal<u32>) -> Memo<&'static str> {
        let fare = Memo::new({
            let age = age.clone();
            move |_| match age.get() {
                0..=5 => "free",
                6..=17 => "child",
                _ => {
                    if age.get() > 64 {
                        "senior"
                    } else {
                        "adult"
                    }
                }
            }
        });
        fare
    }

    #[test]
    fn a_node_built_body_records_the_branches_its_run_took() {
        let age = Signal::new(30_u32);
        let fare = fares(&age);
        assert_eq!(fare.get(), "adult");
        let source = include_str!("trace.rs");
        let line_of = |needle: &str| {
            source
                .lines()
                .position(|l| l.trim() == needle)
                .unwrap_or_else(|| panic!("no line {needle}"))
                + 1
        };
        let ran = |explain: &trace::Explain| -> Vec<u32> {
            let ran = explain
                .findings
                .iter()
                .find(|f| f.kind == trace::FindingKind::Ran)
                .unwrap_or_else(|| panic!("no ran finding: {explain}"));
            ran.at
                .iter()
                .chain(&ran.more)
                .map(|l| l.site.line)
                .collect()
        };
        let explain = trace::explain(&fare).unwrap();
        // the `_` arm, then the `else` of the `if` inside it, quoted by its condition (false)
        let (arm, other) = (
            line_of("_ => {") as u32,
            line_of("if age.get() > 64 {") as u32,
        );
        // (a branch recorded inside the `_` arm says where the run went: the range arms above it are not quoted)
        assert_eq!(ran(&explain), [arm, other], "{explain}");
        assert!(
            explain.to_string().contains("if age.get() > 64 { → false"),
            "{explain}"
        );
        assert!(explain.to_string().contains("\nran: fare#"), "{explain}");
        // the next run took other branches: only they are listed
        age.set(10);
        assert_eq!(fare.get(), "child");
        let explain = trace::explain(&fare).unwrap();
        assert_eq!(
            ran(&explain),
            [line_of("6..=17 => \"child\",") as u32],
            "{explain}"
        );
        age.set(70);
        assert_eq!(fare.get(), "senior");
        let explain = trace::explain(&fare).unwrap();
        // the `if` that ran with the statement it ran
        assert_eq!(
            ran(&explain),
            [
                arm,
                line_of("if age.get() > 64 {") as u32,
                line_of("\"senior\"") as u32
            ],
            "{explain}"
        );
    }

    /// A basket's total, `#[node]`-built, with a long body: it shadows its source's handle with the value, then
    /// shadows the total.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn basket_total(prices: &Signal<Vec<u32>>) -> Memo<u32> {
        let basket = Memo::new({
            let prices = prices.clone();
            move |_| {
                let prices = prices.get();
                let mut total = 0;
                for price in &prices {
                    total += price;
                }
                let total = total * 2;
                if total > 1_000 {
                    return 1_000;
                }
                total
            }
        });
        basket
    }

    #[test]
    fn a_let_that_shadows_a_handle_with_its_value_is_not_quoted() {
        let prices = Signal::new(vec![100_u32, 150]);
        let basket = basket_total(&prices);
        assert_eq!(basket.get(), 500);
        let explain = trace::explain(&basket).unwrap();
        let text = explain.to_string();
        let quoted = quoted_lines(&explain);
        // the shadowing `let` that computed is quoted with its value; the one that only read the source is not
        assert!(
            quoted.contains(&line_in_this_file("let total = total * 2;")),
            "{text}"
        );
        assert!(text.contains("let total = total * 2; → 500"), "{text}");
        let read = line_in_this_file("let prices = prices.get();");
        assert!(!quoted.contains(&read), "line {read} quoted:\n{text}");
    }

    #[test]
    fn a_tracked_read_that_only_opens_a_closure_is_not_quoted_in_a_long_body() {
        let prices = Signal::new(vec![100_u32, 150, 900]);
        let dear = Memo::new({
            let prices = prices.clone();
            move |_| {
                prices.with(|all| {
                    let mut dear = Vec::new();
                    for price in all {
                        if *price > 120 {
                            dear.push(*price);
                        }
                    }
                    dear.sort_unstable();
                    dear.len()
                })
            }
        });
        assert_eq!(dear.get(), 2);
        let explain = trace::explain(&dear).unwrap();
        let text = explain.to_string();
        let quoted: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        // the body is quoted by the lines that make its value; the read that only opens the closure is not
        assert!(quoted.contains(&line_in_this_file("dear.len()")), "{text}");
        let opens = line_in_this_file("prices.with(|all| {");
        assert!(!quoted.contains(&opens), "line {opens} quoted:\n{text}");
        // an untracked read that opens a closure still is
        let cheap = Memo::new({
            let prices = prices.clone();
            move |_| {
                prices.with_untracked(|all| {
                    let mut cheap = Vec::new();
                    for price in all {
                        if *price <= 120 {
                            cheap.push(*price);
                        }
                    }
                    cheap.sort_unstable();
                    cheap.len()
                })
            }
        });
        assert_eq!(cheap.get(), 1);
        let explain = trace::explain(&cheap).unwrap();
        let untracked = line_in_this_file("prices.with_untracked(|all| {");
        assert!(
            explain.body.iter().any(|l| l.site.line == untracked),
            "{explain}"
        );
    }

    /// Two pricing rules a memo is given through a fn pointer; `#[trace_fn]` records which one ran.
    #[ranvier::trace_fn]
    fn flat_rate(grams: u32) -> u32 {
        let grams = grams.div_ceil(100);
        grams * 30
    }

    #[ranvier::trace_fn]
    fn banded_rate(grams: u32) -> u32 {
        if grams > 500 { 900 } else { 400 }
    }

    /// The `ran:` lines of `explain` (the first `ran:` finding's).
    fn ran_lines(explain: &trace::Explain) -> Vec<(u32, String)> {
        let ran = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Ran)
            .unwrap_or_else(|| panic!("no ran finding: {explain}"));
        ran.at
            .iter()
            .chain(&ran.more)
            .map(|l| (l.site.line, l.text.clone()))
            .collect()
    }

    /// The line numbers of the `ran:` lines of `explain` (see [`ran_lines`]).
    fn ran_line_numbers(explain: &trace::Explain) -> Vec<u32> {
        ran_lines(explain)
            .into_iter()
            .map(|(line, _)| line)
            .collect()
    }

    /// The lines an explanation quotes: its findings' and its body's.
    fn quoted_lines(explain: &trace::Explain) -> Vec<u32> {
        explain
            .findings
            .iter()
            .flat_map(|f| f.at.iter().chain(&f.more))
            .chain(&explain.body)
            .map(|l| l.site.line)
            .collect()
    }

    /// The lines every finding of `explain` quotes, in order: each one's `at` line, then its `more`.
    fn finding_lines(explain: &trace::Explain) -> Vec<u32> {
        explain
            .findings
            .iter()
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect()
    }

    /// The lines quoted by `explain`'s finding for message `name` (the one whose text starts `message name #`): its
    /// `at` lines, then its `more`.
    fn message_lines(explain: &trace::Explain, name: &str) -> Vec<u32> {
        let prefix = format!("message {name} #");
        lines_of_finding(explain, |text| text.starts_with(&prefix), &prefix)
    }

    /// The lines of `explain`'s `settled:` findings.
    fn settled_lines(explain: &trace::Explain) -> Vec<u32> {
        explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Settled)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect()
    }

    /// The lines quoted by the first of `explain`'s findings whose text `is` accepts (`what` names it in the panic
    /// when none does): its `at` lines, then its `more`.
    fn lines_of_finding(
        explain: &trace::Explain,
        is: impl Fn(&str) -> bool,
        what: &str,
    ) -> Vec<u32> {
        let finding = explain
            .findings
            .iter()
            .find(|f| is(&f.text))
            .unwrap_or_else(|| panic!("no finding {what:?}:\n{explain}"));
        finding
            .at
            .iter()
            .chain(&finding.more)
            .map(|l| l.site.line)
            .collect()
    }

    fn line_in_this_file(needle: &str) -> u32 {
        let line = include_str!("trace.rs")
            .lines()
            .position(|l| l.trim() == needle)
            .unwrap_or_else(|| panic!("no line {needle}"));
        u32::try_from(line + 1).unwrap()
    }

    #[test]
    fn trace_fn_resolves_a_fn_pointer_and_records_a_shadowing_let() {
        let grams = Signal::new(250_u32);
        let rule = Signal::new(flat_rate as fn(u32) -> u32);
        let postage = Memo::new({
            let (grams, rule) = (grams.clone(), rule.clone());
            move |_| (rule.get())(grams.get())
        });
        assert_eq!(postage.get(), 90);
        let explain = trace::explain(&postage).unwrap();
        let lines = ran_lines(&explain);
        // the shadowing `let` of the fn that ran, with the value it bound; not the other rule's lines
        let shadow = line_in_this_file("let grams = grams.div_ceil(100);");
        assert!(
            lines
                .iter()
                .any(|(at, text)| *at == shadow && text.ends_with("→ 3")),
            "{explain}"
        );
        let banded = line_in_this_file("if grams > 500 { 900 } else { 400 }");
        assert!(lines.iter().all(|(at, _)| *at != banded), "{explain}");
        // switched through the pointer: the other fn's branch is what ran now
        rule.set(banded_rate);
        assert_eq!(postage.get(), 400);
        let explain = trace::explain(&postage).unwrap();
        let lines = ran_lines(&explain);
        assert!(lines.iter().any(|(at, _)| *at == banded), "{explain}");
        assert!(lines.iter().all(|(at, _)| *at != shadow), "{explain}");
    }

    /// The rules of an attendance memo: one given to it as a fn value (`on_roll`), four it calls by name.
    #[ranvier::trace_fn]
    fn roll_days(joined: u32, today: u32) -> u32 {
        today.saturating_sub(joined)
    }

    #[ranvier::trace_fn]
    fn half_days(days: u32) -> u32 {
        days * 2
    }

    #[ranvier::trace_fn]
    fn present(sessions: u32, missed: u32) -> u32 {
        sessions.saturating_sub(missed)
    }

    #[ranvier::trace_fn]
    fn share(part: u32, whole: u32) -> u32 {
        (part * 100).checked_div(whole).unwrap_or(100)
    }

    #[ranvier::trace_fn]
    fn capped(percent: u32) -> u32 {
        percent.min(100)
    }

    /// An attendance memo given its days-on-roll rule as a fn value.
    fn attendance(
        joined: &Signal<u32>,
        today: &Signal<u32>,
        missed: &Signal<u32>,
        on_roll: fn(u32, u32) -> u32,
    ) -> Memo<u32> {
        let (joined, today, missed) = (joined.clone(), today.clone(), missed.clone());
        Memo::new(move |_| {
            let days = on_roll(joined.get(), today.get());
            let sessions = half_days(days);
            let here = present(sessions, missed.get());
            capped(share(here, sessions))
        })
    }

    #[test]
    fn a_rule_called_through_a_fn_value_is_quoted_before_those_called_by_name() {
        let (joined, today, missed) = (Signal::new(3_u32), Signal::new(8_u32), Signal::new(1_u32));
        let percent = attendance(&joined, &today, &missed, roll_days);
        assert_eq!(percent.get(), 90);
        let explain = trace::explain(&percent).unwrap();
        // the body quotes the calls by name and the helpers they reach; only the run's records reach `roll_days`,
        // and its line comes first among them, not after the four rules entered later
        let rule = line_in_this_file("today.saturating_sub(joined)");
        let lines = ran_line_numbers(&explain);
        assert_eq!(lines.first(), Some(&rule), "{explain}");
        // and it leads the answer, before the body's lines, which keep their full count (it does not stand for them)
        let text = explain.to_string();
        let at = |code: &str| {
            text.find(code)
                .unwrap_or_else(|| panic!("{code} not quoted: {text}"))
        };
        assert!(
            at("today.saturating_sub(joined)") < at("let sessions = half_days(days);"),
            "{text}"
        );
        assert!(
            at("today.saturating_sub(joined)") < at("capped(share(here, sessions))"),
            "{text}"
        );
        // the same rule called by name: the latest fn entered first, as for any helper
        let plain = Memo::new({
            let (today, missed) = (today.clone(), missed.clone());
            move |_| {
                capped(share(
                    present(half_days(roll_days(3, today.get())), missed.get()),
                    10,
                ))
            }
        });
        assert_eq!(plain.get(), 90);
        let explain = trace::explain(&plain).unwrap();
        let first = ran_line_numbers(&explain);
        assert_eq!(
            first.first(),
            Some(&line_in_this_file("percent.min(100)")),
            "{explain}"
        );
    }

    /// A count of the copies sold of the books a shop knows, `#[node]`-built; the mistake: a sale of a book it does
    /// not know stops the count (`break`, where `continue` was meant).
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn known_copies(sales: &Signal<Vec<(&'static str, u32)>>) -> Memo<u32> {
        let copies = Memo::new({
            let sales = sales.clone();
            move |_| {
                let known = ["dune", "emma"];
                let mut copies = 0;
                for (code, qty) in sales.get() {
                    let Some(_) = known.iter().find(|k| **k == code) else {
                        break;
                    };
                    copies += qty;
                }
                copies
            }
        });
        copies
    }

    #[test]
    fn an_else_that_left_a_loop_leads_the_answer_with_its_break() {
        let sales = Signal::new(vec![("dune", 2_u32), ("emma", 1)]);
        let copies = known_copies(&sales);
        assert_eq!(copies.get(), 3);
        // every book known: the `else` did not run, and nothing says it did
        let explain = trace::explain(&copies).unwrap();
        let opens = line_in_this_file("let Some(_) = known.iter().find(|k| **k == code) else {");
        let stop = opens + 1;
        assert!(
            explain.findings.iter().all(|f| f
                .at
                .iter()
                .chain(&f.more)
                .all(|l| l.site.line != stop)),
            "{explain}"
        );
        // a book it does not know stopped the count at the first one: the `else` that ran leads, with its `break`
        sales.set(vec![("dune", 2), ("map", 1), ("emma", 4)]);
        assert_eq!(copies.get(), 2);
        let explain = trace::explain(&copies).unwrap();
        let first = explain
            .findings
            .first()
            .unwrap_or_else(|| panic!("no finding: {explain}"));
        assert_eq!(first.kind, trace::FindingKind::Ran, "{explain}");
        let lines = ran_lines(&explain);
        assert_eq!(lines.first().map(|(at, _)| *at), Some(opens), "{explain}");
        assert_eq!(lines.get(1).map(|(at, _)| *at), Some(stop), "{explain}");
    }

    /// [`known_copies`] with the mistake written as an `if` whose block leaves the loop.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn known_copies_by_if(sales: &Signal<Vec<(&'static str, u32)>>) -> Memo<u32> {
        let copies = Memo::new({
            let sales = sales.clone();
            move |_| {
                let known = ["dune", "emma"];
                let mut copies = 0;
                for (code, qty) in sales.get() {
                    if !known.contains(&code) {
                        break;
                    }
                    copies += qty;
                }
                copies
            }
        });
        copies
    }

    #[test]
    fn an_if_that_left_a_loop_leads_the_answer_with_its_break() {
        let sales = Signal::new(vec![("dune", 2_u32), ("map", 1), ("emma", 4)]);
        let copies = known_copies_by_if(&sales);
        assert_eq!(copies.get(), 2);
        let explain = trace::explain(&copies).unwrap();
        let first = explain
            .findings
            .first()
            .unwrap_or_else(|| panic!("no finding: {explain}"));
        assert_eq!(first.kind, trace::FindingKind::Ran, "{explain}");
        let opens = line_in_this_file("if !known.contains(&code) {");
        let lines = ran_lines(&explain);
        assert_eq!(lines.first().map(|(at, _)| *at), Some(opens), "{explain}");
        assert_eq!(
            lines.get(1).map(|(at, _)| *at),
            Some(opens + 1),
            "{explain}"
        );
        // the `if` and its `break` lead the answer, before the body's other lines
        let text = explain.to_string();
        let at = |line: u32| text.find(&format!("trace.rs:{line}:"));
        let adds = opens + 3; // copies += qty;
        assert!(at(opens) < at(adds) && at(adds).is_some(), "{explain}");
    }

    /// A shop's sales, notices and till.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct ReturnsDesk {
        sales: Vec<(u32, i64)>,
        notices: Vec<String>,
        till: Vec<i64>,
    }

    /// Takes a sale back: finds it, or notes there is none and leaves.
    #[ranvier::trace_fn]
    fn take_back(shop: &mut ReturnsDesk, no: u32) {
        let Some(at) = shop.sales.iter().position(|(n, _)| *n == no) else {
            shop.notices.push(format!("no sale {no}"));
            return;
        };
        let (_, pence) = shop.sales.remove(at);
        shop.till.push(-pence);
    }

    #[test]
    fn a_let_else_whose_else_did_not_run_is_not_quoted_as_what_ran() {
        let counter = ReturnsDesk {
            sales: vec![(1, 250), (2, 400)],
            ..ReturnsDesk::default()
        };
        let shop = Mvu::new(counter, |no: u32, shop: &ReturnsDesk| {
            let mut next = shop.clone();
            take_back(&mut next, no);
            next
        });
        let till = shop.select(|shop| shop.till.iter().sum::<i64>());
        assert_eq!(till.get(), 0);
        shop.dispatch(2).unwrap();
        assert_eq!(till.get(), -400);
        let explain = trace::explain(&till).unwrap();
        let lines: Vec<u32> = explain
            .findings
            .iter()
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        // the sale was found: the `else` block (its notice, its `return`) did not run
        let notice = line_in_this_file("shop.notices.push(format!(\"no sale {no}\"));");
        assert!(lines.iter().all(|l| *l != notice), "{explain}");
        assert!(
            lines.contains(&line_in_this_file("shop.till.push(-pence);")),
            "{explain}"
        );
    }

    /// A ticket whose fare a method of its own computes (not `#[trace_fn]`: only the source leads there).
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Ticket {
        base: u32,
        percent_off: u32,
    }

    impl Ticket {
        fn fare_after_discount(&self) -> u32 {
            self.base * (100 - self.percent_off) / 100
        }
    }

    #[test]
    fn a_method_of_the_crate_s_own_type_that_a_body_calls_is_quoted() {
        let ticket = Signal::new(Ticket {
            base: 400,
            percent_off: 25,
        });
        let fare = Memo::new({
            let ticket = ticket.clone();
            move |_| {
                let ticket = ticket.get();
                let booking_fee = 50;
                ticket.fare_after_discount() + booking_fee
            }
        });
        assert_eq!(fare.get(), 350);
        let explain = trace::explain(&fare).unwrap();
        let method = line_in_this_file("self.base * (100 - self.percent_off) / 100");
        assert!(
            explain.body.iter().any(|l| l.site.line == method),
            "{explain}"
        );
    }

    /// Goals against a club from one result: which branch ran decides, and the statement in it computes.
    #[ranvier::trace_fn]
    fn goals_against(home: bool, scored: u32, conceded: u32) -> u32 {
        let mut against = 0;
        if home {
            against += conceded;
        } else if scored >= conceded {
            if scored > conceded + 2 {
                against += 1;
            }
            against += scored;
        }
        against
    }

    #[test]
    fn a_branch_that_ran_is_quoted_with_the_statement_it_ran_and_not_the_branch_around_it() {
        let scored = Signal::new(2_u32);
        let against = Memo::new({
            let scored = scored.clone();
            move |_| goals_against(false, scored.get(), 1)
        });
        assert_eq!(against.get(), 2);
        let explain = trace::explain(&against).unwrap();
        let lines = ran_line_numbers(&explain);
        // the `else if` that ran, and what it ran
        let branch = line_in_this_file("} else if scored >= conceded {");
        let action = line_in_this_file("against += scored;");
        assert!(
            lines.contains(&branch) && lines.contains(&action),
            "{explain}"
        );
        // a branch holding another that ran is said by the inner one
        scored.set(6);
        assert_eq!(against.get(), 7);
        let explain = trace::explain(&against).unwrap();
        let lines = ran_line_numbers(&explain);
        let inner = line_in_this_file("if scored > conceded + 2 {");
        assert!(lines.contains(&inner), "{explain}");
        assert!(
            lines.contains(&line_in_this_file("against += 1;")),
            "{explain}"
        );
        assert!(!lines.contains(&branch), "{explain}");
    }

    /// A fixture's score, set again by a message whose `update` and helpers carry no `#[trace_fn]`.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Fixture {
        home: u32,
        away: u32,
        corrected: bool,
    }

    #[derive(Debug)]
    enum FixtureMsg {
        Rescore { home: u32, away: u32 },
    }

    fn put_score(fixture: &mut Fixture, home: u32, away: u32) {
        fixture.home = home;
        fixture.away = away;
    }

    fn rescore(fixture: &mut Fixture, home: u32, away: u32) {
        fixture.corrected = true;
        put_score(fixture, away, home);
    }

    fn fixture_update(msg: FixtureMsg, fixture: &Fixture) -> Fixture {
        let mut next = fixture.clone();
        match msg {
            FixtureMsg::Rescore { home, away } => rescore(&mut next, home, away),
        }
        next
    }

    #[test]
    fn without_trace_fn_a_message_s_arm_is_followed_into_the_helpers_it_calls() {
        let fixture = Mvu::new(Fixture::default(), fixture_update);
        let shown = Memo::new({
            let fixture = fixture.clone();
            move |_| fixture.with_model(|f| format!("{}-{}", f.home, f.away))
        });
        assert_eq!(shown.get(), "0-0");
        fixture
            .dispatch_traced(
                "rescore",
                r#"{"home":3,"away":1}"#,
                FixtureMsg::Rescore { home: 3, away: 1 },
            )
            .unwrap();
        assert_eq!(shown.get(), "1-3");
        let explain = trace::explain(&shown).unwrap();
        let lines = message_lines(&explain, "rescore");
        // the arm, the helper's write, and the call that gave the helper its arguments
        let arm = line_in_this_file(
            "FixtureMsg::Rescore { home, away } => rescore(&mut next, home, away),",
        );
        let write = line_in_this_file("fixture.home = home;");
        let call = line_in_this_file("put_score(fixture, away, home);");
        for line in [arm, write, call] {
            assert!(lines.contains(&line), "line {line}: {explain}");
        }
    }

    /// The plan of a round of watering: a zone is skipped when its reading is wet enough (compared with the wrong
    /// field here: the air's humidity for the soil's moisture).
    fn watering(readings: &Signal<Vec<(u32, u32)>>) -> Memo<Vec<String>> {
        const ZONES: [&str; 2] = ["north", "south"];
        let readings = readings.clone();
        Memo::new(move |_| {
            let mut readings: Vec<(usize, (u32, u32))> =
                readings.get().into_iter().enumerate().collect();
            readings.sort_by(|a, b| a.1.0.cmp(&b.1.0).then_with(|| a.0.cmp(&b.0)));
            let limit = 35;
            let mut lines = Vec::with_capacity(readings.len() + 1);
            let mut total = 0;
            for (zone, (soil, humidity)) in readings {
                let Some(name) = ZONES.get(zone) else {
                    continue;
                };
                let wet = Some(soil).filter(|_| humidity >= limit);
                lines.push(match wet {
                    Some(level) => format!("{} {}: skipped, soil {} %", name, zone, level),
                    None => {
                        let minutes = limit - soil.min(limit);
                        total += minutes;
                        format!("{name} {zone}: {minutes} min")
                    }
                });
            }
            lines.push(format!("next round: {total} min"));
            lines
        })
    }

    #[test]
    fn a_text_made_in_a_match_arm_brings_the_let_its_match_matched_on() {
        let readings = Signal::new(vec![(20_u32, 30_u32)]);
        let plan = watering(&readings);
        assert_eq!(plan.get(), ["north 0: 15 min", "next round: 15 min"]);
        readings.set(vec![(20, 60)]);
        assert_eq!(
            plan.get(),
            ["north 0: skipped, soil 20 %", "next round: 0 min"]
        );
        let explain = trace::explain(&plan).unwrap();
        let quoted = quoted_lines(&explain);
        let wet = line_in_this_file("let wet = Some(soil).filter(|_| humidity >= limit);");
        assert!(quoted.contains(&wet), "line {wet}: {explain}");
    }

    /// A till's takings, by size; no `#[trace_fn]` anywhere.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Takings {
        entries: u32,
        last: u32,
        big: Vec<u32>,
        small: Vec<u32>,
    }

    #[derive(Debug)]
    enum TakingsMsg {
        Pay(u32),
    }

    fn book_takings(till: &mut Takings, cents: u32) {
        till.entries += 1;
        till.last = cents;
        if cents >= 100 {
            till.big.push(cents);
        } else {
            till.small.push(cents);
        }
    }

    fn till_book_update(msg: TakingsMsg, till: &Takings) -> Takings {
        let mut next = till.clone();
        match msg {
            TakingsMsg::Pay(cents) => book_takings(&mut next, cents),
        }
        next
    }

    #[test]
    fn without_trace_fn_a_helper_s_write_to_a_field_the_message_changed_is_quoted_first() {
        let till = Mvu::new(
            Takings {
                entries: 1,
                last: 40,
                ..Takings::default()
            },
            till_book_update,
        );
        let small = Memo::new({
            let till = till.clone();
            move |_| till.with_model(|l| l.small.len())
        });
        assert_eq!(small.get(), 0);
        till.dispatch_traced("pay", "40", TakingsMsg::Pay(40))
            .unwrap();
        assert_eq!(small.get(), 1);
        let explain = trace::explain(&small).unwrap();
        let lines = message_lines(&explain, "pay");
        // the message changed `entries` and `small[0]` (`last` was 40 already): the deepest change's write ran
        let write = line_in_this_file("till.small.push(cents);");
        assert!(lines.contains(&write), "line {write}: {explain}");
        let other = line_in_this_file("till.big.push(cents);");
        assert!(!lines.contains(&other), "line {other}: {explain}");
    }

    /// A door's log; no `#[trace_fn]` anywhere. The mistake: the opening hours checked against the day, not the
    /// hour (swapped arguments).
    #[derive(Debug, Clone, PartialEq, Default)]
    struct DoorLog {
        hour: u32,
        day: u32,
        lines: Vec<String>,
    }

    #[derive(Debug)]
    enum DoorMsg {
        Badge(&'static str),
    }

    fn door_open(hour: u32, day: u32) -> Result<(), &'static str> {
        if day > 5 {
            return Err("closed at weekends");
        }
        if !(8..18).contains(&hour) {
            return Err("outside opening hours");
        }
        Ok(())
    }

    fn badge(log: &mut DoorLog, who: &str) {
        if who.is_empty() {
            log.lines.push(format!("{}:00 unknown badge", log.hour));
            return;
        }
        let at = format!("{}:00 {who}", log.hour);
        match door_open(log.day, log.hour) {
            Ok(()) => log.lines.push(format!("{at} let in")),
            Err(why) => log.lines.push(format!("{at} turned away: {why}")),
        }
    }

    fn door_update(msg: DoorMsg, log: &DoorLog) -> DoorLog {
        let mut next = log.clone();
        match msg {
            DoorMsg::Badge(who) => badge(&mut next, who),
        }
        next
    }

    #[test]
    fn without_trace_fn_a_helper_s_write_whose_template_made_the_new_text_is_quoted_with_its_match()
    {
        let door = Mvu::new(
            DoorLog {
                hour: 9,
                day: 2,
                lines: Vec::new(),
            },
            door_update,
        );
        let log = Memo::new({
            let door = door.clone();
            move |_| door.with_model(|l| l.lines.clone())
        });
        door.dispatch_traced("badge", "\"ada\"", DoorMsg::Badge("ada"))
            .unwrap();
        // 9:00 on a Tuesday is open: the hour taken as the day is a weekend
        assert_eq!(
            log.get(),
            vec!["9:00 ada turned away: closed at weekends".to_owned()]
        );
        let explain = trace::explain(&log).unwrap();
        let lines = message_lines(&explain, "badge");
        let chose = line_in_this_file("match door_open(log.day, log.hour) {");
        assert!(lines.contains(&chose), "line {chose}: {explain}");
        let made =
            line_in_this_file("Err(why) => log.lines.push(format!(\"{at} turned away: {why}\")),");
        assert!(lines.contains(&made), "line {made}: {explain}");
    }

    /// A score whose `update` closure calls the app's `update` fn with a setting it captured; other `update`s of
    /// this file match on variants named `Add` too.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Score {
        total: i64,
    }

    #[derive(Debug)]
    enum ScoreMsg {
        Add(i64),
    }

    fn score_update(step: i64, msg: ScoreMsg, score: &Score) -> Score {
        let mut next = score.clone();
        match msg {
            ScoreMsg::Add(n) => next.total += n * step,
        }
        next
    }

    #[test]
    fn an_update_closure_that_calls_the_update_fn_is_quoted_by_that_fn_s_arm() {
        let step = 2;
        let score = Mvu::new(Score::default(), move |msg, t: &Score| {
            score_update(step, msg, t)
        });
        let total = Memo::new({
            let score = score.clone();
            move |_| score.with_model(|t| t.total)
        });
        score.dispatch_traced("add", "3", ScoreMsg::Add(3)).unwrap();
        assert_eq!(total.get(), 6);
        let explain = trace::explain(&total).unwrap();
        let lines = message_lines(&explain, "add");
        let arm = line_in_this_file("ScoreMsg::Add(n) => next.total += n * step,");
        assert!(lines.contains(&arm), "line {arm}: {explain}");
    }

    /// A row factory: the cartons a job's copies fill. The mistake: a part-filled carton is not counted (rounding
    /// down).
    fn cartons_of(row: &ranvier::collection::Row<u32, (u32, u32)>) -> (&'static str, Memo<u32>) {
        let row = row.clone();
        let cartons = Memo::new(move |_| {
            row.with(|job| {
                let stack = 250 / job.1.max(1);
                let per_carton = stack * 4;
                job.0 / per_carton.max(1)
            })
        });
        ("cartons", cartons)
    }

    #[test]
    fn a_row_factory_s_handle_clone_is_not_quoted_before_its_value() {
        use ranvier::collection::Collection;
        // (copies, thickness)
        let jobs = Signal::new(vec![(150_u32, 5_u32)]);
        let rows = Collection::keyed(jobs.clone(), |j: &(u32, u32)| j.1, cartons_of);
        // 150 copies of 5 units fill one carton of 200 in part: 1, not 0
        let mut cartons = Vec::new();
        rows.for_each(|_, _, (_, memo)| cartons.push(memo.get()));
        assert_eq!(cartons, vec![0]);
        let explain = trace::explain(&rows).unwrap();
        let tail = line_in_this_file("job.0 / per_carton.max(1)");
        let clone = line_in_this_file("let row = row.clone();");
        let lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        assert!(lines.contains(&tail), "line {tail}: {explain}");
        assert!(!lines.contains(&clone), "line {clone}: {explain}");
    }

    /// A cider press's orders; no `#[trace_fn]` on the helpers. Shipping kegs should charge the customer's deposit
    /// (a command); the mistake: the charge is sent only to a customer who has a keg account already, so a new
    /// customer's kegs go out with no deposit and no command at all.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct CiderPress {
        kegs_out: Vec<(&'static str, u32)>,
        deposits: Vec<(&'static str, u32)>,
    }

    #[derive(Debug)]
    enum CiderMsg {
        Ship { customer: &'static str, kegs: u32 },
        ChargeDeposit { customer: &'static str, kegs: u32 },
    }

    fn ship_cider(press: &mut CiderPress, customer: &'static str, kegs: u32) -> Vec<CiderMsg> {
        let mut commands = Vec::new();
        let known = press.kegs_out.iter().any(|(c, _)| *c == customer);
        press.kegs_out.push((customer, kegs));
        if kegs > 0 && known {
            commands.push(CiderMsg::ChargeDeposit { customer, kegs });
        }
        commands
    }

    fn cider_update(msg: CiderMsg, press: &CiderPress) -> (CiderPress, Vec<CiderMsg>) {
        let mut next = press.clone();
        let commands = match msg {
            CiderMsg::Ship { customer, kegs } => ship_cider(&mut next, customer, kegs),
            CiderMsg::ChargeDeposit { customer, kegs } => {
                next.deposits.push((customer, kegs * 3_000));
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_message_that_sent_no_command_is_quoted_by_the_condition_that_kept_one_from_being_sent() {
        let press = Mvu::with_commands((CiderPress::default(), Vec::new()), cider_update);
        let deposits = press.select(|p| p.deposits.clone());
        press
            .dispatch_traced(
                "ship",
                "orchard inn",
                CiderMsg::Ship {
                    customer: "orchard inn",
                    kegs: 2,
                },
            )
            .unwrap();
        // two kegs out: a deposit owed, none charged
        assert_eq!(deposits.get(), vec![]);
        let explain = trace::explain(&deposits).unwrap();
        let lines = message_lines(&explain, "ship");
        for line in [
            "if kegs > 0 && known {",
            "commands.push(CiderMsg::ChargeDeposit { customer, kegs });",
        ] {
            let at = line_in_this_file(line);
            assert!(lines.contains(&at), "line {at}: {explain}");
        }
        // a customer known already is charged: the helper does send the command
        press
            .dispatch(CiderMsg::Ship {
                customer: "orchard inn",
                kegs: 1,
            })
            .unwrap();
        assert_eq!(deposits.get(), vec![("orchard inn", 3_000)]);
    }

    /// A roaster's day, `#[trace_fn]`-marked: `Advance` sends `Roast` (which weighs what comes out of the roaster
    /// through a rule) and then `Restock` (nothing to restock: it leaves the model as it was). The mistake: the rule
    /// gives the weight lost, not the weight left. `Restock`, the latest message, changed nothing, but `Roast`, sent
    /// by the same `Advance`, moved the node after it was dispatched: `Restock` had nothing to change.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Roaster {
        day: u32,
        green: u32,
        roasted: Vec<u32>,
    }

    #[derive(Debug)]
    enum RoasterMsg {
        Advance,
        Roast,
        Restock,
    }

    #[ranvier::trace_fn]
    fn loss_percent(roast: Roast) -> u32 {
        match roast {
            Roast::Light => 15,
            Roast::Dark => 20,
        }
    }

    #[derive(Debug, Clone, Copy)]
    enum Roast {
        #[allow(dead_code)]
        Light,
        Dark,
    }

    #[ranvier::trace_fn]
    fn roasted_grams(green: u32, roast: Roast) -> u32 {
        let loss = loss_percent(roast);
        green * loss / 100
    }

    #[ranvier::trace_fn]
    fn roaster_update(msg: RoasterMsg, roaster: &Roaster) -> (Roaster, Vec<RoasterMsg>) {
        let mut next = roaster.clone();
        let commands = match msg {
            RoasterMsg::Advance => {
                next.day += 1;
                vec![RoasterMsg::Roast, RoasterMsg::Restock]
            }
            RoasterMsg::Roast => {
                let out = roasted_grams(next.green, Roast::Dark);
                next.roasted.push(out);
                Vec::new()
            }
            RoasterMsg::Restock => {
                if next.green < 5_000 {
                    next.green += 60_000;
                }
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_command_that_left_the_model_as_it_was_after_a_sibling_moved_the_node_is_not_the_first_suspect()
     {
        let roaster = Mvu::with_commands(
            (
                Roaster {
                    day: 0,
                    green: 10_000,
                    roasted: Vec::new(),
                },
                Vec::new(),
            ),
            roaster_update,
        );
        let roasted = roaster.select(|r| r.roasted.clone());
        // the bench's board shows what was roasted, as each message is handled
        let _board = Effect::new({
            let roasted = roasted.clone();
            move || {
                let _ = roasted.get();
            }
        });
        roaster.dispatch(RoasterMsg::Advance).unwrap();
        // 10 kg of green coffee roasted dark: 8 kg out, not 2
        assert_eq!(roasted.get(), vec![2_000]);
        let explain = trace::explain(&roasted).unwrap();
        // the command that moved the node before the one that had nothing to change
        let at = |name: &str| {
            let prefix = format!("message {name} #");
            explain
                .findings
                .iter()
                .position(|f| f.text.starts_with(&prefix))
        };
        assert!(
            at("Roast").is_some() && (at("Restock").is_none() || at("Roast") < at("Restock")),
            "{explain}"
        );
        let tail = line_in_this_file("green * loss / 100");
        assert!(
            message_lines(&explain, "Roast").contains(&tail),
            "line {tail}:\n{explain}"
        );
    }

    /// A hire desk settling a return, `#[trace_fn]`-marked: what is owed adds up the damage found, then the late
    /// fee. The mistake: a day late is charged as a week (`7 *`). The car came back with no damage, so the loop that
    /// adds the damage ran no time.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct HireDesk {
        damage: Vec<u32>,
        owed: Vec<u32>,
    }

    #[derive(Debug)]
    enum HireMsg {
        Settle { days_late: u32 },
    }

    #[ranvier::trace_fn]
    fn settle_hire(desk: &mut HireDesk, days_late: u32) {
        let mut owed = 0;
        for cost in &desk.damage {
            owed += cost.min(&50_000);
        }
        let late = 7 * days_late * 4_000;
        desk.owed.push(owed + late);
    }

    #[ranvier::trace_fn]
    fn hire_update(msg: HireMsg, desk: &HireDesk) -> HireDesk {
        let mut next = desk.clone();
        match msg {
            HireMsg::Settle { days_late } => settle_hire(&mut next, days_late),
        }
        next
    }

    #[test]
    fn a_line_of_a_loop_an_update_reached_and_never_entered_is_not_quoted() {
        let desk = Mvu::new(HireDesk::default(), hire_update);
        let owed = desk.select(|d: &HireDesk| d.owed.clone());
        desk.dispatch_traced("settle", "1", HireMsg::Settle { days_late: 1 })
            .unwrap();
        // a day late: 4,000, not 28,000
        assert_eq!(owed.get(), vec![28_000]);
        let explain = trace::explain(&owed).unwrap();
        let lines = message_lines(&explain, "settle");
        let added = line_in_this_file("owed += cost.min(&50_000);");
        assert!(!lines.contains(&added), "line {added} quoted:\n{explain}");
        // the fn's write is quoted: the answer does read the fn
        let written = line_in_this_file("desk.owed.push(owed + late);");
        assert!(
            lines.contains(&written),
            "line {written} not quoted:\n{explain}"
        );
    }

    /// A car park's queue for its long bays, `#[trace_fn]`-marked: `Admit` parks each queued car that fits a free bay.
    /// The mistake: a car fits when it is shorter than the bay (`<` for `<=`), so a car as long as the bay waits, and
    /// the message leaves the car park as it was.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct LongBays {
        bay_cm: u32,
        queued: Vec<u32>,
        parked: Vec<u32>,
    }

    #[derive(Debug)]
    enum BaysMsg {
        Admit,
    }

    #[ranvier::trace_fn]
    fn admit_queued(bays: &mut LongBays) {
        let mut waiting = Vec::new();
        for car_cm in std::mem::take(&mut bays.queued) {
            if car_cm < bays.bay_cm {
                bays.parked.push(car_cm);
            } else {
                waiting.push(car_cm);
            }
        }
        bays.queued = waiting;
    }

    #[ranvier::trace_fn]
    fn bays_update(msg: BaysMsg, bays: &LongBays) -> LongBays {
        let mut next = bays.clone();
        match msg {
            BaysMsg::Admit => admit_queued(&mut next),
        }
        next
    }

    #[test]
    fn a_message_that_left_the_model_as_it_was_is_quoted_by_the_branches_that_kept_it_from_writing_first()
     {
        let start = LongBays {
            bay_cm: 520,
            queued: vec![520],
            parked: Vec::new(),
        };
        let bays = Mvu::new(start, bays_update);
        let queued = bays.select(|b: &LongBays| b.queued.clone());
        bays.dispatch_traced("admit", "{}", BaysMsg::Admit).unwrap();
        // a car as long as the bay parks: none should wait
        assert_eq!(queued.get(), vec![520]);
        let explain = trace::explain(&queued).unwrap();
        let lines = message_lines(&explain, "admit");
        let fits = line_in_this_file("if car_cm < bays.bay_cm {");
        assert_eq!(lines.first(), Some(&fits), "{explain}");
    }

    /// A kiln's firings; no `#[trace_fn]` on the helper. The mistake: the cooling message is built and dropped.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Kiln {
        fired: u32,
        cooling: Vec<u32>,
    }

    #[derive(Debug)]
    enum KilnMsg {
        Fire(u32),
        Cool(u32),
    }

    fn fire(kiln: &mut Kiln, load: u32) -> Vec<KilnMsg> {
        let mut follow = Vec::new();
        kiln.fired += 1;
        if load > 0 {
            follow.push(KilnMsg::Cool(load));
        }
        kiln.fired = kiln.fired.max(1);
        Vec::<KilnMsg>::new()
    }

    fn kiln_update(msg: KilnMsg, kiln: &Kiln) -> (Kiln, Vec<KilnMsg>) {
        let mut next = kiln.clone();
        let commands = match msg {
            KilnMsg::Fire(load) => fire(&mut next, load),
            KilnMsg::Cool(load) => {
                next.cooling.push(load);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_helper_that_filled_a_local_and_returned_something_else_is_quoted_by_both_lines() {
        let kiln = Mvu::with_commands((Kiln::default(), Vec::new()), kiln_update);
        let cooling = kiln.select(|k| k.cooling.len());
        kiln.dispatch_traced("fire", "12", KilnMsg::Fire(12))
            .unwrap();
        // one load cooling, not none
        assert_eq!(cooling.get(), 0);
        let explain = trace::explain(&cooling).unwrap();
        let lines = message_lines(&explain, "fire");
        for line in ["follow.push(KilnMsg::Cool(load));", "Vec::<KilnMsg>::new()"] {
            let at = line_in_this_file(line);
            assert!(lines.contains(&at), "line {at}: {explain}");
        }
    }

    /// [`fire`], recorded by `#[trace_fn]`.
    #[ranvier::trace_fn]
    fn fire_traced(kiln: &mut Kiln, load: u32) -> Vec<KilnMsg> {
        let mut then = Vec::new();
        kiln.fired += 1;
        if load > 0 {
            then.push(KilnMsg::Cool(load));
        }
        kiln.fired = kiln.fired.max(1);
        vec![]
    }

    #[ranvier::trace_fn]
    fn kiln_update_traced(msg: KilnMsg, kiln: &Kiln) -> (Kiln, Vec<KilnMsg>) {
        let mut next = kiln.clone();
        let commands = match msg {
            KilnMsg::Fire(load) => fire_traced(&mut next, load),
            KilnMsg::Cool(load) => {
                next.cooling.push(load);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_traced_helper_that_filled_a_local_and_returned_something_else_is_quoted_by_both_lines() {
        let kiln = Mvu::with_commands((Kiln::default(), Vec::new()), kiln_update_traced);
        let cooling = kiln.select(|k| k.cooling.len());
        kiln.dispatch_traced("fire", "12", KilnMsg::Fire(12))
            .unwrap();
        assert_eq!(cooling.get(), 0);
        let explain = trace::explain(&cooling).unwrap();
        let lines = message_lines(&explain, "fire");
        for line in ["then.push(KilnMsg::Cool(load));", "vec![]"] {
            let at = line_in_this_file(line);
            assert!(lines.contains(&at), "line {at}: {explain}");
        }
    }

    /// A storage yard: a move-in charges the first week and, when the tenant asked for the van, books it. The
    /// mistake: the van's condition is inverted, so a tenant who asked for it gets none.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Yard {
        charged: u32,
        vans: Vec<String>,
    }

    #[derive(Debug)]
    enum YardMsg {
        MoveIn { unit: String, van: bool },
        Charge,
        BookVan(String),
    }

    #[ranvier::trace_fn]
    fn move_in(yard: &mut Yard, unit: String, van: bool) -> Vec<YardMsg> {
        if yard.vans.contains(&unit) {
            return Vec::new();
        }
        let mut commands = vec![YardMsg::Charge];
        if !van {
            commands.push(YardMsg::BookVan(unit));
        }
        commands
    }

    #[ranvier::trace_fn]
    fn yard_update(msg: YardMsg, yard: &Yard) -> (Yard, Vec<YardMsg>) {
        let mut next = yard.clone();
        let commands = match msg {
            YardMsg::MoveIn { unit, van } => move_in(&mut next, unit, van),
            YardMsg::Charge => {
                next.charged += 1;
                Vec::new()
            }
            YardMsg::BookVan(unit) => {
                next.vans.push(unit);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_branch_on_the_message_that_would_have_sent_a_command_not_sent_is_quoted_first() {
        let yard = Mvu::with_commands((Yard::default(), Vec::new()), yard_update);
        let vans = yard.select(|y| y.vans.len()).labelled("vans");
        assert_eq!(vans.get(), 0);
        let msg = YardMsg::MoveIn {
            unit: "A1".to_owned(),
            van: true,
        };
        yard.dispatch_traced("move_in", r#"{"unit":"A1","van":true}"#, msg)
            .unwrap();
        // the tenant asked for the van: one booked, not none
        assert_eq!(vans.get(), 0);
        let explain = trace::explain(&vans).unwrap();
        let lines = message_lines(&explain, "move_in");
        let condition = line_in_this_file("if !van {");
        let sends = line_in_this_file("commands.push(YardMsg::BookVan(unit));");
        assert_eq!(lines.first(), Some(&condition), "{explain}");
        assert_eq!(lines.get(1), Some(&sends), "{explain}");
    }

    /// A deposit ledger: each payment adds to what was paid. The mistake: a payment replaces it.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct DepositBook {
        payments: u32,
        paid: u64,
    }

    #[ranvier::trace_fn]
    fn add_deposit(ledger: &mut DepositBook, amount: u64) {
        ledger.payments += 1;
        ledger.paid = amount;
    }

    #[ranvier::trace_fn]
    fn deposit_update(amount: u64, ledger: &DepositBook) -> DepositBook {
        let mut next = ledger.clone();
        if amount > 0 {
            add_deposit(&mut next, amount);
        }
        next
    }

    #[test]
    fn a_field_a_message_set_to_its_own_argument_over_another_number_is_quoted_first() {
        let ledger = Mvu::new(DepositBook::default(), deposit_update);
        let paid = ledger.select(|l| l.paid).labelled("paid");
        ledger
            .dispatch_traced("pay", r#"{"amount":500}"#, 500)
            .unwrap();
        ledger
            .dispatch_traced("pay", r#"{"amount":300}"#, 300)
            .unwrap();
        // 800 paid in all, not the last 300
        assert_eq!(paid.get(), 300);
        let explain = trace::explain(&paid).unwrap();
        let lines = message_lines(&explain, "pay");
        let overwrite = line_in_this_file("ledger.paid = amount;");
        assert_eq!(lines.first(), Some(&overwrite), "{explain}");
    }

    /// A kiln whose traced `update` lends its commands to a helper and then returns none of them.
    #[ranvier::trace_fn]
    fn load_kiln(kiln: &mut Kiln, load: u32, commands: &mut Vec<KilnMsg>) {
        kiln.fired += 1;
        commands.push(KilnMsg::Cool(load));
    }

    #[ranvier::trace_fn]
    fn kiln_update_lending(msg: KilnMsg, kiln: &Kiln) -> (Kiln, Vec<KilnMsg>) {
        let mut next = kiln.clone();
        let mut commands = Vec::new();
        match msg {
            KilnMsg::Fire(load) => load_kiln(&mut next, load, &mut commands),
            KilnMsg::Cool(load) => next.cooling.push(load),
        }
        (next, Vec::new())
    }

    #[test]
    fn an_update_that_lent_its_commands_and_returned_others_is_quoted_by_both_lines() {
        let kiln = Mvu::with_commands((Kiln::default(), Vec::new()), kiln_update_lending);
        let cooling = kiln.select(|k| k.cooling.len());
        kiln.dispatch_traced("fire", "12", KilnMsg::Fire(12))
            .unwrap();
        assert_eq!(cooling.get(), 0);
        let explain = trace::explain(&cooling).unwrap();
        let lines = message_lines(&explain, "fire");
        for line in [
            "KilnMsg::Fire(load) => load_kiln(&mut next, load, &mut commands),",
            "(next, Vec::new())",
        ] {
            let at = line_in_this_file(line);
            assert!(lines.contains(&at), "line {at}: {explain}");
        }
    }

    fn light_rate(grams: u32) -> u32 {
        grams * 3 / 100
    }

    /// A price built by `#[node]` with the rate a flag chose: the builder's branches are recorded.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn chosen_price(grams: &Signal<u32>, light: bool) -> Memo<u32> {
        let rate = match light {
            true => light_rate,
            false => heavy_rate,
        };
        let price = priced(grams, rate);
        price
    }

    #[test]
    fn a_fn_value_a_node_builder_chose_is_followed_to_the_branch_it_took() {
        let grams = Signal::new(1000_u32);
        let price = chosen_price(&grams, false);
        assert_eq!(price.get(), 70);
        let explain = trace::explain(&price).unwrap();
        let quoted = quoted_lines(&explain);
        // the builder took the `false` arm: the heavy rate, not the light one its `match` names first
        let heavy = line_in_this_file("grams * 7 / 100");
        let light = line_in_this_file("grams * 3 / 100");
        assert!(quoted.contains(&heavy), "line {heavy}: {explain}");
        assert!(!quoted.contains(&light), "line {light}: {explain}");
    }

    /// Leave requests, granted while the balance covers them (`<` where `<=` is meant).
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Leave {
        left: u32,
        requests: Vec<LeaveAsk>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct LeaveAsk {
        who: String,
        days: u32,
        granted: bool,
    }

    #[derive(Debug)]
    enum LeaveMsg {
        Ask(&'static str, u32),
    }

    #[ranvier::trace_fn]
    fn ask_leave(leave: &mut Leave, who: &str, days: u32) {
        let granted = days < leave.left;
        if granted {
            leave.left -= days;
        }
        leave.requests.push(LeaveAsk {
            who: who.to_owned(),
            days,
            granted,
        });
    }

    #[ranvier::trace_fn]
    fn leave_update(msg: LeaveMsg, leave: &Leave) -> Leave {
        let mut next = leave.clone();
        match msg {
            LeaveMsg::Ask(who, days) => ask_leave(&mut next, who, days),
        }
        next
    }

    #[test]
    fn a_written_literal_s_field_set_from_a_local_brings_the_let_that_bound_it() {
        let leave = Mvu::new(
            Leave {
                left: 3,
                ..Leave::default()
            },
            leave_update,
        );
        let declined = Memo::new({
            let leave = leave.clone();
            move |_| leave.with_model(|l| l.requests.iter().filter(|r| !r.granted).count())
        });
        assert_eq!(declined.get(), 0);
        leave
            .dispatch_traced("ask", "[\"ada\",3]", LeaveMsg::Ask("ada", 3))
            .unwrap();
        assert_eq!(declined.get(), 1);
        let explain = trace::explain(&declined).unwrap();
        let lines = message_lines(&explain, "ask");
        let decided = line_in_this_file("let granted = days < leave.left;");
        assert!(lines.contains(&decided), "line {decided}: {explain}");
    }

    /// A tally whose points a message adds by the rule a `Policy` holds in a field (no `#[trace_fn]` anywhere).
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Tally {
        points: u32,
    }

    #[derive(Debug)]
    enum TallyMsg {
        Score(u32),
    }

    /// The rules a tally is built with: each a fn held in a field.
    #[derive(Clone, Copy)]
    struct Policy {
        bonus: fn(&mut Tally, u32),
    }

    fn triple_bonus(tally: &mut Tally, n: u32) {
        tally.points += n * 3;
    }

    fn tally_update(msg: TallyMsg, tally: &Tally, policy: &Policy) -> Tally {
        let mut next = tally.clone();
        match msg {
            TallyMsg::Score(n) => (policy.bonus)(&mut next, n),
        }
        next
    }

    /// A price by weight, by the rate the caller passes as a fn.
    fn priced(grams: &Signal<u32>, rate: fn(u32) -> u32) -> Memo<u32> {
        let grams = grams.clone();
        Memo::new(move |_| {
            let g = grams.get();
            rate(g)
        })
    }

    fn heavy_rate(grams: u32) -> u32 {
        grams * 7 / 100
    }

    #[test]
    fn a_fn_held_in_a_field_or_passed_as_a_parameter_is_followed_to_the_fns_given_it() {
        // a field: the arm calls `(policy.bonus)(..)`; the struct literal put `triple_bonus` there
        let policy = Policy {
            bonus: triple_bonus,
        };
        let tally = Mvu::new(Tally::default(), move |msg, t: &Tally| {
            tally_update(msg, t, &policy)
        });
        let points = Memo::new({
            let tally = tally.clone();
            move |_| tally.with_model(|t| t.points)
        });
        assert_eq!(points.get(), 0);
        tally
            .dispatch_traced("score", "2", TallyMsg::Score(2))
            .unwrap();
        assert_eq!(points.get(), 6);
        let explain = trace::explain(&points).unwrap();
        let lines = message_lines(&explain, "score");
        let write = line_in_this_file("tally.points += n * 3;");
        assert!(lines.contains(&write), "line {write}: {explain}");
        // neither form says twice that it quotes `update`'s arm: `update: message score #5 moved tally#1`
        assert!(
            !explain.to_string().contains("the arm of update"),
            "{explain}"
        );
        let brief = explain.brief(600);
        let arm = brief
            .lines()
            .find(|l| l.starts_with("update: message score #"))
            .unwrap_or_else(|| panic!("an update: line for the message: {brief}"));
        assert!(!arm.contains("the arm of update"), "{brief}");
        assert!(arm.contains(" moved "), "{brief}");
        // a parameter: the memo calls `rate(g)`; its caller passed `heavy_rate`
        let grams = Signal::new(1000_u32);
        let price = priced(&grams, heavy_rate);
        assert_eq!(price.get(), 70);
        let explain = trace::explain(&price).unwrap();
        let quoted = quoted_lines(&explain);
        let rate = line_in_this_file("grams * 7 / 100");
        assert!(quoted.contains(&rate), "line {rate}: {explain}");
    }

    /// A spare part on a shelf, compared by hand: the bin is left out of the comparison.
    #[derive(Debug, Clone)]
    struct Spare {
        sku: u32,
        bin: &'static str,
    }

    impl PartialEq for Spare {
        fn eq(&self, other: &Spare) -> bool {
            self.sku == other.sku
        }
    }

    #[derive(Debug)]
    enum SpareMsg {
        Relocate(&'static str),
    }

    fn spare_update(msg: SpareMsg, spare: &Spare) -> Spare {
        let mut next = spare.clone();
        match msg {
            SpareMsg::Relocate(bin) => next.bin = bin,
        }
        next
    }

    #[test]
    fn an_equal_write_that_dropped_a_change_names_the_fields_and_the_hand_written_eq() {
        let spare = Mvu::new(Spare { sku: 7, bin: "A-1" }, spare_update);
        let bin = Memo::new({
            let spare = spare.clone();
            move |_| spare.with_model(|s| s.bin)
        });
        assert_eq!(bin.get(), "A-1");
        spare
            .dispatch_traced("relocate", r#""B-2""#, SpareMsg::Relocate("B-2"))
            .unwrap();
        // the update moved the spare, but its `eq` called the two equal: the write was dropped
        assert_eq!(bin.get(), "A-1");
        let explain = trace::explain(&bin).unwrap();
        let finding = explain
            .findings
            .iter()
            .find(|f| f.text.starts_with("equal write: "))
            .unwrap_or_else(|| panic!("no equal write: {explain}"));
        assert!(
            finding.text.contains("wrote bin = \"B-2\" (kept \"A-1\")")
                && finding
                    .text
                    .contains("equal by the hand-written PartialEq for Spare"),
            "{explain}"
        );
        let eq = line_in_this_file("self.sku == other.sku");
        let quoted: Vec<u32> = finding
            .at
            .iter()
            .chain(&finding.more)
            .map(|l| l.site.line)
            .collect();
        assert!(quoted.contains(&eq), "{explain}");
    }

    /// A hold on an order: placed, then lapsed when the clock passes its end.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Hold {
        now: u32,
        until: u32,
        lapsed: bool,
    }

    #[derive(Debug)]
    enum HoldMsg {
        Place(u32),
        Advance(u32),
    }

    fn hold_update(msg: HoldMsg, hold: &Hold) -> Hold {
        let mut next = hold.clone();
        match msg {
            HoldMsg::Place(minutes) => next.until = next.now + minutes,
            HoldMsg::Advance(minutes) => {
                next.now += minutes;
                next.lapsed = next.now > next.until;
            }
        }
        next
    }

    #[test]
    fn the_latest_message_that_moved_the_model_but_not_the_node_comes_before_older_ones() {
        let hold = Mvu::new(Hold::default(), hold_update);
        let shown = Memo::new({
            let hold = hold.clone();
            move |_| hold.with_model(|h| format!("until {}, lapsed {}", h.until, h.lapsed))
        });
        assert_eq!(shown.get(), "until 0, lapsed false");
        hold.dispatch_traced("place", "60", HoldMsg::Place(60))
            .unwrap();
        assert_eq!(shown.get(), "until 60, lapsed false");
        // the clock reaches the hold's end: it should lapse (`>=`), but the node does not move
        hold.dispatch_traced("advance", "60", HoldMsg::Advance(60))
            .unwrap();
        assert_eq!(shown.get(), "until 60, lapsed false");
        let explain = trace::explain(&shown).unwrap();
        let at = |name: &str| {
            explain
                .findings
                .iter()
                .position(|f| f.text.starts_with(&format!("message {name} #")))
                .unwrap_or_else(|| panic!("no {name}: {explain}"))
        };
        assert!(at("advance") < at("place"), "{explain}");
    }

    /// Two tariffs, one chosen into a local by the memo's body.
    mod day_tariff {
        pub fn taxi_fare(km: u32) -> u32 {
            km * 12
        }
    }

    mod night_tariff {
        pub fn taxi_fare(km: u32) -> u32 {
            km * 15 + 100
        }
    }

    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn taxi(km: &Signal<u32>, night: &Signal<bool>) -> Memo<u32> {
        let fare = Memo::new({
            let (km, night) = (km.clone(), night.clone());
            move |_| {
                let tariff = if night.get() {
                    night_tariff::taxi_fare
                } else {
                    day_tariff::taxi_fare
                };
                tariff(km.get())
            }
        });
        fare
    }

    #[test]
    fn a_fn_the_body_chose_into_a_local_is_followed_to_the_one_its_run_took() {
        let (km, night) = (Signal::new(10_u32), Signal::new(true));
        let fare = taxi(&km, &night);
        assert_eq!(fare.get(), 250);
        let explain = trace::explain(&fare).unwrap();
        let lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        let (by_night, by_day) = (
            line_in_this_file("km * 15 + 100"),
            line_in_this_file("km * 12"),
        );
        assert!(
            lines.contains(&by_night) && !lines.contains(&by_day),
            "{explain}"
        );
        night.set(false);
        assert_eq!(fare.get(), 120);
        let explain = trace::explain(&fare).unwrap();
        let lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        assert!(
            lines.contains(&by_day) && !lines.contains(&by_night),
            "{explain}"
        );
    }

    #[test]
    fn the_short_form_names_the_explained_node_once() {
        let grams = Signal::new(250_u32);
        let rule = Signal::new(flat_rate as fn(u32) -> u32);
        let postage = Memo::new({
            let (grams, rule) = (grams.clone(), rule.clone());
            move |_| (rule.get())(grams.get())
        })
        .labelled("postage");
        assert_eq!(postage.get(), 90);
        let explain = trace::explain(&postage).unwrap();
        let name = explain.info.node.to_string();
        // the long form names the node its `ran:` finding is about; the short form says `its`: the node line named it
        let full = explain.render(600);
        assert!(
            full.contains(&format!("ran: {name}'s latest run #")),
            "{full}"
        );
        let brief = explain.brief(600);
        assert!(brief.contains("\nran: its latest run #"), "{brief}");
        assert_eq!(brief.matches(name.as_str()).count(), 1, "{brief}");
    }

    #[test]
    fn a_copy_read_before_a_memo_was_made_is_a_capture_even_when_the_memo_reads_its_node() {
        let board = Signal::new((100_u32, vec![101_u32, 102])).labelled("board");
        // the mistake: today read once, when the memo is made; the memo reads the arrivals from the node
        let today_then = board.get().0;
        let due = Memo::new({
            let board = board.clone();
            move |_| {
                let (_, arrivals) = board.get();
                arrivals.iter().filter(|day| **day == today_then).count()
            }
        })
        .labelled("due");
        assert_eq!(due.get(), 0);
        board.set((101, vec![101, 102]));
        assert_eq!(due.get(), 0, "one arrival is due on day 101");
        let explain = trace::explain(&due).unwrap();
        let captured = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Captured)
            .unwrap_or_else(|| panic!("no capture:\n{explain}"));
        assert_eq!(
            captured.at.as_ref().map(|l| l.site.line),
            Some(line_in_this_file("let today_then = board.get().0;")),
            "{explain}"
        );
        assert!(captured.text.contains("into `today_then`"), "{explain}");
    }

    #[test]
    fn a_capture_goes_before_the_cutoff_of_the_memo_it_was_made_with() {
        let price = Signal::new(150_u64).labelled("price");
        let hours = Signal::new(1_u64).labelled("hours");
        let unit = price.get();
        let fee = Memo::new({
            let hours = hours.clone();
            move |_| unit * (hours.get() / 10)
        })
        .labelled("fee");
        let due = Memo::new({
            let fee = fee.clone();
            move |_| fee.get() + 5
        })
        .labelled("due");
        assert_eq!(due.get(), 5);
        price.set(40);
        hours.set(2);
        assert_eq!(due.get(), 5);
        let explain = trace::explain(&due).unwrap();
        let at = |kind: trace::FindingKind| explain.findings.iter().position(|f| f.kind == kind);
        let (captured, cutoff) = (
            at(trace::FindingKind::Captured),
            at(trace::FindingKind::Cutoff),
        );
        assert!(captured.is_some() && cutoff.is_some(), "{explain}");
        // fee kept its value because it never reads the price that moved: the capture first
        assert!(captured < cutoff, "{explain}");
        assert_eq!(
            explain.findings[captured.unwrap()]
                .at
                .as_ref()
                .map(|l| l.site.line),
            Some(line_in_this_file("let unit = price.get();")),
            "{explain}"
        );
    }

    /// Orders, a row each with its price as a memo made inline in the factory: the subscription discount is given
    /// on the wholesale flag (the `if` is the mistake).
    #[allow(clippy::let_and_return, clippy::type_complexity)]
    #[ranvier::node]
    fn priced_orders(
        list: &Signal<Vec<(u32, u32, bool, bool)>>,
    ) -> ranvier::collection::Collection<u32, (u32, u32, bool, bool), Memo<u32>> {
        let priced = ranvier::collection::Collection::keyed(
            list.clone(),
            |o: &(u32, u32, bool, bool)| o.0,
            move |row| {
                let row = row.clone();
                let price = Memo::new(move |_| {
                    row.with(|&(_, bags, _wholesale, _subscription)| {
                        let price = bags * 950;
                        if _wholesale {
                            price - price / 10
                        } else {
                            price
                        }
                    })
                });
                price
            },
        );
        priced
    }

    #[test]
    fn a_collection_explained_quotes_what_ran_in_the_memo_its_inline_factory_made_for_a_row() {
        // (number, bags, wholesale, subscription)
        let list = Signal::new(vec![(1_u32, 6_u32, true, false)]);
        let orders = priced_orders(&list);
        let price = orders.row(&1).expect("a row for order 1");
        assert_eq!(price.get(), 5_130);
        let explain = trace::explain(&orders).unwrap();
        let branch = line_in_this_file("if _wholesale {");
        let row = lines_of_finding(
            &explain,
            |t| t.contains("one of the memos each row makes"),
            "the row's memo",
        );
        assert!(
            row.contains(&branch),
            "line {branch} not quoted:\n{explain}"
        );
    }

    /// How a classroom is used, a row memo's value.
    #[derive(Clone, Debug, PartialEq)]
    struct RoomUse {
        seated: u32,
        share: u32,
        heating: u32,
    }

    /// The heating a room needs for the people in it.
    #[ranvier::trace_fn]
    fn room_heating(seated: u32) -> u32 {
        if seated == 0 {
            return 0;
        }
        if seated > 20 {
            return 1;
        }
        2
    }

    /// Classrooms, a row each with its use as a memo made inline in the factory. The mistake: the share of seats
    /// taken counts the teacher's chair as a seat (`seats + 1`).
    #[allow(clippy::let_and_return, clippy::type_complexity)]
    #[ranvier::node]
    fn room_uses(
        list: &Signal<Vec<(u32, u32, u32)>>,
    ) -> ranvier::collection::Collection<u32, (u32, u32, u32), Memo<RoomUse>> {
        let rooms = ranvier::collection::Collection::keyed(
            list.clone(),
            |r: &(u32, u32, u32)| r.0,
            move |row| {
                let row = row.clone();
                let used = Memo::new(move |_| {
                    row.with(|&(_, seats, seated)| {
                        let share = seated * 100 / (seats + 1);
                        let heating = room_heating(seated);
                        RoomUse {
                            seated,
                            share,
                            heating,
                        }
                    })
                });
                used
            },
        );
        rooms
    }

    #[test]
    fn a_row_memo_s_struct_literal_is_quoted_by_the_let_that_computed_a_field_second() {
        // (room, seats, seated)
        let list = Signal::new(vec![(1_u32, 30_u32, 15_u32)]);
        let rooms = room_uses(&list);
        let used = rooms.row(&1).expect("a row for room 1");
        assert_eq!(
            used.get(),
            RoomUse {
                seated: 15,
                share: 48,
                heating: 2
            }
        );
        let explain = trace::explain(&rooms).unwrap();
        let row = lines_of_finding(
            &explain,
            |t| t.contains("one of the memos each row makes"),
            "the row's memo",
        );
        let share = line_in_this_file("let share = seated * 100 / (seats + 1);");
        assert_eq!(row.get(1), Some(&share), "{explain}");
    }

    /// Whether a pupil waits for a practical test: theory passed and not passed yet. The mistake: `p.2` for `!p.2`.
    #[ranvier::trace_fn]
    fn awaiting_practical(p: &(u32, bool, bool)) -> bool {
        p.1 && p.2
    }

    #[test]
    fn a_view_s_cutoff_quotes_the_trace_fn_predicate_its_latest_run_called() {
        use ranvier::collection::Collection;
        // (pupil, theory passed, practical passed)
        let list = Signal::new(vec![(1_u32, false, false)]);
        let pupils = Collection::keyed(list.clone(), |p: &(u32, bool, bool)| p.0, |_| ());
        let chosen = pupils.filter(awaiting_practical);
        let keys = chosen.keys();
        let waiting = Memo::new(move |_| keys.get().to_vec());
        assert_eq!(waiting.get(), Vec::<u32>::new());
        // pupil 1 passes theory: waits for the practical, yet the view keeps none
        list.set(vec![(1, true, false)]);
        assert_eq!(waiting.get(), Vec::<u32>::new());
        let explain = trace::explain(&waiting).unwrap();
        let predicate = line_in_this_file("p.1 && p.2");
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| {
                matches!(
                    f.kind,
                    trace::FindingKind::Cutoff | trace::FindingKind::EarlierCutoff
                )
            })
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        assert!(
            quoted.contains(&predicate),
            "line {predicate} not quoted:\n{explain}"
        );
    }

    #[test]
    fn a_collection_that_refused_its_list_names_its_key_fn() {
        use ranvier::collection::Collection;
        // (container, vessel, kilograms): keyed by the vessel, which two containers share
        let boxes = Signal::new(vec![("c1", "tern", 20_u64)]);
        let yard = Collection::keyed(
            boxes.clone(),
            // the vessel's name, which two containers share
            |b: &(&str, &str, u64)| b.1,
            |_| (),
        )
        .labelled("yard");
        let weight = yard.sum_by(|b| b.2).labelled("weight");
        assert_eq!(weight.get(), 20);
        boxes.set(vec![("c1", "tern", 20), ("c2", "tern", 12)]);
        assert_eq!(weight.get(), 20);
        let explain = trace::explain(&weight).unwrap();
        // the first finding: the collection refused the list, at its key fn
        let key_fn = line_in_this_file("|b: &(&str, &str, u64)| b.1,");
        let first = explain
            .findings
            .first()
            .unwrap_or_else(|| panic!("no finding: {explain}"));
        assert_eq!(first.kind, trace::FindingKind::Refused, "{explain}");
        assert_eq!(
            first.at.as_ref().map(|l| l.site.line),
            Some(key_fn),
            "{explain}"
        );
        assert!(
            first.text.contains("items 0 and 1 with one key, \"tern\""),
            "{explain}"
        );
        // a list with one item per key: nothing refused
        boxes.set(vec![("c1", "tern", 20), ("c2", "ibis", 12)]);
        assert_eq!(weight.get(), 32);
        let explain = trace::explain(&weight).unwrap();
        assert!(
            explain
                .findings
                .iter()
                .all(|f| f.kind != trace::FindingKind::Refused),
            "{explain}"
        );
    }

    #[test]
    fn a_fold_whose_inverse_repeats_its_step_is_quoted_by_the_inverse_first() {
        use ranvier::collection::Collection;
        // (id, still open, minutes booked)
        let visits = Signal::new(vec![(1_u32, true, 15_u32), (2, true, 30)]);
        let rows = Collection::keyed(visits.clone(), |v: &(u32, bool, u32)| v.0, |_| ());
        let booked = rows.fold(
            0_u32,
            |acc, visit: &(u32, bool, u32)| {
                if visit.1 {
                    *acc += visit.2;
                }
            },
            |acc, visit: &(u32, bool, u32)| {
                if visit.1 {
                    *acc += visit.2;
                }
            },
        );
        assert_eq!(booked.get(), 45);
        // a row that changes is taken out by the inverse and put back by the step: with the same code, it counts twice
        visits.set(vec![(1, true, 15), (2, true, 45)]);
        assert_eq!(booked.get(), 120);
        let explain = trace::explain(&booked).unwrap();
        let step = line_in_this_file("*acc += visit.2;");
        let first = explain
            .body
            .first()
            .unwrap_or_else(|| panic!("no body lines: {explain}"));
        // the inverse's lines (written below the step's) come first
        assert!(first.site.line > step + 1, "{explain}");
        assert!(
            explain.body.iter().any(|l| l.site.line == step),
            "{explain}"
        );
    }

    /// The grams of flour in `loaves` loaves (a wrong weight per loaf: 700 where 500 is meant).
    #[ranvier::trace_fn]
    fn flour_grams(loaves: u32) -> u32 {
        loaves * 700
    }

    /// `grams` as kilograms with two decimals.
    #[ranvier::trace_fn]
    fn as_kilos(grams: u32) -> String {
        format!("{}.{:02} kg", grams / 1000, grams % 1000 / 10)
    }

    #[test]
    fn a_helper_that_only_formats_is_quoted_after_the_helpers_that_computed() {
        let loaves = Signal::new(vec![2_u32, 3]);
        let flour = Memo::new({
            let loaves = loaves.clone();
            move |_| {
                let mut grams = 0;
                for n in loaves.get() {
                    grams += flour_grams(n);
                }
                as_kilos(grams)
            }
        });
        assert_eq!(flour.get(), "3.50 kg");
        let explain = trace::explain(&flour).unwrap();
        let lines = ran_line_numbers(&explain);
        let computed = line_in_this_file("loaves * 700");
        let formatted =
            line_in_this_file("format!(\"{}.{:02} kg\", grams / 1000, grams % 1000 / 10)");
        let at = |line: u32| lines.iter().position(|l| *l == line);
        assert!(at(computed).is_some(), "{explain}");
        assert!(
            at(formatted).is_none_or(|f| Some(f) > at(computed)),
            "{explain}"
        );
    }

    /// A kennel's pens, priced by [`pen_rate`].
    #[derive(Clone, Copy)]
    enum Pen {
        Small,
        Large,
        Cattery,
    }

    /// A night's rate in pence: the pen's, a fifth more in the high season. The cattery is priced as a small pen: the
    /// mistake, in an arm of a `match` on a parameter, which is not the helper's tail.
    fn pen_rate(pen: Pen, high: bool) -> u32 {
        let low = match pen {
            Pen::Small | Pen::Cattery => 1_800,
            Pen::Large => 2_600,
        };
        match high {
            false => low,
            true => low + low / 5,
        }
    }

    #[test]
    fn the_arms_of_a_helper_s_match_on_a_parameter_are_quoted_as_the_table_its_value_came_from() {
        let nights = Signal::new(2_u32);
        let stay = Memo::new({
            let nights = nights.clone();
            move |_| nights.get() * pen_rate(Pen::Cattery, false)
        });
        assert_eq!(stay.get(), 3_600);
        assert_eq!(
            (pen_rate(Pen::Small, true), pen_rate(Pen::Large, false)),
            (2_160, 2_600)
        );
        let explain = trace::explain(&stay).unwrap();
        let arm = line_in_this_file("Pen::Small | Pen::Cattery => 1_800,");
        assert!(
            quoted_lines(&explain).contains(&arm),
            "line {arm}: {explain}"
        );
    }

    /// A model, and an `update` that hands one message to a helper chosen by a fn pointer.
    #[derive(Debug)]
    enum Till {
        Add(u32),
    }

    #[ranvier::trace_fn]
    fn add_plain(total: &mut u32, cents: u32) {
        *total += cents;
    }

    #[ranvier::trace_fn]
    fn add_twice(total: &mut u32, cents: u32) {
        *total += cents * 2;
    }

    #[ranvier::trace_fn]
    fn till_update(msg: Till, total: &u32, add: fn(&mut u32, u32)) -> u32 {
        let mut next = *total;
        match msg {
            Till::Add(cents) => add(&mut next, cents),
        }
        next
    }

    /// Where a patient is, and the tests ordered for them.
    #[derive(Clone, PartialEq, Debug)]
    enum Stage {
        Waiting,
        InRoom,
    }

    #[derive(Clone, PartialEq, Debug)]
    struct Visit {
        stage: Stage,
        tests: Vec<u32>,
    }

    #[derive(Debug)]
    enum Lab {
        Order(u32),
    }

    /// Orders a test for a patient in the room; one still waiting gets none (the arm a test wants to catch).
    #[ranvier::trace_fn]
    fn order_for(visit: &mut Visit, test: u32) {
        match visit.stage {
            Stage::InRoom => {
                visit.tests.push(test);
            }
            Stage::Waiting => {}
        }
    }

    #[ranvier::trace_fn]
    fn lab_update(msg: Lab, visit: &Visit) -> Visit {
        let mut next = visit.clone();
        match msg {
            Lab::Order(test) => order_for(&mut next, test),
        }
        next
    }

    #[ranvier::trace_fn]
    fn lab_update_in_a_block(msg: Lab, visit: &Visit) -> Visit {
        let mut next = visit.clone();
        match msg {
            Lab::Order(test) => {
                next.stage = Stage::InRoom;
                next.tests.push(test);
            }
        }
        next
    }

    /// A patient still waiting, an `order` dispatched through `update`, and the explained count of their tests: the
    /// count after the order, and its `explain`.
    fn order_a_test(update: fn(Lab, &Visit) -> Visit) -> (usize, trace::Explain) {
        let visit = Mvu::new(
            Visit {
                stage: Stage::Waiting,
                tests: Vec::new(),
            },
            move |msg, visit: &Visit| update(msg, visit),
        );
        let ordered = Memo::new({
            let visit = visit.clone();
            move |_| visit.model().tests.len()
        });
        assert_eq!(ordered.get(), 0);
        visit.dispatch_traced("order", "{}", Lab::Order(7)).unwrap();
        (ordered.get(), trace::explain(&ordered).unwrap())
    }

    #[test]
    fn the_short_form_leaves_out_the_line_that_only_opens_the_message_s_own_arm() {
        let (ordered, explain) = order_a_test(lab_update_in_a_block);
        assert_eq!(ordered, 1);
        let opener = line_in_this_file("Lab::Order(test) => {");
        assert!(
            message_lines(&explain, "order").contains(&opener),
            "{explain}"
        );
        let full = explain.render(600);
        assert!(
            full.contains(&format!("trace.rs:{opener}: Lab::Order(test) => {{")),
            "{full}"
        );
        // the label names the message; the line that only opens its arm says no more
        let brief = explain.brief(600);
        assert!(brief.contains("\nran: message order #"), "{brief}");
        assert!(!brief.contains(&format!("trace.rs:{opener}:")), "{brief}");
    }

    /// A shop's order counter and the sizes of its orders.
    #[derive(Clone, PartialEq, Debug)]
    struct Counter {
        next_id: u32,
        sizes: Vec<(u32, u32)>,
    }

    #[derive(Debug)]
    enum Take {
        Add(u32),
    }

    /// Takes the next id, moves the counter on, and records the order: at twice its size (the slip a test wants named).
    #[ranvier::trace_fn]
    fn counter_update(msg: Take, shop: &Counter) -> Counter {
        let mut next = shop.clone();
        match msg {
            Take::Add(size) => {
                let id = next.next_id;
                next.next_id += 1;
                next.sizes.push((id, size * 2));
            }
        }
        next
    }

    /// A `let` that copies a counter before the counter moves on, its name used after (`let id = next.next_id;` then
    /// `next.next_id += 1;`), is how ids are taken, not a slip: the copy does not lead the message's lines. (Leading with it,
    /// as a mirror of the read-after-write rule, put a correct id counter first in two unseen sets, the bakery's and
    /// the gym's, and was dropped.)
    #[test]
    fn an_id_taken_before_its_counter_moves_on_is_not_quoted_first() {
        let shop = Mvu::new(
            Counter {
                next_id: 1,
                sizes: Vec::new(),
            },
            |msg, shop: &Counter| counter_update(msg, shop),
        );
        let total = Memo::new({
            let shop = shop.clone();
            move |_| shop.model().sizes.iter().map(|s| s.1).sum::<u32>()
        });
        shop.dispatch_traced("add", "{}", Take::Add(3)).unwrap();
        assert_eq!(total.get(), 6);
        let explain = trace::explain(&total).unwrap();
        let lines = message_lines(&explain, "add");
        let taken = line_in_this_file("let id = next.next_id;");
        assert!(!lines.is_empty(), "{explain}");
        assert_ne!(lines[0], taken, "{explain}");
        assert!(
            lines.contains(&line_in_this_file("next.sizes.push((id, size * 2));")),
            "{explain}"
        );
    }

    #[test]
    fn an_arm_that_did_not_match_and_would_have_written_what_the_node_reads_comes_first() {
        let (ordered, explain) = order_a_test(lab_update);
        assert_eq!(ordered, 0);
        let lines = message_lines(&explain, "order");
        // the arm whose body pushes to `tests`, which the memo reads, did not match: its pattern first
        assert_eq!(
            lines.first(),
            Some(&line_in_this_file("Stage::InRoom => {")),
            "{explain}"
        );
        // and its message is the first finding, before the body
        assert!(
            explain.findings[0].text.starts_with("message order #"),
            "{explain}"
        );
        assert!(explain.findings[0].rank >= 700, "{explain}");
    }

    /// An orchard's bins: their number, their block, their grade.
    #[derive(Clone, PartialEq, Debug)]
    struct Bins(Vec<(u32, u32, u32)>);

    #[derive(Debug)]
    enum Weather {
        Hail(u32),
    }

    /// Hail downgrades the bins of a block. The mistake: the bins are matched by their number, not their block.
    #[ranvier::trace_fn]
    fn hail(bins: &mut Bins, block: u32) {
        for bin in bins.0.iter_mut() {
            if bin.0 == block {
                bin.2 += 1;
            }
        }
    }

    #[test]
    fn an_if_in_a_loop_that_picked_none_of_the_items_the_helper_was_given_comes_first() {
        let farm = Mvu::new(
            Bins(vec![(1, 7, 1), (2, 7, 1), (3, 8, 1)]),
            |msg, bins: &Bins| {
                let mut next = bins.clone();
                match msg {
                    Weather::Hail(block) => hail(&mut next, block),
                }
                next
            },
        );
        let grades = Memo::new({
            let farm = farm.clone();
            move |_| farm.model().0.iter().map(|bin| bin.2).collect::<Vec<u32>>()
        });
        farm.dispatch_traced("hail", "{\"block\":7}", Weather::Hail(7))
            .unwrap();
        // the block's bins kept their grade: no bin is numbered 7
        assert_eq!(grades.get(), vec![1, 1, 1]);
        let explain = trace::explain(&grades).unwrap();
        let lines = message_lines(&explain, "hail");
        assert_eq!(
            lines.first(),
            Some(&line_in_this_file("if bin.0 == block {")),
            "{explain}"
        );
        assert!(
            explain.findings[0].text.starts_with("message hail #"),
            "{explain}"
        );
    }

    /// A class's charges when it closes. The mistake: the waiting list is charged as no-shows.
    #[ranvier::trace_fn]
    fn close_class(bookings: &[(u32, Standing)]) -> Vec<u32> {
        let mut charges = Vec::new();
        for booking in bookings {
            match booking.1 {
                Standing::Booked | Standing::Waiting => charges.push(booking.0),
                Standing::Attended => {}
            }
        }
        charges
    }

    #[derive(Clone, Copy, PartialEq, Debug)]
    enum Standing {
        Booked,
        Waiting,
        Attended,
    }

    #[test]
    fn an_arm_that_did_nothing_is_quoted_after_the_arm_beside_it_that_did() {
        let gym = Mvu::new(Vec::<u32>::new(), |(): (), charged: &Vec<u32>| {
            let bookings = [
                (1, Standing::Attended),
                (2, Standing::Waiting),
                (3, Standing::Booked),
            ];
            let mut next = charged.clone();
            next.extend(close_class(&bookings));
            next
        });
        let owed = Memo::new({
            let gym = gym.clone();
            move |_| gym.model().len()
        });
        gym.dispatch_traced("close", "{}", ()).unwrap();
        assert_eq!(owed.get(), 2);
        let explain = trace::explain(&owed).unwrap();
        let lines = message_lines(&explain, "close");
        let at = |needle: &str| {
            let line = line_in_this_file(needle);
            lines
                .iter()
                .position(|l| *l == line)
                .unwrap_or_else(|| panic!("line {line} not quoted:\n{explain}"))
        };
        // the first booking ran the empty arm first; the arm that charged comes before it
        assert!(
            at("Standing::Booked | Standing::Waiting => charges.push(booking.0),")
                < at("Standing::Attended => {}"),
            "{explain}"
        );
    }

    /// Whether a crate of milk bought on day `bought` is past its use-by on `today` (kept four days), and a copy
    /// with a mistake: a crate is kept one day too long.
    fn past_use_by_day(bought: u32, today: u32) -> bool {
        today >= bought + 4
    }

    fn past_use_by_day_late(bought: u32, today: u32) -> bool {
        today > bought + 4
    }

    /// Whether a crate bought on a day is past its use-by on another.
    type UseBy = fn(u32, u32) -> bool;

    /// A dairy's rules, chosen when the app starts.
    struct DairyRules {
        use_by: UseBy,
        clear_shelf: fn(&mut Vec<u32>, UseBy, u32) -> u32,
    }

    /// Takes the crates past their use-by off the shelf, and counts them.
    #[ranvier::trace_fn]
    fn clear_shelf(shelf: &mut Vec<u32>, use_by: UseBy, today: u32) -> u32 {
        let mut thrown = 0;
        for bought in shelf.iter() {
            if use_by(*bought, today) {
                thrown += 1;
            }
        }
        shelf.retain(|bought| !use_by(*bought, today));
        thrown
    }

    #[test]
    fn an_if_whose_predicate_parameter_said_no_to_every_item_leads_with_the_fn_it_held() {
        let late = std::hint::black_box(true);
        let rules = DairyRules {
            use_by: if late {
                past_use_by_day_late
            } else {
                past_use_by_day
            },
            clear_shelf,
        };
        let dairy = Mvu::new(
            (vec![1_u32, 3], 0_u32),
            move |today: u32, (shelf, thrown): &(Vec<u32>, u32)| {
                let mut shelf = shelf.clone();
                let gone = (rules.clear_shelf)(&mut shelf, rules.use_by, today);
                (shelf, thrown + gone)
            },
        );
        let thrown = Memo::new({
            let dairy = dairy.clone();
            move |_| dairy.model().1
        });
        dairy.dispatch_traced("sweep", "{\"today\":5}", 5).unwrap();
        assert_eq!(
            thrown.get(),
            0,
            "the slip: the crate of day 1 kept on day 5"
        );
        let explain = trace::explain(&thrown).unwrap();
        let lines = message_lines(&explain, "sweep");
        assert_eq!(
            lines.first(),
            Some(&line_in_this_file("if use_by(*bought, today) {")),
            "the predicate's if first:\n{explain}"
        );
        assert!(
            lines.contains(&line_in_this_file("today > bought + 4")),
            "the fn the parameter held:\n{explain}"
        );
    }

    /// A book's number and its publication day; whether a book is out on a day, and a copy with a mistake: a book
    /// is out the day after its publication day.
    type Title = (u32, u32);

    fn out_on(book: &Title, today: u32) -> bool {
        today >= book.1
    }

    fn out_after(book: &Title, today: u32) -> bool {
        today > book.1
    }

    /// A bookshop's preorders, and a message that holds a preorder when its book comes out.
    #[derive(Clone, Debug, PartialEq)]
    enum Preorder {
        Day(u32),
        Hold(u32),
    }

    /// A bookshop's rules, chosen when the app starts.
    struct ShopRules {
        out: fn(&Title, u32) -> bool,
    }

    /// The holds to send on `today`: one per preorder whose book is out.
    #[ranvier::trace_fn]
    fn holds_due(preorders: &[Title], today: u32, out: fn(&Title, u32) -> bool) -> Vec<Preorder> {
        preorders
            .iter()
            .filter(|book| out(book, today))
            .map(|book| Preorder::Hold(book.0))
            .collect()
    }

    #[test]
    fn a_filter_whose_predicate_parameter_let_nothing_through_leads_with_the_fn_it_held() {
        let late = std::hint::black_box(true);
        let rules = ShopRules {
            out: if late { out_after } else { out_on },
        };
        let shop = Mvu::with_commands(
            ((vec![(7_u32, 3_u32)], 0_u32), Vec::new()),
            move |msg: Preorder, (preorders, held): &(Vec<Title>, u32)| match msg {
                Preorder::Day(today) => (
                    (preorders.clone(), *held),
                    holds_due(preorders, today, rules.out),
                ),
                Preorder::Hold(_) => ((preorders.clone(), held + 1), Vec::new()),
            },
        );
        let held = shop.select(|(_, held)| *held);
        assert_eq!(held.get(), 0);
        shop.dispatch_traced("day", "3", Preorder::Day(3)).unwrap();
        assert_eq!(held.get(), 0, "the slip: book 7 is out on day 3, not held");
        let explain = trace::explain(&held).unwrap();
        let lines = message_lines(&explain, "day");
        assert_eq!(
            lines.first(),
            Some(&line_in_this_file(".filter(|book| out(book, today))")),
            "the predicate's filter first:\n{explain}"
        );
        assert!(
            lines
                .iter()
                .take(3)
                .any(|l| *l == line_in_this_file("today > book.1")),
            "the fn the parameter held:\n{explain}"
        );
    }

    /// The stems each flower threw away. The mistake: the count is started once, above the flowers, so each
    /// flower's waste goes on from the flower before it.
    #[ranvier::trace_fn]
    fn wilted_per_flower(batches: &[(&str, u32)], flowers: &[&str]) -> Vec<(String, u32)> {
        let mut thrown = Vec::new();
        let mut stems = 0;
        for flower in flowers {
            for batch in batches.iter().filter(|b| b.0 == *flower) {
                stems += batch.1;
            }
            if stems > 0 {
                thrown.push((flower.to_string(), stems));
            }
        }
        thrown
    }

    #[test]
    fn a_count_started_above_the_outer_loop_and_read_for_each_item_is_quoted_first() {
        let shop = Mvu::new(
            Vec::<(String, u32)>::new(),
            |(): (), _: &Vec<(String, u32)>| {
                wilted_per_flower(&[("rose", 40), ("tulip", 20)], &["rose", "tulip"])
            },
        );
        let tulips = Memo::new({
            let shop = shop.clone();
            move |_| {
                shop.model()
                    .iter()
                    .find(|w| w.0 == "tulip")
                    .map_or(0, |w| w.1)
            }
        });
        shop.dispatch_traced("wastage", "{}", ()).unwrap();
        assert_eq!(tulips.get(), 60, "the slip: the roses' 40 counted again");
        let explain = trace::explain(&tulips).unwrap();
        let lines = message_lines(&explain, "wastage");
        assert_eq!(
            lines.first(),
            Some(&line_in_this_file("let mut stems = 0;")),
            "the count's start first:\n{explain}"
        );
    }

    #[test]
    fn trace_fn_records_what_an_update_ran_by_message() {
        // chosen at run time, as an app's configuration would
        let add: fn(&mut u32, u32) = if std::hint::black_box(true) {
            add_twice
        } else {
            add_plain
        };
        let till = Mvu::new(0_u32, move |msg, total: &u32| till_update(msg, total, add));
        let doubled = Memo::new({
            let till = till.clone();
            move |_| till.model() + 1
        });
        assert_eq!(doubled.get(), 1);
        till.dispatch_traced("add", "{\"cents\":5}", Till::Add(5))
            .unwrap();
        assert_eq!(doubled.get(), 11);
        let explain = trace::explain(&doubled).unwrap();
        let text = explain.to_string();
        // the helper the pointer chose, by its write; not the other helper
        let write = line_in_this_file("*total += cents * 2;");
        let other = line_in_this_file("*total += cents;");
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Ran)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        assert!(quoted.contains(&write), "{text}");
        assert!(!quoted.contains(&other), "{text}");
        assert!(text.contains("its update ran"), "{text}");
        // the short form does not say twice that it ran: `ran: message add #5 moved till#1; commands …`
        let brief = explain.brief(600);
        let ran = brief
            .lines()
            .find(|l| l.starts_with("ran: message add #"))
            .unwrap_or_else(|| panic!("a ran: line for the message: {brief}"));
        assert!(!ran.contains("its update ran"), "{brief}");
        assert!(ran.contains(" moved "), "{brief}");
    }

    /// Two tariffs: the day one, and the night one a memo is given under the day one's name.
    #[ranvier::trace_fn]
    fn tariff(grams: u32) -> u32 {
        let kilos = grams / 1000;
        kilos * 70 + 5
    }

    #[ranvier::trace_fn]
    fn night_tariff(grams: u32) -> u32 {
        let kilos = grams.div_ceil(1000);
        kilos * 90 + 5
    }

    #[test]
    fn a_node_quotes_the_traced_fns_its_run_entered_not_a_namesake_that_did_not_run() {
        let grams = Signal::new(2500_u32);
        // the day tariff, called outside any run (no node records it)
        assert_eq!(tariff(2500), 145);
        // a value named like the crate's fn `tariff`: the source alone resolves the call to that fn
        let tariff: fn(u32) -> u32 = std::hint::black_box(night_tariff);
        let postage = Memo::new({
            let grams = grams.clone();
            move |_| tariff(grams.get())
        });
        assert_eq!(postage.get(), 275);
        let explain = trace::explain(&postage).unwrap();
        let text = explain.to_string();
        let day = line_in_this_file("kilos * 70 + 5");
        let night = line_in_this_file("kilos * 90 + 5");
        assert!(!text.contains(&format!("trace.rs:{day}:")), "{text}");
        assert!(text.contains(&format!("trace.rs:{night}:")), "{text}");
    }

    /// A wait, `#[node]`-built: counted from the booked slot where the check-in was meant (the binding is the
    /// mistake), in a body long enough to be quoted by the lines that make its value.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn waited(
        slot: &Signal<u32>,
        checked_in: &Signal<Option<u32>>,
        now: &Signal<u32>,
    ) -> Memo<u32> {
        let wait = Memo::new({
            let (slot, checked_in, now) = (slot.clone(), checked_in.clone(), now.clone());
            move |_| {
                let now = now.get();
                match checked_in.get() {
                    Some(_) => {
                        let since = slot.get();
                        let until = now.max(since);
                        until.saturating_sub(since)
                    }
                    None => u32::MIN,
                }
            }
        });
        wait
    }

    #[test]
    fn a_cutoff_quotes_the_memos_value_with_the_lets_it_reads_and_not_an_arm_that_did_not_run() {
        let (slot, checked_in, now) = (
            Signal::new(30_u32),
            Signal::new(Some(50_u32)),
            Signal::new(55_u32),
        );
        let wait = waited(&slot, &checked_in, &now);
        let longest = Memo::new({
            let wait = wait.clone();
            move |_| wait.get().max(1)
        });
        assert_eq!(longest.get(), 25);
        // the slot moves within what the wait already says: the wait re-runs and keeps 25
        ranvier::batch(|| {
            slot.set(20);
            now.set(45);
        });
        assert_eq!(longest.get(), 25);
        let explain = trace::explain(&longest).unwrap();
        let text = explain.to_string();
        let cutoff: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| {
                matches!(
                    f.kind,
                    trace::FindingKind::Cutoff | trace::FindingKind::EarlierCutoff
                )
            })
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        for needle in ["let since = slot.get();", "until.saturating_sub(since)"] {
            assert!(
                cutoff.contains(&line_in_this_file(needle)),
                "{needle} not quoted:\n{text}"
            );
        }
        assert!(
            !cutoff.contains(&line_in_this_file("None => u32::MIN,")),
            "{text}"
        );
    }

    /// A co-payment a list's memo works out for each visit (divides before it multiplies: the mistake).
    #[ranvier::trace_fn]
    fn share_of(fee: u64, percent: u64) -> u64 {
        fee * (percent / 100)
    }

    #[test]
    fn a_row_a_collection_wrote_is_quoted_by_the_traced_fns_its_list_ran() {
        use ranvier::collection::Collection;
        // (visit, fee, the plan's percent)
        let fees = Signal::new(vec![(1_u32, 2000_u64, 100_u64)]);
        let list = Memo::new({
            let fees = fees.clone();
            move |_| {
                fees.get()
                    .into_iter()
                    .map(|(id, fee, percent)| (id, share_of(fee, percent)))
                    .collect::<Vec<_>>()
            }
        });
        let rows = Collection::keyed(list, |v: &(u32, u64)| v.0, |row| row.clone());
        let due = rows.sum_by(|v| v.1);
        assert_eq!(due.get(), 2000);
        // 30% of 2000 is 600; the division first makes it 0
        fees.set(vec![(1, 2000, 30)]);
        assert_eq!(due.get(), 0);
        let explain = trace::explain(&due).unwrap();
        let text = explain.to_string();
        let written: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Written)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        assert!(
            written.contains(&line_in_this_file("fee * (percent / 100)")),
            "{text}"
        );
    }

    /// A row factory: the boxes a row's pieces fill, six to a box (rounded down: a part-filled box is lost).
    fn boxes_of(row: &ranvier::collection::Row<u32, (u32, u32)>) -> Memo<u32> {
        let row = row.clone();
        Memo::new(move |_| {
            row.with(|item| {
                let pieces = item.1;
                pieces / 6
            })
        })
    }

    #[test]
    fn the_memos_a_collection_makes_per_row_are_quoted_by_the_lines_that_make_their_value() {
        use ranvier::collection::Collection;
        // (order, pieces)
        let orders = Signal::new(vec![(1_u32, 6_u32), (2, 12)]);
        let rows = Collection::keyed(orders.clone(), |o: &(u32, u32)| o.0, boxes_of);
        let boxes = Memo::new({
            let rows = rows.clone();
            move |_| {
                let mut each = Vec::new();
                rows.for_each(|_, _, memo| each.push(memo.clone()));
                each.iter().map(Memo::get).sum::<u32>()
            }
        });
        assert_eq!(boxes.get(), 3);
        // 13 pieces fill three boxes, one of them in part
        orders.set(vec![(1, 13), (2, 12)]);
        assert_eq!(boxes.get(), 4);
        let explain = trace::explain(&boxes).unwrap();
        let quoted = finding_lines(&explain);
        let division = line_in_this_file("pieces / 6");
        assert!(
            quoted.contains(&division),
            "line {division} not quoted:\n{explain}"
        );
        // a collection holding one row: its one row memo is quoted the same way
        let order = Signal::new(vec![(1_u32, 6_u32)]);
        let rows = Collection::keyed(order.clone(), |o: &(u32, u32)| o.0, boxes_of);
        let boxes = Memo::new({
            let rows = rows.clone();
            move |_| {
                let mut each = Vec::new();
                rows.for_each(|_, _, memo| each.push(memo.clone()));
                each.iter().map(Memo::get).sum::<u32>()
            }
        });
        assert_eq!(boxes.get(), 1);
        order.set(vec![(1, 13)]);
        assert_eq!(boxes.get(), 2);
        let explain = trace::explain(&boxes).unwrap();
        let row = "one of the memos each row makes";
        assert!(
            lines_of_finding(&explain, |text| text.contains(row), row).contains(&division),
            "line {division} not quoted:\n{explain}"
        );
    }

    /// A row factory `#[node]` records: a block's line, with its yield a tree appended once it has been picked
    /// (divided by the rows, not the trees: the mistake). (id, trees, rows, kg)
    #[ranvier::node]
    fn yield_line(row: &ranvier::collection::Row<u32, (u32, u32, u32, u32)>) -> Memo<String> {
        let row = row.clone();
        Memo::new(move |_| {
            row.with(|block| {
                let mut line = format!("block {}, {} trees: ", block.0, block.1);
                match block.3 {
                    0 => line.push_str("not picked"),
                    kg => line.push_str(&format!("{kg} kg")),
                }
                if block.3 > 0 {
                    let per_tree = f64::from(block.3) / f64::from(block.2);
                    line.push_str(&format!(", {per_tree:.1} kg a tree"));
                }
                line
            })
        })
    }

    /// A night's charge by the pitch's kind and season: its branches are recorded.
    #[ranvier::trace_fn]
    fn night_charge(kind: u32, night: u32, adults: u32, children: u32) -> u64 {
        let pitch = if kind == 1 { 2_000 } else { 1_500 };
        let season = match night {
            0..=180 => 1,
            _ => 2,
        };
        u64::from(pitch * season + adults * 800 + children * 400)
    }

    /// A pitch: its id, its kind, its party (adults, children).
    type NightPitch = (u32, u32, Option<(u32, u32)>);

    /// A row factory `#[node]` records: a pitch's charge tonight, its party's adults passed as its children too (the
    /// mistake).
    #[ranvier::node]
    fn tonight_row(row: &ranvier::collection::Row<u32, NightPitch>) -> Memo<u64> {
        let row = row.clone();
        Memo::new(move |_| {
            row.with(|pitch| match pitch.2 {
                Some((adults, _)) => night_charge(pitch.1, 200, adults, adults),
                None => 0,
            })
        })
    }

    /// The pitches (one, empty), and a night's takings over the rows `factory` makes: two adults arrive at the
    /// pitch, and the takings are checked to hold the mistake (800 for a child who is not there).
    fn night_takings(
        factory: fn(&ranvier::collection::Row<u32, NightPitch>) -> Memo<u64>,
    ) -> Memo<u64> {
        use ranvier::collection::Collection;
        let pitches = Signal::new(vec![(1_u32, 1_u32, None)]).labelled("pitches");
        let rows = Collection::keyed(
            pitches.clone(),
            |p: &(u32, u32, Option<(u32, u32)>)| p.0,
            factory,
        );
        let takings = Memo::new({
            let rows = rows.clone();
            move |_| {
                let mut each = Vec::new();
                rows.for_each(|_, _, memo| each.push(memo.clone()));
                each.iter().map(Memo::get).sum::<u64>()
            }
        })
        .labelled("takings");
        assert_eq!(takings.get(), 0);
        pitches.set(vec![(1, 1, Some((2, 0)))]);
        // two adults and no child: 4,000 + 1,600, not 800 more
        assert_eq!(takings.get(), 4_000 + 1_600 + 800);
        takings
    }

    #[test]
    fn a_row_memo_s_own_branch_is_quoted_before_the_lines_of_the_helpers_it_called() {
        let takings = night_takings(tonight_row);
        let explain = trace::explain(&takings).unwrap();
        let own =
            line_in_this_file("Some((adults, _)) => night_charge(pitch.1, 200, adults, adults),");
        assert!(
            finding_lines(&explain).contains(&own),
            "line {own} not quoted:\n{explain}"
        );
    }

    /// [`tonight_row`] with the call as the closure's value, after a `let .. else`: the party's adults passed as its
    /// children too (the mistake).
    #[ranvier::node]
    fn tonight_tail_row(row: &ranvier::collection::Row<u32, NightPitch>) -> Memo<u64> {
        let row = row.clone();
        Memo::new(move |_| {
            row.with(|pitch| {
                let Some((adults, _children)) = pitch.2 else {
                    return 0;
                };
                let kind = pitch.1;
                night_charge(kind, 200, adults, adults)
            })
        })
    }

    #[test]
    fn a_row_memo_s_call_of_a_helper_is_quoted_with_the_helper_s_lines() {
        let takings = night_takings(tonight_tail_row);
        let explain = trace::explain(&takings).unwrap();
        let call = line_in_this_file("night_charge(kind, 200, adults, adults)");
        let row = "one of the memos each row makes";
        let lines = lines_of_finding(&explain, |text| text.contains(row), row);
        assert!(
            lines.contains(&call),
            "line {call} not in the row's finding:\n{explain}"
        );
    }

    #[test]
    fn a_row_memo_s_text_appended_in_parts_is_quoted_by_the_let_its_part_came_from() {
        use ranvier::collection::Collection;
        let blocks = Signal::new(vec![(1_u32, 240_u32, 12_u32, 0_u32)]).labelled("blocks");
        let rows = Collection::keyed(blocks.clone(), |b: &(u32, u32, u32, u32)| b.0, yield_line);
        let yields = Memo::new({
            let rows = rows.clone();
            move |_| {
                let mut each = Vec::new();
                rows.for_each(|_, _, memo| each.push(memo.clone()));
                each.iter().map(Memo::get).collect::<Vec<String>>()
            }
        })
        .labelled("yields");
        assert_eq!(
            yields.get(),
            vec!["block 1, 240 trees: not picked".to_owned()]
        );
        blocks.set(vec![(1, 240, 12, 360)]);
        assert_eq!(
            yields.get(),
            vec!["block 1, 240 trees: 360 kg, 30.0 kg a tree".to_owned()]
        );
        let explain = trace::explain(&yields).unwrap();
        let made = line_in_this_file("let per_tree = f64::from(block.3) / f64::from(block.2);");
        assert!(
            finding_lines(&explain).contains(&made),
            "line {made} not quoted:\n{explain}"
        );
    }

    /// A hire's row: its line is made by a long `format!` and then grown by the arm of its status (no, customer,
    /// class, pick-up day, return day, status: 0 booked, 1 out, 2 returned). The mistake: the days counted without
    /// the day of pick-up.
    #[ranvier::node]
    fn hire_line(
        row: &ranvier::collection::Row<u32, (u32, &'static str, &'static str, u32, u32, u32)>,
    ) -> Memo<String> {
        let row = row.clone();
        Memo::new(move |_| {
            row.with(|hire| {
                let days = hire.4 - hire.3;
                let mut line = format!(
                    "#{} {}: {}, days {}-{} ({} {})",
                    hire.0,
                    hire.1,
                    hire.2,
                    hire.3,
                    hire.4,
                    days,
                    if days == 1 { "day" } else { "days" }
                );
                match hire.5 {
                    0 => line.push_str(", booked"),
                    1 => line.push_str(&format!(", out since day {}", hire.3)),
                    _ => line.push_str(&format!(", back on day {}", hire.4)),
                }
                line
            })
        })
    }

    #[test]
    fn a_row_memo_s_long_template_grown_after_is_quoted_by_its_let_and_not_by_the_arms_that_did_not_run()
     {
        use ranvier::collection::Collection;
        let hires =
            Signal::new(vec![(1_u32, "Cy", "estate", 100_u32, 100_u32, 0_u32)]).labelled("hires");
        let rows = Collection::keyed(
            hires.clone(),
            |h: &(u32, &str, &str, u32, u32, u32)| h.0,
            hire_line,
        );
        let lines = Memo::new({
            let rows = rows.clone();
            move |_| {
                let mut each = Vec::new();
                rows.for_each(|_, _, memo| each.push(memo.clone()));
                each.iter().map(Memo::get).collect::<Vec<String>>()
            }
        })
        .labelled("lines");
        assert_eq!(
            lines.get(),
            vec!["#1 Cy: estate, days 100-100 (0 days), booked".to_owned()]
        );
        let explain = trace::explain(&lines).unwrap();
        let quoted = finding_lines(&explain);
        // the `let` a template's argument read, seven lines below the template, though the text goes on after it
        let made = line_in_this_file("let days = hire.4 - hire.3;");
        assert!(quoted.contains(&made), "line {made} not quoted:\n{explain}");
        // the arms that did not run made nothing of the value
        for arm in [
            "1 => line.push_str(&format!(\", out since day {}\", hire.3)),",
            "_ => line.push_str(&format!(\", back on day {}\", hire.4)),",
        ] {
            let at = line_in_this_file(arm);
            assert!(!quoted.contains(&at), "line {at} quoted:\n{explain}");
        }
    }

    /// Two types named `Note`: the one a select makes calls two notes equal when their texts are as long.
    mod notes_whole {
        #[derive(Debug, Clone)]
        pub struct Note {
            pub day: u32,
            pub text: &'static str,
        }

        impl PartialEq for Note {
            fn eq(&self, other: &Note) -> bool {
                self.day == other.day && self.text == other.text
            }
        }
    }

    mod notes_kept {
        #[derive(Debug, Clone)]
        pub struct Note {
            pub day: u32,
            pub text: &'static str,
        }

        impl PartialEq for Note {
            fn eq(&self, other: &Note) -> bool {
                self.text.len() == other.text.len()
            }
        }
    }

    #[derive(Debug)]
    enum Day {
        Next,
    }

    #[test]
    fn a_kept_value_names_the_partial_eq_of_its_own_type_not_a_namesake() {
        // the other `Note` exists and is used: the source alone cannot tell the two `eq`s apart
        let whole = notes_whole::Note {
            day: 1,
            text: "due",
        };
        assert_eq!(whole.clone(), whole);
        assert_eq!(whole.day, 1);
        let desk = Mvu::new(1_u32, |msg, day: &u32| match msg {
            Day::Next => day + 1,
        });
        let note = desk.select(|day| notes_kept::Note {
            day: *day,
            text: "due",
        });
        assert_eq!(note.get().day, 1);
        desk.dispatch_traced("next", "{}", Day::Next).unwrap();
        assert_eq!(note.get().day, 1, "kept by its equality");
        let explain = trace::explain(&note).unwrap();
        let text = explain.to_string();
        let kept = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Kept)
            .unwrap_or_else(|| panic!("no kept finding:\n{text}"));
        assert!(kept.text.contains("day = 2 (kept 1)"), "{text}");
        let lines: Vec<u32> = kept
            .at
            .iter()
            .chain(&kept.more)
            .map(|l| l.site.line)
            .collect();
        assert!(
            lines.contains(&line_in_this_file("self.text.len() == other.text.len()")),
            "{text}"
        );
        assert!(
            !lines.contains(&line_in_this_file(
                "self.day == other.day && self.text == other.text"
            )),
            "{text}"
        );
    }

    /// A showing "the same" as another when its film is: the seats sold are left out.
    #[derive(Clone, Debug)]
    struct Showing {
        film: &'static str,
        sold: u32,
    }

    impl PartialEq for Showing {
        fn eq(&self, other: &Self) -> bool {
            self.film == other.film // sold is left out
        }
    }

    #[derive(Clone, Debug)]
    enum Box_ {
        Sell(u32),
        Tick,
    }

    /// The select below the explained memo kept a value its hand-written `eq` called equal on the message that
    /// sold seats, and again on a later message (a command, a tick) that did not touch them: the `eq` is named,
    /// with the field that differs, though the select is not the explained node and the latest message is not the
    /// one that moved the seats.
    #[test]
    fn a_select_kept_by_a_hand_written_eq_upstream_is_named_after_later_messages() {
        let office = Mvu::new(
            (
                Showing {
                    film: "Dune",
                    sold: 0,
                },
                0_u32,
            ),
            |msg, (show, ticks)| match msg {
                // the model moves by its count of messages too, so its own equality does not keep it
                Box_::Sell(n) => (
                    Showing {
                        film: show.film,
                        sold: show.sold + n,
                    },
                    ticks + 1,
                ),
                Box_::Tick => (show.clone(), ticks + 1),
            },
        );
        let showing = office.select(|(show, _)| show.clone()).labelled("showing");
        let board = Memo::new({
            let showing = showing.clone();
            move |_| showing.with(|s| format!("{}: {} sold", s.film, s.sold))
        })
        .labelled("board");
        assert_eq!(board.get(), "Dune: 0 sold");
        office.dispatch_traced("sell", "{}", Box_::Sell(2)).unwrap();
        office.dispatch_traced("tick", "{}", Box_::Tick).unwrap();
        assert_eq!(
            board.get(),
            "Dune: 0 sold",
            "the select kept the old showing"
        );
        let explain = trace::explain(&board).unwrap();
        let text = explain.to_string();
        let kept = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Kept && f.text.starts_with("showing#"))
            .unwrap_or_else(|| panic!("no kept finding for the select:\n{text}"));
        assert!(
            kept.text
                .contains("sold = 2 (kept 0), equal by the hand-written PartialEq for Showing"),
            "{text}"
        );
        let eq_line = line_in_this_file("self.film == other.film // sold is left out");
        assert_eq!(
            kept.at.as_ref().map(|l| l.site.line),
            Some(eq_line),
            "{text}"
        );
        let brief = explain.brief(600);
        let at = brief
            .find(&format!("trace.rs:{eq_line}:"))
            .unwrap_or_else(|| panic!("the eq line is not quoted: {brief}"));
        assert!(at < 400, "the eq line at {at}: {brief}");
    }

    /// The first films of a day, up to the first sold-out showing (`#[node]`-built, so the branches a run took are
    /// recorded).
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn first_films(left: &Signal<Vec<u32>>) -> Memo<usize> {
        let first = Memo::new({
            let left = left.clone();
            move |_| {
                let mut shown = 0;
                for seats in left.get() {
                    if seats == 0 {
                        break;
                    }
                    shown += 1;
                }
                shown
            }
        });
        first
    }

    /// A branch a run took that left the loop at once is quoted with the statement it left by: the `break` decided
    /// the value as much as its condition.
    #[test]
    fn a_branch_that_left_the_loop_is_quoted_with_its_break() {
        let left = Signal::new(vec![3, 0, 5]);
        let first = first_films(&left);
        assert_eq!(first.get(), 1);
        let explain = trace::explain(&first).unwrap();
        let text = explain.to_string();
        let lines = ran_line_numbers(&explain);
        let cond = line_in_this_file("if seats == 0 {");
        let exit = cond + 1;
        let at = lines
            .iter()
            .position(|l| *l == cond)
            .unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            lines.get(at + 1),
            Some(&exit),
            "the break right after its condition: {text}"
        );
    }

    /// A price with a member's discount (the mistake: `percent / 100` is 0), passed to `sell` as a fn value.
    #[ranvier::trace_fn]
    fn line_price_member(base: u64, big: bool, percent: u64) -> u64 {
        let mut gross = base;
        if big {
            gross += 10;
        }
        if percent > 0 {
            gross - gross * (percent / 100)
        } else {
            gross
        }
    }

    type LinePrice = fn(u64, bool, u64) -> u64;

    #[derive(Debug, Clone, PartialEq)]
    struct Entry {
        cents: u64,
    }

    #[ranvier::trace_fn]
    fn sell(entries: &mut Vec<Entry>, base: u64, price: LinePrice) {
        let cents = price(base, false, 5);
        entries.push(Entry { cents });
    }

    /// A helper called through a fn value (`price(..)`, `price: fn(..)`) that makes a field the node reads (the
    /// shorthand `Entry { cents }`) is quoted by the line that made its value, though a write of a local in a branch
    /// it did not take (`gross += 10`) sits above it.
    #[test]
    fn a_helper_called_through_a_fn_value_is_quoted_by_the_line_that_made_what_the_node_reads() {
        let till = Mvu::new(Vec::<Entry>::new(), |base: u64, entries: &Vec<Entry>| {
            let mut next = entries.clone();
            sell(&mut next, base, line_price_member);
            next
        });
        let total = till
            .select(|entries| entries.iter().map(|e| e.cents).sum::<u64>())
            .labelled("total");
        assert_eq!(total.get(), 0);
        till.dispatch_traced("sell", "{\"base\": 100}", 100)
            .unwrap();
        assert_eq!(total.get(), 100, "no discount: the mistake");
        let explain = trace::explain(&total).unwrap();
        let text = explain.to_string();
        let value_line = line_in_this_file("gross - gross * (percent / 100)");
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .flat_map(|f| f.at.iter().chain(&f.more))
            .filter(|l| l.site.file.ends_with("trace.rs"))
            .map(|l| l.site.line)
            .collect();
        assert!(
            quoted.contains(&value_line),
            "line {value_line} not quoted:\n{text}"
        );
        assert!(
            !quoted.contains(&line_in_this_file("gross += 10;")),
            "a branch that did not run:\n{text}"
        );
    }

    /// The short form's node line cuts a long value at 60 characters; the long form keeps what the trace holds.
    #[test]
    fn the_short_forms_node_line_cuts_a_long_value() {
        let names = Signal::new((0..40).map(|i| format!("name {i}")).collect::<Vec<_>>());
        let shown = Memo::new({
            let names = names.clone();
            move |_| names.get().join(", ")
        })
        .labelled("shown");
        assert!(shown.get().len() > 200);
        let explain = trace::explain(&shown).unwrap();
        let head = |text: &str| {
            let first = text.lines().next().unwrap_or_default().to_owned();
            let value = first.split_once(" = ").map(|(_, v)| v).unwrap_or_default();
            value
                .split(" reads [")
                .next()
                .unwrap_or_default()
                .chars()
                .count()
        };
        let brief = explain.brief(2_000);
        assert_eq!(head(&brief), 60, "{brief}");
        assert!(head(&explain.to_string()) > 60, "{explain}");
    }

    /// The short form leaves out that the node kept its value when that says nothing its own line and value do not
    /// (no equality that ignored a difference, no line that hands the old value back); the long form keeps it.
    #[test]
    fn the_short_form_leaves_out_a_kept_value_with_nothing_to_quote() {
        let count = Signal::new(1_u32);
        let odd = Memo::new({
            let count = count.clone();
            move |_| count.get() % 2
        })
        .labelled("odd");
        assert_eq!(odd.get(), 1);
        count.set(3);
        assert_eq!(odd.get(), 1);
        let explain = trace::explain(&odd).unwrap();
        assert!(explain.to_string().contains("\nkept: odd#"), "{explain}");
        let brief = explain.brief(2_000);
        assert!(!brief.contains("\nkept: "), "{brief}");
    }

    #[test]
    fn a_node_that_kept_a_long_value_does_not_say_it_again() {
        let count = Signal::new(1_u32);
        let parity = Memo::new({
            let count = count.clone();
            move |_| {
                format!(
                    "the count of the visitors today is {}",
                    ["even", "odd"][(count.get() % 2) as usize]
                )
            }
        })
        .labelled("parity");
        assert_eq!(parity.get(), "the count of the visitors today is odd");
        count.set(3);
        assert_eq!(parity.get(), "the count of the visitors today is odd");
        let explain = trace::explain(&parity).unwrap();
        // the node line shows the value; the finding that it kept it does not repeat it
        let kept = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Kept)
            .unwrap_or_else(|| panic!("no kept finding: {explain}"));
        assert!(kept.text.ends_with(" and kept its value"), "{explain}");
        // a short value is said again: shorter than saying so
        let odd = Memo::new({
            let count = count.clone();
            move |_| count.get() % 2
        })
        .labelled("odd");
        assert_eq!(odd.get(), 1);
        count.set(5);
        assert_eq!(odd.get(), 1);
        let text = trace::explain(&odd).unwrap().to_string();
        assert!(text.contains(" and kept 1"), "{text}");
    }

    /// The free rooms of a kind (the mistake: `||` for `&&`), a chain whose receiver stands alone on its line.
    #[ranvier::trace_fn]
    fn free_rooms(rooms: &[(u32, bool)], wanted: u32) -> usize {
        rooms
            .iter()
            .filter(|(kind, free)| *kind == wanted || *free)
            .count()
    }

    /// A traced helper whose value is a chain is quoted by the chain's line that decides (its `filter`), not by its
    /// receiver alone (`rooms`).
    #[test]
    fn a_helper_whose_value_is_a_chain_is_quoted_by_its_deciding_line() {
        let rooms = Signal::new(vec![(1_u32, false), (2, true)]);
        let free = Memo::new({
            let rooms = rooms.clone();
            move |_| free_rooms(&rooms.get(), 1)
        })
        .labelled("free");
        assert_eq!(free.get(), 2, "the mistake counts a room of another kind");
        let explain = trace::explain(&free).unwrap();
        let text = explain.to_string();
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .flat_map(|f| f.at.iter().chain(&f.more))
            .filter(|l| l.site.file.ends_with("trace.rs"))
            .map(|l| l.site.line)
            .collect();
        let filter = line_in_this_file(".filter(|(kind, free)| *kind == wanted || *free)");
        assert!(
            quoted.contains(&filter),
            "line {filter} not quoted:\n{text}"
        );
        assert!(
            !quoted.contains(&line_in_this_file("rooms")),
            "the receiver alone:\n{text}"
        );
    }

    /// Whether a bike may go out: checks the one refused state (the mistake: a damaged bike goes out too).
    #[ranvier::trace_fn]
    fn may_rent(state: u8) -> bool {
        if state == 1 {
            return std::hint::black_box(false);
        }
        true
    }

    #[test]
    fn a_traced_fn_is_quoted_by_the_guard_that_did_not_fire_not_by_the_block_it_skipped() {
        let state = Signal::new(2_u8);
        let out = Memo::new({
            let state = state.clone();
            move |_| may_rent(state.get())
        });
        assert!(out.get());
        let text = trace::explain(&out).unwrap().to_string();
        let guard = line_in_this_file("if state == 1 {");
        let skipped = line_in_this_file("return std::hint::black_box(false);");
        assert!(text.contains(&format!("trace.rs:{guard}:")), "{text}");
        assert!(!text.contains(&format!("trace.rs:{skipped}:")), "{text}");
    }

    /// The kilometres a kind of bike rides between services.
    #[ranvier::trace_fn]
    fn wear_limit(kind: u8) -> u32 {
        match kind {
            0 => 100,
            1 => 150,
            _ => 60,
        }
    }

    #[ranvier::trace_fn]
    fn worn(km: u32, kind: u8) -> bool {
        km >= wear_limit(kind)
    }

    /// Each started quarter hour late costs 100 (the mistake: a whole quarter more when it is exact).
    #[ranvier::trace_fn]
    fn late_charge(minutes: u32) -> u64 {
        if minutes == 0 {
            return 0;
        }
        let blocks = minutes / 15 + 1;
        u64::from(blocks) * 100
    }

    #[derive(Debug)]
    enum Back {
        Late(u32),
    }

    #[derive(Debug, Clone, PartialEq, Default)]
    struct Ledger {
        cents: u64,
        worn: bool,
        service: bool,
    }

    #[ranvier::trace_fn]
    fn back_update(msg: Back, ledger: &Ledger) -> Ledger {
        let mut next = ledger.clone();
        match msg {
            Back::Late(minutes) => {
                let fee = late_charge(minutes);
                next.cents += fee;
                next.worn = worn(120, 1);
                next.service = worn(120, 2);
            }
        }
        next
    }

    #[test]
    fn an_update_is_quoted_first_by_the_helpers_whose_values_flow_into_what_the_node_reads() {
        let ledger = Mvu::new(Ledger::default(), back_update);
        let takings = ledger.select(|l| l.cents);
        assert_eq!(takings.get(), 0);
        ledger
            .dispatch_traced("late", "{}", Back::Late(30))
            .unwrap();
        assert_eq!(
            takings.get(),
            300,
            "two quarters are 200: the mistake adds one"
        );
        let explain = trace::explain(&takings).unwrap();
        let text = explain.to_string();
        let lines: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Ran)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        // the fee's tail and the `let` it reads, not the early return the run did not take
        assert!(
            lines.contains(&line_in_this_file("u64::from(blocks) * 100")),
            "{text}"
        );
        assert!(
            lines.contains(&line_in_this_file("let blocks = minutes / 15 + 1;")),
            "{text}"
        );
        assert!(!lines.contains(&line_in_this_file("return 0;")), "{text}");
        ledger.dispatch_traced("late", "{}", Back::Late(0)).unwrap();
        assert_eq!(takings.get(), 300);
        let text = trace::explain(&takings).unwrap().to_string();
        // it returned early: its tail did not run
        assert!(
            !text.contains(&format!(
                "trace.rs:{}:",
                line_in_this_file("u64::from(blocks) * 100")
            )),
            "{text}"
        );
    }

    /// A fee by kind of member: three arms, of which a run takes one.
    #[ranvier::trace_fn]
    fn member_fee(kind: u8, base: u64) -> u64 {
        use std::convert::identity;
        match kind {
            0 => identity(base),
            1 => base.div_ceil(2) + 1,
            _ => base / 3,
        }
    }

    #[test]
    fn a_traced_helper_the_run_entered_is_not_quoted_by_the_arms_it_did_not_take() {
        let kind = Signal::new(1_u8);
        let fee = Memo::new({
            let kind = kind.clone();
            move |_| member_fee(kind.get(), 90)
        });
        assert_eq!(fee.get(), 46);
        let text = trace::explain(&fee).unwrap().to_string();
        let taken = line_in_this_file("1 => base.div_ceil(2) + 1,");
        assert!(text.contains(&format!("trace.rs:{taken}:")), "{text}");
        for not_taken in [
            "0 => identity(base),",
            "_ => base / 3,",
            "use std::convert::identity;",
        ] {
            let at = line_in_this_file(not_taken);
            assert!(
                !text.contains(&format!("trace.rs:{at}:")),
                "{not_taken} quoted:\n{text}"
            );
        }
    }

    /// A rate service a future asks; it refuses zone 0.
    async fn rate_service(zone: u32) -> Result<u32, String> {
        if zone == 0 {
            Err("no zone 0".into())
        } else {
            Ok(zone)
        }
    }

    #[test]
    fn a_settled_future_is_quoted_by_the_request_it_awaited_and_a_captured_value_it_tests() {
        use ranvier::{AsyncMemo, graph};
        let zone = Signal::new(3_u32);
        let rate = AsyncMemo::try_new({
            let zone = zone.clone();
            move |previous: Option<&u32>| {
                let asked = zone.get();
                let cached = previous.copied();
                async move {
                    if let Some(cached) = cached {
                        return Ok(cached);
                    }
                    let _served = rate_service(asked + 1).await?;
                    Ok::<_, String>(asked * 10)
                }
            }
        });
        let _ = rate.get();
        graph::run_flights();
        assert_eq!(rate.get().value_or(0), 30);
        let explain = trace::explain(&rate).unwrap();
        let settled = settled_lines(&explain);
        let request = line_in_this_file("let _served = rate_service(asked + 1).await?;");
        let captured = line_in_this_file("let cached = previous.copied();");
        for line in [request, captured] {
            assert!(
                settled.contains(&line),
                "line {line} not quoted:\n{explain}"
            );
        }
    }

    /// A depot: the zone a van serves, and the one it left.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Depot {
        zone: u32,
        left: u32,
    }

    #[derive(Debug)]
    enum Route {
        Move(u32),
    }

    /// Sends the van to `zone` (and notes the zone it left: read after the write, a slip of its own).
    #[ranvier::trace_fn]
    fn route_to(depot: &mut Depot, zone: u32) {
        depot.zone = zone;
        let from = depot.zone;
        depot.left = from;
    }

    #[ranvier::trace_fn]
    fn depot_update(msg: Route, depot: &Depot) -> Depot {
        let mut next = depot.clone();
        match msg {
            Route::Move(zone) => route_to(&mut next, zone),
        }
        next
    }

    #[test]
    fn a_future_that_turned_a_failed_request_into_a_value_is_quoted_first() {
        use ranvier::{AsyncMemo, graph};
        let depot = Mvu::new(Depot { zone: 2, left: 0 }, depot_update);
        let fee = AsyncMemo::try_new({
            let depot = depot.clone();
            move |_: Option<&u32>| {
                let (zone, left) = depot.with_model(|d| (d.zone, d.left));
                async move {
                    let rate = rate_service(zone).await.unwrap_or(0);
                    Ok::<_, String>(rate * 10 + left)
                }
            }
        });
        let _ = fee.get();
        graph::run_flights();
        depot
            .dispatch_traced("move", "{\"zone\":0}", Route::Move(0))
            .unwrap();
        let _ = fee.get();
        graph::run_flights();
        // zone 0 has no rate: the fee should fail, not be 0
        assert_eq!(fee.get().value_or(99), 0);
        let explain = trace::explain(&fee).unwrap();
        let first = explain
            .findings
            .first()
            .unwrap_or_else(|| panic!("no finding:\n{explain}"));
        let default = line_in_this_file("let rate = rate_service(zone).await.unwrap_or(0);");
        assert!(
            first.kind == trace::FindingKind::Settled
                && first
                    .at
                    .iter()
                    .chain(&first.more)
                    .any(|l| l.site.line == default),
            "line {default} not first:\n{explain}"
        );
    }

    #[test]
    fn a_settled_future_is_quoted_by_the_assignments_of_the_accumulator_it_returns() {
        use ranvier::{AsyncMemo, graph};
        let weights = Signal::new(vec![1_500_u32, 2_500]);
        let cost = AsyncMemo::try_new({
            let weights = weights.clone();
            move |_: Option<&u32>| {
                let weights = weights.get();
                async move {
                    let mut total = 0;
                    for grams in weights {
                        let rate = rate_service(grams).await?;
                        let _checked = rate > 0;
                        total += grams * 2 / 100;
                    }
                    Ok::<_, String>(total)
                }
            }
        });
        let _ = cost.get();
        graph::run_flights();
        assert_eq!(cost.get().value_or(0), 80);
        let explain = trace::explain(&cost).unwrap();
        let settled = settled_lines(&explain);
        let accumulated = line_in_this_file("total += grams * 2 / 100;");
        assert!(
            settled.contains(&accumulated),
            "line {accumulated} not quoted:\n{explain}"
        );
    }

    #[test]
    fn a_settled_future_is_quoted_by_the_let_that_bound_a_term_its_accumulator_adds() {
        use ranvier::{AsyncMemo, graph};
        // short of green coffee, in grams: the sacks to buy round down (the mistake is the `let`), priced per kilo
        let short = Signal::new(vec![35_000_u32, 80_000]);
        let cost = AsyncMemo::try_new({
            let short = short.clone();
            move |_: Option<&u32>| {
                let short = short.get();
                async move {
                    let mut total = 0;
                    for grams in short {
                        let sacks = grams / 60_000;
                        let per_kg = rate_service(grams).await?;
                        total += sacks * 60 * per_kg;
                    }
                    Ok::<_, String>(total)
                }
            }
        });
        let _ = cost.get();
        graph::run_flights();
        assert!(cost.get().value_or(0) > 0);
        let explain = trace::explain(&cost).unwrap();
        let settled = settled_lines(&explain);
        let term = line_in_this_file("let sacks = grams / 60_000;");
        assert!(
            settled.contains(&term),
            "line {term} not quoted:\n{explain}"
        );
    }

    #[test]
    fn a_row_a_keyed_collection_wrote_ranks_after_the_explained_future_s_own_lines() {
        use ranvier::collection::Collection;
        use ranvier::{AsyncMemo, graph};
        // (pupil, lessons booked): a slot a day at the test centre, three days' notice taken off (the mistake)
        let list = Signal::new(vec![(1_u32, 10_u32)]);
        let rows = Collection::keyed(list.clone(), |r: &(u32, u32)| r.0, |_| ());
        let lessons = rows.sum_by(|r| r.1);
        let slots = AsyncMemo::try_new({
            let lessons = lessons.clone();
            move |_: Option<&u32>| {
                let lessons = lessons.get();
                async move {
                    let days = rate_service(lessons).await?;
                    Ok::<_, String>(days.saturating_sub(3))
                }
            }
        });
        let _ = slots.get();
        graph::run_flights();
        list.set(vec![(1, 12)]);
        let _ = slots.get();
        graph::run_flights();
        assert_eq!(slots.get().value_or(0), 9);
        let explain = trace::explain(&slots).unwrap();
        let at = |kind: trace::FindingKind| explain.findings.iter().position(|f| f.kind == kind);
        let (settled, written) = (
            at(trace::FindingKind::Settled),
            at(trace::FindingKind::Written),
        );
        assert!(settled.is_some() && written.is_some(), "{explain}");
        // the row holds what the list gave it: the future's own lines first
        assert!(settled < written, "{explain}");
    }

    /// A hotel's block of rooms for a tour, as the booking service's future makes it.
    #[derive(Debug, Clone, PartialEq)]
    struct RoomHold {
        tour: u32,
        rooms: u32,
        confirmed: u32,
    }

    #[test]
    fn a_settled_future_s_struct_literal_is_followed_by_the_let_that_computed_a_field() {
        use ranvier::{AsyncMemo, graph};
        // (tour, guests sharing, guests alone, nights): two share a room, and the mistake rounds the sharers down
        let tours = Signal::new(vec![(1_u32, 5_u32, 1_u32, 2_u32)]);
        let holds = AsyncMemo::new({
            let tours = tours.clone();
            move |_: Option<&Vec<RoomHold>>| {
                let tours = tours.get();
                async move {
                    let mut holds = Vec::new();
                    for (tour, sharing, alone, nights) in tours {
                        let rooms = sharing / 2 + alone;
                        let nights = nights - 1;
                        let confirmed = rate_service(rooms * nights).await.unwrap_or(0);
                        holds.push(RoomHold {
                            tour,
                            rooms,
                            confirmed,
                        });
                    }
                    holds
                }
            }
        });
        let _ = holds.get();
        graph::run_flights();
        assert_eq!(holds.get().value_or(Vec::new())[0].rooms, 3);
        let explain = trace::explain(&holds).unwrap();
        let settled = settled_lines(&explain);
        let literal = line_in_this_file("holds.push(RoomHold {");
        let rooms = line_in_this_file("let rooms = sharing / 2 + alone;");
        let at = settled
            .iter()
            .position(|l| *l == literal)
            .unwrap_or_else(|| panic!("no literal:\n{explain}"));
        assert_eq!(settled.get(at + 1), Some(&rooms), "{explain}");
    }

    #[derive(Debug, Clone, PartialEq)]
    struct FuelUsed {
        miles: u32,
        millilitres: u32,
    }

    #[test]
    fn a_settled_future_that_makes_a_struct_literal_is_quoted_by_the_assignments_of_its_fields() {
        use ranvier::{AsyncMemo, graph};
        // (miles driven, miles per gallon) per car: gallons are taken for litres (the `+=` is the mistake)
        let cars = Signal::new(vec![(36_u32, 45_u32), (0, 50)]);
        let fuel = AsyncMemo::try_new({
            let cars = cars.clone();
            move |_: Option<&FuelUsed>| {
                let cars = cars.get();
                async move {
                    let _price = rate_service(1).await?;
                    let mut miles = 0;
                    let mut millilitres = 0;
                    for (driven, mpg) in cars {
                        if driven == 0 {
                            continue;
                        }
                        miles += driven;
                        let gallons_ml = driven * 1_000 / mpg;
                        millilitres += gallons_ml;
                    }
                    Ok::<_, String>(FuelUsed { miles, millilitres })
                }
            }
        });
        let _ = fuel.get();
        graph::run_flights();
        assert_eq!(
            fuel.get().value_or(FuelUsed {
                miles: 0,
                millilitres: 0
            }),
            FuelUsed {
                miles: 36,
                millilitres: 800
            }
        );
        let explain = trace::explain(&fuel).unwrap();
        let settled = settled_lines(&explain);
        let added = line_in_this_file("millilitres += gallons_ml;");
        assert!(
            settled.contains(&added),
            "line {added} not quoted:\n{explain}"
        );
    }

    /// The tools out of a shed, `#[node]`-built: days late are counted from the day a tool went out, not the day it
    /// was due (the `let` is the mistake), in a body long enough that its reads and branches say nothing of it.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn tools_late(
        loans: &Signal<Vec<(&'static str, u32, u32)>>,
        today: &Signal<u32>,
    ) -> Memo<Vec<String>> {
        let late = Memo::new({
            let (loans, today) = (loans.clone(), today.clone());
            move |_| {
                let today = today.get();
                let mut out = Vec::new();
                for (tool, out_day, due) in loans.get() {
                    if out_day > today {
                        continue;
                    }
                    let line = if due >= today {
                        format!("{tool}: due back on day {due}")
                    } else {
                        let over = today - out_day;
                        let fine = over * 50;
                        format!("{tool}: {over} days late, {fine} so far")
                    };
                    out.push(line);
                }
                out
            }
        });
        late
    }

    #[test]
    fn a_text_value_is_quoted_by_the_lets_its_template_formats() {
        let loans = Signal::new(vec![("strimmer", 1_u32, 8_u32)]);
        let today = Signal::new(2_u32);
        let late = tools_late(&loans, &today);
        assert_eq!(late.get(), vec!["strimmer: due back on day 8".to_owned()]);
        today.set(10);
        // 2 days late, not 9
        assert_eq!(
            late.get(),
            vec!["strimmer: 9 days late, 450 so far".to_owned()]
        );
        let explain = trace::explain(&late).unwrap();
        let over = line_in_this_file("let over = today - out_day;");
        let first: Vec<u32> = explain.body.iter().take(4).map(|l| l.site.line).collect();
        assert!(
            first.contains(&over),
            "line {over} not among the first:\n{explain}"
        );
    }

    /// A ticket office's day sheet: tickets sold and comps given, by kind. The mistake: a comp's seats counted
    /// among the sold (`sold.seats += t.seats` in the comp arm).
    fn day_sheet(tickets: &Signal<Vec<(u32, Option<&'static str>)>>) -> Memo<Vec<String>> {
        let tickets = tickets.clone();
        Memo::new(move |_| {
            #[derive(Default)]
            struct Count {
                tickets: u32,
                seats: u32,
            }
            let mut sold = Count::default();
            let mut comps: Vec<(&str, Count)> = Vec::new();
            for (seats, comp) in tickets.get() {
                match comp {
                    None => {
                        sold.tickets += 1;
                        sold.seats += seats;
                    }
                    Some(why) => {
                        let at = match comps.iter().position(|(w, _)| *w == why) {
                            Some(at) => at,
                            None => {
                                comps.push((why, Count::default()));
                                comps.len() - 1
                            }
                        };
                        comps[at].1.tickets += 1;
                        sold.seats += seats;
                    }
                }
            }
            let mut lines = vec![format!(
                "sold: {} seat(s) on {} ticket(s)",
                sold.seats, sold.tickets
            )];
            for (why, count) in &comps {
                lines.push(format!("comp, {why}: {} ticket(s)", count.tickets));
            }
            lines
        })
    }

    #[test]
    fn a_text_value_is_quoted_by_the_writes_to_what_its_latest_run_changed() {
        let tickets = Signal::new(vec![(2_u32, None)]);
        let sheet = day_sheet(&tickets);
        assert_eq!(
            sheet.get(),
            vec!["sold: 2 seat(s) on 1 ticket(s)".to_owned()]
        );
        tickets.update(|t| t.push((3, Some("press"))));
        // 2 seats sold, not 5
        assert_eq!(sheet.get()[0], "sold: 5 seat(s) on 1 ticket(s)");
        let explain = trace::explain(&sheet).unwrap();
        let comp_arm = line_in_this_file("comps[at].1.tickets += 1;") + 1;
        let first: Vec<u32> = explain.body.iter().take(4).map(|l| l.site.line).collect();
        assert!(
            first.contains(&comp_arm),
            "line {comp_arm} not among the first:\n{explain}"
        );
    }

    /// A settlement per consignor; the mistake: commission on the consignor's running total, not the lot's price.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Payout {
        consignor: &'static str,
        lots: u32,
        hammer: u64,
        commission: u64,
        net: u64,
    }

    fn payouts(sold: &Signal<Vec<(&'static str, u64)>>) -> Memo<Vec<Payout>> {
        let sold = sold.clone();
        Memo::new(move |_| {
            let mut out: Vec<Payout> = Vec::new();
            for (consignor, price) in sold.get() {
                let at = match out.iter().position(|p| p.consignor == consignor) {
                    Some(at) => at,
                    None => {
                        out.push(Payout {
                            consignor,
                            ..Payout::default()
                        });
                        out.len() - 1
                    }
                };
                let entry = &mut out[at];
                entry.lots += 1;
                entry.hammer += price;
                entry.commission += entry.hammer / 10;
            }
            for entry in &mut out {
                entry.net = entry.hammer - entry.commission;
            }
            out
        })
    }

    #[test]
    fn a_value_is_quoted_by_the_writes_to_the_fields_its_latest_run_changed() {
        let sold = Signal::new(vec![("hale", 1000_u64)]);
        let out = payouts(&sold);
        assert_eq!(out.get()[0].commission, 100);
        sold.update(|s| s.push(("hale", 2000)));
        // 300 on 3000, not 400
        assert_eq!(out.get()[0].commission, 400);
        let explain = trace::explain(&out).unwrap();
        let commission = line_in_this_file("entry.commission += entry.hammer / 10;");
        let first: Vec<u32> = explain.body.iter().take(4).map(|l| l.site.line).collect();
        assert!(
            first.contains(&commission),
            "line {commission} not among the first:\n{explain}"
        );
    }

    /// A print room's press board: how many jobs each press has queued. The mistake: the jobs walked are every
    /// job booked on the press, printed or not (the filter misses `!job.printed`).
    fn press_board(
        presses: &Signal<Vec<&'static str>>,
        jobs: &Signal<Vec<(&'static str, u32, bool)>>,
    ) -> Memo<Vec<String>> {
        let (presses, jobs) = (presses.clone(), jobs.clone());
        Memo::new(move |_| {
            let jobs = jobs.get();
            let mut lines = Vec::new();
            for press in presses.get() {
                let mut sheets = 0;
                let mut count = 0;
                let queued = jobs.iter().filter(|(on, _, _)| *on == press);
                for (_, job_sheets, _) in queued {
                    sheets += job_sheets;
                    count += 1;
                }
                if count == 0 {
                    lines.push(format!("{press}: idle"));
                    continue;
                }
                lines.push(format!("{press}: {count} queued, {sheets} sheets"));
            }
            lines
        })
    }

    #[test]
    fn a_count_written_in_a_loop_brings_the_let_of_what_the_loop_walks() {
        let presses = Signal::new(vec!["indigo"]);
        let jobs = Signal::new(vec![("indigo", 100_u32, false)]);
        let board = press_board(&presses, &jobs);
        assert_eq!(board.get(), vec!["indigo: 1 queued, 100 sheets".to_owned()]);
        jobs.update(|j| j.push(("indigo", 50, true)));
        // the printed job is not queued: still 1, not 2
        assert_eq!(board.get(), vec!["indigo: 2 queued, 150 sheets".to_owned()]);
        let explain = trace::explain(&board).unwrap();
        let walked =
            line_in_this_file("let queued = jobs.iter().filter(|(on, _, _)| *on == press);");
        let first: Vec<u32> = explain.body.iter().take(5).map(|l| l.site.line).collect();
        assert!(
            first.contains(&walked),
            "line {walked} not among the first:\n{explain}"
        );
    }

    /// A paper store's stock lines. The mistake: the sheets reserved are counted from before the loop over the
    /// shelves, so each shelf carries the shelves before it.
    #[derive(Clone, Debug, PartialEq)]
    struct StockLine {
        paper: &'static str,
        on_shelf: u32,
        reserved: u32,
        free: u32,
    }

    fn paper_stock(
        shelves: &Signal<Vec<(&'static str, u32)>>,
        jobs: &Signal<Vec<(&'static str, u32)>>,
    ) -> Memo<Vec<StockLine>> {
        let (shelves, jobs) = (shelves.clone(), jobs.clone());
        Memo::new(move |_| {
            let jobs = jobs.get();
            let mut lines = Vec::new();
            let mut reserved = 0;
            for (paper, sheets) in shelves.get() {
                for (wanted, job_sheets) in &jobs {
                    if *wanted == paper {
                        reserved += job_sheets;
                    }
                }
                let free = sheets.saturating_sub(reserved);
                lines.push(StockLine {
                    paper,
                    on_shelf: sheets,
                    reserved,
                    free,
                });
            }
            lines
        })
    }

    #[test]
    fn a_changed_field_set_from_a_local_brings_the_local_s_let() {
        let shelves = Signal::new(vec![("silk", 1000_u32), ("gloss", 800)]);
        let jobs = Signal::new(vec![("silk", 100_u32)]);
        let stock = paper_stock(&shelves, &jobs);
        assert_eq!(stock.get()[1].reserved, 100);
        jobs.update(|j| j.push(("silk", 50)));
        // gloss has nothing reserved: 0, not 150
        assert_eq!(stock.get()[1].reserved, 150);
        let explain = trace::explain(&stock).unwrap();
        let start = line_in_this_file("let mut reserved = 0;");
        let first: Vec<u32> = explain.body.iter().take(5).map(|l| l.site.line).collect();
        assert!(
            first.contains(&start),
            "line {start} not among the first:\n{explain}"
        );
    }

    #[test]
    fn a_settled_text_is_quoted_by_the_guard_of_its_arm_not_by_an_arm_that_made_none_of_it() {
        use ranvier::{AsyncMemo, graph};
        let days = Signal::new(vec![1_u32, 2, 3]);
        let rota = AsyncMemo::try_new({
            let days = days.clone();
            move |_: Option<&Vec<String>>| {
                let days = days.get();
                async move {
                    let mut lines = Vec::new();
                    for day in days {
                        let line = match rate_service(day).await {
                            Ok(rain) if rain < 2 => format!("day {day}: water the beds"),
                            Ok(rain) => format!("day {day}: no watering ({rain} mm)"),
                            Err(_) => format!("day {day}: no forecast yet"),
                        };
                        lines.push(line);
                    }
                    Ok::<_, String>(lines)
                }
            }
        });
        let _ = rota.get();
        graph::run_flights();
        assert_eq!(rota.get().value_or(Vec::new()).len(), 3);
        let explain = trace::explain(&rota).unwrap();
        let settled = settled_lines(&explain);
        let guard =
            line_in_this_file("Ok(rain) if rain < 2 => format!(\"day {day}: water the beds\"),");
        let failed = line_in_this_file("Err(_) => format!(\"day {day}: no forecast yet\"),");
        assert!(
            settled.contains(&guard),
            "line {guard} not quoted:\n{explain}"
        );
        assert!(
            !settled.contains(&failed),
            "line {failed} quoted:\n{explain}"
        );
    }

    /// Grade bands, highest first.
    const GRADE_BANDS: [(u32, &str); 3] = [(70, "A"), (60, "B"), (50, "C")];

    /// The band `percent` falls in: a boundary drops a band (`>` for `>=`, the mistake).
    #[ranvier::trace_fn]
    fn grade_band(percent: u32) -> &'static str {
        GRADE_BANDS
            .iter()
            .find(|(from, _)| percent > *from)
            .map_or("U", |b| b.1)
    }

    #[test]
    fn a_chains_tail_is_quoted_with_the_closure_that_chose() {
        let percent = Signal::new(65_u32);
        let grade = Memo::new({
            let percent = percent.clone();
            move |_| grade_band(percent.get())
        });
        assert_eq!(grade.get(), "B");
        percent.set(70);
        assert_eq!(grade.get(), "B");
        let explain = trace::explain(&grade).unwrap();
        let text = explain.to_string();
        let chose = line_in_this_file(".find(|(from, _)| percent > *from)");
        let ran: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Ran)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        assert!(ran.contains(&chose), "line {chose} not quoted:\n{text}");
    }

    #[test]
    fn a_list_reading_a_view_that_moved_is_quoted_by_the_views_closure() {
        use ranvier::collection::Collection;
        // (plot, tenant): the vacant plots are those with a tenant (the mistake: `is_some` for `is_none`)
        let plots = Signal::new(vec![(1_u32, None::<&str>), (2, Some("Ana")), (3, None)]);
        let rows = Collection::keyed(plots.clone(), |p: &(u32, Option<&str>)| p.0, |_| ());
        let vacant = rows.filter(|p| p.1.is_some());
        let keys = vacant.keys();
        let list = Memo::new({
            let keys = keys.clone();
            move |_| {
                let keys = keys.get();
                let mut lines = Vec::new();
                for key in keys.iter() {
                    lines.push(format!("plot {key}"));
                }
                lines
            }
        });
        assert_eq!(list.get(), vec!["plot 2".to_owned()]);
        plots.set(vec![(1, Some("Eve")), (2, Some("Ana")), (3, None)]);
        assert_eq!(list.get().len(), 2);
        let explain = trace::explain(&list).unwrap();
        let view = line_in_this_file("let vacant = rows.filter(|p| p.1.is_some());");
        assert!(
            explain.body.iter().take(3).any(|l| l.site.line == view),
            "line {view} not quoted:\n{explain}"
        );
    }

    /// A diary: the day, and the days booked; a booking needs a day's notice.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Diary {
        today: u32,
        booked: Vec<u32>,
    }

    #[derive(Debug)]
    enum Booking {
        Book(u32),
        NextDay,
    }

    /// Whether a booking for `day` comes too late on `today` (a day's notice is enough: `<=` refuses it).
    #[ranvier::trace_fn]
    fn too_soon(today: u32, day: u32) -> bool {
        if day <= today + 1 {
            return true;
        }
        false
    }

    #[ranvier::trace_fn]
    fn diary_update(msg: Booking, diary: &Diary) -> Diary {
        let mut next = diary.clone();
        match msg {
            Booking::Book(day) => {
                if too_soon(next.today, day) {
                    return next;
                }
                next.booked.push(day);
            }
            Booking::NextDay => next.today += 1,
        }
        next
    }

    #[test]
    fn a_message_its_update_refused_is_quoted_first_by_the_rule_that_refused_it() {
        let diary = Mvu::new(Diary::default(), |msg, diary: &Diary| {
            diary_update(msg, diary)
        });
        let upcoming = Memo::new({
            let diary = diary.clone();
            move |_| diary.with_model(|d| d.booked.iter().filter(|b| **b >= d.today).count())
        });
        assert_eq!(upcoming.get(), 0);
        // day 1 is a day's notice on day 0: it should be booked, and still be upcoming on day 1
        diary
            .dispatch_traced("book", "{\"day\":1}", Booking::Book(1))
            .unwrap();
        diary
            .dispatch_traced("next_day", "{}", Booking::NextDay)
            .unwrap();
        assert_eq!(upcoming.get(), 0);
        let explain = trace::explain(&upcoming).unwrap();
        let rule = line_in_this_file("if day <= today + 1 {");
        assert!(
            message_lines(&explain, "book").contains(&rule),
            "line {rule} not quoted:\n{explain}"
        );
        // it comes before the explained node's own lines
        let first = explain
            .findings
            .first()
            .map(|f| f.text.clone())
            .unwrap_or_default();
        assert!(first.starts_with("message book #"), "not first:\n{explain}");
    }

    /// A stall's stock and price.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Stall {
        stock: u32,
        price: u32,
    }

    #[derive(Debug)]
    enum StallMsg {
        Price(u32),
        Restock(u32),
    }

    /// The discount in pence on `qty` items: none under ten, a penny an item from ten.
    #[ranvier::trace_fn]
    fn bulk_discount(qty: u32) -> u32 {
        if qty < 10 {
            return 0;
        }
        qty
    }

    #[ranvier::trace_fn]
    fn stall_update(msg: StallMsg, stall: &Stall) -> Stall {
        let mut next = stall.clone();
        match msg {
            StallMsg::Price(qty) => next.price = 100 - bulk_discount(qty),
            StallMsg::Restock(n) => next.stock = n, // the mistake: `=` for `+=`
        }
        next
    }

    #[test]
    fn a_rule_that_returned_a_literal_early_refused_no_message() {
        let stall = Mvu::new(
            Stall {
                stock: 4,
                price: 100,
            },
            |msg, stall: &Stall| stall_update(msg, stall),
        );
        let stock = stall.select(|s| s.stock);
        assert_eq!(stock.get(), 4);
        stall
            .dispatch_traced("price", "{\"qty\":5}", StallMsg::Price(5))
            .unwrap();
        stall
            .dispatch_traced("restock", "{\"n\":3}", StallMsg::Restock(3))
            .unwrap();
        // 4 + 3 expected
        assert_eq!(stock.get(), 3);
        let explain = trace::explain(&stock).unwrap();
        // the price message ran `return 0;` in the discount rule: it computed a discount of nothing and refused
        // nothing, so it does not lead as a refused message would
        let first = explain
            .findings
            .first()
            .map(|f| f.text.clone())
            .unwrap_or_default();
        assert!(
            !first.starts_with("message price #"),
            "the price message first:\n{explain}"
        );
        let write = line_in_this_file(
            "StallMsg::Restock(n) => next.stock = n, // the mistake: `=` for `+=`",
        );
        assert!(
            message_lines(&explain, "restock").contains(&write),
            "line {write} not quoted:\n{explain}"
        );
    }

    /// A studio's session: its day and start, in minutes.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Session {
        day: u32,
        start: u32,
    }

    /// When the session starts, in minutes from day 0.
    #[ranvier::trace_fn]
    fn session_start(session: &Session) -> u32 {
        session.day * 1_440 + session.start
    }

    /// Why nobody may come in at `now`: the door opens 30 minutes before the start (`+` where `-` belongs).
    #[ranvier::trace_fn]
    fn door_refusal(session: &Session, now: u32) -> Option<String> {
        let opens = session_start(session) + 30;
        if session.start == 0 {
            Some("no session".to_owned())
        } else if now < opens {
            Some(format!("the door opens at {opens}"))
        } else {
            None
        }
    }

    #[test]
    fn a_let_a_branch_compares_against_comes_before_the_helper_it_calls() {
        let session = Signal::new(Session { day: 0, start: 610 });
        let now = Signal::new(600_u32);
        let refusal = Memo::new({
            let (session, now) = (session.clone(), now.clone());
            move |_| door_refusal(&session.get(), now.get())
        });
        // ten minutes before the start the door is open: nothing should refuse
        assert_eq!(refusal.get().as_deref(), Some("the door opens at 640"));
        let explain = trace::explain(&refusal).unwrap();
        let quoted = ran_line_numbers(&explain);
        let opens = line_in_this_file("let opens = session_start(session) + 30;");
        let helper = line_in_this_file("session.day * 1_440 + session.start");
        let at = |line: u32| quoted.iter().position(|l| *l == line);
        assert!(at(opens).is_some(), "line {opens} not quoted:\n{explain}");
        // the helper's line, when quoted, after the `let` that computed on its value
        assert!(
            at(helper).is_none_or(|h| at(opens) < Some(h)),
            "the helper first:\n{explain}"
        );
    }

    /// Whether `session` has started by `now`.
    #[ranvier::trace_fn]
    fn has_started(session: &Session, now: u32) -> bool {
        session_start(session) <= now
    }

    /// Whether a member may still join: staffed and not started (`&&` where the desk lets anyone in before the start).
    #[ranvier::trace_fn]
    fn may_join(session: &Session, now: u32, staffed: bool) -> &'static str {
        if staffed && has_started(session, now) {
            "closed"
        } else {
            "open"
        }
    }

    #[test]
    fn a_helper_a_branch_condition_combines_comes_after_the_condition() {
        let session = Signal::new(Session { day: 0, start: 610 });
        let now = Signal::new(620_u32);
        let join = Memo::new({
            let (session, now) = (session.clone(), now.clone());
            move |_| may_join(&session.get(), now.get(), true)
        });
        assert_eq!(join.get(), "closed");
        let explain = trace::explain(&join).unwrap();
        let quoted = ran_line_numbers(&explain);
        let condition = line_in_this_file("if staffed && has_started(session, now) {");
        let at = |line: u32| quoted.iter().position(|l| *l == line);
        assert!(
            at(condition).is_some(),
            "line {condition} not quoted:\n{explain}"
        );
        // the helpers' lines, when quoted, after the condition that combined their value
        for helper in [
            line_in_this_file("session_start(session) <= now"),
            line_in_this_file("session.day * 1_440 + session.start"),
        ] {
            assert!(
                at(helper).is_none_or(|h| at(condition) < Some(h)),
                "line {helper} first:\n{explain}"
            );
        }
    }

    /// Ships waiting for a berth, and an `update` whose helper writes the berth of the ship a lookup chose.
    #[derive(Debug, Clone, PartialEq)]
    struct Ship {
        name: &'static str,
        berth: Option<u32>,
    }

    #[derive(Debug)]
    enum Harbour {
        Dock(&'static str, u32),
    }

    #[ranvier::trace_fn]
    fn dock(ships: &mut [Ship], _name: &'static str, berth: u32) -> Vec<u32> {
        let Some(ship) = ships
            .iter_mut()
            .find(|s| s.berth.is_none() && !s.name.is_empty())
        else {
            return Vec::new();
        };
        ship.berth = Some(berth);
        vec![berth]
    }

    #[ranvier::trace_fn]
    fn harbour_update(msg: Harbour, ships: &[Ship]) -> Vec<Ship> {
        let mut next = ships.to_vec();
        match msg {
            Harbour::Dock(name, berth) => {
                dock(&mut next, name, berth);
            }
        }
        next
    }

    #[test]
    fn an_update_quotes_the_lookup_that_chose_the_place_written_and_a_dropped_result() {
        let ships = vec![
            Ship {
                name: "Tern",
                berth: None,
            },
            Ship {
                name: "Osprey",
                berth: None,
            },
        ];
        let harbour = Mvu::new(ships, |msg, ships: &Vec<Ship>| harbour_update(msg, ships));
        let docked = Memo::new({
            let harbour = harbour.clone();
            move |_| {
                harbour.with_model(|s| {
                    s.iter()
                        .filter(|s| s.berth.is_some())
                        .map(|s| s.name)
                        .collect::<Vec<_>>()
                })
            }
        });
        assert!(docked.get().is_empty());
        harbour
            .dispatch_traced(
                "dock",
                "{\"name\":\"Osprey\",\"berth\":2}",
                Harbour::Dock("Osprey", 2),
            )
            .unwrap();
        assert_eq!(docked.get(), ["Tern"]);
        let explain = trace::explain(&docked).unwrap();
        let text = explain.to_string();
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Ran)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        // the write, the lookup that chose which ship it wrote, and the call whose returned value was dropped
        let write = line_in_this_file("ship.berth = Some(berth);");
        let lookup = line_in_this_file(".find(|s| s.berth.is_none() && !s.name.is_empty())");
        let dropped = line_in_this_file("dock(&mut next, name, berth);");
        for line in [write, lookup, dropped] {
            assert!(quoted.contains(&line), "line {line} not quoted:\n{text}");
        }
    }

    /// A reading that is "the same" when its value is: the unit is ignored.
    #[derive(Clone, Debug)]
    struct Reading {
        value: i64,
        unit: &'static str,
    }

    impl PartialEq for Reading {
        fn eq(&self, other: &Self) -> bool {
            self.value == other.value // the unit is left out
        }
    }

    #[test]
    fn a_cutoff_by_a_hand_written_eq_names_the_fields_that_differ_and_the_eq_line() {
        let metric = Signal::new(true);
        let reading = Memo::new({
            let metric = metric.clone();
            move |_| Reading {
                value: 12,
                unit: if metric.get() { "cm" } else { "in" },
            }
        })
        .labelled("reading");
        let shown = Memo::new({
            let reading = reading.clone();
            move |_| reading.with(|r| format!("{} {}", r.value, r.unit))
        });
        assert_eq!(shown.get(), "12 cm");
        metric.set(false);
        assert_eq!(shown.get(), "12 cm", "the cutoff keeps the old unit");
        let explain = trace::explain(&shown).unwrap();
        let cutoff = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Cutoff)
            .unwrap_or_else(|| panic!("no cutoff: {explain}"));
        assert!(
            cutoff
                .text
                .contains("computed unit = \"in\" (kept \"cm\"), equal by the hand-written PartialEq for Reading"),
            "{explain}"
        );
        let eq_line = include_str!("trace.rs")
            .lines()
            .position(|l| l.contains("self.value == other.value"))
            .expect("the eq line")
            + 1;
        let first = cutoff.more.first().expect("the eq body");
        assert!(first.site.file.ends_with("trace.rs"), "{explain}");
        assert_eq!(first.site.line as usize, eq_line, "{explain}");
        let text = explain.brief(600);
        let at = text
            .find(&format!("trace.rs:{eq_line}:"))
            .unwrap_or_else(|| panic!("the eq line is not quoted: {text}"));
        assert!(at < 400, "the eq line at {at}: {text}");
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Point {
        x: f64,
    }

    #[test]
    fn a_cutoff_by_a_derived_eq_names_the_derive() {
        let flip = Signal::new(false);
        let point = Memo::new({
            let flip = flip.clone();
            // -0.0 == 0.0, but they print differently
            move |_| Point {
                x: if flip.get() { -0.0 } else { 0.0 },
            }
        })
        .labelled("point");
        let shown = Memo::new(move |_| format!("{:?}", point.get()));
        assert_eq!(shown.get(), "Point { x: 0.0 }");
        flip.set(true);
        assert_eq!(shown.get(), "Point { x: 0.0 }");
        let explain = trace::explain(&shown).unwrap();
        let cutoff = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Cutoff)
            .unwrap_or_else(|| panic!("no cutoff: {explain}"));
        assert!(
            cutoff
                .text
                .contains("computed x = -0.0 (kept 0.0), equal by the derived PartialEq of Point"),
            "{explain}"
        );
        // the derive right above `struct Point`
        let derive = include_str!("trace.rs")
            .lines()
            .position(|l| l.trim() == "struct Point {")
            .expect("the derive");
        assert_eq!(
            cutoff.more.first().map(|l| l.site.line as usize),
            Some(derive),
            "{explain}"
        );
    }

    #[test]
    fn a_source_that_kept_its_value_through_the_latest_change_comes_before_a_write_further_up() {
        // orders as (number, status): 0 waiting, 1 ready, 2 collected; an effect copies the shop's orders over
        let shop = Mvu::new(vec![(1_u32, 1_u8), (2, 1)], |collected: u32, orders| {
            let mut next = orders.clone();
            for order in next.iter_mut().filter(|(no, _)| *no == collected) {
                order.1 = 2;
            }
            next
        });
        let orders = Signal::new(Vec::<(u32, u8)>::new());
        let _copy = Effect::new({
            let (shop, orders) = (shop.clone(), orders.clone());
            move || orders.set(shop.model())
        });
        // the mistake: every order not waiting is "ready", collected ones too
        let ready = Memo::new({
            let orders = orders.clone();
            move |_| {
                orders.with(|o| {
                    o.iter()
                        .filter(|(_, status)| *status != 0)
                        .map(|(no, _)| *no)
                        .collect::<Vec<_>>()
                })
            }
        });
        let sheet = Memo::new({
            let (orders, ready) = (orders.clone(), ready.clone());
            move |_| format!("{} orders, ready {:?}", orders.with(Vec::len), ready.get())
        });
        assert_eq!(sheet.get(), "2 orders, ready [1, 2]");
        shop.dispatch(1).unwrap();
        assert_eq!(
            sheet.get(),
            "2 orders, ready [1, 2]",
            "order 1 collected, still ready"
        );
        // the sheet re-ran on the message (it reads the orders) and did not move: the source it reads that kept
        // its value through that change stopped it, a stronger lead than the effect's write a step up
        let explain = trace::explain(&sheet).unwrap();
        let first = explain
            .findings
            .first()
            .unwrap_or_else(|| panic!("no finding: {explain}"));
        assert_eq!(first.kind, trace::FindingKind::Cutoff, "{explain}");
        assert!(
            first.text.contains("kept [1, 2]"),
            "the view kept its rows: {explain}"
        );
        let view = line_in_this_file("let ready = Memo::new({");
        assert_eq!(
            first.at.as_ref().map(|l| l.site.line),
            Some(view),
            "{explain}"
        );
    }

    #[test]
    fn why_not_checked_clean_names_sources_and_the_cutoff() {
        let n = Signal::new(3);
        let parity = Memo::new({
            let n = n.clone();
            move |_| n.get() % 2
        });
        let label = Memo::new({
            let parity = parity.clone();
            move |_| if parity.get() == 0 { "even" } else { "odd" }
        });
        assert_eq!(label.get(), "odd");
        n.set(5);
        assert_eq!(label.get(), "odd");
        match trace::why_not(&label).unwrap() {
            WhyNot::CheckedClean {
                sources, cutoff, ..
            } => {
                assert_eq!(
                    sources.iter().map(|s| s.id).collect::<Vec<_>>(),
                    [parity.id()]
                );
                let cutoff = cutoff.expect("the cutoff at parity");
                assert_eq!(cutoff.node.id, parity.id());
                assert_eq!(&*cutoff.value, "1");
            }
            other => panic!("expected checked clean, got {other:?}"),
        }
        let text = trace::why_not(&label).unwrap().to_string();
        assert!(text.starts_with("label#3 checked clean #"), "{text}");
        assert!(
            text.contains("against [parity#2]; the change stopped at parity#2 kept 1 #"),
            "{text}"
        );

        let explain = trace::explain(&label).unwrap().to_string();
        assert!(explain.contains("\ncutoff: parity#2 kept 1 #"), "{explain}");
        assert!(
            explain.contains("\nnot re-run since: label#3 checked clean"),
            "{explain}"
        );
    }

    #[test]
    fn why_not_unobserved_queued_disposed_never_ran_equal_write_and_not_reached() {
        let s = Signal::new(1);
        let lazy = Memo::new({
            let s = s.clone();
            move |_| s.get()
        });
        assert!(matches!(
            trace::why_not(&lazy).unwrap(),
            WhyNot::NeverRan { .. }
        ));
        lazy.get();
        assert!(matches!(
            trace::why_not(&lazy).unwrap(),
            WhyNot::NotReached { .. }
        ));
        s.set(1);
        match trace::why_not(&lazy).unwrap() {
            WhyNot::EqualWrite { write, .. } => assert_eq!(write.node.id, s.id()),
            other => panic!("expected an equal write, got {other:?}"),
        }
        s.set(2);
        match trace::why_not(&lazy).unwrap() {
            WhyNot::Unobserved {
                source,
                dirty,
                observers,
                ..
            } => {
                assert_eq!(source.map(|s| s.id), Some(s.id()));
                assert!(dirty);
                assert!(observers.is_empty());
            }
            other => panic!("expected unobserved, got {other:?}"),
        }
        assert!(
            trace::why_not(&lazy)
                .unwrap()
                .to_string()
                .contains("unobserved: a memo re-runs only when read")
        );

        let effect = Effect::new({
            let s = s.clone();
            move || {
                s.get();
            }
        });
        batch(|| {
            s.set(3);
            match trace::why_not(&effect).unwrap() {
                WhyNot::Queued { .. } => {}
                other => panic!("expected queued inside the batch, got {other:?}"),
            }
        });
        effect.dispose();
        assert!(matches!(
            trace::why_not(&effect).unwrap(),
            WhyNot::Disposed { .. }
        ));
        assert!(matches!(trace::why_not(&s).unwrap(), WhyNot::Signal { .. }));
    }

    #[test]
    fn unread_lists_peeked_nodes_that_moved_after() {
        let tracked = Signal::new(1);
        let peeked = Signal::new(10);
        let under_untrack = Signal::new(100);
        let base = Signal::new(1000);
        let peeked_memo = Memo::new({
            let base = base.clone();
            move |_| base.get()
        });
        let sum = Memo::new({
            let (tracked, peeked, under_untrack, peeked_memo) = (
                tracked.clone(),
                peeked.clone(),
                under_untrack.clone(),
                peeked_memo.clone(),
            );
            move |_| {
                tracked.get() + peeked.peek() + untrack(|| under_untrack.get()) + peeked_memo.peek()
            }
        });
        assert_eq!(sum.get(), 1111, "a memo's peek computes it");
        assert!(trace::unread(&sum).unwrap().is_empty());
        peeked.set(20);
        under_untrack.set(200);
        base.set(2000);
        assert_eq!(
            peeked_memo.get(),
            2000,
            "another reader pulls the peeked memo"
        );
        assert_eq!(sum.get(), 1111, "untracked reads do not wake the memo");
        let unread: Vec<NodeId> = trace::unread(&sum)
            .unwrap()
            .iter()
            .map(|u| u.node.id)
            .collect();
        assert_eq!(unread, [peeked.id(), under_untrack.id(), peeked_memo.id()]);
        let explain = trace::explain(&sum).unwrap().to_string();
        assert!(
            explain.contains("\nunread: peeked#2 = 20 moved #"),
            "{explain}"
        );
        tracked.set(2);
        assert_eq!(sum.get(), 2222);
        assert!(
            trace::unread(&sum).unwrap().is_empty(),
            "a re-run read them again"
        );
    }

    #[test]
    fn names_come_from_labels_then_let_bindings_then_kinds() {
        let line = line!() + 1;
        let price = Signal::new(250);
        let quantity = Signal::new(2).labelled("qty");
        let total = Memo::new({
            let (price, quantity) = (price.clone(), quantity.clone());
            move |_| price.get() * quantity.get()
        });
        let unnamed = [Signal::new(0_u8)];
        assert_eq!(total.get(), 500);
        assert_eq!(&*trace::name(&price).unwrap().name, "price");
        assert_eq!(&*trace::name(&quantity).unwrap().name, "qty");
        assert_eq!(&*trace::name(&unnamed[0]).unwrap().name, "Signal");
        let info = trace::info(&total).unwrap();
        assert_eq!(
            info.to_string(),
            format!(
                "total#3 Memo trace.rs:{} = 500 reads [price#1, qty#2]",
                line + 2
            )
        );
        assert_eq!(
            trace::info(&price).unwrap().to_string(),
            format!("price#1 Signal trace.rs:{line} = 250")
        );
        let origin = trace::origin(&total).unwrap();
        assert_eq!(origin.line.as_deref(), Some("let total = Memo::new({"));
        assert_eq!(origin.site.file, "tests/tests/trace.rs");
        assert_eq!(origin.path, "/total");
    }

    #[test]
    fn origin_and_paths_follow_the_creating_run() {
        let rows = Signal::new(vec![1, 2]);
        let made = Rc::new(RefCell::new(Vec::new()));
        let list = Effect::new({
            let (rows, made) = (rows.clone(), made.clone());
            move || {
                let mut mine = Vec::new();
                for r in rows.get() {
                    let row = Memo::new(move |_| r * 100);
                    mine.push(row.id());
                }
                *made.borrow_mut() = mine;
            }
        });
        let first = made.borrow().clone();
        let origin = trace::origin(first[1]).unwrap();
        assert_eq!(
            origin.owners.iter().map(|o| o.id).collect::<Vec<_>>(),
            [list.id()]
        );
        assert!(origin.creating_run > 0);
        assert_eq!(origin.path, "/list/row[2]");
        assert_eq!(trace::origin(first[0]).unwrap().path, "/list/row");
        rows.set(vec![3, 4]);
        let second = made.borrow().clone();
        // Re-created children keep their path; the path resolves to the live holder.
        assert_eq!(trace::lookup("/list/row[2]").unwrap(), second[1]);
        assert_eq!(trace::lookup("/list/row").unwrap(), second[0]);
    }

    #[test]
    fn lookup_by_name_id_and_errors() {
        let count = Signal::new(0);
        let other = Signal::new(0).labelled("count2");
        assert_eq!(trace::lookup("count").unwrap(), count.id());
        assert_eq!(trace::lookup("#2").unwrap(), other.id());
        assert_eq!(trace::lookup("count2#2").unwrap(), other.id());
        let wrong = trace::lookup("count#2").unwrap_err();
        assert!(
            wrong
                .to_string()
                .contains("node #2 is named `count2`, not `count`"),
            "{wrong}"
        );
        let missing = trace::lookup("cnt").unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("no node matches `cnt`: no node has this name"),
            "{missing}"
        );
        assert!(
            trace::lookup("#x")
                .unwrap_err()
                .to_string()
                .contains("is not a node id")
        );
        assert!(
            trace::lookup("#99")
                .unwrap_err()
                .to_string()
                .contains("there is no node #99")
        );
        let a = [Signal::new(1), Signal::new(2)];
        let ambiguous = trace::lookup("Signal").unwrap_err();
        assert_eq!(
            ambiguous
                .candidates
                .iter()
                .map(|c| c.id)
                .collect::<Vec<_>>(),
            [a[0].id(), a[1].id()]
        );
        assert!(trace::why(NodeId(999)).is_err());
    }

    #[test]
    fn history_lists_runs_with_moves_and_cutoffs() {
        let n = Signal::new(1);
        let sign = Memo::new({
            let n = n.clone();
            move |_| n.get() > 0
        });
        sign.get();
        n.set(2);
        sign.get();
        n.set(-1);
        sign.get();
        let history = trace::history(&sign).unwrap();
        let statuses: Vec<_> = history
            .entries
            .iter()
            .map(|e| (e.run, e.status.clone()))
            .collect();
        assert_eq!(
            statuses,
            [
                (1, RunStatus::Moved),
                (2, RunStatus::Kept),
                (3, RunStatus::Moved)
            ]
        );
        assert_eq!(history.entries[2].value.as_deref(), Some("false"));
        assert!(!history.truncated);
        let text = history.to_string();
        assert!(text.contains("\nrun 2 #"), "{text}");
        assert!(
            text.contains(" kept = true (root: program write to n#1 #"),
            "{text}"
        );
        let writes = trace::history(&n).unwrap();
        assert_eq!(writes.entries.len(), 2);
    }

    /// A shop that bills deliveries: a delivery's fee is worked out and told in a note, but never billed.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Shop {
        bills: Vec<Bill>,
        notes: Vec<String>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct Bill {
        cents: u64,
    }

    #[derive(Debug)]
    enum ShopMsg {
        Deliver { goods: u64 },
        Bill { cents: u64 },
        Note { text: String },
    }

    #[ranvier::trace_fn]
    fn deliver_to(shop: &mut Shop, goods: u64) -> Vec<ShopMsg> {
        if goods == 0 {
            return Vec::new();
        }
        let fee = goods / 4;
        shop.notes.push(format!("packed {goods}"));
        let mut commands = vec![ShopMsg::Bill { cents: goods }];
        commands.push(ShopMsg::Note {
            text: format!("delivered: {goods} (delivery {fee})"),
        });
        if shop.notes.len() > 10 {
            shop.notes.clear();
        }
        commands
    }

    #[ranvier::trace_fn]
    fn shop_update(msg: ShopMsg, shop: &Shop) -> (Shop, Vec<ShopMsg>) {
        let mut next = shop.clone();
        let commands = match msg {
            ShopMsg::Deliver { goods } => deliver_to(&mut next, goods),
            ShopMsg::Bill { cents } => {
                next.bills.push(Bill { cents });
                Vec::new()
            }
            ShopMsg::Note { text } => {
                next.notes.push(text);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_value_an_update_worked_out_and_only_told_is_quoted_with_the_commands_it_sent() {
        let shop = Mvu::with_commands((Shop::default(), vec![]), shop_update);
        let billed = shop.select(|s| s.bills.iter().map(|b| b.cents).sum::<u64>());
        assert_eq!(billed.get(), 0);
        shop.dispatch(ShopMsg::Deliver { goods: 600 }).unwrap();
        // 600 and the fee of 150
        assert_eq!(billed.get(), 600);
        let explain = trace::explain(&billed).unwrap();
        let quoted = finding_lines(&explain);
        let commands =
            line_in_this_file("let mut commands = vec![ShopMsg::Bill { cents: goods }];");
        let fee = line_in_this_file("let fee = goods / 4;");
        assert!(
            quoted.contains(&commands) && quoted.contains(&fee),
            "lines {commands} and {fee} not quoted:\n{explain}"
        );
    }

    /// A kennels: checking a stay in plans its dogs' walks by a command, which carries the pen's number where the
    /// stay's is meant (the mistake), so the walks planned are for no stay.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Kennel {
        stays: Vec<KennelStay>,
        walks: Vec<String>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct KennelStay {
        id: u32,
        pen: u32,
        pets: Vec<String>,
        arrived: bool,
    }

    #[derive(Debug)]
    enum KennelMsg {
        CheckIn { id: u32 },
        PlanWalks { stay: u32 },
    }

    #[ranvier::trace_fn]
    fn check_in_stay(kennel: &mut Kennel, id: u32) -> Vec<KennelMsg> {
        let Some(stay) = kennel.stays.iter().find(|s| s.id == id).cloned() else {
            return Vec::new();
        };
        let dogs = stay
            .pets
            .iter()
            .filter(|pet| pet.starts_with("dog"))
            .count();
        if let Some(arrived) = kennel.stays.iter_mut().find(|s| s.id == id) {
            arrived.arrived = true;
        }
        if dogs > 0 {
            vec![KennelMsg::PlanWalks { stay: stay.pen }]
        } else {
            Vec::new()
        }
    }

    /// A campsite's pitch: its hand-written `PartialEq` leaves out whether it is to be cleaned (the mistake).
    #[derive(Debug, Clone)]
    struct CampPitch {
        id: u32,
        to_clean: bool,
    }

    impl PartialEq for CampPitch {
        fn eq(&self, other: &Self) -> bool {
            self.id == other.id
        }
    }

    #[derive(Debug, Clone, PartialEq)]
    struct Camp {
        pitches: Vec<CampPitch>,
    }

    #[ranvier::trace_fn]
    fn camp_update(pitch: u32, camp: &Camp) -> Camp {
        let mut next = camp.clone();
        if let Some(p) = next.pitches.iter_mut().find(|p| p.id == pitch) {
            p.to_clean = true;
        }
        next
    }

    #[test]
    fn a_model_an_update_changed_but_its_partial_eq_called_equal_names_that_eq() {
        let camp = Mvu::new(
            Camp {
                pitches: vec![CampPitch {
                    id: 1,
                    to_clean: false,
                }],
            },
            camp_update,
        );
        let dirty = camp.select(|c| c.pitches.iter().filter(|p| p.to_clean).count());
        camp.dispatch(1).unwrap();
        // the model compared equal: the change was lost
        assert_eq!(dirty.get(), 0);
        let explain = trace::explain(&dirty).unwrap();
        let first = explain.findings.first().expect("a finding");
        assert!(
            first.text.contains("pitches[0].to_clean")
                && first.text.contains("PartialEq for CampPitch"),
            "{explain}"
        );
        let eq = line_in_this_file("self.id == other.id");
        assert!(
            first.at.iter().any(|l| l.site.line == eq),
            "line {eq} not quoted first:\n{explain}"
        );
    }

    #[ranvier::trace_fn]
    fn kennel_update(msg: KennelMsg, kennel: &Kennel) -> (Kennel, Vec<KennelMsg>) {
        let mut next = kennel.clone();
        let commands = match msg {
            KennelMsg::CheckIn { id } => check_in_stay(&mut next, id),
            KennelMsg::PlanWalks { stay } => {
                if let Some(found) = next.stays.iter().find(|s| s.id == stay) {
                    let walks: Vec<String> =
                        found.pets.iter().map(|p| format!("{p} at 9")).collect();
                    next.walks.extend(walks);
                }
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_branch_that_built_the_command_sent_is_quoted_before_the_lets_of_its_condition() {
        let stay = |id, pen| KennelStay {
            id,
            pen,
            pets: vec!["dog Rex".to_owned()],
            arrived: false,
        };
        let kennel = Kennel {
            stays: vec![stay(1, 4), stay(2, 1)],
            walks: Vec::new(),
        };
        let kennels = Mvu::with_commands((kennel, vec![]), kennel_update);
        let walks = kennels.select(|k| k.walks.len());
        kennels.dispatch(KennelMsg::CheckIn { id: 1 }).unwrap();
        // pen 4 names no stay: no walks
        assert_eq!(walks.get(), 0);
        let explain = trace::explain(&walks).unwrap();
        let built = line_in_this_file("vec![KennelMsg::PlanWalks { stay: stay.pen }]");
        assert!(
            finding_lines(&explain).contains(&built),
            "line {built} not quoted:\n{explain}"
        );
    }

    /// A society's ledger: a plot given up is let again, and letting it posts its rent to December (`12 - month`
    /// leaves out the month it is let in: the mistake), each sent as a command.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct RentBook {
        postings: Vec<RentPosting>,
        notes: Vec<String>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct RentPosting {
        pence: u64,
    }

    #[derive(Debug)]
    enum LedgerMsg {
        GiveUp { month: u64 },
        LetPlot { month: u64 },
        Post { what: String, pence: u64 },
        Note { text: String },
    }

    #[ranvier::trace_fn]
    fn let_plot(ledger: &mut RentBook, month: u64) -> Vec<LedgerMsg> {
        ledger.notes.push(format!("let in month {month}"));
        let months = 12 - month;
        let rent = months * 100;
        vec![LedgerMsg::Post {
            what: format!("rent, {months} months"),
            pence: rent,
        }]
    }

    #[ranvier::trace_fn]
    fn ledger_update(msg: LedgerMsg, ledger: &RentBook) -> (RentBook, Vec<LedgerMsg>) {
        let mut next = ledger.clone();
        let commands = match msg {
            LedgerMsg::GiveUp { month } => {
                next.notes.push("given up".to_owned());
                vec![LedgerMsg::LetPlot { month }]
            }
            LedgerMsg::LetPlot { month } => let_plot(&mut next, month),
            LedgerMsg::Post { what, pence } => {
                next.notes.push(what);
                next.postings.push(RentPosting { pence });
                Vec::new()
            }
            LedgerMsg::Note { text } => {
                next.notes.push(text);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_command_is_quoted_with_the_senders_line_that_computed_what_it_carries() {
        let ledger = Mvu::with_commands((RentBook::default(), vec![]), ledger_update);
        let income = ledger.select(|l| l.postings.iter().map(|p| p.pence).sum::<u64>());
        // the treasurer's screen shows it at once
        let shown = Rc::new(RefCell::new(0));
        let _screen = Effect::new({
            let (income, shown) = (income.clone(), shown.clone());
            move || *shown.borrow_mut() = income.get()
        });
        assert_eq!(income.get(), 0);
        ledger.dispatch(LedgerMsg::GiveUp { month: 3 }).unwrap();
        ledger
            .dispatch(LedgerMsg::Note {
                text: "gate mended".to_owned(),
            })
            .unwrap();
        // ten months (March to December), not nine
        assert_eq!(income.get(), 900);
        assert_eq!(*shown.borrow(), 900);
        let explain = trace::explain(&income).unwrap();
        let quoted = finding_lines(&explain);
        let months = line_in_this_file("let months = 12 - month;");
        assert!(
            quoted.contains(&months),
            "line {months} not quoted:\n{explain}"
        );
    }

    /// An oven's log: each batch's product and pieces; a message bakes trays, and the helper records the trays as
    /// pieces.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct OvenLog {
        batches: Vec<Batch>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct Batch {
        product: String,
        pieces: u32,
        day: u32,
    }

    #[derive(Debug)]
    enum OvenMsg {
        Bake { product: String, trays: u32 },
    }

    #[ranvier::trace_fn]
    fn bake_batch(log: &mut OvenLog, code: &str, trays: u32) {
        log.batches.push(Batch {
            product: code.to_owned(),
            day: 1,
            pieces: trays,
        });
    }

    #[ranvier::trace_fn]
    fn oven_update(msg: OvenMsg, log: &OvenLog) -> OvenLog {
        let mut next = log.clone();
        match msg {
            OvenMsg::Bake { product, trays } => bake_batch(&mut next, &product, trays),
        }
        next
    }

    #[test]
    fn a_struct_literal_is_quoted_by_the_field_set_from_a_message_argument_of_another_name() {
        let oven = Mvu::new(OvenLog::default(), |msg, log: &OvenLog| {
            oven_update(msg, log)
        });
        let baked = oven.select(|log| log.batches.iter().map(|b| b.pieces).sum::<u32>());
        assert_eq!(baked.get(), 0);
        oven.dispatch_traced(
            "bake",
            "{\"product\":\"rye\",\"trays\":2}",
            OvenMsg::Bake {
                product: "rye".into(),
                trays: 2,
            },
        )
        .unwrap();
        // two trays of twelve: 24 pieces; the helper records 2
        assert_eq!(baked.get(), 2);
        let explain = trace::explain(&baked).unwrap();
        let field = line_in_this_file("pieces: trays,");
        assert!(
            message_lines(&explain, "bake").contains(&field),
            "line {field} not quoted:\n{explain}"
        );
        // it comes before the explained node's own lines
        let first = explain
            .findings
            .first()
            .map(|f| f.text.clone())
            .unwrap_or_default();
        assert!(first.starts_with("message bake #"), "not first:\n{explain}");
    }

    #[derive(Debug)]
    enum Order {
        Pay,
        Receipt,
        Ship,
    }

    /// (paid, receipts, shipped)
    fn order_update(
        msg: Order,
        &(paid, receipts, shipped): &(bool, u32, bool),
    ) -> ((bool, u32, bool), Vec<Order>) {
        match msg {
            Order::Pay => {
                let next = (true, receipts, shipped);
                (next, vec![Order::Receipt]) // Ship is missing
            }
            Order::Receipt => ((paid, receipts + 1, shipped), vec![]),
            Order::Ship => ((paid, receipts, true), vec![]),
        }
    }

    #[test]
    fn an_update_that_sent_too_few_commands_says_how_many_and_quotes_the_lines_that_built_them() {
        let order = Mvu::with_commands(((false, 0, false), vec![]), order_update).labelled("order");
        let shipped = order.select(|o| o.2).labelled("shipped");
        assert!(!shipped.get());
        order.dispatch(Order::Pay).unwrap();
        assert!(!shipped.get());
        let explain = trace::explain(&shipped).unwrap();
        let pay = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Update && f.text.starts_with("message Pay #"))
            .unwrap_or_else(|| panic!("no update finding for Pay: {explain}"));
        assert!(pay.text.ends_with("; commands: 1 (Receipt)"), "{explain}");
        let built = include_str!("trace.rs")
            .lines()
            .position(|l| l.contains("(next, vec![Order::Receipt])"))
            .expect("the line")
            + 1;
        assert!(
            pay.more.iter().any(|l| l.site.line as usize == built),
            "the line building the commands is quoted: {explain}"
        );
        // the explained select did not move since Pay: its arm comes first
        assert_eq!(explain.findings[0].text, pay.text, "{explain}");
        // the command that was missing does what it should
        order.dispatch(Order::Ship).unwrap();
        assert!(shipped.get());
        // an `Mvu` without commands says nothing of them
        let plain = Mvu::new(0_i64, |msg, n| match msg {
            Msg::Add(k) => n + k,
            Msg::Noop => *n,
        });
        let doubled = plain.select(|n| n * 2);
        plain.dispatch(Msg::Add(2)).unwrap();
        assert_eq!(doubled.get(), 4);
        let text = trace::explain(&doubled).unwrap().to_string();
        assert!(text.contains("\nupdate: message Add #"), "{text}");
        assert!(!text.contains("commands:"), "{text}");
    }

    /// A box office: (seats taken, cents refunded, notices); a cancellation should refund and notify.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Office {
        seats: u32,
        refunded: u32,
        notices: Vec<String>,
    }

    #[derive(Debug)]
    enum BoxMsg {
        Cancel(u32),
        Refund(u32),
        Notify(String),
    }

    #[ranvier::trace_fn]
    fn is_late(seats: u32) -> bool {
        let hours = seats * 2;
        if hours < 24 {
            return false;
        }
        hours > 48
    }

    #[ranvier::trace_fn]
    fn refund_of(cents: u32, late: bool) -> u32 {
        let fee = cents / 10;
        if late {
            let kept = cents / 2 + fee;
            cents - kept
        } else {
            cents - fee
        }
    }

    #[ranvier::trace_fn]
    fn cancel_seat(office: &mut Office, cents: u32) -> Vec<BoxMsg> {
        let late = is_late(office.seats);
        office.seats -= 1;
        let refund = refund_of(cents, late);
        let refund = refund.min(cents);
        if refund > 0 {
            return vec![BoxMsg::Notify(format!(
                "booking cancelled with {} seats left: {refund} cents refunded to the card it was paid with",
                office.seats
            ))];
        }
        vec![BoxMsg::Notify("too late for a refund".to_owned())]
    }

    #[ranvier::trace_fn]
    fn office_update(msg: BoxMsg, office: &Office) -> (Office, Vec<BoxMsg>) {
        let mut next = office.clone();
        let commands = match msg {
            BoxMsg::Cancel(cents) => cancel_seat(&mut next, cents),
            BoxMsg::Refund(cents) => {
                next.refunded += cents;
                Vec::new()
            }
            BoxMsg::Notify(text) => {
                next.notices.push(text);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn an_update_that_returned_early_with_too_few_commands_quotes_the_return() {
        let office = Mvu::with_commands(
            (
                Office {
                    seats: 2,
                    ..Office::default()
                },
                Vec::new(),
            ),
            office_update,
        )
        .labelled("office");
        let refunded = office.select(|o| o.refunded).labelled("refunded");
        office
            .dispatch_traced("cancel", "{\"cents\":800}", BoxMsg::Cancel(800))
            .unwrap();
        // the notice went out, the refund command was left out by the early `return`
        assert_eq!(office.model().notices.len(), 1);
        assert_eq!(refunded.get(), 0);
        let explain = trace::explain(&refunded).unwrap();
        let text = explain.to_string();
        let quoted = message_lines(&explain, "cancel");
        // the `if` that ran and the `return` (over several lines) that left out the refund command
        let exit = line_in_this_file("return vec![BoxMsg::Notify(format!(");
        assert!(quoted.contains(&exit), "line {exit} not quoted:\n{text}");
        assert!(
            quoted.contains(&line_in_this_file("if refund > 0 {")),
            "{text}"
        );
        // the missing command does what it should
        office.dispatch(BoxMsg::Refund(800)).unwrap();
        assert_eq!(refunded.get(), 800);
    }

    #[ranvier::trace_fn]
    fn give_back(office: &mut Office, cents: u32) -> Vec<BoxMsg> {
        let late = cents > 500;
        office.seats += 1;
        let mut commands = Vec::new();
        if late {
            commands.push(BoxMsg::Notify("returned late".to_owned()));
        } else if office.seats > 0 {
            commands.push(BoxMsg::Refund(cents));
        }
        commands
    }

    #[test]
    fn an_update_whose_branch_shut_out_an_else_if_that_sends_a_command_quotes_the_else_if() {
        let office = Mvu::with_commands((Office::default(), Vec::new()), |msg, office: &Office| {
            let mut next = office.clone();
            let commands = match msg {
                BoxMsg::Cancel(cents) => give_back(&mut next, cents),
                other => return office_update(other, office),
            };
            (next, commands)
        })
        .labelled("office");
        let refunded = office.select(|o| o.refunded).labelled("refunded");
        office
            .dispatch_traced("cancel", "{\"cents\":800}", BoxMsg::Cancel(800))
            .unwrap();
        // a late return is noticed, and then not refunded: the `else if` is shut out by `if late`
        assert_eq!(office.model().notices.len(), 1);
        assert_eq!(refunded.get(), 0);
        let explain = trace::explain(&refunded).unwrap();
        let text = explain.to_string();
        let quoted = message_lines(&explain, "cancel");
        let shut_out = line_in_this_file("} else if office.seats > 0 {");
        assert!(
            quoted.contains(&shut_out),
            "line {shut_out} not quoted:\n{text}"
        );
    }

    /// A store: how many parcels each shelf holds, and the one parcel's shelf.
    #[derive(Clone, Debug, PartialEq)]
    struct Store {
        counts: Vec<i64>,
        parcel: Parcel,
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Parcel {
        shelf: usize,
    }

    #[ranvier::trace_fn]
    fn move_parcel(store: &mut Store, to: usize) {
        let parcel = &mut store.parcel;
        parcel.shelf = to;
        let from = parcel.shelf;
        store.counts[from] -= 1;
        store.counts[to] += 1;
    }

    #[test]
    fn an_update_that_reads_a_field_just_after_writing_it_quotes_the_read_first() {
        let store = Mvu::new(
            Store {
                counts: vec![1, 0, 0],
                parcel: Parcel { shelf: 0 },
            },
            |msg, store: &Store| {
                let mut next = store.clone();
                if let Msg::Add(to) = msg {
                    move_parcel(&mut next, usize::try_from(to).unwrap_or(0));
                }
                next
            },
        );
        let first_shelf = store.select(|s| s.counts[0]);
        store
            .dispatch_traced("move", "{\"to\":2}", Msg::Add(2))
            .unwrap();
        // the parcel left shelf 0, but `from` was read after the shelf was overwritten: shelf 0 still counts it
        assert_eq!(store.model().parcel.shelf, 2);
        assert_eq!(first_shelf.get(), 1);
        let explain = trace::explain(&first_shelf).unwrap();
        let text = explain.to_string();
        let quoted = ran_line_numbers(&explain);
        let (write, read) = (
            line_in_this_file("parcel.shelf = to;"),
            line_in_this_file("let from = parcel.shelf;"),
        );
        assert_eq!(quoted.first(), Some(&read), "{text}");
        assert!(quoted.contains(&write), "{text}");
    }

    /// A shelf of parcels, by weight.
    #[derive(Clone, Debug, PartialEq)]
    struct Shelf(Vec<i64>);

    #[ranvier::trace_fn]
    fn shelf_update(msg: Msg, shelf: &Shelf) -> Shelf {
        let mut next = shelf.clone();
        match msg {
            Msg::Add(n) => {
                let doubled = n * 2;
                next.0.push(doubled);
            }
            Msg::Noop => {}
        }
        next
    }

    #[test]
    fn an_update_is_not_quoted_by_the_copy_of_the_state_it_was_given() {
        let shelf = Mvu::new(Shelf(Vec::new()), shelf_update);
        let total = shelf.select(|s| s.0.iter().sum::<i64>());
        shelf
            .dispatch_traced("add", "{\"n\":3}", Msg::Add(3))
            .unwrap();
        assert_eq!(total.get(), 6);
        let explain = trace::explain(&total).unwrap();
        let text = explain.to_string();
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Ran)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        // the write is quoted; the copy every `update` starts with is not
        assert!(
            quoted.contains(&line_in_this_file("next.0.push(doubled);")),
            "{text}"
        );
        let copy = line_in_this_file("let mut next = shelf.clone();");
        assert!(!quoted.contains(&copy), "line {copy} quoted:\n{text}");
    }

    /// A guest's stay: booked, gone, and what the nights charged.
    #[derive(Clone, Debug, PartialEq)]
    struct Stay {
        booked: bool,
        left: bool,
        charged: u32,
    }

    #[ranvier::trace_fn]
    fn charge_night(stays: &mut [Stay], rate: u32) {
        let rate = rate.max(1);
        for stay in stays.iter_mut().filter(|s| s.booked) {
            stay.charged += rate;
        }
    }

    #[ranvier::trace_fn]
    fn stays_update(msg: Msg, stays: &[Stay]) -> Vec<Stay> {
        let mut next = stays.to_vec();
        match msg {
            Msg::Add(rate) => charge_night(&mut next, u32::try_from(rate).unwrap_or(0)),
            Msg::Noop => {}
        }
        next
    }

    #[test]
    fn an_update_writing_in_a_filtered_loop_quotes_the_loop_that_chose_what_it_wrote() {
        let stay = |left| Stay {
            booked: true,
            left,
            charged: 0,
        };
        let stays = Mvu::new(vec![stay(false), stay(true)], |msg, stays: &Vec<Stay>| {
            stays_update(msg, stays)
        });
        let charged = stays.select(|s| s.iter().map(|s| s.charged).sum::<u32>());
        stays.dispatch_traced("night", "{}", Msg::Add(100)).unwrap();
        // the guest who left was charged too: the loop's filter leaves out `!s.left`
        assert_eq!(charged.get(), 200);
        assert!(stays.model().iter().any(|s| s.left && s.charged == 100));
        let explain = trace::explain(&charged).unwrap();
        let text = explain.to_string();
        let quoted: Vec<u32> = explain
            .findings
            .iter()
            .filter(|f| f.kind == trace::FindingKind::Ran)
            .flat_map(|f| f.at.iter().chain(&f.more))
            .map(|l| l.site.line)
            .collect();
        let write = line_in_this_file("stay.charged += rate;");
        let filter = line_in_this_file("for stay in stays.iter_mut().filter(|s| s.booked) {");
        assert!(quoted.contains(&write), "{text}");
        assert!(
            quoted.contains(&filter),
            "line {filter} not quoted:\n{text}"
        );
    }

    /// A front desk: the nights of the guest in house and the postings to the folio.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Desk {
        nights: u32,
        folio: Vec<Posting>,
        notices: u32,
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Posting {
        cents: u32,
    }

    #[derive(Debug)]
    enum DeskMsg {
        Leave { late: bool },
        Post { cents: u32 },
        Notify,
    }

    #[ranvier::trace_fn]
    fn tax_of(nights: u32) -> u32 {
        nights * 150
    }

    #[ranvier::trace_fn]
    fn leave(desk: &mut Desk, after_noon: bool) -> Vec<DeskMsg> {
        let tax = tax_of(desk.nights);
        desk.nights = 0;
        let mut commands = Vec::new();
        if after_noon {
            commands.push(DeskMsg::Post { cents: 500 });
            commands.push(DeskMsg::Post { cents: tax });
        }
        commands.push(DeskMsg::Notify);
        commands
    }

    #[ranvier::trace_fn]
    fn desk_update(msg: DeskMsg, desk: &Desk) -> (Desk, Vec<DeskMsg>) {
        let mut next = desk.clone();
        let commands = match msg {
            DeskMsg::Leave { late } => leave(&mut next, late),
            DeskMsg::Post { cents } => {
                next.folio.push(Posting { cents });
                Vec::new()
            }
            DeskMsg::Notify => {
                next.notices += 1;
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn an_update_that_computed_a_value_it_sends_only_in_a_branch_not_taken_quotes_that_line() {
        let desk = Mvu::with_commands(
            (
                Desk {
                    nights: 2,
                    ..Desk::default()
                },
                Vec::new(),
            ),
            desk_update,
        )
        .labelled("desk");
        let billed = desk
            .select(|d| d.folio.iter().map(|p| p.cents).sum::<u32>())
            .labelled("billed");
        desk.dispatch_traced("leave", "{\"late\":false}", DeskMsg::Leave { late: false })
            .unwrap();
        // the tax was computed, then pushed only inside `if after_noon`: never posted
        assert_eq!(desk.model().notices, 1);
        assert_eq!(billed.get(), 0);
        let explain = trace::explain(&billed).unwrap();
        let text = explain.to_string();
        let quoted = message_lines(&explain, "leave");
        let unsent = line_in_this_file("commands.push(DeskMsg::Post { cents: tax });");
        assert!(
            quoted.contains(&unsent),
            "line {unsent} not quoted:\n{text}"
        );
        assert!(
            quoted.contains(&line_in_this_file("if after_noon {")),
            "{text}"
        );
        // the late fee's push beside it sends a constant, computed by nothing that ran: not quoted
        let fee = line_in_this_file("commands.push(DeskMsg::Post { cents: 500 });");
        assert!(!quoted.contains(&fee), "{text}");
    }

    #[test]
    fn a_direct_source_that_kept_its_value_before_the_node_stopped_moving_comes_first() {
        let office = Mvu::new(0_i64, |msg, sold: &i64| match msg {
            Msg::Add(n) => sold + n,
            Msg::Noop => *sold,
        })
        .labelled("office");
        let sold = office.select(|sold| *sold).labelled("sold");
        let day = Signal::new(1_u32).labelled("day");
        // divides before it multiplies: 20 of 60 seats is 0 %
        let occupancy = Memo::new({
            let sold = sold.clone();
            move |_| sold.get() / 60 * 100
        })
        .labelled("occupancy");
        let fullest = Memo::new({
            let (occupancy, day) = (occupancy.clone(), day.clone());
            move |_| {
                let day = day.get();
                match occupancy.get() {
                    0 => "no seats sold yet".to_owned(),
                    p => format!("{p} % on day {day}"),
                }
            }
        })
        .labelled("fullest");
        assert_eq!(fullest.get(), "no seats sold yet");
        office
            .dispatch_traced("book", "{\"seats\":20}", Msg::Add(20))
            .unwrap();
        assert_eq!(fullest.get(), "no seats sold yet");
        // the day moves on: fullest re-runs (after occupancy kept its 0) and keeps its value
        day.set(2);
        assert_eq!(fullest.get(), "no seats sold yet");
        // a message that leaves the office as it was: its arm is a suspect, but a weaker one
        office.dispatch_traced("noop", "{}", Msg::Noop).unwrap();
        assert_eq!(fullest.get(), "no seats sold yet");
        assert_eq!(occupancy.get(), 0);
        let explain = trace::explain(&fullest).unwrap();
        let text = explain.to_string();
        assert!(text.contains("message noop #"), "{text}");
        let first = &explain.findings[0];
        assert_eq!(first.kind, trace::FindingKind::EarlierCutoff, "{text}");
        assert!(first.text.starts_with("occupancy#"), "{text}");
    }

    /// A model read by 200 selects, all summed: one message records far more events than a 256-event ring holds.
    #[test]
    fn a_message_the_ring_dropped_is_still_named_with_its_update_arm() {
        trace::set_capacity(256);
        let cart = Mvu::new(0_i64, |msg, total| match msg {
            Msg::Add(n) => total + n,
            Msg::Noop => *total,
        })
        .labelled("cart");
        let parts: Vec<Memo<i64>> = (0..200).map(|i| cart.select(move |t| t + i)).collect();
        let sum = Memo::new(move |_| parts.iter().map(Memo::get).sum::<i64>());
        let _show = Effect::new({
            let sum = sum.clone();
            move || {
                sum.get();
            }
        });
        cart.dispatch(Msg::Add(1)).unwrap();
        assert_eq!(sum.get(), (0..200).sum::<i64>() + 200);
        let events = trace::events();
        assert!(events.len() <= 256);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Message { .. })),
            "the message's own event is past the ring"
        );
        // the summary (and so `graph`) still names the latest message
        let summary = trace::summary().unwrap();
        let last = summary.last_message.as_ref().expect("the latest message");
        assert_eq!((&*last.name, &*last.args), ("Add", "(1)"));
        assert!(
            summary.to_string().contains("last message: Add (1) #"),
            "{summary}"
        );
        // the cause chain says which message's events were dropped, and how many
        let why = trace::why(&sum).unwrap();
        match &why.root {
            WhyRoot::PastRing {
                message: Some(m),
                oldest,
                ..
            } => {
                assert_eq!((&*m.name, m.target), ("Add", cart.id()));
                assert_eq!(m.dropped, oldest - m.seq, "{why}");
                assert!(m.events > m.dropped, "{why}");
            }
            other => panic!("expected a chain past the ring inside the message: {other:?}"),
        }
        assert!(
            why.to_string().contains("events of message Add (1) #"),
            "{why}"
        );
        // explain keeps the arm of update that handled it
        let explain = trace::explain(&sum).unwrap();
        let update = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Update)
            .unwrap_or_else(|| panic!("no update finding: {explain}"));
        assert!(update.text.starts_with("message Add #"), "{explain}");
        assert!(
            update
                .at
                .as_ref()
                .is_some_and(|l| l.text.contains("Msg::Add(n) => total + n")),
            "{explain}"
        );
    }

    /// A memo whose run drops many of its sources at once: the record keeps the sources it still reads, in order.
    #[test]
    fn a_run_that_drops_many_sources_keeps_the_rest_in_order() {
        let cells: Vec<Signal<i64>> = (0..60).map(Signal::new).collect();
        let count = Signal::new(60_usize);
        let partial = Memo::new({
            let (cells, count) = (cells.clone(), count.clone());
            move |_| cells[..count.get()].iter().map(Signal::get).sum::<i64>()
        });
        let sources = |memo: &Memo<i64>| -> Vec<NodeId> {
            trace::info(memo)
                .unwrap()
                .sources
                .iter()
                .map(|n| n.id)
                .collect()
        };
        let expected = |k: usize| -> Vec<NodeId> {
            std::iter::once(count.id())
                .chain(cells[..k].iter().map(Signal::id))
                .collect()
        };
        assert_eq!(partial.get(), (0..60).sum::<i64>());
        assert_eq!(sources(&partial), expected(60));
        count.set(7);
        assert_eq!(partial.get(), (0..7).sum::<i64>());
        assert_eq!(sources(&partial), expected(7));
        count.set(40);
        assert_eq!(partial.get(), (0..40).sum::<i64>());
        assert_eq!(sources(&partial), expected(40));
        // the observers the trace lists follow the same edges
        for cell in &cells[..40] {
            assert!(
                trace::info(cell)
                    .unwrap()
                    .observers
                    .iter()
                    .any(|o| o.id == partial.id())
            );
        }
        assert!(
            !trace::info(&cells[50])
                .unwrap()
                .observers
                .iter()
                .any(|o| o.id == partial.id())
        );
    }

    #[test]
    fn the_ring_is_bounded_and_the_node_table_keeps_answering() {
        trace::set_capacity(64);
        let s = Signal::new(0);
        let kept = Memo::new({
            let s = s.clone();
            move |_| s.get() / 1000
        });
        let old = Memo::new({
            let s = s.clone();
            move |_| s.get() + 1
        });
        assert_eq!(old.get(), 1);
        kept.get();
        for i in 1..200 {
            s.set(i);
            kept.get();
        }
        assert!(trace::events().len() <= 64);
        assert_eq!(trace::capacity(), 64);
        // `old`'s run was dropped from the ring: why says so; why_not still answers from the node table.
        let why = trace::why(&old).unwrap();
        assert!(matches!(why.root, WhyRoot::PastRing { .. }), "{why}");
        assert!(why.to_string().contains("reaches past the ring"));
        assert!(matches!(
            trace::why_not(&old).unwrap(),
            WhyNot::Unobserved { .. }
        ));
        // `kept`'s latest run is recent: its chain is whole.
        assert!(matches!(
            trace::why(&kept).unwrap().root,
            WhyRoot::ProgramWrite { .. }
        ));
        assert!(trace::history(&kept).unwrap().truncated);
        // The node table still knows `kept`'s cutoff.
        assert!(
            trace::snapshot()
                .unwrap()
                .nodes
                .iter()
                .any(|n| n.node.id == kept.id() && n.value.as_deref() == Some("0"))
        );
    }

    fn sample_program() -> String {
        let cart = Mvu::new(0_i64, |msg, total| match msg {
            Msg::Add(n) => total + n,
            Msg::Noop => *total,
        });
        let doubled = cart.select(|t| t * 2);
        let _show = Effect::new({
            let doubled = doubled.clone();
            move || {
                doubled.get();
            }
        });
        cart.dispatch(Msg::Add(2)).unwrap();
        cart.dispatch(Msg::Noop).unwrap();
        cart.dispatch(Msg::Add(3)).unwrap();
        trace::dump().unwrap()
    }

    #[test]
    fn the_dump_is_json_lines_and_the_same_for_the_same_program() {
        let first = std::thread::spawn(sample_program).join().unwrap();
        let second = std::thread::spawn(sample_program).join().unwrap();
        assert_eq!(first, second);
        let lines: Vec<serde_json::Value> = first
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["schema"], trace::DUMP_SCHEMA);
        assert_eq!(lines[0]["nodes"], 3);
        assert_eq!(lines[1]["node"]["name"], "cart");
        assert_eq!(lines[2]["node"]["kind"], "Memo");
        assert_eq!(lines[2]["node"]["sources"], serde_json::json!([1]));
        let messages: Vec<&str> = lines
            .iter()
            .filter(|l| l["kind"] == "Message")
            .map(|l| l["name"].as_str().unwrap())
            .collect();
        assert_eq!(messages, ["Add", "Noop", "Add"]);
        let clock = lines[0]["clock"].as_u64().unwrap();
        assert_eq!(lines.last().unwrap()["seq"].as_u64().unwrap(), clock);
    }

    #[test]
    fn summary_and_neighborhood() {
        let cart = Mvu::new(0_i64, |msg, total| match msg {
            Msg::Add(n) => total + n,
            Msg::Noop => *total,
        })
        .labelled("cart");
        let doubled = cart.select(|t| t * 2);
        let quad = Memo::new({
            let d = doubled.clone();
            move |_| d.get() * 2
        });
        let _show = Effect::new({
            let quad = quad.clone();
            move || {
                quad.get();
            }
        });
        cart.dispatch(Msg::Add(1)).unwrap();
        let summary = trace::summary().unwrap();
        assert_eq!((summary.signals, summary.memos, summary.effects), (1, 2, 1));
        let moved: Vec<NodeId> = summary.moved.iter().map(|n| n.node.id).collect();
        assert_eq!(moved, [cart.id(), doubled.id(), quad.id()]);
        let text = summary.to_string();
        assert!(
            text.starts_with("1 signal, 2 memos, 1 effect\nlast message: Add (1) #"),
            "{text}"
        );

        let around = trace::neighborhood(&doubled, 1).unwrap();
        let ids: Vec<NodeId> = around.nodes.iter().map(|(_, _, n)| n.node.id).collect();
        assert_eq!(ids, [cart.id(), quad.id()]);
        let two = trace::neighborhood(&doubled, 2).unwrap();
        assert_eq!(two.nodes.len(), 3);
        assert!(
            two.to_string()
                .contains("\nobserver 2: _show#4 Effect trace.rs:"),
            "{two}"
        );
    }

    #[test]
    fn explain_reads_in_a_few_lines() {
        let cart_line = line!() + 1;
        let cart = Mvu::new(0_i64, |msg, total| match msg {
            Msg::Add(n) => total + n,
            Msg::Noop => *total,
        })
        .labelled("cart");
        let total = cart.select(|t| *t);
        let rounded = Memo::with_comparer(
            {
                let total = total.clone();
                move |_| total.get()
            },
            |a, b| a / 10 == b / 10,
        );
        let _show = Effect::new({
            let rounded = rounded.clone();
            move || {
                rounded.get();
            }
        });
        cart.dispatch(Msg::Add(1)).unwrap();
        let text = trace::explain(&total).unwrap().to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("total#2 Memo trace.rs:"), "{text}");
        // each source and each node of the chain with the line it was made on
        assert!(
            lines[0].ends_with(&format!("= 1 reads [cart#1:{cart_line}]")),
            "{text}"
        );
        assert!(
            lines[1].contains("let total = cart.select(|t| *t);"),
            "{text}"
        );
        // the arm of `update` that handled the message, just below the `Mvu`
        assert!(
            lines[2].starts_with("update: message Add #")
                && lines[3].ends_with(&format!(
                    "trace.rs:{}: Msg::Add(n) => total + n,",
                    cart_line + 1
                )),
            "{text}"
        );
        let why = lines
            .iter()
            .find(|l| l.starts_with("why: "))
            .expect("a why line");
        assert!(why.starts_with("why: message Add (1) #"), "{text}");
        assert!(
            why.contains(&format!("-> write cart#1:{cart_line} = 1 #")),
            "{text}"
        );
        assert!(
            why.contains(&format!("-> total#2:{} run 2 #", cart_line + 5)),
            "{text}"
        );
        let rounded_text = trace::explain(&rounded).unwrap().to_string();
        assert!(
            rounded_text.contains(&format!("-> rounded#3:{} run 2 #", cart_line + 6)),
            "{rounded_text}"
        );
        assert!(!rounded_text.contains("comparer:"), "{rounded_text}");
        // Before any cutoff, explain points at the comparer upstream where a change may stop.
        let first = Signal::new(0).labelled("first");
        let near = Memo::with_comparer(
            {
                let first = first.clone();
                move |_| first.get()
            },
            |a, b| a / 10 == b / 10,
        );
        let after = Memo::new({
            let near = near.clone();
            move |_| near.get() + 1
        });
        after.get();
        let after_text = trace::explain(&after).unwrap().to_string();
        assert!(after_text.contains("\ncomparer: near#"), "{after_text}");
        // `_show` did not re-run: rounded kept its value.
        let show_text = trace::explain(&_show).unwrap().to_string();
        assert!(
            show_text.contains("\ncutoff: rounded#3 kept 0 #"),
            "{show_text}"
        );
        assert!(text.lines().count() <= 6);
    }

    /// Whether two lists of (id, slot) hold the same ids, in the same order: the slots are left out.
    fn same_ids(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
        a.iter().map(|x| x.0).eq(b.iter().map(|x| x.0))
    }

    /// A comparer that called two values equal though they print differently is quoted by its lines: its closure,
    /// and the value line of the fn of the crate it calls; the short form names it once.
    #[test]
    fn a_comparer_that_kept_a_differing_value_is_quoted_by_its_lines() {
        let boxes = Signal::new(vec![(1_u32, 0_u32)]).labelled("boxes");
        let listed = Memo::with_comparer(
            {
                let boxes = boxes.clone();
                move |_| boxes.get()
            },
            |a: &Vec<(u32, u32)>, b: &Vec<(u32, u32)>| same_ids(a, b),
        )
        .labelled("listed");
        let slots = Memo::new({
            let listed = listed.clone();
            move |_| listed.get().iter().map(|b| b.1).sum::<u32>()
        })
        .labelled("slots");
        assert_eq!(slots.get(), 0);
        boxes.set(vec![(1, 3)]);
        assert_eq!(slots.get(), 0);
        let explain = trace::explain(&slots).unwrap();
        let by_comparer = "equal by its comparer";
        let quoted = lines_of_finding(&explain, |text| text.contains(by_comparer), by_comparer);
        let closure =
            line_in_this_file("|a: &Vec<(u32, u32)>, b: &Vec<(u32, u32)>| same_ids(a, b),");
        let helper = line_in_this_file("a.iter().map(|x| x.0).eq(b.iter().map(|x| x.0))");
        assert!(
            quoted.contains(&closure) && quoted.contains(&helper),
            "{explain}"
        );
        // over a model: a select kept by its comparer is a `kept:` finding, and the short form leaves out the
        // `comparer:` line that would name it again
        #[derive(Debug)]
        enum Yard {
            Book(u32),
        }
        let yard = Mvu::new(
            vec![(1_u32, 0_u32)],
            |msg, boxes: &Vec<(u32, u32)>| match msg {
                Yard::Book(slot) => boxes.iter().map(|b| (b.0, slot)).collect(),
            },
        );
        let listed = Memo::with_comparer(
            {
                let yard = yard.clone();
                move |_| yard.model()
            },
            |a: &Vec<(u32, u32)>, b: &Vec<(u32, u32)>| same_ids(a, b),
        )
        .labelled("listed_boxes");
        let slots = Memo::new({
            let listed = listed.clone();
            move |_| listed.get().iter().map(|b| b.1).sum::<u32>()
        })
        .labelled("booked_slots");
        assert_eq!(slots.get(), 0);
        yard.dispatch(Yard::Book(3)).unwrap();
        assert_eq!(slots.get(), 0);
        let explain = trace::explain(&slots).unwrap();
        let full = explain.render(600);
        assert!(
            full.contains("\nkept: listed_boxes#") && full.contains("\ncomparer: listed_boxes#"),
            "{full}"
        );
        let brief = explain.brief(600);
        assert!(!brief.contains("\ncomparer: "), "{brief}");
    }

    /// The short form says a cutoff once: the `not re-run since:` that would end with the `cutoff:` finding's text
    /// is left out; the long form keeps it.
    #[test]
    fn the_short_form_does_not_repeat_a_cutoff_in_not_re_run_since() {
        let price = Signal::new(1_i64).labelled("price");
        let rounded = Memo::with_comparer(
            {
                let price = price.clone();
                move |_| price.get()
            },
            |a, b| a / 10 == b / 10,
        )
        .labelled("rounded");
        let total = Memo::new({
            let rounded = rounded.clone();
            move |_| rounded.get() * 2
        })
        .labelled("total");
        assert_eq!(total.get(), 2);
        price.set(3);
        assert_eq!(total.get(), 2);
        let explain = trace::explain(&total).unwrap();
        let full = explain.render(600);
        let cutoff = full
            .lines()
            .find_map(|l| l.strip_prefix("cutoff: "))
            .unwrap_or_else(|| panic!("a cutoff finding: {full}"))
            .to_owned();
        assert!(
            full.lines()
                .any(|l| l.starts_with("not re-run since: ") && l.ends_with(&cutoff)),
            "{full}"
        );
        let brief = explain.brief(600);
        assert!(brief.contains(&format!("\ncutoff: {cutoff}")), "{brief}");
        assert!(!brief.contains("not re-run since: "), "{brief}");
    }

    #[test]
    fn tracing_records_and_never_steers_the_node_id_trait() {
        let s = Signal::new(1);
        let id: NodeId = s.node_id();
        assert_eq!(AnyNode::node_id(&&s), id);
        assert_eq!(trace::why(id).unwrap(), trace::why(&s).unwrap());
    }

    /// A program that keeps making and dropping nodes (a row per item) holds records for its living nodes and the
    /// nodes dropped last, not for every node it ever made; a node dropped long ago is named as dropped.
    #[test]
    fn the_trace_keeps_records_for_living_nodes_and_the_nodes_dropped_last() {
        let total = Signal::new(0_i64).labelled("total");
        let before = trace::records_held();
        let mut first_row = None;
        let mut last_row = None;
        for i in 0..3_000_i64 {
            let (ids, row) = ranvier::create_root(|_| {
                let cell = Signal::new(i).labelled("cell");
                let doubled = Memo::new({
                    let cell = cell.clone();
                    move |_| cell.get() * 2
                })
                .labelled("doubled");
                let _show = Effect::new({
                    let (doubled, total) = (doubled.clone(), total.clone());
                    move || total.set(doubled.get())
                });
                (cell.node_id(), doubled.node_id())
            });
            row.dispose();
            first_row.get_or_insert(ids);
            last_row = Some(ids);
        }
        assert_eq!(total.get(), 2 * 2_999);
        let held = trace::records_held();
        assert!(
            held <= before + trace::DROPPED_KEPT,
            "{held} records held after 9000 nodes were made and dropped ({before} before)"
        );

        // the rows dropped last are still named, and their last runs still explained
        let (_, doubled) = last_row.unwrap();
        assert_eq!(trace::lookup(&format!("doubled{doubled}")), Ok(doubled));
        assert_eq!(trace::info(doubled).unwrap().runs, 1);
        // the first row's records are gone, and the answers say why
        let (cell, _) = first_row.unwrap();
        assert_eq!(
            trace::info(cell).unwrap_err(),
            trace::TraceError::Dropped(cell)
        );
        let gone = trace::lookup(&format!("{cell}")).unwrap_err().to_string();
        assert!(
            gone.contains(&format!(
                "node {cell} was dropped, and the trace no longer keeps its record"
            )),
            "{gone}"
        );
        // a node that never was is still unknown
        let never = NodeId(u32::MAX - 1);
        assert_eq!(
            trace::info(never).unwrap_err(),
            trace::TraceError::UnknownNode(never)
        );
    }

    /// A locker hire's tariff, made by a hand-written `Default`; no message changes it.
    #[derive(Clone, Debug, PartialEq)]
    struct LockerTariff {
        hourly_cents: u32,
        free_minutes: u32,
        deposit_cents: u32,
    }

    impl Default for LockerTariff {
        fn default() -> Self {
            LockerTariff {
                hourly_cents: 200,
                // the slip: hours, where minutes are meant
                free_minutes: 15 * 60,
                deposit_cents: 500,
            }
        }
    }

    /// Lockers: the tariff, the hires returned, the cents charged and the deposits refunded.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Lockers {
        tariff: LockerTariff,
        returned: u32,
        charged: u32,
        refunded: u32,
    }

    #[derive(Debug)]
    enum LockerMsg {
        Return(u32),
        Charge(u32),
        Refund { cents: u32 },
    }

    #[ranvier::trace_fn]
    fn return_locker(lockers: &mut Lockers, minutes: u32) -> Vec<LockerMsg> {
        let tariff = lockers.tariff.clone();
        lockers.returned += 1;
        let mut commands = vec![LockerMsg::Refund {
            cents: tariff.deposit_cents,
        }];
        if minutes > 0 {
            let billed = minutes.saturating_sub(tariff.free_minutes);
            commands.push(LockerMsg::Charge(billed.div_ceil(60) * tariff.hourly_cents));
        }
        commands
    }

    #[ranvier::trace_fn]
    fn locker_update(msg: LockerMsg, lockers: &Lockers) -> (Lockers, Vec<LockerMsg>) {
        let mut next = lockers.clone();
        let commands = match msg {
            LockerMsg::Return(minutes) => return_locker(&mut next, minutes),
            LockerMsg::Charge(cents) => {
                next.charged += cents;
                Vec::new()
            }
            LockerMsg::Refund { cents } => {
                next.refunded += cents;
                Vec::new()
            }
        };
        (next, commands)
    }

    /// A constant the model was made with (a hand-written `Default`'s field, which no code of the crate writes) that
    /// a line of the `update` which ran read, but which the answer does not quote: the `Default`'s line that set it is
    /// quoted with the message's lines, since no message's writes show it.
    #[test]
    fn a_constant_set_only_by_a_hand_written_default_is_quoted_where_an_update_read_it() {
        let lockers =
            Mvu::with_commands((Lockers::default(), Vec::new()), locker_update).labelled("lockers");
        let charged = lockers.select(|l| l.charged).labelled("charged");
        lockers
            .dispatch_traced("return", "{\"minutes\":120}", LockerMsg::Return(120))
            .unwrap();
        // two hours, a quarter of an hour free: two hours charged, but the free minutes are 15 hours
        assert_eq!(charged.get(), 0);
        let explain = trace::explain(&charged).unwrap();
        let text = explain.to_string();
        let quoted = message_lines(&explain, "return");
        assert!(
            quoted.contains(&line_in_this_file("free_minutes: 15 * 60,")),
            "the Default's line is not quoted:\n{text}"
        );
        // a field a message writes (`returned`) or one set by a call (`tariff`) is not such a constant; one sent as it
        // is (`cents: tariff.deposit_cents`) shows in the command's value
        assert!(!text.contains("tariff: "), "{text}");
        assert!(!text.contains("deposit_cents: 500"), "{text}");
    }

    /// A class on a weekly timetable: its day and its start within the day, in minutes.
    #[derive(Clone, Debug, PartialEq)]
    struct Slot {
        day: u32,
        minute_of_day: u32,
        title: &'static str,
    }

    /// A condition in a long memo body that the answer quotes (`if at < now || at >= until {`) comes with the `let`
    /// that bound the name it tests (`let at = slot.minute_of_day;`, the wrong field: the start within the day, where
    /// the start within the week is meant), right after it.
    #[test]
    fn a_quoted_condition_of_a_long_memo_comes_with_the_let_that_bound_what_it_tests() {
        let now = Signal::new(2 * 1440 + 600_u32).labelled("now");
        let slots = Signal::new(vec![
            Slot {
                day: 0,
                minute_of_day: 700,
                title: "spin",
            },
            Slot {
                day: 2,
                minute_of_day: 700,
                title: "yoga",
            },
        ])
        .labelled("slots");
        let next_day = Memo::new({
            let (now, slots) = (now.clone(), slots.clone());
            move |_| {
                let now = now.get();
                let slots = slots.get();
                let until = now + 1440;
                let mut soon: Vec<(u32, String)> = Vec::new();
                for slot in slots.iter().filter(|s| s.day < 7) {
                    let at = slot.minute_of_day;
                    if at < now || at >= until {
                        continue;
                    }
                    let label = format!("{} at {}", slot.title, at);
                    soon.push((at, label));
                }
                soon.sort();
                soon.into_iter().map(|(_, label)| label).collect::<Vec<_>>()
            }
        })
        .labelled("next_day");
        // the yoga class starts in 100 minutes, but the memo compares the start within the day with the week's clock
        assert!(next_day.get().is_empty());
        now.set(2 * 1440 + 610);
        assert!(next_day.get().is_empty());
        let text = trace::explain(&next_day).unwrap().to_string();
        let test = line_in_this_file("if at < now || at >= until {");
        let bound = line_in_this_file("let at = slot.minute_of_day;");
        let (Some(tested), Some(binding)) = (
            text.find(&format!("trace.rs:{test}:")),
            text.find(&format!("trace.rs:{bound}:")),
        ) else {
            panic!("the condition or its let is not quoted:\n{text}");
        };
        assert!(
            binding > tested,
            "the let comes after the condition:\n{text}"
        );
    }

    /// A grain the mill keeps in bins, in the order a chain walks them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    enum Grain {
        Oats,
        Rye,
        Spelt,
    }

    impl Grain {
        const ALL: [Grain; 3] = [Grain::Oats, Grain::Rye, Grain::Spelt];
    }

    #[test]
    fn a_long_memo_whose_value_is_a_chain_is_quoted_by_the_line_that_compares_not_by_its_receiver()
    {
        let orders = Signal::new(vec![(Grain::Oats, 5_u32), (Grain::Rye, 2)]).labelled("orders");
        let bins = Signal::new(vec![(Grain::Oats, 9_u32), (Grain::Rye, 1)]).labelled("bins");
        let short = Memo::new({
            let (orders, bins) = (orders.clone(), bins.clone());
            move |_| {
                let mut need: std::collections::BTreeMap<Grain, u32> =
                    std::collections::BTreeMap::new();
                for (grain, kg) in orders.get() {
                    *need.entry(grain).or_default() += kg;
                }
                let mut have: std::collections::BTreeMap<Grain, u32> =
                    std::collections::BTreeMap::new();
                for (grain, kg) in bins.get() {
                    *have.entry(grain).or_default() += kg;
                }
                Grain::ALL
                    .iter()
                    .map(|grain| {
                        (
                            *grain,
                            need.get(grain).copied().unwrap_or(0),
                            have.get(grain).copied().unwrap_or(0),
                        )
                    })
                    .filter(|(_, need, have)| have >= need)
                    .map(|(grain, need, have)| (grain, need.saturating_sub(have)))
                    .collect::<Vec<_>>()
            }
        })
        .labelled("short");
        // the filter keeps the grains in stock, where the short ones are meant
        assert_eq!(short.get(), vec![(Grain::Oats, 0), (Grain::Spelt, 0)]);
        bins.set(vec![(Grain::Oats, 9), (Grain::Rye, 3)]);
        assert_eq!(
            short.get(),
            vec![(Grain::Oats, 0), (Grain::Rye, 0), (Grain::Spelt, 0)]
        );
        let text = trace::explain(&short).unwrap().to_string();
        let compares = line_in_this_file(".filter(|(_, need, have)| have >= need)");
        let receiver = line_in_this_file("Grain::ALL");
        assert!(
            text.contains(&format!("trace.rs:{compares}:")),
            "the filter is not quoted:\n{text}"
        );
        assert!(
            !text.contains(&format!("trace.rs:{receiver}:")),
            "the chain's receiver is quoted:\n{text}"
        );
    }

    /// A bindery whose traced helper books a job's sheets by the rule a field holds, then logs it with another
    /// traced helper entered after the rule.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Bindery {
        sheets: u32,
        log: Vec<String>,
    }

    #[derive(Debug)]
    enum BindMsg {
        Book(u32),
    }

    /// The rules a bindery is built with: a fn held in a field of another name.
    #[derive(Clone, Copy)]
    struct BindRules {
        sheets_of: fn(u32) -> u32,
    }

    #[ranvier::trace_fn]
    fn sheets_with_overs(copies: u32) -> u32 {
        let overs = copies / 10;
        copies + overs * 2
    }

    #[ranvier::trace_fn]
    fn log_line(copies: u32) -> String {
        let text = format!("booked {copies}");
        text.to_uppercase()
    }

    #[ranvier::trace_fn]
    fn book_job(bindery: &mut Bindery, copies: u32, rules: &BindRules) {
        let sheets = (rules.sheets_of)(copies);
        let line = log_line(copies);
        bindery.log.push(line);
        bindery.sheets = sheets;
    }

    #[ranvier::trace_fn]
    fn bindery_update(msg: BindMsg, bindery: &Bindery, rules: &BindRules) -> Bindery {
        let mut next = bindery.clone();
        match msg {
            BindMsg::Book(copies) => book_job(&mut next, copies, rules),
        }
        next
    }

    #[test]
    fn a_traced_fn_called_through_a_field_for_what_the_node_reads_comes_before_the_others() {
        let rules = BindRules {
            sheets_of: sheets_with_overs,
        };
        let bindery = Mvu::new(Bindery::default(), move |msg, b: &Bindery| {
            bindery_update(msg, b, &rules)
        });
        let sheets = Memo::new({
            let bindery = bindery.clone();
            move |_| bindery.with_model(|b| b.sheets)
        });
        assert_eq!(sheets.get(), 0);
        bindery
            .dispatch_traced("book", "40", BindMsg::Book(40))
            .unwrap();
        assert_eq!(sheets.get(), 48);
        let explain = trace::explain(&sheets).unwrap();
        let lines = message_lines(&explain, "book");
        let rule = line_in_this_file("copies + overs * 2");
        let log = line_in_this_file("text.to_uppercase()");
        let at = |line: u32| lines.iter().position(|l| *l == line);
        assert!(
            at(rule).is_some_and(|r| at(log).is_none_or(|l| r < l)),
            "the rule's line {rule} is not quoted before the log's {log}: {explain}"
        );
    }

    /// A payslip a year's totals add up.
    #[derive(Debug, Clone, PartialEq)]
    struct Payslip {
        gross: u32,
        tax: u32,
    }

    /// What a year's payslips add up to.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct YearTotals {
        periods: u32,
        gross: u32,
        tax: u32,
    }

    #[test]
    fn a_memo_that_overwrites_in_a_loop_what_it_adds_up_is_quoted_by_that_line_first() {
        let slips = Signal::new(vec![Payslip {
            gross: 300,
            tax: 40,
        }])
        .labelled("slips");
        let year = Memo::new({
            let slips = slips.clone();
            move |_| {
                let slips = slips.get();
                let mut sum = YearTotals::default();
                for slip in slips.iter() {
                    sum.periods += 1;
                    sum.gross += slip.gross;
                    sum.tax = slip.tax;
                }
                let rate = (sum.tax * 100).checked_div(sum.gross).unwrap_or(0);
                format!(
                    "{} periods, gross {}, tax {} ({rate}%)",
                    sum.periods, sum.gross, sum.tax
                )
            }
        })
        .labelled("year");
        assert_eq!(year.get(), "1 periods, gross 300, tax 40 (13%)");
        slips.update(|s| {
            s.push(Payslip {
                gross: 300,
                tax: 40,
            })
        });
        // the tax is the last slip's, not the year's
        assert_eq!(year.get(), "2 periods, gross 600, tax 40 (6%)");
        let text = trace::explain(&year).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let overwrite = at("sum.tax = slip.tax;");
        assert!(overwrite.is_some(), "the overwrite is not quoted:\n{text}");
        for other in [
            "sum.periods += 1;",
            "sum.gross += slip.gross;",
            "let mut sum = YearTotals::default();",
        ] {
            assert!(
                at(other).is_none_or(|o| overwrite < Some(o)),
                "{other} comes before the overwrite:\n{text}"
            );
        }
    }

    /// A larder whose `update` takes grams from its jars by a helper (no `#[trace_fn]`).
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Larder {
        jars: Vec<u32>,
        taken: u32,
        opened: u32,
    }

    #[derive(Debug)]
    enum LarderMsg {
        Take(u32),
    }

    fn take_from_jars(jars: &mut [u32], grams: u32, opened: &mut u32) -> u32 {
        let mut taken = 0;
        for jar in jars.iter_mut() {
            let take = (*jar).min(grams - taken);
            *jar -= take;
            *opened += 1;
            taken = take;
        }
        taken
    }

    fn larder_update(msg: LarderMsg, larder: &Larder) -> Larder {
        let mut next = larder.clone();
        match msg {
            LarderMsg::Take(grams) => {
                next.taken += take_from_jars(&mut next.jars, grams, &mut next.opened)
            }
        }
        next
    }

    #[test]
    fn an_update_helper_that_overwrites_in_a_loop_what_it_adds_up_is_quoted_by_that_line() {
        let larder = Mvu::new(
            Larder {
                jars: vec![30, 50],
                ..Larder::default()
            },
            larder_update,
        );
        let taken = Memo::new({
            let larder = larder.clone();
            move |_| larder.with_model(|l| l.taken)
        });
        assert_eq!(taken.get(), 0);
        larder
            .dispatch_traced("take", "60", LarderMsg::Take(60))
            .unwrap();
        // thirty grams from each jar, but only the last jar's thirty are counted
        assert_eq!(taken.get(), 30);
        let explain = trace::explain(&taken).unwrap();
        let lines = message_lines(&explain, "take");
        let overwrite = line_in_this_file("taken = take;");
        assert!(lines.contains(&overwrite), "line {overwrite}: {explain}");
    }

    /// A scoreboard whose `update` corrects a result through helpers (no `#[trace_fn]`).
    #[derive(Debug, Clone, PartialEq, Default)]
    struct Scoreboard {
        home: u8,
        away: u8,
        corrections: u32,
    }

    #[derive(Debug)]
    enum BoardMsg {
        Correct { home: u8, away: u8 },
    }

    fn set_score(board: &mut Scoreboard, home: u8, away: u8) {
        board.home = home;
        board.away = away;
    }

    fn correct_score(board: &mut Scoreboard, home: u8, away: u8) {
        board.corrections += 1;
        set_score(board, away, home);
    }

    fn board_update(msg: BoardMsg, board: &Scoreboard) -> Scoreboard {
        let mut next = board.clone();
        match msg {
            BoardMsg::Correct { home, away } => correct_score(&mut next, home, away),
        }
        next
    }

    #[test]
    fn a_call_giving_two_arguments_by_each_others_parameter_names_makes_its_message_the_first_suspect()
     {
        let board = Mvu::new(Scoreboard::default(), board_update);
        let line = Memo::new({
            let board = board.clone();
            move |_| {
                board.with_model(|b| {
                    let note = if b.corrections > 0 {
                        " (corrected)"
                    } else {
                        ""
                    };
                    format!("{}-{}{note}", b.home, b.away)
                })
            }
        });
        assert_eq!(line.get(), "0-0");
        board
            .dispatch_traced("correct", "[3,1]", BoardMsg::Correct { home: 3, away: 1 })
            .unwrap();
        // the corrected score is written away-home
        assert_eq!(line.get(), "1-3 (corrected)");
        let explain = trace::explain(&line).unwrap();
        let swapped = line_in_this_file("set_score(board, away, home);");
        let first = explain.findings.first().expect("a finding");
        assert!(
            first.text.starts_with("message correct #"),
            "the message is not first: {explain}"
        );
        let lines = message_lines(&explain, "correct");
        let at = |line: u32| lines.iter().position(|l| *l == line);
        assert!(at(swapped).is_some(), "line {swapped}: {explain}");
        for other in ["board.corrections += 1;", "board.home = home;"] {
            let other = line_in_this_file(other);
            assert!(
                at(other).is_none_or(|o| at(swapped) < Some(o)),
                "line {other} before {swapped}: {explain}"
            );
        }
    }

    const DOOR_OPENS: u32 = 1000;
    const DOOR_CLOSES: u32 = 1300;
    const BENCHES: u32 = 2;

    fn on_shift(a: (u32, u32), b: (u32, u32)) -> bool {
        a.0 < b.1 || b.0 < a.1
    }

    #[test]
    fn a_memo_calling_a_helper_quotes_the_helpers_line_before_the_constants_it_names() {
        let shifts = Signal::new(vec![(1_u32, 900_u32, 1100_u32)]).labelled("shifts");
        let benches = Memo::new({
            let shifts = shifts.clone();
            move |_| {
                let shifts = shifts.get();
                (1..=BENCHES)
                    .map(|bench| {
                        let on: Vec<String> = shifts
                            .iter()
                            .filter(|s| s.0 == bench)
                            .filter(|s| on_shift((s.1, s.2), (DOOR_OPENS, DOOR_CLOSES)))
                            .map(|s| format!("{}-{}", s.1, s.2))
                            .collect();
                        format!("bench {bench}: {}", on.join(", "))
                    })
                    .collect::<Vec<_>>()
            }
        })
        .labelled("benches");
        assert_eq!(benches.get(), vec!["bench 1: 900-1100", "bench 2: "]);
        shifts.update(|s| s.push((2, 1400, 1500)));
        // a shift after closing counts as on
        assert_eq!(
            benches.get(),
            vec!["bench 1: 900-1100", "bench 2: 1400-1500"]
        );
        let text = trace::explain(&benches).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let helper = at("a.0 < b.1 || b.0 < a.1");
        assert!(helper.is_some(), "the helper's line is not quoted:\n{text}");
        for constant in [
            "const DOOR_OPENS: u32 = 1000;",
            "const DOOR_CLOSES: u32 = 1300;",
            "const BENCHES: u32 = 2;",
        ] {
            assert!(
                at(constant).is_none_or(|c| helper < Some(c)),
                "{constant} comes first:\n{text}"
            );
        }
    }

    /// Riders by lift, `#[node]`-built: a pass counts when it rode, by a count over several lines a branch tests.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn riders(scans: &Signal<Vec<(u32, u32)>>, passes: &Signal<Vec<u32>>) -> Memo<Vec<String>> {
        let riding = Memo::new({
            let (scans, passes) = (scans.clone(), passes.clone());
            move |_| {
                let scans = scans.get();
                let mut out = Vec::new();
                for pass in passes.get() {
                    let rides = scans
                        .iter()
                        .filter(|(scanned_at_lift, _)| *scanned_at_lift == pass)
                        .filter(|(_, minute_of_the_day)| *minute_of_the_day > 0)
                        .count();
                    if rides == 0 {
                        continue;
                    }
                    out.push(format!("pass {pass}: {rides} rides"));
                }
                out
            }
        });
        riding
    }

    #[test]
    fn a_branch_of_a_node_built_body_comes_with_the_line_that_decided_the_let_it_tests() {
        let scans = Signal::new(vec![(7_u32, 1_u32)]).labelled("scans");
        let passes = Signal::new(vec![1_u32]).labelled("passes");
        let riding = riders(&scans, &passes);
        // the scan's lift is compared with the pass, where the scan's pass is meant
        assert!(riding.get().is_empty());
        scans.update(|s| s.push((3, 1)));
        assert!(riding.get().is_empty());
        let explain = trace::explain(&riding).unwrap();
        let ran = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Ran)
            .unwrap_or_else(|| panic!("no ran finding: {explain}"));
        let lines: Vec<u32> = ran
            .at
            .iter()
            .chain(&ran.more)
            .map(|l| l.site.line)
            .collect();
        let decided = line_in_this_file(".filter(|(scanned_at_lift, _)| *scanned_at_lift == pass)");
        assert!(lines.contains(&decided), "line {decided}: {explain}");
    }

    /// A vessel at a berth: its call sign and the hour it arrived, if it has.
    #[derive(Debug, Clone, PartialEq)]
    struct Vessel {
        call_sign: &'static str,
        berth: u32,
        arrived: Option<u32>,
        departed: bool,
    }

    #[test]
    fn a_quoted_arm_of_a_match_comes_with_the_deciding_line_of_the_let_the_match_tests() {
        let vessels = Signal::new(vec![Vessel {
            call_sign: "LAKU7",
            berth: 1,
            arrived: Some(2),
            departed: false,
        }])
        .labelled("vessels");
        let board = Memo::new({
            let vessels = vessels.clone();
            move |_| {
                vessels.with(|vessels| {
                    let mut lines = Vec::new();
                    for berth in 1..=2_u32 {
                        let at_berth = |v: &&Vessel| v.berth == berth;
                        let alongside = vessels
                            .iter()
                            .filter(at_berth)
                            .find(|v| v.arrived.is_some());
                        let expected = vessels
                            .iter()
                            .filter(at_berth)
                            .find(|v| v.arrived.is_none());
                        let line = match (alongside, expected) {
                            (Some(v), _) => format!(
                                "B{berth}: {} since hour {}",
                                v.call_sign,
                                v.arrived.unwrap_or(0)
                            ),
                            (None, Some(v)) => format!("B{berth}: expecting {}", v.call_sign),
                            (None, None) => format!("B{berth}: free"),
                        };
                        lines.push(line);
                    }
                    lines
                })
            }
        })
        .labelled("board");
        assert_eq!(board.get(), vec!["B1: LAKU7 since hour 2", "B2: free"]);
        // the vessel leaves, but the board still finds it alongside: it tests the arrival, not the departure
        vessels.update(|v| v[0].departed = true);
        assert_eq!(board.get(), vec!["B1: LAKU7 since hour 2", "B2: free"]);
        let text = trace::explain(&board).unwrap().to_string();
        let decided = line_in_this_file(".find(|v| v.arrived.is_some());");
        assert!(
            text.contains(&format!("trace.rs:{decided}:")),
            "line {decided} is not quoted:\n{text}"
        );
    }

    /// A charge on a pet's bill, by kind.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum ChargeKind {
        Consult,
        Medicine,
        Boarding,
    }

    /// What a day's charges add up to, by kind.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct Tab {
        care: u32,
        medicines: u32,
        boarding: u32,
    }

    #[test]
    fn a_match_arm_that_repeats_the_body_of_an_arm_above_it_is_quoted_first() {
        let charges = Signal::new(vec![
            (ChargeKind::Consult, 40_u32),
            (ChargeKind::Medicine, 15),
        ])
        .labelled("charges");
        let bill = Memo::new({
            let charges = charges.clone();
            move |_| {
                charges.with(|charges| {
                    let mut tab = Tab::default();
                    for (kind, cents) in charges {
                        match kind {
                            ChargeKind::Consult => tab.care += cents,
                            ChargeKind::Medicine => tab.medicines += cents,
                            ChargeKind::Boarding => tab.care += cents,
                        }
                    }
                    let total = tab.care + tab.medicines + tab.boarding;
                    format!(
                        "care {}, medicines {}, boarding {}, total {total}",
                        tab.care, tab.medicines, tab.boarding
                    )
                })
            }
        })
        .labelled("bill");
        assert_eq!(bill.get(), "care 40, medicines 15, boarding 0, total 55");
        charges.update(|c| c.push((ChargeKind::Boarding, 90)));
        // the night's boarding is billed as care
        assert_eq!(bill.get(), "care 130, medicines 15, boarding 0, total 145");
        let text = trace::explain(&bill).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let repeated = at("ChargeKind::Boarding => tab.care += cents,");
        assert!(
            repeated.is_some(),
            "the repeated arm is not quoted:\n{text}"
        );
        for other in [
            "ChargeKind::Consult => tab.care += cents,",
            "let total = tab.care + tab.medicines + tab.boarding;",
        ] {
            assert!(
                at(other).is_none_or(|o| repeated < Some(o)),
                "{other} comes first:\n{text}"
            );
        }
    }

    fn swap_and_set(scores: &mut Scoreboard, home: u8, away: u8) {
        scores.corrections += 1;
        set_score(scores, away, home);
    }

    fn board_update_asked(msg: BoardMsg, board: &Scoreboard) -> Scoreboard {
        let mut next = board.clone();
        match msg {
            BoardMsg::Correct { home, away } => {
                if home == away {
                    swap_and_set(&mut next, home, away);
                } else {
                    set_score(&mut next, home, away);
                }
            }
        }
        next
    }

    #[test]
    fn a_swap_in_a_branch_that_may_not_have_run_does_not_put_its_message_first() {
        let board = Mvu::new(Scoreboard::default(), board_update_asked);
        let line = Memo::new({
            let board = board.clone();
            move |_| board.with_model(|b| format!("{}-{}", b.home, b.away))
        });
        assert_eq!(line.get(), "0-0");
        board
            .dispatch_traced("correct", "[3,1]", BoardMsg::Correct { home: 3, away: 1 })
            .unwrap();
        assert_eq!(line.get(), "3-1");
        let explain = trace::explain(&line).unwrap();
        let swapped = line_in_this_file("set_score(scores, away, home);");
        let message = explain
            .findings
            .iter()
            .find(|f| f.text.starts_with("message correct #"))
            .unwrap_or_else(|| panic!("no finding for the message: {explain}"));
        // quoted, as a line the arm may have run, but not ranked as one it surely ran
        assert!(
            message
                .at
                .iter()
                .chain(&message.more)
                .any(|l| l.site.line == swapped),
            "{explain}"
        );
        assert!(message.rank < 800, "rank {}: {explain}", message.rank);
    }

    const DAY_CAP_HOURS: u32 = 6;

    #[test]
    fn a_value_clamped_the_wrong_way_by_a_cap_is_quoted_first() {
        let rides = Signal::new(vec![90_u32]).labelled("rides");
        let takings = Memo::new({
            let rides = rides.clone();
            move |_| {
                rides.with(|rides| {
                    let mut cents = 0;
                    for minutes in rides {
                        let hours = minutes.div_ceil(60);
                        let billed = hours.max(DAY_CAP_HOURS);
                        cents += billed * 300;
                    }
                    let rides_text = if rides.len() == 1 { "ride" } else { "rides" };
                    format!("{} {rides_text}: {cents}", rides.len())
                })
            }
        })
        .labelled("takings");
        // a ride of an hour and a half is billed the whole day's cap
        assert_eq!(takings.get(), "1 ride: 1800");
        rides.update(|r| r.push(30));
        assert_eq!(takings.get(), "2 rides: 3600");
        let text = trace::explain(&takings).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let clamp = at("let billed = hours.max(DAY_CAP_HOURS);");
        assert!(clamp.is_some(), "the clamp is not quoted:\n{text}");
        for other in [
            "let hours = minutes.div_ceil(60);",
            "cents += billed * 300;",
            "let mut cents = 0;",
        ] {
            assert!(
                at(other).is_none_or(|o| clamp < Some(o)),
                "{other} comes first:\n{text}"
            );
        }
    }

    /// A lending desk whose model is made by a fn; the mistake: fines block a card from 10 (cents) where 1,000 is
    /// meant, a constant no message changes.
    #[derive(Debug, Clone, PartialEq)]
    struct LendingDesk {
        today: u32,
        block_at: u32,
        owed: Vec<(String, u32)>,
    }

    #[derive(Debug)]
    enum LendingMsg {
        Fine(&'static str, u32),
    }

    fn opening_desk() -> LendingDesk {
        LendingDesk {
            today: 1,
            block_at: 10,
            owed: Vec::new(),
        }
    }

    fn lending_update(msg: LendingMsg, desk: &LendingDesk) -> LendingDesk {
        let mut next = desk.clone();
        match msg {
            LendingMsg::Fine(who, cents) => {
                next.today += 1;
                next.owed.push((who.to_owned(), cents));
            }
        }
        next
    }

    fn blocked_cards(desk: &LendingDesk) -> Vec<String> {
        let mut out = Vec::new();
        for (who, owed) in &desk.owed {
            if *owed >= desk.block_at {
                out.push(format!("{who}: blocked, owes {owed}"));
            }
        }
        out
    }

    #[test]
    fn a_field_no_message_changed_is_quoted_where_the_model_was_made_with_it() {
        let desk = Mvu::new(opening_desk(), lending_update);
        let blocked = desk.select(blocked_cards).labelled("blocked");
        desk.dispatch_traced("fine", "ada 75", LendingMsg::Fine("ada", 75))
            .unwrap();
        // 75 cents blocks a card: the threshold the desk was made with is wrong
        assert_eq!(blocked.get(), vec!["ada: blocked, owes 75".to_owned()]);
        let text = trace::explain(&blocked).unwrap().to_string();
        let made = format!("trace.rs:{}:", line_in_this_file("block_at: 10,"));
        assert!(text.contains(&made), "the constant is not quoted:\n{text}");
        assert!(
            text.contains(".block_at = 10, as the model was made"),
            "{text}"
        );
        // `today` changed with the message: not a constant the model was made with
        let today = format!("trace.rs:{}:", line_in_this_file("today: 1,"));
        assert!(!text.contains(&today), "{text}");
    }

    /// A workshop whose labour rate the model was made with in pounds where pence are meant; `update` charges a job
    /// through a helper that takes the rate as a parameter, so no line the message ran names the field.
    #[derive(Debug, Clone, PartialEq)]
    struct Workshop {
        rates: WorkshopRates,
        billed: Vec<u64>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct WorkshopRates {
        per_hour: u64,
        vat_percent: u64,
    }

    fn opening_workshop() -> Workshop {
        Workshop {
            rates: WorkshopRates {
                per_hour: 72,
                vat_percent: 20,
            },
            billed: Vec::new(),
        }
    }

    #[ranvier::trace_fn]
    fn labour(minutes: u64, rate: u64) -> u64 {
        let quarters = minutes.div_ceil(15);
        quarters * rate / 4
    }

    #[ranvier::trace_fn]
    fn workshop_update(msg: u64, shop: &Workshop) -> Workshop {
        let mut next = shop.clone();
        let net = labour(msg, next.rates.per_hour);
        next.billed.push(net);
        next
    }

    #[test]
    fn a_constant_a_message_read_through_a_parameter_is_quoted_where_the_model_was_made_with_it() {
        let shop = Mvu::new(opening_workshop(), workshop_update);
        let takings = shop
            .select(|s| s.billed.iter().sum::<u64>())
            .labelled("takings");
        shop.dispatch_traced("finish", "60", 60).unwrap();
        // an hour's labour billed 72 pence: the rate the workshop was made with is in pounds
        assert_eq!(takings.get(), 72);
        let text = trace::explain(&takings).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let read = at("quarters * rate / 4");
        let made = at("per_hour: 72,");
        assert!(
            read.is_some() && made.is_some(),
            "the line that read the rate and the rate's are not both quoted:\n{text}"
        );
        assert!(
            read < made,
            "the rate's line comes before the line that read it:\n{text}"
        );
        // the VAT rate, which no quoted line read, is not quoted
        assert!(at("vat_percent: 20,").is_none(), "{text}");
    }

    /// A venue whose hire fee the model was made with in pounds where pence are meant; the deposits memo reads it
    /// only in a helper its body calls.
    #[derive(Debug, Clone, PartialEq)]
    struct Venue {
        terms: VenueTerms,
        bookings: Vec<u64>,
    }

    #[derive(Debug, Clone, PartialEq)]
    struct VenueTerms {
        deposit_percent: u64,
        hire_fee: u64,
    }

    fn opening_venue() -> Venue {
        Venue {
            terms: VenueTerms {
                deposit_percent: 25,
                hire_fee: 50,
            },
            bookings: Vec::new(),
        }
    }

    fn venue_quote(guests: u64, terms: &VenueTerms) -> u64 {
        let food = guests * 4_000;
        food + terms.hire_fee
    }

    fn venue_update(guests: u64, venue: &Venue) -> Venue {
        let mut next = venue.clone();
        next.bookings.push(guests);
        next
    }

    #[test]
    fn a_constant_a_body_line_read_is_quoted_right_after_it() {
        let venue = Mvu::new(opening_venue(), venue_update);
        let deposits = venue
            .select(|v| {
                v.bookings
                    .iter()
                    .map(|g| venue_quote(*g, &v.terms) * v.terms.deposit_percent / 100)
                    .sum::<u64>()
            })
            .labelled("deposits");
        venue.dispatch_traced("book", "10", 10).unwrap();
        // 40,000 for the food and 50 (pence) for the hire: a quarter of it
        assert_eq!(deposits.get(), 10_012);
        let text = trace::explain(&deposits).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let (read, made) = (at("food + terms.hire_fee"), at("hire_fee: 50,"));
        assert!(read.is_some() && made.is_some(), "{text}");
        assert_eq!(
            text[read.unwrap()..made.unwrap()].matches('\n').count(),
            1,
            "{text}"
        );
    }

    fn days_between(from: u32, to: u32) -> i64 {
        i64::from(to) - i64::from(from)
    }

    /// A loan's note. The mistake: the days left counted from the due day to today, the time since it.
    fn renewal_note(due: u32, today: u32) -> String {
        let left = days_between(due, today);
        let days = left.unsigned_abs();
        if left < 0 {
            format!("overdue by {days}")
        } else if days <= 7 {
            format!("due in {days}")
        } else {
            "later".to_owned()
        }
    }

    #[test]
    fn time_left_counted_from_a_date_to_today_is_quoted_first_of_its_helper() {
        let due = Signal::new(20_u32).labelled("due");
        let today = Signal::new(10_u32).labelled("today");
        let note = Memo::new({
            let (due, today) = (due.clone(), today.clone());
            move |_| renewal_note(due.get(), today.get())
        })
        .labelled("note");
        // ten days ahead reads as overdue
        assert_eq!(note.get(), "overdue by 10");
        today.set(12);
        assert_eq!(note.get(), "overdue by 8");
        let text = trace::explain(&note).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let left = at("let left = days_between(due, today);");
        assert!(left.is_some(), "the count is not quoted:\n{text}");
        for other in [
            "let days = left.unsigned_abs();",
            "if left < 0 {",
            "format!(\"due in {days}\")",
        ] {
            assert!(
                at(other).is_none_or(|o| left < Some(o)),
                "{other} comes first:\n{text}"
            );
        }
    }

    /// A permit's status, given to a memo through a fn pointer. The mistake: the time remaining counted from the
    /// expiry to now.
    #[ranvier::trace_fn]
    fn permit_status(expires: u32, now: u32) -> String {
        let remaining = days_between(expires, now);
        if remaining <= 0 {
            "expired".to_owned()
        } else {
            format!("{remaining} days left")
        }
    }

    #[test]
    fn a_run_that_entered_a_fn_holding_a_slip_is_quoted_before_the_body() {
        let now = Signal::new(100_u32).labelled("now");
        let status: fn(u32, u32) -> String = permit_status;
        let permit = Memo::new({
            let now = now.clone();
            move |_| {
                let expires = 130;
                let text = status(expires, now.get());
                let label = "permit";
                format!("{label}: {text}")
            }
        })
        .labelled("permit");
        // thirty days ahead reads as expired
        assert_eq!(permit.get(), "permit: expired");
        now.set(101);
        assert_eq!(permit.get(), "permit: expired");
        let text = trace::explain(&permit).unwrap().to_string();
        let remaining = text
            .find(&format!(
                "trace.rs:{}:",
                line_in_this_file("let remaining = days_between(expires, now);")
            ))
            .unwrap_or_else(|| panic!("the count is not quoted:\n{text}"));
        let body = text
            .find(&format!(
                "trace.rs:{}:",
                line_in_this_file("let text = status(expires, now.get());")
            ))
            .unwrap_or(usize::MAX);
        assert!(remaining < body, "the body comes first:\n{text}");
    }

    /// A swimming class with its waiting list. The mistake: a child who withdraws leaves the class, and the fn
    /// returns before the first child waiting is promoted.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct SwimClass {
        enrolled: Vec<&'static str>,
        waiting: Vec<&'static str>,
    }

    #[derive(Debug)]
    enum SwimMsg {
        Withdraw(&'static str),
    }

    #[ranvier::trace_fn]
    fn swim_withdraw(class: &mut SwimClass, child: &str) {
        if let Some(at) = class.enrolled.iter().position(|c| *c == child) {
            class.enrolled.remove(at);
            return; // the place is free, and nobody is promoted
        }
        class.waiting.retain(|c| *c != child);
    }

    #[ranvier::trace_fn]
    fn swim_update(msg: SwimMsg, class: &SwimClass) -> SwimClass {
        let mut next = class.clone();
        match msg {
            SwimMsg::Withdraw(child) => swim_withdraw(&mut next, child),
        }
        next
    }

    #[test]
    fn a_block_that_ran_and_returned_is_quoted_by_its_return_and_the_lines_after_it_did_not_run() {
        let class = Mvu::new(
            SwimClass {
                enrolled: vec!["Ada", "Bo"],
                waiting: vec!["Cy"],
            },
            swim_update,
        );
        let waiting = class
            .select(|c: &SwimClass| c.waiting.len())
            .labelled("waiting");
        assert_eq!(waiting.get(), 1);
        class
            .dispatch_traced("withdraw", "Ada", SwimMsg::Withdraw("Ada"))
            .unwrap();
        // a place came free and nobody was promoted
        assert_eq!(waiting.get(), 1);
        let explain = trace::explain(&waiting).unwrap();
        let lines = message_lines(&explain, "withdraw");
        let left = line_in_this_file("return; // the place is free, and nobody is promoted");
        assert!(lines.contains(&left), "line {left}: {explain}");
        let after = line_in_this_file("class.waiting.retain(|c| *c != child);");
        assert!(
            !lines.contains(&after),
            "line {after} did not run: {explain}"
        );
    }

    /// A parts shelf whose fitting orders more when a job is short. The mistake: the short branch orders nothing.
    #[derive(Debug, Clone, PartialEq, Default)]
    struct PartsShelf {
        stock: u32,
        ordered: Vec<u32>,
        notes: Vec<String>,
    }

    #[derive(Debug)]
    enum ShelfMsg {
        Fit(u32),
        Reorder(u32),
    }

    #[ranvier::trace_fn]
    fn shelf_fit(shelf: &mut PartsShelf, qty: u32) -> Vec<ShelfMsg> {
        if shelf.stock >= qty {
            shelf.stock -= qty;
            if shelf.stock < 2 {
                vec![ShelfMsg::Reorder(4)]
            } else {
                Vec::new()
            }
        } else {
            shelf.notes.push(format!("{} short", qty - shelf.stock));
            Vec::new() // short, and nothing is ordered
        }
    }

    #[ranvier::trace_fn]
    fn parts_update(msg: ShelfMsg, shelf: &PartsShelf) -> (PartsShelf, Vec<ShelfMsg>) {
        let mut next = shelf.clone();
        let commands = match msg {
            ShelfMsg::Fit(qty) => shelf_fit(&mut next, qty),
            ShelfMsg::Reorder(qty) => {
                next.ordered.push(qty);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_branch_that_ran_and_sent_no_command_is_quoted_first() {
        let shelf = Mvu::with_commands(
            (
                PartsShelf {
                    stock: 1,
                    ..PartsShelf::default()
                },
                Vec::new(),
            ),
            parts_update,
        );
        let ordered = shelf
            .select(|s: &PartsShelf| s.ordered.len())
            .labelled("ordered");
        assert_eq!(ordered.get(), 0);
        shelf.dispatch_traced("fit", "3", ShelfMsg::Fit(3)).unwrap();
        // the job is short and nothing was ordered
        assert_eq!(ordered.get(), 0);
        let explain = trace::explain(&ordered).unwrap();
        let lines = message_lines(&explain, "fit");
        let empty = line_in_this_file("Vec::new() // short, and nothing is ordered");
        assert_eq!(lines.first(), Some(&empty), "{explain}");
    }

    /// The duty bands of a brewery, and a copy with a mistake: a beer at the edge of the reduced band pays the
    /// reduced rate.
    mod duty {
        pub fn band(abv: u32) -> u32 {
            if abv < 35 { 1 } else { 2 }
        }

        pub mod slipped {
            pub fn band(abv: u32) -> u32 {
                if abv <= 35 { 1 } else { 2 }
            }
        }
    }

    /// A duty rate service a future asks.
    async fn duty_rates(band: u32) -> Result<u32, String> {
        Ok(band * 10)
    }

    #[test]
    fn a_settled_future_is_quoted_with_the_rule_it_called() {
        use ranvier::{AsyncMemo, graph};
        let slipped = true;
        let band_of = if slipped {
            duty::slipped::band
        } else {
            duty::band
        };
        let abv = Signal::new(35_u32);
        let duty = AsyncMemo::new({
            let abv = abv.clone();
            move |_| {
                let abv = abv.get();
                async move {
                    let band = band_of(abv);
                    let rate = duty_rates(band).await.unwrap_or(0);
                    format!("band {band}: {rate}")
                }
            }
        });
        let _ = duty.get();
        graph::run_flights();
        assert_eq!(duty.get().value_or(String::new()), "band 1: 10");
        let explain = trace::explain(&duty).unwrap();
        let settled = settled_lines(&explain);
        let rule = line_in_this_file("if abv <= 35 { 1 } else { 2 }");
        assert!(
            settled.contains(&rule),
            "line {rule} not quoted:\n{explain}"
        );
    }

    /// A courier's quote for a delivery, by zone and boxes.
    async fn courier_quote(zone: u32, boxes: u32) -> Result<u32, String> {
        Ok(zone * 100 + boxes)
    }

    #[test]
    fn a_settled_future_s_call_with_two_arguments_swapped_is_quoted_first() {
        use ranvier::{AsyncMemo, graph};
        let orders = Signal::new(vec![(3_u32, 2_u32), (1, 5)]);
        let quotes = AsyncMemo::new({
            let orders = orders.clone();
            move |_| {
                let orders = orders.get();
                async move {
                    let mut total = 0;
                    for (zone, boxes) in orders {
                        let quote = courier_quote(boxes, zone).await.unwrap_or(0);
                        total += quote;
                    }
                    format!("courier: {total}")
                }
            }
        });
        let _ = quotes.get();
        graph::run_flights();
        assert_eq!(quotes.get().value_or(String::new()), "courier: 704");
        let explain = trace::explain(&quotes).unwrap();
        let first = explain
            .findings
            .iter()
            .find(|f| f.kind == trace::FindingKind::Settled)
            .and_then(|f| f.at.as_ref())
            .map(|l| l.site.line);
        assert_eq!(
            first,
            Some(line_in_this_file(
                "let quote = courier_quote(boxes, zone).await.unwrap_or(0);"
            )),
            "{explain}"
        );
    }

    /// A card terminal a future asks to settle a till's card payments.
    async fn settle_cards(till: u8, pence: u32) -> Result<u32, String> {
        Ok(if till == 0 { 0 } else { pence })
    }

    #[test]
    fn a_quoted_link_of_a_chain_brings_the_line_the_chain_starts_from() {
        use ranvier::{AsyncMemo, graph};
        // each sale: its till, its pence, and whether a card paid it
        let sales = Signal::new(vec![(1_u8, 320_u32, true), (1, 200, false)]);
        let takings = AsyncMemo::new({
            let sales = sales.clone();
            move |_| {
                let sales = sales.get();
                let card: Vec<(u8, u32, bool)> = sales.iter().filter(|s| s.2).copied().collect();
                let tills: Vec<u8> = card.iter().map(|s| s.0).collect();
                async move {
                    let mut lines = Vec::new();
                    for till in tills {
                        let taken: u32 = sales
                            .iter()
                            .filter(|sale| sale.0 == till)
                            .map(|sale| sale.1)
                            .sum();
                        match settle_cards(till, taken).await {
                            Ok(settled) => lines.push(format!("till {till}: {settled}")),
                            Err(why) => lines.push(format!("till {till}: not settled, {why}")),
                        }
                    }
                    lines
                }
            }
        });
        let _ = takings.get();
        graph::run_flights();
        // the cash sale is settled with the card payment: 520, not 320
        assert_eq!(
            takings.get().value_or(Vec::new()),
            vec!["till 1: 520".to_owned()]
        );
        let explain = trace::explain(&takings).unwrap();
        let settled = settled_lines(&explain);
        let start = line_in_this_file("let taken: u32 = sales");
        assert!(
            settled.contains(&start),
            "line {start} not quoted:\n{explain}"
        );
    }

    #[test]
    fn a_sum_made_in_a_loop_is_quoted_with_the_list_the_loop_went_over() {
        // each booking: its sailing, its passengers, and whether it waits on standby
        let bookings = Signal::new(vec![(1_u32, 2_u32, false), (1, 40, true), (2, 3, false)])
            .labelled("bookings");
        let manifest = Memo::new({
            let bookings = bookings.clone();
            move |_| {
                let bookings = bookings.get();
                let mut lines = Vec::new();
                for sailing in [1_u32, 2] {
                    let mut passengers = 0;
                    let mut parties = 0;
                    // the mistake: standby parties are not aboard
                    let aboard = bookings.iter().filter(|b| b.0 == sailing);
                    for booking in aboard {
                        parties += 1;
                        passengers += booking.1;
                    }
                    if parties == 0 {
                        continue;
                    }
                    lines.push(format!(
                        "sailing {sailing}: {passengers} passengers in {parties} parties"
                    ));
                }
                lines
            }
        })
        .labelled("manifest");
        assert_eq!(manifest.get()[0], "sailing 1: 42 passengers in 2 parties");
        let explain = trace::explain(&manifest).unwrap();
        let lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        let chose = line_in_this_file("let aboard = bookings.iter().filter(|b| b.0 == sailing);");
        assert!(
            lines.contains(&chose),
            "line {chose} not quoted:\n{explain}"
        );
    }

    #[test]
    fn an_accumulator_s_let_brings_the_loop_that_added_to_it() {
        // each bin: its block, its day, its kilograms, its picker
        let bins = Signal::new(vec![
            (1_u32, 7_u32, 300_u32, "Ana"),
            (1, 8, 320, "Ben"),
            (2, 8, 250, "Ana"),
        ])
        .labelled("bins");
        let today = Signal::new(8_u32).labelled("today");
        let board = Memo::new({
            let (bins, today) = (bins.clone(), today.clone());
            move |_| {
                let bins = bins.get();
                let day = today.get();
                let mut lines = Vec::new();
                for block in [1_u32, 2] {
                    let mut count = 0;
                    let mut kg = 0;
                    let mut pickers: Vec<&str> = Vec::new();
                    // the mistake: the bins of every day, not the day's
                    for bin in bins.iter().filter(|bin| bin.0 == block) {
                        count += 1;
                        kg += bin.2;
                        if !pickers.contains(&bin.3) {
                            pickers.push(bin.3);
                        }
                    }
                    let line = match count {
                        0 => format!("block {block}: no bins on day {day}"),
                        n => format!(
                            "block {block}: {n} bins on day {day}, {kg} kg ({})",
                            pickers.join(", ")
                        ),
                    };
                    lines.push(line);
                }
                lines
            }
        })
        .labelled("board");
        assert_eq!(
            board.get()[0],
            "block 1: 2 bins on day 8, 620 kg (Ana, Ben)"
        );
        let explain = trace::explain(&board).unwrap();
        let mut lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        lines.extend(finding_lines(&explain));
        let chose = line_in_this_file("for bin in bins.iter().filter(|bin| bin.0 == block) {");
        assert!(
            lines.contains(&chose),
            "line {chose} not quoted:\n{explain}"
        );
    }

    #[test]
    fn a_text_made_in_a_filtered_loop_is_quoted_with_the_loop_s_filter() {
        // each booking: its number, its customer, whether its car is out, the day it is due back
        let bookings = Signal::new(vec![
            (1_u32, "Ada", false, 3_u32),
            (2, "Ben", true, 3),
            (3, "Cy", true, 4),
        ])
        .labelled("bookings");
        let board = Memo::new({
            let bookings = bookings.clone();
            move |_| {
                let today = 3;
                let bookings = bookings.get();
                let mut lines = Vec::new();
                for b in bookings.iter().filter(|b| !b.2 && b.3 > today) {
                    lines.push(format!("hand over: #{} {}", b.0, b.1));
                }
                // the mistake: a booking whose car came back is still due back
                for b in bookings.iter().filter(|b| b.3 == today) {
                    let who = b.1.to_uppercase();
                    lines.push(format!("due back: #{} {who}", b.0));
                }
                for b in bookings.iter().filter(|b| b.2 && b.3 < today) {
                    let late = today - b.3;
                    lines.push(format!("overdue: #{} {}, {late} days late", b.0, b.1));
                }
                if lines.is_empty() {
                    lines.push("nothing due back".to_owned());
                }
                lines
            }
        })
        .labelled("board");
        assert_eq!(board.get()[0], "due back: #1 ADA");
        let explain = trace::explain(&board).unwrap();
        let lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        let chose = line_in_this_file("for b in bookings.iter().filter(|b| b.3 == today) {");
        assert!(
            lines.contains(&chose),
            "line {chose} not quoted:\n{explain}"
        );
    }

    /// A performance's seats, held and sold.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Seats {
        held: u32,
        sold: u32,
        confirmed: u32,
        last: u32,
        paid: u32,
        log: Vec<u32>,
    }

    #[derive(Debug)]
    enum SeatMsg {
        Hold(u32),
        Confirm(u32),
    }

    /// A confirmed hold's seats go from held to sold. The mistake: they go back to held.
    #[ranvier::trace_fn]
    fn confirm_seats(seats: &mut Seats, n: u32) {
        seats.confirmed += 1;
        seats.last = n;
        seats.log.push(n);
        seats.paid += n * 20;
        seats.held = seats.held.saturating_sub(n);
        seats.held += n;
        seats.log.push(seats.held);
    }

    #[ranvier::trace_fn]
    fn seats_update(msg: SeatMsg, seats: &Seats) -> Seats {
        let mut next = seats.clone();
        match msg {
            SeatMsg::Hold(n) => next.held += n,
            SeatMsg::Confirm(n) => confirm_seats(&mut next, n),
        }
        next
    }

    #[test]
    fn a_write_that_undoes_the_one_above_it_is_quoted() {
        let seats = Mvu::new(Seats::default(), seats_update);
        let sold = seats.select(|s: &Seats| s.sold).labelled("sold");
        seats
            .dispatch_traced("hold", "2", SeatMsg::Hold(2))
            .unwrap();
        seats
            .dispatch_traced("confirm", "2", SeatMsg::Confirm(2))
            .unwrap();
        // the two seats confirmed are not sold
        assert_eq!(sold.get(), 0);
        let explain = trace::explain(&sold).unwrap();
        let undo = line_in_this_file("seats.held += n;");
        let quoted = finding_lines(&explain);
        assert!(quoted.contains(&undo), "line {undo} not quoted:\n{explain}");
    }

    /// A prescription token's status, as a registry answers.
    fn token_status(token: u32) -> Result<bool, String> {
        if token > 100 {
            Err(format!("no token {token}"))
        } else {
            Ok(token.is_multiple_of(2))
        }
    }

    #[test]
    fn an_arm_quoted_brings_the_let_its_match_tested() {
        use ranvier::{AsyncMemo, graph};
        let tokens = Signal::new(vec![2_u32, 3]);
        let checks = AsyncMemo::new({
            let tokens = tokens.clone();
            move |_| {
                let tokens = tokens.get();
                async move {
                    let mut lines = Vec::new();
                    for token in tokens {
                        // the mistake: every token is checked as the first one
                        let answer = token_status(2);
                        let state = match answer {
                            Ok(true) => "valid".to_owned(),
                            Ok(false) => "cancelled".to_owned(),
                            Err(why) => why,
                        };
                        lines.push(format!("{token}: {state}"));
                    }
                    lines
                }
            }
        });
        let _ = checks.get();
        graph::run_flights();
        assert_eq!(
            checks.get().value_or(Vec::new()),
            vec!["2: valid".to_owned(), "3: valid".to_owned()]
        );
        let explain = trace::explain(&checks).unwrap();
        let quoted = finding_lines(&explain);
        let asked = line_in_this_file("let answer = token_status(2);");
        assert!(
            quoted.contains(&asked),
            "line {asked} not quoted:\n{explain}"
        );
    }

    /// Two performances' sold seats.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Week {
        sold: [u32; 2],
        exchanges: u32,
        fees: u32,
        notes: Vec<String>,
    }

    #[derive(Debug)]
    enum WeekMsg {
        Sell(usize, u32),
        Exchange(usize, usize, u32),
    }

    fn move_sold(week: &mut Week, from: usize, to: usize, seats: u32) {
        week.sold[from] = week.sold[from].saturating_sub(seats);
        week.sold[to] += seats;
    }

    /// An exchange moves the seats to the new performance. The mistake: the new one is given as where they come from.
    #[ranvier::trace_fn]
    fn exchange_seats(week: &mut Week, old: usize, to: usize, seats: u32) {
        week.exchanges += 1;
        week.fees += 150;
        week.notes.push(format!("{seats} seats from {old} to {to}"));
        move_sold(week, to, old, seats);
        week.notes.push("exchanged".to_owned());
    }

    #[ranvier::trace_fn]
    fn week_update(msg: WeekMsg, week: &Week) -> Week {
        let mut next = week.clone();
        match msg {
            WeekMsg::Sell(perf, n) => next.sold[perf] += n,
            WeekMsg::Exchange(old, to, n) => exchange_seats(&mut next, old, to, n),
        }
        next
    }

    #[test]
    fn an_argument_named_for_the_other_end_is_quoted() {
        let week = Mvu::new(Week::default(), week_update);
        let second = week.select(|w: &Week| w.sold[1]).labelled("second");
        week.dispatch_traced("sell", "0 2", WeekMsg::Sell(0, 2))
            .unwrap();
        week.dispatch_traced("exchange", "0 1 2", WeekMsg::Exchange(0, 1, 2))
            .unwrap();
        // the two seats did not reach the second performance
        assert_eq!(second.get(), 0);
        let explain = trace::explain(&second).unwrap();
        let crossed = line_in_this_file("move_sold(week, to, old, seats);");
        let quoted = finding_lines(&explain);
        assert!(
            quoted.contains(&crossed),
            "line {crossed} not quoted:\n{explain}"
        );
    }

    /// A card acquirer settles a performance's batch, or holds it for review.
    async fn settle_batch(perf: u32) -> Result<u32, String> {
        if perf == 2 {
            Err("held for review".to_owned())
        } else {
            Ok(perf * 100)
        }
    }

    #[test]
    fn a_quoted_block_brings_the_break_that_ends_it() {
        use ranvier::{AsyncMemo, graph};
        let perfs = Signal::new(vec![1_u32, 2, 3]);
        let settlements = AsyncMemo::new({
            let perfs = perfs.clone();
            move |_| {
                let perfs = perfs.get();
                async move {
                    let mut lines = Vec::new();
                    for perf in perfs {
                        match settle_batch(perf).await {
                            Ok(gross) => lines.push(format!("{perf}: {gross}")),
                            Err(why) => {
                                lines.push(format!("{perf}: not settled, {why}"));
                                break; // the mistake: the later batches go unsettled
                            }
                        }
                    }
                    lines
                }
            }
        });
        let _ = settlements.get();
        graph::run_flights();
        assert_eq!(settlements.get().value_or(Vec::new()).len(), 2);
        let explain = trace::explain(&settlements).unwrap();
        let quoted = finding_lines(&explain);
        let stop = line_in_this_file("break; // the mistake: the later batches go unsettled");
        assert!(quoted.contains(&stop), "line {stop} not quoted:\n{explain}");
    }

    /// A salon's front desk: cancelling a booking refunds its deposit when it is cancelled early enough, and an
    /// `Award` message (not sent here) adds loyalty points through a rule given as a fn value.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Salon {
        notices: Vec<String>,
        refunds: u32,
        points: u32,
    }

    #[derive(Debug)]
    enum SalonMsg {
        Cancel { hours_before: u32 },
        Award { pence: u32 },
    }

    /// The points a purchase earns (the rule the desk is given).
    fn points_per_pound(pence: u32) -> u32 {
        pence / 100
    }

    /// Adds the points `rate` gives for `pence`, and says how many.
    fn award_points(desk: &mut Salon, pence: u32, rate: fn(u32) -> u32) -> u32 {
        let earned = rate(pence);
        desk.points += earned;
        earned
    }

    /// The mistake: a booking cancelled more than a day ahead should be refunded, the comparison is the wrong way
    /// round.
    #[ranvier::trace_fn]
    fn cancel_booking(desk: &mut Salon, hours_before: u32) {
        if hours_before <= 24 {
            desk.refunds += 1;
            desk.notices
                .push(format!("{hours_before} hours ahead: refunded"));
        } else {
            desk.notices
                .push(format!("{hours_before} hours ahead: kept"));
        }
    }

    #[ranvier::trace_fn]
    fn salon_update(msg: SalonMsg, desk: &Salon) -> Salon {
        let mut next = desk.clone();
        match msg {
            SalonMsg::Cancel { hours_before } => cancel_booking(&mut next, hours_before),
            SalonMsg::Award { pence } => {
                award_points(&mut next, pence, points_per_pound);
            }
        }
        next
    }

    #[test]
    fn an_else_that_ran_is_quoted_by_the_condition_that_sent_the_run_there() {
        let desk = Mvu::new(Salon::default(), salon_update);
        let notices = desk.select(|d: &Salon| d.notices.clone());
        desk.dispatch_traced("cancel", "49", SalonMsg::Cancel { hours_before: 49 })
            .unwrap();
        assert_eq!(notices.get(), vec!["49 hours ahead: kept".to_owned()]);
        let explain = trace::explain(&notices).unwrap();
        let condition = line_in_this_file("if hours_before <= 24 {");
        let lines = ran_lines(&explain);
        assert!(
            lines
                .iter()
                .any(|(line, text)| *line == condition && text.ends_with("→ false")),
            "line {condition} not quoted as false:\n{explain}"
        );
        // the `else` itself is not quoted beside it: its condition says where the run went
        let otherwise = condition + 3;
        assert!(
            !lines.iter().any(|(line, _)| *line == otherwise),
            "line {otherwise} quoted:\n{explain}"
        );
    }

    #[test]
    fn a_dropped_value_in_an_arm_that_did_not_run_is_not_quoted() {
        let desk = Mvu::new(Salon::default(), salon_update);
        let notices = desk.select(|d: &Salon| d.notices.clone());
        desk.dispatch_traced("cancel", "12", SalonMsg::Cancel { hours_before: 12 })
            .unwrap();
        assert_eq!(notices.get(), vec!["12 hours ahead: refunded".to_owned()]);
        let explain = trace::explain(&notices).unwrap();
        let award = line_in_this_file("award_points(&mut next, pence, points_per_pound);");
        assert!(
            !quoted_lines(&explain).contains(&award),
            "line {award} of the arm that did not run quoted:\n{explain}"
        );
        // the arm, when it runs, adds the points
        desk.dispatch(SalonMsg::Award { pence: 2500 }).unwrap();
        assert_eq!(desk.select(|d: &Salon| d.points).get(), 25);
    }

    /// A kiosk's takings so far this week, `#[node]`-built: the days run from the week's first day up to today, but
    /// the range stops before today (`..` for `..=`), so on the week's first day the loop over the days runs no time
    /// and the week stands at nothing whatever was sold.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn kiosk_week(sales: &Signal<Vec<(u32, u32)>>, today: &Signal<u32>) -> Memo<String> {
        let week = Memo::new({
            let (sales, today) = (sales.clone(), today.clone());
            move |_| {
                let today = today.get();
                let monday = today - today % 7;
                let mut week = 0;
                for day in monday..today {
                    for (on, pence) in sales.get() {
                        if on == day {
                            week += pence;
                        }
                    }
                }
                format!("week so far: {week}p")
            }
        });
        week
    }

    #[test]
    fn a_range_loop_that_ran_no_time_is_quoted_first_and_its_lines_are_not() {
        let sales = Signal::new(vec![(7_u32, 250_u32), (7, 120)]);
        let today = Signal::new(7_u32);
        let week = kiosk_week(&sales, &today);
        assert_eq!(week.get(), "week so far: 0p");
        let explain = trace::explain(&week).unwrap();
        let range = line_in_this_file("for day in monday..today {");
        assert_eq!(
            explain.body.first().map(|l| (l.site.line, l.text.as_str())),
            Some((range, "for day in monday..today { → ran no time")),
            "{explain}"
        );
        // the lines inside the loop did not run
        let added = line_in_this_file("week += pence;");
        let inner = line_in_this_file("for (on, pence) in sales.get() {");
        let quoted = quoted_lines(&explain);
        assert!(
            !quoted.contains(&added) && !quoted.contains(&inner),
            "lines {inner} or {added} quoted:\n{explain}"
        );
        // a day later the loop runs and says nothing of it
        today.set(8);
        assert_eq!(week.get(), "week so far: 370p");
        let explain = trace::explain(&week).unwrap();
        assert!(!explain.to_string().contains("ran no time"), "{explain}");
    }

    /// A coffee subscription's next delivery, `#[node]`-built: the deliveries due up to today are counted while the
    /// next one is before today (`<` for `<=`), so on the day one falls due the loop runs no time.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn deliveries_due(next_day: &Signal<u32>, today: &Signal<u32>) -> Memo<u32> {
        let due = Memo::new({
            let (next_day, today) = (next_day.clone(), today.clone());
            move |_| {
                let today = today.get();
                let mut next = next_day.get();
                let mut due = 0;
                while next < today {
                    due += 1;
                    next += 7;
                }
                due
            }
        });
        due
    }

    #[test]
    fn a_while_loop_that_ran_no_time_is_quoted_first() {
        let next_day = Signal::new(7_u32);
        let today = Signal::new(7_u32);
        let due = deliveries_due(&next_day, &today);
        // one delivery falls due today: none counted
        assert_eq!(due.get(), 0);
        let explain = trace::explain(&due).unwrap();
        let head = line_in_this_file("while next < today {");
        assert_eq!(
            explain.body.first().map(|l| (l.site.line, l.text.as_str())),
            Some((head, "while next < today { → ran no time")),
            "{explain}"
        );
        // a day later it runs and says nothing of it
        today.set(8);
        assert_eq!(due.get(), 1);
        let explain = trace::explain(&due).unwrap();
        assert!(!explain.to_string().contains("ran no time"), "{explain}");
    }

    /// A dental practice's recalls, `#[node]`-built: a patient never seen is due from the day they joined, but the
    /// mistake counts from day 0 (`unwrap_or(0)`), so a new patient is due at once. A bill of the practice's own
    /// with an `unwrap_or` of its own, next to it, gives no record.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn recalls_due(
        patients: &Signal<Vec<(u32, Option<u32>)>>,
        today: &Signal<u32>,
    ) -> Memo<Vec<u32>> {
        let due = Memo::new({
            let (patients, today) = (patients.clone(), today.clone());
            move |_| {
                let today = today.get();
                let mut due = Vec::new();
                for (joined, seen) in patients.get() {
                    let last = seen.unwrap_or(0);
                    let next = last + 180;
                    let fee = Fee(joined - 100).unwrap_or(25);
                    if next <= today && fee > 0 {
                        due.push(joined);
                    }
                }
                due
            }
        });
        due
    }

    /// A fee that has its own `unwrap_or` (not `Option`'s): instrumenting it must leave it as it is.
    struct Fee(u32);

    impl Fee {
        fn unwrap_or(self, other: u32) -> u32 {
            if self.0 == 0 { other } else { self.0 }
        }
    }

    #[test]
    fn an_unwrap_or_whose_default_the_run_took_is_quoted_first() {
        // joined on day 100, never seen: due on day 280, not on day 200
        let patients = Signal::new(vec![(100_u32, None)]);
        let today = Signal::new(200_u32);
        let due = recalls_due(&patients, &today);
        assert_eq!(due.get(), vec![100]);
        let explain = trace::explain(&due).unwrap();
        let default = line_in_this_file("let last = seen.unwrap_or(0);");
        assert_eq!(
            explain.body.first().map(|l| (l.site.line, l.text.as_str())),
            Some((default, "let last = seen.unwrap_or(0); → took the default")),
            "{explain}"
        );
        // the fee's own `unwrap_or` gave its other value too (a fee of 0), but it is no `Option` or `Result`: no record
        assert_eq!(
            explain.to_string().matches("took the default").count(),
            1,
            "{explain}"
        );
        // seen on day 150: no default taken, none quoted
        patients.set(vec![(100, Some(150))]);
        assert_eq!(due.get(), Vec::<u32>::new());
        let explain = trace::explain(&due).unwrap();
        assert!(
            !explain.to_string().contains("took the default"),
            "{explain}"
        );
    }

    /// A parcel's postage by weight band, `#[node]`-built. The mistake: the third band stops a gram short
    /// (`251..=499` for `251..=500`), so a parcel of 500 g falls through to the dearest rate.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn postage_of(grams: &Signal<u32>) -> Memo<u32> {
        let postage = Memo::new({
            let grams = grams.clone();
            move |_| {
                let grams = grams.get();
                let pence = match grams {
                    0..=100 => 85,
                    101..=250 => 120,
                    251..=499 => 160,
                    _ => 300,
                };
                pence + 10
            }
        });
        postage
    }

    #[test]
    fn a_wildcard_arm_that_ran_is_quoted_with_the_range_arms_above_it() {
        let grams = Signal::new(500_u32);
        let postage = postage_of(&grams);
        assert_eq!(postage.get(), 310);
        let explain = trace::explain(&postage).unwrap();
        let lines: Vec<u32> = ran_lines(&explain)
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        let wild = line_in_this_file("_ => 300,");
        let nearest = line_in_this_file("251..=499 => 160,");
        let next = line_in_this_file("101..=250 => 120,");
        // the `_` arm first, then the range arms above it, nearest first (the scrutinee's `let` may come between)
        assert_eq!(lines.first(), Some(&wild), "{explain}");
        let arms: Vec<u32> = lines
            .iter()
            .copied()
            .filter(|l| [wild, nearest, next].contains(l))
            .collect();
        assert_eq!(arms, [wild, nearest, next], "{explain}");
        // a range arm that ran is quoted alone
        grams.set(300);
        assert_eq!(postage.get(), 170);
        let explain = trace::explain(&postage).unwrap();
        let lines: Vec<u32> = ran_lines(&explain)
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        assert!(
            lines.contains(&nearest) && !lines.contains(&wild) && !lines.contains(&next),
            "{explain}"
        );
    }

    /// A packed order, as the packing bench's memo makes it.
    #[derive(Clone, Debug, PartialEq)]
    struct Packed {
        order: u32,
        boxes: u32,
        grams: u32,
    }

    /// The packing bench's orders, `#[node]`-built: each order's items go six to a box, and the weight counts the
    /// boxes too. The mistake: the boxes are counted rounding down (`items / 6`), so a seventh item has no box.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn packing_bench(orders: &Signal<Vec<(u32, Vec<u32>)>>) -> Memo<Vec<Packed>> {
        let packed = Memo::new({
            let orders = orders.clone();
            move |_| {
                let mut out = Vec::new();
                for (order, items) in orders.get() {
                    let (mut count, mut net) = (0_u32, 0_u32);
                    for grams in items {
                        count += 1;
                        net += grams;
                    }
                    let boxes = count / 6;
                    let grams = net + boxes * 150;
                    out.push(Packed {
                        order,
                        boxes,
                        grams,
                    });
                }
                out
            }
        });
        packed
    }

    #[test]
    fn a_struct_literal_of_the_body_is_followed_by_the_lets_that_computed_its_fields() {
        let orders = Signal::new(vec![(1_u32, vec![200_u32; 7])]);
        let packed = packing_bench(&orders);
        assert_eq!(
            packed.get(),
            vec![Packed {
                order: 1,
                boxes: 1,
                grams: 1_550
            }]
        );
        let explain = trace::explain(&packed).unwrap();
        let lines: Vec<u32> = explain.body.iter().map(|l| l.site.line).collect();
        let literal = line_in_this_file("out.push(Packed {");
        let weight = line_in_this_file("let grams = net + boxes * 150;");
        let boxes = line_in_this_file("let boxes = count / 6;");
        let at = lines
            .iter()
            .position(|l| *l == literal)
            .unwrap_or_else(|| panic!("no literal line:\n{explain}"));
        // the fields' `let`s in the literal's order, then what they read that is not quoted yet
        assert_eq!(
            lines.get(at + 1..at + 3),
            Some(&[boxes, weight][..]),
            "{explain}"
        );
    }

    /// A cinema's group booking, `#[node]`-built: from the fourth ticket on a ticket is half price. The mistake: the
    /// test is `i > 3` (the fifth on), so a group of four pays in full.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn group_total(tickets: &Signal<Vec<u32>>) -> Memo<u32> {
        let total = Memo::new({
            let tickets = tickets.clone();
            move |_| {
                let mut tickets = tickets.get();
                tickets.sort_unstable_by(|a, b| b.cmp(a));
                let mut group_due = 0;
                for (i, price) in tickets.iter().enumerate() {
                    let price = if i > 3 { price / 2 } else { *price };
                    group_due += price;
                }
                group_due
            }
        });
        total
    }

    #[test]
    fn an_addition_is_followed_by_the_let_that_chose_what_it_adds() {
        let tickets = Signal::new(vec![800_u32, 800, 600, 600]);
        let total = group_total(&tickets);
        assert_eq!(total.get(), 2_800);
        let explain = trace::explain(&total).unwrap();
        let lines = quoted_lines(&explain);
        let adds = line_in_this_file("group_due += price;");
        let chose = line_in_this_file("let price = if i > 3 { price / 2 } else { *price };");
        let at = lines
            .iter()
            .position(|l| *l == adds)
            .unwrap_or_else(|| panic!("no addition quoted:\n{explain}"));
        assert_eq!(lines.get(at + 1), Some(&chose), "{explain}");
    }

    /// The nights of a stay billed, the free ones taken off.
    fn billable(stay_nights: u32, free_nights: u32) -> u32 {
        stay_nights.saturating_sub(free_nights)
    }

    /// A guest house's bill, `#[node]`-built. The mistake: the free night and the stay are given to `billable` the
    /// wrong way round, though neither is named as its parameter is.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn stay_bill(stay: &Signal<u32>, free_night: &Signal<u32>) -> Memo<u32> {
        let bill = Memo::new({
            let (stay, free_night) = (stay.clone(), free_night.clone());
            move |_| {
                let stay = stay.get();
                let free_night = free_night.get();
                let rate = if stay > 6 { 7_000 } else { 8_000 };
                let tax = rate / 5;
                let billed = billable(free_night, stay);
                billed * (rate + tax)
            }
        });
        bill
    }

    #[test]
    fn two_arguments_named_like_each_other_s_parameter_are_quoted_first() {
        let stay = Signal::new(3_u32);
        let free_night = Signal::new(1_u32);
        let bill = stay_bill(&stay, &free_night);
        // three nights, one free: two billed, not none
        assert_eq!(bill.get(), 0);
        let explain = trace::explain(&bill).unwrap();
        let call = line_in_this_file("let billed = billable(free_night, stay);");
        assert_eq!(
            explain.body.first().map(|l| l.site.line),
            Some(call),
            "{explain}"
        );
    }

    /// A car park's overstays, `#[node]`-built: a car is over when now is past its paid time. The mistake: ten minutes'
    /// grace are added to a time that already holds them.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn overstays(now: &Signal<u32>, parked: &Signal<Vec<(u32, u32)>>) -> Memo<Vec<u32>> {
        let over = Memo::new({
            let (now, parked) = (now.clone(), parked.clone());
            move |_| {
                let now = now.get();
                let mut over = Vec::new();
                for (car, paid) in parked.get() {
                    let paid_until = paid;
                    let paid_until = paid_until + 10;
                    if now > paid_until {
                        over.push(car);
                    }
                }
                over.sort_unstable();
                over.dedup();
                over
            }
        });
        over
    }

    #[test]
    fn a_shadowing_let_that_computed_leads_the_answer_with_the_value_it_bound() {
        // paid until 600 with the grace in: 605 is over, but the car is not listed
        let now = Signal::new(605_u32);
        let parked = Signal::new(vec![(7_u32, 600_u32)]);
        let over = overstays(&now, &parked);
        assert_eq!(over.get(), Vec::<u32>::new());
        let explain = trace::explain(&over).unwrap();
        let text = explain.to_string();
        let shadow = format!(
            "trace.rs:{}: let paid_until = paid_until + 10; → 610",
            line_in_this_file("let paid_until = paid_until + 10;")
        );
        let looped = format!(
            "trace.rs:{}:",
            line_in_this_file("for (car, paid) in parked.get() {")
        );
        let (at, body) = (text.find(&shadow), text.find(&looped));
        assert!(at.is_some() && (body.is_none() || at < body), "{explain}");
    }

    /// A caterer's staff pay, `#[node]`-built: a shift is paid for at least the minimum call of four hours, overtime
    /// past eight at time and a half. The mistake: `min` for `max`, so a two-hour shift is paid for two.
    #[allow(clippy::let_and_return)]
    #[ranvier::node]
    fn shift_pay(shifts: &Signal<Vec<u32>>) -> Memo<u32> {
        let pay = Memo::new({
            let shifts = shifts.clone();
            move |_| {
                let mut total = 0;
                for shift in shifts.get() {
                    let hours = shift.min(4);
                    let overtime = hours.saturating_sub(8);
                    let hours = hours - overtime;
                    total += hours * 10 + overtime * 15;
                }
                total
            }
        });
        pay
    }

    #[test]
    fn a_shadowing_let_that_leads_is_followed_by_the_let_it_shadows() {
        let shifts = Signal::new(vec![2_u32]);
        let pay = shift_pay(&shifts);
        // a two-hour shift is paid the minimum call, four hours: 40, not 20
        assert_eq!(pay.get(), 20);
        let text = trace::explain(&pay).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let (shadowing, shadowed) = (
            at("let hours = hours - overtime;"),
            at("let hours = shift.min(4);"),
        );
        assert!(shadowing.is_some() && shadowed.is_some(), "{text}");
        // right after it: nothing quoted between them
        let between = &text[shadowing.unwrap()..shadowed.unwrap()];
        assert_eq!(between.matches('\n').count(), 1, "{text}");
    }

    /// A storage unit's insurance premium, per started thousand pounds of cover, weekly or monthly. The mistake: the
    /// thousands are rounded down, so £1,500 of cover pays for one.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Billing {
        Weekly,
        Monthly,
    }

    #[ranvier::trace_fn]
    fn cover_premium(declared: u64, billing: Billing) -> u64 {
        let cover = declared.max(50_000);
        let thousands = cover / 100_000;
        let weekly = thousands * 30;
        match billing {
            Billing::Weekly => weekly,
            Billing::Monthly => (weekly * 52).div_ceil(12),
        }
    }

    #[test]
    fn an_arm_that_gives_a_local_is_followed_by_the_lets_that_computed_it() {
        let declared = Signal::new(150_000_u64);
        let premium = Memo::new({
            let declared = declared.clone();
            move |_| cover_premium(declared.get(), Billing::Weekly)
        })
        .labelled("premium");
        // two started thousands: 60, not 30 (130, not 260, a month)
        assert_eq!(premium.get(), 30);
        assert_eq!(cover_premium(150_000, Billing::Monthly), 130);
        let text = trace::explain(&premium).unwrap().to_string();
        // the run's finding: the arm that ran, then the `let`s that made what it gave
        let ran = text.find("ran: premium#2's latest run").expect(&text);
        let found = &text[ran..];
        let at = |needle: &str| found.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let (arm, weekly, thousands) = (
            at("Billing::Weekly => weekly,"),
            at("let weekly = thousands * 30;"),
            at("let thousands = cover / 100_000;"),
        );
        assert!(
            arm.is_some() && weekly.is_some() && thousands.is_some(),
            "{text}"
        );
        assert!(arm < weekly && weekly < thousands, "{text}");
    }

    /// A caterer's deposits net of card fees, settled by a future that asks for the fees. The mistake: the rate in
    /// basis points is divided by a thousand, not ten thousand.
    #[test]
    fn an_addition_is_followed_by_the_let_that_computed_what_it_adds() {
        use ranvier::{AsyncMemo, graph};
        let payments = Signal::new(vec![10_000_u64]);
        let net = AsyncMemo::new({
            let payments = payments.clone();
            move |_: Option<&u64>| {
                let payments = payments.get();
                async move {
                    let (rate_bps, fixed) = (u64::from(rate_service(150).await.unwrap_or(0)), 20);
                    let mut net = 0;
                    for amount in &payments {
                        let fee = (amount * rate_bps).div_ceil(1_000) + fixed;
                        net += amount.saturating_sub(fee);
                    }
                    net
                }
            }
        })
        .labelled("net");
        let _ = net.get();
        graph::run_flights();
        // 1.5 % and 20 pence of £100: 9,830, not 8,480
        assert_eq!(net.get().value_or(0), 8_480);
        let text = trace::explain(&net).unwrap().to_string();
        let at = |needle: &str| text.find(&format!("trace.rs:{}:", line_in_this_file(needle)));
        let adds = at("net += amount.saturating_sub(fee);");
        let fee = at("let fee = (amount * rate_bps).div_ceil(1_000) + fixed;");
        assert!(adds.is_some() && fee.is_some(), "{text}");
        assert_eq!(
            text[adds.unwrap()..fee.unwrap()].matches('\n').count(),
            1,
            "{text}"
        );
    }

    /// A market stall's takings this week, day by day. The mistake: the week starts a day late (`+ 1`), so Monday's
    /// takings are left out; the range the loop goes over is where, not the lines that add up.
    fn stall_week(sales: &Signal<Vec<(u32, u32)>>, today: &Signal<u32>) -> Memo<Vec<String>> {
        let (sales, today) = (sales.clone(), today.clone());
        Memo::new(move |_| {
            let today = today.get();
            let mut lines = Vec::new();
            let mut week = 0;
            let first_day = today - today % 7 + 1;
            for day in first_day..=today {
                let mut taken = 0;
                for (on, pence) in sales.get() {
                    if on == day {
                        taken += pence;
                    }
                }
                week += taken;
                lines.push(format!("day {day}: {taken}p"));
            }
            lines.push(format!("week: {week}p"));
            lines
        })
    }

    #[test]
    fn a_loop_over_a_range_the_body_computed_goes_first_with_the_let_of_its_end() {
        let sales = Signal::new(vec![(7_u32, 250_u32), (8, 120)]);
        let today = Signal::new(8_u32);
        let week = stall_week(&sales, &today);
        // Monday (day 7) left out: 120p, not 370p
        assert_eq!(
            week.get(),
            vec!["day 8: 120p".to_owned(), "week: 120p".to_owned()]
        );
        let explain = trace::explain(&week).unwrap();
        let first: Vec<u32> = explain.body.iter().take(2).map(|l| l.site.line).collect();
        let range = line_in_this_file("for day in first_day..=today {");
        let end = line_in_this_file("let first_day = today - today % 7 + 1;");
        assert_eq!(first, vec![range, end], "{explain}");
    }

    /// An allotment society: giving up a plot lets it to the next on the list and writes a letter (two commands);
    /// letting it works out the new tenant's rent for the months left and posts it (a command carrying the sum).
    #[derive(Clone, Debug, PartialEq)]
    struct Society {
        month: u32,
        ledger: Vec<PlotRent>,
        let_to: Vec<u32>,
        letters: Vec<String>,
    }

    /// A line of the society's ledger.
    #[derive(Clone, Debug, PartialEq)]
    struct PlotRent {
        plot: u32,
        pence: u32,
    }

    #[derive(Debug)]
    enum SocietyMsg {
        GiveUp { plot: u32 },
        Let { plot: u32 },
        Post { plot: u32, pence: u32 },
        Letter { text: String },
    }

    #[ranvier::trace_fn]
    fn society_update(msg: SocietyMsg, society: &Society) -> (Society, Vec<SocietyMsg>) {
        let mut next = society.clone();
        let commands = match msg {
            SocietyMsg::GiveUp { plot } => {
                next.let_to.retain(|p| *p != plot);
                let text = format!("plot {plot} given up");
                vec![SocietyMsg::Let { plot }, SocietyMsg::Letter { text }]
            }
            SocietyMsg::Let { plot } => {
                next.let_to.push(plot);
                // the mistake: the months gone, not the months left (12 - month)
                let months_left = society.month + 1;
                let rent = months_left * 500;
                vec![SocietyMsg::Post { plot, pence: rent }]
            }
            SocietyMsg::Post { plot, pence } => {
                next.ledger.push(PlotRent { plot, pence });
                Vec::new()
            }
            SocietyMsg::Letter { text } => {
                next.letters.push(text);
                Vec::new()
            }
        };
        (next, commands)
    }

    #[test]
    fn a_command_carrying_what_a_middle_sender_worked_out_goes_before_the_first_sender() {
        let society = Mvu::with_commands(
            (
                Society {
                    month: 3,
                    ledger: Vec::new(),
                    let_to: Vec::new(),
                    letters: Vec::new(),
                },
                Vec::new(),
            ),
            society_update,
        );
        let income = society.select(|s: &Society| s.ledger.iter().map(|p| p.pence).sum::<u32>());
        // the treasurer's page shows the income as it changes
        let _page = Effect::new({
            let income = income.clone();
            move || {
                income.get();
            }
        });
        society.dispatch(SocietyMsg::GiveUp { plot: 4 }).unwrap();
        // nine months' rent is 4500
        assert_eq!(income.get(), 2000);
        let explain = trace::explain(&income).unwrap();
        let months = line_in_this_file("let months_left = society.month + 1;");
        // the first sender's lines (it chose to let the plot) come after the line that worked out the rent
        let chose = message_lines(&explain, "GiveUp");
        let lines = finding_lines(&explain);
        let at = |line: u32| lines.iter().position(|l| *l == line);
        assert!(
            at(months).is_some_and(|m| chose.iter().all(|c| at(*c).is_some_and(|c| m < c))),
            "line {months} not quoted before the lines of GiveUp ({chose:?}):\n{explain}"
        );
    }

    #[test]
    fn a_text_made_inside_an_if_brings_the_let_its_condition_reads() {
        // (stylist, day, hour)
        let booked = Signal::new(vec![(1_u32, 2_u32, 10_u32)]);
        // (stylist, hour) asked for day 3
        let asked = Signal::new(vec![(1_u32, 10_u32), (2, 11)]);
        let checks = Memo::new({
            let (booked, asked) = (booked.clone(), asked.clone());
            move |_| {
                let booked = booked.get();
                let mut lines = Vec::new();
                for (stylist, hour) in asked.get() {
                    if !(9..=17).contains(&hour) {
                        lines.push(format!("stylist {stylist}: {hour}:00 is outside our hours"));
                        continue;
                    }
                    let clash = booked
                        .iter()
                        .filter(|b| b.0 == stylist)
                        .any(|b| b.2 == hour); // the mistake: the day is not compared
                    let level = if stylist == 1 { "senior" } else { "junior" };
                    let price = if level == "senior" { 4500 } else { 3200 };
                    let morning = hour < 12;
                    let price = if morning { price - price / 10 } else { price };
                    let deposit = price / 5;
                    if clash {
                        lines.push(format!("stylist {stylist} is booked at {hour}:00"));
                        continue;
                    }
                    lines.push(format!(
                        "stylist {stylist} ({level}) at {hour}:00: accepted, {price}p, deposit {deposit}p"
                    ));
                }
                lines
            }
        });
        assert_eq!(
            checks.get(),
            vec![
                "stylist 1 is booked at 10:00".to_owned(),
                "stylist 2 (junior) at 11:00: accepted, 2880p, deposit 576p".to_owned()
            ]
        );
        let explain = trace::explain(&checks).unwrap();
        let hour =
            line_in_this_file(".any(|b| b.2 == hour); // the mistake: the day is not compared");
        assert!(
            quoted_lines(&explain).contains(&hour),
            "line {hour} not quoted:\n{explain}"
        );
    }
}
