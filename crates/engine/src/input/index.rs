//! Typed indices into a scenario's lists: [`ShareIx`] into `Scenario::shares` (and every
//! per-share vector), [`TypeIx`] into `Scenario::instance_types` (and every per-type
//! vector). A vector indexed by one cannot be indexed by the other by mistake, and a key
//! built of them says what each part is.

use std::ops::{Index, IndexMut};

/// A share: its index in `Scenario::shares`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ShareIx(pub u32);

/// An instance type (a Kueue ResourceFlavor): its index in `Scenario::instance_types`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TypeIx(pub u32);

macro_rules! index_type {
    ($ix:ident) => {
        impl $ix {
            pub fn new(i: usize) -> $ix {
                $ix(i as u32)
            }

            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl<T> Index<$ix> for [T] {
            type Output = T;
            fn index(&self, i: $ix) -> &T {
                &self[i.index()]
            }
        }

        impl<T> IndexMut<$ix> for [T] {
            fn index_mut(&mut self, i: $ix) -> &mut T {
                &mut self[i.index()]
            }
        }

        impl<T> Index<$ix> for Vec<T> {
            type Output = T;
            fn index(&self, i: $ix) -> &T {
                &self[i.index()]
            }
        }

        impl<T> IndexMut<$ix> for Vec<T> {
            fn index_mut(&mut self, i: $ix) -> &mut T {
                &mut self[i.index()]
            }
        }
    };
}

index_type!(ShareIx);
index_type!(TypeIx);
