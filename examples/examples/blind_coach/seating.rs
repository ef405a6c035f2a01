//! Seating: the boarding list of the next departure, and who is waiting for a seat.

use ranvier::{Memo, Mvu, node};

use super::model::{Booking, Coach, Msg};

/// The coach leaves the depot at 07:30.
pub const DEPOT_MINUTE: u32 = 7 * 60 + 30;

/// `HH:MM` of a minute of the day.
pub fn clock(minute: u32) -> String {
    format!("{:02}:{:02}", minute / 60 % 24, minute % 60)
}

/// The boarding list of the next tour to leave (today or later): each pickup's time and stop, in route order, and
/// how many board the coach in all.
#[node]
pub fn boarding(coach: &Mvu<Coach, Msg>) -> Memo<Vec<String>> {
    let boarding = coach.select(|coach| {
        let mut next = None;
        for tour in &coach.tours {
            if tour.depart_day < coach.day {
                continue;
            }
            match next {
                Some((day, _)) if day <= tour.depart_day => {}
                _ => next = Some((tour.depart_day, tour)),
            }
        }
        let Some((day, tour)) = next else {
            return Vec::new();
        };
        let mut stops = tour.pickups.clone();
        stops.sort_by_key(|p| p.minute);
        let mut lines = vec![format!(
            "day {day}: {} ({} aboard)",
            tour.code,
            tour.seats_taken()
        )];
        for pickup in &stops {
            let at = DEPOT_MINUTE + pickup.minute;
            lines.push(format!("{} {}", clock(at), pickup.stop));
        }
        lines
    });
    boarding
}

/// Passengers waiting for a seat, on every tour; `party` counts a waiting booking.
#[node]
pub fn waiting(coach: &Mvu<Coach, Msg>, party: fn(&Booking) -> u32) -> Memo<u32> {
    let waiting = coach.select(move |coach| {
        coach
            .tours
            .iter()
            .flat_map(|tour| tour.waiting.iter())
            .map(party)
            .sum()
    });
    waiting
}

pub mod slipped {
    use super::*;

    /// `boarding`, as first written.
    #[node]
    pub fn boarding(coach: &Mvu<Coach, Msg>) -> Memo<Vec<String>> {
        let boarding = coach.select(|coach| {
            let mut next = None;
            for tour in &coach.tours {
                // BUG(boarding_today)
                if tour.depart_day <= coach.day {
                    continue;
                }
                match next {
                    Some((day, _)) if day <= tour.depart_day => {}
                    _ => next = Some((tour.depart_day, tour)),
                }
            }
            let Some((day, tour)) = next else {
                return Vec::new();
            };
            let mut stops = tour.pickups.clone();
            stops.sort_by_key(|p| p.minute);
            let mut lines = vec![format!(
                "day {day}: {} ({} aboard)",
                tour.code,
                tour.seats_taken()
            )];
            for pickup in &stops {
                let at = DEPOT_MINUTE + pickup.minute;
                lines.push(format!("{} {}", clock(at), pickup.stop));
            }
            lines
        });
        boarding
    }
}
