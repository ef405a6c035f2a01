//! The rules of keyed collections, views and selectors, one test each, written as an app would write them (the
//! public API only); compiled with the lib's tests so that the memory checkers run them with the core alone.

use ranvier::collection::{Collection, CollectionError};
use ranvier::{Effect, Memo, Mvu, Selector, Signal, batch, create_root, on_cleanup, trace};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
struct Line {
    fruit: String,
    price: i64,
    quantity: i64,
}

fn line(fruit: &str, price: i64, quantity: i64) -> Line {
    Line {
        fruit: fruit.to_string(),
        price,
        quantity,
    }
}

fn counter() -> Rc<Cell<u32>> {
    Rc::new(Cell::new(0))
}

/// What each row's factory made: a memo of the line's total and an effect reading it, with their run counts.
#[derive(Clone)]
struct LineRow {
    total: Memo<i64>,
    effect: Effect,
    made: u32,
}

/// A collection of lines keyed by fruit; `made` counts factory calls, `log` gets each row's cleanups.
fn lines_collection(
    source: &Signal<Vec<Line>>,
    made: &Rc<Cell<u32>>,
    log: &Rc<RefCell<Vec<String>>>,
) -> Collection<String, Line, LineRow> {
    let (made, log) = (made.clone(), log.clone());
    Collection::keyed(
        source.clone(),
        |line: &Line| line.fruit.clone(),
        move |row| {
            made.set(made.get() + 1);
            let total = Memo::new({
                let row = row.clone();
                move |_| row.with(|line| line.price * line.quantity)
            })
            .labelled("line_total");
            let effect = Effect::new({
                let total = total.clone();
                move || {
                    total.get();
                }
            });
            for n in 1..=2 {
                let (log, key) = (log.clone(), row.key().clone());
                on_cleanup(move || log.borrow_mut().push(format!("{key}:{n}")));
            }
            LineRow {
                total,
                effect,
                made: made.get(),
            }
        },
    )
    .labelled("items")
}

fn three_lines() -> Signal<Vec<Line>> {
    Signal::new(vec![
        line("apple", 120, 3),
        line("pear", 90, 1),
        line("kiwi", 40, 5),
    ])
}

/// The three lines, their collection and the sum of their figures (650).
struct Summed {
    source: Signal<Vec<Line>>,
    made: Rc<Cell<u32>>,
    log: Rc<RefCell<Vec<String>>>,
    rows: Collection<String, Line, LineRow>,
    total: Memo<i64>,
}

fn summed_three_lines() -> Summed {
    let source = three_lines();
    let (made, log) = (counter(), Rc::new(RefCell::new(Vec::new())));
    let rows = lines_collection(&source, &made, &log);
    let total = rows.sum_by(|line| line.price * line.quantity);
    assert_eq!(total.get(), 360 + 90 + 200);
    Summed {
        source,
        made,
        log,
        rows,
        total,
    }
}

#[test]
fn rows_are_reused_when_the_list_is_reordered() {
    let source = three_lines();
    let (made, log) = (counter(), Rc::new(RefCell::new(Vec::new())));
    let rows = lines_collection(&source, &made, &log);
    let before: HashMap<String, u32> = rows
        .keys()
        .into_iter()
        .zip(rows.rows())
        .map(|(key, row)| (key, row.made))
        .collect();
    assert_eq!(made.get(), 3);
    source.update(|lines| lines.reverse());
    assert_eq!(rows.keys(), ["kiwi", "pear", "apple"]);
    assert_eq!(made.get(), 3, "no row was made again");
    for (key, row) in rows.keys().into_iter().zip(rows.rows()) {
        assert_eq!(before[&key], row.made, "the row of {key} is the same row");
        assert_eq!(row.total.runs(), 1, "and its memo did not re-run");
    }
    assert!(log.borrow().is_empty(), "no row was disposed");
}

