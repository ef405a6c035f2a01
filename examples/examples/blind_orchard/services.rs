//! What the farm learns over the network, as async memos: the value of the fruit in the cold store at the wholesale
//! market's prices, and the residue lab's results for the blocks picked.

use super::model::{Bin, Block, Grade, Variety, pounds};
use super::remote::{Lab, Market};
use ranvier::{AsyncMemo, Memo};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The kilograms in store, by fruit and grade.
fn in_store(bins: &[Bin]) -> BTreeMap<(Variety, Grade), u32> {
    let mut stock = BTreeMap::new();
    for bin in bins.iter().filter(|b| b.room.is_some() && !b.packed) {
        *stock.entry((bin.variety, bin.grade)).or_insert(0) += bin.kg;
    }
    stock
}

/// The fruit in store, each fruit and grade at the market's price a tonne.
pub fn stock_value(bins: &Memo<Vec<Bin>>, market: Rc<Market>) -> AsyncMemo<Vec<String>> {
    let bins = bins.clone();
    AsyncMemo::new(move |_| {
        let stock = bins.with(|bins| in_store(bins));
        let market = market.clone();
        async move {
            let mut lines = Vec::new();
            let mut total = 0;
            for ((variety, grade), kg) in stock {
                match market.quote(variety, grade).await {
                    Ok(per_tonne) => {
                        let value = kg * per_tonne / 1_000;
                        total += value;
                        lines.push(format!(
                            "{} {}: {kg} kg, {}",
                            variety.plural(),
                            grade.name(),
                            pounds(value)
                        ));
                    }
                    Err(why) => lines.push(format!(
                        "{} {}: {kg} kg, {why}",
                        variety.plural(),
                        grade.name()
                    )),
                }
            }
            lines.push(format!("in store: {}", pounds(total)));
            lines
        }
    })
}

/// The lab's residue result for each block with bins picked.
pub fn residue_checks(
    bins: &Memo<Vec<Bin>>,
    blocks: &Memo<Vec<Block>>,
    lab: Rc<Lab>,
) -> AsyncMemo<Vec<String>> {
    let (bins, blocks) = (bins.clone(), blocks.clone());
    AsyncMemo::new(move |_| {
        let picked: Vec<u32> = bins.with(|bins| bins.iter().map(|b| b.block).collect());
        let names: Vec<(u32, String)> = blocks.with(|blocks| {
            blocks
                .iter()
                .filter(|b| picked.contains(&b.id))
                .map(|b| (b.id, b.name.clone()))
                .collect()
        });
        let lab = lab.clone();
        async move {
            let mut lines = Vec::new();
            for (id, name) in names {
                match lab.result(id).await {
                    Ok(residue) if residue.mg_per_kg > Lab::LIMIT => lines.push(format!(
                        "{name}: {:.2} mg/kg, over the {:.2} limit: hold its bins",
                        residue.mg_per_kg,
                        Lab::LIMIT
                    )),
                    Ok(residue) => {
                        lines.push(format!("{name}: {:.2} mg/kg, passed", residue.mg_per_kg));
                    }
                    Err(why) => lines.push(format!("{name}: not tested, {why}")),
                }
            }
            lines
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Bin, Block, pounds};
    use super::super::remote::{Lab, Market};
    use super::in_store;
    use ranvier::{AsyncMemo, Memo};
    use std::rc::Rc;

    /// [`super::stock_value`].
    pub fn stock_value(bins: &Memo<Vec<Bin>>, market: Rc<Market>) -> AsyncMemo<Vec<String>> {
        let bins = bins.clone();
        AsyncMemo::new(move |_| {
            let stock = bins.with(|bins| in_store(bins));
            let market = market.clone();
            async move {
                let mut lines = Vec::new();
                let mut total = 0;
                for ((variety, grade), kg) in stock {
                    match market.quote(variety, grade).await {
                        Ok(per_tonne) => {
                            // BUG(stock_value)
                            let value = kg / 1_000 * per_tonne;
                            total += value;
                            lines.push(format!(
                                "{} {}: {kg} kg, {}",
                                variety.plural(),
                                grade.name(),
                                pounds(value)
                            ));
                        }
                        Err(why) => lines.push(format!(
                            "{} {}: {kg} kg, {why}",
                            variety.plural(),
                            grade.name()
                        )),
                    }
                }
                lines.push(format!("in store: {}", pounds(total)));
                lines
            }
        })
    }

    /// [`super::residue_checks`].
    pub fn residue_checks(
        bins: &Memo<Vec<Bin>>,
        blocks: &Memo<Vec<Block>>,
        lab: Rc<Lab>,
    ) -> AsyncMemo<Vec<String>> {
        let (bins, blocks) = (bins.clone(), blocks.clone());
        AsyncMemo::new(move |_| {
            let picked: Vec<u32> = bins.with(|bins| bins.iter().map(|b| b.block).collect());
            let names: Vec<(u32, String)> = blocks.with(|blocks| {
                blocks
                    .iter()
                    .filter(|b| picked.contains(&b.id))
                    .map(|b| (b.id, b.name.clone()))
                    .collect()
            });
            let lab = lab.clone();
            async move {
                let mut lines = Vec::new();
                for (id, name) in names {
                    match lab.result(id).await {
                        Ok(residue) if residue.mg_per_kg > Lab::LIMIT => lines.push(format!(
                            "{name}: {:.2} mg/kg, over the {:.2} limit: hold its bins",
                            residue.mg_per_kg,
                            Lab::LIMIT
                        )),
                        Ok(residue) => {
                            lines.push(format!("{name}: {:.2} mg/kg, passed", residue.mg_per_kg));
                        }
                        // BUG(residue_checks)
                        Err(why) => return vec![format!("{name}: not tested, {why}")],
                    }
                }
                lines
            }
        })
    }
}
