//! The shelves: one row per donation (a keyed collection), each with the label the volunteers print, and the lists
//! the packing tables work from.

use super::model::{Category, Donation, kg};
use ranvier::Memo;
use ranvier::collection::{Collection, Row};

/// What each row of the shelves holds: its label.
pub type ShelfRow = (&'static str, Memo<String>);

/// The shelves: each donation's row and its label.
pub type Shelves = Collection<u32, Donation, ShelfRow>;

/// A label says "use soon" this many days before the best-before day.
pub const USE_SOON: u32 = 3;

/// A lot under this many grams goes in the loose box.
pub const LOOSE_GRAMS: u32 = 500;

/// The shelves over `donations`, each row labelled by `label` against `today`.
pub fn shelves(
    donations: Memo<Vec<Donation>>,
    today: Memo<u32>,
    label: fn(&Row<u32, Donation>, &Memo<u32>) -> ShelfRow,
) -> Shelves {
    Collection::keyed(
        donations,
        |d: &Donation| d.id,
        move |row| label(row, &today),
    )
}

/// The label on a donation's shelf: what it is, who gave it, and how long it keeps.
pub fn shelf_label(row: &Row<u32, Donation>, today: &Memo<u32>) -> (&'static str, Memo<String>) {
    let (row, today) = (row.clone(), today.clone());
    let label = Memo::new(move |_| {
        let today = today.get();
        row.with(|d| {
            let left = d.best_before.saturating_sub(today);
            let when = match left {
                0 => "use today".to_owned(),
                1 => "use by tomorrow".to_owned(),
                n if n <= USE_SOON => format!("use soon, {n} days left"),
                n => format!("{n} days left"),
            };
            format!(
                "#{} {} {} from {}: {when}",
                d.id,
                kg(d.grams),
                d.category.name(),
                d.donor
            )
        })
    })
    .labelled("label");
    ("label", label)
}

/// The labels in the order the packers should take the food: what goes off first, first.
pub fn use_first(shelves: &Shelves) -> Memo<Vec<String>> {
    let order = shelves.sort_by(|d| (d.best_before, d.id));
    let shelves = shelves.clone();
    Memo::new(move |_| {
        order
            .get()
            .iter()
            .filter_map(|id| shelves.row(id))
            .map(|(_, label)| label.get())
            .collect()
    })
}

/// How many lots of fresh food are on the shelves.
pub fn fresh_lots(shelves: &Shelves) -> Memo<usize> {
    shelves.count_by(|d| d.category == Category::Fresh)
}

/// How many lots are small enough for the loose box.
pub fn loose_lots(shelves: &Shelves) -> Memo<usize> {
    shelves.filter(|d| d.grams < LOOSE_GRAMS).count()
}

/// The shelves as first written.
pub mod slipped {
    use super::{Donation, Memo, Row, Shelves, USE_SOON, kg};

    /// [`super::shelf_label`].
    pub fn shelf_label(
        row: &Row<u32, Donation>,
        today: &Memo<u32>,
    ) -> (&'static str, Memo<String>) {
        let (row, today) = (row.clone(), today.clone());
        let label = Memo::new(move |_| {
            let today = today.get();
            row.with(|d| {
                // BUG(label_days_left)
                let left = d.received.saturating_sub(today);
                let when = match left {
                    0 => "use today".to_owned(),
                    1 => "use by tomorrow".to_owned(),
                    n if n <= USE_SOON => format!("use soon, {n} days left"),
                    n => format!("{n} days left"),
                };
                format!(
                    "#{} {} {} from {}: {when}",
                    d.id,
                    kg(d.grams),
                    d.category.name(),
                    d.donor
                )
            })
        })
        .labelled("label");
        ("label", label)
    }

    /// [`super::use_first`].
    pub fn use_first(shelves: &Shelves) -> Memo<Vec<String>> {
        // BUG(use_first_order)
        let order = shelves.sort_by(|d| (d.grams, d.id));
        let shelves = shelves.clone();
        Memo::new(move |_| {
            order
                .get()
                .iter()
                .filter_map(|id| shelves.row(id))
                .map(|(_, label)| label.get())
                .collect()
        })
    }
}