#[test]
fn appending_makes_only_the_new_rows_and_a_bad_tail_changes_nothing() {
    let Summed {
        source,
        made,
        log,
        rows,
        total,
    } = summed_three_lines();
    // the old keys in place, a changed item among them, two rows after them
    source.update(|lines| {
        lines[1].quantity = 2;
        lines.push(line("fig", 10, 1));
        lines.push(line("lime", 5, 2));
    });
    assert_eq!(rows.error(), None);
    assert_eq!(rows.keys(), ["apple", "pear", "kiwi", "fig", "lime"]);
    assert_eq!(made.get(), 5, "only the two new rows were made");
    let runs: Vec<u32> = rows.rows().iter().map(|row| row.total.runs()).collect();
    assert_eq!(
        runs,
        [1, 2, 1, 1, 1],
        "the changed row re-ran, the others did not"
    );
    assert_eq!(total.get(), 650 + 90 + 10 + 10);
    // a tail holding a key the list has, or a key twice, is refused as a whole
    for (bad, first, second) in [("pear", 1, 6), ("plum", 5, 6)] {
        source.update(|lines| {
            lines[0].quantity = 7;
            lines.push(line("plum", 1, 1));
            lines.push(line(bad, 1, 1));
        });
        assert_eq!(
            rows.error(),
            Some(CollectionError::DuplicateKey {
                collection: "items".into(),
                key: bad.into(),
                first,
                second
            })
        );
        assert_eq!(
            rows.keys(),
            ["apple", "pear", "kiwi", "fig", "lime"],
            "nothing changed"
        );
        assert_eq!(total.get(), 760, "and the views did not move");
        assert_eq!(made.get(), 5);
        source.update(|lines| {
            lines.truncate(5);
            lines[0].quantity = 3;
        });
        assert_eq!(rows.error(), None);
    }
    // the refused tails made no row and left no key behind: the same keys append now
    source.update(|lines| lines.push(line("plum", 2, 1)));
    assert_eq!(
        rows.keys(),
        ["apple", "pear", "kiwi", "fig", "lime", "plum"]
    );
    assert_eq!(total.get(), 762);
    assert!(log.borrow().is_empty(), "no row was disposed");
}

/// The words `a` and `b` as a collection whose factory panics on `boom`, each row's cleanup logging its key, and
/// each row's output its length.
#[allow(clippy::type_complexity)]
fn words_refusing_boom() -> (
    Signal<Vec<&'static str>>,
    Collection<&'static str, &'static str, usize>,
    Rc<RefCell<Vec<&'static str>>>,
) {
    let source = Signal::new(vec!["a", "b"]);
    let cleanups: Rc<RefCell<Vec<&str>>> = Rc::default();
    let rows = Collection::keyed(source.clone(), |s: &&str| *s, {
        let cleanups = cleanups.clone();
        move |row| {
            let (cleanups, key) = (cleanups.clone(), *row.key());
            on_cleanup(move || cleanups.borrow_mut().push(key));
            assert_ne!(key, "boom", "no row for boom");
            key.len()
        }
    })
    .labelled("words");
    (source, rows, cleanups)
}

#[test]
fn a_factory_panicking_on_an_appended_row_leaves_the_list_as_it_was() {
    let (source, rows, cleanups) = words_refusing_boom();
    assert_eq!(rows.keys(), ["a", "b"]);
    source.set(vec!["a", "b", "c", "boom"]);
    assert!(
        matches!(rows.error(), Some(CollectionError::FactoryPanicked { key, .. }) if key == "boom"),
        "{:?}",
        rows.error()
    );
    assert_eq!(rows.keys(), ["a", "b"], "the rows are as they were");
    assert_eq!(
        *cleanups.borrow(),
        ["boom", "c"],
        "the rows made for the refused tail were disposed"
    );
    // no key of the refused tail is left behind: the same tail without `boom` appends
    source.set(vec!["a", "b", "c"]);
    assert_eq!(rows.error(), None);
    assert_eq!(rows.keys(), ["a", "b", "c"]);
}

