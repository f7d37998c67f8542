//! The hot mode ([`crate::Mode::Hot`]): `batch` back-to-back launches
//! between two events per sample, the course's way of timing.

use cuda_check::CudaError;

use super::setup::{time_batch, Setup};
use crate::mode::Launch;

pub(crate) struct Hot {
    pub(super) batch: usize,
}

impl Hot {
    pub(super) fn take(
        &self,
        setup: &mut Setup<'_, impl Launch>,
        gpu_ms: &mut f64,
    ) -> Result<f64, CudaError> {
        let total = time_batch(setup, self.batch)?;
        *gpu_ms += total;
        Ok(total / self.batch as f64)
    }
}
