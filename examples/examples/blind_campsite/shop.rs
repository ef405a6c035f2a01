//! The site shop's rules: what it sells and at what price (shower tokens cheaper by the five), and when to reorder.

/// Shower tokens, sold singly or by the bundle.
pub const TOKEN: &str = "shower token";
/// Tokens in a bundle.
pub const BUNDLE: u32 = 5;
/// A bundle of tokens, in pence.
pub const BUNDLE_PRICE: u64 = 200;

/// What the shop sells: the item, its price each in pence, and the stock below which it is reordered.
pub const ITEMS: [(&str, u64, u32); 5] = [
    (TOKEN, 50, 10),
    ("milk", 120, 4),
    ("firewood", 600, 3),
    ("gas", 2_500, 2),
    ("ice", 150, 5),
];

/// The price of one `item`, in pence; `None` for what the shop does not sell.
#[ranvier::trace_fn]
pub fn unit_price(item: &str) -> Option<u64> {
    ITEMS
        .iter()
        .find(|(name, _, _)| *name == item)
        .map(|&(_, each, _)| each)
}

/// What `qty` of `item` cost, in pence: shower tokens by the bundle where they can, the rest at their price each.
#[ranvier::trace_fn]
pub fn price(item: &str, qty: u32) -> Option<u64> {
    let each = unit_price(item)?;
    if item != TOKEN {
        return Some(each * u64::from(qty));
    }
    let bundles = qty / BUNDLE;
    let singles = qty % BUNDLE;
    Some(u64::from(bundles) * BUNDLE_PRICE + u64::from(singles) * each)
}

/// Whether `item` should be reordered with `left` in stock.
#[ranvier::trace_fn]
pub fn reorder(item: &str, left: u32) -> bool {
    ITEMS
        .iter()
        .find(|(name, _, _)| *name == item)
        .is_some_and(|&(_, _, below)| left < below)
}

/// Copies of the shop's rules with one mistake each, for the blind test.
pub mod slipped {
    use super::{BUNDLE, BUNDLE_PRICE, TOKEN, unit_price};

    /// [`super::price`].
    #[ranvier::trace_fn]
    pub fn price(item: &str, qty: u32) -> Option<u64> {
        let each = unit_price(item)?;
        if item != TOKEN {
            return Some(each * u64::from(qty));
        }
        // BUG(token_bundles)
        let bundles = qty.div_ceil(BUNDLE);
        let singles = qty % BUNDLE;
        Some(u64::from(bundles) * BUNDLE_PRICE + u64::from(singles) * each)
    }
}
