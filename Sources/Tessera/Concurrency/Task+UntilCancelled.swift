extension Task where Success == Never, Failure == Never {
    /// Suspends until the current task is cancelled, and no sooner: for a task whose work is done
    /// by callbacks it set up (an observer, a listener) and that must hold them until it ends.
    /// Unlike a loop of long sleeps, it never wakes, and so never allocates, while it waits.
    public static func untilCancelled() async {
        // A signal nobody sends: the wait ends only by cancellation.
        _ = await WakeSignal().wait()
    }
}
