//! The blocks of trees as a keyed collection: one row per block with its yield so far, and the views the office
//! reads (the blocks in the order their windows close, the blocks the weather marked, how many have been started).

use super::model::{Block, Damage, Variety};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The blocks, keyed by id; each row has its line of yield.
pub type Blocks = Collection<u32, Block, (&'static str, Memo<String>)>;

/// What a row factory makes.
pub type RowFactory = fn(&Row<u32, Block>) -> (&'static str, Memo<String>);

/// The collection over the farm's blocks, each row made by `row`.
pub fn blocks(list: &Memo<Vec<Block>>, row: RowFactory) -> Blocks {
    Collection::keyed(list.clone(), |block: &Block| block.id, row)
}

fn kind(variety: Variety) -> &'static str {
    variety.plural()
}

/// A block's row: `Cox (apples), 240 trees: 2 bins, 600 kg, 2.5 kg a tree`.
#[node]
pub fn block_row(row: &Row<u32, Block>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let yields = Memo::new(move |_| {
        row.with(|block| {
            let mut line = format!(
                "{} ({}), {} trees: ",
                block.name,
                kind(block.variety),
                block.trees
            );
            match block.bins {
                0 => line.push_str("not started"),
                1 => line.push_str("1 bin"),
                n => line.push_str(&format!("{n} bins")),
            }
            if block.bins > 0 {
                let per_tree = f64::from(block.picked_kg) / f64::from(block.trees);
                line.push_str(&format!(
                    ", {} kg, {per_tree:.1} kg a tree",
                    block.picked_kg
                ));
            }
            if let Some(damage) = block.damage {
                line.push_str(match damage {
                    Damage::Frost => "; frosted",
                    Damage::Hail => "; hail-marked",
                });
            }
            line
        })
    });
    ("yield", yields)
}

/// The blocks in the order their picking windows close, the soonest first.
pub fn by_closing(blocks: &Blocks) -> Memo<Rc<[u32]>> {
    blocks.sort_by(|block| (block.closes, block.id))
}

/// The blocks the weather marked.
pub fn damaged(blocks: &Blocks) -> Filter<u32> {
    blocks.filter(|block| block.damage.is_some())
}

/// How many blocks have had a bin picked.
pub fn started(blocks: &Blocks) -> Memo<usize> {
    blocks.count_by(|block| block.bins > 0)
}

/// The rows' lines, in block order.
pub fn yield_sheet(blocks: &Blocks, list: &Memo<Vec<Block>>) -> Memo<Vec<String>> {
    let (blocks, list) = (blocks.clone(), list.clone());
    Memo::new(move |_| {
        let ids: Vec<u32> = list.with(|list| list.iter().map(|b| b.id).collect());
        ids.iter()
            .filter_map(|id| blocks.row(id))
            .map(|(_, yields)| yields.get())
            .collect()
    })
}

/// `name: picked until day N` for the blocks `order` names, in that order.
pub fn closing_list(list: &Memo<Vec<Block>>, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, order) = (list.clone(), order.clone());
    Memo::new(move |_| {
        let order = order.get();
        list.with(|list| {
            order
                .iter()
                .filter_map(|id| list.iter().find(|b| b.id == *id))
                .map(|b| format!("{}: picked until day {}", b.name, b.closes))
                .collect()
        })
    })
}

/// The names of the blocks `keys` names, in block order.
pub fn names(list: &Memo<Vec<Block>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, keys) = (list.clone(), keys.clone());
    Memo::new(move |_| {
        let keys = keys.get();
        list.with(|list| {
            list.iter()
                .filter(|b| keys.contains(&b.id))
                .map(|b| b.name.clone())
                .collect()
        })
    })
}

/// Copies of the collection's code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Block, Damage};
    use super::{Blocks, kind};
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::rc::Rc;

    /// [`super::block_row`].
    #[node]
    pub fn block_row(row: &Row<u32, Block>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let yields = Memo::new(move |_| {
            row.with(|block| {
                let mut line = format!(
                    "{} ({}), {} trees: ",
                    block.name,
                    kind(block.variety),
                    block.trees
                );
                match block.bins {
                    0 => line.push_str("not started"),
                    1 => line.push_str("1 bin"),
                    n => line.push_str(&format!("{n} bins")),
                }
                if block.bins > 0 {
                    // BUG(yield_per_tree)
                    let per_tree = f64::from(block.picked_kg) / f64::from(block.rows);
                    line.push_str(&format!(
                        ", {} kg, {per_tree:.1} kg a tree",
                        block.picked_kg
                    ));
                }
                if let Some(damage) = block.damage {
                    line.push_str(match damage {
                        Damage::Frost => "; frosted",
                        Damage::Hail => "; hail-marked",
                    });
                }
                line
            })
        });
        ("yield", yields)
    }

    /// [`super::by_closing`].
    pub fn by_closing(blocks: &Blocks) -> Memo<Rc<[u32]>> {
        // BUG(picking_order)
        blocks.sort_by(|block| (block.opens, block.id))
    }
}
