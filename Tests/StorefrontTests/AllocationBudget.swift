/// The most heap allocations one request to each route may make, counted in the server process
/// by ``AllocationBudgetTests``: a change that allocates more fails `make test` until the budget
/// here is raised in the same commit, with the reason in its message.
///
/// Counts, not times: a request makes the same allocations on a busy machine as on an idle one,
/// and on any CPU. Each is the count when the budget was last set; a budget well above its
/// route's count hides the next regression, so lower it when a change saves allocations.
enum AllocationBudget {
    /// `tessera-bench /plaintext`: a prepared answer through the whole chain.
    static let plaintext = 4
    /// `tessera-bench /memory-fortunes`: the Fortunes page from rows in memory, through a page
    /// controller and typed views.
    static let memoryFortunes = 34
    /// `tessera-bench /json`: one object written as JSON into the answer (``JSONWriter``).
    static let json = 20
    /// `tessera-bench /db`: one row from PostgreSQL, as JSON.
    static let singleQuery = 47
    /// `tessera-bench /cached-queries?count=20`: twenty rows from the in-memory cache, as JSON.
    static let cachedQueries = 56
    /// The storefront's `/products/2` for a visitor without a session: the kept copy
    /// (`KeptPages`), through every step of the chain. At most a 304's count.
    static let keptProductPage = 25
    /// The storefront's `/products/2`, a repeat view with the kept copy's validator, answered 304.
    static let repeatViewNotModified = 25
    /// The storefront's `/products/2` for a signed-in shopper: rendered for her in full, her
    /// sealed session opened from the cookies verified lately.
    static let signedInProductPage = 216
}
