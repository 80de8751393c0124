import CTesseraShim

/// Gives memory back to the system once a burst is over. glibc's allocator keeps what a burst
/// freed for the next one, so after 1,000 connections the server stayed at its peak (90 MB
/// against 34 MB idle) for good; an operator sees that as a leak, and a container limit counts
/// it. Once nothing has been in flight for a few seconds, `malloc_trim` returns the free pages.
struct IdleMemory {
    /// Quiet looks (of four a second) before trimming: 2 s.
    private static let quietLooksBeforeTrim = 8
    private var quietLooks = 0
    private var busySinceTrim = false

    /// Called four times a second with the requests in flight.
    mutating func look(inFlight: Int) {
        guard inFlight == 0 else {
            quietLooks = 0
            busySinceTrim = true
            return
        }
        quietLooks += 1
        guard busySinceTrim, quietLooks >= Self.quietLooksBeforeTrim else { return }
        busySinceTrim = false
        tessera_release_free_memory()
    }
}