#[test]
fn a_changed_item_re_runs_only_its_own_row() {
    let source = three_lines();
    let (made, log) = (counter(), Rc::new(RefCell::new(Vec::new())));
    let rows = lines_collection(&source, &made, &log);
    let all = rows.rows();
    assert!(
        all.iter()
            .all(|row| row.effect.runs() == 1 && row.total.runs() == 1)
    );
    source.update(|lines| lines[1].quantity = 4);
    assert_eq!(
        all[1].total.get(),
        360,
        "the row's memo, read alone, sees the new item"
    );
    for (key, row) in rows.keys().into_iter().zip(&all) {
        let expected = if key == "pear" { 2 } else { 1 };
        assert_eq!(row.total.runs(), expected, "{key}'s memo");
        assert_eq!(row.effect.runs(), expected, "{key}'s effect");
    }
    assert_eq!(made.get(), 3);
}

#[test]
fn a_removed_row_is_disposed_with_its_cleanups_last_registered_first() {
    let source = three_lines();
    let (made, log) = (counter(), Rc::new(RefCell::new(Vec::new())));
    let rows = lines_collection(&source, &made, &log);
    let pear = rows.row(&"pear".to_string()).unwrap();
    source.update(|lines| lines.retain(|line| line.fruit != "pear"));
    assert_eq!(rows.keys(), ["apple", "kiwi"]);
    assert_eq!(*log.borrow(), ["pear:2", "pear:1"]);
    assert!(pear.effect.is_disposed(), "the row's effect went with it");
    assert_eq!(rows.row(&"pear".to_string()).map(|r| r.made), None);
    // A key that comes back gets a new row.
    source.update(|lines| lines.push(line("pear", 90, 1)));
    assert_eq!(rows.len(), 3, "rows are made when the collection is read");
    assert_eq!(made.get(), 4);
}

#[test]
fn duplicate_keys_are_refused_with_an_error_naming_the_key() {
    let Summed {
        source,
        made,
        log,
        rows,
        total,
    } = summed_three_lines();
    source.update(|lines| {
        lines.push(line("kiwi", 1, 1));
        lines[0].quantity = 100;
    });
    let error = rows.error().expect("the list is refused");
    assert_eq!(
        error,
        CollectionError::DuplicateKey {
            collection: "items".into(),
            key: "kiwi".into(),
            first: 2,
            second: 3
        }
    );
    assert!(
        error
            .to_string()
            .contains("`kiwi` twice (at positions 2 and 3)"),
        "{error}"
    );
    assert_eq!(
        rows.keys(),
        ["apple", "pear", "kiwi"],
        "the rows are as they were"
    );
    assert_eq!(total.get(), 650, "and so are the views");
    assert_eq!(made.get(), 3);
    assert!(log.borrow().is_empty());
    source.update(|lines| {
        lines.pop();
    });
    assert_eq!(rows.error(), None, "a valid list clears the error");
    assert_eq!(total.get(), 120 * 100 + 90 + 200);
}

#[test]
fn views_follow_changes_and_never_see_a_mixed_list() {
    let source = Signal::new((0..10).map(|i| (i, i * 10)).collect::<Vec<(i32, i32)>>());
    let rows = Collection::keyed(source.clone(), |item: &(i32, i32)| item.0, |_| ());
    let sum = rows.sum_by(|item| item.1);
    let mapped = rows.map(|item| item.1);
    let big = rows.count_by(|item| item.1 >= 50);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let _watch = Effect::new({
        let (sum, mapped, big, seen) = (sum.clone(), mapped.clone(), big.clone(), seen.clone());
        move || {
            let from_map: i32 = mapped.get().iter().sum();
            let big_from_map = mapped.get().iter().filter(|v| **v >= 50).count();
            seen.borrow_mut()
                .push((sum.get(), from_map, big.get(), big_from_map));
        }
    });
    // Two rows move in one write, in opposite directions; then rows come, go and move.
    source.update(|list| {
        list[0].1 = 95;
        list[9].1 = 5;
    });
    source.update(|list| {
        list.remove(3);
        list.push((10, 1000));
        list.swap(0, 5);
    });
    batch(|| {
        source.update(|list| list[1].1 += 1);
        source.update(|list| list[2].1 += 1);
    });
    let seen = seen.borrow();
    assert_eq!(seen.len(), 4, "the effect ran once per write: {seen:?}");
    for (sum, from_map, big, big_from_map) in seen.iter() {
        assert_eq!(sum, from_map, "the sum and the map agree in every run");
        assert_eq!(
            big, big_from_map,
            "the count and the map agree in every run"
        );
    }
    let fresh: i32 = source.peek().iter().map(|item| item.1).sum();
    assert_eq!(sum.get(), fresh);
}

