/// The most heap allocations one request to each route may make, counted in the server process
/// by ``AllocationBudgetTests``: a change that allocates more fails `make test` until the budget
/// here is raised in the same commit, with the reason in its message.
///
/// Counts, not times: a request makes the same allocations on a busy machine as on an idle one.
/// Each is the count when the budget was last set; a budget well above its route's count hides
/// the next regression, so lower it when a change saves allocations.
///
/// Raised by one each with `Permissions-Policy`, a security header on every answer: libmicrohttpd
/// makes one allocation per response header (patch 0006). `/plaintext` is a prepared answer,
/// whose headers are made once, so it stays.
enum AllocationBudget {
    /// `tessera-bench /plaintext`: a prepared answer through the whole chain.
    static let plaintext = 4
    /// `tessera-bench /memory-fortunes`: the Fortunes page from rows in memory, through a page
    /// controller and typed views.
    static let memoryFortunes = 36
    /// `tessera-bench /db`: one row from PostgreSQL, as JSON.
    static let singleQuery = 72
    /// The storefront's `/products/2`, a first visit: the page rendered, a session cookie sealed.
    /// 171 while cookies were only signed; sealing with AES-256-GCM costs 7 more in swift-crypto
    /// (the sealed box's ciphertext, tag and combined bytes, and their bridging).
    static let productPageFirstVisit = 178
    /// The storefront's `/products/2`, a repeat view with the session cookie and the page's
    /// validator, answered 304 with every step run.
    static let repeatViewNotModified = 27
}
