//! The site's plots as a keyed collection (`ranvier::collection`): one row per plot, each row with its year's rent as
//! a row memo, and views over the rows: the plots under notice to quit, the vacant plots, and the plot list (largest
//! plots first).

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::rc::Rc;

use ranvier::collection::{Collection, Filter, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{Msg, Society, date, money};

/// One row of the plot list.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct PlotRow {
    /// The plot's number.
    pub id: u32,
    /// Its size, in square metres.
    pub size: u32,
    /// Its tenant, if let.
    pub tenant: Option<String>,
    /// The tenant pays the concession rate.
    pub concession: bool,
    /// A year's rent per square metre, in pence.
    pub rent_per_m2: i64,
    /// What the concession takes off, in percent.
    pub concession_off: i64,
    /// The tenant's warnings.
    pub warnings: u32,
    /// Under notice to quit until this day.
    pub notice_until: Option<u32>,
}

/// The plot list's rows, in the order of the books.
pub fn rows_of(society: &Society) -> Vec<PlotRow> {
    society
        .plots
        .iter()
        .map(|plot| PlotRow {
            id: plot.id,
            size: plot.size,
            tenant: plot.tenant.clone(),
            concession: plot
                .tenant
                .as_deref()
                .is_some_and(|t| society.concession(t)),
            rent_per_m2: society.rates.rent_per_m2,
            concession_off: society.rates.concession_off,
            warnings: plot.warnings,
            notice_until: plot.notice_until,
        })
        .collect()
}

/// The plot list and its views.
pub struct Plots {
    /// One row per plot; its memo is the plot's rent for a year, in pence.
    pub plots: Collection<u32, PlotRow, Memo<i64>>,
    /// How many plots are under notice to quit.
    pub under_notice: Memo<usize>,
    /// The vacant plots.
    pub vacant: Memo<Vec<String>>,
    /// Every plot, largest first: its tenant, rent and standing.
    pub plot_list: Memo<Vec<String>>,
}

/// The plot list over `society`'s plots, as `slip` says.
#[node]
pub fn plots(society: &Mvu<Society, Msg>, slip: Slip) -> Plots {
    let rows = society.select(rows_of);
    let plots = match slip {
        Slip::ConcessionRent => Collection::keyed(rows, |row: &PlotRow| row.id, slipped::rent),
        _ => Collection::keyed(rows, |row: &PlotRow| row.id, rent),
    };
    let under_notice = plots.count_by(|row| row.notice_until.is_some());
    let vacant_rows = match slip {
        Slip::VacantFilter => slipped::vacant_rows(&plots),
        _ => vacant_rows(&plots),
    };
    let vacant = vacant(&plots, vacant_rows);
    let order = plots.sort_by(|row| (Reverse(row.size), row.id));
    let plot_list = plot_list(&plots, order);
    Plots {
        plots,
        under_notice,
        vacant,
        plot_list,
    }
}

/// A plot's rent for a year: its size at the rate per square metre, less the concession for a tenant who has it.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn rent(row: &Row<u32, PlotRow>) -> Memo<i64> {
    let row = row.clone();
    let rent = Memo::new(move |_| {
        row.with(|plot| {
            let full = i64::from(plot.size) * plot.rent_per_m2;
            if !plot.concession {
                return full;
            }
            full - full * plot.concession_off / 100
        })
    });
    rent
}

/// The plots nobody rents.
pub fn vacant_rows(plots: &Collection<u32, PlotRow, Memo<i64>>) -> Filter<u32> {
    plots.filter(|row| row.tenant.is_none())
}

/// The vacant plots, in the order of the books: number, size and rent.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn vacant(plots: &Collection<u32, PlotRow, Memo<i64>>, rows: Filter<u32>) -> Memo<Vec<String>> {
    let plots = plots.clone();
    let keys = rows.keys();
    let vacant = Memo::new(move |_| {
        let keys = keys.get();
        let mut lines = BTreeMap::new();
        plots.for_each(|id, plot, rent| {
            lines.insert(
                *id,
                format!("plot {id}, {} m², {} a year", plot.size, money(rent.get())),
            );
        });
        keys.iter()
            .filter_map(|id| lines.remove(id))
            .collect::<Vec<_>>()
    });
    vacant
}

/// Every plot in `order`: number, size, tenant, rent for a year, and warnings or notice to quit.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn plot_list(
    plots: &Collection<u32, PlotRow, Memo<i64>>,
    order: Memo<Rc<[u32]>>,
) -> Memo<Vec<String>> {
    let plots = plots.clone();
    let plot_list = Memo::new(move |_| {
        let order = order.get();
        let mut lines = BTreeMap::new();
        plots.for_each(|id, plot, rent| {
            let tenant = plot.tenant.as_deref().unwrap_or("vacant");
            let standing = match (plot.notice_until, plot.warnings) {
                (Some(until), _) => format!(", notice to quit by {}", date(until)),
                (None, 0) => String::new(),
                (None, 1) => ", 1 warning".to_owned(),
                (None, n) => format!(", {n} warnings"),
            };
            lines.insert(
                *id,
                format!(
                    "plot {id}, {} m², {tenant}: {} a year{standing}",
                    plot.size,
                    money(rent.get())
                ),
            );
        });
        order
            .iter()
            .filter_map(|id| lines.remove(id))
            .collect::<Vec<_>>()
    });
    plot_list
}

/// The plot list with a mistake.
mod slipped {
    use ranvier::collection::{Collection, Filter, Row};
    use ranvier::{Memo, node};

    use super::PlotRow;

    /// A plot's rent for a year.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn rent(row: &Row<u32, PlotRow>) -> Memo<i64> {
        let row = row.clone();
        let rent = Memo::new(move |_| {
            row.with(|plot| {
                let full = i64::from(plot.size) * plot.rent_per_m2;
                if !plot.concession {
                    return full;
                }
                // BUG(concession_rent)
                full * plot.concession_off / 100
            })
        });
        rent
    }

    /// The plots nobody rents.
    pub fn vacant_rows(plots: &Collection<u32, PlotRow, Memo<i64>>) -> Filter<u32> {
        // BUG(vacant_filter)
        plots.filter(|row| row.tenant.is_some())
    }
}
