//! What a kernel launcher may read from: memory an owner in this crate
//! keeps alive, reached by a device address.

use cudarc::driver::sys;

/// `len()` elements of `T` that a kernel on the owner's context can read
/// at `device_address()`, valid for as long as `self` is borrowed.
///
/// A safe launcher takes `&impl DeviceMemory<T>` (or `&dyn
/// DeviceMemory<T>`) instead of a raw pointer, so the only addresses it can
/// be handed are ones a live allocation stands behind. The trait is sealed:
/// only this crate's owners implement it ([`DeviceBuffer`] and the mapped
/// view of [`PinnedHost`]), so no caller can make one up.
///
/// ```compile_fail,E0277
/// use cuda_objects::DeviceMemory;
/// struct Wild;
/// impl DeviceMemory<f32> for Wild {
///     fn device_address(&self) -> cudarc::driver::sys::CUdeviceptr { 0xdead }
///     fn len(&self) -> usize { 1 << 20 }
/// }
/// ```
///
/// [`DeviceBuffer`]: crate::DeviceBuffer
/// [`PinnedHost`]: crate::PinnedHost
pub trait DeviceMemory<T>: sealed::Sealed {
    /// The device address of the first element.
    fn device_address(&self) -> sys::CUdeviceptr;

    /// How many elements a kernel may read from there.
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The device address typed for a launcher's `const T*` parameter.
    fn as_device_ptr(&self) -> *const T {
        self.device_address() as *const T
    }
}

pub(crate) mod sealed {
    /// Implemented only inside this crate, which keeps [`super::DeviceMemory`] closed.
    pub trait Sealed {}
}
