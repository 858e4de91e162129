//! BMI2's `pext` and `pdep`, with portable loops for processors without them (or where they
//! are slow), and the test of whether this processor runs them fast.

use std::sync::OnceLock;

use super::colex::nth_free;

/// One BMI2 instruction (`pext` or `pdep`) on `set` and `mask`, written out because the build
/// targets processors without BMI2 and an intrinsic would then be a call.
#[cfg(target_arch = "x86_64")]
macro_rules! bmi2 {
    ($op:literal, $set:expr, $mask:expr) => {{
        let out: u64;
        // SAFETY: only the `B = true` instances reach this, and only an index whose `bmi2`
        // flag `fast_bmi2` set passes them, so the processor has the instruction; it reads
        // and writes registers only.
        unsafe {
            std::arch::asm!(
                concat!($op, " {out}, {set}, {mask}"),
                set = in(reg) $set,
                mask = in(reg) $mask,
                out = lateout(reg) out,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        out
    }};
}

/// `set`'s bits (all of them in `mask`) packed down to their positions among `mask`'s bits:
/// BMI2's `pext` when `B`, which only an index made where [`fast_bmi2`] holds passes.
#[inline(always)]
pub(super) fn pext<const B: bool>(set: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if B {
        return bmi2!("pext", set, mask);
    }
    let (mut out, mut rest) = (0u64, set);
    while rest != 0 {
        let s = rest.trailing_zeros();
        rest &= rest - 1;
        out |= 1u64 << (mask & ((1u64 << s) - 1)).count_ones();
    }
    out
}

/// The inverse of [`pext`]: the low bits of `set` spread onto `mask`'s bits, by BMI2's `pdep`.
#[inline(always)]
pub(super) fn pdep<const B: bool>(set: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if B {
        return bmi2!("pdep", set, mask);
    }
    let (mut out, mut rest) = (0u64, set);
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        out |= 1u64 << nth_free(c, !mask);
    }
    out
}

/// Whether this processor has BMI2's `pdep` and `pext` and runs them fast: AMD's before Zen 3
/// (family 0x19) microcode them at tens to hundreds of cycles, slower than the loops they
/// replace.
pub fn fast_bmi2() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::__cpuid;
            if !std::arch::is_x86_feature_detected!("bmi2") {
                return false;
            }
            let vendor = __cpuid(0);
            let amd =
                (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = if base == 0xf {
                base + ((eax >> 20) & 0xff)
            } else {
                base
            };
            !(amd && family < 0x19)
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    })
}
