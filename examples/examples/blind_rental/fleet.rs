//! The fleet: when a car is due for its service, and the fleet list the desk reads (each car, where it stands,
//! whether it is out, its kilometres, and how many cars each branch has free).

use super::model::{Car, Msg, Office};
use ranvier::{Memo, Mvu, node};
use std::collections::BTreeMap;

/// Kilometres between two services.
pub const SERVICE_KM: u32 = 15_000;

/// Whether a car is due for its service.
pub type ServiceDue = fn(&Car) -> bool;

/// Whether `car` has run a service interval since its last service.
#[ranvier::trace_fn]
pub fn service_due(car: &Car) -> bool {
    car.odometer - car.serviced_km >= SERVICE_KM
}

/// The fleet list: every car with where it stands and whether it is out, and the cars free at each branch.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn fleet_list(office: &Mvu<Office, Msg>, due: ServiceDue) -> Memo<Vec<String>> {
    let office = office.clone();
    let fleet = Memo::new(move |_| {
        let office = office.model();
        let mut lines = Vec::new();
        let mut free: BTreeMap<&str, u32> = BTreeMap::new();
        for car in &office.cars {
            let mut line = format!(
                "{} {} ({}) at {}: ",
                car.reg,
                car.class.name(),
                car.fuel.name(),
                car.branch
            );
            match car.on_hire.and_then(|no| office.booking(no)) {
                Some(booking) => line.push_str(&format!(
                    "out on #{} until day {}",
                    booking.no, booking.return_day
                )),
                None => {
                    line.push_str("available");
                    *free.entry(car.branch.as_str()).or_insert(0) += 1;
                }
            }
            line.push_str(&format!(", {} km", car.odometer));
            if due(car) {
                line.push_str("; due for service");
            }
            lines.push(line);
        }
        let free: Vec<String> = free
            .iter()
            .map(|(branch, n)| format!("{branch} {n}"))
            .collect();
        lines.push(format!("free: {}", free.join(", ")));
        lines
    });
    fleet
}

/// Copies of the fleet's rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Car;
    use super::SERVICE_KM;

    /// Whether `car` has run a service interval since its last service.
    #[ranvier::trace_fn]
    pub fn service_due(car: &Car) -> bool {
        // BUG(service_due)
        car.odometer >= SERVICE_KM
    }
}
