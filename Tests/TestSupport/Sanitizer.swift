#if canImport(Glibc)
import Glibc
#endif

/// The sanitizer this test process runs under (`make sanitize`), found by the runtime's own entry
/// points, so tests that measure the plain binary (its system calls, its start-up time) can step
/// aside and say why.
public enum Sanitizer: String, Sendable {
    /// AddressSanitizer (with LeakSanitizer).
    case address
    /// ThreadSanitizer.
    case thread

    /// The sanitizer linked into this process, or nil for a plain build.
    public static let active: Sanitizer? = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(handle) }
        if dlsym(handle, "__asan_init") != nil { return .address }
        if dlsym(handle, "__tsan_init") != nil { return .thread }
        return nil
    }()

    /// True under any sanitizer.
    public static var isActive: Bool { active != nil }

    /// True when resident memory says nothing about the daemon's own use: AddressSanitizer keeps
    /// freed blocks in its quarantine (256 MB by default), and both sanitizers add shadow memory
    /// and allocators of their own, so growth bounds are asserted only in the plain run of the
    /// same tests.
    public static var distortsMemory: Bool { active != nil }
}