#[test]
fn one_changed_row_of_a_thousand_costs_its_own_figures() {
    let source = Signal::new((0..1000).map(|i| (i, 1)).collect::<Vec<(i32, i64)>>());
    let rows = Collection::keyed(source.clone(), |item: &(i32, i64)| item.0, |_| ());
    let calls = counter();
    let sum = rows.sum_by({
        let calls = calls.clone();
        move |item| {
            calls.set(calls.get() + 1);
            item.1
        }
    });
    assert_eq!(sum.get(), 1000);
    assert_eq!(calls.get(), 1000, "the first run reads every row");
    source.update(|list| list[500].1 = 11);
    assert_eq!(sum.get(), 1010);
    assert_eq!(
        calls.get(),
        1002,
        "a change reads the old and the new item of one row"
    );
}

#[test]
fn list_views_keep_their_value_when_the_change_does_not_touch_them() {
    let source = Signal::new(vec![("a", 3), ("b", 1), ("c", 2), ("d", 7)]);
    let rows = Collection::keyed(source.clone(), |item: &(&str, i32)| item.0, |_| ());
    let big = rows.filter(|item| item.1 > 2);
    let sorted = rows.sort_by(|item| item.1);
    let first = rows.take(2);
    let rest = rows.skip(3);
    let groups = rows.group_by(|item| item.1 % 2);
    let product = rows.fold(
        1_i64,
        |acc, item| *acc *= i64::from(item.1),
        |acc, item| *acc /= i64::from(item.1),
    );
    let keys = big.keys().get();
    assert_eq!(&*keys, ["a", "d"]);
    assert_eq!(&*sorted.get(), ["b", "c", "a", "d"]);
    assert_eq!(&*first.get(), ["a", "b"]);
    assert_eq!(&*rest.get(), ["d"]);
    assert_eq!(*groups.get(), [(0, 1), (1, 3)].into_iter().collect());
    assert_eq!(product.get(), 42);
    let first_list = first.get();
    // "d" stays in the filter and keeps its sort position: the key lists are the very same.
    source.update(|list| list[3].1 = 9);
    assert!(
        Rc::ptr_eq(&keys, &big.keys().get()),
        "no row entered or left the filter"
    );
    assert!(
        Rc::ptr_eq(&first_list, &first.get()),
        "take ignores item changes"
    );
    assert_eq!(&*sorted.get(), ["b", "c", "a", "d"]);
    assert_eq!(product.get(), 54);
    // "b" enters the filter and moves to the end of the order.
    source.update(|list| list[1].1 = 10);
    assert_eq!(&*big.keys().get(), ["a", "b", "d"]);
    assert_eq!(&*sorted.get(), ["c", "a", "d", "b"]);
    assert_eq!(*groups.get(), [(0, 2), (1, 2)].into_iter().collect());
    source.update(|list| {
        list.remove(0);
    });
    assert_eq!(&*first.get(), ["b", "c"]);
    assert_eq!(big.count().get(), 2);
    assert_eq!(product.get(), 180);
}

