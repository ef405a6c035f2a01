//! What a pen and a check-in allow: how many pets share a pen of each size, which pets may go in it, and the
//! vaccinations a pet needs to board.

use super::model::{Pet, Size, Species};

/// The most pets of one owner that share a pen of `size`.
pub fn pen_capacity(size: Size) -> usize {
    match size {
        Size::Small => 1,
        Size::Medium | Size::Large | Size::Cattery => 2,
    }
}

/// Whether a pen of `size` takes `pets` more pets.
pub fn pen_takes(size: Size, pets: usize) -> bool {
    pets <= pen_capacity(size)
}

/// Whether `pet` may board in a pen of `size`: cats in the cattery, dogs in a dog pen at least their size.
pub fn fits(pet: &Pet, size: Size) -> bool {
    match pet.species {
        Species::Cat => size == Size::Cattery,
        Species::Dog => size != Size::Cattery && size >= pet.size,
    }
}

/// Whether `pet`'s vaccinations are in date for every day of a stay that ends on `depart`.
pub fn vaccinated_for(pet: &Pet, depart: u32) -> bool {
    pet.vaccinated_until >= depart
}

/// Copies of the limits with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Size;
    use super::pen_capacity;

    /// [`super::pen_takes`].
    pub fn pen_takes(size: Size, pets: usize) -> bool {
        // BUG(pen_capacity)
        pets < pen_capacity(size)
    }
}
