//! How much goes in a parcel, by category and household size.

use super::model::Category;

/// What one category gives a household.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Portion {
    /// Grams per person.
    pub per_person: u32,
    /// At most this many grams a parcel, however big the household.
    pub cap: u32,
}

const STAPLE: Portion = Portion {
    per_person: 800,
    cap: 3200,
};
const FRESH: Portion = Portion {
    per_person: 500,
    cap: 2500,
};
const DAIRY: Portion = Portion {
    per_person: 300,
    cap: 1200,
};

/// The portion of `category`.
pub fn portion(category: Category) -> Portion {
    match category {
        Category::Tins | Category::Pasta => STAPLE,
        Category::Fresh => FRESH,
        Category::Dairy => DAIRY,
    }
}

/// `per_person` grams for each of `people`, at most `cap`.
pub fn scaled(per_person: u32, people: u32, cap: u32) -> u32 {
    per_person.saturating_mul(people).min(cap)
}

/// What a parcel for `people` should hold, by category, with `portion`'s amounts.
pub fn parcel_for(people: u32, portion: fn(Category) -> Portion) -> Vec<(Category, u32)> {
    Category::ALL
        .iter()
        .map(|&category| {
            let rule = portion(category);
            (category, scaled(rule.per_person, people, rule.cap))
        })
        .filter(|&(_, grams)| grams > 0)
        .collect()
}

/// The rules as first written.
pub mod slipped {
    use super::{Category, DAIRY, Portion, STAPLE};

    /// [`super::portion`].
    pub fn portion(category: Category) -> Portion {
        match category {
            Category::Tins | Category::Pasta => STAPLE,
            // BUG(fresh_portion)
            Category::Fresh => DAIRY,
            Category::Dairy => DAIRY,
        }
    }
}
