//! The orchard's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the office's
//! `Mvu`, the rules, the blocks' collection and the services.

use super::blocks::{self, Blocks, RowFactory};
use super::model::{Bin, Block, Grade, Msg, Orchard, Variety, pounds};
use super::remote::{Lab, Market};
use super::services;
use super::storage;
use super::tariffs::{self, BIN_RATE};
use super::update::{self, Helpers};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the orchard to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    StockValue,
    ResidueChecks,
    YieldPerTree,
    PickingOrder,
    BinGrade,
    HailDowngrade,
    TopUp,
    VolumeDiscount,
    PearStore,
    WeekHours,
    BoardToday,
    ClosingDay,
}

/// What an agent sees of the orchard.
#[expose]
pub struct OrchardOffice {
    #[expose(messages)]
    pub farm: Mvu<Orchard, Msg>,
    /// The day of the year.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The day's picking board: each block in its window, with the bins picked in it today and by whom.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// The week's payroll: each picker's bins, hours and pay.
    #[expose]
    #[node]
    pub payroll: Memo<Vec<String>>,
    /// Each cold-store room: its temperature, the bins it holds by grade, and whether the fruit in it keeps.
    #[expose]
    #[node]
    pub cold_store: Memo<Vec<String>>,
    /// The week's sales, order by order, and their total.
    #[expose]
    #[node]
    pub sales: Memo<Vec<String>>,
    /// The blocks, each with its yield so far.
    #[expose]
    #[node]
    pub blocks: Blocks,
    /// Each block's yield line, in block order.
    #[expose]
    #[node]
    pub yields: Memo<Vec<String>>,
    /// The blocks in the order their picking windows close.
    #[expose]
    #[node]
    pub picking_order: Memo<Vec<String>>,
    /// The blocks frost or hail marked.
    #[expose]
    #[node]
    pub damaged_blocks: Memo<Vec<String>>,
    /// How many blocks have had a bin picked.
    #[expose]
    #[node]
    pub blocks_started: Memo<usize>,
    /// What the office has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The fruit in store at the wholesale market's prices.
    #[expose]
    #[node]
    pub stock_value: AsyncMemo<Vec<String>>,
    /// The residue lab's results for the blocks picked.
    #[expose]
    #[node]
    pub residue_checks: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::ClosingDay => Helpers {
                in_window: super::model::slipped::in_window,
                ..correct
            },
            Slip::BinGrade => Helpers {
                pick: update::slipped::pick,
                ..correct
            },
            Slip::HailDowngrade => Helpers {
                weather: update::slipped::weather,
                ..correct
            },
            Slip::VolumeDiscount => Helpers {
                price: tariffs::slipped::price,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the orchard with `slip`.
#[node]
pub fn orchard_office(slip: Slip) -> OrchardOffice {
    let helpers = slip.helpers();
    let farm = Mvu::with_commands(
        (Orchard::default(), update::opening()),
        move |msg, farm: &Orchard| update::update(msg, farm, &helpers),
    );
    let today = farm.select(|farm| format!("day {}", farm.today));

    let board = match slip {
        Slip::BoardToday => slipped::picking_board(&farm, helpers.in_window),
        _ => picking_board(&farm, helpers.in_window),
    };
    let pay: fn(u32, u32) -> u32 = match slip {
        Slip::TopUp => tariffs::slipped::picker_pay,
        _ => tariffs::picker_pay,
    };
    let payroll = match slip {
        Slip::WeekHours => slipped::payroll(&farm, pay),
        _ => payroll(&farm, pay),
    };
    let limits: fn(Variety) -> (f64, f64) = match slip {
        Slip::PearStore => storage::slipped::limits,
        _ => storage::limits,
    };
    let cold_store = cold_store(&farm, limits);
    let sales = farm.select(|farm| {
        let mut lines: Vec<String> = farm
            .sales
            .iter()
            .map(|sale| {
                format!(
                    "order {}, {}: {} kg {} in {} trays, {}",
                    sale.order,
                    sale.customer.name(),
                    sale.kg,
                    sale.grade.name(),
                    sale.trays,
                    pounds(sale.pence)
                )
            })
            .collect();
        let total: u32 = farm.sales.iter().map(|sale| sale.pence).sum();
        lines.push(format!("total: {}", pounds(total)));
        lines
    });

    let block_list = farm.select(|farm| farm.blocks.clone());
    let row: RowFactory = match slip {
        Slip::YieldPerTree => blocks::slipped::block_row,
        _ => blocks::block_row,
    };
    let collection = blocks::blocks(&block_list, row);
    let yields = blocks::yield_sheet(&collection, &block_list);
    let order = match slip {
        Slip::PickingOrder => blocks::slipped::by_closing(&collection),
        _ => blocks::by_closing(&collection),
    };
    let picking_order = blocks::closing_list(&block_list, &order);
    let damaged_blocks = blocks::names(&block_list, &blocks::damaged(&collection).keys());
    let blocks_started = blocks::started(&collection);
    let notices = farm.select(|farm| farm.notices.clone());

    let bins = farm.select(|farm| farm.bins.clone());
    let market = Rc::new(Market::default());
    let lab = Rc::new(Lab::default());
    let stock_value = match slip {
        Slip::StockValue => services::slipped::stock_value(&bins, market),
        _ => services::stock_value(&bins, market),
    };
    let residue_checks = match slip {
        Slip::ResidueChecks => services::slipped::residue_checks(&bins, &block_list, lab),
        _ => services::residue_checks(&bins, &block_list, lab),
    };

    OrchardOffice {
        farm,
        today,
        board,
        payroll,
        cold_store,
        sales,
        blocks: collection,
        yields,
        picking_order,
        damaged_blocks,
        blocks_started,
        notices,
        stock_value,
        residue_checks,
    }
}

/// The day's picking board: every block in its window today, with the bins picked in it today, their weight and the
/// pickers.
fn picking_board(
    farm: &Mvu<Orchard, Msg>,
    in_window: fn(&Block, u32) -> bool,
) -> Memo<Vec<String>> {
    let farm = farm.clone();
    Memo::new(move |_| {
        let day = farm.model();
        let today = day.today;
        let mut lines = Vec::new();
        for block in day.blocks.iter().filter(|b| in_window(b, today)) {
            let mut bins = 0;
            let mut kg = 0;
            let mut pickers: Vec<&str> = Vec::new();
            for bin in day
                .bins
                .iter()
                .filter(|bin| bin.block == block.id && bin.day == today)
            {
                bins += 1;
                kg += bin.kg;
                if !pickers.contains(&bin.picker.as_str()) {
                    pickers.push(&bin.picker);
                }
            }
            let line = match bins {
                0 => format!("{}: no bins today", block.name),
                1 => format!("{}: 1 bin today, {kg} kg ({})", block.name, pickers[0]),
                n => format!(
                    "{}: {n} bins today, {kg} kg ({})",
                    block.name,
                    pickers.join(", ")
                ),
            };
            lines.push(line);
        }
        if lines.is_empty() {
            lines.push(format!("day {today}: no block is in its window"));
        }
        lines
    })
}

/// `1 bin`, `3 bins`.
fn bins_text(n: u32) -> String {
    if n == 1 {
        "1 bin".to_owned()
    } else {
        format!("{n} bins")
    }
}

/// The week's payroll: each picker's bins and hours, paid by the bin or topped up to the minimum wage.
fn payroll(farm: &Mvu<Orchard, Msg>, pay: fn(u32, u32) -> u32) -> Memo<Vec<String>> {
    let farm = farm.clone();
    Memo::new(move |_| {
        let week = farm.model();
        let mut lines = Vec::new();
        let mut total = 0;
        for picker in &week.pickers {
            let mut hours = 0;
            for shift in week.shifts.iter().filter(|s| &s.picker == picker) {
                hours += shift.hours;
            }
            let bins = week.bins.iter().filter(|b| &b.picker == picker).count() as u32;
            if bins == 0 && hours == 0 {
                lines.push(format!("{picker}: no work this week"));
                continue;
            }
            let earned = pay(bins, hours);
            let how = if earned > bins * BIN_RATE {
                "topped up to the minimum wage"
            } else {
                "by the bin"
            };
            total += earned;
            lines.push(format!(
                "{picker}: {} in {hours} h, {} ({how})",
                bins_text(bins),
                pounds(earned)
            ));
        }
        lines.push(format!("payroll: {}", pounds(total)));
        lines
    })
}

/// Each room: its temperature, the bins in it by grade, and a warning for fruit it is too warm or too cold for.
fn cold_store(farm: &Mvu<Orchard, Msg>, limits: fn(Variety) -> (f64, f64)) -> Memo<Vec<String>> {
    let farm = farm.clone();
    Memo::new(move |_| {
        let store = farm.model();
        let mut lines = Vec::new();
        for room in &store.rooms {
            let held: Vec<&Bin> = store
                .bins
                .iter()
                .filter(|b| b.room == Some(room.no) && !b.packed)
                .collect();
            let mut line = format!(
                "room {}, {:.1} °C: {} of {} bins",
                room.no,
                room.temp,
                held.len(),
                room.capacity
            );
            for grade in [Grade::ClassOne, Grade::ClassTwo, Grade::Juice] {
                let n = held.iter().filter(|b| b.grade == grade).count();
                if n > 0 {
                    line.push_str(&format!(", {n} {}", grade.name()));
                }
            }
            let mut varieties: Vec<Variety> = held.iter().map(|b| b.variety).collect();
            varieties.sort();
            varieties.dedup();
            for variety in varieties {
                let (low, high) = limits(variety);
                let fruit = variety.plural();
                if room.temp > high {
                    line.push_str(&format!(
                        "; too warm for {fruit} ({low:.1} to {high:.1} °C)"
                    ));
                } else if room.temp < low {
                    line.push_str(&format!(
                        "; too cold for {fruit} ({low:.1} to {high:.1} °C)"
                    ));
                }
            }
            lines.push(line);
        }
        lines
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Block, Msg, Orchard, pounds};
    use super::super::tariffs::BIN_RATE;
    use super::bins_text;
    use ranvier::{Memo, Mvu};

    /// [`super::picking_board`].
    pub fn picking_board(
        farm: &Mvu<Orchard, Msg>,
        in_window: fn(&Block, u32) -> bool,
    ) -> Memo<Vec<String>> {
        let farm = farm.clone();
        Memo::new(move |_| {
            let day = farm.model();
            let today = day.today;
            let mut lines = Vec::new();
            for block in day.blocks.iter().filter(|b| in_window(b, today)) {
                let mut bins = 0;
                let mut kg = 0;
                let mut pickers: Vec<&str> = Vec::new();
                // BUG(board_today)
                for bin in day.bins.iter().filter(|bin| bin.block == block.id) {
                    bins += 1;
                    kg += bin.kg;
                    if !pickers.contains(&bin.picker.as_str()) {
                        pickers.push(&bin.picker);
                    }
                }
                let line = match bins {
                    0 => format!("{}: no bins today", block.name),
                    1 => format!("{}: 1 bin today, {kg} kg ({})", block.name, pickers[0]),
                    n => format!(
                        "{}: {n} bins today, {kg} kg ({})",
                        block.name,
                        pickers.join(", ")
                    ),
                };
                lines.push(line);
            }
            if lines.is_empty() {
                lines.push(format!("day {today}: no block is in its window"));
            }
            lines
        })
    }

    /// [`super::payroll`].
    pub fn payroll(farm: &Mvu<Orchard, Msg>, pay: fn(u32, u32) -> u32) -> Memo<Vec<String>> {
        let farm = farm.clone();
        Memo::new(move |_| {
            let week = farm.model();
            let mut lines = Vec::new();
            let mut total = 0;
            // BUG(week_hours)
            let mut hours = 0;
            for picker in &week.pickers {
                for shift in week.shifts.iter().filter(|s| &s.picker == picker) {
                    hours += shift.hours;
                }
                let bins = week.bins.iter().filter(|b| &b.picker == picker).count() as u32;
                if bins == 0 && hours == 0 {
                    lines.push(format!("{picker}: no work this week"));
                    continue;
                }
                let earned = pay(bins, hours);
                let how = if earned > bins * BIN_RATE {
                    "topped up to the minimum wage"
                } else {
                    "by the bin"
                };
                total += earned;
                lines.push(format!(
                    "{picker}: {} in {hours} h, {} ({how})",
                    bins_text(bins),
                    pounds(earned)
                ));
            }
            lines.push(format!("payroll: {}", pounds(total)));
            lines
        })
    }
}
