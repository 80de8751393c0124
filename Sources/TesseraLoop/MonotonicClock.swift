#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock in nanoseconds: cheap to read and to keep in an atomic. The loops'
/// timers count on it.
public enum MonotonicClock {
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
