//! Grid labels such as `A00`, `B07` or `AA12`: how a column and row become a space's name.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The longest zero-padding a label may ask for; more would only waste memory.
pub(crate) const MAX_LABEL_DIGITS: u32 = 9;

/// How grid spaces are labelled from their column and row.
///
/// The default gives `A00`, `B07`, `Z99`: columns as letters (`A`…`Z`, then `AA`, `AB`, …),
/// rows as two-digit numbers counted from 0, column first, no separator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LabelSpec {
    /// How columns are written.
    pub columns: LabelStyle,
    /// How rows are written.
    pub rows: LabelStyle,
    /// The number (or letter index, 0 = `A`) of the leftmost column.
    pub first_column: u32,
    /// The number (or letter index, 0 = `A`) of the top row.
    pub first_row: u32,
    /// Minimum digits of a numeric column, zero-padded (ignored for letters).
    pub column_digits: u32,
    /// Minimum digits of a numeric row, zero-padded (ignored for letters).
    pub row_digits: u32,
    /// Whether the column or the row is written first.
    pub order: LabelOrder,
    /// Text between the two parts, e.g. `"-"` for `3-12`.
    pub separator: String,
}

impl Default for LabelSpec {
    fn default() -> Self {
        Self {
            columns: LabelStyle::Letters,
            rows: LabelStyle::Numbers,
            first_column: 0,
            first_row: 0,
            column_digits: 1,
            row_digits: 2,
            order: LabelOrder::ColumnFirst,
            separator: String::new(),
        }
    }
}

/// How one coordinate of a label is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LabelStyle {
    /// `A`…`Z`, then `AA`, `AB`, … (spreadsheet style).
    Letters,
    /// Decimal numbers, zero-padded to the configured digits.
    Numbers,
}

/// Which coordinate comes first in a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LabelOrder {
    /// Column then row, e.g. `B07`.
    ColumnFirst,
    /// Row then column, e.g. `07B`.
    RowFirst,
}

impl LabelSpec {
    /// The label of the space at lattice column `col`, row `row` (both counted from 0).
    pub fn label(&self, col: u32, row: u32) -> String {
        let (column_part, row_part) = (self.column_label(col), self.row_label(row));
        match self.order {
            LabelOrder::ColumnFirst => format!("{column_part}{}{row_part}", self.separator),
            LabelOrder::RowFirst => format!("{row_part}{}{column_part}", self.separator),
        }
    }
}

impl LabelSpec {
    /// The column part of labels in lattice column `col`, e.g. `B` (for rulers along the board).
    pub fn column_label(&self, col: u32) -> String {
        coordinate(self.columns, u64::from(self.first_column) + u64::from(col), self.column_digits)
    }

    /// The row part of labels in lattice row `row`, e.g. `07`.
    pub fn row_label(&self, row: u32) -> String {
        coordinate(self.rows, u64::from(self.first_row) + u64::from(row), self.row_digits)
    }
}

/// One coordinate in the given style.
fn coordinate(style: LabelStyle, value: u64, digits: u32) -> String {
    match style {
        LabelStyle::Letters => letters(value),
        LabelStyle::Numbers => {
            let width = digits.min(MAX_LABEL_DIGITS) as usize;
            format!("{value:0width$}")
        }
    }
}

/// Bijective base 26: 0 → `A`, 25 → `Z`, 26 → `AA`, 27 → `AB`, 701 → `ZZ`, 702 → `AAA`.
fn letters(mut value: u64) -> String {
    let mut reversed = Vec::new();
    loop {
        reversed.push(b'A' + (value % 26) as u8);
        if value < 26 {
            break;
        }
        value = value / 26 - 1;
    }
    reversed.iter().rev().map(|&b| b as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_continue_past_z() {
        assert_eq!(letters(0), "A");
        assert_eq!(letters(25), "Z");
        assert_eq!(letters(26), "AA");
        assert_eq!(letters(27), "AB");
        assert_eq!(letters(51), "AZ");
        assert_eq!(letters(52), "BA");
        assert_eq!(letters(701), "ZZ");
        assert_eq!(letters(702), "AAA");
    }

    #[test]
    fn default_labels_are_letter_then_two_digits() {
        let spec = LabelSpec::default();
        assert_eq!(spec.label(0, 0), "A00");
        assert_eq!(spec.label(1, 7), "B07");
        assert_eq!(spec.label(25, 99), "Z99");
        assert_eq!(spec.label(26, 100), "AA100");
    }

    #[test]
    fn options_change_style_order_and_origin() {
        let spec = LabelSpec {
            columns: LabelStyle::Numbers,
            rows: LabelStyle::Letters,
            first_column: 1,
            first_row: 2,
            column_digits: 3,
            row_digits: 1,
            order: LabelOrder::RowFirst,
            separator: "-".into(),
        };
        assert_eq!(spec.label(0, 0), "C-001");
        assert_eq!(spec.label(9, 24), "AA-010");
    }
}
