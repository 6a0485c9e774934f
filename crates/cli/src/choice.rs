//! The command line's choice-like arguments as clap [`ValueEnum`]s over the engine's own
//! enums. The engine does not depend on clap, so each enum is wrapped here; the spellings
//! are the engine's (`as_str`), so the command line and the scenario format agree.

use clap::builder::PossibleValue;
use clap::ValueEnum;
use quotalab_engine::model::Strategy;
use quotalab_engine::trace::{LimitsMode, TimeUnit};

macro_rules! choice {
    ($(#[$doc:meta])* $name:ident($inner:ty) = [$($variant:expr),+ $(,)?]) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub $inner);

        impl ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($name($variant)),+]
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(self.0.as_str()))
            }
        }
    };
}

choice!(
    /// `--strategy RESERVE|LEND|LEND_AND_BORROW` (SPEC 2).
    StrategyArg(Strategy) = [Strategy::Reserve, Strategy::Lend, Strategy::LendAndBorrow]
);
choice!(
    /// `--time-unit s|ms` (SPEC 11).
    TimeUnitArg(TimeUnit) = [TimeUnit::Seconds, TimeUnit::Millis]
);
choice!(
    /// `--limits proportional|equal` (SPEC 11).
    LimitsArg(LimitsMode) = [LimitsMode::Proportional, LimitsMode::Equal]
);

#[cfg(test)]
mod tests {
    use super::*;

    // Every engine variant is offered, under the engine's spelling.
    #[test]
    fn spellings_are_the_engines() {
        let names = |v: &[_]| -> Vec<String> {
            v.iter()
                .map(|x: &StrategyArg| x.to_possible_value().unwrap().get_name().to_string())
                .collect()
        };
        assert_eq!(
            names(StrategyArg::value_variants()),
            ["RESERVE", "LEND", "LEND_AND_BORROW"]
        );
        for t in TimeUnit::ALL {
            assert_eq!(TimeUnitArg::from_str(t.as_str(), false), Ok(TimeUnitArg(t)));
        }
        for l in LimitsMode::ALL {
            assert_eq!(LimitsArg::from_str(l.as_str(), false), Ok(LimitsArg(l)));
        }
    }
}