#[test]
fn a_selector_wakes_exactly_the_old_and_the_new_row() {
    let selected = Signal::new(Some(3_u32));
    let selector = Selector::new(selected.clone());
    let source = Signal::new((0..50_u32).collect::<Vec<_>>());
    let runs: Rc<RefCell<HashMap<u32, Vec<bool>>>> = Rc::default();
    let rows = Collection::keyed(source.clone(), |n: &u32| *n, {
        let (selector, runs) = (selector.clone(), runs.clone());
        move |row| {
            let (selector, runs, key) = (selector.clone(), runs.clone(), *row.key());
            Effect::new(move || {
                let on = selector.is_selected(&key);
                runs.borrow_mut().entry(key).or_default().push(on);
            })
        }
    });
    assert_eq!(rows.len(), 50);
    assert_eq!(runs.borrow()[&3], [true]);
    assert_eq!(runs.borrow()[&40], [false]);
    runs.borrow_mut().clear();
    selected.set(Some(40));
    let woken = |runs: &HashMap<u32, Vec<bool>>| {
        let mut all: Vec<_> = runs.iter().map(|(k, v)| (*k, v.clone())).collect();
        all.sort();
        all
    };
    assert_eq!(woken(&runs.borrow()), [(3, vec![false]), (40, vec![true])]);
    runs.borrow_mut().clear();
    selected.set(None);
    assert_eq!(woken(&runs.borrow()), [(40, vec![false])]);
}

