//! What every owner here does the same way: it lets go of its handles on
//! drop as cudarc's owners do ([`release`]), and it refuses a call the driver
//! would misread with the driver's own invalid-value error
//! ([`invalid_value`]).
//!
//! A drop has no caller to hand an error to. cudarc's owners (`safe/core.rs`,
//! `safe/graph.rs`) hold their context, make it current before the destroy
//! call, so the call acts in the context that made the handle whatever this
//! thread bound last, and record a failure on the context
//! (`CudaContext::record_err`). There `CudaContext::check_err` finds it, and
//! so does the context's next checked call (cudarc starts each one with
//! `check_err`): a failed destroy is reported late, never lost.
//!
//! Not for: the owners themselves (one file each).

use cudarc::driver::{CudaContext, DriverError};

/// What [`release`] needs of a context: to be made current on this thread,
/// and to keep an error for later. [`CudaContext`] does both; the tests use
/// a stand-in, so the path runs without a GPU.
pub(crate) trait KeepsErrors {
    fn bind(&self) -> Result<(), DriverError>;
    fn keep(&self, result: Result<(), DriverError>);
}

impl KeepsErrors for CudaContext {
    fn bind(&self) -> Result<(), DriverError> {
        self.bind_to_thread()
    }

    fn keep(&self, result: Result<(), DriverError>) {
        self.record_err(result);
    }
}

/// Makes `ctx` current, then has `destroy` make its destroy calls, handing
/// each result to the `keep` it is given; every failure, the bind's
/// included, is kept on `ctx`. The destroy calls are made also when the bind
/// failed, as cudarc's are: a handle not destroyed now is lost all the same.
pub(crate) fn release(ctx: &impl KeepsErrors, destroy: impl FnOnce(&dyn Fn(Result<(), DriverError>))) {
    ctx.keep(ctx.bind());
    destroy(&|result| ctx.keep(result));
}

/// A copy asked to move more elements than one side holds, or a device
/// address asked of unmapped memory. Reported as a driver
/// `CUDA_ERROR_INVALID_VALUE`, which is what `cuMemcpy` itself would say, so
/// every failure goes through the same check.
pub(crate) fn invalid_value() -> DriverError {
    DriverError(cudarc::driver::sys::cudaError_enum::CUDA_ERROR_INVALID_VALUE)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use cudarc::driver::sys::cudaError_enum::{CUDA_ERROR_INVALID_CONTEXT, CUDA_ERROR_INVALID_HANDLE};
    use cudarc::driver::DriverError;

    use super::{release, KeepsErrors};

    /// A context that logs what is asked of it, and whose bind fails with
    /// `bind_fails` when given.
    #[derive(Default)]
    struct StandIn {
        bind_fails: Option<DriverError>,
        log: RefCell<Vec<&'static str>>,
        kept: RefCell<Vec<DriverError>>,
    }

    impl KeepsErrors for StandIn {
        fn bind(&self) -> Result<(), DriverError> {
            self.log.borrow_mut().push("bind");
            self.bind_fails.map_or(Ok(()), Err)
        }

        fn keep(&self, result: Result<(), DriverError>) {
            if let Err(e) = result {
                self.kept.borrow_mut().push(e);
            }
        }
    }

    impl StandIn {
        /// Releases two handles, the first of whose destroy calls fails
        /// with `first`.
        fn release_two(&self, first: Result<(), DriverError>) {
            release(self, |keep| {
                self.log.borrow_mut().push("destroy exec");
                keep(first);
                self.log.borrow_mut().push("destroy graph");
                keep(Ok(()));
            });
        }
    }

    #[test]
    fn a_failed_destroy_is_kept_on_the_context_after_binding_it_first() {
        let ctx = StandIn::default();
        ctx.release_two(Err(DriverError(CUDA_ERROR_INVALID_HANDLE)));
        assert_eq!(*ctx.log.borrow(), ["bind", "destroy exec", "destroy graph"]);
        assert_eq!(*ctx.kept.borrow(), [DriverError(CUDA_ERROR_INVALID_HANDLE)]);
    }

    #[test]
    fn a_failed_bind_is_kept_and_the_handles_are_destroyed_all_the_same() {
        let ctx = StandIn {
            bind_fails: Some(DriverError(CUDA_ERROR_INVALID_CONTEXT)),
            ..StandIn::default()
        };
        ctx.release_two(Err(DriverError(CUDA_ERROR_INVALID_HANDLE)));
        assert_eq!(*ctx.log.borrow(), ["bind", "destroy exec", "destroy graph"]);
        assert_eq!(
            *ctx.kept.borrow(),
            [
                DriverError(CUDA_ERROR_INVALID_CONTEXT),
                DriverError(CUDA_ERROR_INVALID_HANDLE)
            ],
            "both, in the order they happened"
        );
    }

    #[test]
    fn a_clean_release_keeps_nothing() {
        let ctx = StandIn::default();
        ctx.release_two(Ok(()));
        assert!(ctx.kept.borrow().is_empty());
    }
}
