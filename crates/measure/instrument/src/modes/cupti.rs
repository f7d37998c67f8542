//! The cupti mode ([`crate::Mode::Cupti`]): batches as in hot mode, each
//! launch timed by its kernels' own records in CUPTI's trace
//! ([`crate::trace`]).

use super::setup::{time_batch, Setup};
use crate::error::Error;
use crate::mode::Launch;
use crate::trace::{per_launch_ms, KernelTrace};

pub(crate) struct Cupti {
    batch: usize,
    trace: KernelTrace,
}

impl Cupti {
    pub(super) fn new(mut trace: KernelTrace, batch: usize) -> Result<Cupti, Error> {
        // The warm-up's records are not samples.
        trace.discard()?;
        Ok(Cupti { batch, trace })
    }

    pub(super) fn take(
        &mut self,
        setup: &mut Setup<'_, impl Launch>,
        gpu_ms: &mut f64,
    ) -> Result<Vec<f64>, Error> {
        *gpu_ms += time_batch(setup, self.batch)?;
        Ok(per_launch_ms(&self.trace.take()?, self.batch)?)
    }
}