#[test]
fn rows_made_inside_a_message_s_flush_work() {
    #[derive(Debug)]
    enum Msg {
        Add(&'static str),
        Drop(&'static str),
    }
    let cart = Mvu::new(
        Vec::<&'static str>::new(),
        |msg, items: &Vec<&'static str>| {
            let mut next = items.clone();
            match msg {
                Msg::Add(item) => next.push(item),
                Msg::Drop(item) => next.retain(|i| *i != item),
            }
            next
        },
    );
    let log = Rc::new(RefCell::new(Vec::new()));
    let rows = Collection::keyed(cart.select(|items| items.clone()), |item: &&str| *item, {
        let log = log.clone();
        move |row| {
            let (log, key) = (log.clone(), *row.key());
            Effect::new({
                let log = log.clone();
                move || log.borrow_mut().push(format!("run {key}"))
            });
            on_cleanup(move || log.borrow_mut().push(format!("gone {key}")));
        }
    });
    // The collection is read by an effect, so a message's flush re-keys it.
    let _shown = Effect::new({
        let (rows, log) = (rows.clone(), log.clone());
        move || {
            let keys = rows.keys();
            log.borrow_mut().push(format!("shown {}", keys.join(",")));
        }
    });
    cart.dispatch(Msg::Add("tea")).unwrap();
    cart.dispatch(Msg::Add("cake")).unwrap();
    cart.dispatch(Msg::Drop("tea")).unwrap();
    assert_eq!(
        *log.borrow(),
        [
            "shown ",
            "run tea",
            "shown tea",
            "run cake",
            "shown tea,cake",
            "gone tea",
            "shown cake"
        ]
    );
}

#[test]
fn disposing_the_collection_disposes_every_row() {
    let source = three_lines();
    let (made, log) = (counter(), Rc::new(RefCell::new(Vec::new())));
    let ((rows, total), scope) = create_root(|_| {
        let rows = lines_collection(&source, &made, &log);
        let total = rows.sum_by(|line| line.price);
        (rows, total)
    });
    let all = rows.rows();
    assert_eq!(total.get(), 250);
    scope.dispose();
    assert_eq!(
        *log.borrow(),
        ["kiwi:2", "kiwi:1", "pear:2", "pear:1", "apple:2", "apple:1"]
    );
    assert!(all.iter().all(|row| row.effect.is_disposed()));
    source.update(|lines| lines[0].price = 1);
    assert_eq!(made.get(), 3);
    assert!(all.iter().all(|row| row.total.runs() == 1));
    // `dispose` on the collection itself does the same.
    let rows = lines_collection(&source, &made, &log);
    assert_eq!(rows.len(), 3);
    log.borrow_mut().clear();
    rows.dispose();
    assert_eq!(log.borrow().len(), 6);
}

#[test]
fn an_index_keyed_collection_reuses_rows_by_position() {
    let words = Signal::new(vec!["a", "bb", "ccc"]);
    let made = counter();
    let rows = Collection::indexed(words.clone(), {
        let made = made.clone();
        move |row| {
            made.set(made.get() + 1);
            let row = row.clone();
            Memo::new(move |_| row.with(|word| word.len()))
        }
    });
    let lengths = || rows.rows().iter().map(Memo::get).collect::<Vec<_>>();
    assert_eq!(lengths(), [1, 2, 3]);
    words.set(vec!["dddd", "bb"]);
    assert_eq!(lengths(), [4, 2]);
    assert_eq!(made.get(), 3, "rows 0 and 1 were kept, row 2 disposed");
    assert_eq!(
        rows.rows()[1].runs(),
        1,
        "an unchanged position does not re-run"
    );
    words.set(vec!["dddd", "bb", "e", "ff"]);
    assert_eq!(lengths(), [4, 2, 1, 2]);
    assert_eq!(made.get(), 5);
}

#[test]
fn row_nodes_are_named_by_collection_key_and_label() {
    if !trace::TRACED {
        return;
    }
    let source = three_lines();
    let (made, log) = (counter(), Rc::new(RefCell::new(Vec::new())));
    let rows = lines_collection(&source, &made, &log);
    let apple = rows.row(&"apple".to_string()).unwrap();
    assert_eq!(
        trace::lookup("items[apple]/line_total").unwrap(),
        apple.total.id()
    );
    assert_eq!(
        trace::lookup("items[apple]/Effect").unwrap(),
        apple.effect.id()
    );
    assert!(
        trace::lookup("items[apple]").is_ok(),
        "the row's item signal"
    );
    assert_eq!(trace::lookup("items").unwrap(), rows.id());
    // `explain` of a row's figure names the row and its item.
    source.update(|lines| lines[0].quantity = 5);
    assert_eq!(apple.total.get(), 600);
    let explained = trace::explain(apple.total.clone()).unwrap().to_string();
    assert!(explained.contains("items[apple]/line_total"), "{explained}");
    assert!(explained.contains("items[apple]"), "{explained}");
    // A key holding path characters is escaped.
    let odd = Signal::new(vec!["a/b".to_string()]);
    let odd_rows = Collection::keyed(
        odd,
        |s: &String| s.clone(),
        |row| {
            let row = row.clone();
            Memo::new(move |_| row.get()).labelled("copy")
        },
    )
    .labelled("odd");
    let copy = odd_rows.rows()[0].clone();
    assert_eq!(trace::lookup(r"odd[a\/b]/copy").unwrap(), copy.id());
}

#[test]
fn a_collection_holding_its_list_is_written_row_by_row() {
    let calls = counter();
    let made = counter();
    let rows = Collection::new(
        (0..1000).map(|i| (i, 1_i64)).collect(),
        |item: &(i32, i64)| item.0,
        {
            let made = made.clone();
            move |row| {
                made.set(made.get() + 1);
                let row = row.clone();
                Memo::new(move |_| row.with(|item| item.1 * 2))
            }
        },
    )
    .unwrap()
    .labelled("stock");
    let sum = rows.sum_by({
        let calls = calls.clone();
        move |item| {
            calls.set(calls.get() + 1);
            item.1
        }
    });
    let doubled: Vec<Memo<i64>> = rows.rows();
    assert!(doubled.iter().all(|memo| memo.get() == 2));
    let seen = Rc::new(RefCell::new(Vec::new()));
    let _watch = Effect::new({
        let (sum, row, seen) = (sum.clone(), doubled[7].clone(), seen.clone());
        move || seen.borrow_mut().push((row.get(), sum.get()))
    });
    assert_eq!(calls.get(), 1000);
    rows.update(&7, |item| item.1 = 11).unwrap();
    assert_eq!(
        *seen.borrow(),
        [(2, 1000), (22, 1010)],
        "the row and the sum move in one flush"
    );
    assert_eq!(
        calls.get(),
        1002,
        "the sum read the old and the new item of one row"
    );
    assert!(
        doubled
            .iter()
            .enumerate()
            .all(|(i, memo)| memo.get() == 2 && memo.runs() == 1 || i == 7),
        "no other row re-ran"
    );
    rows.push((1000, 5)).unwrap();
    rows.remove(&0).unwrap();
    assert_eq!(sum.get(), 1014);
    assert_eq!(rows.len(), 1000);
    assert_eq!(made.get(), 1001);
    assert_eq!(
        rows.update(&0, |item| item.1 = 2).unwrap_err().to_string(),
        "stock has no row with the key `0`; nothing was changed"
    );
    assert!(matches!(
        rows.update(&1, |item| item.0 = 2),
        Err(CollectionError::KeyChanged { .. })
    ));
    assert!(matches!(
        rows.push((1, 0)),
        Err(CollectionError::DuplicateKey {
            first: 0,
            second: 1000,
            ..
        })
    ));
    assert!(Collection::new(vec![1, 1], |n: &i32| *n, |_| ()).is_err());
    let derived = Collection::keyed(Signal::new(vec![1]), |n: &i32| *n, |_| ());
    assert!(matches!(
        derived.push(2),
        Err(CollectionError::FollowsSource { .. })
    ));
    assert_eq!(sum.get(), 1014, "refused writes changed nothing");
}

#[test]
fn a_panicking_factory_refuses_the_list_and_leaves_the_rows_as_they_were() {
    let (source, rows, cleanups) = words_refusing_boom();
    let count = rows.count_by(|_| true);
    assert_eq!(count.get(), 2);
    source.set(vec!["c", "boom", "b"]);
    let error = rows.error().expect("refused");
    assert!(
        matches!(&error, CollectionError::FactoryPanicked { key, .. } if key == "boom"),
        "{error}"
    );
    assert!(error.to_string().contains("no row for boom"), "{error}");
    assert_eq!(rows.keys(), ["a", "b"], "the rows are as they were");
    assert_eq!(count.get(), 2);
    assert_eq!(
        *cleanups.borrow(),
        ["boom", "c"],
        "the rows made for the refused list were disposed"
    );
    source.set(vec!["c", "b"]);
    assert_eq!(rows.error(), None);
    assert_eq!(rows.keys(), ["c", "b"]);
    assert_eq!(*cleanups.borrow(), ["boom", "c", "a"]);
}

/// A row factory as an app writes it: `#[node]` names its memo `line_total` (the `let` is what names it).
#[allow(clippy::let_and_return)]
#[ranvier::node]
fn line_row(row: &ranvier::collection::Row<String, Line>) -> Memo<i64> {
    let row = row.clone();
    let line_total = Memo::new(move |_| row.with(|line| line.price * line.quantity));
    line_total
}

/// `#[node]` names the collection after its `let`.
#[allow(clippy::let_and_return)]
#[ranvier::node]
fn basket(source: Signal<Vec<Line>>) -> Collection<String, Line, Memo<i64>> {
    let lines = Collection::keyed(source, |line: &Line| line.fruit.clone(), line_row);
    lines
}

#[test]
fn node_names_a_collection_and_its_rows_nodes() {
    let lines = basket(three_lines());
    let kiwi = lines.row(&"kiwi".to_string()).unwrap();
    assert_eq!(kiwi.get(), 200);
    if !trace::TRACED {
        return;
    }
    assert_eq!(trace::lookup("lines").unwrap(), lines.id());
    assert_eq!(trace::lookup("lines[kiwi]/line_total").unwrap(), kiwi.id());
}

#[test]
fn explain_of_a_sum_names_the_rows_whose_change_moved_it() {
    if !trace::TRACED {
        return;
    }
    let Summed { source, total, .. } = summed_three_lines();
    source.update(|lines| lines[1].quantity = 4);
    assert_eq!(total.get(), 360 + 360 + 200);
    let explained = trace::explain(total.clone()).unwrap().to_string();
    assert!(explained.contains("items[pear]"), "{explained}");
    assert!(
        !explained.contains("items[apple]") && !explained.contains("items[kiwi]"),
        "only the row that changed: {explained}"
    );
    // The next change names its own row, not the last one's.
    source.update(|lines| lines[2].quantity = 1);
    assert_eq!(total.get(), 360 + 360 + 40);
    let explained = trace::explain(total.clone()).unwrap().to_string();
    assert!(
        explained.contains("items[kiwi]") && !explained.contains("items[pear]"),
        "{explained}"
    );
}
