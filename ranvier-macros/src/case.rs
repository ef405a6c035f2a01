//! `rename_all` rules, as in serde: variants are PascalCase in Rust, fields snake_case.

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

pub const RULE_NAMES: &[&str] = &[
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
];

impl RenameRule {
    pub fn from_str(name: &str) -> Option<Self> {
        use RenameRule::*;
        let all = [
            Lower,
            Upper,
            Pascal,
            Camel,
            Snake,
            ScreamingSnake,
            Kebab,
            ScreamingKebab,
        ];
        RULE_NAMES.iter().position(|n| *n == name).map(|i| all[i])
    }

    /// Renames a PascalCase variant name.
    pub fn apply_to_variant(self, variant: &str) -> String {
        use RenameRule::*;
        match self {
            Pascal => variant.to_owned(),
            Lower => variant.to_ascii_lowercase(),
            Upper => variant.to_ascii_uppercase(),
            Camel => variant[..1].to_ascii_lowercase() + &variant[1..],
            Snake | ScreamingSnake | Kebab | ScreamingKebab => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                self.apply_to_field(&snake)
            }
        }
    }

    /// Renames a snake_case field name.
    pub fn apply_to_field(self, field: &str) -> String {
        use RenameRule::*;
        match self {
            Lower | Snake => field.to_owned(),
            Upper | ScreamingSnake => field.to_ascii_uppercase(),
            Kebab => field.replace('_', "-"),
            ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
            Pascal | Camel => {
                let mut out = String::new();
                let mut capitalize = self == Pascal;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(ch);
                    }
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn variants() {
        assert_eq!(Snake.apply_to_variant("AddItem"), "add_item");
        assert_eq!(Kebab.apply_to_variant("AddItem"), "add-item");
        assert_eq!(Camel.apply_to_variant("AddItem"), "addItem");
        assert_eq!(ScreamingSnake.apply_to_variant("AddItem"), "ADD_ITEM");
    }

    #[test]
    fn fields() {
        assert_eq!(Camel.apply_to_field("unit_price"), "unitPrice");
        assert_eq!(Pascal.apply_to_field("unit_price"), "UnitPrice");
        assert_eq!(ScreamingKebab.apply_to_field("unit_price"), "UNIT-PRICE");
    }
}
