//! A table's columns written once: a [`Column`] gives its headers and every row's cell, so
//! that a column's headers and its cells cannot disagree. A table's columns are a fixed
//! array, a column left out included, so that a row's cells are not a list.

use leptos::prelude::*;

/// A column of numbers (class `num`) of a table whose rows are `T`s.
pub struct Column<T> {
    /// The header cell's text.
    head: &'static str,
    /// The header spans the head's two rows ([`two_row_head`]); else it is in the last row.
    spans: bool,
    /// The header of the group of columns that starts here, in the first of the head's two
    /// rows: the group runs to the next group or to a column whose header spans the rows.
    group: Option<&'static str>,
    /// The header cell's tooltip.
    title: Option<&'static str>,
    /// The cells' `data-col`: how the tests and the styles find a column.
    key: Option<&'static str>,
    /// The cells' `data-label`: the header a cell shows when a narrow screen lays the table
    /// out as cards.
    label: Option<&'static str>,
    /// A rule on the column's left (class `group-start`).
    rule: bool,
    /// The cells show the header's tooltip too.
    cell_title: bool,
    /// The column is in the table (else it has neither headers nor cells).
    shown: bool,
    /// A row's cell.
    cell: fn(&T) -> String,
}

impl<T> Column<T> {
    /// A column headed `head` whose cell in a row `r` is `cell(r)`.
    pub fn new(head: &'static str, cell: fn(&T) -> String) -> Column<T> {
        Column {
            head,
            spans: false,
            group: None,
            title: None,
            key: None,
            label: None,
            rule: false,
            cell_title: false,
            shown: true,
            cell,
        }
    }

    /// The column's header spans the head's two rows.
    pub fn spans(self) -> Column<T> {
        Column {
            spans: true,
            ..self
        }
    }

    /// A group of columns headed `name` starts at this one.
    pub fn group(self, name: &'static str) -> Column<T> {
        Column {
            group: Some(name),
            ..self
        }
    }

    /// The header cell's tooltip.
    pub fn title(self, title: &'static str) -> Column<T> {
        Column {
            title: Some(title),
            ..self
        }
    }

    /// The cells' `data-col`.
    pub fn key(self, key: &'static str) -> Column<T> {
        Column {
            key: Some(key),
            ..self
        }
    }

    /// The cells' `data-label`.
    pub fn label(self, label: &'static str) -> Column<T> {
        Column {
            label: Some(label),
            ..self
        }
    }

    /// A rule on the column's left, and on its group's header when it starts one.
    pub fn rule(self) -> Column<T> {
        Column { rule: true, ..self }
    }

    /// The cells show the header's tooltip too.
    pub fn cell_title(self) -> Column<T> {
        Column {
            cell_title: true,
            ..self
        }
    }

    /// The column is in the table only when `shown`.
    pub fn shown_if(self, shown: bool) -> Column<T> {
        Column { shown, ..self }
    }

    fn class(&self) -> &'static str {
        if self.rule {
            "num group-start"
        } else {
            "num"
        }
    }
}

/// The header cells of `columns` whose headers do not span two rows, left to right.
pub fn heads<T, const N: usize>(columns: &[Column<T>; N]) -> impl IntoView + use<T, N> {
    columns.each_ref().map(|c| {
        (c.shown && !c.spans).then(|| {
            view! { <th scope="col" class=c.class() title=c.title>{c.head}</th> }
        })
    })
}

/// A `<thead>` of two rows: `corner` over the rows' own headers, then the groups' headers
/// and those that span both rows; under the groups, their columns' headers ([`heads`]).
pub fn two_row_head<T, const N: usize>(
    corner: &'static str,
    columns: &[Column<T>; N],
) -> impl IntoView + use<T, N> {
    let groups: [Option<AnyView>; N] = std::array::from_fn(|i| group_head(columns, i));
    view! {
        <thead>
            <tr>
                <th scope="col" rowspan="2">{corner}</th>
                {groups}
            </tr>
            <tr>{heads(columns)}</tr>
        </thead>
    }
}

/// The header at column `i` in the first of the head's two rows: the column's own when it
/// spans both rows, else that of the group starting there (over its shown columns), if one
/// does.
fn group_head<T>(columns: &[Column<T>], i: usize) -> Option<AnyView> {
    let c = &columns[i];
    if !c.shown {
        return None;
    }
    if c.spans {
        return Some(
            view! { <th scope="col" rowspan="2" class=c.class()>{c.head}</th> }.into_any(),
        );
    }
    let name = c.group?;
    let width = 1 + columns[i + 1..]
        .iter()
        .take_while(|n| n.group.is_none() && !n.spans)
        .filter(|n| n.shown)
        .count();
    let class = c.rule.then_some("group-start");
    Some(if width == 1 {
        view! { <th scope="col" class=class>{name}</th> }.into_any()
    } else {
        view! { <th scope="colgroup" colspan=width class=class>{name}</th> }.into_any()
    })
}

/// Row `row`'s cells of `columns`, left to right.
pub fn cells<T, const N: usize>(columns: &[Column<T>; N], row: &T) -> impl IntoView + use<T, N> {
    columns.each_ref().map(|c| {
        c.shown.then(|| {
            let title = c.title.filter(|_| c.cell_title);
            view! {
                <td class=c.class() data-col=c.key data-label=c.label title=title>{(c.cell)(row)}</td>
            }
        })
    })
}
