#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks up a C function by name in everything the process has loaded (`RTLD_DEFAULT`:
/// LD_PRELOADed libraries first) and gives it the type `F`, a `@convention(c)` function type;
/// nil where no such symbol is loaded.
///
/// For the C functions the harness cannot call directly: glibc declares some only under
/// `_GNU_SOURCE`, which Swift's Glibc module does not define (`sched_getaffinity`); some are
/// variadic, which Swift cannot call (`prctl`); some live in a library that may not be loaded
/// (`mallctl`, jemalloc's). The caller must name `F` to match the function's C signature.
func cFunction<F>(named name: String, as type: F.Type) -> F? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: type)
}
