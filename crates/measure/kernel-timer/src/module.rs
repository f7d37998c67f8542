//! A kernel from a file: a `.cu` compiled to a cubin with the nvcc the
//! lessons find, PTX text or a cubin; found by name (a C++ kernel by its
//! plain name too: `transpose` finds `_Z9transposePfPKfii`); its parameters'
//! sizes asked of the driver; launched with the user's shape on the
//! arguments made on the device ([`Workload`]). What can be said without a
//! GPU (not a module, no such kernel, nvcc refuses) is said first.

use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use anyhow::{bail, Context};
use cuda_check::{check, CudaError};
use cuda_objects::{DeviceBuffer, LoadedKernel};
use cudarc::driver::sys::{self, CUfunction, CUfunction_attribute_enum};
use cudarc::driver::{result, CudaContext, CudaStream};

use crate::args::{ArgSpec, Dim3};

/// A module's image, read and recognised, before any GPU is involved.
#[derive(Debug, Clone, PartialEq)]
pub enum Image {
    /// PTX text, NUL-terminated for the driver.
    Ptx(CString),
    /// An ELF image for one architecture.
    Cubin(Vec<u8>),
}

impl Image {
    /// Reads `path`, a file: a `.cu` is compiled by nvcc for `arch`
    /// (`sm_90`) with `nvcc_args` added; any other file must be a cubin (ELF)
    /// or PTX text.
    pub fn read(path: &Path, arch: &str, nvcc_args: &[String]) -> anyhow::Result<Image> {
        if path.extension().is_some_and(|e| e == "cu") {
            return compile(path, arch, nvcc_args).map(Image::Cubin);
        }
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Image::recognise(bytes).with_context(|| format!("{} is not a module", path.display()))
    }

    fn recognise(bytes: Vec<u8>) -> anyhow::Result<Image> {
        if bytes.starts_with(b"\x7fELF") {
            return Ok(Image::Cubin(bytes));
        }
        let text = String::from_utf8(bytes).ok();
        match text {
            Some(t) if t.contains(".version") && t.contains(".target") => Ok(Image::Ptx(
                CString::new(t).context("PTX text with a NUL byte in it")?,
            )),
            _ => bail!("neither a cubin (ELF) nor PTX text (.version, .target), nor a .cu source"),
        }
    }

    /// The kernels (entry functions) the image holds, as the driver names
    /// them: a PTX file's `.entry` lines, a cubin's `.text.NAME` sections.
    pub fn kernels(&self) -> Vec<String> {
        let mut names: Vec<String> = match self {
            Image::Ptx(text) => text
                .to_string_lossy()
                .lines()
                .filter_map(|l| {
                    let rest = l.split(".entry").nth(1)?;
                    let name = rest.trim().split(['(', ' ', '\t']).next()?;
                    (!name.is_empty()).then(|| name.to_string())
                })
                .collect(),
            Image::Cubin(bytes) => bytes
                .split(|&b| b == 0)
                .filter_map(|s| s.strip_prefix(b".text."))
                .filter_map(|s| std::str::from_utf8(s).ok())
                .map(str::to_string)
                .collect(),
        };
        names.sort();
        names.dedup();
        names
    }

