import TesseraViews

/// `/orders`: the status filters; the rows are the page's `rows` region (``OrderRowsModel``).
struct OrderListModel: Sendable {
    var filters: [OrderStatusFilter]
}

/// The order list's rows, each already rendered by the row view its order needs.
struct OrderRowsModel: Sendable {
    var rows: [HTMLOutput]
    var isEmpty: Bool
    var emptyMessage: String
}
