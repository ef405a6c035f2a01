//! What the resort reads from the network, as async memos: tomorrow's wind outlook for each running lift (the
//! weather office) and the slope report (the lifts' states here, the snow depth from the runs' sensors).

use super::model::{Grade, LiftState, Msg, Resort};
use super::remote;
use ranvier::{AsyncMemo, Mvu, node};

/// A run as the slope report needs it.
struct RunLine {
    name: &'static str,
    grade: Grade,
    open: bool,
}

fn grade(grade: Grade) -> &'static str {
    match grade {
        Grade::Green => "green",
        Grade::Blue => "blue",
        Grade::Red => "red",
        Grade::Black => "black",
    }
}

/// The lifts' names and wind limits, for the lifts not stopped for the mechanics.
fn forecast_lifts(resort: &Resort) -> Vec<(String, u32)> {
    resort
        .lifts
        .iter()
        .filter(|lift| lift.state != LiftState::Maintenance)
        .map(|lift| (lift.name.clone(), lift.wind_limit))
        .collect()
}

/// Tomorrow's outlook: for each lift, whether the forecast gusts will stop it.
#[node]
pub fn outlook(resort: &Mvu<Resort, Msg>) -> AsyncMemo<Vec<String>> {
    let resort = resort.clone();
    AsyncMemo::new(move |_| {
        let (day, lifts) = resort.with_model(|r| (r.day, forecast_lifts(r)));
        let tomorrow = day + 1;
        async move {
            let mut lines = vec![format!("Day {tomorrow}")];
            for (name, limit) in lifts {
                let line = match remote::gust_forecast(&name, tomorrow).await {
                    Ok(gust) if gust >= limit => format!("{name}: likely closed ({gust} km/h)"),
                    Ok(gust) => format!("{name}: running ({gust} km/h)"),
                    Err(why) => format!("{name}: {why}"),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// The slope report: each run open while its lift runs, with the snow depth its sensor reads.
#[node]
pub fn slope_report(resort: &Mvu<Resort, Msg>) -> AsyncMemo<Vec<String>> {
    let resort = resort.clone();
    AsyncMemo::new(move |_| {
        let runs: Vec<RunLine> = resort.with_model(|r| {
            r.runs
                .iter()
                .map(|run| RunLine {
                    name: run.name,
                    grade: run.grade,
                    open: r.lift(run.lift).is_some_and(|l| l.state == LiftState::Open),
                })
                .collect()
        });
        async move {
            let mut report = Vec::new();
            for run in runs {
                let depth = remote::snow_depth(run.name)
                    .await
                    .map_or_else(|_| "no reading".to_owned(), |cm| format!("{cm} cm"));
                let state = if run.open { "open" } else { "closed" };
                report.push(format!(
                    "{} ({}): {state}, {depth}",
                    run.name,
                    grade(run.grade)
                ));
            }
            report
        }
    })
}

/// The async memos with a mistake each.
pub mod slipped {
    use super::super::model::{LiftState, Msg, Resort};
    use super::super::remote;
    use super::{RunLine, forecast_lifts, grade};
    use ranvier::{AsyncMemo, Mvu, node};

    /// [`super::outlook`], with a mistake.
    #[node]
    pub fn outlook(resort: &Mvu<Resort, Msg>) -> AsyncMemo<Vec<String>> {
        let resort = resort.clone();
        AsyncMemo::new(move |_| {
            let (day, lifts) = resort.with_model(|r| (r.day, forecast_lifts(r)));
            let tomorrow = day + 1;
            async move {
                let mut lines = vec![format!("Day {tomorrow}")];
                for (name, limit) in lifts {
                    // BUG(outlook_today)
                    let line = match remote::gust_forecast(&name, day).await {
                        Ok(gust) if gust >= limit => format!("{name}: likely closed ({gust} km/h)"),
                        Ok(gust) => format!("{name}: running ({gust} km/h)"),
                        Err(why) => format!("{name}: {why}"),
                    };
                    lines.push(line);
                }
                lines
            }
        })
    }

    /// [`super::slope_report`], with a mistake.
    #[node]
    pub fn slope_report(resort: &Mvu<Resort, Msg>) -> AsyncMemo<Vec<String>> {
        let resort = resort.clone();
        AsyncMemo::new(move |_| {
            let runs: Vec<RunLine> = resort.with_model(|r| {
                r.runs
                    .iter()
                    .map(|run| RunLine {
                        name: run.name,
                        grade: run.grade,
                        open: r.lift(run.lift).is_some_and(|l| l.state == LiftState::Open),
                    })
                    .collect()
            });
            async move {
                let mut report = Vec::new();
                for run in runs {
                    // BUG(snow_no_reading)
                    let depth = format!("{} cm", remote::snow_depth(run.name).await.unwrap_or(0));
                    let state = if run.open { "open" } else { "closed" };
                    report.push(format!(
                        "{} ({}): {state}, {depth}",
                        run.name,
                        grade(run.grade)
                    ));
                }
                report
            }
        })
    }
}