    /// The one kernel `name` means: itself, or a C++ kernel of that plain
    /// name (`_Z<len><name>...`). One line when there is none or several.
    pub fn find(&self, name: &str) -> anyhow::Result<String> {
        let kernels = self.kernels();
        if kernels.iter().any(|k| k == name) {
            return Ok(name.to_string());
        }
        let mangled = format!("_Z{}{name}", name.len());
        let matches: Vec<&String> = kernels.iter().filter(|k| k.starts_with(&mangled)).collect();
        match matches.as_slice() {
            [one] => Ok(one.to_string()),
            [] if kernels.is_empty() => bail!("no kernel `{name}`: the module holds no kernels"),
            [] => {
                let mut plain: Vec<&str> = kernels.iter().map(|k| plain_name(k)).collect();
                plain.sort();
                plain.dedup();
                bail!("no kernel `{name}` in the module; it has: {}", plain.join(", "))
            }
            many => bail!(
                "kernel `{name}` is overloaded; name one of: {}",
                many.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// A C++ kernel's plain name (`_Z9transposePfPKfii` is `transpose`), or
/// the name as it is.
fn plain_name(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("_Z") else {
        return name;
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match rest[..digits].parse::<usize>() {
        Ok(len) if rest.len() >= digits + len => &rest[digits..digits + len],
        _ => name,
    }
}

/// The toolkit's nvcc, found as the lessons' builds find it.
pub fn nvcc() -> anyhow::Result<PathBuf> {
    // The project's own toolkit, for a binary run from its target/ folder
    // or from inside the checkout.
    let places = [std::env::current_exe().ok(), std::env::current_dir().ok()];
    let project = places.iter().flatten().find_map(|p| {
        p.ancestors()
            .find(|d| d.join(".toolchain/cuda/bin/nvcc").is_file())
            .map(Path::to_path_buf)
    });
    let toolkit = cuda_build::locate(&|v| std::env::var_os(v), &|p| p.is_file(), project.as_deref())?;
    Ok(toolkit.nvcc)
}

/// Compiles `source` to a cubin for `arch` in a scratch folder.
fn compile(source: &Path, arch: &str, nvcc_args: &[String]) -> anyhow::Result<Vec<u8>> {
    let nvcc = nvcc()?;
    let dir = std::env::temp_dir().join(format!("kernel-timer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let cubin = dir.join("module.cubin");
    let out = Command::new(&nvcc)
        .arg("-cubin")
        .arg(format!("-arch={arch}"))
        .args(nvcc_args)
        .arg("-o")
        .arg(&cubin)
        .arg(source)
        .output()
        .with_context(|| format!("running {}", nvcc.display()))?;
    let bytes = std::fs::read(&cubin);
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        let first = why.lines().find(|l| l.contains("error")).unwrap_or(why.trim());
        bail!("nvcc could not compile {}: {first}", source.display());
    }
    bytes.with_context(|| format!("reading the cubin nvcc made of {}", source.display()))
}

/// A kernel loaded into a context, with its module (unloaded on drop).
pub struct Kernel {
    /// The name as the user gave it.
    pub name: String,
    /// The name the module gives it (a C++ kernel's mangled one).
    pub symbol: String,
    loaded: LoadedKernel,
}

impl Kernel {
    /// Loads `image` into `ctx` and finds the kernel named `name`.
    pub fn load(ctx: &Arc<CudaContext>, image: &Image, name: &str) -> anyhow::Result<Kernel> {
        let symbol = image.find(name)?;
        let c_name = CString::new(symbol.clone())?;
        let loaded = match image {
            Image::Ptx(text) => LoadedKernel::from_ptx(ctx, text, &c_name),
            Image::Cubin(bytes) => LoadedKernel::from_cubin(ctx, bytes, &c_name),
        }
        .context("loading the module")?;
        Ok(Kernel {
            name: name.to_string(),
            symbol,
            loaded,
        })
    }

    /// The sizes of the kernel's parameters in bytes, from the driver;
    /// `None` where the driver has no `cuFuncGetParamInfo` (before 12.4).
    pub fn param_sizes(&self) -> Option<Vec<usize>> {
        type GetParamInfo = unsafe extern "C" fn(CUfunction, usize, *mut usize, *mut usize) -> sys::CUresult;
        // SAFETY: libcuda is loaded already (cudarc opened it), so this
        // finds the same library; the symbol has the signature of CUDA
        // 12.4's cuda.h. The handle is never closed: the library stays.
        let get: GetParamInfo = unsafe {
            let lib = libc::dlopen(c"libcuda.so.1".as_ptr(), libc::RTLD_NOW);
            if lib.is_null() {
                return None;
            }
            let sym = libc::dlsym(lib, c"cuFuncGetParamInfo".as_ptr());
            if sym.is_null() {
                return None;
            }
            std::mem::transmute::<*mut c_void, GetParamInfo>(sym)
        };
        let mut sizes = Vec::new();
        loop {
            let (mut offset, mut size) = (0usize, 0usize);
            // SAFETY: a loaded function; writes two numbers. An index past
            // the last parameter is CUDA_ERROR_INVALID_VALUE.
            let status = unsafe { get(self.loaded.function(), sizes.len(), &mut offset, &mut size) };
            if status != sys::CUresult::CUDA_SUCCESS {
                return Some(sizes);
            }
            sizes.push(size);
        }
    }

    /// Allows `bytes` of dynamic shared memory where that is more than the
    /// 48 KiB every kernel gets without asking.
    pub fn allow_shared(&self, bytes: u32) -> Result<(), CudaError> {
        if bytes <= 48 * 1024 {
            return Ok(());
        }
        // SAFETY: a loaded function; sets one attribute.
        check!(unsafe {
            result::function::set_function_attribute(
                self.loaded.function(),
                CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                bytes as i32,
            )
        })
    }
}

/// A kernel's launch shape.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared: u32,
}

/// The arguments, made on the device: each buffer allocated and filled, and
/// the bytes of every parameter (a scalar's value, a buffer's address).
pub struct Workload {
    _buffers: Vec<DeviceBuffer<u8>>,
    params: Vec<Vec<u8>>,
}

impl Workload {
    pub fn new(ctx: &Arc<CudaContext>, args: &[ArgSpec]) -> Result<Workload, CudaError> {
        check!(ctx.bind_to_thread())?;
        let mut buffers = Vec::new();
        let mut params = Vec::new();
        for arg in args {
            let bytes = arg.initial_bytes();
            match arg {
                ArgSpec::Buffer { .. } => {
                    let mut buffer = check!(DeviceBuffer::<u8>::alloc(ctx, bytes.len()))?;
                    check!(buffer.copy_from_host(&bytes))?;
                    params.push(buffer.device_ptr().to_le_bytes().to_vec());
                    buffers.push(buffer);
                }
                ArgSpec::Scalar { .. } => params.push(bytes),
            }
        }
        Ok(Workload {
            _buffers: buffers,
            params,
        })
    }

    /// Queues one launch of `kernel` on these arguments.
    pub fn launch(&mut self, kernel: &Kernel, shape: Shape, stream: &CudaStream) -> Result<(), CudaError> {
        let mut ptrs: Vec<*mut c_void> = self
            .params
            .iter_mut()
            .map(|p| p.as_mut_ptr() as *mut c_void)
            .collect();
        // SAFETY: the arguments were held against the kernel's parameters
        // before this workload was made (or the driver could not tell, which
        // the report says), and the buffers live as long as the workload.
        unsafe {
            kernel.loaded.launch_shaped(
                (shape.grid.0, shape.grid.1, shape.grid.2),
                (shape.block.0, shape.block.1, shape.block.2),
                shape.shared,
                &mut ptrs,
                stream,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "
.version 8.0
.target sm_90
.address_size 64
.visible .entry _Z9transposePfPKfii(
    .param .u64 _Z9transposePfPKfii_param_0,
)
{ ret; }
.visible .entry empty()
{ ret; }
.visible .entry _Z3addPfi(.param .u64 a) { ret; }
.visible .entry _Z3addPdi(.param .u64 a) { ret; }
";

    fn ptx() -> Image {
        Image::recognise(PTX.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn ptx_text_and_elf_images_are_modules_and_other_files_are_not() {
        assert!(matches!(ptx(), Image::Ptx(_)));
        assert!(matches!(
            Image::recognise(b"\x7fELF\x02".to_vec()),
            Ok(Image::Cubin(_))
        ));
        for bad in [&b"int main() {}"[..], b"", b"\xff\xfe"] {
            let e = Image::recognise(bad.to_vec()).unwrap_err().to_string();
            assert!(e.contains("neither a cubin"), "{e}");
        }
    }

    #[test]
    fn kernels_are_found_by_their_name_or_their_plain_cxx_name() {
        let image = ptx();
        assert_eq!(
            image.kernels(),
            ["_Z3addPdi", "_Z3addPfi", "_Z9transposePfPKfii", "empty"]
        );
        assert_eq!(image.find("empty").unwrap(), "empty");
        assert_eq!(image.find("transpose").unwrap(), "_Z9transposePfPKfii");
        assert_eq!(image.find("_Z9transposePfPKfii").unwrap(), "_Z9transposePfPKfii");
        let e = image.find("transpos").unwrap_err().to_string();
        assert_eq!(
            e,
            "no kernel `transpos` in the module; it has: add, empty, transpose"
        );
        let e = image.find("add").unwrap_err().to_string();
        assert!(
            e.starts_with("kernel `add` is overloaded; name one of: _Z3addPdi, _Z3addPfi"),
            "{e}"
        );
    }

    #[test]
    fn a_cubins_kernels_are_its_text_sections() {
        let image =
            Image::Cubin(b"\x7fELF\0.text._Z4stepPf\0.nv.info._Z4stepPf\0.text.empty\0.shstrtab\0".to_vec());
        assert_eq!(image.kernels(), ["_Z4stepPf", "empty"]);
        assert_eq!(image.find("step").unwrap(), "_Z4stepPf");
    }
}
