//! The floor: one row per machine (a keyed collection), each with its status line, and the views the counter
//! reads.

use ranvier::Memo;
use ranvier::collection::{Collection, Row};

use super::model::Machine;

pub type Floor = Collection<u32, Machine, Memo<String>>;

/// What a row's status is made by (the row, the shop's clock in minutes).
pub type StatusRow = fn(&Row<u32, Machine>, &Memo<u32>) -> Memo<String>;

/// One row per machine, keyed by its id.
pub fn floor(machines: Memo<Vec<Machine>>, minutes: &Memo<u32>, status: StatusRow) -> Floor {
    let minutes = minutes.clone();
    Collection::keyed(
        machines,
        |machine: &Machine| machine.id,
        move |row| status(row, &minutes),
    )
}

/// A machine's line on the floor board: out of order, what it runs and for how long yet, or free.
pub fn status(row: &Row<u32, Machine>, minutes: &Memo<u32>) -> Memo<String> {
    let (row, minutes) = (row.clone(), minutes.clone());
    Memo::new(move |_| {
        let now = minutes.get();
        row.with(|machine| {
            let kilos = machine.capacity_grams / 1000;
            if machine.faulted {
                return format!("{} ({kilos} kg): out of order", machine.name);
            }
            match machine.order {
                Some(order) => {
                    let left = machine.until.saturating_sub(now);
                    format!(
                        "{} ({kilos} kg): {} #{order}, {left} min left",
                        machine.name,
                        machine.kind.doing()
                    )
                }
                None if machine.cycles == 0 => format!("{} ({kilos} kg): free", machine.name),
                None => format!(
                    "{} ({kilos} kg): free for {} min, {} cycles",
                    machine.name,
                    now.saturating_sub(machine.until),
                    machine.cycles
                ),
            }
        })
    })
    .labelled("status")
}

/// How many machines stand free (working and empty).
pub fn free_count(floor: &Floor) -> Memo<usize> {
    floor
        .filter(|machine| !machine.faulted && machine.order.is_none())
        .count()
}

/// The board: washers first, then dryers, each by number.
pub fn board(floor: &Floor) -> Memo<Vec<String>> {
    let order = floor.sort_by(|machine| (machine.kind, machine.id));
    let floor = floor.clone();
    Memo::new(move |_| {
        order
            .get()
            .iter()
            .filter_map(|id| floor.row(id))
            .map(|status| status.get())
            .collect()
    })
}

pub mod slipped {
    use ranvier::Memo;
    use ranvier::collection::Row;

    use super::super::model::Machine;
    use super::Floor;

    pub fn status(row: &Row<u32, Machine>, minutes: &Memo<u32>) -> Memo<String> {
        let (row, minutes) = (row.clone(), minutes.clone());
        Memo::new(move |_| {
            let now = minutes.get();
            row.with(|machine| {
                let kilos = machine.capacity_grams / 1000;
                if machine.faulted {
                    return format!("{} ({kilos} kg): out of order", machine.name);
                }
                match machine.order {
                    Some(order) => {
                        // BUG(minutes_left)
                        let left = machine.until.saturating_sub(machine.started);
                        format!(
                            "{} ({kilos} kg): {} #{order}, {left} min left",
                            machine.name,
                            machine.kind.doing()
                        )
                    }
                    None if machine.cycles == 0 => format!("{} ({kilos} kg): free", machine.name),
                    None => format!(
                        "{} ({kilos} kg): free for {} min, {} cycles",
                        machine.name,
                        now.saturating_sub(machine.until),
                        machine.cycles
                    ),
                }
            })
        })
        .labelled("status")
    }

    pub fn free_count(floor: &Floor) -> Memo<usize> {
        floor
            // BUG(free_inverted)
            .filter(|machine| !machine.faulted && machine.order.is_some())
            .count()
    }
}
