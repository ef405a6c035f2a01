//! What the school asks other services: test slots for the pupils awaiting a practical test, and what the fleet's
//! fuel has cost. Both are async memos: pending while the service answers.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Memo, Mvu, node};

use super::model::{Msg, School};
use super::remote;

/// Days of notice the test centre needs before a practical test.
pub const TEST_NOTICE_DAYS: u32 = 10;

/// Millilitres in an imperial gallon.
pub const ML_PER_GALLON: u64 = 4_546;

/// A practical-test slot offered to a pupil.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct TestSlot {
    /// The pupil.
    pub pupil: String,
    /// The day of the test.
    pub day: u32,
}

/// Offers each pupil awaiting a practical test a slot, in turn, from the centre's free slots far enough ahead.
#[node]
pub fn test_slots(awaiting: &Memo<Vec<String>>, today: &Memo<u32>) -> AsyncMemo<Vec<TestSlot>> {
    let test_slots = AsyncMemo::try_new({
        let (awaiting, today) = (awaiting.clone(), today.clone());
        move |_| {
            let (pupils, today) = (awaiting.get(), today.get());
            async move {
                if pupils.is_empty() {
                    return Ok(Vec::new());
                }
                let days = remote::free_slots(today, pupils.len() + 3).await?;
                let earliest = today + TEST_NOTICE_DAYS;
                let mut days = days.into_iter().filter(|&day| day >= earliest);
                let mut slots = Vec::with_capacity(pupils.len());
                for pupil in pupils {
                    let Some(day) = days.next() else {
                        break;
                    };
                    slots.push(TestSlot { pupil, day });
                }
                Ok::<_, String>(slots)
            }
        }
    });
    test_slots
}

/// What the fleet's fuel has cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct FuelBill {
    /// Miles driven on lessons.
    pub miles: u32,
    /// Fuel burnt, in millilitres.
    pub millilitres: u64,
    /// Its cost at today's price, in pence.
    pub pence: u64,
}

/// The fuel the cars burnt on lessons, priced at the fuel card's price today.
#[node]
pub fn fuel_bill(school: &Mvu<School, Msg>) -> AsyncMemo<FuelBill> {
    let driven = school.select(|school| {
        school
            .cars
            .iter()
            .map(|car| (car.driven, car.mpg))
            .collect::<Vec<_>>()
    });
    let today = school.select(|school| school.day);
    let fuel = AsyncMemo::new(move |_| {
        let (cars, today) = (driven.get(), today.get());
        async move {
            let price = remote::fuel_price(today).await;
            let mut miles = 0;
            let mut millilitres = 0;
            for (driven, mpg) in cars {
                if driven == 0 || mpg == 0 {
                    continue;
                }
                miles += driven;
                let gallons_ml = u64::from(driven) * 1_000 / u64::from(mpg);
                millilitres += gallons_ml * ML_PER_GALLON / 1_000;
            }
            let pence = millilitres * price / 1_000;
            FuelBill {
                miles,
                millilitres,
                pence,
            }
        }
    });
    fuel
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// Offers each pupil awaiting a practical test a slot, in turn, from the centre's free slots far enough ahead.
    #[node]
    pub fn test_slots(awaiting: &Memo<Vec<String>>, today: &Memo<u32>) -> AsyncMemo<Vec<TestSlot>> {
        let test_slots = AsyncMemo::try_new({
            let (awaiting, today) = (awaiting.clone(), today.clone());
            move |_| {
                let (pupils, today) = (awaiting.get(), today.get());
                async move {
                    if pupils.is_empty() {
                        return Ok(Vec::new());
                    }
                    let days = remote::free_slots(today, pupils.len() + 3).await?;
                    let earliest = today + TEST_NOTICE_DAYS;
                    // BUG(slot_notice)
                    let mut days = days.into_iter().filter(|&day| day > earliest);
                    let mut slots = Vec::with_capacity(pupils.len());
                    for pupil in pupils {
                        let Some(day) = days.next() else {
                            break;
                        };
                        slots.push(TestSlot { pupil, day });
                    }
                    Ok::<_, String>(slots)
                }
            }
        });
        test_slots
    }

    /// The fuel the cars burnt on lessons, priced at the fuel card's price today.
    #[node]
    pub fn fuel_bill(school: &Mvu<School, Msg>) -> AsyncMemo<FuelBill> {
        let driven = school.select(|school| {
            school
                .cars
                .iter()
                .map(|car| (car.driven, car.mpg))
                .collect::<Vec<_>>()
        });
        let today = school.select(|school| school.day);
        let fuel = AsyncMemo::new(move |_| {
            let (cars, today) = (driven.get(), today.get());
            async move {
                let price = remote::fuel_price(today).await;
                let mut miles = 0;
                let mut millilitres = 0;
                for (driven, mpg) in cars {
                    if driven == 0 || mpg == 0 {
                        continue;
                    }
                    miles += driven;
                    let gallons_ml = u64::from(driven) * 1_000 / u64::from(mpg);
                    // BUG(fuel_litres)
                    millilitres += gallons_ml;
                }
                let pence = millilitres * price / 1_000;
                FuelBill {
                    miles,
                    millilitres,
                    pence,
                }
            }
        });
        fuel
    }
}
