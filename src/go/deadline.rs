//! The search's clock: when an answer is due, and whether another batch
//! of playouts still fits before then.
//!
//! Under a time control the answer must come within a share of the
//! clock (see `gtp::clock`). Checking the time only *after* a batch lets
//! the last batch run past the deadline, and on 19x19, or on a loaded
//! machine, a batch is not free; so the search stops when another batch,
//! taking twice as long as the batches so far did on average, would end
//! past the deadline. The clock is a trait so that this logic is tested
//! with a clock the test drives ([`Clock`]), not by timing a real search.

use std::time::{Duration, Instant};

/// A monotonic clock: the time since its origin.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> Duration;
}

impl<C: Clock + ?Sized> Clock for std::sync::Arc<C> {
    fn now(&self) -> Duration {
        (**self).now()
    }
}

/// The machine's monotonic clock, from the moment it was made.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    origin: Instant,
}

impl WallClock {
    pub fn start() -> WallClock {
        WallClock {
            origin: Instant::now(),
        }
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// Another clock read from a later origin (the arrival of a command):
/// its `now` is the time since that origin.
#[derive(Clone, Copy, Debug)]
pub struct Since<'c> {
    pub clock: &'c dyn Clock,
    pub origin: Duration,
}

impl Clock for Since<'_> {
    fn now(&self) -> Duration {
        self.clock.now().saturating_sub(self.origin)
    }
}

/// How much longer than the mean batch so far the next one is allowed to
/// take before the deadline: a margin for a batch of long playouts and
/// for the answer's own work after the search.
pub const BATCH_MARGIN: u32 = 2;

/// When a search must have answered: `at` on `clock`.
#[derive(Clone, Copy, Debug)]
pub struct Deadline<'c> {
    pub clock: &'c dyn Clock,
    pub at: Duration,
}

impl Deadline<'_> {
    /// Whether another batch fits, `batches` batches having been run since
    /// the clock read `since`: the time is not up, and the batch, at
    /// [`BATCH_MARGIN`] times their mean duration, would end by the
    /// deadline (the first batch only needs the time not to be up).
    pub fn another_batch(&self, since: Duration, batches: u32) -> bool {
        let now = self.clock.now();
        fits(now, since, batches, self.at)
    }
}

/// [`Deadline::another_batch`] at the clock reading `now`.
fn fits(now: Duration, since: Duration, batches: u32, at: Duration) -> bool {
    if now >= at {
        return false;
    }
    if batches == 0 {
        return true;
    }
    let mean = now.saturating_sub(since) / batches;
    now + mean * BATCH_MARGIN <= at
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Batches of a steady cost, started while they fit: the last
        /// one ends by the deadline (the first one is taken whenever the
        /// time is not up, so the budget must hold one), and the time
        /// left unused is less than the margin's batches plus one.
        #[test]
        fn steady_batches_end_by_the_deadline(
            cost_us in 1u64..50_000,
            budget_us in 0u64..5_000_000,
            start_us in 0u64..1_000_000,
        ) {
            let cost = Duration::from_micros(cost_us);
            let since = Duration::from_micros(start_us);
            let at = since + Duration::from_micros(budget_us);
            let mut now = since;
            let mut batches = 0;
            while fits(now, since, batches, at) {
                now += cost;
                batches += 1;
            }
            if budget_us >= cost_us {
                prop_assert!(now <= at, "{now:?} past {at:?}");
                prop_assert!(at - now < cost * (BATCH_MARGIN + 1));
            } else {
                prop_assert!(batches <= 1);
            }
        }
    }

    #[test]
    fn nothing_fits_once_the_time_is_up() {
        let s = Duration::from_millis;
        assert!(!fits(s(700), s(0), 0, s(700)));
        assert!(fits(s(699), s(0), 0, s(700)));
        // 10 batches in 600 ms: the next, at twice 60 ms, does not fit.
        assert!(!fits(s(600), s(0), 10, s(700)));
        assert!(fits(s(580), s(0), 10, s(700)));
    }

    #[test]
    fn since_reads_from_its_origin() {
        let wall = WallClock::start();
        let later = Since {
            clock: &wall,
            origin: Duration::from_secs(3600),
        };
        assert_eq!(later.now(), Duration::ZERO);
    }
}
