//! The grading line's rules: a bin's grade from its variety, the fruit's size and defects, and the weather the block
//! had.

use super::model::{Damage, Grade, Variety};

/// The smallest fruit, in millimetres, that makes class I.
#[ranvier::trace_fn]
pub fn min_size(variety: Variety) -> u32 {
    match variety {
        Variety::Apple => 65,
        Variety::Pear => 60,
        Variety::Plum => 35,
    }
}

/// The grade of a bin of `variety` with fruit of `size_mm` and `defects` percent blemished, from a block that had
/// `damage`: juice when too small or too blemished for the shops, class II when a little small, a little blemished
/// or marked by the weather, else class I.
#[ranvier::trace_fn]
pub fn grade(variety: Variety, size_mm: u32, defects: u32, damage: Option<Damage>) -> Grade {
    let min = min_size(variety);
    if defects > 10 || size_mm + 10 < min {
        Grade::Juice
    } else if defects > 3 || size_mm < min || damage.is_some() {
        Grade::ClassTwo
    } else {
        Grade::ClassOne
    }
}

/// The grade a bin already graded drops to when its block is hit by `damage`.
#[ranvier::trace_fn]
pub fn downgraded(grade: Grade, damage: Damage) -> Grade {
    match (grade, damage) {
        (Grade::ClassOne, _) => Grade::ClassTwo,
        (Grade::ClassTwo, Damage::Hail) => Grade::Juice,
        (other, _) => other,
    }
}
