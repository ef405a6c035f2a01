//! What the school asks services over the network, as async memos: the grade each pupil's marks would get on the
//! exam board's grade boundaries, and whether the parents have read the letters sent home (the parents' portal).

use std::collections::BTreeMap;

use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::marks;
use super::model::{Msg, Term};
use super::remote;

/// Each pupil's percentage in each subject they have marks in (the marks that count over the marks the work was out
/// of), by pupil and by subject.
fn subject_percents(term: &Term) -> Vec<(String, String, u32)> {
    let mut totals: BTreeMap<(String, String), (u32, u32)> = BTreeMap::new();
    for mark in &term.marks {
        let Some(work) = term.assignment(mark.assignment) else {
            continue;
        };
        let (scored, max) = totals
            .entry((mark.pupil.clone(), work.subject.clone()))
            .or_default();
        *scored += mark.scored;
        *max += work.max;
    }
    totals
        .into_iter()
        .map(|((pupil, subject), (scored, max))| (pupil, subject, marks::percent(scored, max)))
        .collect()
}

/// The letters sent home: who to, about whom, on which day.
fn letters_sent(term: &Term) -> Vec<(String, String, u32)> {
    term.letters
        .iter()
        .map(|l| (l.to.clone(), l.pupil.clone(), l.day))
        .collect()
}

/// The services' memos.
pub struct Services {
    /// The grade the exam board's boundaries give each pupil in each subject.
    pub predicted: AsyncMemo<Vec<String>>,
    /// Whether the parents have read each letter.
    pub portal: AsyncMemo<Vec<String>>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(term: &Mvu<Term, Msg>, slip: Slip) -> Services {
    let predicted = match slip {
        Slip::BoundaryUnit => slipped::predicted(term),
        _ => predicted(term),
    };
    let portal = match slip {
        Slip::LetterReadSwapped => slipped::portal(term),
        _ => portal(term),
    };
    Services { predicted, portal }
}

/// Each pupil's grade in each subject they have marks in: the exam board gives its grade boundaries as marks on its
/// own paper (out of the paper's total), so each boundary is turned into a percentage before the pupil's percentage
/// is held against it; a subject whose boundaries are not out yet is listed as such.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn predicted(term: &Mvu<Term, Msg>) -> AsyncMemo<Vec<String>> {
    let percents = term.select(subject_percents);
    let predicted = AsyncMemo::try_new(move |_| {
        let percents = percents.get();
        async move {
            let mut lines = Vec::new();
            for (pupil, subject, percent) in percents {
                let line = match remote::boundaries(&subject).await {
                    Ok(paper) => {
                        let grade = paper
                            .grades
                            .iter()
                            .find(|(_, marks)| percent * paper.total >= marks * 100)
                            .map_or("U", |g| g.0);
                        format!("{pupil}: {subject} {percent}% {grade}")
                    }
                    Err(_) => format!("{pupil}: {subject} {percent}%, boundaries not out yet"),
                };
                lines.push(line);
            }
            Ok::<_, String>(lines)
        }
    });
    predicted
}

/// Each letter sent home, in the order sent: read when the parent has logged in to the portal since the day it was
/// sent (that day included), not yet read otherwise, and sent by post to a parent without a portal account.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn portal(term: &Mvu<Term, Msg>) -> AsyncMemo<Vec<String>> {
    let letters = term.select(letters_sent);
    let portal = AsyncMemo::try_new(move |_| {
        let letters = letters.get();
        async move {
            let mut lines = Vec::new();
            for (to, pupil, sent) in letters {
                let line = match remote::last_login(&to).await {
                    Ok(seen) if seen >= sent => format!("{to} ({pupil}), day {sent}: read"),
                    Ok(seen) => {
                        format!("{to} ({pupil}), day {sent}: not read (last in on day {seen})")
                    }
                    Err(_) => format!("{to} ({pupil}), day {sent}: no account, sent by post"),
                };
                lines.push(line);
            }
            Ok::<_, String>(lines)
        }
    });
    portal
}

/// The services' memos with a mistake.
mod slipped {
    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::model::{Msg, Term};
    use super::super::remote;
    use super::{letters_sent, subject_percents};

    /// Each pupil's grade in each subject.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn predicted(term: &Mvu<Term, Msg>) -> AsyncMemo<Vec<String>> {
        let percents = term.select(subject_percents);
        let predicted = AsyncMemo::try_new(move |_| {
            let percents = percents.get();
            async move {
                let mut lines = Vec::new();
                for (pupil, subject, percent) in percents {
                    let line = match remote::boundaries(&subject).await {
                        Ok(paper) => {
                            let grade = paper
                                .grades
                                .iter()
                                // BUG(boundary_unit)
                                .find(|(_, marks)| percent >= *marks)
                                .map_or("U", |g| g.0);
                            format!("{pupil}: {subject} {percent}% {grade}")
                        }
                        Err(_) => format!("{pupil}: {subject} {percent}%, boundaries not out yet"),
                    };
                    lines.push(line);
                }
                Ok::<_, String>(lines)
            }
        });
        predicted
    }

    /// Whether the parents read each letter.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn portal(term: &Mvu<Term, Msg>) -> AsyncMemo<Vec<String>> {
        let letters = term.select(letters_sent);
        let portal = AsyncMemo::try_new(move |_| {
            let letters = letters.get();
            async move {
                let mut lines = Vec::new();
                for (to, pupil, sent) in letters {
                    let line = match remote::last_login(&to).await {
                        // BUG(letter_read_swapped)
                        Ok(seen) if sent >= seen => format!("{to} ({pupil}), day {sent}: read"),
                        Ok(seen) => {
                            format!("{to} ({pupil}), day {sent}: not read (last in on day {seen})")
                        }
                        Err(_) => format!("{to} ({pupil}), day {sent}: no account, sent by post"),
                    };
                    lines.push(line);
                }
                Ok::<_, String>(lines)
            }
        });
        portal
    }
}
