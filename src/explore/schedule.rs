//! The order of a sweep's runs and which results still count: pure, so that the pool's
//! cancel and last-edit-wins rules are tested natively.

/// The runs of the sweep in flight, handed out one by one, and the results taken.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// The sweep whose results count (`None` once cancelled or before the first).
    sweep: Option<u64>,
    order: Vec<u32>,
    next: usize,
    taken: Vec<bool>,
    done: usize,
}

impl Schedule {
    /// Starts sweep `sweep` of `points` values x `seeds` seeds (run `p * seeds + k`),
    /// dropping whatever came before. Runs go out seed by seed across every value, so the
    /// chart fills the whole range first.
    pub fn start(&mut self, sweep: u64, points: usize, seeds: usize) {
        let mut order = Vec::with_capacity(points * seeds);
        for k in 0..seeds {
            for p in 0..points {
                order.push((p * seeds + k) as u32);
            }
        }
        *self = Schedule {
            sweep: Some(sweep),
            taken: vec![false; order.len()],
            order,
            next: 0,
            done: 0,
        };
    }

    /// Stops handing out runs; later results of the sweep are ignored.
    pub fn cancel(&mut self) {
        *self = Schedule::default();
    }

    pub fn current(&self) -> Option<u64> {
        self.sweep
    }

    /// The next run to send, if any.
    pub fn next_run(&mut self) -> Option<u32> {
        self.sweep?;
        let r = self.order.get(self.next).copied()?;
        self.next += 1;
        Some(r)
    }

    /// Whether the result of `run` of `sweep` counts (the sweep in flight, and the first
    /// result of that run); counts it.
    pub fn accept(&mut self, sweep: u64, run: u32) -> bool {
        if self.sweep != Some(sweep) {
            return false;
        }
        match self.taken.get_mut(run as usize) {
            Some(t) if !*t => {
                *t = true;
                self.done += 1;
                true
            }
            _ => false,
        }
    }

    /// `(done, total)` runs.
    pub fn progress(&self) -> (usize, usize) {
        (self.done, self.taken.len())
    }

    /// Every run has reported.
    pub fn finished(&self) -> bool {
        self.sweep.is_some() && self.done == self.taken.len()
    }

    /// Counts the results `earlier` (the same sweep, restarted) already took, and leaves
    /// their runs out of the order.
    pub fn merge_taken(&mut self, earlier: &Schedule) {
        if earlier.sweep != self.sweep || earlier.taken.len() != self.taken.len() {
            return;
        }
        for (mine, &was) in self.taken.iter_mut().zip(&earlier.taken) {
            if was && !*mine {
                *mine = true;
                self.done += 1;
            }
        }
        let taken = &self.taken;
        self.order.retain(|&r| !taken[r as usize]);
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_go_out_seed_by_seed_across_the_range() {
        let mut s = Schedule::default();
        assert_eq!(s.next_run(), None);
        s.start(1, 3, 2);
        let order: Vec<u32> = std::iter::from_fn(|| s.next_run()).collect();
        assert_eq!(order, [0, 2, 4, 1, 3, 5]);
        assert_eq!(s.progress(), (0, 6));
        for r in order {
            assert!(s.accept(1, r));
        }
        assert!(s.finished());
    }

    #[test]
    fn cancel_and_last_edit_win() {
        let mut s = Schedule::default();
        s.start(1, 4, 1);
        let first = s.next_run().unwrap();
        assert!(s.accept(1, first));
        assert!(!s.accept(1, first), "a result counts once");
        // A new sweep: the old one's late results never mix in.
        s.start(2, 2, 1);
        assert!(!s.accept(1, 1));
        assert_eq!(s.progress(), (0, 2));
        assert!(s.accept(2, 1));
        assert!(!s.accept(2, 9), "no such run");
        s.cancel();
        assert!(!s.accept(2, 0));
        assert_eq!(s.next_run(), None);
        assert!(!s.finished());
        assert_eq!(s.current(), None);
    }

    #[test]
    fn a_restart_keeps_what_was_taken() {
        let mut s = Schedule::default();
        s.start(5, 3, 1);
        let r = s.next_run().unwrap();
        assert!(s.accept(5, r));
        let earlier = s.clone();
        s.start(5, 3, 1);
        s.merge_taken(&earlier);
        assert_eq!(s.progress(), (1, 3));
        let rest: Vec<u32> = std::iter::from_fn(|| s.next_run()).collect();
        assert_eq!(rest, [1, 2]);
    }
}
